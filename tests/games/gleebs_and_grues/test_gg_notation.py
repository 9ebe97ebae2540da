"""Notation and JSON: readable, round-tripping, and clear about what is wrong."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.gleebs_and_grues import Place, SetGrues, Step
from companion.games.gleebs_and_grues.pieces import Pyramid

from ._support import GAME, PLAYERS, pos

BOARD = """
.      Gm     .         Gs
Bs     Rl/Ym  Km        Yl
Rs     Bm     .         Kl
Ys     Bl     Gl/Rm/Ks  .
"""


@pytest.fixture
def moving():
    return pos(BOARD)


@pytest.fixture
def placing():
    return GAME.apply(GAME.setup(PLAYERS), SetGrues((0, 0), (1, 1), (2, 2)))


def test_notation_examples(moving, placing):
    start = GAME.setup(PLAYERS)
    assert GAME.notation(start, SetGrues((0, 0), (2, 1), (3, 3))) == "grues Ks@a1 Km@c2 Kl@d4"
    assert GAME.notation(placing, Place(Pyramid("yellow", 1), (1, 0))) == "Ys@b1"
    assert GAME.notation(moving, Step((1, 2), (1, 3))) == "Ym b3xb4"
    assert GAME.notation(moving, Step((1, 1), (2, 1))) == "Bm b2-c2"
    assert GAME.notation(moving, Step((1, 2), (1, 3), True)) == "Ym b3xb4 split"


def test_parse_accepts_the_short_and_loose_forms(moving, placing):
    assert GAME.parse_notation(moving, "b3xb4") == Step((1, 2), (1, 3))
    assert GAME.parse_notation(moving, "  ym  b3 - b4 ") == Step((1, 2), (1, 3))
    assert GAME.parse_notation(placing, "ys @ B1") == Place(Pyramid("yellow", 1), (1, 0))
    start = GAME.setup(PLAYERS)
    assert GAME.parse_notation(start, "grues Kl@d4 Ks@a1 Km@c2") == \
        SetGrues((0, 0), (2, 1), (3, 3))


@pytest.mark.parametrize("stage", ["grues", "place", "gleeb"])
def test_every_physical_move_round_trips(stage, moving, placing):
    state = {"grues": GAME.setup(PLAYERS), "place": placing, "gleeb": moving}[stage]
    moves = GAME.physical_moves(state)
    if stage == "grues":
        moves = moves[::37]
    texts = set()
    for move in moves:
        text = GAME.notation(state, move)
        assert GAME.parse_notation(state, text) == move
        assert GAME.move_from_json(GAME.move_to_json(move)) == move
        texts.add(text)
    assert len(texts) == len(moves)   # unambiguous


@pytest.mark.parametrize("text, words", [
    ("", "not a Gleeb's and Grues move"),
    ("hello", "not a Gleeb's and Grues move"),
    ("Ym b3xe5", "not a Gleeb's and Grues move"),
    ("Ym b3xb3", "must leave its square"),
    ("Bm b3xb4", "b3 shows the medium yellow gleeb"),
    ("c4xb4", "nothing on c4"),
    ("Qs b3xb4", "not a pyramid code"),
    ("grues Ks@a1 Km@b2", "must place the three grues"),
    ("grues Ks@a1 Ks@b2 Kl@c3", "named twice"),
    ("grues Ks@a1 Km@b2 Yl@c3", "not a grue on a square"),
    ("Ks@a1", "grues are set at the start"),
])
def test_malformed_notation_is_refused_clearly(moving, text, words):
    before = moving
    with pytest.raises(MalformedMove, match=words):
        GAME.parse_notation(moving, text)
    assert moving == before == pos(BOARD)


@pytest.mark.parametrize("data, words", [
    ([1, 2], "JSON object"),
    ({}, "move.type must be one of"),
    ({"type": "jump"}, "move.type must be one of"),
    ({"type": "step", "from": [0, 0]}, "move.to must be a cell"),
    ({"type": "step", "from": [0, 0], "to": [0, 4]}, "off the 4×4 board"),
    ({"type": "step", "from": [0, 0], "to": [0, True]}, "must be a cell"),
    ({"type": "step", "from": [0, 0], "to": [0, 0]}, "must leave its square"),
    ({"type": "step", "from": [0, 0], "to": [0, 1], "split": "yes"}, "split must be true or false"),
    ({"type": "step", "from": [0, 0], "to": [0, 1], "colour": "red"}, "unknown field"),
    ({"type": "place", "colour": "black", "size": "small", "cell": [0, 0]}, "move.colour"),
    ({"type": "place", "colour": "red", "size": "huge", "cell": [0, 0]}, "move.size"),
    ({"type": "grues", "small": [0, 0], "medium": [1, 1]}, "move.large"),
])
def test_malformed_json_is_refused_clearly(data, words):
    with pytest.raises(MalformedMove, match=words):
        GAME.move_from_json(data)


def test_json_forms():
    assert GAME.move_to_json(Step((1, 2), (1, 3))) == {"type": "step", "from": [1, 2], "to": [1, 3]}
    assert GAME.move_to_json(Step((1, 2), (1, 3), True))["split"] is True
    assert GAME.move_to_json(Place(Pyramid("red", 3), (0, 1))) == \
        {"type": "place", "colour": "red", "size": "large", "cell": [0, 1]}
    assert GAME.move_to_json(SetGrues((0, 0), (1, 1), (2, 2))) == \
        {"type": "grues", "small": [0, 0], "medium": [1, 1], "large": [2, 2]}


def test_a_move_of_the_wrong_phase_is_malformed_and_changes_nothing(moving, placing):
    with pytest.raises(MalformedMove, match="not a placement moment"):
        GAME.check(moving, Place(Pyramid("green", 3), (0, 3)))
    with pytest.raises(MalformedMove, match="nothing moves yet"):
        GAME.check(placing, Step((0, 0), (0, 1)))
    with pytest.raises(MalformedMove):
        GAME.apply(placing, Step((0, 0), (0, 1)))
    assert moving == pos(BOARD)
