"""Where the board is: the camera seen from the board's frame, from its markers 4–7.

The board's own markers define the frame the observation speaks in (cells counted from
marker 4). Heights are read through perspective, so the camera's pose must be right to a
fraction of a pixel over the whole board, and the board's markers alone do not always give
that: a tower on a corner square, seen from a tilted camera, covers the marker beside it or
throws its shadow across it, and two markers on one side of the board leave the board's tilt
about that side poorly fixed. The table markers 0–3 lie far apart and nothing stands on them.
So, as ``docs/calibration.md`` describes:

* with table markers in view, :func:`calibration.pose.locate_table` gives the camera's pose on
  the table and :func:`calibration.pose.locate_board` the board's place on it (one board marker
  is enough for that), then one least-squares fit refines the pose and the board's place
  together on every marker corner seen;
* without them, the pose is fitted to the board's markers alone (``locate_table`` with the
  board's layout, exact because printed).

With a lens calibration the pose is all that is fitted; without one the focal length is
estimated from the markers too (good with a tilted camera; straight down, heights are then less
sure, as ``docs/calibration.md`` says).

Finding the markers is the reader's largest fixed cost, so it is done on a half-size image
(a 40 mm marker stays 15 to 35 pixels wide there) and each marker's corners are then refined on
the full image along its four edges (:func:`calibration.markers.refine_by_edges`). A tower on a
corner square may cover part of the marker beside it or throw its shadow across it; the other
markers still give the pose, and one is enough.

The camera and the board rarely move during a game: :class:`BoardLocator` keeps the last pose
and, when the markers it saw last are still where they were (a cheap check of a few pixels
along their borders), reuses it instead of searching the whole image again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

import math

from calibration.boards import BOARD_MARKER_IDS, TABLE_MARKER_IDS, MarkerPlacement, TableLayout
from calibration.markers import Detection, refine_by_edges, to_grey, unique_by_id
from calibration.pose import CORNER_NOISE_PX, locate_board, locate_table
from calibration.solve import least_squares
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BOARD

#: the board's markers as a layout (board millimetres), exact because printed
BOARD_LAYOUT = TableLayout(BOARD.markers, measured=True)
#: worst reprojection error (px) of a reused pose's markers before the search runs again
REUSE_RMS_PX = 0.8
#: a board pose fitted worse than this (px) is not trusted
MAX_FIT_RMS_PX = 2.5


@dataclass(frozen=True)
class Located:
    """The board found in one image: ``geometry`` (None when not found, ``message`` says why),
    the markers that gave it and their corners, and the fit's error."""

    geometry: BoardGeometry | None
    markers: tuple[int, ...] = ()
    detections: tuple[Detection, ...] = ()
    rms_px: float | None = None
    message: str = ""
    reused: bool = False

    @property
    def ok(self) -> bool:
        return self.geometry is not None


def _detector():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


