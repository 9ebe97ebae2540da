"""Where the table is, frame after frame: the camera's pose from the table markers 0–3.

La Ville des Nains has no printed board: the table's own markers are the only fixed points, and
every zone is laid out from them (:mod:`.zones`). Finding the markers is the reader's largest
fixed cost, so it is done on a half-size image (a 40 mm marker stays 15 to 30 pixels wide there)
and each marker's corners are refined on the full image along its edges
(:func:`calibration.markers.refine_by_edges`). With a lens calibration and measured marker places
the pose is a PnP fit of every corner seen; otherwise :func:`calibration.pose.locate_table`
estimates what it needs (the focal length, the places of unmeasured markers) as well.

The camera and the table rarely move during a game: :class:`TableLocator` keeps the last pose
and, while the markers it saw last still show where they were (a cheap check of a few pixels
across their borders), reuses it instead of searching the whole image again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.boards import TABLE_MARKER_IDS, TableLayout
from calibration.markers import Detection, refine_by_edges, to_grey
from calibration.pose import NO_MARKER_HELP, locate_table
from companion.vision.camera import CameraModel, TablePose, View

#: a pose fitted worse than this (px RMS) is not trusted
MAX_RMS_PX = 2.5
#: the border contrast (grey levels) a reused marker must still show
STILL_CONTRAST = 40.0


@dataclass(frozen=True)
class TableFix:
    """The table found in one image: ``view`` (None when not found, ``message`` says why), the
    markers that gave it and their corners, the fit's error, whether it was reused."""

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
    calibration, or None to estimate it from the markers; ``layout``: where the markers lie."""

    camera: CameraModel | None = None
    layout: TableLayout = field(default_factory=TableLayout.rectangle)
    _last: TableFix | None = field(default=None, init=False, repr=False)
    _detector: object = field(default_factory=_detector, init=False, repr=False)

    def locate(self, image: np.ndarray, *, reuse: bool = True) -> TableFix:
        grey = to_grey(image)
        size = (grey.shape[1], grey.shape[0])
        last = self._last
        if reuse and last is not None and last.view is not None \
                and tuple(last.view.camera.size) == size and self._still_there(grey, last):
            return TableFix(last.view, last.markers, last.detections, last.rms_px, last.message, True)
        camera = self.camera
        if camera is not None and tuple(camera.size) != size:
            same = abs(camera.size[0] / camera.size[1] - size[0] / size[1]) < 0.01
            camera = camera.scaled(size) if same else None
        found = self._find(grey, camera)
        if not found:
            self._last = None
            return TableFix(None, message=f"no table marker seen: {NO_MARKER_HELP}")
        fix = self._fit(found, camera, size)
        self._last = fix if fix.ok else None
        return fix

    def _fit(self, found: dict[int, Detection], camera: CameraModel | None, size: tuple[int, int]) -> TableFix:
        ids = tuple(sorted(found))
        dets = tuple(found[i] for i in ids)
        if camera is not None and self.layout.measured:
            obj = np.concatenate([self.layout.marker(i).corners() for i in ids])
            img = np.concatenate([found[i].corners for i in ids])
            ok, rvec, tvec = cv2.solvePnP(obj.reshape(-1, 1, 3), img.reshape(-1, 1, 2), camera.K, camera.D,
                                          flags=cv2.SOLVEPNP_SQPNP)
            if not ok:
                return TableFix(None, ids, dets, None, "the table markers fit no camera pose")
            rvec, tvec = cv2.solvePnPRefineLM(obj.reshape(-1, 1, 3), img.reshape(-1, 1, 2), camera.K,
                                              camera.D, rvec, tvec)
            proj, _ = cv2.projectPoints(obj.reshape(-1, 1, 3), rvec, tvec, camera.K, camera.D)
            rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
            pose = TablePose(tuple(float(v) for v in rvec.ravel()), tuple(float(v) for v in tvec.ravel()))  # type: ignore[arg-type]
            if pose.camera_position[2] <= 0:
                return TableFix(None, ids, dets, rms, "the markers fit no camera above the table")
            if rms > MAX_RMS_PX:
                return TableFix(None, ids, dets, rms, f"the table markers do not agree (error {rms:.1f} px): "
                                "one may have moved; run `companion calibrate table` again")
            return TableFix(View(camera, pose), ids, dets, rms)
        loc = locate_table(None, camera, self.layout, detections=list(dets), size=size)
        if not loc.ok or loc.view is None:
            return TableFix(None, ids, dets, loc.reprojection_px, loc.message)
        return TableFix(loc.view, ids, dets, loc.reprojection_px, loc.message)

    def _find(self, grey: np.ndarray, camera: CameraModel | None) -> dict[int, Detection]:
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        quads = _quads(self._detector, half, 2.0)
        if len(quads) < 2:  # markers too small for the half-size image: the full one
            for i, q in _quads(self._detector, grey, 1.0).items():
                quads.setdefault(i, q)
        out = {}
        for i, quad in quads.items():
            out[i] = Detection(i, _refine(grey, quad, camera))
        return out

    def _still_there(self, grey: np.ndarray, last: TableFix) -> bool:
        """Whether the markers of the last pose still show where they were: the dark border just
        inside each edge and the white paper just outside still differ."""
        if not last.detections:
            return False
        worst = np.inf
        for det in last.detections:
            c = det.corners
            centre = c.mean(axis=0)
            t = np.linspace(0.2, 0.8, 5)[:, None]
            inner = centre + (c - centre) * 0.92
            outer = centre + (c - centre) * 1.10
            pin = np.concatenate([inner[k] + (inner[(k + 1) % 4] - inner[k]) * t for k in range(4)])
            pout = np.concatenate([outer[k] + (outer[(k + 1) % 4] - outer[k]) * t for k in range(4)])
            worst = min(worst, float(np.median(_values(grey, pout) - _values(grey, pin))))
        return worst > STILL_CONTRAST


def _quads(detector, grey: np.ndarray, scale: float) -> dict[int, np.ndarray]:
    corners, ids, _ = detector.detectMarkers(grey)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel()):
        if int(i) in TABLE_MARKER_IDS and int(i) not in out:
            q = np.asarray(c, np.float64).reshape(4, 2)
            out[int(i)] = q * scale + (0.5 * (scale - 1.0))
    return out


def _refine(grey: np.ndarray, quad: np.ndarray, camera: CameraModel | None) -> np.ndarray:
    """Edge refinement on a crop around the marker, the lens (when known) shifted with it."""
    pad = 12
    x0 = max(int(np.floor(quad[:, 0].min())) - pad, 0)
    y0 = max(int(np.floor(quad[:, 1].min())) - pad, 0)
    x1 = min(int(np.ceil(quad[:, 0].max())) + pad, grey.shape[1])
    y1 = min(int(np.ceil(quad[:, 1].max())) + pad, grey.shape[0])
    cam = None
    if camera is not None:
        cam = CameraModel(camera.fx, camera.fy, camera.cx - x0, camera.cy - y0, (x1 - x0, y1 - y0),
                          camera.dist, camera.rms, camera.source)
    return refine_by_edges(grey[y0:y1, x0:x1], quad - [x0, y0], camera=cam) + [x0, y0]


def _values(grey: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xi = np.clip(np.round(pts[:, 0]).astype(int), 0, grey.shape[1] - 1)
    yi = np.clip(np.round(pts[:, 1]).astype(int), 0, grey.shape[0] - 1)
    return grey[yi, xi].astype(np.float32)
