"""Finding the giants: a coloured pawn standing on a square of the mountain or of the table.

Once the heights are known, every square a giant could stand on is known too: the top of every
column, and the table cells touching a cube. For each, the pixels where a pawn standing there
would show (its axis from foot to head, its head) are read and their colours named by the
colour model, white-referenced on the markers' paper. A square where one giant colour clearly
dominates holds a giant of that colour; each colour is one player's giant, so the best square
for each colour wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.colours import ColourModel
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.appearance import _FEATURE_SCALE
from companion.vision.hlc.layout import GIANT_COLOURS, Layout

#: colours a square may show besides a giant's (the cubes' wood, the table, shade)
_BACKGROUND = ("wood", "grey", "brown")
_MIN_SHARE = 0.55
_MIN_CONF = 0.35
#: scores this close are a tie
_TIE = 0.01
#: the giant colour a cube's pale top can be named under a cool or bright light (a yellow pawn
#: is told from the wood by its colour model; testing it against the wood would lose it)
_PALE = ("white",)
#: how far from the mountain (cells) a giant on the table is looked for
REACH = 3
#: a table square whose pawn pixels the table model explains this often holds no giant
_MAX_TABLE_SHARE = 0.5
#: log-density below the table's typical one still counted as table (the table model is fitted
#: on a few hundred points and is tight on a plain top; a pawn is far off it)
_TABLE_SLACK = 4.0


@dataclass(frozen=True)
class GiantReading:
    colour: str
    cell: tuple[int, int]
    level: int
    conf: float


def default_model() -> ColourModel:
    return ColourModel.default(tuple(GIANT_COLOURS) + _BACKGROUND)


def squares(heights: dict[tuple[int, int], int], reach: int = REACH) -> list[tuple[tuple[int, int], int]]:
    """(cell, level) of every square a giant may be seen on: the column tops, and the table
    cells up to ``reach`` cells (king distance) from a cube. The rules put giants on table cells
    touching a cube only, but a giant put wrongly further off must be seen to be judged."""
    out = [(c, h) for c, h in heights.items() if h > 0]
    table = set()
    for (i, j), h in heights.items():
        if h <= 0:
            continue
        for a in range(-reach, reach + 1):
            for b in range(-reach, reach + 1):
                c = (i + a, j + b)
                if heights.get(c, 0) == 0:
                    table.add(c)
    out += [(c, 0) for c in sorted(table)]
    return out


def _pawn_points(lattice: Lattice, cell: tuple[int, int], level: int, layout: Layout) -> np.ndarray:
    """Table points on a pawn standing on ``cell``: its axis and a ring inside its head."""
    centre = lattice.cell_centre(cell)
    z0 = level * layout.cube
    hgt = layout.giant_height
    r = layout.giant_diameter / 2 * 0.55
    pts = [[centre[0], centre[1], z0 + f * hgt] for f in (0.25, 0.45, 0.65, 0.85, 1.0)]
    for a in np.linspace(0, 2 * math.pi, 6, endpoint=False):
        pts.append([centre[0] + r * math.cos(a), centre[1] + r * math.sin(a), z0 + hgt])
        pts.append([centre[0] + r * math.cos(a), centre[1] + r * math.sin(a), z0 + 0.5 * hgt])
    return np.array(pts)


def _features(bgr: np.ndarray) -> np.ndarray:
    lg = np.log(bgr.astype(np.float32) + 4.0)
    mean = lg.mean(axis=1, keepdims=True)
    return np.concatenate([lg[:, [0]] - mean, lg[:, [2]] - mean, mean], axis=1) * _FEATURE_SCALE


def _bare_table_share(bgr: np.ndarray, table) -> float:
    """The share of these pixels (N×3 BGR) that the table's own model explains (lit or in
    shade): a square of the table where a pawn stands shows mostly pawn, not table."""
    return float(np.mean(table.logp(_features(bgr)) > table.typical - _TABLE_SLACK))


def _bare_wood_share(bgr: np.ndarray, wood) -> float:
    """The share of these pixels (N×3 BGR) that the frame's model of the cubes' tops explains:
    a cube's top under a cool or bright light is nearly white, and a white giant's colour
    alone cannot tell it from one; a top where a pawn stands shows mostly pawn, not wood."""
    model, typical = wood
    return float(np.mean(model.logp(_features(bgr)) > typical - _TABLE_SLACK))


def _off_limits(point, layout: Layout) -> bool:
    """Whether a table point lies on the played-card zone or a marker's paper (a card's or a
    marker's colours are no giant)."""
    x, y = float(point[0]), float(point[1])
    cx, cy = layout.card_zone_centre
    w, h = layout.card_zone_size
    r = layout.giant_diameter / 2
    if abs(x - cx) <= w / 2 + r and abs(y - cy) <= h / 2 + r:
        return True
    m = layout.marker_size * 0.9 + r
    return any(abs(x - mx) <= m and abs(y - my) <= m for mx, my in layout.marker_centres().values())


