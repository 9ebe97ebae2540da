"""Seats, options and the grues set at random: the first move of every game."""

from __future__ import annotations

import random

import pytest

from companion.games import BadOptions, BadSetup, MalformedMove, get_game
from companion.games.gleebs_and_grues import SetGrues
from companion.games.gleebs_and_grues.pieces import CELLS, SEAT_LED
from companion.games.gleebs_and_grues.state import empty_cells, is_free_grue

from ._support import BY, GAME, GR, PLAYERS, assert_breaks, assert_legal


def test_registry_gives_this_engine():
    game = get_game("gleebs-and-grues")
    assert type(game).__name__ == "GleebsAndGrues"
    assert game.seats == (BY, GR)
    assert (game.min_players, game.max_players) == (2, 2)
    assert game.rules_file == "gleebs-and-grues.fr.txt"


@pytest.mark.parametrize("players", [(BY, GR), (GR, BY)])
def test_first_player_is_the_first_seat_given(players):
    state = GAME.setup(players)
    assert GAME.to_move(state) == players[0]
    assert state.stage == "grues" and state.board == tuple(() for _ in CELLS)
    status = GAME.status(state)
    assert status["players"] == list(players) and status["phase"] == "setup"


@pytest.mark.parametrize("players, words", [
    ((BY,), "2 players"),
    ((BY, GR, BY), "2 players"),
    ((BY, "purple"), "unknown seat"),
    ((GR, GR), "both players took"),
    ("blue-yellow", "list of seats"),
])
def test_wrong_players_are_refused_clearly(players, words):
    with pytest.raises(BadSetup, match=words):
        GAME.setup(players)


def test_options_none_are_named_and_unknown_ones_refused():
    assert GAME.options_to_json(GAME.default_options()) == {}
    assert GAME.option_docs() == {}
    with pytest.raises(BadOptions, match="unknown option.*grues_first"):
        GAME.setup(PLAYERS, {"grues_first": True})
    with pytest.raises(BadOptions):
        GAME.setup(PLAYERS, 42)
    assert GAME.setup(PLAYERS, {}) == GAME.setup(PLAYERS)


def test_led_colours_for_each_seat():
    status = GAME.status(GAME.setup(PLAYERS))
    assert status["led"] == {seat: list(SEAT_LED[seat]) for seat in PLAYERS}
    assert status["seat_colours"] == {BY: ["blue", "yellow"], GR: ["green", "red"]}
    for pair in SEAT_LED.values():
        assert all(len(c) == 7 and c.startswith("#") for c in pair)


def test_gg_setup_three_squares__legal():
    state = GAME.setup(PLAYERS)
    assert_legal(state, "grues Ks@a1 Km@c2 Kl@d4")
    after = GAME.apply(state, SetGrues((0, 0), (2, 1), (3, 3)))
    assert [is_free_grue(after.stack(c)) for c in [(0, 0), (2, 1), (3, 3)]] == [True] * 3
    assert len(empty_cells(after.board)) == 13
    assert after.stage == "place" and GAME.to_move(after) == BY


def test_gg_setup_three_squares__illegal():
    state = GAME.setup(PLAYERS)
    assert_breaks(state, "grues Ks@b2 Km@b2 Kl@d4", "gg.setup.three-squares")
    # let stand: the medium grue swallows the small one on b2
    after = GAME.apply(state, SetGrues((1, 1), (1, 1), (3, 3)))
    assert [p.code for p in after.stack((1, 1))] == ["Ks", "Km"]
    assert GAME.legal_moves(state) and SetGrues((1, 1), (1, 1), (3, 3)) not in GAME.legal_moves(state)
    assert SetGrues((1, 1), (1, 1), (3, 3)) in GAME.physical_moves(state)


def test_grue_setting_counts():
    state = GAME.setup(PLAYERS)
    assert len(GAME.legal_moves(state)) == 16 * 15 * 14
    assert len(GAME.physical_moves(state)) == 16 ** 3


def test_random_setting_is_three_distinct_squares_with_all_odds():
    state = GAME.setup(PLAYERS)
    rng = random.Random(7)
    seen = set()
    for _ in range(400):
        move = GAME.random_move(state, rng)
        assert len(set(move.cells())) == 3
        seen.update(move.cells())
    assert seen == set(CELLS)


def test_nothing_but_the_grues_before_the_grues_are_set():
    state = GAME.setup(PLAYERS)
    with pytest.raises(MalformedMove, match="set the three grues first"):
        GAME.check(state, GAME.parse_notation(state, "Ys@a1"))
    assert state == GAME.setup(PLAYERS)


def test_setting_the_grues_twice_is_malformed():
    state = GAME.apply(GAME.setup(PLAYERS), SetGrues((0, 0), (1, 0), (2, 0)))
    with pytest.raises(MalformedMove, match="already set"):
        GAME.check(state, SetGrues((0, 1), (1, 1), (2, 1)))
