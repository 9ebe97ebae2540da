"""Scripted whole games of La Ville des Nains, for the demo, observation files and tests.

Each script is written in the game's notation, one still moment per line, as a table would play
it (:mod:`companion.games.ville_des_nains.moves`). A line may start with ``!`` (an illegal move:
the referee flags it and the pieces are put back), ``~`` (an illegal move the table lets stand) or
``?`` (the camera cannot tell it from another reading, so the referee asks and the script answers
with this move); ``= <rule id>`` names the rule an illegal move breaks and ``-- <note>`` says what
happens. Every line is judged from the camera's ideal reading in the tests, so a script is also a
check that each of its moments can be recognised.

* :func:`demo_script`: game 1, stone side, 2 dwarves, won by the dwarves (the demo);
* :func:`beach_script`: game 1, beach side, 3 dwarves, won by the dwarves when the last stone
  leaves the table;
* :func:`kobold_script`: game 2, stone side, 2 dwarves and the kobold player, won by the kobold.
"""

from __future__ import annotations

from companion.games.script import Script, ScriptStep
from companion.games.ville_des_nains.moves import parse, to_json

GAME = "ville-des-nains"
_KINDS = {"!": "illegal", "~": "let_stand", "?": "ask"}


def steps(text: str) -> tuple[ScriptStep, ...]:
    """Script steps from annotated notation lines (see the module docstring)."""
    out = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line, _, note = line.partition(" -- ")
        line, _, rule = line.partition(" = ")
        kind = _KINDS.get(line[0], "play")
        if kind != "play":
            line = line[1:].strip()
        out.append(ScriptStep(move=to_json(parse(line.strip())), kind=kind,
                              rule=rule.strip() or None, note=note.strip()))
    return tuple(out)


DEMO = """
green roll orange,red,red -- green is the youngest and starts
green take red-cube@0,orange-cube@0,red-long@1
white roll yellow,orange,red
! white take violet-cylinder@0 = vdn.dice.colour -- no die shows violet; the stone goes back
white take red-cylinder@0 -- the turn spread over two still moments
white take orange-long@1,yellow-long@1
green roll orange,red,white
! green take orange-roof@1 = vdn.stone.order -- building 1 needs a cube before its roof
? green take red-roof@0,yellow-cube@1,orange-roof@1 card 5 -- both finished: which card? (unseen)
white roll yellow,orange,blue
white draw plain -- plain: a marked one would destroy building 0
? white take orange-cylinder@0,yellow-roof@0 card 6
green roll yellow,violet,violet
? green take violet-cube@2,yellow-cylinder@2,violet-roof@2 card 7
white roll orange,red,violet
? white take violet-long@2,red-cube@2,orange-cube@2 card 8
green roll yellow,red,blue
green take yellow-cube@3,red-long@3
green draw marked>3 -- the kobold symbol: green's unfinished building 3 goes back to the table
white roll orange,violet,blue
white take violet-cylinder@3,orange-long@3
white draw plain
green roll yellow,red,red
? green take yellow-cube@3,red-long@3,red-roof@3 card 9
white roll yellow,orange,violet
white take orange-cylinder@3,yellow-cube@4,violet-cube@4 card 10 -- cube, cube: only card 10
green roll red,violet,blue
green take violet-long@4,red-cylinder@4
! green draw marked>0 = vdn.blue.finished -- a finished building cannot be destroyed
green draw plain
white roll orange,yellow,yellow
white take yellow-long@4,yellow-long@5,orange-long@5 card 11 -- long, long: only card 11 fits
green roll orange,violet,yellow
green take orange-roof@4,violet-cube@5,yellow-cylinder@5 card 12 -- the last card
white roll yellow,violet,white
white take yellow-roof@5 -- white's last building: no card is left
white take violet-long@green:5 -- white gives; the city is finished
"""

BEACH = """
green roll yellow,orange,red
green take red-cube@0,orange-cube@0,yellow-cube@0
white roll orange,red,violet
white take violet-cube@0,red-long@0,orange-long@0
pink roll yellow,violet,blue
? pink draw plain -- pink has nothing started: marked or not, the camera cannot tell
pink take yellow-long@0,violet-long@0
green roll yellow,orange,red
green take red-cube@0,orange-cube@0
~ green take violet-cube@0 = vdn.dice.colour -- violet is on no die; the table lets it stand
white roll white,red,violet
white take violet-cube@0,red-long@0,orange-long@0
pink roll yellow,red,violet
pink take yellow-long@0,violet-long@0,red-cylinder@0
green roll yellow,orange,blue
green take orange-cylinder@0,yellow-cylinder@1 card beach -- a tower of 7: new card
! white roll orange,red,violet = vdn.blue.draw -- green has not drawn its blue stone yet
green draw marked>1 -- marked: green's tower 1 (under 7 stones) goes back
white roll orange,red,violet
white take violet-cylinder@0 card beach
white take red-roof@1,orange-roof@1
! pink take yellow-roof@0 = vdn.dice.none -- pink builds before rolling
pink roll yellow,red,violet
pink take yellow-roof@0,violet-roof@0,red-cube@1 card beach
green roll yellow,white,blue
green take yellow-cube@1,yellow-cube@1
! green draw marked>0 = vdn.blue.beach-seven -- a tower of 7 stones can no longer be destroyed
green draw plain -- plain: tower 1 could have been destroyed
white roll orange,red,violet
! white take violet-roof@0 = vdn.build.beach-full -- white's tower 0 already has 7 stones
! white take orange-cube@green:1 = vdn.give -- white still has towers to build
white take orange-cube@1,red-long@1,violet-long@1
pink roll yellow,red,white
pink take yellow-long@1,red-cylinder@1,orange-long@1
green roll yellow,orange,violet
green take orange-cylinder@1,yellow-cylinder@1,violet-cylinder@1
white roll orange,red,blue
white take red-roof@1,orange-roof@1 card beach -- nothing of white's is started: marked or not?
? white draw plain
pink roll yellow,violet,violet
pink take yellow-roof@1,violet-roof@1
green roll yellow,orange,red -- the last stone leaves the table: the dwarves win (beach ruling)
green take yellow-cylinder@1
"""

