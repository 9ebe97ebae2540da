"""Scripted whole games of Terra Turrium, one per player count (the start layouts differ).

Each game is written as the referee reads it from the camera: one line per still moment, in the
segmentation :func:`companion.games.terra_turrium.camera.candidates` gives (blocks taken and put
down, then flags moved; a turn's end rides on the next player's first line, ``/``, or closes the
line when the movement points are spent). A line is ``<kind> [<rule>] <notation>  # <note>``:

* ``play``: the move is made and is legal;
* ``illegal <rule>``: the move is made, the referee names the rule, the pieces go back;
* ``let_stand <rule>``: an illegal move the table lets stand;
* ``ask``: the camera cannot tell the move from another (here: whether the turn is over, when it
  would decide the game), the referee asks and the table answers with this move.

The two-player game (the demo) is won by red alone; in the three-player game red meets the
condition first and yellow, finishing the round, is a co-winner; in the four-player game yellow
attacks on its first turn, red defends and both re-enter their captured flags, and yellow wins
alone while blue and green play out the round.
"""

from __future__ import annotations

from companion.games.script import Script, ScriptStep
from companion.games.terra_turrium import moves

GAME = "terra-turrium"


def _steps(text: str) -> tuple[ScriptStep, ...]:
    steps = []
    for line in text.strip().splitlines():
        body, _, note = line.partition("#")
        kind, rest = body.split(None, 1)
        rule = None
        if kind in ("illegal", "let_stand"):
            rule, rest = rest.split(None, 1)
        move, _prefixes = moves.parse(rest.strip())
        steps.append(ScriptStep(move=moves.to_json(move), kind=kind, rule=rule,
                                note=note.strip()))
    return tuple(steps)


TWO_PLAYERS = """
play                                  R@b3 R@b4 R@c4 R@b5 R@c5 R@d5
play                                  B@f6 B@g6 B@h6 B@i6 B@i7 B@i8
illegal tt.take.flag                  red: -b3  # under red's own flag
play                                  red: -c3 -d4 -e4 +d3 +d3 +e3
play                                  red: / blue: -f7 -g7 -h7 +f8 +g8 +g8
illegal tt.take.one-foreign           blue: / red: -f2 -g2  # two from neutral yellow
play                                  blue: / red: -f2 -e5 -b6 +e2 +d3 +e3
play                                  red: / blue: -g2 -c6 -h8 +f8 +g8 +f9
illegal tt.take.max                   blue: / red: -b2 -h2 -d6 -f9  # a fourth block
play                                  blue: / red: -h2 -d6 -f9 +d2 +e2 +e3
play                                  red: / blue: -b2 -i2 -e6 +f9 +f9 +g9
play                                  blue: / red: -f3 -b7 -f9 +b2 +c2 +d3
play                                  red: / blue: -b2 -g3 -c7 +f8 +g8 +f9
play                                  blue: / red: -h3 -d7 -f9 +b2 +d2 +e2
play                                  red: / blue: -b2 -i3 -e7 +f9 +g9 +h9
play                                  blue: / red: -f4 -b8 -f9 +b2 +d3 +e3
illegal tt.flag.height                red: b3-b2-c2-d2-d3  # d2 (3) to d3 (6)
play                                  red: b3-b2-c2-d2-e2-e3 /
play                                  blue: -b2 -g4 -c8 +f8 +f9 +f9
play                                  blue: / red: -h4 +b2
play                                  red: e3-d3 b4-b3-b2-c2-d2 /
play                                  blue: -i4 +g8
play                                  blue: i8-i9-h9-g9-f9-f8 /
play                                  red: d2-e2-e3 c4-b4-b3-b2 /
play                                  blue: i7-i8-i9-h9-g9 f8-g8 /
play                                  red: b2-c2-d2-e2 b5-b4-b3 /
play                                  blue: i6-i7-i8-i9 g9-f9-f8 /
play                                  red: b3-b2-c2-d2 c5-c4-b4 /
play                                  blue: h6-i6-i7 i9-h9-g9-f9 /
play                                  red: b4-b3-b2-c2 d5-c5-b5 /  # red wins
play                                  blue: g6-h6 i7-i8-i9-h9-g9 /
"""

