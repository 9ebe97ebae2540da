"""Random legal playouts keep the invariants of La Ville des Nains (the shared seeded hypothesis
profile makes them repeatable)."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from companion.games.ville_des_nains.camera import signature
from companion.games.ville_des_nains.state import OVER

DWARVES = ("green", "white", "pink", "cyan", "brown", "grey")
VARIANTS = [
    {},
    {"side": "beach"},
    {"game": 2},
    {"game": 2, "side": "beach"},
    {"all_or_nothing": True},
    {"side": "beach", "beach_all_cards": True},
]
MAX_MOVES = 1500


def table(data):
    options = data.draw(st.sampled_from(VARIANTS), label="options")
    n = data.draw(st.integers(2, 6), label="dwarves")
    players = list(DWARVES[:n])
    if options.get("game") == 2:
        players.insert(data.draw(st.integers(0, n), label="kobold seat"), "blue")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    return players, options, seed


def invariants(game, state):
    built = state.built()
    assert tuple(p + b for p, b in zip(state.pool, built)) == state.stock  # stones conserved
    assert min(state.pool) >= 0
    assert 0 <= state.tower <= 12  # 12 blue stones at most on the kobold's tower
    assert 0 <= state.marked <= 3 and state.marked <= state.tower  # 3 marked at most
    if state.options.game == 2:
        assert state.marked == 0
    cards = sorted([b.card for row in state.buildings for b in row] + list(state.talon))
    assert cards == list(range(1, 13))  # every card is in play or in the talon, once
    for row in state.buildings:
        for b in row:
            assert len(b.stones) <= state.need(b)  # legal play never overfills a building
    for face in state.dice_left:
        assert face in state.colour_dice
    assert (game.to_move(state) is None) == (state.stage == OVER) == (game.outcome(state)
                                                                      is not None)


def playout(game, players, options, seed):
    state = game.setup(players, options, seed=seed)
    rng = random.Random(seed)
    moves, states = [], [state]
    while game.outcome(state) is None:
        assert len(moves) < MAX_MOVES, "the game did not end"
        move = game.random_move(state, rng)
        verdict = game.check(state, move)
        assert verdict.legal, (game.notation(state, move), verdict.rule)
        state = game.apply(state, move)
        moves.append(move)
        states.append(state)
    return moves, states


@given(st.data())
def test_random_playouts_keep_the_invariants_and_replay(game, data):
    players, options, seed = table(data)
    moves, states = playout(game, players, options, seed)
    for state in states:
        invariants(game, state)
    # replaying the move list from the same parameters reproduces every state exactly
    state = game.setup(players, options, seed=seed)
    for move, expected in zip(moves, states[1:]):
        state = game.apply(state, move)
        assert state == expected and hash(state) == hash(expected)
    # the end: the dwarves finished the city, or the kobold has its twelve stones
    last = states[-1]
    out = game.outcome(last)
    if last.winner == "kobold":
        assert last.tower == 12 and out.winners in (("kobold",), ("blue",))
    else:
        assert last.city_finished() and "blue" not in out.winners
        if options.get("side") == "beach" and not options.get("beach_all_cards"):
            assert sum(last.pool) == 0


@given(st.data())
def test_moves_round_trip_through_notation_and_json(game, data):
    players, options, seed = table(data)
    moves, states = playout(game, players, options, seed)
    for move, state in zip(moves, states):
        text = game.notation(state, move)
        assert game.parse_notation(state, text) == move, text
        assert game.move_from_json(json.loads(json.dumps(game.move_to_json(move)))) == move


@given(st.data())
def test_candidates_rank_the_move_made_first(game, data):
    players, options, seed = table(data)
    moves, states = playout(game, players, options, seed)
    for move, state, after in zip(moves, states, states[1:]):
        obs = game.expected_observation(after)
        cands = game.candidates(state, obs)
        if game.explain(state, obs) == 0.0:
            # nothing visible changed (a repeat roll, a card taken): no move is claimed
            assert cands == [], game.notation(state, move)
            continue
        assert cands, game.notation(state, move)
        best = cands[0]
        assert best.cost == 0.0 and best.verdict.legal, (game.notation(state, move),
                                                          game.notation(state, best.move))
        ties = [c for c in cands if c.cost == 0.0]
        assert after in [c.state for c in ties], game.notation(state, move)


@given(st.data())
def test_legal_and_physical_moves_are_judged_and_seen(game, data):
    players, options, seed = table(data)
    moves, states = playout(game, players, options, seed)
    rng = random.Random(seed)
    picks = sorted(rng.sample(range(len(moves)), min(3, len(moves))))
    for i in picks:
        state, move = states[i], moves[i]
        legal = game.legal_moves(state)
        assert move in legal, game.notation(state, move)
        physical = game.physical_moves(state)
        assert set(legal) <= set(physical)
        for m in physical:
            verdict = game.check(state, m)
            assert verdict.legal == (m in legal)
            game.apply(state, m)
        # a mistake the camera can see is explained, by it or by a reading that looks the same
        for m in rng.sample(physical, min(6, len(physical))):
            after = game.apply(state, m)
            obs = game.expected_observation(after)
            if game.explain(state, obs) == 0.0:
                continue
            cands = game.candidates(state, obs)
            assert cands and cands[0].cost == 0.0, game.notation(state, m)
            assert signature(cands[0].state) == signature(after), game.notation(state, m)
