"""A warm reading: the next still moment of the same table, read from the last one.

Between two still moments a player places a cube, moves a giant or lays a card; the rest of the
table is as it was. When the camera has not moved (the markers' picture is unchanged, or the
markers give the same pose again), the last reading's lattice, grid, table and face models hold,
and only the changes the frame's changed pixels can show need to be tried again:

1. The frame and the last one read are compared block by block (8×8 pixels, averaged: the
   sensor's noise averages away, a moved piece or its shadow changes a block by far more).
2. The last reading's evidence is recomputed for the new frame with the models already fitted,
   and the height search is run again from the last height map, trying only the tower changes
   whose drawing reaches a changed block (a new cube, what it now hides, the shadow it casts).
3. The giants, the arm check and the card (when its zone changed) are read as in a cold read
   (a giant read unsure is looked for again on the lattice's offset found in this frame: the
   kept lattice can be a millimetre or two off, :data:`GIANT_SURE`).

:func:`read_warm` does steps 2 and 3's giants; the reader (:mod:`.reader`) keeps the state.

Anything doubtful makes the reader read the frame cold instead (:func:`doubtful`): a change
over a large part of the mountain's area, a height map that is no pile of cubes, more than
:data:`MAX_CUBE_CHANGES` cubes changed at once, a new cube found with little confidence, or a
light that has drifted since the models were fitted (:func:`drifted`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.vision import blocks as block_compare
from companion.vision.blocks import BLOCK, STILL_LEVEL
from companion.vision.camera import View
from companion.vision.colours import ColourModel
from companion.vision.hlc.appearance import features
from companion.vision.hlc.evidence import line_strength
from companion.vision.hlc.geometry import Grid
from companion.vision.hlc.giants import GiantReading, find_giants, giant_mask
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.lattice_fit import find_lattice, refit_phase
from companion.vision.hlc.layout import Layout
from companion.vision.hlc.mountain import MountainReading, finish, mountain_region, refine_masked
from companion.vision.hlc.structure import Cube, cells_of, heights_of, tile

#: a change over more than this share of the mountain's area is read cold (an arm, a bumped
#: mountain, the light changed)
MAX_CHANGED_SHARE = 0.25
#: a warm reading that changes more cubes than this at once is read cold (one move places one
#: cube; putting an illegal one right removes it)
MAX_CUBE_CHANGES = 2
#: a new cube the warm reading is less sure of than this is left to a cold read
SURE = 0.5
#: the lattice is looked for again once this share of the cubes it was found from (and at least
#: :data:`LATTICE_MIN_CHANGES` cubes) were laid, moved or taken since (the cubes laid since show
#: it too, and a lattice found from few cubes may be a little off); moved by more than
#: :data:`LATTICE_MM` anywhere over the mountain's area (more than the fit's own spread of a
#: millimetre or two), the frame is read cold
LATTICE_CHANGES, LATTICE_MIN_CHANGES, LATTICE_MM = 0.5, 3, 3.0
#: a giant read less sure than this on the kept lattice is looked for again on the lattice's
#: offset found again in this frame (at the kept angle), when that moved by more than
#: :data:`PHASE_MM` (and less than :data:`LATTICE_MM`): a lattice found from few cubes can be a
#: millimetre or two off, and a giant half hidden behind a tower, judged on the strip of it the
#: tower leaves, is judged on the wrong pixels (the cubes keep the kept lattice: their search
#: runs from the last height map on it)
GIANT_SURE, PHASE_MM = 0.9, 1.0
#: how many times the warm height search goes over the touched towers at most (again only
#: after a pass that took a tower down or lowered it)
RERUN_PASSES = 3
#: the light has drifted when the frame's blocks differ from those of the frame the models were
#: fitted on by more than this (grey levels, median over the whole frame): read cold, refitting
DRIFT_LEVEL = 3.0


def block_picture(image: np.ndarray) -> np.ndarray:
    """The frame's grey levels averaged over :data:`BLOCK`-pixel blocks (float32)."""
    return block_compare.block_picture(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def changed_blocks(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Which blocks changed between two block pictures (bool)."""
    return np.abs(after - before) > STILL_LEVEL


def drifted(fitted: np.ndarray, blocks: np.ndarray) -> bool:
    """Whether the light changed since the frame the models were fitted on (``fitted``, its
    block picture): most of the frame (the bare table) is darker or brighter. A change too slow
    to show between two still moments adds up here."""
    return fitted.shape != blocks.shape or float(np.median(np.abs(blocks - fitted))) > DRIFT_LEVEL


def polygon_blocks(shape: tuple[int, int], view: View, polygons: list[np.ndarray]) -> np.ndarray:
    """The blocks (bool, block grid of ``shape``) that table polygons (N×3 mm) cover."""
    out = np.zeros(shape, np.uint8)
    for poly in polygons:
        px = view.project(poly)
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(out, np.round(px / BLOCK).astype(np.int32), 1)
    return cv2.dilate(out, np.ones((3, 3), np.uint8)) > 0


def same_pose(a: View, b: View, play_area: tuple[float, float]) -> bool:
    """Whether two views put the play area's corners (table and 10 cm up) at the same pixels."""
    return block_compare.same_view(a, b, block_compare.area_corners(*play_area))


def to_crop(blocks: np.ndarray, grid: Grid, image_shape: tuple[int, ...], margin: int = 1) -> np.ndarray:
    """A block mask as a mask of the grid's (scaled) crop, grown by ``margin`` blocks (the
    features' blur and the line filter reach a few pixels past a change)."""
    h, w = image_shape[:2]
    grown = cv2.dilate(blocks.astype(np.uint8), np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
    full = np.zeros((h, w), np.uint8)
    up = np.repeat(np.repeat(grown, BLOCK, axis=0), BLOCK, axis=1)
    full[:up.shape[0], :up.shape[1]] = up
    x0, y0 = grid.off.astype(int)
    hh, ww = grid.full_shape
    part = full[y0:y0 + hh, x0:x0 + ww]
    if grid.scale != 1.0:
        part = cv2.resize(part, (grid.shape[1], grid.shape[0]), interpolation=cv2.INTER_AREA)
    return part > 0


class Touched:
    """Whether a crop box holds any changed pixel (an integral image: two lookups a box)."""

    def __init__(self, mask: np.ndarray):
        self.mask = mask.astype(bool)
        self.sums = cv2.integral(self.mask.astype(np.uint8))

    def __call__(self, box: tuple[int, int, int, int]) -> bool:
        x0, y0, x1, y1 = (int(v) for v in box)
        s = self.sums
        h, w = s.shape[0] - 1, s.shape[1] - 1
        x0, x1 = min(max(x0, 0), w), min(max(x1, 0), w)
        y0, y1 = min(max(y0, 0), h), min(max(y1, 0), h)
        if x1 <= x0 or y1 <= y0:
            return False
        return bool(s[y1, x1] - s[y0, x1] - s[y1, x0] + s[y0, x0] > 0)


def touched_positions(grid: Grid, positions: list[tuple[int, int]], touched: Touched, levels: int
                      ) -> list[tuple[int, int]]:
    """The tower positions whose column, at any height, reaches a changed pixel."""
    out = []
    for i, j in positions:
        boxes = [grid.box(c, levels) for c in cells_of(i, j) if c in grid.cellset]
        if not boxes:
            continue
        b = (min(x[0] for x in boxes), min(x[1] for x in boxes), max(x[2] for x in boxes) + 2,
             max(x[3] for x in boxes) + 2)
        if touched(b):
            out.append((i, j))
    return out


@dataclass
class WarmState:
    """What a warm reading starts from: the last still moment read well."""

    blocks: np.ndarray  #: the block picture of the frame read
    view: View
    mountain: MountainReading
    base_care: np.ndarray  #: the crop pixels judged, before the giants are left out
    giant_mask: np.ndarray  #: the crop pixels the giants found covered (bool)
    cubes: frozenset[Cube]
    card: Any  #: the card piece read (None: no card) and the match behind it
    card_match: Any
    card_blocks: np.ndarray  #: the blocks of the played-card zone
    marker_blocks: np.ndarray  #: the blocks of the markers
    #: the light direction the mountain's shadow was found with (elevation, azimuth: hands.find_shadow)
    light: tuple[float, float] | None
    fitted: np.ndarray  #: the block picture of the frame the models were fitted on (a cold read)
    lattice_cubes: int  #: the cubes there were when the lattice was last found or confirmed
    lattice_changes: int  #: the cubes laid, moved or taken since


def lattice_due(state: WarmState) -> bool:
    """Whether the mountain has changed enough since its lattice was found to look for it again."""
    return state.lattice_changes >= max(LATTICE_MIN_CHANGES, LATTICE_CHANGES * state.lattice_cubes)


def same_lattice(a: Lattice, b: Lattice, radius_cells: float) -> bool:
    """Whether two lattices put every cell corner within ``radius_cells`` of the origin less than
    :data:`LATTICE_MM` apart (the same cells, the same squares for the giants)."""
    r = radius_cells
    corners = np.array([[u, v] for u in (-r, 0.0, r) for v in (-r, 0.0, r)])
    return float(np.linalg.norm(a.to_table(corners) - b.to_table(corners), axis=1).max()) < LATTICE_MM


def unsettled(mountain: MountainReading) -> bool:
    """Whether the searched height map is no pile of cubes (a cold reading settles it)."""
    return bool(tile(mountain.search.heights)[1])


def rerun(mountain: MountainReading, image: np.ndarray, base_care: np.ndarray, touched: Touched,
          levels: int) -> None:
    """The warm reading's height search: the evidence of the new frame with the last models,
    the search run again from the last height map where the frame changed."""
    g, search = mountain.grid, mountain.search
    crop = g.crop(image)
    ys, xs = np.nonzero(touched.mask)
    box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1) if len(xs) else (0, 0, 0, 0)
    search.evidence.refresh(features(crop), line_strength(crop), base_care, box)
    search.redraw()
    positions = touched_positions(g, search.tower_positions(), touched, levels)
    # a tower taken down shows what it hid, whose drawing gained nothing while the taller one
    # stood in front: the touched towers are tried again after a pass that lowered one
    for _ in range(RERUN_PASSES):
        before = dict(search.heights)
        if not positions or not search.run(positions=positions, only=touched, span=2, placed=True):
            break
        if not any(search.heights.get(c, 0) < h for c, h in before.items()):
            break


def doubtful(mountain: MountainReading, before: frozenset[Cube]) -> str:
    """Why a warm reading's mountain (settled into cubes) should be read cold instead ('' when
    it need not)."""
    now = set(mountain.cubes)
    if len(now ^ before) > MAX_CUBE_CHANGES:
        return f"{len(now ^ before)} cubes changed at once"
    unsure = [c for c in now - before if mountain.conf.get(c, 0.0) < SURE]
    if unsure:
        return f"new cube {unsure[0]} unsure"
    return ""


def read_warm(image: np.ndarray, view: View, state: WarmState, changed: np.ndarray, white: Any, *,
              layout: Layout, levels: int, colours: ColourModel
              ) -> tuple[MountainReading, list[GiantReading]] | str:
    """The mountain and the giants of a frame read from the last still moment ``state`` and the
    blocks ``changed`` since (the state's mountain is worked on in place); or why the frame
    must be read cold. ``white``: the markers' paper white in this frame."""
    lay = layout
    mountain = state.mountain
    g = mountain.grid
    if lattice_due(state):
        size = (image.shape[1], image.shape[0])
        region = mountain_region(view, lay, size, levels)
        lattice, _ = find_lattice(image, view, lay.anchor_xy, pitch=lay.pitch, levels=levels - 1,
                                  region=region)  # no hint: the last angle would be kept
        if not same_lattice(lattice, mountain.lattice, lay.mountain_radius / lay.pitch):
            return "the lattice, looked for again, lies elsewhere"
        state.lattice_cubes, state.lattice_changes = len(state.cubes), 0
    # only the pixels the mountain's evidence judges count (the card zone's changes do not)
    judged = state.base_care > 0
    share = float((to_crop(changed, g, image.shape, margin=0) & judged).mean())
    if share > MAX_CHANGED_SHARE:
        return f"{share:.0%} of the mountain's area changed"
    touched = Touched(to_crop(changed, g, image.shape) & judged)
    # the giants found last time stay left out where the picture did not change
    kept = state.giant_mask & ~touched.mask
    rerun(mountain, image, state.base_care * ~kept, touched, levels)
    ev = mountain.search.evidence
    table = ev.table
    wood = None if ev.top_model is None else (ev.top_model, ev.top_typical)
    heights = heights_of(tile(mountain.search.heights)[0])
    refit: list[Lattice] = []

    def giants_on(heights: dict[tuple[int, int], int]) -> list[GiantReading]:
        found = find_giants(image, view, mountain.lattice, heights, lay, colours, white, table, wood,
                            ev.models)
        if not any(gr.conf < GIANT_SURE for gr in found):
            return found
        if not refit:
            lattice, moved_mm = refit_phase(image, view, mountain.lattice, lay.anchor_xy, levels=levels - 1)
            refit.append(lattice if PHASE_MM < moved_mm < LATTICE_MM else mountain.lattice)
        if refit[0] is mountain.lattice:
            return found
        return find_giants(image, view, refit[0], heights, lay, colours, white, table, wood, ev.models)

    giants = giants_on(heights)
    mask = giant_mask(image.shape, view, mountain.lattice, giants, lay)
    moved = (g.crop(mask) > 0) != kept
    if moved.any():
        # the giants found now left out, and the towers where a giant came or went, or
        # stands in the changed picture, tried again
        only = Touched(touched.mask | moved)
        positions = touched_positions(g, mountain.search.tower_positions(), only, levels)
        refine_masked(mountain, mask, [(gr.cell, gr.level) for gr in giants],
                      base_care=state.base_care, only=only, positions=positions)
    if unsettled(mountain):
        return "the warm height map is no pile of cubes"
    finish(mountain)
    why = doubtful(mountain, state.cubes)
    if why:
        return why
    if mountain.heights != heights:
        # the giants stand on the squares the heights make (the models, and so the giants
        # found on the same heights, are those of the first look)
        giants = giants_on(mountain.heights)
    return mountain, giants
