"""The raster stamps each face from a drawing made once (:mod:`companion.vision.hlc.raster`):
what it draws must be, pixel for pixel, what drawing every face's polygons and lines far to near
gives, for any height map and any box, at either of the search's scales, and where the frame's
edge cuts the crop."""

from __future__ import annotations

import copy

import cv2
import numpy as np
import pytest

from companion.synth.generate import corpus_item
from companion.vision.hlc.geometry import TOP, Grid
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.raster import Raster
from companion.vision.hlc.giants import _pawn_points, _pawn_points_all

SHIFT = 4


def painted(grid: Grid, heights: dict, box: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The class and line maps of ``box``, every column reaching it drawn polygon by polygon,
    far to near, into fresh full-size maps."""
    labels = np.zeros(grid.shape, np.uint8)
    lines = np.zeros(grid.shape, np.uint8)
    x0, y0, x1, y1 = box
    ip = lambda p: np.round(np.asarray(p) * (1 << SHIFT)).astype(np.int32)
    reach = []
    for c, h in heights.items():
        if h > 0 and c in grid.rank:
            bx = grid.boxes[(c, h)]
            if not (bx[2] < x0 or bx[0] > x1 or bx[3] < y0 or bx[1] > y1):
                reach.append((grid.rank[c], c, h))
    for _, c, h in sorted(reach):
        for side in grid.sides[c]:
            hn = heights.get(side.neighbour, 0)
            if hn >= h:
                continue
            col0 = grid.proj[2 * hn:2 * h + 1, grid.vertex[side.a0]]
            col1 = grid.proj[2 * hn:2 * h + 1, grid.vertex[side.a1]]
            poly = np.array([col0[0], col1[0], col1[-1], col0[-1]])
            segs = np.concatenate([np.stack([col0, col1], axis=1), poly[[0, 3]][None], poly[[1, 2]][None]])
            cv2.fillConvexPoly(labels, ip(poly), side.cls, cv2.LINE_8, SHIFT)
            cv2.fillConvexPoly(lines, ip(poly), 1, cv2.LINE_8, SHIFT)
            cv2.polylines(lines, list(ip(segs)), False, 2, 1, cv2.LINE_8, SHIFT)
        quad = ip(grid.top_quad(c, h))
        cv2.fillConvexPoly(labels, quad, TOP, cv2.LINE_8, SHIFT)
        cv2.fillConvexPoly(lines, quad, 1, cv2.LINE_8, SHIFT)
        cv2.polylines(lines, [quad], True, 2, 1, cv2.LINE_8, SHIFT)
    return labels[y0:y1, x0:x1], lines[y0:y1, x0:x1]


def grids(index: int, angle: float, shift_mm: float = 0.0) -> list[Grid]:
    _, shot = corpus_item(2024, index)
    lay = DEFAULT_LAYOUT
    anchor = (lay.anchor_xy[0] + shift_mm, lay.anchor_xy[1])
    grid = Grid(shot.view, Lattice(anchor, angle, lay.pitch), (1280, 720), radius=lay.mountain_radius / lay.pitch,
                levels=7)
    return [grid, grid.at_scale(0.5)]


#: (corpus camera, lattice angle, lattice moved along the table's x, mm): the last three put the
#: mountain's area against the frame's left and top, right, and bottom edges
CASES = [(0, 12.0, 0.0), (3, -31.0, 0.0), (5, 40.0, 0.0), (1, 3.0, 300.0), (1, 3.0, -450.0),
         (0, 12.0, -300.0)]


@pytest.mark.parametrize("index,angle,shift_mm", CASES)
def test_stamped_faces_give_the_pixels_the_drawn_polygons_give(index, angle, shift_mm):
    rng = np.random.default_rng([index, 7])
    for grid in grids(index, angle, shift_mm):
        raster = Raster(grid)
        h, w = grid.shape
        for _ in range(25):
            heights = {c: int(rng.integers(0, 8)) for c in grid.cells if rng.random() < 0.4}
            if rng.random() < 0.3:
                box = (0, 0, w, h)
                got = raster.draw(heights)
            else:
                x0, y0 = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
                box = (x0, y0, int(rng.integers(x0 + 1, w + 1)), int(rng.integers(y0 + 1, h + 1)))
                got = raster.draw(heights, box)
            want = painted(grid, heights, box)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_the_cases_include_crops_cut_by_each_edge_of_the_frame():
    cut = set()
    for index, angle, shift_mm in CASES:
        grid = grids(index, angle, shift_mm)[0]
        x0, y0 = grid.off
        hh, ww = grid.full_shape
        cut |= {name for name, edge in (("left", x0 <= 0), ("top", y0 <= 0), ("right", x0 + ww >= 1280),
                                         ("bottom", y0 + hh >= 720)) if edge}
    assert cut == {"left", "top", "right", "bottom"}


def test_a_copy_of_the_raster_draws_into_its_own_maps():
    # the referee keeps a deep copy of the last still moment (the reader's memory), sharing
    # the stamps; each raster then draws as the polygons do, into its own maps
    grid = grids(2, -8.0)[1]
    rng = np.random.default_rng(3)
    raster = Raster(grid)
    first = {c: int(rng.integers(0, 6)) for c in grid.cells if rng.random() < 0.4}
    raster.draw(first)
    shared = {id(getattr(raster, name)): getattr(raster, name) for name in Raster.SHARED}
    twin = copy.deepcopy(raster, shared)
    h, w = grid.shape
    for _ in range(10):
        heights = {c: int(rng.integers(0, 8)) for c in grid.cells if rng.random() < 0.4}
        box = (int(rng.integers(0, w // 2)), int(rng.integers(0, h // 2)), w, h)
        for r in (twin, raster):
            got = r.draw(heights, box)
            want = painted(grid, heights, box)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
            assert np.shares_memory(r.labels, r._maps) and np.shares_memory(r.lines, r._maps)
    assert not np.shares_memory(twin._maps, raster._maps)


def test_pawn_points_of_all_squares_at_once_are_each_squares_points():
    lattice = Lattice((312.4, 205.9), 8.3, 20.0)
    squares = [((i, j), lvl) for i in range(-4, 4) for j in range(-3, 3) for lvl in range(0, 5)]
    one_by_one = np.concatenate([_pawn_points(lattice, c, lvl, DEFAULT_LAYOUT) for c, lvl in squares])
    assert np.array_equal(_pawn_points_all(lattice, squares, DEFAULT_LAYOUT), one_by_one)