@dataclass
class BoardLocator:
    """Finds the board in successive frames (see the module docstring). ``camera``: the lens
    calibration, or None to estimate the focal length from the markers."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    _last: Located | None = field(default=None, init=False, repr=False)
    _detector: object = field(default_factory=_detector, init=False, repr=False)

    def locate(self, image: np.ndarray, *, reuse: bool = True) -> Located:
        grey = to_grey(image)
        size = (grey.shape[1], grey.shape[0])
        if reuse and self._last is not None and self._still_there(grey, self._last):
            return Located(self._last.geometry, self._last.markers, self._last.detections,
                           self._last.rms_px, self._last.message, reused=True)
        found = self._find(grey)
        board = {i: d for i, d in found.items() if i in BOARD_MARKER_IDS}
        if not board:
            self._last = None
            seen = sorted(found)
            what = f" (saw markers {', '.join(map(str, seen))})" if seen else ""
            return Located(None, message=f"no board marker (ids 4-7) seen{what}: show the camera the "
                           "Terra Turrium board printed by `companion calibrate targets`, its "
                           "corner markers uncovered")
        camera = self.camera
        if camera is not None and tuple(camera.size) != size:
            camera = camera.scaled(size) if abs(camera.size[0] / camera.size[1] - size[0] / size[1]) < 0.01 else None
        table = {i: d for i, d in found.items() if i in TABLE_MARKER_IDS}
        out = self._with_table(table, board, camera, size) if table else None
        if out is None:
            loc = locate_table(None, camera, BOARD_LAYOUT, detections=list(board.values()), size=size)
            if not loc.ok or loc.view is None:
                self._last = None
                return Located(None, tuple(sorted(board)), tuple(board.values()), loc.reprojection_px,
                               f"the board markers could not be fitted: {loc.message}")
            out = Located(BoardGeometry(loc.view), tuple(sorted(board)), tuple(board.values()),
                          loc.reprojection_px, loc.message)
        if out.rms_px is not None and out.rms_px > MAX_FIT_RMS_PX:
            self._last = None
            return Located(None, out.markers, out.detections, out.rms_px,
                           f"the markers do not agree (error {out.rms_px:.1f} px): is the board flat?")
        self._last = out
        return out

    def _with_table(self, table: dict[int, Detection], board: dict[int, Detection],
                    camera: CameraModel | None, size: tuple[int, int]) -> Located | None:
        """The pose from the table markers and the board's place on the table, refined together
        (None when the table markers do not give a pose)."""
        layout = self.layout or TableLayout.rectangle()
        tloc = locate_table(None, camera, layout, detections=list(table.values()), size=size)
        if not tloc.ok or tloc.view is None or tloc.fit is None:
            return None
        bloc = locate_board(None, tloc.view, BOARD, detections=list(board.values()))
        if not bloc.ok or bloc.rotation is None or bloc.translation is None:
            return None
        cam = tloc.view.camera
        places = {m.id: m for m in tloc.fit.placements}
        t_obj = np.concatenate([places[i].corners() for i in sorted(table)])
        t_img = np.concatenate([table[i].corners for i in sorted(table)])
        b_obj = np.concatenate([BOARD.marker(i).corners()[:, :2] for i in sorted(board)])
        b_img = np.concatenate([board[i].corners for i in sorted(board)])
        K, D = cam.K, cam.D
        yaw0 = math.atan2(bloc.rotation[1, 0], bloc.rotation[0, 0])
        x0 = np.concatenate([tloc.view.pose.rvec, tloc.view.pose.tvec, [yaw0], bloc.translation])

        def to_table(p: np.ndarray) -> np.ndarray:
            c, s_ = math.cos(p[6]), math.sin(p[6])
            xy = b_obj @ np.array([[c, -s_], [s_, c]]).T + p[7:9]
            return np.column_stack([xy, np.zeros(len(xy))])

        def residuals(p: np.ndarray) -> np.ndarray:
            pts = np.concatenate([t_obj, to_table(p)])
            proj, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), p[0:3], p[3:6], K, D)
            return ((proj.reshape(-1, 2) - np.concatenate([t_img, b_img])) / CORNER_NOISE_PX).ravel()

        sol = least_squares(residuals, x0)
        p = sol.x
        n = len(t_img) + len(b_img)
        rms = float(np.sqrt(sol.cost / n) * CORNER_NOISE_PX)
        pose = TablePose(tuple(float(v) for v in p[0:3]), tuple(float(v) for v in p[3:6]))  # type: ignore[arg-type]
        c, s_ = math.cos(p[6]), math.sin(p[6])
        Rb = np.array([[c, -s_, 0.0], [s_, c, 0.0], [0.0, 0.0, 1.0]])
        tb = np.array([p[7], p[8], 0.0])
        board_pose = TablePose.from_Rt(pose.R @ Rb, pose.R @ tb + pose.t)
        markers = tuple(sorted(board)) + tuple(sorted(table))
        dets = tuple(board.values()) + tuple(table.values())
        return Located(BoardGeometry(View(cam, board_pose)), markers, dets, rms, tloc.message)

    def _find(self, grey: np.ndarray) -> dict[int, Detection]:
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(half)  # type: ignore[attr-defined]
        dets = []
        if ids is not None:
            for c, i in zip(corners, ids.ravel()):
                quad = np.asarray(c, np.float64).reshape(4, 2) * 2.0 + 0.5
                dets.append(Detection(int(i), refine_by_edges(grey, quad, camera=self.camera)))
        found = unique_by_id(dets)
        if len([i for i in found if i in BOARD_MARKER_IDS]) < len(BOARD_MARKER_IDS):
            # a marker too small for the half-size image, or one half covered: the full image
            corners, ids, _ = self._detector.detectMarkers(grey)  # type: ignore[attr-defined]
            if ids is not None:
                for c, i in zip(corners, ids.ravel()):
                    if int(i) not in found:
                        quad = np.asarray(c, np.float64).reshape(4, 2)
                        found[int(i)] = Detection(int(i), refine_by_edges(grey, quad, camera=self.camera))
        return found

    def _still_there(self, grey: np.ndarray, last: Located) -> bool:
        """Whether the markers of the last pose still show where they were: the dark border
        just inside each edge and the white paper just outside still differ."""
        if not last.detections:
            return False
        checks = []
        for det in last.detections:
            c = det.corners
            centre = c.mean(axis=0)
            inner = centre + (c - centre) * 0.92
            outer = centre + (c - centre) * 1.10
            pts_in = np.concatenate([inner[k] + (inner[(k + 1) % 4] - inner[k]) * np.linspace(0.2, 0.8, 5)[:, None] for k in range(4)])
            pts_out = np.concatenate([outer[k] + (outer[(k + 1) % 4] - outer[k]) * np.linspace(0.2, 0.8, 5)[:, None] for k in range(4)])
            vin = _values(grey, pts_in)
            vout = _values(grey, pts_out)
            checks.append(np.median(vout - vin))
        return bool(len(checks) and min(checks) > 40.0)


def _values(grey: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xi = np.clip(np.round(pts[:, 0]).astype(int), 0, grey.shape[1] - 1)
    yi = np.clip(np.round(pts[:, 1]).astype(int), 0, grey.shape[0] - 1)
    return grey[yi, xi].astype(np.float32)


def view_of(located: Located) -> View | None:
    return located.geometry.view if located.geometry is not None else None
