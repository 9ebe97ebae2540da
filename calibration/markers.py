"""Finding ArUco markers in a camera image.

One detector configuration for the whole program (sub-pixel corner refinement, because every
millimetre of table accuracy starts as a fraction of a pixel here), returning plain arrays so
the callers never touch OpenCV's ArUco API.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

import numpy as np

from calibration.boards import ARUCO_DICT
from companion.errors import BadInput

if TYPE_CHECKING:
    from companion.vision.camera import CameraModel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Detection:
    """A marker found in an image: its id and its corners (4×2 pixels, ArUco's order:
    the printed marker's top-left, top-right, bottom-right, bottom-left)."""

    id: int
    corners: np.ndarray

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side_px(self) -> float:
        """Mean side length in pixels (how big the marker looks)."""
        c = self.corners
        return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


@lru_cache(maxsize=4)
def _detector(dictionary: str):
    import cv2

    try:
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    except AttributeError:
        raise BadInput(f"no ArUco dictionary {dictionary!r}") from None
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 4
    params.cornerRefinementMaxIterations = 50
    params.cornerRefinementMinAccuracy = 0.01
    return cv2.aruco.ArucoDetector(d, params)


def to_grey(image: np.ndarray) -> np.ndarray:
    """A uint8 single-channel view of a camera image, or :class:`BadInput` for anything that is
    not an image."""
    import cv2

    img = np.asarray(image)
    if img.ndim not in (2, 3) or img.size == 0 or (img.ndim == 3 and img.shape[2] not in (1, 3, 4)):
        raise BadInput(f"not an image: an array of shape {img.shape}")
    if img.dtype != np.uint8:
        img = cv2.convertScaleAbs(img)
    if img.ndim == 2:
        return img
    if img.shape[2] == 1:
        return img[:, :, 0]
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY if img.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)


def detect_markers(image: np.ndarray, dictionary: str = ARUCO_DICT,
                   ids: Iterable[int] | None = None, *, refine: bool = True,
                   camera: "CameraModel | None" = None) -> list[Detection]:
    """Every marker of ``dictionary`` in the image (only ``ids`` when given), largest first,
    corners refined on the marker's edges (:func:`refine_by_edges`; with the lens's
    distortion removed first when ``camera`` is given, since the lens bends straight edges)."""
    grey = to_grey(image)
    corners, found, _ = _detector(dictionary).detectMarkers(grey)
    if found is None:
        return []
    wanted = None if ids is None else set(int(i) for i in ids)
    out = []
    for c, i in zip(corners, found.ravel()):
        if wanted is not None and int(i) not in wanted:
            continue
        quad = np.asarray(c, dtype=np.float64).reshape(4, 2)
        if refine:
            quad = refine_by_edges(grey, quad, cells=_cells(dictionary), camera=camera)
        out.append(Detection(int(i), quad))
    out.sort(key=lambda d: -d.side_px)
    return out


@lru_cache(maxsize=8)
def _cells(dictionary: str) -> int:
    import cv2

    return int(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)).markerSize) + 2


