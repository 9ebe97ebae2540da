"""Where the printed board is, seen from the camera, and a straight-down picture of it.

The board's own markers 4–7 locate it: :func:`calibration.pose.locate_table` fits the camera to
them with the board's marker layout as the "table", so the fitted frame *is* the board frame
(``calibration/boards.py``: origin at the outer corner of square [0, 0], x towards marker 5, y
towards marker 7, z up). Without a lens calibration the focal length is estimated from them.
A table camera does not move between frames, so the fit is kept and only checked: the markers
are compared with their picture at the last fit, and a new fit is made only when one of them
has moved or is covered.

The :class:`Rectifier` resamples the camera image onto the board's plane (``PPM`` pixels per
millimetre): the squares come out square and true to size, and a point at height z appears
pushed away from the camera's foot by a factor the view gives exactly. :func:`ink_mask` says
which of its pixels show printing (grid lines, markers, caption), which the reader must not take
for a black pyramid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.boards import ARUCO_DICT, BOARD_MARKER_IDS, GLEEBS_BOARD, BoardSpec, MarkerPlacement, TableLayout
from calibration.markers import detect_markers, unique_by_id
from calibration.pose import locate_table
from companion.vision.camera import CameraModel, View

#: resolution of the straight-down picture of the board (pixels per millimetre)
PPM = 1.5
#: how alike (normalised correlation) each marker must look to the last fit's for the fit to
#: be kept: a shift of one pixel falls well below, sensor noise and light changes do not
STILL_NCC = 0.95


@dataclass(frozen=True)
class BoardView:
    """The camera in the board frame, and the board markers it was fitted to."""

    view: View
    corners: dict[int, np.ndarray]
    rms_px: float
    confidence: float
    focal_estimated: bool

    @property
    def markers(self) -> tuple[int, ...]:
        return tuple(sorted(self.corners))

    @property
    def camera_position(self) -> np.ndarray:
        return self.view.pose.camera_position


def board_layout(spec: BoardSpec = GLEEBS_BOARD) -> TableLayout:
    """The board's markers as a measured marker layout (their places are printed, not laid)."""
    return TableLayout(spec.markers, measured=True)


class BoardLocator:
    """Finds the board in frames of one camera, keeping the last fit while nothing moves."""

    def __init__(self, camera: CameraModel | None = None, spec: BoardSpec = GLEEBS_BOARD):
        self.camera = camera
        self.spec = spec
        self.layout = board_layout(spec)
        self.last: BoardView | None = None
        self.last_size: tuple[int, int] | None = None
        self.templates: list[tuple[tuple[int, int, int, int], np.ndarray]] = []

    def _camera_for(self, size: tuple[int, int]) -> CameraModel | None:
        cam = self.camera
        if cam is None or tuple(cam.size) == size:
            return cam
        w, h = cam.size
        if abs(w / h - size[0] / size[1]) > 0.01:
            return None
        return cam.scaled(size)

    def _still(self, image: np.ndarray) -> bool:
        """Whether every marker of the last fit still shows exactly where it was: the picture
        of each (its square and a margin) correlates with the one kept from the fit. A shift of
        a pixel, a hand over it or a change of view breaks the correlation; sensor noise and a
        change of light do not."""
        for (x0, y0, x1, y1), template in self.templates:
            patch = image[y0:y1, x0:x1]
            if patch.shape[:2] != template.shape[:2]:
                return False
            grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
            score = float(cv2.matchTemplate(grey, template, cv2.TM_CCOEFF_NORMED)[0, 0])
            if not score >= STILL_NCC:
                return False
        return True

    def _keep(self, image: np.ndarray, bv: BoardView, size: tuple[int, int]) -> None:
        h, w = image.shape[:2]
        templates = []
        for corners in bv.corners.values():
            x0 = max(int(np.floor(corners[:, 0].min())) - 4, 0)
            y0 = max(int(np.floor(corners[:, 1].min())) - 4, 0)
            x1 = min(int(np.ceil(corners[:, 0].max())) + 5, w)
            y1 = min(int(np.ceil(corners[:, 1].max())) + 5, h)
            patch = image[y0:y1, x0:x1]
            grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
            templates.append(((x0, y0, x1, y1), grey.copy()))
        self.last, self.last_size, self.templates = bv, size, templates

    def locate(self, image: np.ndarray) -> BoardView | None:
        """The board in ``image``, or None when none of its markers can be seen."""
        size = (image.shape[1], image.shape[0])
        if self.last is not None and self.last_size == size and self._still(image):
            return self.last
        cam = self._camera_for(size)
        found = unique_by_id(detect_markers(image, ids=BOARD_MARKER_IDS, camera=cam))
        dets = [d for d in found.values() if d.id in BOARD_MARKER_IDS]
        if not dets:
            return None
        loc = locate_table(None, cam, self.layout, detections=dets, size=size)
        if not loc.ok or loc.view is None:
            return None
        bv = BoardView(loc.view, {d.id: d.corners for d in dets}, float(loc.reprojection_px or 0.0),
                       float(loc.confidence), bool(loc.focal_estimated))
        # a full set of markers is worth keeping; a partial one (a hand over a marker) is not
        if len(dets) == len(self.spec.markers):
            self._keep(image, bv, size)
        return bv


