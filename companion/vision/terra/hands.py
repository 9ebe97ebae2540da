"""Is an arm over the board? A frame with one is never read as a position.

Two things a board of towers never shows and an arm always does:

* **a large smooth patch over the grid.** Towers are a tight grid of 25 mm faces with dark
  cracks between them; an empty square is printed paper with its ink border. So within a
  square's width of any point of the grid there is an edge. A forearm or a palm (70–90 mm
  wide) is smooth over several squares. Edges are measured relative to the local grey level
  (a shadow keeps its edges, only darker).
* **something across the board's border.** An arm reaches the grid from outside, so it covers
  the paper band around the grid. That band is white paper (in shadow or not: neutral and
  smooth) except where a tower, seen at a slant, stands in front of it, and the reader knows
  where its towers are. Band pixels that are neither paper nor explained by a tower belong to
  something lying across the border.

Either is enough to call the frame a hand frame. The checks are cheap (one box filter and a few
masks on the board's crop).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BLOCK_MM, BOARD, SIZE, SQUARE_MM

BOARD_MARKER_MM = BOARD.marker_mm

#: relative gradient (|∇g| / (g + 12)) above which a pixel is an edge
EDGE_LEVEL = 0.12
#: a window of one square with fewer edge pixels than this share is smooth
SMOOTH_SHARE = 0.03
#: a smooth patch this many squares large (in area, at the board) is an arm
MIN_SMOOTH_SQUARES = 0.8
#: band pixels farther than this from paper (in white-referenced chroma + lightness) are foreign
FOREIGN_LEVEL = 0.16
#: this many squares' worth of foreign band pixels (length along the border) is an arm
MIN_FOREIGN_MM = 35.0
#: a square's best height scoring below this is not explained by any height (the scorer's
#: scale, see :mod:`companion.vision.terra.model`) ...
MIN_FIT = -2.0
#: ... and this many such squares are an arm
MIN_UNEXPLAINED = 3
#: pixels darker than this share of white are too dark to tell their colour
DARK_LEVEL = 0.06
#: the band of paper checked around the grid (mm from the grid's border)
BAND = (2.5, 10.0)


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame: the largest smooth patch over the
    grid (squares), the longest stretch of the border band covered (mm), the squares no height
    explains."""

    smooth_squares: float
    foreign_mm: float = 0.0
    unexplained: int = 0

    @property
    def hand(self) -> bool:
        return (self.smooth_squares >= MIN_SMOOTH_SQUARES or self.foreign_mm >= MIN_FOREIGN_MM
                or self.unexplained >= MIN_UNEXPLAINED)


def _poly_mask(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask


def _band(shape: tuple[int, int], geo: BoardGeometry, org: np.ndarray) -> np.ndarray:
    """The paper band around the grid (crop pixels): along the rows' ends its full length,
    along the columns' ends between the markers (which sit there, beside the first and last
    rows)."""
    lo, hi = BAND
    w = SIZE * SQUARE_MM
    m = BOARD_MARKER_MM + 2.0
    rects = [(-hi, -hi, w + hi, -lo), (-hi, w + lo, w + hi, w + hi),
             (-hi, m, -lo, w - m), (w + lo, m, w + hi, w - m)]
    out = np.zeros(shape, bool)
    for x0, y0, x1, y1 in rects:
        quad = np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])
        out |= _poly_mask(shape, geo.project(quad) - org) > 0
    return out


def smooth_patch(grey: np.ndarray, grad: np.ndarray, geo: BoardGeometry, origin: tuple[int, int]) -> float:
    """The largest smooth patch over the grid, in squares (see the module docstring)."""
    org = np.asarray(origin, float)
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    w = SIZE * SQUARE_MM
    grid = np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, w, 0.0], [0.0, w, 0.0]])
    inner = _poly_mask(grey.shape, geo.project(grid) - org)
    rel = grad / (grey + 12.0)
    edges = (rel > EDGE_LEVEL).astype(np.float32)
    k = max(3, int(round(1.3 * SQUARE_MM * ppm)) | 1)
    density = cv2.boxFilter(edges, -1, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    smooth = ((density < SMOOTH_SHARE) & (inner > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    square_px = (SQUARE_MM * ppm) ** 2
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / square_px if n > 1 else 0.0


def foreign_band(crop_bgr: np.ndarray, white: np.ndarray, geo: BoardGeometry, origin: tuple[int, int],
                 depth: np.ndarray) -> float:
    """How far (mm, along the border) something that is not paper lies across the band around
    the grid, leaving out what the towers read (and flags: ``depth`` below 255, the occlusion
    image of :func:`companion.vision.terra.features.occlusion`) stand in front of."""
    shape = crop_bgr.shape[:2]
    org = np.asarray(origin, float)
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    explained = cv2.dilate((depth < 255).astype(np.uint8), np.ones((7, 7), np.uint8))
    region = _band(shape, geo, org) & (explained == 0)
    if not region.any():
        return 0.0
    px = crop_bgr[region] / np.maximum(np.asarray(white, np.float32), 1.0)
    lum = px.mean(axis=1)
    chroma = np.abs(px - lum[:, None]).sum(axis=1) / np.maximum(lum, 0.08)
    bad = np.zeros(shape, np.uint8)
    bad[region] = (chroma > FOREIGN_LEVEL) & (lum > DARK_LEVEL)
    r = max(1, int(round(1.5 * ppm)))
    bad = cv2.morphologyEx(bad, cv2.MORPH_OPEN, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(bad, connectivity=8)
    if n <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / ((BAND[1] - BAND[0]) * ppm * ppm)


def unexplained(fit: np.ndarray, seen: np.ndarray) -> int:
    """How many squares, well in view, no height explains (their best score is far below what
    a tower or an empty square scores): the squares an arm covers."""
    return int(np.sum((fit < MIN_FIT) & (seen > 0.5)))
