"""Where the table is: the camera's pose from the table markers 0–3.

Cards lie flat on the table, so the table's own frame is the one the reader works in: its pose
comes from :func:`calibration.pose.locate_table` on the markers in view (one is enough, more
are better), with the lens calibration when there is one.

Finding the markers is the reader's largest fixed cost, so it is done on a half-size image (a
40 mm marker stays 15 to 35 pixels wide there) and each marker's corners are then refined on the
full image along its edges (:func:`calibration.markers.refine_by_edges`); the full image is
searched too when the half-size one shows fewer than three markers (a far marker may be too
small there, and a pose from one or two markers is less sure). The camera rarely moves during a game:
:class:`TableLocator` keeps the last pose and, while the markers it was fitted on still show
where they were (a cheap check of a few pixels along their borders), reuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.boards import TABLE_MARKER_IDS, TableLayout
from calibration.markers import Detection, refine_by_edges, to_grey, unique_by_id
from calibration.pose import locate_table
from companion.vision.camera import CameraModel, View

#: a pose fitted worse than this (px) is not trusted
MAX_FIT_RMS_PX = 2.5
#: fewer table markers than this found on the half-size image: search the full image too
FULL_SEARCH_BELOW = 3
#: a marker still shows where it was when its border's dark-to-white step is at least this
STILL_STEP = 35.0


@dataclass(frozen=True)
class Located:
    """The table found in one image: ``view`` (None when not found, ``message`` says why), the
    markers that gave it, their detections, and whether the last pose was reused."""

    view: View | None
    markers: tuple[int, ...] = ()
    detections: tuple[Detection, ...] = ()
    rms_px: float | None = None
    message: str = ""
    reused: bool = False

    @property
    def ok(self) -> bool:
        return self.view is not None


def _detector():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


@dataclass
class TableLocator:
    """Finds the table in successive frames (see the module docstring). ``camera``: the lens
    calibration, or None to estimate the focal length from the markers; ``layout``: where the
    markers lie (``companion calibrate table`` measures it)."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    _last: Located | None = field(default=None, init=False, repr=False)
    _detector: object = field(default_factory=_detector, init=False, repr=False)

    def locate(self, image: np.ndarray, *, reuse: bool = True) -> Located:
        grey = to_grey(image)
        size = (grey.shape[1], grey.shape[0])
        last = self._last
        if reuse and last is not None and last.view is not None \
                and tuple(last.view.camera.size) == size and self._still_there(grey, last):
            return Located(last.view, last.markers, last.detections, last.rms_px, last.message, True)
        found = self._find(grey)
        table = {i: d for i, d in found.items() if i in TABLE_MARKER_IDS}
        loc = locate_table(None, self.camera, self.layout, detections=list(table.values()), size=size)
        if not loc.ok or loc.view is None:
            self._last = None
            return Located(None, tuple(sorted(table)), tuple(table.values()), loc.reprojection_px,
                           loc.message)
        if loc.reprojection_px is not None and loc.reprojection_px > MAX_FIT_RMS_PX:
            self._last = None
            return Located(None, loc.markers, tuple(table.values()), loc.reprojection_px,
                           f"the table markers do not agree (error {loc.reprojection_px:.1f} px): "
                           "lay them flat and run `companion calibrate table` again")
        out = Located(loc.view, loc.markers, tuple(table[i] for i in loc.markers if i in table),
                      loc.reprojection_px, loc.message)
        self._last = out
        return out

    def forget(self) -> None:
        self._last = None

    def _find(self, grey: np.ndarray) -> dict[int, Detection]:
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(half)  # type: ignore[attr-defined]
        dets = []
        if ids is not None:
            for c, i in zip(corners, ids.ravel()):
                quad = np.asarray(c, np.float64).reshape(4, 2) * 2.0 + 0.5
                dets.append(Detection(int(i), self._full_res(grey, int(i), quad)))
        found = unique_by_id(dets)
        if sum(i in TABLE_MARKER_IDS for i in found) < FULL_SEARCH_BELOW:
            corners, ids, _ = self._detector.detectMarkers(grey)  # type: ignore[attr-defined]
            if ids is not None:
                for c, i in zip(corners, ids.ravel()):
                    if int(i) not in found:
                        quad = np.asarray(c, np.float64).reshape(4, 2)
                        found[int(i)] = Detection(int(i), refine_by_edges(grey, quad, camera=self.camera))
        return found

    def _full_res(self, grey: np.ndarray, marker_id: int, quad: np.ndarray) -> np.ndarray:
        """A marker found on the half-size image, found again on a full-size crop around it
        (the half-size corners are too rough for the edge refinement), then refined."""
        side = float(np.max(np.ptp(quad, axis=0)))
        pad = int(side * 0.6) + 4
        x0 = max(int(quad[:, 0].min()) - pad, 0)
        y0 = max(int(quad[:, 1].min()) - pad, 0)
        x1 = min(int(quad[:, 0].max()) + pad, grey.shape[1])
        y1 = min(int(quad[:, 1].max()) + pad, grey.shape[0])
        corners, ids, _ = self._detector.detectMarkers(np.ascontiguousarray(grey[y0:y1, x0:x1]))  # type: ignore[attr-defined]
        if ids is not None:
            for c, i in zip(corners, ids.ravel()):
                if int(i) == marker_id:
                    quad = np.asarray(c, np.float64).reshape(4, 2) + np.array([x0, y0])
                    break
        return refine_by_edges(grey, quad, camera=self.camera)

    def _still_there(self, grey: np.ndarray, last: Located) -> bool:
        """The markers of the last pose still show where they were: the dark border just inside
        each edge and the white paper just outside still differ."""
        if not last.detections:
            return False
        steps = []
        for det in last.detections:
            c = det.corners
            centre = c.mean(axis=0)
            inner = centre + (c - centre) * 0.92
            outer = centre + (c - centre) * 1.10
            t = np.linspace(0.2, 0.8, 5)[:, None]
            pin = np.concatenate([inner[k] + (inner[(k + 1) % 4] - inner[k]) * t for k in range(4)])
            pout = np.concatenate([outer[k] + (outer[(k + 1) % 4] - outer[k]) * t for k in range(4)])
            steps.append(float(np.median(_values(grey, pout) - _values(grey, pin))))
        return min(steps) > STILL_STEP


def _values(grey: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xi = np.clip(np.round(pts[:, 0]).astype(int), 0, grey.shape[1] - 1)
    yi = np.clip(np.round(pts[:, 1]).astype(int), 0, grey.shape[0] - 1)
    return grey[yi, xi].astype(np.float32)