# ------------------------------------------------------------------------------- the plane
@dataclass(frozen=True)
class Rectifier:
    """The board plane (z = 0) resampled at :data:`PPM`: pixel (u, v) shows board point
    (x0 + (u + 0.5)/ppm, y0 + (v + 0.5)/ppm)."""

    view: View
    x0: float
    y0: float
    width: int
    height: int
    ppm: float
    map1: np.ndarray
    map2: np.ndarray

    def warp(self, image: np.ndarray) -> np.ndarray:
        return cv2.remap(image, self.map1, self.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        """Board points (N×2 mm, on the plane) to rectified pixels (continuous, N×2)."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        return (xy - np.array([self.x0, self.y0])) * self.ppm - 0.5

    def to_board(self, px: np.ndarray) -> np.ndarray:
        px = np.asarray(px, float).reshape(-1, 2)
        return (px + 0.5) / self.ppm + np.array([self.x0, self.y0])

    def ground(self, points: np.ndarray) -> np.ndarray:
        """Where 3-D board points (N×3) appear on the plane: the camera's ray through each,
        continued down to z = 0 (board mm, N×2)."""
        C = self.view.pose.camera_position
        pts = np.asarray(points, float).reshape(-1, 3)
        s = C[2] / np.maximum(C[2] - pts[:, 2], 1e-6)
        return C[:2] + (pts[:, :2] - C[:2]) * s[:, None]


def rectifier(view: View, region: tuple[float, float, float, float], ppm: float = PPM,
              step: int = 8) -> Rectifier:
    """The resampling of the plane over ``region`` (x0, y0, x1, y1 board mm): the camera pixel of
    every rectified pixel, computed through the lens on a coarse grid and interpolated."""
    x0, y0, x1, y1 = region
    w = int(math.ceil((x1 - x0) * ppm))
    h = int(math.ceil((y1 - y0) * ppm))
    gu = np.arange(0, w + step, step, dtype=np.float64)
    gv = np.arange(0, h + step, step, dtype=np.float64)
    uu, vv = np.meshgrid(gu, gv)
    pts = np.column_stack([x0 + (uu.ravel() + 0.5) / ppm, y0 + (vv.ravel() + 0.5) / ppm,
                           np.zeros(uu.size)])
    px = view.project(pts).reshape(len(gv), len(gu), 2).astype(np.float32)
    xs = np.arange(w, dtype=np.float32) / step
    ys = np.arange(h, dtype=np.float32) / step
    mx, my = np.meshgrid(xs, ys)
    map_x = cv2.remap(px[..., 0], mx, my, cv2.INTER_LINEAR)
    map_y = cv2.remap(px[..., 1], mx, my, cv2.INTER_LINEAR)
    m1, m2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    return Rectifier(view, x0, y0, w, h, ppm, m1, m2)


def camera_ppm(view: View, spec: BoardSpec = GLEEBS_BOARD) -> float:
    """How many camera pixels a millimetre of the board's middle takes (its resolution)."""
    cx, cy = spec.width_mm / 2, spec.height_mm / 2
    px = view.project(np.array([[cx - 5, cy, 0], [cx + 5, cy, 0], [cx, cy - 5, 0], [cx, cy + 5, 0]]))
    return float((np.linalg.norm(px[1] - px[0]) + np.linalg.norm(px[3] - px[2])) / 20.0)


# ------------------------------------------------------------------------------- the print
def page_frame_map(page: np.ndarray, markers: tuple[MarkerPlacement, ...]) -> np.ndarray:
    """The affine map (2×3) from a printed page's frame (mm, y up) to its pixels, read off the
    markers found on the page (so it follows :mod:`calibration.targets` wherever it puts them)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))
    grey = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY) if page.ndim == 3 else page
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(grey)
    if ids is None:
        raise RuntimeError("the printed page shows no marker: calibration.targets changed")
    found = {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel())}
    missing = [m.id for m in markers if m.id not in found]
    if missing:
        raise RuntimeError(f"markers {missing} are missing from the printed page")
    src = np.concatenate([m.corners()[:, :2] for m in markers])
    dst = np.concatenate([found[m.id] for m in markers])
    A, _ = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
    if A is None:
        raise RuntimeError("the printed page's markers do not fit its frame")
    return A


@lru_cache(maxsize=2)
def printed_page(spec: BoardSpec = GLEEBS_BOARD, ppm: float = 4.0) -> tuple[np.ndarray, np.ndarray]:
    """The board's page as ``companion calibrate targets`` prints it (grey, uint8) and the map
    from board mm to its pixels."""
    from calibration.targets import board_sheet

    page = board_sheet(ppm, spec).page.image
    grey = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    grey.setflags(write=False)
    return grey, page_frame_map(page, spec.markers)


@lru_cache(maxsize=2)
def _ink_raster(spec: BoardSpec, ppm: float) -> tuple[np.ndarray, float, float]:
    """The page's print resampled in the board frame at ``ppm`` (uint8 0/1, row v is
    y = y0 + (v + 0.5)/ppm), with its origin (x0, y0)."""
    grey, A = printed_page(spec)
    x0, y0, x1, y1 = -120.0, -160.0, spec.width_mm + 120.0, spec.height_mm + 120.0
    w, h = int(math.ceil((x1 - x0) * ppm)), int(math.ceil((y1 - y0) * ppm))
    S = np.array([[1 / ppm, 0, x0 + 0.5 / ppm], [0, 1 / ppm, y0 + 0.5 / ppm], [0, 0, 1]])
    M = np.vstack([A, [0, 0, 1]]) @ S
    ink = (grey < 128).astype(np.uint8) * 255
    # thicken the print to a few page pixels first, so that no thin line falls between samples
    ink = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    warped = cv2.warpAffine(ink, M[:2], (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                            borderValue=0)
    out = (warped > 20).astype(np.uint8)
    out.setflags(write=False)
    return out, x0, y0


def ink_mask(rect: Rectifier, spread_mm: float, spec: BoardSpec = GLEEBS_BOARD) -> np.ndarray:
    """Rectified pixels (uint8 0/1) where printing shows, widened by ``spread_mm`` (the camera's
    blur): grid lines, markers, the caption."""
    raster, rx0, ry0 = _ink_raster(spec, rect.ppm)
    u0 = int(round((rect.x0 - rx0) * rect.ppm))
    v0 = int(round((rect.y0 - ry0) * rect.ppm))
    out = np.zeros((rect.height, rect.width), np.uint8)
    H, W = raster.shape
    a0, b0 = max(u0, 0), max(v0, 0)
    a1, b1 = min(u0 + rect.width, W), min(v0 + rect.height, H)
    if a1 > a0 and b1 > b0:
        out[b0 - v0:b1 - v0, a0 - u0:a1 - u0] = raster[b0:b1, a0:a1]
    r = max(1, int(round(spread_mm * rect.ppm)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return cv2.dilate(out, kernel)