THREE_PLAYERS = """
play                                  R@b3 R@b4 R@c4 R@b5 R@c5 R@d5
play                                  Y@i3 Y@h4 Y@i4 Y@g5 Y@h5 Y@i5
play                                  B@g6 B@h6 B@i6 B@h7 B@i7 B@i8
play                                  red: -c3 -d4 -d4 +d3 +d3 +e3
play                                  red: / yellow: -h3 -f4 -f4 +f3 +g3 +g3
illegal tt.place.free                 yellow: / blue: -f6 +i8  # under blue's flag
play                                  yellow: / blue: -f6 -f6 -f7 +f8 +g8 +g8
play                                  blue: / red: -e4 -e4 -e5 +e2 +d3 +e3
play                                  red: / yellow: -g4 -g4 -f5 +f2 +f3 +g3
play                                  yellow: / blue: -f7 -g7 -g7 +f8 +g8 +f9
play                                  blue: / red: -f2 -e5 -b6 +d2 +e2 +e3
play                                  red: / yellow: -b2 -f5 -c6 +f2 +f2 +g2
play                                  yellow: / blue: -c2 -d6 -h8 +f8 +f9 +g9
play                                  blue: / red: -f2 -d6 -f9 +b2 +c2 +d3
play                                  red: / yellow: -b2 -e6 -f9 +f2 +f3 +g3
play                                  yellow: / blue: -c2 -f2 -e6 +g8 +f9 +f9
play                                  blue: / red: -f2 -b7 -f9 +b2 +c2 +c2
play                                  red: / yellow: -b2 -c7 -f9 +f2 +f2 +h2
play                                  yellow: / blue: -c2 -f2 -d7 +f9 +f9 +h9
play                                  blue: / red: -f2 -d7 -f9 +b2 +c2 +d2
play                                  red: / yellow: -b2 -e7 -f9 +f2 +f2 +g2
play                                  yellow: / blue: -c2 -f2 -e7 +f9 +f9 +g9
play                                  blue: / red: -f2 -b8 -f9 +b2 +c2 +e2
play                                  red: / yellow: -b2 -c8 -f9 +f2 +f2 +f2
play                                  yellow: / blue: -c2 -f2 -d8 +f9 +f9 +f9
play                                  blue: / red: -f2 -e8 -f8 +b2 +c2 +e3
play                                  red: / yellow: -b2 -f8 -b9 +f2 +f2 +f3
play                                  yellow: / blue: -c2 -f2 -c9 +f8 +f8 +f8
play                                  blue: / red: -f2 -f8 -d9 +b2 +c2 +d3
let_stand tt.flag.height              red: b3-b2-c2-d2-d3  # three levels up, let stand
play                                  red: / yellow: -b2 -f8 -e9 +f2 +f2 +g3
illegal tt.flag.construction          yellow: i3-j3  # j3 is empty
play                                  yellow: i3-i2-h2-g2-f2-f3 /
play                                  blue: -c2 -f2 +f8 +f8
play                                  blue: / red: -f2 -f8 +b2 +c2
play                                  red: b4-b3-b2-c2-d2-e2 /
play                                  yellow: -b2 -f8 +f2 +f2
illegal tt.flag.one-per-construction  yellow: i4-i5  # onto its own flag
play                                  yellow: f3-g3 i4-i3-i2-h2-g2 /
play                                  blue: -c2 -f2 +f8 +f8
play                                  blue: / red: -f2 -f8 +b2 +c2
play                                  red: e2-e3 c4-b4-b3-b2-c2 /
play                                  yellow: -b2 -f8 +f2 +f2
play                                  yellow: g2-f2-f3 h4-i4-i3-i2 /
play                                  blue: -d2 -f2 +f8 +f8
play                                  blue: / red: -f2 -f8 +b2 +d2
play                                  red: c2-d2-e2 b5-b4-b3-b2 /
play                                  yellow: -c2 -f8 +f2 +f2
play                                  yellow: i2-h2-g2-f2 i5-i4-i3 /
play                                  blue: -c2 -g2 +f8 +f8
play                                  blue: / red: -g2 -f8 +c2 +c2
play                                  red: b2-c2-d2 c5-c4-b4-b3 /  # red wins first
play                                  yellow: -b2 -f8 +g2 +g2
play                                  yellow: i3-i2-h2-g2 h5-h4-i4 /  # yellow, co-winner
ask                                   blue: -c2 -h2 +f8 +f8 /  # last turn of the round: over?
"""

