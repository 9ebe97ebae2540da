"""``companion bench rules``: speed of the rules engines, for every game installed.

For each game: the median and 95th-percentile time to list the candidates for an observation
(taken in mid-game states: the position after a random move, as an ideal camera would report
it), the time to check one move, and random full games played per second on one core
(measured by CPU time, with the wall-clock rate beside it).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

HELP = "speed of the rules engines: candidates, check, random games per second"

MAX_MOVES = 5000  # a random game longer than this is counted as unfinished


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", metavar="A,B", help="only these games (default: all installed)")
    parser.add_argument("--samples", type=int, default=300,
                        help="mid-game positions sampled per game (default 300)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="time spent playing random games, per game (default 10)")
    parser.add_argument("--seed", type=int, default=1)


def _players(game) -> tuple[str, ...]:
    n = min(max(4, game.min_players), game.max_players)
    return tuple(game.seats[:n])


def _mid_game_states(game, samples: int, rng: random.Random) -> list[Any]:
    """Positions from 30 % to 70 % of random games."""
    states: list[Any] = []
    while len(states) < samples:
        state = game.setup(_players(game), seed=rng.randrange(1 << 30))
        history = [state]
        while game.outcome(state) is None and len(history) < MAX_MOVES:
            state = game.apply(state, game.random_move(state, rng))
            history.append(state)
        lo, hi = int(len(history) * 0.3), max(int(len(history) * 0.7), int(len(history) * 0.3) + 1)
        pool = [s for s in history[lo:hi] if game.outcome(s) is None]
        states.extend(rng.sample(pool, min(len(pool), max(1, samples // 10))))
    return states[:samples]


def bench_game(game, samples: int, seconds: float, seed: int) -> dict[str, Any]:
    from companion.bench.common import percentile

    rng = random.Random(seed)
    states = _mid_game_states(game, samples, rng)
    cand_ms, check_ms, n_candidates = [], [], []
    for state in states:
        move = game.random_move(state, rng)
        seen = game.expected_observation(game.apply(state, move))
        t0 = time.perf_counter()
        found = game.candidates(state, seen)
        cand_ms.append((time.perf_counter() - t0) * 1000)
        n_candidates.append(len(found))
        t0 = time.perf_counter()
        game.check(state, move)
        check_ms.append((time.perf_counter() - t0) * 1000)
    # Random games are timed twice: by the CPU time this (pinned, single-threaded) process
    # used, which is what one core of its own would take, and by the wall clock, which on a
    # shared machine also counts the time other processes held the core.
    games = moves = unfinished = 0
    t_end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    while time.perf_counter() < t_end:
        state = game.setup(_players(game), seed=rng.randrange(1 << 30))
        n = 0
        while game.outcome(state) is None and n < MAX_MOVES:
            state = game.apply(state, game.random_move(state, rng))
            n += 1
        games += 1
        moves += n
        unfinished += game.outcome(state) is None
    elapsed = time.perf_counter() - t0
    cpu = max(time.process_time() - cpu0, 1e-9)
    cand_ms.sort()
    return {
        "game": game.name,
        "players": len(_players(game)),
        "candidates_median_ms": round(percentile(cand_ms, 0.5), 3),
        "candidates_p95_ms": round(percentile(cand_ms, 0.95), 3),
        "candidates_listed": round(sum(n_candidates) / len(n_candidates), 1),
        "check_median_ms": round(percentile(sorted(check_ms), 0.5), 4),
        "random_games_per_s": round(games / cpu, 2),
        "random_games_per_s_wall": round(games / elapsed, 2),
        "us_per_move": round(cpu / max(moves, 1) * 1e6, 1),
        "moves_per_game": round(moves / max(games, 1), 1),
        "unfinished": unfinished,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.common import machine, pin_one_core, print_table
    from companion.games import available, get_game

    pinned = pin_one_core()
    names = args.games.split(",") if args.games else available()
    rows = [bench_game(get_game(n), args.samples, args.seconds, args.seed) for n in names]
    print_table(f"Rules engines ({pinned}; {machine()['processor']})", rows)
    return {"rows": rows, "pinned": pinned}