def _edge_points(grey: np.ndarray, a: np.ndarray, b: np.ndarray, centre: np.ndarray,
                 reach: float, samples: int = 12) -> np.ndarray:
    """Sub-pixel points of the marker's outer edge between corners a and b: along each normal,
    where the intensity crosses halfway between the black border and the white paper."""
    import cv2

    d = b - a
    length = float(np.linalg.norm(d))
    if length < 8:
        return np.zeros((0, 2))
    d /= length
    n = np.array([d[1], -d[0]])
    if n @ ((a + b) / 2 - centre) < 0:
        n = -n  # outward
    ts = np.linspace(0.2, 0.8, samples) * length
    steps = np.linspace(-reach, reach, int(np.ceil(reach * 8)) + 1)
    base = a[None, :] + ts[:, None] * d[None, :]
    pts = base[:, None, :] + steps[None, :, None] * n[None, None, :]
    prof = cv2.remap(grey.astype(np.float32), pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    k = len(steps) // 4
    dark = np.median(prof[:, :k], axis=1)
    light = np.median(prof[:, -k:], axis=1)
    out = []
    for row, lo, hi, p0 in zip(prof, dark, light, base):
        if hi - lo < 20:
            continue
        half = (lo + hi) / 2
        above = np.nonzero(row >= half)[0]
        if len(above) == 0 or above[0] == 0:
            continue
        j = above[0]
        frac = (half - row[j - 1]) / max(row[j] - row[j - 1], 1e-6)
        out.append(p0 + (steps[j - 1] + frac * (steps[j] - steps[j - 1])) * n)
    return np.array(out).reshape(-1, 2)


def _undistorter(camera: "CameraModel | None"):
    """Functions taking pixels to distortion-free pixels and back, or None without distortion."""
    import cv2

    if camera is None or not np.any(np.asarray(camera.dist)):
        return None
    K, D = camera.K, camera.D

    def undistort(px: np.ndarray) -> np.ndarray:
        return cv2.undistortPoints(px.reshape(-1, 1, 2), K, D, P=K).reshape(-1, 2)

    def distort(px: np.ndarray) -> np.ndarray:
        norm = (px - K[:2, 2]) / np.array([K[0, 0], K[1, 1]])
        pts = np.hstack([norm, np.ones((len(norm), 1))]).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(pts, np.zeros(3), np.zeros(3), K, D)
        return out.reshape(-1, 2)

    return undistort, distort


def refine_by_edges(grey: np.ndarray, quad: np.ndarray, cells: int = 6,
                    camera: "CameraModel | None" = None) -> np.ndarray:
    """Corners from the marker's four outer edges: each edge is located at the half-way level
    between black border and white paper (unbiased under a symmetric blur, where corner-based
    refinement pulls an L-shaped corner inwards by a fraction of a pixel: enough to make a 40 mm
    marker look 1 % small), a line is fitted to it, and adjacent lines are intersected. Falls
    back to the detector's corners for a marker too small or too blurred to measure."""
    centre = quad.mean(axis=0)
    side = float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]))
    reach = 0.7 * side / cells
    if reach < 1.5:
        return quad
    lens = _undistorter(camera)
    lines = []
    for i in range(4):
        pts = _edge_points(grey, quad[i], quad[(i + 1) % 4], centre, reach)
        if len(pts) < 5:
            return quad
        if lens is not None:
            pts = lens[0](pts)
        mean = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - mean)
        normal = vt[1]
        resid = (pts - mean) @ normal
        if float(np.sqrt(np.mean(resid ** 2))) > 0.5:
            return quad  # not a straight clean edge (occluded, out of focus)
        lines.append((normal, float(normal @ mean)))
    out = np.empty((4, 2))
    for i in range(4):
        (n1, c1), (n2, c2) = lines[(i - 1) % 4], lines[i]
        a = np.array([n1, n2])
        if abs(np.linalg.det(a)) < 1e-6:
            return quad
        out[i] = np.linalg.solve(a, np.array([c1, c2]))
    if lens is not None:
        out = lens[1](out)
    if np.max(np.linalg.norm(out - quad, axis=1)) > max(2.0, 0.1 * side):
        return quad  # refinement wandered: keep the detector's corners
    return out


def unique_by_id(detections: Iterable[Detection]) -> dict[int, Detection]:
    """One detection per id: when an id is seen twice (a spare marker left in view), the larger
    one is kept and the other ignored with a warning."""
    out: dict[int, Detection] = {}
    for det in detections:
        if det.id in out:
            log.warning("marker %d is seen twice; using the larger one", det.id)
            if det.side_px <= out[det.id].side_px:
                continue
        out[det.id] = det
    return out


def quiet_zone_pixels(image: np.ndarray, detections: Iterable[Detection],
                      inner: float = 1.12, outer: float = 1.3) -> np.ndarray:
    """BGR pixels (N×3) of the white paper just around each marker (between ``inner`` and
    ``outer`` times its size, measured from its centre): the neutral reference the colour model
    divides by, measured in the same frame as the pieces."""
    import cv2

    img = np.asarray(image)
    if img.ndim != 3 or img.shape[2] != 3:
        raise BadInput("a white reference needs a colour (BGR) image")
    rings = []
    for det in detections:
        c = det.centre
        rings.append(((c + (det.corners - c) * outer).astype(np.int32),
                      (c + (det.corners - c) * inner).astype(np.int32)))
    if not rings:
        return np.zeros((0, 3), img.dtype)
    # the rings are drawn on the part of the frame round them, not on a frame-size mask (whose
    # drawing and scan cost a millisecond a frame): the same pixels, in the same order
    h, w = img.shape[:2]
    pts = np.concatenate([r[0] for r in rings])
    x0, y0 = (int(v) for v in np.clip(pts.min(axis=0), 0, [w, h]))
    x1, y1 = (int(v) + 1 for v in np.clip(pts.max(axis=0), -1, [w - 1, h - 1]))
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 3), img.dtype)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    shift = np.array([x0, y0], np.int32)
    for ring_out, ring_in in rings:
        cv2.fillConvexPoly(mask, ring_out - shift, 255)
        cv2.fillConvexPoly(mask, ring_in - shift, 0)
    return img[y0:y1, x0:x1][mask > 0].reshape(-1, 3)


def marker_white(image: np.ndarray, detections: Iterable[Detection]) -> tuple[float, float, float] | None:
    """The white reference read off the paper around the markers, or None when no marker gives
    enough of it (see :func:`companion.vision.colours.estimate_white`)."""
    from companion.vision.colours import estimate_white

    px = quiet_zone_pixels(image, list(detections))
    if len(px) < 50:
        return None
    try:
        return estimate_white(px, top_fraction=0.5)
    except BadInput:
        return None
