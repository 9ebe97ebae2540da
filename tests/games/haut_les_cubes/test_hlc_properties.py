"""Invariants of random legal playouts (hypothesis, seeded), replay and round-trips."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings, strategies as st

from companion.games.haut_les_cubes.cards import DECK_SIZE
from companion.games.haut_les_cubes.geometry import footprint, heights_of
from companion.games.haut_les_cubes.mountain import _compute
from companion.games.haut_les_cubes.moves import Play
from companion.games.texts import normalise, rule_text
from companion.referee.session import GameSession
from companion.store import EventLog

from hlc_positions import GAME

SEATS = ("red", "yellow", "blue", "green", "white", "black")


def playout(seed: int, n: int, limit: int = 400):
    rng = random.Random(seed)
    state = GAME.setup(SEATS[:n], seed=seed)
    states, moves = [state], []
    while GAME.outcome(state) is None and len(moves) < limit:
        move = GAME.random_move(state, rng)
        state = GAME.push(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def check_invariants(before, after):
    # 24 cubes conserved between the table and the reserves
    assert len(after.cubes) + sum(after.reserves) == 24
    # the height map is the one the placements give; every cube rests on a full base
    assert after.heights == heights_of(after.cubes)
    fresh = _compute(after.cubes)
    assert (fresh.ring, fresh.sites, fresh.free_tops) == \
        (after.mountain.ring, after.mountain.sites, after.mountain.free_tops)
    for x, y, z in after.cubes:
        assert all(after.heights.get(c, 0) >= z for c in footprint(x, y))
    # no giant off a square, two giants never on one square
    placed = [g for g in after.giants if g is not None]
    assert len(set(placed)) == len(placed)
    squares = after.mountain.squares
    assert all(g in squares for g in placed)
    # every card accounted for, through reshuffles
    assert after.cards_total() == DECK_SIZE
    # scores never decrease
    assert all(b <= a for b, a in zip(before.scores, after.scores))


@given(seed=st.integers(0, 10_000), n=st.integers(3, 6))
@settings(max_examples=25)
def test_random_legal_playouts_keep_the_invariants(seed, n):
    states, _ = playout(seed, n)
    for before, after in zip(states, states[1:]):
        check_invariants(before, after)


@given(seed=st.integers(0, 10_000), n=st.integers(3, 6))
@settings(max_examples=15)
def test_notation_and_json_round_trip(seed, n):
    states, moves = playout(seed, n, limit=150)
    for state, move in zip(states, moves):
        text = GAME.notation(state, move)
        assert GAME.parse_notation(state, text) == move, text
        data = json.loads(json.dumps(GAME.move_to_json(move)))
        assert GAME.move_from_json(data) == move


@given(seed=st.integers(0, 10_000))
@settings(max_examples=8, deadline=None)
def test_log_replay_reproduces_the_state_exactly(seed, tmp_path_factory):
    states, moves = playout(seed, 4, limit=200)
    path = tmp_path_factory.mktemp("log")
    with EventLog.in_dir(path) as log:
        start = log.new_game(GAME.name, {"players": list(SEATS[:4]), "options": {}, "seed": seed})
        for state, move in zip(states, moves):
            verdict = GAME.check(state, move)
            log.append(start.game_id, "move.judged", {
                "move": GAME.move_to_json(move), "legal": verdict.legal,
                "score_delta": dict(verdict.score_delta)}, actor="test")
        session = GameSession.replay(log.events(start.game_id))
    assert session.state == states[-1]
    assert GAME.scores(session.state) == GAME.scores(states[-1])


@given(seed=st.integers(0, 10_000), n=st.integers(3, 6))
@settings(max_examples=15)
def test_the_move_made_explains_its_own_picture_best(seed, n):
    """candidates(state, what the camera sees after m) ranks m (or a move the camera cannot
    tell from it) first."""
    states, moves = playout(seed, n, limit=120)
    for state, move, after in zip(states, moves, states[1:]):
        seen = GAME.expected_observation(after)
        found = GAME.candidates(state, seen)
        assert found, GAME.notation(state, move)
        best = found[0]
        assert best.cost == 0.0
        if best.move != move:  # an equally good reading must end in the same position
            assert any(c.move == move and c.cost == 0.0 for c in found)


def test_every_quoted_paragraph_is_in_the_rule_text():
    from companion.games.haut_les_cubes.rules import RULES
    text = normalise(rule_text("haut-les-cubes"))
    for rule in RULES.values():
        if rule.paragraph.startswith("Rulings"):
            continue
        quotes = re.findall(r"« (.*?) »", rule.paragraph)
        assert quotes, rule.id
        for quote in quotes:
            assert normalise(quote) in text, (rule.id, quote)
        assert rule.fr and rule.en


def test_random_moves_are_always_legal():
    rng = random.Random(3)
    state = GAME.setup(SEATS[:5])
    for _ in range(300):
        if GAME.outcome(state) is not None:
            break
        move = GAME.random_move(state, rng)
        assert GAME.check(state, move).legal
        assert not isinstance(move, Play) or move in GAME.legal_moves(state) or move.is_null \
            or move.card == "nenlevsa"
        state = GAME.apply(state, move)
