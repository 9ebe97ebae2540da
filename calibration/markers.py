"""Finding ArUco markers in a camera image.

One detector configuration for the whole program (sub-pixel corner refinement, because every
millimetre of table accuracy starts as a fraction of a pixel here), returning plain arrays so
the callers never touch OpenCV's ArUco API.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import numpy as np

from calibration.boards import ARUCO_DICT
from companion.errors import BadInput

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
                   ids: Iterable[int] | None = None) -> list[Detection]:
    """Every marker of ``dictionary`` in the image (only ``ids`` when given), largest first."""
    grey = to_grey(image)
    corners, found, _ = _detector(dictionary).detectMarkers(grey)
    if found is None:
        return []
    wanted = None if ids is None else set(int(i) for i in ids)
    out = [Detection(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2))
           for c, i in zip(corners, found.ravel()) if wanted is None or int(i) in wanted]
    out.sort(key=lambda d: -d.side_px)
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
