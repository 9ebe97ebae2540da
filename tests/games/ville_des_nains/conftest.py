"""Fixtures for La Ville des Nains: the game, and positions built from real moves or arranged.

``arrange`` sets up a position directly (buildings stone by stone, the talon, the kobold's tower)
while keeping every stone accounted for: the stones built are taken out of the pool, so the
invariants the engine relies on hold in every test position.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games import get_game
from companion.games.ville_des_nains.components import STONE_INDEX
from companion.games.ville_des_nains.state import ROLL, Building, VdnState


@pytest.fixture(scope="session")
def game():
    return get_game("ville-des-nains")


def stones(text: str) -> tuple[tuple[str, str], ...]:
    """``"red-cube orange-roof"`` -> ((red, cube), (orange, roof))."""
    return tuple(tuple(s.split("-")) for s in text.split())  # type: ignore[misc]


@pytest.fixture
def arrange(game):
    def make(players=("green", "white"), options: dict[str, Any] | None = None, *,
             buildings: dict[str, list[tuple[int, str]]] | None = None,
             talon: tuple[int, ...] | None = None, tower: int = 0, marked: int = 0,
             roll: tuple[str, str] | None = None, seed: int = 0) -> VdnState:
        """A position: ``buildings`` per seat as (card, stones bottom to top); ``roll`` is
        (seat, notation faces) rolled in turn at the end."""
        state = game.setup(list(players), options or {}, seed=seed)
        if buildings is not None:
            rows = []
            pool = list(state.pool)
            used = set()
            for seat in state.players:
                row = []
                for card, text in buildings.get(seat, []):
                    built = stones(text)
                    for stone in built:
                        pool[STONE_INDEX[stone]] -= 1
                    row.append(Building(card, built))
                    used.add(card)
                rows.append(tuple(row))
            assert min(pool) >= 0, "the arranged buildings use more stones than the box holds"
            if talon is None:
                talon = tuple(c for c in range(1, 13) if c not in used)
            state = replace(state, buildings=tuple(rows), pool=tuple(pool), talon=talon)
        elif talon is not None:
            state = replace(state, talon=talon)
        state = replace(state, tower=tower, marked=marked)
        if roll is not None:
            seat, faces = roll
            state = replace(state, turn=state.players.index(seat), stage=ROLL)
            state = game.push(state, game.parse_notation(state, f"{seat} roll {faces}"))
        return state
    return make


@pytest.fixture
def verdict(game):
    """The verdict on a move written in notation."""
    def judge(state: VdnState, text: str):
        return game.check(state, game.parse_notation(state, text))
    return judge


@pytest.fixture
def play(game):
    """Play notation lines (each must be legal) from a state."""
    def run(state: VdnState, *lines: str) -> VdnState:
        for line in lines:
            state = game.push(state, game.parse_notation(state, line))
        return state
    return run
