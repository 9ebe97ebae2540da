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
#: pixels darker than this share of white are too dark to tell their colour
DARK_LEVEL = 0.06
#: the band of paper checked around the grid (mm from the grid's border)
BAND = (2.5, 10.0)


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame."""

    hand: bool
    smooth_squares: float
    foreign_mm: float


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


def check(grey: np.ndarray, grad: np.ndarray, crop_bgr: np.ndarray, white: np.ndarray,
          geo: BoardGeometry, origin: tuple[int, int], heights: np.ndarray | None = None,
          hidden: np.ndarray | None = None) -> HandCheck:
    """Look for an arm in the board's crop (see the module docstring). ``heights``: the towers
    as read, to explain what stands in front of the border band (None: not read yet, then
    only the smooth-patch test runs)."""
    shape = grey.shape
    org = np.asarray(origin, float)
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    w = SIZE * SQUARE_MM
    grid = np.array([[0.0, 0.0], [w, 0.0], [w, w], [0.0, w]])
    grid_px = geo.project(np.column_stack([grid, np.zeros(4)])) - org
    inner = _poly_mask(shape, grid_px)
    # ---- a smooth patch over the grid
    rel = grad / (grey + 12.0)
    edges = (rel > EDGE_LEVEL).astype(np.float32)
    k = max(3, int(round(1.3 * SQUARE_MM * ppm)) | 1)
    density = cv2.boxFilter(edges, -1, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    smooth = ((density < SMOOTH_SHARE) & (inner > 0)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    square_px = (SQUARE_MM * ppm) ** 2
    biggest = float(stats[1:, cv2.CC_STAT_AREA].max()) / square_px if n > 1 else 0.0
    foreign = 0.0
    if heights is not None:
        region = _band(shape, geo, org)
        explained = np.zeros(shape, np.uint8)
        for sq in np.nonzero(heights > 0)[0]:
            px = geo.project(geo.tower_corners(int(sq), int(heights[sq]))) - org
            hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
            cv2.fillConvexPoly(explained, hull, 1, cv2.LINE_8, 4)
        if hidden is not None:
            explained |= hidden.astype(np.uint8)
        explained = cv2.dilate(explained, np.ones((7, 7), np.uint8))
        region &= explained == 0
        if region.any():
            px = crop_bgr / np.maximum(np.asarray(white, np.float32), 1.0)
            lum = px.mean(axis=2)
            chroma = np.abs(px - lum[..., None]).sum(axis=2) / np.maximum(lum, 0.08)
            bad = ((chroma > FOREIGN_LEVEL) & (lum > DARK_LEVEL) & region).astype(np.uint8)
            r = max(1, int(round(1.5 * ppm)))
            bad = cv2.morphologyEx(bad, cv2.MORPH_OPEN, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
            n, _, stats, _ = cv2.connectedComponentsWithStats(bad, connectivity=8)
            if n > 1:
                largest = float(stats[1:, cv2.CC_STAT_AREA].max())
                foreign = largest / ((BAND[1] - BAND[0]) * ppm * ppm)
    hand = biggest >= MIN_SMOOTH_SQUARES or foreign >= MIN_FOREIGN_MM
    return HandCheck(bool(hand), round(biggest, 2), round(foreign, 1))
