"""Notation and JSON: readable, unambiguous, round-tripping."""

from __future__ import annotations

import json

import pytest

from companion.games.altitude.moves import Move
from companion.games.base import MalformedMove

from ._support import BLUE, GAME, RED, lay_for, pass_until, play, start, tiny_deck


@pytest.mark.parametrize("text, data", [
    ("red draws m07a", {"kind": "draw", "seat": "red", "card": "m07a"}),
    ("red builds m07a 1:0", {"kind": "build", "seat": "red", "card": "m07a", "slot": [1, 0]}),
    ("red discards m07a", {"kind": "discard", "seat": "red", "card": "m07a"}),
    ("red gives m07a blue 1:-1", {"kind": "give", "seat": "red", "card": "m07a",
                                  "slot": [1, -1], "target": "blue"}),
    ("red replaces 1:0 with m09a", {"kind": "replace", "seat": "red", "card": "m09a",
                                    "slot": [1, 0]}),
    ("red rescues blue 1:1 with stb1", {"kind": "rescue", "seat": "red", "card": "stb1",
                                        "slot": [1, 1], "target": "blue"}),
    ("red holds", {"kind": "hold", "seat": "red"}),
    ("red passes", {"kind": "pass", "seat": "red"}),
    ("red discards m07a from hand", {"kind": "discard", "seat": "red", "card": "m07a",
                                     "source": "hand"}),
    ("red builds m07a 1:0 from discard", {"kind": "build", "seat": "red", "card": "m07a",
                                          "slot": [1, 0], "source": "discard"}),
])
def test_notation_and_json_forms(text, data):
    from companion.games.altitude.moves import parse, notation, to_json, from_json
    move, _ = parse(text)
    assert notation(move) == text and to_json(move) == data and from_json(data) == move


def test_lay_notation_states_the_cards_shown(tmp_path):
    state = GAME.setup((RED, BLUE), {"manifest": tiny_deck(tmp_path)})
    state = play(state, "red builds m01 1:0", "blue builds m02 1:0", "red builds m03 1:1",
                 "blue discards m04")
    move = GAME.parse_notation(state, "red lays m05 2:0, tel1 1:2; shows 2 cards 1 saint-bernard")
    assert move.lays == (("m05", (2, 0)), ("tel1", (1, 2))) and move.shows == 1
    assert GAME.notation(state, move) == \
        "red lays m05 2:0, tel1 1:2; shows 2 cards 1 saint-bernard"
    assert GAME.move_to_json(move) == {"kind": "lay", "seat": "red",
                                       "lays": [["m05", [2, 0]], ["tel1", [1, 2]]], "shows": 1}
    assert GAME.parse_notation(state, "red shows 4 cards 1 saint-bernard").lays == ()
    with pytest.raises(MalformedMove, match="keeps 2"):
        GAME.parse_notation(state, "red lays m05 2:0, tel1 1:2; shows 3 cards 1 saint-bernard")


def test_notation_reads_loosely_and_writes_exactly():
    state = play(start(), "red draws m07a")
    move = GAME.parse_notation(state, "  Red   BUILDS m02a 1:0 ")
    assert move.source == "hand"  # the drawn card is the 7: the 2 came from the hand
    assert GAME.notation(state, move) == "red builds m02a 1:0 from hand"
    with pytest.raises(MalformedMove, match="drawn card is m07a"):
        GAME.apply(state, Move("discard", RED, card="m02a"))


def test_every_move_of_a_game_round_trips():
    state = pass_until(lay_for(start(), BLUE, "builds m10a 1:0"), RED)
    state = play(state, "red gives ava1 blue 1:1")
    for position in (state, play(state, "blue draws stb1"), play(state, "blue discards m03a")):
        moves = GAME.physical_moves(position)
        assert len(moves) > len(GAME.legal_moves(position))
        for move in moves:
            text = GAME.notation(position, move)
            assert GAME.parse_notation(position, text) == move, text
            data = GAME.move_to_json(move)
            assert GAME.move_from_json(json.loads(json.dumps(data))) == move


def test_a_move_names_one_mountain_slot_unambiguously():
    move = Move("give", RED, card="m05a", slot=(2, 3), target=BLUE)
    assert GAME.notation(start(), move) == "red gives m05a blue 2:3"
    assert Move("replace", RED, card="m05a", slot=(1, 0), target=RED).target is None
    with pytest.raises(MalformedMove, match="build"):
        Move("give", RED, card="m05a", slot=(1, 0), target=RED)
