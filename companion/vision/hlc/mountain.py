"""Reading the mountain: the lattice, the height of every column, and the cubes.

1. The lattice is found from the cubes' lines (:mod:`.lattice_fit`).
2. The frame is cropped to where the mountain can appear, and each pixel's evidence prepared
   (:mod:`.evidence`): the table's look is learned on a ring of table around the mountain.
3. The height map is searched (:mod:`.search`): first the footprint, one level high, with a
   single model for all the wood; then the heights, with one model per face orientation fitted
   to the current answer, four times (an EM loop: the answer tells which pixels are tops and
   sides, the models sharpen the next answer); then whole towers read a cell off their place
   are moved by that cell, and the heights refined once more.
4. The height map becomes cubes by the full-base rule (:mod:`.structure`); cells no 2×2 square
   covers are settled by trying the nearby whole-cube answers and keeping the best explained.
5. Each cube's confidence is how much worse the frame would be explained without it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.hlc.appearance import TIGHT_FLOOR, TableModel, features
from companion.vision.hlc.evidence import Evidence, line_strength
from companion.vision.hlc.geometry import Grid
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.lattice_fit import find_lattice
from companion.vision.hlc.layout import Layout
from companion.vision.hlc.search import Search
from companion.vision.hlc.structure import Cube, cells_of, heights_of, tile

#: confidence of a cube whose removal would cost this much evidence is 1 − 1/e (per pixel of
#: the full-resolution frame)
_CONF_SCALE = 60.0
#: a cube the camera sees less of than ``_SEEN_SHARE`` of its image has its confidence lowered,
#: down to nothing at ``_SLIVER`` (the thin edge of a cube behind a tower, as well explained by
#: the tower's blurred edge: a twentieth of the cube; a cube a tower half hides shows a sixth)
_SLIVER, _SEEN_SHARE = 0.04, 0.14
#: the search works at half resolution when a cell is still this many pixels wide there
MIN_CELL_PX = 9.0


@dataclass
class MountainReading:
    lattice: Lattice
    cubes: list[Cube]
    conf: dict[Cube, float]
    heights: dict[tuple[int, int], int]
    grid: Grid
    search: Search
    lattice_strength: float
    notes: list[str] = field(default_factory=list)


def mountain_region(view: View, layout: Layout, size: tuple[int, int], levels: int) -> np.ndarray:
    """Mask (float 0/1, frame size) of where the mountain can appear: the search disc seen at
    every cube height, less the markers and the played-card zone."""
    w, h = size
    region = np.zeros((h, w), np.float32)
    ax, ay = layout.anchor_xy
    ang = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    r = layout.mountain_radius
    for k in range(levels + 1):
        ring = np.column_stack([ax + r * np.cos(ang), ay + r * np.sin(ang), np.full(len(ang), k * layout.cube)])
        px = view.project(ring)
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(region, np.round(px).astype(np.int32), 1.0)
    for poly in exclusion_polygons(layout):
        px = view.project(poly)
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(region, np.round(px).astype(np.int32), 0.0)
    return region


def exclusion_polygons(layout: Layout) -> list[np.ndarray]:
    """Table polygons (N×3 mm) that are never mountain: the markers' paper and the card zone,
    with a margin."""
    return layout.paper_polygons(1.75)


def table_samples(image: np.ndarray, view: View, layout: Layout, levels: int = 7) -> np.ndarray:
    """Feature values of the table: points of the play area (and a margin round it) that no
    mountain in the search area could hide, away from the markers and the card zone."""
    w, h = layout.play_area
    xs = np.arange(-50.0, w + 50.0, 9.0)
    ys = np.arange(-50.0, h + 50.0, 9.0)
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)])
    px = view.project(pts).astype(np.float32)
    H, W = image.shape[:2]
    ok = (px[:, 0] >= 2) & (px[:, 0] < W - 3) & (px[:, 1] >= 2) & (px[:, 1] < H - 3)
    region = mountain_region(view, layout, (W, H), levels)
    region = cv2.dilate(region, np.ones((9, 9), np.uint8))
    for poly in exclusion_polygons(layout):
        q = view.project(poly)
        if np.all(np.isfinite(q)):
            cv2.fillConvexPoly(region, np.round(q).astype(np.int32), 1.0)
    qi = np.clip(np.round(px).astype(int), 0, [W - 1, H - 1])
    ok &= region[qi[:, 1], qi[:, 0]] == 0
    px = px[ok]
    if len(px) < 30:
        return np.zeros((0, 3), np.float32)
    feats = features(image)
    q = px.reshape(-1, 1, 2)
    return cv2.remap(feats, q[..., 0], q[..., 1], cv2.INTER_LINEAR).reshape(-1, 3)


def care_mask(grid: Grid, layout: Layout, image_size: tuple[int, int]) -> np.ndarray:
    """Which crop pixels are judged: inside the frame, not a marker, not the card zone."""
    care = np.ones(grid.shape, np.float32)
    for poly in exclusion_polygons(layout):
        px = (grid.view.project(poly) - grid.off) * grid.scale
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(care, np.round(px).astype(np.int32), 0.0)
    w, h = image_size
    x0, y0 = grid.off.astype(int)
    # a thin border of the frame is not judged (lens vignetting, JPEG edge blocks)
    ys, xs = np.mgrid[0:grid.shape[0], 0:grid.shape[1]]
    fx, fy = xs / grid.scale + x0, ys / grid.scale + y0
    care[(fx < 2) | (fy < 2) | (fx > w - 3) | (fy > h - 3)] = 0.0
    return care


def read_mountain(image: np.ndarray, view: View, layout: Layout, *, levels: int = 7,
                  lattice: Lattice | None = None, em_rounds: int = 4,
                  hint_deg: float | None = None) -> MountainReading:
    size = (image.shape[1], image.shape[0])
    notes: list[str] = []
    strength = 1.0
    if lattice is None:
        region = mountain_region(view, layout, size, levels)
        lattice, strength = find_lattice(image, view, layout.anchor_xy, pitch=layout.pitch,
                                         levels=levels - 1, region=region, hint_deg=hint_deg)
    radius = layout.mountain_radius / layout.pitch
    grid = Grid(view, lattice, size, radius=radius, levels=levels)
    if grid.cell_size_px() >= 2 * MIN_CELL_PX:
        # cells this large keep enough detail at half the resolution, which is four times faster
        grid = grid.at_scale(0.5)
    crop = grid.crop(image)
    care = care_mask(grid, layout, size)
    samples = table_samples(image, view, layout, levels)
    table = TableModel(samples)
    feats = features(crop)
    # a shadow of another colour than the light's (a low sun's blue shade) is table too;
    # where there is none, the table's chroma is judged by its own spread (a wooden top of
    # nearly the cubes' colour is told from them)
    if not table.learn_shadow(feats, care, grid.scale):
        tight = TableModel(samples, floor=TIGHT_FLOOR)
        if tight.wood_near(feats, care, grid.scale):
            table = tight
    ev = Evidence(feats, line_strength(crop), care, table)
    search = Search(grid, ev, levels=levels)
    # first the footprint: one level everywhere the wood is (with one model for all the wood,
    # taller guesses would be free to cover any wood); then the heights, face models refitted
    search.levels = 1
    search.run()
    search.levels = levels
    for k in range(em_rounds):
        ev.fit(search.labels)
        search.redraw()
        # the first round may raise a tower to any height; later ones, the face models refitted,
        # move heights by a level or two
        if search.run(near=2, span=None if k == 0 else 2) == 0:
            break
    # a tower read a cell off its place stays there (taking it away loses more than the true
    # place alone gains): whole towers are moved by a cell, and the heights settled again
    # a tower read as a lower one farther along the camera's line of sight (or the reverse)
    # is moved there whole first: the one-cell moves would otherwise rearrange the towers
    # grown round the wrong one, and leave a mixture neither move mends
    moved = search.slide()
    moved += search.shift()
    if moved:
        search.run(near=2, span=2)
    return finish(MountainReading(lattice, [], {}, {}, grid, search, strength, notes))


def mask_out(reading: MountainReading, mask: np.ndarray,
             standing: list[tuple[tuple[int, int], int]] = ()) -> MountainReading:
    """Read again with the pixels of ``mask`` (frame size; the giants found) left out of the
    evidence, starting from the answer already found. ``standing``: (cell, level) of the giants
    found on the cubes: a giant seen standing at a level is seen held up there, so where the
    second reading lowers a giant's square (its pixels, now left out, were much of what showed
    the cube under it) the first reading's heights around that square are kept."""
    refine_masked(reading, mask, standing)
    return finish(reading)


