"""Is an arm over the board? A frame with one is never read as a position.

Two things a board of towers never shows and an arm does:

* **a large smooth patch over the grid.** Towers are a tight grid of 25 mm faces with dark
  cracks between them; an empty square is printed paper with its ink border. So within a
  square's width of any point of the grid there is an edge. A forearm or a palm (70–90 mm
  wide) is smooth over several squares. Edges are measured relative to the local grey level
  (a shadow keeps its edges, only darker). This runs before the heights are read.
* **squares no height explains.** Under an arm, the best height of a square fits poorly, leads
  the next one by little, and its top's colour is neither the blocks' nor the paper's. The arm
  detector (:class:`~companion.vision.terra.model.CoverModel`, fitted on rendered frames with
  arms by :mod:`companion.synth.terra.tuning`) gives each square a probability of being
  covered; a few covered squares make a hand frame.

Either is enough. Both are cheap (one box filter on the board's crop; a dot product a square).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.heights import HeightReading
from companion.vision.terra.model import CoverModel, cover_features
from companion.vision.terra.kit import BLOCK_MM, SIZE, SQUARE_MM

#: relative gradient (|∇g| / (g + 12)) above which a pixel is an edge
EDGE_LEVEL = 0.12
#: a window of one square with fewer edge pixels than this share is smooth
SMOOTH_SHARE = 0.03
#: a smooth patch this many squares large (in area, at the board) is an arm
MIN_SMOOTH_SQUARES = 0.8
#: a square the arm detector gives at least this probability is covered ...
MIN_COVER_P = 0.6
#: ... and this many covered squares are an arm
MIN_COVERED = 2


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame: the largest smooth patch over the
    grid (squares) and the squares the arm detector takes for covered."""

    smooth_squares: float
    covered: int = 0

    @property
    def hand(self) -> bool:
        return self.smooth_squares >= MIN_SMOOTH_SQUARES or self.covered >= MIN_COVERED


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
    rel = grad / (grey + 12.0)
    edges = (rel > EDGE_LEVEL).astype(np.float32)
    k = max(3, int(round(1.3 * SQUARE_MM * ppm)) | 1)
    density = cv2.boxFilter(edges, -1, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    smooth = ((density < SMOOTH_SHARE) & (inner > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    square_px = (SQUARE_MM * ppm) ** 2
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / square_px if n > 1 else 0.0


def covered(model: CoverModel | None, reading: HeightReading) -> int:
    """How many squares the arm detector takes for covered by an arm (0 without a detector)."""
    if model is None:
        return 0
    p = model(cover_features(reading.chosen, reading.raw, reading.probs))
    return int(np.sum(p >= MIN_COVER_P))
