"""Is an arm over the board? A frame with one is never read as a position.

Two things a board of towers never shows and an arm does:

* **a large smooth patch over the grid.** Towers are a tight grid of 25 mm faces with dark
  cracks between them; an empty square is printed paper with its ink border. So within a
  square's width of any point of the grid there is an edge. A forearm or a palm (70–90 mm
  wide) is smooth over several squares. Edges are measured relative to the local grey level
  (a shadow keeps its edges, only darker). This runs before the heights are read.
* **a change since the last still frame that no move explains.** A reader watching a table
  keeps the last still frame it read with no arm. A move changes the picture where the squares
  it changed stand (their towers, what they hide, their shadows); an arm changes a large region
  reaching out past the board, where no tower stands. So the change between the two frames,
  outside the neighbourhood of the squares read differently, is measured; and more squares
  read differently than one still moment can hold is an arm too (the heights read under an
  arm are whatever its surface looks like).

Either is enough. The first needs no history (a single photograph), but only sees a palm or a
forearm lying over the grid; the second needs the table seen still once before, and sees any
arm. Both are cheap (a box filter and a difference on the board's crop).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BLOCK_MM, SIZE, SQUARE_MM

#: relative gradient (|∇g| / (g + 12)) above which a pixel is an edge
EDGE_LEVEL = 0.12
#: ... and above this multiple of the crop's median gradient: most of the crop is flat, so its
#: median is the sensor's noise, which on a dark sleeve or a palm in shadow reaches the relative
#: level alone
NOISE_EDGE = 2.5
#: a window of one square with fewer edge pixels than this share is smooth
SMOOTH_SHARE = 0.03
#: a smooth patch this many squares large (in area, at the board) is an arm
MIN_SMOOTH_SQUARES = 2.0


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame: the largest smooth patch over the
    grid (squares) and the largest change since the last still frame no tower read explains
    (squares)."""

    smooth_squares: float
    changed_squares: float = 0.0

    @property
    def hand(self) -> bool:
        return self.smooth_squares >= MIN_SMOOTH_SQUARES or self.changed_squares >= MIN_CHANGE_SQUARES


def _poly_mask(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask


def smooth_patch(grey: np.ndarray, grad: np.ndarray, geo: BoardGeometry, origin: tuple[int, int]) -> float:
    """The largest smooth patch over the grid, in squares (see the module docstring)."""
    org = np.asarray(origin, float)
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    w = SIZE * SQUARE_MM
    grid = np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, w, 0.0], [0.0, w, 0.0]])
    inner = _poly_mask(grey.shape, geo.project(grid) - org)
    floor = NOISE_EDGE * float(np.median(grad))
    edges = ((grad > EDGE_LEVEL * (grey + 12.0)) & (grad > floor)).astype(np.float32)
    k = max(3, int(round(1.3 * SQUARE_MM * ppm)) | 1)
    density = cv2.boxFilter(edges, -1, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    smooth = ((density < SMOOTH_SHARE) & (inner > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    square_px = (SQUARE_MM * ppm) ** 2
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / square_px if n > 1 else 0.0


#: a pixel changed since the reference frame when its grey level moved by more than this ...
CHANGE_LEVEL = 14.0
#: ... plus this share of its level
CHANGE_SHARE = 0.12
#: a change this many squares large (in area at the board) that no tower read explains is an arm
MIN_CHANGE_SQUARES = 1.5
#: more squares than this read differently from the reference frame is not one still moment
#: after a move (three blocks taken and three put down, flags moved, or two such moves)
MAX_CHANGED_SQUARES = 12


def unexplained_change(grey: np.ndarray, reference: np.ndarray, geo: BoardGeometry,
                       origin: tuple[int, int], before: np.ndarray, after: np.ndarray) -> float:
    """The largest change (in squares) between the reference frame (the last still frame read
    with no arm, same camera and board) and this one that the towers read do not explain: a
    change is explained where a square read differently stands (its tower's silhouette at both
    heights, and the squares around it, which its shadow and what it hides reach). An arm
    reaching in changes a large region, out past the board where no tower stands."""
    if reference.shape != grey.shape:
        return 0.0
    diff = cv2.absdiff(grey, reference)
    changed = (diff > CHANGE_LEVEL + CHANGE_SHARE * reference).astype(np.uint8)
    changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    moved = np.nonzero(before != after)[0]
    if len(moved) > MAX_CHANGED_SQUARES:
        return float("inf")
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    explained = np.zeros(grey.shape, np.uint8)
    org = np.asarray(origin, float)
    for sq in moved:
        x, y = sq % SIZE, sq // SIZE
        tall = max(int(before[sq]), int(after[sq]), 1) + 2
        c = np.array([[x - 1, y - 1], [x + 2, y - 1], [x + 2, y + 2], [x - 1, y + 2]], float) * SQUARE_MM
        box = np.concatenate([np.column_stack([c, np.zeros(4)]), np.column_stack([c, np.full(4, tall * BLOCK_MM)])])
        hull = cv2.convexHull(np.round((geo.project(box) - org) * 16).astype(np.int32))
        cv2.fillConvexPoly(explained, hull, 1, cv2.LINE_8, 4)
    r = max(1, int(round(SQUARE_MM * ppm)))
    explained = cv2.dilate(explained, np.ones((r, r), np.uint8))
    changed &= 1 - explained
    n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    if n <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / (SQUARE_MM * ppm) ** 2