def refine_masked(reading: MountainReading, mask: np.ndarray,
                  standing: list[tuple[tuple[int, int], int]] = (), *,
                  base_care: np.ndarray | None = None, only=None,
                  positions: list[tuple[int, int]] | None = None) -> None:
    """The search of :func:`mask_out`, before the heights are settled into cubes. A cold
    reading refits the face models without the masked pixels; a warm one (``base_care``: the
    crop pixels judged before any giant was left out) keeps the models and tries only the
    changes ``only`` accepts at ``positions`` (:meth:`.search.Search.run`)."""
    g, search = reading.grid, reading.search
    before = dict(search.heights)
    ev = search.evidence
    if base_care is None:
        ev.care *= (g.crop(mask) == 0)
        ev.fit(search.labels)
    else:
        ev.set_care(base_care * (g.crop(mask) == 0))
    search.redraw()
    search.run(near=2, span=2, only=only, positions=positions)
    restore: dict[tuple[int, int], int] = {}
    for (i, j), level in standing:
        if level <= 0 or search.heights.get((i, j), 0) >= level:
            continue
        for a in (-1, 0, 1):
            for b in (-1, 0, 1):
                c = (i + a, j + b)
                if search.heights.get(c, 0) != before.get(c, 0):
                    restore[c] = before.get(c, 0)
    if restore:
        search.apply(tuple(sorted(restore.items())))


