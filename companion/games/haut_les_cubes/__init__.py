"""Haut les Cubes: giants build mountains of cubes and jump from them (3 to 6 players).

The package is split by job: ``geometry`` (the cube lattice), ``cards``, ``state`` (options,
immutable state, start layouts), ``moves`` (moves, notation, JSON), ``rules`` (every rule a
verdict can cite), ``actions`` (what each card can legally do), ``judge`` (checking a move),
``transitions`` (applying it: turns, rounds, dealing), ``camera`` (from observations to candidate
moves) and ``engine`` (all of it on the game contract).
"""

from companion.games.haut_les_cubes.engine import HautLesCubes  # noqa: F401
from companion.games.haut_les_cubes.moves import Place, Play  # noqa: F401
from companion.games.haut_les_cubes.state import HlcOptions, HlcState  # noqa: F401
