"""Setting a game up: the deck manifest, the options, the players; and bad input refused with a
clear message, nothing changed."""

from __future__ import annotations

import json

import pytest

from companion.errors import BadInput, UserError
from companion.games import get_game
from companion.games.altitude.manifest import (
    KINDS, ManifestError, load_manifest, manifest_from_json, shipped_manifest,
)
from companion.games.base import BadOptions, BadSetup, MalformedMove

from ._support import BLUE, GAME, GREEN, RED, TINY, YELLOW, start, tiny_deck


def test_registered_under_its_name():
    game = get_game("altitude")
    assert type(game).__name__ == "Altitude" and game.name == "altitude"
    assert game.seats == ("red", "yellow", "blue", "green")
    assert (game.min_players, game.max_players) == (1, 4)
    assert game.rules_file == "montagne-de-cartes.fr.txt"


def test_shipped_manifests_are_made_up_decks_of_every_kind():
    demo, mini = shipped_manifest("demo"), shipped_manifest("mini")
    assert (demo.size, mini.size) == (52, 24)
    for deck in (demo, mini):
        assert {c.kind for c in deck} == set(KINDS)
        assert all(c.value == 0 for c in deck if c.kind == "telepherique")
        assert all(c.value is None for c in deck if c.kind in ("avalanche", "saint-bernard"))
        assert all(c.animal for c in deck if c.kind == "animal")


def test_a_manifest_file_is_the_deck(tmp_path):
    path = tiny_deck(tmp_path)
    state = GAME.setup((RED, BLUE), {"manifest": path})
    assert state.manifest.name == "tiny" and state.manifest.size == 12 and state.deck == 4
    assert load_manifest(path) == state.manifest


def test_copies_share_an_id(tmp_path):
    data = {"name": "twins", "cards": [{"id": "m05", "kind": "mountain", "value": 5,
                                        "copies": 7}]}
    path = tmp_path / "twins.json"
    path.write_text(json.dumps(data))
    state = GAME.setup((RED,), {"manifest": str(path)})
    assert state.unseen == (("m05", 7),) and state.deck == 3


@pytest.mark.parametrize("card, message", [
    ({"id": "x", "kind": "dragon"}, "kind"),
    ({"id": "x", "kind": "mountain"}, "value"),
    ({"id": "x", "kind": "mountain", "value": 0}, "value"),
    ({"id": "x", "kind": "animal", "value": 4}, "animal"),
    ({"id": "x", "kind": "telepherique", "value": 3}, "worth 0"),
    ({"id": "x", "kind": "avalanche", "value": 3}, "no value"),
    ({"id": "X Y", "kind": "avalanche"}, "lower-case"),
    ({"id": "x", "kind": "avalanche", "copies": 0}, "copies"),
    ({"id": "x", "kind": "avalanche", "colour": "red"}, "unknown field"),
    ({"id": "x", "kind": "mountain", "value": 3, "animal": "cat"}, "only animal"),
])
def test_a_bad_card_in_a_manifest_is_named(card, message):
    with pytest.raises(ManifestError, match=message) as caught:
        manifest_from_json({"name": "bad", "cards": [{"id": "ok", "kind": "avalanche"}, card]},
                           where="box.json")
    assert "box.json: cards[1]" in str(caught.value)
    assert isinstance(caught.value, BadInput) and isinstance(caught.value, BadSetup)


def test_duplicate_ids_and_empty_decks_are_refused():
    with pytest.raises(ManifestError, match="twice"):
        manifest_from_json({"name": "d", "cards": [{"id": "a", "kind": "avalanche"}] * 2})
    with pytest.raises(ManifestError, match="non-empty"):
        manifest_from_json({"name": "d", "cards": []})
    with pytest.raises(ManifestError, match="name"):
        manifest_from_json({"cards": [{"id": "a", "kind": "avalanche"}]})


def test_a_missing_or_broken_manifest_file_says_what_to_do(tmp_path):
    with pytest.raises(ManifestError, match="no such manifest file") as caught:
        GAME.setup((RED,), {"manifest": str(tmp_path / "nope.json")})
    assert "enrol" in str(caught.value) and isinstance(caught.value, UserError)
    broken = tmp_path / "broken.json"
    broken.write_text("{\"name\": ")
    with pytest.raises(ManifestError, match="not JSON"):
        GAME.setup((RED,), {"manifest": str(broken)})


