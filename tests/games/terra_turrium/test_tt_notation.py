"""Notation and JSON: short, readable, round-tripping; malformed input gets a clear error."""

from __future__ import annotations

import json

import pytest

from companion.games import MalformedMove
from companion.games.terra_turrium.moves import Move

from ._support import GAME, after, pos


@pytest.mark.parametrize("text", [
    "red: -d3 -d4 +e5 +e5",
    "red: -f2 +f2 c5-d5-d6",
    "red: c5-d5 /",
    "red: / blue: -h7 +h7",
    "red: -d3 +d3 / blue: h8-h7",
])
def test_notation_round_trips(text):
    state = pos()
    move = GAME.parse_notation(state, text)
    assert GAME.notation(state, move) == text
    assert GAME.parse_notation(state, GAME.notation(state, move)) == move


def test_capture_is_written_with_an_x_and_parses_either_way():
    state = pos(flags={"c3": "red", "d3": "blue"})
    move = GAME.parse_notation(state, "red: c3-d3")
    assert GAME.notation(state, move) == "red: c3xd3"
    assert GAME.parse_notation(state, "red: c3xd3") == move


def test_layout_notation():
    state = GAME.setup(["red", "blue"])
    move = GAME.parse_notation(state, "R@b2 B@i9 r@c2 blue@h9")
    assert GAME.notation(state, move) == "R@b2 B@i9 R@c2 B@h9"


def test_comments_and_case_are_tolerated():
    state = pos()
    assert GAME.parse_notation(state, "RED: -D3 (from the middle)") == \
        GAME.parse_notation(state, "red: -d3")


def test_a_seat_prefix_must_match_the_turn():
    with pytest.raises(MalformedMove, match="blue is written where it is red's turn"):
        GAME.parse_notation(pos(), "blue: -d3")
    with pytest.raises(MalformedMove, match="red is written where it is blue's turn"):
        GAME.parse_notation(pos(), "red: -d3 +d3 / red: -h7")


@pytest.mark.parametrize("text, message", [
    ("", "no action"),
    ("red:", "no action"),
    ("purple: -d3", "not a seat"),
    ("-k3", "not a square"),
    ("-c11", "rows go from 1 to 10"),
    ("c3", "not an action"),
    ("X@c3", "R@c3"),
    ("c3-zz", "not a square"),
])
def test_malformed_notation(text, message):
    with pytest.raises(MalformedMove, match=message):
        GAME.parse_notation(pos(), text)


def test_notation_of_a_move_that_cannot_be_played_is_still_written():
    move = GAME.parse_notation(GAME.setup(["red", "blue"]), "R@b2")
    assert GAME.notation(pos(), move) == "R@b2"


@pytest.mark.parametrize("text", [
    "red: -d3 -d4 +e5 +e5", "red: c5-d5-d6 /", "red: / blue: -h7", "red: -d3 +c3",
])
def test_json_round_trips(text):
    move = GAME.parse_notation(pos(), text)
    data = GAME.move_to_json(move)
    assert GAME.move_from_json(json.loads(json.dumps(data))) == move


def test_json_shape():
    move = GAME.parse_notation(pos(), "red: -d3 +e5 c5-d5 /")
    assert GAME.move_to_json(move) == {"actions": [
        {"take": "d3"}, {"put": "e5"}, {"go": ["c5", "d5"]}, {"end": True}]}
    lay = GAME.parse_notation(GAME.setup(["red", "blue"]), "R@b2")
    assert GAME.move_to_json(lay) == {"actions": [{"lay": "b2", "colour": "red"}]}


@pytest.mark.parametrize("data, message", [
    ([], "JSON object"),
    ({}, "non-empty list"),
    ({"actions": []}, "non-empty list"),
    ({"actions": [{"take": "d3"}], "player": "red"}, "unknown key"),
    ({"actions": ["d3"]}, "must be an object"),
    ({"actions": [{"take": "d3", "put": "d4"}]}, "exactly one of"),
    ({"actions": [{"fly": "d3"}]}, "exactly one of"),
    ({"actions": [{"take": "z9"}]}, "not a square"),
    ({"actions": [{"take": 3}]}, "is a square like"),
    ({"actions": [{"end": "yes"}]}, "must be true"),
    ({"actions": [{"go": "c3-c4"}]}, "list of squares"),
    ({"actions": [{"go": ["c3"]}]}, "at least two squares"),
    ({"actions": [{"lay": "b2"}]}, "needs \"colour\""),
    ({"actions": [{"take": "d3", "colour": "red"}]}, "only \"lay\""),
])
def test_malformed_json(data, message):
    with pytest.raises(MalformedMove, match=message):
        GAME.move_from_json(data)


def test_malformed_input_leaves_the_state_untouched():
    state = pos()
    before = (state.heights, state.flags, state.mp)
    with pytest.raises(MalformedMove):
        GAME.apply(state, GAME.parse_notation(state, "red: -a1"))
    with pytest.raises(MalformedMove, match="not a Terra Turrium move"):
        GAME.check(state, {"actions": [{"take": "d3"}]})
    assert (state.heights, state.flags, state.mp) == before
    assert isinstance(after(state, "red: -d3").taken, tuple)


def test_moves_are_values():
    a = GAME.parse_notation(pos(), "red: -d3 +e5")
    b = GAME.parse_notation(pos(), "red: -d3 +e5")
    assert a == b and hash(a) == hash(b) and isinstance(a, Move)
