"""Is an arm over the table? A frame with one is never read as a position.

The table is looked at from above at low resolution (the plane of the table, 2 mm a pixel) and
every pixel that is not the table's own colour (:mod:`.pixels`) is a candidate. Two checks:

* **before reading**: an arm reaches in from outside the play area, and nothing of the game
  lies outside it (the zones keep clear of its edge; a building leans out in the picture, but
  no more than a stone's width and a building's height). A large foreign region on the band
  around the play area is an arm (:func:`arm_at_edge`), where it crosses the band solid (not a
  chain of specks strung out to it from a stone, where the table top is poorly fitted). The kobold's tower is the exception: it
  stands near the edge and rises up to twelve stones (240 mm), and seen from a camera on the
  other side its picture on the table's plane leans far out over the band (a blue streak from
  the kobold spot outwards, away from the camera's foot). The band where that column may show
  (:func:`tower_lean`, for the tallest tower the reader considers) is no evidence of an arm: an
  arm is wider than the column and shows on the band beside it, and one over the tower is
  caught after reading, unexplained by the stack read there;
* **after reading**: everything the reader found is drawn in (every stone and die, where the
  camera sees it, and the mat and the markers). What is left that is not the table is
  unexplained; a large unexplained region is an arm or a hand over the table, whatever its
  colour (:func:`unexplained_area`).
"""

from __future__ import annotations

import cv2
import numpy as np

from dataclasses import dataclass

from companion.vision.camera import View
from companion.vision.nains.kit import MAX_TOWER, STONE_MM
from companion.vision.nains.pixels import Background, FrameColours
from companion.vision.nains.planes import Plane, plane_picture
from companion.vision.nains.solids import Placed
from companion.vision.nains.zones import Rect, ZoneLayout

PPM = 0.5
#: a foreign region this large (mm²) on the band around the play area is an arm
EDGE_ARM_MM2 = 4000.0
#: an unexplained region this large (mm²) over the table is an arm or a hand
LOOSE_HAND_MM2 = 3000.0
BAND_MM = 70.0
#: an arm crossing the band is at least twice this wide (mm) there; a chain of specks (a table
#: top the background model fits poorly) strung from a stone out to the band is thinner.
#: Measured: the arms of the corpus cross it 28 to 64 mm deep (14 for one the later test
#: refuses), a clean table's chain of specks 9
ARM_HALF_WIDTH_MM = 14.0


#: the kobold's stones stand within this (mm) of the kobold spot
TOWER_REACH_MM = 22.0


@dataclass(frozen=True)
class Overview(Plane):
    """The overview: a top-down picture of the table's plane, and the view it was taken from."""

    view: View | None = None


def overview(image: np.ndarray, view: View, zones: ZoneLayout) -> Overview:
    rect = Rect(-BAND_MM, -BAND_MM, zones.width_mm + BAND_MM, zones.depth_mm + BAND_MM)
    plane = plane_picture(image, view, rect, 0.0, PPM)
    return Overview(plane.rect, plane.z, plane.ppm, plane.image, view)


def tower_lean(plane: Plane, view: View, zones: ZoneLayout) -> np.ndarray:
    """Where (a mask of the overview) the kobold's tower, as tall as the reader considers, may
    show on the table's plane: its column from the table up to its top, each point seen along
    the camera's ray down to the plane."""
    C = np.asarray(view.pose.camera_position, float)
    x, y = zones.kobold
    r = TOWER_REACH_MM
    top = min(MAX_TOWER * STONE_MM, C[2] * 0.8)
    foot = np.array([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]])
    t = C[2] / (C[2] - top)
    head = C[:2] + (foot - C[:2]) * t
    lean = np.zeros(plane.image.shape[:2], np.uint8)
    _fill(lean, plane, np.vstack([foot, head]), 1)
    return lean


def foreign(plane: Plane, colours: FrameColours, table: Background, zones: ZoneLayout) -> np.ndarray:
    """Pixels of the overview that are neither the table nor the markers' paper nor the mat."""
    h, w = plane.image.shape[:2]
    lp = colours.classes(plane.image.reshape(-1, 3), table).reshape(h, w, -1)
    mask = (lp[:, :, 0] < np.log(0.5)).astype(np.uint8)
    for cx, cy in ((0.0, 0.0), (zones.width_mm, 0.0), (zones.width_mm, zones.depth_mm), (0.0, zones.depth_mm)):
        _fill(mask, plane, Rect(cx - 33.0, cy - 33.0, cx + 33.0, cy + 33.0).corners(), 0)
    _fill(mask, plane, zones.tray.grown(3.0).corners(), 0)
    return mask


def _fill(mask: np.ndarray, plane: Plane, xy: np.ndarray, value: int) -> None:
    px = plane.to_px(xy)
    hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, value, cv2.LINE_8, 4)


def _largest_mm2(mask: np.ndarray) -> float:
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / (PPM * PPM)


def arm_at_edge(plane: Plane, mask: np.ndarray, zones: ZoneLayout) -> float:
    """The largest foreign region (mm²) touching the band around the play area (0: none), the
    band where the kobold's tower may lean out apart (when the overview knows its view)."""
    inner = np.zeros_like(mask)
    _fill(inner, plane, Rect(-8.0, -8.0, zones.width_mm + 8.0, zones.depth_mm + 8.0).corners(), 1)
    view = getattr(plane, "view", None)
    if view is not None:
        inner |= tower_lean(plane, view, zones)
    band = mask & (1 - inner)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    # how deep inside the foreign region each pixel lies (mm; the region goes on past the
    # picture's border): an arm crosses the band solid, noise strung out to it does not
    padded = cv2.copyMakeBorder(opened, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
    depth = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[1:-1, 1:-1] / PPM
    touching = set(np.unique(labels[(band > 0) & (depth >= ARM_HALF_WIDTH_MM)])) - {0}
    if not touching:
        return 0.0
    return float(max(stats[k, cv2.CC_STAT_AREA] for k in touching)) / (PPM * PPM)


def unexplained_area(plane: Plane, mask: np.ndarray, view: View, solids: list[Placed]) -> float:
    """The largest region (mm²) of the overview that is not the table and that no piece read
    explains."""
    left = mask.copy()
    C = view.pose.camera_position
    for solid in solids:
        X = solid.points
        t = (C[2] - plane.z) / np.maximum(C[2] - X[:, 2], 1e-6)
        Y = C[:2] + (X[:, :2] - C[:2]) * t[:, None]
        c = Y.mean(axis=0)
        _fill(left, plane, c + (Y - c) * 1.0 + np.sign(Y - c) * 3.0, 0)
    return _largest_mm2(left)
