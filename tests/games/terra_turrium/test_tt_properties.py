"""Property tests over random playouts (seeded by the shared hypothesis profile): the game's
invariants hold after every legal move, replay reproduces the state, notation and JSON round-trip,
and the camera reads each move back from the ideal picture of its result."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import PHASE_PLAY

from ._support import GAME, pos

PLAYERS = {2: ["red", "blue"], 3: ["red", "yellow", "blue"],
           4: ["red", "yellow", "blue", "green"]}


def biased_move(state, rng: random.Random):
    """A legal move, with captures and flag moves made likelier than chance so that playouts
    reach attacks, defences and re-entries."""
    moves = GAME.legal_moves(state)
    if state.phase == PHASE_PLAY:
        captures = [m for m in moves if m.actions[0].kind == "go"
                    and state.flags_at(m.actions[0].squares[-1])]
        flags = [m for m in moves if m.actions[0].kind in ("go", "enter")]
        roll = rng.random()
        if captures and roll < 0.6:
            return rng.choice(captures)
        if flags and roll < 0.5:
            return rng.choice(flags)
        ends = [m for m in moves if m.actions[0].kind == "end"]
        if ends and roll < 0.6:
            return ends[0]
    return rng.choice(moves)


def check_invariants(state):
    # blocks conserved: on the board or in hand, never more nor fewer than the start
    assert sum(state.heights) + state.off_board == state.start_blocks
    assert state.off_board == state.in_hand  # legal play leaves nothing aside
    assert all(h >= 0 for h in state.heights)
    # one flag per construction, flags stand on constructions, six flags a player
    squares = Counter(sq for sq, _ in state.flags)
    assert all(n == 1 for n in squares.values())
    assert all(state.heights[sq] > 0 for sq in squares)
    for seat, reserve in zip(state.players, state.reserve):
        assert len(state.flag_squares(seat)) + reserve == board.FLAGS_PER_PLAYER
    # the aggression track
    assert all(0 <= n <= board.MAX_ATTACKS for n in state.attacks)
    assert 0 <= state.mp <= board.MOVEMENT_POINTS and len(state.taken) <= board.MAX_TAKES


def playout(n_players: int, seed: int, length: int):
    rng = random.Random(seed)
    state = GAME.setup(PLAYERS[n_players])
    moves = []
    for _ in range(length):
        if GAME.outcome(state) is not None:
            break
        move = biased_move(state, rng)
        moves.append((state, move))
        state = GAME.apply(state, move)
    return state, moves


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_random_playouts_keep_the_invariants(n, seed):
    state = GAME.setup(PLAYERS[n])
    rng = random.Random(seed)
    for _ in range(160):
        if GAME.outcome(state) is not None:
            break
        move = biased_move(state, rng)
        verdict = GAME.check(state, move)
        assert verdict.legal, (GAME.notation(state, move), verdict.rule)
        state = GAME.apply(state, move)
        check_invariants(state)
    assert GAME.status(state)["blocks"]["total"] == state.start_blocks


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_replay_reproduces_the_state(n, seed):
    final, moves = playout(n, seed, 120)
    # replaying the log: the moves from their JSON, from the same parameters
    logged = [GAME.move_to_json(m) for _, m in moves]
    state = GAME.setup(PLAYERS[n])
    for data in logged:
        state = GAME.apply(state, GAME.move_from_json(data))
    assert state == final and hash(state) == hash(final)


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_notation_and_json_round_trip(n, seed):
    _, moves = playout(n, seed, 100)
    for state, move in moves:
        text = GAME.notation(state, move)
        assert GAME.parse_notation(state, text) == move, text
        assert GAME.move_from_json(GAME.move_to_json(move)) == move


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_physical_moves_judge_and_apply(n, seed):
    final, moves = playout(n, seed, 90)
    for state in (final, moves[len(moves) // 2][0]):
        if GAME.outcome(state) is not None:
            continue
        for move in GAME.physical_moves(state):
            verdict = GAME.check(state, move)
            assert verdict.legal or verdict.rule.id.startswith("tt.")
            result = GAME.apply(state, move)
            assert sum(result.heights) + result.off_board == state.start_blocks
        legal = set(GAME.legal_moves(state))
        assert legal <= set(GAME.physical_moves(state))
        assert all(GAME.check(state, m).legal for m in legal)


@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6))
def test_the_camera_reads_each_move_back(n, seed):
    _, moves = playout(n, seed, 110)
    rng = random.Random(seed)
    sample = [pair for pair in moves if pair[1].actions[0].kind != "end"]  # an end is unseen
    for state, move in rng.sample(sample, min(12, len(sample))):
        result = GAME.apply(state, move)
        seen = GAME.expected_observation(result)
        candidates = GAME.candidates(state, seen)
        assert candidates, GAME.notation(state, move)
        best = candidates[0]
        # the move itself, or one the camera cannot tell from it (another path, same board)
        assert GAME.expected_observation(best.state) == seen, GAME.notation(state, move)
        assert best.verdict.legal and best.cost == 0.0


@given(seed=st.integers(0, 10**6), lost=st.integers(0, 6), gained=st.integers(0, 6),
       moved=st.integers(0, 3))
def test_any_table_gets_sorted_candidates_or_none(seed, lost, gained, moved):
    """A knocked table, a misread or a move the engine cannot model never raises: the
    candidates are sorted, and each one's cost is at least how badly its state explains the
    picture (the rest is the prior for broken rules and turn ends)."""
    rng = random.Random(seed)
    state = pos()
    heights = list(state.heights)
    flags = list(state.flags)
    for _ in range(lost):
        sq = rng.choice([s for s in range(board.SQUARES) if heights[s] > 0])
        heights[sq] -= 1
    for _ in range(gained):
        heights[rng.randrange(board.SQUARES)] += 1
    for _ in range(moved):
        i = rng.randrange(len(flags))
        flags[i] = (rng.randrange(board.SQUARES), flags[i][1])
    seen_state = dataclasses.replace(state, heights=tuple(heights), flags=tuple(sorted(flags)))
    seen = GAME.expected_observation(seen_state)
    candidates = GAME.candidates(state, seen)
    costs = [c.rank for c in candidates]
    assert costs == sorted(costs)
    for candidate in candidates:
        assert candidate.cost >= GAME.explain(candidate.state, seen) - 1e-6
        assert candidate.verdict.legal == (candidate.verdict.rule is None)
