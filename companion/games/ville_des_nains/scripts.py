"""Scripted whole games of La Ville des Nains, for the demo, observation files and tests.

Each script is written in the game's notation, one still moment per line, as a table would play
it (:mod:`companion.games.ville_des_nains.moves`). A line may start with ``!`` (an illegal move:
the referee flags it and the pieces are put back), ``~`` (an illegal move the table lets stand) or
``?`` (the camera cannot tell it from another reading, so the referee asks and the script answers
with this move); ``= <rule id>`` names the rule an illegal move breaks and ``-- <note>`` says what
happens. Every line is judged from the camera's ideal reading in the tests, so a script is also a
check that each of its moments can be recognised; and the tests referee each script from its
observation file. A player's stones of one turn are one line, as the referee records them: it
waits while a player may still take stones (the candidate is incomplete) and settles the turn's
stones as one move when the dice are used up or the next player rolls.

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
green roll orange,red,red -- green, the youngest, starts
green take red-cube@0,orange-cube@0,red-long@1
white roll yellow,orange,red
! white take violet-cylinder@0 = vdn.dice.colour -- no die shows violet; the stone goes back
white take red-cylinder@0,orange-long@1,yellow-long@1
green roll orange,red,white
! green take orange-roof@1 = vdn.stone.order -- building 1 needs its cube first
? green take red-roof@0,yellow-cube@1,orange-roof@1 card 5 -- both finished: which card? (unseen)
white roll orange,blue,blue
white take orange-cylinder@0 draw plain,plain -- plain: a marked one destroys building 0
green roll yellow,violet,violet
? green take violet-cube@2,yellow-cylinder@2,violet-roof@2 card 7
white roll yellow,red,violet
white take yellow-roof@0,violet-long@2,red-cube@2 card 6 -- long, cube: only card 6 fits
green roll yellow,red,blue
green take yellow-cube@3,red-long@3 draw plain -- plain: building 3 is started
white roll orange,violet,blue
white take orange-cube@2,violet-cylinder@3 draw plain card 8 -- a cylinder first: only card 8
green roll red,violet,blue
green draw marked>3 -- marked: building 3 back to the table
green take red-cube@3,violet-long@3 -- building 3 again, from the ground
white roll orange,yellow,violet
? white take orange-long@3,yellow-cylinder@3,violet-cube@4 card 10 -- a cube first: card 10 or 12?
green roll yellow,red,red
green take red-roof@3,yellow-long@4,red-cylinder@4 card 9 -- long, cylinder: only card 9
white roll orange,violet,blue
! white draw marked>0 = vdn.blue.finished -- a finished building is safe
white take orange-cube@4 draw plain -- the violet die is not used
green roll orange,yellow,violet
green take yellow-roof@4,violet-cube@5,orange-cylinder@5 card 12 -- the last card but one
white roll red,violet,white
white take red-long@4,orange-long@5,violet-long@5 card 11 -- the last card
green roll red,yellow,orange
green take red-long@5,orange-roof@white:5 -- green gives white its roof; the city is finished
"""

BEACH = """
green roll yellow,orange,red
green take red-cube@0,orange-cube@0,yellow-cube@0
white roll orange,red,violet
white take violet-cube@0,red-long@0,orange-long@0
pink roll yellow,violet,blue
pink take yellow-long@0,violet-long@0 -- pink forgets its blue face
~ green roll yellow,orange,red = vdn.blue.draw -- the table lets the forgotten draw go
~ green take red-cube@0,orange-cube@0,violet-cube@0 = vdn.dice.colour -- violet on no die; let stand
white roll white,white,white -- three white faces: any colour
white take violet-cube@0,red-long@0,orange-long@0
! pink take yellow-roof@0 = vdn.dice.none -- pink builds before rolling
pink roll yellow,red,violet
pink take yellow-long@0,violet-long@0,red-cylinder@0
green roll yellow,orange,blue
green take orange-cylinder@0,yellow-cylinder@1 draw plain card beach -- a tower of 7: a new card
white roll orange,red,violet
white take violet-cylinder@0,red-roof@1,orange-roof@1 card beach
pink roll yellow,red,violet
pink take yellow-roof@0,violet-roof@0,red-cube@1 card beach
green roll yellow,white,blue
! green draw marked>0 = vdn.blue.beach-seven -- a tower of 7 is safe from the kobold
! green take yellow-cube@0 = vdn.build.beach-full -- an eighth stone on a tower of 7
green draw marked>1 -- marked: tower 1 (one stone) goes back
green take yellow-cube@1,yellow-cylinder@1
white roll orange,red,violet
! white take orange-cube@green:1 = vdn.give -- white still has towers to build
white take orange-cube@1,red-long@1,violet-long@1
pink roll yellow,red,white
pink take yellow-long@1,red-cylinder@1,orange-long@1
green roll yellow,orange,violet
green take orange-cylinder@1,yellow-cylinder@1,violet-cylinder@1
white roll orange,red,blue
? white take red-roof@1,orange-roof@1 draw plain card beach -- nothing started: marked?
pink roll yellow,violet,white
pink take yellow-roof@1,violet-roof@1,yellow-cube@1 -- no stone left on the table: the dwarves win
"""

KOBOLD = """
green roll orange,red,red
green take red-cube@0,orange-cube@0,red-long@1
blue roll 2 -- blue is the kobold: it rolls only its die
blue add 2
white roll yellow,orange,blue -- a blue face gives the dwarves nothing
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
blue destroy green:2 -- the kobold face: green's building 2 goes back
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
blue roll 2 add 2 -- 2 again: the tray shows no change, the tower does
white roll yellow,blue,blue
white take yellow-cube@3
green roll red,orange,blue
green take red-roof@2,orange-cylinder@3 card 8 -- a cylinder first: only card 8
blue roll kobold
blue destroy white:3
white roll yellow,violet,blue
white take yellow-cube@3,violet-long@3
green roll orange,orange,blue
green take orange-long@3
blue roll 2
blue add 2
white roll orange,blue,blue
? white take orange-roof@3 card 9
green roll violet,violet,blue
? green take violet-cylinder@3,violet-cube@4 card 10
blue roll 1
blue add 1
white roll white,blue,blue
white take yellow-long@4
green roll yellow,blue,blue
green take yellow-cube@4
blue roll 2 -- the twelfth blue stone: the kobold wins
blue add 2
"""


def demo_script() -> Script:
    """Game 1, stone side: green and white finish all twelve cards before the kobold's tower
    (6 blue stones) is built. Shows a wrong colour and a shape out of order flagged, plain and
    marked kobold stones, a finished building the kobold may not touch, cards asked for or
    deduced from their first stones, a die left unused, and colours given away at the end."""
    return Script(game=GAME, players=("green", "white"), steps=steps(DEMO),
                  options={"deal": "1,2;3,4"}, seed=0,
                  title="La Ville des Nains: game 1, stone side, the dwarves win")


def beach_script() -> Script:
    """Game 1, beach side, three dwarves: free towers of seven, won by the dwarves when no stone
    is left on the table (the beach ruling). Shows a marked stone destroying a tower under 7 and
    not one of 7, an eighth stone refused, a stone taken before rolling, colours given away too
    early, and a forgotten blue stone and a wrong colour the table lets stand."""
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
