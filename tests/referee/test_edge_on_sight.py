"""A cube's side the camera sees edge-on is no part of the picture.

The position below has a three-cube tower on (1, 2) right behind a five-cube one on (1, 0); the
camera stands in front, 67 cm up, less than a square to the side of the back tower's left face
(as the overhead webcam stood over one game's mountain). The tower in front hides the back
tower's top; its left side faces the camera's way but nearly in its plane, so the picture
draws it as a sliver a pixel or two wide. Counting that side's points as half of what the
camera could see made the hidden cube look a third seen, and a reading without it cost the
position nearly a whole piece: the card moved to the pile after the hidden cube was laid was
asked about, against taking that very cube away.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.haut_les_cubes import HautLesCubes
from companion.games.haut_les_cubes.camera import SEEN_LOW, Sight, expected_keys
from companion.games.haut_les_cubes.geometry import heights_of
from companion.games.haut_les_cubes.state import PHASE_PLAY
from companion.games.matching import MISS, MISS_HIDDEN
from companion.observation import Observation, Piece
from companion.referee.decide import decide

GAME = HautLesCubes()
FRONT = {(1, 0, k) for k in range(5)}
BACK = {(1, 2, k) for k in range(3)}
OTHERS = {(-1, -2, k) for k in range(5)} | {(-3, -2, 0), (-5, -1, 0)}
CUBES = frozenset(FRONT | BACK | OTHERS)
GIANTS = ((3, 2), (3, 0), (-2, -1))  # red, blue, green: red on the table, green on a cube
#: the camera in lattice cells (heights in cells): 0.56 of a cell left of the back tower's
#: left face, 16 squares in front, 67 cm up
EYE = (0.44, -14.3, 33.4)
#: the same camera moved four squares to the left: it sees that face squarely
EYE_LEFT = (-7.5, -14.3, 33.4)


def sight(eye=EYE, cubes=CUBES) -> Sight:
    standing = [(g, heights_of(cubes).get(g, 0)) for g in GIANTS]
    return Sight(eye, heights_of(cubes), standing)


def test_a_side_seen_edge_on_does_not_make_a_hidden_cube_seen():
    share = sight().cube_seen((1, 2, 2))
    assert share is not None and share < SEEN_LOW
    # the same side seen squarely, from further left, shows (the front tower hides the rest)
    assert sight(EYE_LEFT).cube_seen((1, 2, 2)) > SEEN_LOW
    # and a cube in plain view is seen whole (its top and both sides turned to the camera)
    assert sight().cube_seen((-5, -1, 0)) > 0.9


def test_the_hidden_cube_costs_little_when_missed():
    state = position()
    weights = dict(expected_keys(state, sight()))
    assert weights[("cube", 1, 2, 2)] == MISS_HIDDEN
    assert weights[("cube", 1, 0, 4)] == MISS  # the front tower's top, in plain view
    assert dict(expected_keys(state, sight(EYE_LEFT)))[("cube", 1, 2, 2)] > MISS_HIDDEN


def position():
    """Red has just laid its Napozla on the back tower; blue is to play."""
    start = GAME.setup(("red", "blue", "green"), GAME.options_from_json({}), seed=3)
    return replace(start, cubes=CUBES, giants=GIANTS, phase=PHASE_PLAY, turn=1,
                   last_card="napozla")


def reading(*, card: str | None = None) -> Observation:
    """The camera's reading: every cube but the back tower's (hidden), the three giants."""
    cubes = [Piece("cube", cell=(x, y), level=z, conf=1.0) for x, y, z in sorted(CUBES - BACK)]
    giants = [Piece("giant", cell=cell, level=heights_of(CUBES).get(cell, 0), conf=0.95,
                    attrs={"colour": seat}) for seat, cell in zip(("red", "blue", "green"), GIANTS)]
    card_piece = [Piece("card", zone="played", conf=1.0, attrs={"card": card})] if card else []
    # the lattice as the reader gives it, and the camera's place in table mm (the eye above)
    board = {"lattice": {"origin": [0.0, 0.0], "angle_deg": 0.0, "pitch": 20.0},
             "camera": [EYE[0] * 20.0, EYE[1] * 20.0, EYE[2] * 20.0]}
    return Observation("haut-les-cubes", tuple(cubes + giants + card_piece), board=board)


def test_the_card_moved_to_the_pile_is_settled_not_asked():
    state = position()
    decision = decide(GAME, state, reading())
    assert decision.kind == "settle", decision.reason
    assert decision.chosen.candidate.move == GAME.move_from_json({"pile": True})
