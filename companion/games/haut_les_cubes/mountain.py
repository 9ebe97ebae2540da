"""Facts about a set of cubes, computed once and shared by every state with those cubes.

Most moves leave the cubes alone, and a move that changes them changes one cube, which only
affects the cells around it. So a :class:`Mountain` is cached per set of cubes, and the mountain
after a one-cube change is derived from the one before by recomputing only a small window around
that cube. This is what keeps candidate listing and random playouts fast.

Nothing here knows about giants or rules; it is pure geometry.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from companion.games.haut_les_cubes.geometry import Cell, Cube, cubes_on_top, heights_of

_CACHE: dict[frozenset[Cube], "Mountain"] = {}
_SORTED: dict[frozenset[Cube], tuple[Cell, ...]] = {}
_UP_TO: dict[tuple[frozenset[Cube], int], tuple[Cell, ...]] = {}
#: small on purpose: random playouts seldom come back to an old mountain, and a big cache of
#: dicts and sets makes every full garbage collection slower than the recomputations it saves
_CACHE_LIMIT = 1_024
#: the cells whose ring membership a one-cube change at (0, 0) can change
_WINDOW = tuple((dx, dy) for dx in range(-1, 3) for dy in range(-1, 3))


@dataclass(frozen=True)
class Mountain:
    cubes: frozenset[Cube]
    #: cell -> height, for every cell under a cube
    heights: dict[Cell, int]
    #: bare table cells touching a cube (edge or corner)
    ring: frozenset[Cell]
    #: full-base sites touching the mountain, giants ignored (sorted)
    sites: tuple[Cube, ...]
    #: cubes with nothing on top (sorted)
    free_tops: tuple[Cube, ...]

    @property
    def squares(self) -> frozenset[Cell]:
        """Every square a giant may stand on: cube tops and the ring."""
        return self.ring | self.heights.keys()

    def squares_up_to(self, level: int) -> tuple[Cell, ...]:
        """Squares whose height is at most ``level`` (table squares first), for long jumps."""
        key = (self.cubes, level)
        found = _UP_TO.get(key)
        if found is None:
            heights = self.heights
            found = _UP_TO[key] = tuple(sorted(
                c for c in self.squares if heights.get(c, 0) <= level))
            if len(_UP_TO) > _CACHE_LIMIT:
                _UP_TO.clear()
        return found

    @property
    def squares_sorted(self) -> tuple[Cell, ...]:
        found = _SORTED.get(self.cubes)
        if found is None:
            found = _SORTED[self.cubes] = tuple(sorted(self.squares))
            if len(_SORTED) > _CACHE_LIMIT:
                _SORTED.clear()
        return found


def mountain(cubes: frozenset[Cube]) -> Mountain:
    """The facts of ``cubes`` (cached)."""
    found = _CACHE.get(cubes)
    if found is None:
        found = _remember(_compute(cubes))
    return found


def after_change(before: frozenset[Cube], cube: Cube, added: bool) -> Mountain:
    """The facts after laying (``added``) or removing ``cube``, derived from those before."""
    cubes = before | {cube} if added else before - {cube}
    found = _CACHE.get(cubes)
    if found is not None:
        return found
    parent = _CACHE.get(before)
    if parent is None:
        return _remember(_compute(cubes))
    return _remember(_derive(parent, cubes, cube, added))


def _remember(m: Mountain) -> Mountain:
    if len(_CACHE) >= _CACHE_LIMIT:
        for key in list(_CACHE)[: _CACHE_LIMIT // 2]:
            del _CACHE[key]
    _CACHE[m.cubes] = m
    return m


def _ring_of(cells, heights: dict[Cell, int]) -> set[Cell]:
    ring: set[Cell] = set()
    for x, y in cells:
        ring.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1),
                     (x + 1, y + 1), (x - 1, y + 1), (x - 1, y - 1), (x + 1, y - 1)))
    return {c for c in ring if c not in heights}


def _site_ok(x: int, y: int, heights: dict[Cell, int], ring: frozenset[Cell] | set[Cell]) -> Cube | None:
    get = heights.get
    z = get((x, y), 0)
    if get((x + 1, y), 0) != z or get((x, y + 1), 0) != z or get((x + 1, y + 1), 0) != z:
        return None
    if z == 0 and not ((x, y) in ring or (x + 1, y) in ring or (x, y + 1) in ring
                       or (x + 1, y + 1) in ring):
        return None  # a bare 2×2 that touches no cube
    return (x, y, z)


def _compute(cubes: frozenset[Cube]) -> Mountain:
    heights = heights_of(cubes)
    ring = frozenset(_ring_of(heights, heights))
    anchors = set(heights)
    for x, y in ring:
        anchors.update(((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)))
    sites = sorted(s for a in anchors if (s := _site_ok(a[0], a[1], heights, ring)) is not None)
    free = tuple(c for c in sorted(cubes) if not cubes_on_top(c, cubes))
    return Mountain(cubes, heights, ring, tuple(sites), free)


def _derive(parent: Mountain, cubes: frozenset[Cube], cube: Cube, added: bool) -> Mountain:
    x, y, z = cube
    heights = dict(parent.heights)
    cells = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
    if added:
        for c in cells:
            if heights.get(c, 0) < z + 1:
                heights[c] = z + 1
    else:
        near = [c for c in cubes if abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1]
        for c in cells:
            top = 0
            for cx, cy, cz in near:
                if cx <= c[0] <= cx + 1 and cy <= c[1] <= cy + 1 and cz + 1 > top:
                    top = cz + 1
            if top:
                heights[c] = top
            else:
                heights.pop(c, None)
    # the ring can change only within one cell of the changed cells
    window = [(x + dx, y + dy) for dx, dy in _WINDOW]
    ring = set(parent.ring)
    ring.difference_update(window)
    for cx, cy in window:
        if (cx, cy) not in heights and (
                (cx + 1, cy) in heights or (cx - 1, cy) in heights or (cx, cy + 1) in heights
                or (cx, cy - 1) in heights or (cx + 1, cy + 1) in heights
                or (cx - 1, cy + 1) in heights or (cx - 1, cy - 1) in heights
                or (cx + 1, cy - 1) in heights):
            ring.add((cx, cy))
    ring_f = frozenset(ring)
    # a site depends on the heights and ring membership of its own four cells, which changed
    # only inside the window: the sites whose footprint meets the window are recomputed
    lo_x, hi_x, lo_y, hi_y = x - 2, x + 2, y - 2, y + 2
    old = parent.sites  # sorted: the columns lo_x..hi_x are one slice of it
    start = bisect_left(old, (lo_x,))
    stop = bisect_left(old, (hi_x + 1,), start)
    sites = [s for s in old[start:stop] if s[1] < lo_y or s[1] > hi_y]
    get = heights.get
    for ax in range(lo_x, hi_x + 1):
        for ay in range(lo_y, hi_y + 1):
            # inline _site_ok: this loop is the hot path of random playouts
            h = get((ax, ay), 0)
            if get((ax + 1, ay), 0) != h or get((ax, ay + 1), 0) != h \
                    or get((ax + 1, ay + 1), 0) != h:
                continue
            if h == 0 and not ((ax, ay) in ring_f or (ax + 1, ay) in ring_f
                               or (ax, ay + 1) in ring_f or (ax + 1, ay + 1) in ring_f):
                continue
            sites.append((ax, ay, h))
    sites.sort()
    sites = old[:start] + tuple(sites) + old[stop:]
    # free tops: only cubes one level below or at the changed cube's level can change
    free = [c for c in parent.free_tops if c != cube and not (
        added and c[2] == z - 1 and abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1)]
    if added:
        free.append(cube)
    else:
        for c in cubes:
            if c[2] == z - 1 and abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1 and c not in free \
                    and not cubes_on_top(c, cubes):
                free.append(c)
    free.sort()
    return Mountain(cubes, heights, ring_f, sites, tuple(free))