def finish(reading: MountainReading) -> MountainReading:
    cubes = settle(reading.search)
    reading.cubes = cubes
    reading.conf = confidences(reading.search, cubes)
    reading.heights = heights_of(cubes)
    return reading


def settle(search: Search) -> list[Cube]:
    """Cubes for the searched height map; where the map is no pile of cubes (cells no 2×2 square
    covers), the nearby whole-cube answers are tried and the best explained kept."""
    for _ in range(12):
        cubes, bad = tile(search.heights)
        if not bad:
            return cubes
        cell = min(bad)
        h = search.heights.get(cell, 0)
        options = []
        # lower the cell to the layer below, or raise the cells of a square holding it
        options.append(((cell, h - 1),))
        i, j = cell
        for a in (i - 1, i):
            for b in (j - 1, j):
                sq = cells_of(a, b)
                if all(c in search.grid.cellset for c in sq):
                    options.append(tuple((c, max(h, search.heights.get(c, 0))) for c in sq))
        best = max(options, key=lambda mv: search.gain(mv)[0])
        search.apply(best)
    cubes, bad = tile(search.heights)
    # whatever still cannot be covered is dropped (the cubes found are kept)
    return cubes


def visible_share(search: Search, cube: Cube, removal, box) -> float:
    """The share of ``cube``'s image the camera sees past the rest of the mountain: the pixels
    its removal (``removal``, the cell changes; ``box``, the crop box they change) changes,
    over those it would change standing alone at its level. A cube behind a taller stack shows
    a sliver at most, and a sliver at a tower's edge is as well explained by the edge's blur."""
    if box is None:
        return 0.0
    x0, y0, x1, y1 = box
    raster = search.raster
    with_it, _ = raster.draw(search.heights, box)
    with_it = with_it.copy()
    lower = dict(search.heights)
    lower.update(dict(removal))
    without, _ = raster.draw(lower, box)
    seen = int(np.count_nonzero(with_it != without))
    i, j, k = cube
    alone, _ = raster.draw({c: k + 1 for c in cells_of(i, j)}, box)
    alone = alone.copy()
    base, _ = raster.draw({c: k for c in cells_of(i, j)}, box) if k > 0 else (np.zeros_like(alone), None)
    free = int(np.count_nonzero(alone != base))
    # the raster's buffers now hold other drawings: the search's own maps are separate copies
    return seen / free if free > 0 else 1.0


def confidences(search: Search, cubes: list[Cube]) -> dict[Cube, float]:
    """Confidence of each cube: for a cube with nothing on it, how much the explanation of the
    frame would lose without it, lowered when the camera sees only a small share of it (behind
    a taller stack: ``docs/observation.md``, a partly hidden cube has a lower ``conf``); a cube
    under others is as sure as the surest cube it holds."""
    conf: dict[Cube, float] = {}
    on_top = {c for c in cubes if not any(o[2] == c[2] + 1 and abs(o[0] - c[0]) <= 1 and abs(o[1] - c[1]) <= 1
                                          for o in cubes)}
    for cube in on_top:
        i, j, k = cube
        rest = [c for c in cubes if c != cube]
        lower = heights_of(rest)
        mv = tuple((c, lower.get(c, 0)) for c in cells_of(i, j))
        loss, box = search.gain(mv)
        sure = float(1.0 - math.exp(-max(0.0, -loss) / (_CONF_SCALE * search.grid.scale ** 2)))
        seen = visible_share(search, cube, mv, box)
        conf[cube] = sure * min(1.0, max(0.0, (seen - _SLIVER) / (_SEEN_SHARE - _SLIVER)))
    for cube in sorted(cubes, key=lambda c: -c[2]):
        if cube in conf:
            continue
        above = [conf[o] for o in cubes if o in conf and o[2] == cube[2] + 1
                 and abs(o[0] - cube[0]) <= 1 and abs(o[1] - cube[1]) <= 1]
        conf[cube] = max(above) if above else 0.5
    return conf
