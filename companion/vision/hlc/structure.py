"""From a height map to cubes, by the game's physical rule.

A cube rests on a full base, so every column of cells is solid from the table to its height, and
the cells at height greater than k are exactly the footprints of the cubes of layer k. A set of
cells has at most one tiling by 2×2 squares (its lowest, then leftmost cell can only be the
lower-left corner of a square), so a height map names its cubes without ambiguity, or is not
the height map of any pile of cubes. :func:`tile` finds that tiling layer by layer and reports
the cells it could not cover.
"""

from __future__ import annotations

Cell = tuple[int, int]
Cube = tuple[int, int, int]


def cells_of(i: int, j: int) -> tuple[Cell, Cell, Cell, Cell]:
    return ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1))


def heights_of(cubes: list[Cube] | tuple[Cube, ...]) -> dict[Cell, int]:
    out: dict[Cell, int] = {}
    for i, j, k in cubes:
        for c in cells_of(i, j):
            out[c] = max(out.get(c, 0), k + 1)
    return out


def tile(heights: dict[Cell, int]) -> tuple[list[Cube], set[Cell]]:
    """The cubes of a height map, and the cells (with their layer) no square could cover."""
    cubes: list[Cube] = []
    bad: set[Cell] = set()
    top = max(heights.values(), default=0)
    for k in range(top):
        layer = {c for c, h in heights.items() if h > k}
        while layer:
            j, i = min((c[1], c[0]) for c in layer)
            square = cells_of(i, j)
            if all(c in layer for c in square):
                cubes.append((i, j, k))
                layer.difference_update(square)
            else:
                bad.add((i, j))
                layer.discard((i, j))
    return cubes, bad


def is_valid(cubes: list[Cube] | tuple[Cube, ...]) -> bool:
    """Every cube rests on a full base (cubes may be given in any order)."""
    h: dict[Cell, int] = {}
    for i, j, k in sorted(cubes, key=lambda c: c[2]):
        cs = cells_of(i, j)
        if any(h.get(c, 0) != k for c in cs):
            return False
        for c in cs:
            h[c] = k + 1
    return True


def supports(cubes: list[Cube] | tuple[Cube, ...], cube: Cube) -> list[Cube]:
    """The cubes directly under ``cube`` (the ones it rests on)."""
    i, j, k = cube
    return [c for c in cubes if c[2] == k - 1 and abs(c[0] - i) <= 1 and abs(c[1] - j) <= 1]