def test_a_deck_too_small_to_deal_is_refused(tmp_path):
    path = tiny_deck(tmp_path)  # 12 cards: 6 each for two players, not three
    assert GAME.setup((RED, BLUE), {"manifest": path}).deck == 4
    with pytest.raises(BadSetup, match="needs 18"):
        GAME.setup((RED, YELLOW, BLUE), {"manifest": path})


@pytest.mark.parametrize("players, message", [
    ((), "1 to 4 players"),
    ((RED, YELLOW, BLUE, GREEN, "white"), "1 to 4 players"),
    ((RED, "purple"), "unknown seat"),
    ((RED, RED), "once"),
])
def test_wrong_players_are_refused(players, message):
    with pytest.raises(BadSetup, match=message):
        GAME.setup(players)


def test_options_are_checked_and_documented():
    assert GAME.options_to_json(GAME.default_options()) == {"manifest": "demo"}
    assert "manifest" in GAME.option_docs() and "enrolled" in GAME.option_docs()["manifest"]
    with pytest.raises(BadOptions, match="unknown option"):
        GAME.setup((RED,), {"double_turn": True})
    with pytest.raises(BadOptions, match="must be a str"):
        GAME.setup((RED,), {"manifest": 7})
    with pytest.raises(BadOptions):
        GAME.setup((RED,), ["mini"])


def test_malformed_moves_are_refused_and_change_nothing():
    state = start()
    before = (state, hash(state))
    bad_json = [
        [], {"kind": "build"}, {"kind": "fly", "seat": RED},
        {"kind": "build", "seat": RED, "card": "m05a"},
        {"kind": "build", "seat": RED, "card": "m05a", "slot": [1]},
        {"kind": "build", "seat": RED, "card": "m05a", "slot": [1, "0"]},
        {"kind": "build", "seat": RED, "card": "m05a", "slot": [1, 0], "colour": "red"},
        {"kind": "discard", "seat": RED, "card": "m05a", "source": "pocket"},
        {"kind": "give", "seat": RED, "card": "m05a", "slot": [1, 0]},
        {"kind": "lay", "seat": RED},
        {"kind": "lay", "seat": RED, "lays": [["m05a"]]},
    ]
    for data in bad_json:
        with pytest.raises(MalformedMove):
            GAME.apply(state, GAME.move_from_json(data))
    for text in ("", "red", "red builds", "red builds m05a", "red builds m05a 1-0",
                 "red jumps", "red lays", "red builds m05a 1:0 from pocket"):
        with pytest.raises(MalformedMove, match="cannot read|forms"):
            GAME.parse_notation(state, text)
    for text in ("purple builds m05a 1:0", "red builds m99 1:0", "red builds m05a 2:0",
                 "red lays m05a 1:0", "red rescues 1:0 with stb1", "red gives m05a red 1:0"):
        with pytest.raises(MalformedMove):
            GAME.parse_notation(state, text)
    assert (state, hash(state)) == before


def test_an_illegal_move_pushed_is_refused_with_its_rule():
    from companion.games.base import IllegalMove
    state = start()
    move = GAME.parse_notation(state, "red builds ava1 1:0")
    with pytest.raises(IllegalMove) as caught:
        GAME.push(state, move)
    assert caught.value.rule.id == "alt.avalanche.own"
    assert GAME.apply(state, move).mountain(RED) == ((1, 0, "ava1"),)  # it can still stand


def test_the_game_over_takes_no_move(tmp_path):
    state = GAME.setup((RED,), {"manifest": tiny_deck(tmp_path)})
    while GAME.outcome(state) is None:
        state = GAME.apply(state, GAME.legal_moves(state)[-1])
    assert GAME.legal_moves(state) == [] and GAME.to_move(state) is None
    with pytest.raises(MalformedMove, match="over"):
        GAME.apply(state, GAME.move_from_json({"kind": "pass", "seat": RED}))
    assert TINY["name"] == state.manifest.name
