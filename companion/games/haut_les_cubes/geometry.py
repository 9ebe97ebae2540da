"""The cube lattice of Haut les Cubes.

Cube tops carry a 2×2 grid of squares and squares must line up, so the world is a lattice of
*cells* half a cube wide (RULINGS: geometry). A cube covers 2×2 cells; it is named by its
lower-left cell and its level ``(x, y, z)``, level 0 standing on the table. The *height* of a cell
is the top of the highest cube over it (0 for bare table). Giants stand on *squares*: a cube-top
cell, or a bare table cell touching a cube (king adjacency).

Everything here is a pure function of the set of cubes, so the engine can derive it once per
state and never store two copies of the same fact.
"""

from __future__ import annotations

from typing import Iterable, Iterator

Cell = tuple[int, int]
Cube = tuple[int, int, int]

#: the eight neighbours of a cell, orthogonal first (so straight moves list before diagonals)
NEIGHBOURS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))


def footprint(x: int, y: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells a cube with lower-left cell (x, y) covers."""
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def heights_of(cubes: Iterable[Cube]) -> dict[Cell, int]:
    """Cell -> height, for every cell under at least one cube."""
    heights: dict[Cell, int] = {}
    for x, y, z in cubes:
        top = z + 1
        for cell in footprint(x, y):
            if heights.get(cell, 0) < top:
                heights[cell] = top
    return heights


def neighbours(cell: Cell) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in NEIGHBOURS:
        yield (x + dx, y + dy)


def king_distance(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Cell, b: Cell) -> bool:
    """Contiguous squares: the eight neighbours (seen from above, whatever the levels)."""
    return a != b and king_distance(a, b) == 1


def touches_mountain(cell: Cell, heights: dict[Cell, int]) -> bool:
    """A bare table cell touching a cube by an edge or a corner."""
    return any(heights.get(n, 0) > 0 for n in neighbours(cell))


def is_square(cell: Cell, heights: dict[Cell, int]) -> bool:
    """Whether a giant may stand on ``cell``: a cube top, or table touching a cube."""
    return heights.get(cell, 0) > 0 or touches_mountain(cell, heights)


def table_squares(heights: dict[Cell, int]) -> set[Cell]:
    """Every bare table cell touching a cube."""
    ring: set[Cell] = set()
    for (x, y), h in heights.items():
        if h > 0:
            ring.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1),
                         (x + 1, y + 1), (x - 1, y + 1), (x - 1, y - 1), (x + 1, y - 1)))
    return {c for c in ring if heights.get(c, 0) == 0}


def all_squares(heights: dict[Cell, int]) -> set[Cell]:
    """Every square a giant may stand on."""
    return {c for c, h in heights.items() if h > 0} | table_squares(heights)


def push_targets(pusher: Cell, victim: Cell) -> tuple[Cell, Cell, Cell]:
    """The three squares ahead of a pushed giant (RULINGS: Pousstoia): for a straight push the
    square straight ahead and the two forward diagonals; for a diagonal push the diagonal and the
    two forward orthogonals."""
    dx, dy = victim[0] - pusher[0], victim[1] - pusher[1]
    vx, vy = victim
    if dx == 0 or dy == 0:  # straight
        if dx == 0:
            return ((vx, vy + dy), (vx - 1, vy + dy), (vx + 1, vy + dy))
        return ((vx + dx, vy), (vx + dx, vy - 1), (vx + dx, vy + 1))
    return ((vx + dx, vy + dy), (vx + dx, vy), (vx, vy + dy))


def cubes_on_top(cube: Cube, cubes: Iterable[Cube]) -> list[Cube]:
    """Cubes resting (even offset) on ``cube``."""
    x, y, z = cube
    return [c for c in cubes if c[2] == z + 1 and abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1]


def top_covered(cube: Cube, cubes: Iterable[Cube]) -> bool:
    """Whether all four top cells of ``cube`` are under cubes of the next level (so a camera
    above can see nothing of its top)."""
    x, y, z = cube
    covered = set()
    for cx, cy, cz in cubes:
        if cz == z + 1 and abs(cx - x) <= 1 and abs(cy - y) <= 1:
            covered.update(footprint(cx, cy))
    return all(c in covered for c in footprint(x, y))


def cube_contact(x: int, y: int, heights: dict[Cell, int]) -> bool:
    """Whether a cube laid on the table at (x, y) touches an existing cube's footprint by an edge
    or a corner (RULINGS: contact), without overlapping it."""
    cells = footprint(x, y)
    for cx in range(x - 1, x + 3):
        for cy in range(y - 1, y + 3):
            if (cx, cy) not in cells and heights.get((cx, cy), 0) > 0:
                return True
    return False


def cell_name(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def cube_name(cube: Cube) -> str:
    return f"{cube[0]},{cube[1]}^{cube[2]}"