def _unhidden(points: np.ndarray, camera: np.ndarray, lattice: Lattice,
              heights: dict[tuple[int, int], int], cube: float, steps: int = 24) -> np.ndarray:
    """Which table points (N×3, mm) the camera sees past the mountain read: the ray from each
    point to the camera must pass over every column it crosses (a pawn behind a column is not
    seen, and the pixels where it would be show whatever stands in front)."""
    if not heights:
        return np.ones(len(points), bool)
    keys = np.array(list(heights), dtype=int)
    i0, j0 = keys.min(axis=0)
    i1, j1 = keys.max(axis=0)
    grid = np.zeros((i1 - i0 + 1, j1 - j0 + 1), np.float64)
    for (i, j), hgt in heights.items():
        grid[i - i0, j - j0] = hgt * cube
    # only the first stretch of each ray can meet the mountain (no higher than its top)
    top = float(grid.max())
    d = camera[None, :] - points
    reach = np.clip((top - points[:, 2]) / np.maximum(d[:, 2], 1e-6), 0.0, 1.0)
    t = np.linspace(0.02, 1.0, steps)
    q = points[:, None, :] + (t[None, :, None] * reach[:, None, None]) * d[:, None, :]
    cells = np.floor(lattice.to_cells(q[..., :2].reshape(-1, 2))).astype(int)
    ci, cj = cells[:, 0] - i0, cells[:, 1] - j0
    inside = (ci >= 0) & (ci < grid.shape[0]) & (cj >= 0) & (cj < grid.shape[1])
    under = np.zeros(len(cells), np.float64)
    under[inside] = grid[ci[inside], cj[inside]]
    blocked = (q[..., 2].reshape(-1) < under - 1.0).reshape(len(points), steps)
    return ~blocked.any(axis=1)


def find_giants(image: np.ndarray, view: View, lattice: Lattice, heights: dict[tuple[int, int], int],
                layout: Layout, model: ColourModel, white: tuple[float, float, float] | None,
                table=None, wood=None) -> list[GiantReading]:
    """The giants on the squares ``heights`` makes. ``table``: the frame's table model
    (:class:`~companion.vision.hlc.appearance.TableModel`), when known: a table square whose
    pixels the table explains holds no giant, whatever colour the table has (a grey table is not
    a white giant, its shadow is not a black one). ``wood``: (model, typical log-density) of
    the cubes' tops in this frame, when known: a cube's top whose pixels it explains holds no
    white giant (a pale top is not a white giant)."""
    cands = [(c, lvl) for c, lvl in squares(heights)
             if lvl > 0 or not _off_limits(lattice.cell_centre(c), layout)]
    if not cands:
        return []
    blurred = cv2.GaussianBlur(image, (0, 0), 0.7)
    h, w = image.shape[:2]
    names = model.names
    best: dict[str, GiantReading] = {}
    pts_all = np.concatenate([_pawn_points(lattice, c, lvl, layout) for c, lvl in cands])
    px_all = view.project(pts_all).reshape(len(cands), -1, 2)
    seen_all = _unhidden(pts_all, view.pose.camera_position, lattice, heights,
                         layout.cube).reshape(len(cands), -1)
    for (cell, level), px, seen in zip(cands, px_all, seen_all):
        ok = (px[:, 0] >= 0) & (px[:, 0] < w - 1) & (px[:, 1] >= 0) & (px[:, 1] < h - 1) & seen
        if ok.sum() < 6:
            continue
        q = px[ok].astype(np.float32).reshape(-1, 1, 2)
        bgr = cv2.remap(blurred, q[..., 0], q[..., 1], cv2.INTER_LINEAR).reshape(-1, 3)
        if table is not None and level == 0 and _bare_table_share(bgr, table) > _MAX_TABLE_SHARE:
            continue
        idx, conf = model.classify(bgr, white)
        votes = np.bincount(idx, weights=conf, minlength=len(names))
        k = int(np.argmax(votes))
        name = names[k]
        if name not in GIANT_COLOURS:
            continue
        if (wood is not None and level > 0 and name in _PALE
                and _bare_wood_share(bgr, wood) > _MAX_TABLE_SHARE):
            continue
        share = float(votes[k] / max(votes.sum(), 1e-9))
        mean_conf = float(conf[idx == k].mean()) if np.any(idx == k) else 0.0
        if share < _MIN_SHARE or mean_conf < _MIN_CONF:
            continue
        # a pawn the mountain would partly hide there is a doubtful reading, in proportion:
        # the points left show what stands in front of it or on the cube before it, along
        # the same lines of sight (a giant on a cube reads alike on the table square behind)
        score = share * mean_conf * float(seen.mean())
        prev = best.get(name)
        # two squares on one line of sight can show the same pawn equally: the nearer, higher
        # one is what the camera meets first (a pawn on the square behind would stand partly
        # hidden by what holds the nearer one)
        if prev is None or score > prev.conf + _TIE or (score >= prev.conf - _TIE and level > prev.level):
            best[name] = GiantReading(name, cell, level, round(score, 4))
    return sorted(best.values(), key=lambda g: GIANT_COLOURS.index(g.colour))


def giant_mask(image_shape: tuple[int, int], view: View, lattice: Lattice, giants: list[GiantReading],
               layout: Layout) -> np.ndarray:
    """Pixels covered by the giants found (uint8, frame size): the mountain's evidence leaves
    them out."""
    mask = np.zeros(image_shape[:2], np.uint8)
    r = layout.giant_diameter / 2 + 1.5
    ang = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    for g in giants:
        c = lattice.cell_centre(g.cell)
        z0 = g.level * layout.cube
        ring = np.column_stack([c[0] + r * np.cos(ang), c[1] + r * np.sin(ang)])
        pts = np.concatenate([np.column_stack([ring, np.full(16, z0)]),
                              np.column_stack([ring, np.full(16, z0 + layout.giant_height + 1.5)])])
        px = view.project(pts)
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(mask, cv2.convexHull(np.round(px).astype(np.int32)), 1)
    return mask
