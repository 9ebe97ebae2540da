"""Random legal playouts (seeded) keep the game's invariants; replay, notation, JSON and the
camera all give back what went in."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.games.gleebs_and_grues.movegen import any_grue_move, can_move
from companion.games.gleebs_and_grues.pieces import GRUES, RAINBOW, SEATS
from companion.games.gleebs_and_grues.state import empty_cells, is_pinned, unplaced

from ._support import GAME

seeds = st.integers(min_value=0, max_value=2**32 - 1)
orders = st.sampled_from([SEATS, SEATS[::-1]])


def playout(seed: int, players):
    rng = random.Random(seed)
    state = GAME.setup(players)
    states, moves = [state], []
    while GAME.to_move(state) is not None:
        move = GAME.random_move(state, rng)
        moves.append(move)
        state = GAME.apply(state, move)
        states.append(state)
    return states, moves


@given(seeds, orders)
def test_pyramids_are_conserved_eaten_ones_accounted(seed, players):
    states, _ = playout(seed, players)
    for state in states:
        on_board = [p for stack in state.board for p in stack]
        everything = on_board + list(state.eaten) + unplaced(state.board, state.eaten)
        assert Counter(everything) == Counter(RAINBOW)
        assert all(not p.is_grue for p in state.eaten)
    for before, after in zip(states, states[1:]):
        assert after.eaten[:len(before.eaten)] == before.eaten


@given(seeds, orders)
def test_pins_are_permanent(seed, players):
    states, _ = playout(seed, players)
    for n, state in enumerate(states):
        for i, stack in enumerate(state.board):
            if is_pinned(stack):
                assert all(later.board[i] == stack for later in states[n:])


@given(seeds, orders)
def test_exactly_one_empty_square_after_placement(seed, players):
    states, _ = playout(seed, players)
    first = next(s for s in states if s.stage not in ("grues", "place"))
    assert len(empty_cells(first.board)) == 1
    assert unplaced(first.board, first.eaten) == []


@given(seeds, orders)
def test_stages_and_the_end_follow_the_rules(seed, players):
    states, moves = playout(seed, players)
    for state, move in zip(states, moves):
        assert GAME.check(state, move).legal
        if state.stage == "gleeb":
            assert can_move(state.board, GAME.to_move(state))
        if state.stage == "grue":
            assert any_grue_move(state.board)
    end = states[-1]
    outcome = GAME.outcome(end)
    assert outcome is not None and set(outcome.winners) <= set(SEATS) | {GRUES}
    if end.ending == "score":
        assert not any(can_move(end.board, seat) for seat in SEATS)
    assert len(moves) <= 1 + 12 + 2 * 30   # every game ends


@given(seeds, orders)
def test_replay_reproduces_the_state_through_json_and_notation(seed, players):
    states, moves = playout(seed, players)
    by_json, by_text = GAME.setup(players), GAME.setup(players)
    for state, move in zip(states, moves):
        text = GAME.notation(state, move)
        assert GAME.parse_notation(by_text, text) == move
        by_text = GAME.apply(by_text, GAME.parse_notation(by_text, text))
        by_json = GAME.apply(by_json, GAME.move_from_json(GAME.move_to_json(move)))
    assert by_json == states[-1] and by_text == states[-1]
    assert hash(by_json) == hash(states[-1])


@given(seeds, orders, st.integers(min_value=0, max_value=10**6))
def test_candidates_rank_the_move_made_first(seed, players, pick):
    states, moves = playout(seed, players)
    rng = random.Random(pick)
    for n in sorted(rng.sample(range(len(moves)), 3)):
        state = states[n]
        for move in (moves[n], rng.choice(GAME.physical_moves(state))):
            seen = GAME.expected_observation(GAME.apply(state, move))
            best = GAME.candidates(state, seen)[0]
            assert best.cost == 0.0
            assert GAME.expected_observation(best.state) == seen
            if best.move == move:
                assert best.verdict == GAME.check(state, move)


@given(seeds, orders)
def test_board_view_and_status_are_json_of_the_state(seed, players):
    states, _ = playout(seed, players)
    for state in states[::5] + [states[-1]]:
        view = json.loads(json.dumps(GAME.board_view(state)))
        assert len(view["cells"]) == 16
        status = json.loads(json.dumps(GAME.status(state)))
        assert status["players"] == list(players) and status["active"] == GAME.to_move(state)
        assert status["scores"] == GAME.scores(state)