KOBOLD = """
green roll orange,red,red
green take red-cube@0,orange-cube@0,red-long@1
blue roll 2 -- blue is the kobold player: it rolls only the kobold die
blue add 1 -- the kobold adds its stones over two still moments
blue add 1
white roll yellow,orange,blue -- a blue face gives the dwarves nothing in game 2
white take orange-cylinder@0,yellow-long@1
green roll red,white,blue
green take red-roof@0,yellow-cube@1
blue roll 1
! blue add 2 = vdn.game2.count -- the die shows 1
! blue destroy green:1 = vdn.game2.destroy-face -- only the kobold face destroys
blue add 1
white roll red,blue,blue
white take red-cylinder@0
! white draw plain = vdn.game2.blue -- in game 2 a dwarf takes no blue stone
green roll orange,violet,yellow
? green take orange-roof@1,violet-cube@2,yellow-cylinder@2 card 5 -- cube, cylinder: card 5 or 12?
blue roll kobold
! blue destroy green:0 = vdn.game2.unfinished -- green's building 0 is finished
blue destroy green:2 -- the kobold face: green's unfinished building goes back to the table
white roll violet,yellow,blue
? white take yellow-roof@0,violet-long@1 card 6
green roll blue,blue,white
green take violet-cube@2
blue roll 2
blue add 2
white roll red,red,orange
? white take red-long@2,red-cube@2,orange-cube@2 card 7
green roll blue,blue,violet
green take violet-cylinder@2
blue roll 2 add 2 -- the kobold rolled 2 again: the tray shows no change, the stones tell
white roll yellow,blue,blue
white take yellow-cube@3
green roll red,orange,blue
? green take red-roof@2 card 8
blue roll kobold
blue destroy white:3
white roll yellow,violet,blue
white take yellow-cube@3,violet-long@3
green roll orange,blue,blue
green take orange-cylinder@3
blue roll 2
blue add 2
white roll orange,white,blue
? white take orange-roof@3 card 9
green roll violet,violet,blue
green take violet-long@3
blue roll 1
blue add 1
white roll white,blue,blue
white take yellow-long@4
green roll yellow,blue,blue
? green take yellow-cylinder@3 card 10
blue roll 2
blue add 2 -- the twelfth blue stone: the kobold wins
"""


def demo_script() -> Script:
    """Game 1, stone side: green and white finish all twelve cards before the kobold's tower
    (4 blue stones) is built. Shows a turn over two still moments, a wrong colour and a shape out
    of order flagged, plain and marked kobold stones, a finished building the kobold may not
    touch, cards asked for or deduced from the first stones, and colours given away at the end."""
    return Script(game=GAME, players=("green", "white"), steps=steps(DEMO),
                  options={"deal": "1,2;3,4"}, seed=0,
                  title="La Ville des Nains: game 1, stone side, the dwarves win")


def beach_script() -> Script:
    """Game 1, beach side, three dwarves: free towers of seven, won by the dwarves when no stone
    is left on the table (the beach ruling). Shows a marked stone destroying a tower under 7 and
    not one of 7, an eighth stone refused, a blue stone not drawn, a stone taken before rolling,
    colours given away too early, and a wrong colour the table lets stand."""
    return Script(game=GAME, players=("green", "white", "pink"), steps=steps(BEACH),
                  options={"side": "beach"}, seed=0,
                  title="La Ville des Nains: game 1, beach side, the dwarves win")


def kobold_script() -> Script:
    """Game 2, stone side: blue is the kobold player and reaches its twelfth stone first. Shows
    the kobold die's numbers and kobold face, too many blue stones, a destruction on a number face
    and of a finished building refused, a dwarf taking a blue stone, and a repeat roll the tray
    cannot show."""
    return Script(game=GAME, players=("green", "blue", "white"), steps=steps(KOBOLD),
                  options={"game": 2, "deal": "1,2;3,4"}, seed=0,
                  title="La Ville des Nains: game 2, the kobold wins")


SCRIPTS = {"demo": demo_script, "beach": beach_script, "kobold": kobold_script}