FOUR_PLAYERS = """
play                                  R@b3 R@b4 R@b5 R@c5 R@d5 R@e5
play                                  Y@i3 Y@i4 Y@f5 Y@g5 Y@h5 Y@i5
play                                  B@g6 B@h6 B@i6 B@h7 B@i7 B@i8
play                                  G@b6 G@c6 G@d6 G@b7 G@c7 G@b8
play                                  red: -a1 -b1 -c1 +d3 +d3 +e3
play                                  red: / yellow: -f1 -g1 -h1 +f3 +g3 +g3
play                                  yellow: f5xe5  # attack 1/5 on red's land
play                                  yellow: / blue: -f6 -f6 -j6 +f8 +g8 +g8
illegal tt.flag.through               blue: h6-h5-h4  # through yellow's flag
play                                  blue: / green: -a6 -e6 -e6 +d8 +d8 +e8
play                                  green: / red: -d1 -e1 -a2 +e2 +d3 +e3
illegal tt.reentry.exterior           red: d5xe5 *f5  # f5 is interior
play                                  red: d5xe5 *a3  # defence, and a re-entry
play                                  red: / yellow: -i1 -j1 -j2 +f2 +f3 +g3
play                                  yellow: *i2  # yellow's flag re-enters
play                                  yellow: / blue: -f7 -f7 -g7 +f8 +g8 +f9
play                                  blue: / green: -a7 -d7 -d7 +d8 +e8 +e9
play                                  green: / red: -c3 -a4 -c4 +d2 +e2 +e3
play                                  red: / yellow: -h3 -j3 -f4 +f2 +g2 +f3
play                                  yellow: / blue: -g7 -j7 -h8 +f8 +f9 +g9
play                                  blue: / green: -e7 -e7 -a8 +e8 +d9 +e9
play                                  green: / red: -d4 -d4 -e4 +c2 +d2 +d3
play                                  red: / yellow: -f4 -g4 -g4 +g2 +h2 +g3
play                                  yellow: / blue: -j8 -j9 -f10 +g8 +g9 +h9
play                                  blue: / green: -c8 -a9 -a10 +d8 +c9 +d9
play                                  green: / red: -e4 -j4 -a5 +e2 +d3 +e3
play                                  red: b3-b2-c2-d2-e2-e3 /
play                                  yellow: -h4 -j5 -g10 +f2 +f3 +g3
play                                  yellow: i2-h2-g2-f2-f3-g3 /
play                                  blue: -h10 -i10 -j10 +f8 +g8 +f9
play                                  blue: i8-i9-h9-g9-f9-f8 /
play                                  green: -b10 -c10 -d10 +d8 +e8 +e9
play                                  green: b8-b9-c9-d9-e9-e8 /
play                                  red: a3-b3-b2-c2-d2 e3-d3 /
play                                  yellow: i3-i2-h2-g2-f2-f3 /
play                                  blue: i7-i8-i9-h9-g9 f8-g8 /
play                                  green: b7-b8-b9-c9-d9 e8-d8 /
play                                  red: d2-e2-e3 b4-b3-b2-c2 /
play                                  yellow: i4-i3-i2-h2-g2-f2 /
play                                  blue: i6-i7-i8-i9 g9-f9-f8 /
play                                  green: b6-b7-b8-b9 d9-e9-e8 /
play                                  red: c2-d2-e2 b5-b4-b3-b2 /
play                                  yellow: i5-i4-i3-i2-h2-g2 /  # yellow wins
play                                  blue: h7-i7-i8 i9-h9-g9-f9 /
play                                  green: c7-b7-b8 b9-c9-d9-e9 /
"""


def two_player_script() -> Script:
    return Script(game=GAME, players=("red", "blue"), steps=_steps(TWO_PLAYERS),
                  title="Terra Turrium, two players: red wins alone")


def three_player_script() -> Script:
    return Script(game=GAME, players=("red", "yellow", "blue"), steps=_steps(THREE_PLAYERS),
                  title="Terra Turrium, three players: red and yellow co-winners")


def four_player_script() -> Script:
    return Script(game=GAME, players=("red", "yellow", "blue", "green"),
                  steps=_steps(FOUR_PLAYERS),
                  title="Terra Turrium, four players: an attack, a defence, yellow wins")


def demo_script() -> Script:
    """The game the demo plays: two players, a few illegal moves, red's win."""
    return two_player_script()


#: the scripted games, with the winners each must reach
SCRIPTS = {
    "two": (two_player_script, ("red",)),
    "three": (three_player_script, ("red", "yellow")),
    "four": (four_player_script, ("yellow",)),
}
