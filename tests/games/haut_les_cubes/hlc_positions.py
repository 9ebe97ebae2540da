"""Building Haut les Cubes positions for tests, by hand, in the middle of a round."""

from __future__ import annotations

from dataclasses import replace

from companion.games.haut_les_cubes import HautLesCubes, HlcOptions
from companion.games.haut_les_cubes.cards import CARDS, DECK_SIZE
from companion.games.haut_les_cubes.state import PHASE_PLAY

GAME = HautLesCubes()
PLAYERS = ("red", "blue", "green")


def block(x0: int, y0: int, w: int, h: int, z: int = 0) -> set[tuple[int, int, int]]:
    """A w×h block of cubes (in cubes, not cells) with lower-left cell (x0, y0) at level z."""
    return {(x0 + 2 * i, y0 + 2 * j, z) for i in range(w) for j in range(h)}


def position(cubes, giants: dict[str, tuple[int, int] | None], *, turn: str = "red",
             players=PLAYERS, hands=None, reserves=None, seen=None, scores=None,
             options: HlcOptions | None = None, first: str | None = None):
    """A play-phase state: ``cubes`` laid, giants where given, ``turn`` to play."""
    n = len(players)
    start = GAME.setup(players)
    hands = tuple(hands) if hands is not None else (2,) * n
    return replace(
        start, cubes=frozenset(cubes), giants=tuple(giants.get(p) for p in players),
        phase=PHASE_PLAY, round=1, turn=players.index(turn),
        first=players.index(first or players[0]), hands=hands,
        reserves=tuple(reserves) if reserves is not None else start.reserves,
        seen=tuple(seen) if seen is not None else (0,) * len(CARDS),
        scores=tuple(scores) if scores is not None else (0,) * n,
        deck=DECK_SIZE - sum(hands), discard=0,
        options=options or HlcOptions(),
    )


def verdict(state, notation: str):
    return GAME.check(state, GAME.parse_notation(state, notation))
