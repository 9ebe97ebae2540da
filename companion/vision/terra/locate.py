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
(a 40 mm marker stays 15 to 35 pixels wide there); each marker's corners are then moved to the
full image's corner points and refined along the marker's four edges, every marker at once
(:func:`refine_quads`, the method of :func:`calibration.markers.refine_by_edges`). A tower on a
corner square may cover part of the marker beside it or throw its shadow across it; the other
markers still give the pose, and one is enough.

The camera and the board rarely move during a game: :class:`BoardLocator` keeps the last pose
and, when the markers it saw last are still where they were (a cheap check of a few pixels
along their borders), reuses it instead of searching the whole image again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

import math

from calibration.boards import BOARD_MARKER_IDS, TABLE_MARKER_IDS, MarkerPlacement, TableLayout
from calibration.markers import Detection, refine_by_edges, to_grey, unique_by_id
from calibration.pose import CORNER_NOISE_PX, locate_board, locate_table
from calibration.solve import least_squares
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BOARD, SIZE, SQUARE_MM

#: the board's markers as a layout (board millimetres), exact because printed
BOARD_LAYOUT = TableLayout(BOARD.markers, measured=True)
#: worst reprojection error (px) of a reused pose's markers before the search runs again
REUSE_RMS_PX = 0.8
#: a fit whose corners are off by more than this (px, RMS) drops its worst marker and tries again
OUTLIER_RMS_PX = 0.9
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
    residuals: dict[int, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.geometry is not None


#: the adaptive threshold's offsets tried on the full image when the half-size one shows no
#: board marker: a tower standing at the edge of the board, or its shadow, can touch a board
#: marker's black border, and the detector's default offset then joins the two into one dark
#: region that is no square; a larger offset keeps only the marker's deep black
FALLBACK_THRESHOLDS = (7.0, 20.0, 30.0, 40.0)
#: fewer markers than this found on the half-size image (a board marker among them) sends the
#: search to the full image too: markers far from the camera, or on paper the exposure clips
#: white, can be too small or too faint for the half-size image, and of three one may be
#: dropped as disagreeing; the two left fix the board's tilt poorly (a pose a few pixels off
#: reads every tower a block too tall)
ENOUGH_MARKERS = 4


def _detector(subpixel: bool = False, threshold: float | None = None):
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    params = cv2.aruco.DetectorParameters()
    if threshold is not None:
        params.adaptiveThreshConstant = threshold
    if subpixel:  # as calibration.markers does
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.cornerRefinementWinSize = 4
        params.cornerRefinementMaxIterations = 50
        params.cornerRefinementMinAccuracy = 0.01
    return cv2.aruco.ArucoDetector(dictionary, params)


@dataclass
class BoardLocator:
    """Finds the board in successive frames (see the module docstring). ``camera``: the lens
    calibration, or None to estimate the focal length from the markers."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    _last: Located | None = field(default=None, init=False, repr=False)
    #: whether the last search for markers looked at the full image too
    _searched_full: bool = field(default=False, init=False, repr=False)
    _detector: object = field(default_factory=_detector, init=False, repr=False)
    _fine: tuple = field(default_factory=lambda: tuple(_detector(subpixel=True, threshold=t)
                                                       for t in FALLBACK_THRESHOLDS),
                         init=False, repr=False)

    def locate(self, image: np.ndarray, *, reuse: bool = True) -> Located:
        grey = to_grey(image)
        size = (grey.shape[1], grey.shape[0])
        if reuse and self._last is not None and self._still_there(grey, self._last):
            return Located(self._last.geometry, self._last.markers, self._last.detections,
                           self._last.rms_px, self._last.message, reused=True)
        camera = self.camera
        if camera is not None and tuple(camera.size) != size:
            camera = camera.scaled(size) if abs(camera.size[0] / camera.size[1] - size[0] / size[1]) < 0.01 else None
        found = self._find(grey, camera)
        board = {i: d for i, d in found.items() if i in BOARD_MARKER_IDS}
        if not board:
            self._last = None
            seen = sorted(found)
            what = f" (saw markers {', '.join(map(str, seen))})" if seen else ""
            return Located(None, message=f"no board marker (ids 4-7) seen{what}: show the camera the "
                           "Terra Turrium board printed by `companion calibrate targets`, its "
                           "corner markers uncovered")
        layout = self.layout or TableLayout.rectangle()
        out: Located | None = None
        for attempt in range(2):
            table = {i: d for i, d in found.items() if i in TABLE_MARKER_IDS}
            board = {i: d for i, d in found.items() if i in BOARD_MARKER_IDS}
            agreed = True
            for _ in range(3):  # a marker that disagrees with the others (misread) is dropped
                if camera is not None and (layout.measured or not table):
                    out = _fit_calibrated(camera, table, board, layout)
                else:
                    out = self._fit_estimated(table, board, camera, size, layout)
                if out.geometry is None or out.rms_px is None or out.rms_px <= OUTLIER_RMS_PX:
                    break
                agreed = False
                worst = _worst_marker(out)
                if worst is None or len(board) + len(table) <= 1 or (worst in board and len(board) == 1):
                    break
                board.pop(worst, None)
                table.pop(worst, None)
            # markers that disagree, all found on the half-size image: the full image may show
            # more (far markers too small at half size), which outvote a misread corner
            if agreed or attempt or self._searched_full:
                break
            more = self._find(grey, camera, full=True)
            if set(more) <= set(found):
                break
            found = {**more, **found}
        assert out is not None
        if out.geometry is None:
            self._last = None
            return out
        if out.rms_px is not None and out.rms_px > MAX_FIT_RMS_PX:
            self._last = None
            return Located(None, out.markers, out.detections, out.rms_px,
                           f"the markers do not agree (error {out.rms_px:.1f} px): is the board flat?")
        if sum(i in BOARD_MARKER_IDS for i in out.markers) <= 1 and out.geometry is not None:
            grid = on_grid(grey, out.geometry)
            if grid is not None and _keeps_markers(out, grid):
                out = replace(out, geometry=grid)
        self._last = out
        return out

    def _fit_estimated(self, table: dict[int, Detection], board: dict[int, Detection],
                       camera: CameraModel | None, size: tuple[int, int], layout: TableLayout) -> Located:
        """Without a lens calibration: :func:`calibration.pose.locate_table` estimates the focal
        length too (from the table markers when in view, which span more of the image)."""
        out = self._with_table(table, board, camera, size) if table else None
        if out is not None:
            return out
        loc = locate_table(None, camera, BOARD_LAYOUT, detections=list(board.values()), size=size)
        if not loc.ok or loc.view is None:
            return Located(None, tuple(sorted(board)), tuple(board.values()), loc.reprojection_px,
                           f"the board markers could not be fitted: {loc.message}")
        return Located(BoardGeometry(loc.view), tuple(sorted(board)), tuple(board.values()),
                       loc.reprojection_px, loc.message)

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

    def _find(self, grey: np.ndarray, camera: CameraModel | None, full: bool = False) -> dict[int, Detection]:
        """Markers 0–7: found on the half-size image (on the full one, with larger threshold
        offsets in turn, when no board marker shows there or too few markers in all:
        :data:`FALLBACK_THRESHOLDS`, :data:`ENOUGH_MARKERS`; or with ``full``, on the full one
        at least at the first offset), their corners moved to the full image's corner points,
        then refined along their edges."""
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(half)  # type: ignore[attr-defined]
        quads: dict[int, np.ndarray] = {}
        if ids is not None:
            for c, i in zip(corners, ids.ravel()):
                if int(i) in BOARD_MARKER_IDS or int(i) in TABLE_MARKER_IDS:
                    quads.setdefault(int(i), np.asarray(c, np.float64).reshape(4, 2) * 2.0 + 0.5)
        self._searched_full = False
        for k, fine in enumerate(self._fine):
            if any(i in BOARD_MARKER_IDS for i in quads) and len(quads) >= ENOUGH_MARKERS and not (full and k == 0):
                break
            self._searched_full = True
            # markers too small for the half-size image, or touched by a tower: the full one
            corners, ids, _ = fine.detectMarkers(grey)  # type: ignore[attr-defined]
            if ids is not None:
                for c, i in zip(corners, ids.ravel()):
                    if int(i) in BOARD_MARKER_IDS or int(i) in TABLE_MARKER_IDS:
                        quads.setdefault(int(i), np.asarray(c, np.float64).reshape(4, 2))
        ids_ = sorted(quads)
        start = np.stack([_subpixel(grey, quads[i]) for i in ids_]) if ids_ else np.zeros((0, 4, 2))
        refined = refine_quads(grey, start, camera)
        return {i: Detection(i, refined[k]) for k, i in enumerate(ids_)}

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


def _subpixel(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A marker's corners (found on the half-size image) moved to the full image's corner
    points, in a window a twelfth of the marker wide."""
    side = float(np.linalg.norm(quad[0] - quad[1]))
    win = max(2, int(side / 12))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    pts = quad.astype(np.float32).reshape(-1, 1, 2).copy()
    return cv2.cornerSubPix(grey, pts, (win, win), (-1, -1), crit).reshape(4, 2).astype(np.float64)


def refine_quads(grey: np.ndarray, quads: np.ndarray, camera: CameraModel | None) -> np.ndarray:
    """Corners of many markers at once from their four outer edges, the method of
    :func:`calibration.markers.refine_by_edges` (profiles across each edge, the half-way level
    between the black border and the white paper, a line through each edge, adjacent lines
    intersected, with the lens's distortion removed for the fit) done for every marker and edge
    in one pass. A marker whose edges are not clean straight lines keeps the corners given."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    M = len(quads)
    if M == 0:
        return quads
    samples, steps_n = 12, 17
    centre = quads.mean(axis=1)                                                   # M×2
    side = np.mean(np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2), axis=1)  # M
    reach = 0.7 * side / 6.0
    a = quads
    b = np.roll(quads, -1, axis=1)
    d = b - a
    length = np.linalg.norm(d, axis=2, keepdims=True)
    d = d / np.maximum(length, 1e-9)
    n = np.stack([d[..., 1], -d[..., 0]], axis=-1)
    mid = (a + b) / 2
    flip = np.sum(n * (mid - centre[:, None, :]), axis=2) < 0
    n[flip] *= -1                                                                 # outward
    ts = np.linspace(0.2, 0.8, samples)
    base = a[:, :, None, :] + (ts[None, None, :, None] * length[..., None]) * d[:, :, None, :]  # M×4×S×2
    steps = np.linspace(-1.0, 1.0, steps_n)[None, :] * reach[:, None]              # M×K
    pts = base[..., None, :] + steps[:, None, None, :, None] * n[:, :, None, None, :]  # M×4×S×K×2
    prof = cv2.remap(grey, pts[..., 0].reshape(-1, steps_n).astype(np.float32),
                     pts[..., 1].reshape(-1, steps_n).astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32).reshape(M, 4, samples, steps_n)
    k = steps_n // 4
    dark = np.median(prof[..., :k], axis=-1)
    light = np.median(prof[..., -k:], axis=-1)
    half = (dark + light) / 2
    above = prof >= half[..., None]
    j = np.argmax(above, axis=-1)
    okp = (light - dark >= 20) & above.any(axis=-1) & (j > 0)
    jj = np.clip(j, 1, steps_n - 1)
    v0 = np.take_along_axis(prof, (jj - 1)[..., None], axis=-1)[..., 0]
    v1 = np.take_along_axis(prof, jj[..., None], axis=-1)[..., 0]
    frac = (half - v0) / np.where(np.abs(v1 - v0) > 1e-6, v1 - v0, 1.0)
    st = np.take_along_axis(np.broadcast_to(steps[:, None, None, :], prof.shape), (jj - 1)[..., None], axis=-1)[..., 0]
    step = (2.0 * reach / (steps_n - 1))[:, None, None]
    off = st + np.clip(frac, 0.0, 1.0) * step
    edge = base + off[..., None] * n[:, :, None, :]                               # M×4×S×2
    lens = camera is not None and np.any(np.asarray(camera.dist))
    if lens:
        flat = cv2.undistortPoints(edge.reshape(-1, 1, 2), camera.K, camera.D, P=camera.K).reshape(edge.shape)
    else:
        flat = edge
    w = okp.astype(np.float64)
    cnt = w.sum(axis=2)                                                            # M×4
    mean = (flat * w[..., None]).sum(axis=2) / np.maximum(cnt, 1)[..., None]
    dev = (flat - mean[:, :, None, :]) * w[..., None]
    cov = np.einsum("mesi,mesj->meij", dev, dev)
    evals, evecs = np.linalg.eigh(cov)
    normal = evecs[..., :, 0]                                                      # smallest: the line's normal
    resid = np.sqrt(np.maximum(evals[..., 0], 0.0) / np.maximum(cnt, 1))
    good = np.all((cnt >= 5) & (resid <= 0.5), axis=1) & (reach >= 1.5)
    c = np.sum(normal * mean, axis=-1)                                             # M×4
    out = quads.copy()
    for i in range(4):
        n1, c1 = normal[:, (i - 1) % 4], c[:, (i - 1) % 4]
        n2, c2 = normal[:, i], c[:, i]
        det = n1[:, 0] * n2[:, 1] - n1[:, 1] * n2[:, 0]
        safe = np.where(np.abs(det) > 1e-6, det, 1.0)
        x = (c1 * n2[:, 1] - c2 * n1[:, 1]) / safe
        y = (n1[:, 0] * c2 - n2[:, 0] * c1) / safe
        good &= np.abs(det) > 1e-6
        out[:, i, 0], out[:, i, 1] = x, y
    if lens:
        norm = (out.reshape(-1, 2) - camera.K[:2, 2]) / np.array([camera.K[0, 0], camera.K[1, 1]])
        pts3 = np.hstack([norm, np.ones((len(norm), 1))]).reshape(-1, 1, 3)
        out = cv2.projectPoints(pts3, np.zeros(3), np.zeros(3), camera.K, camera.D)[0].reshape(M, 4, 2)
    wander = np.max(np.linalg.norm(out - quads, axis=2), axis=1)
    good &= wander <= np.maximum(2.0, 0.1 * side)
    return np.where(good[:, None, None], out, quads)


def _object_points(table: dict[int, Detection], board: dict[int, Detection], layout: TableLayout
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    t_ids, b_ids = sorted(table), sorted(board)
    t_obj = np.concatenate([layout.marker(i).corners() for i in t_ids]) if t_ids else np.zeros((0, 3))
    t_img = np.concatenate([table[i].corners for i in t_ids]) if t_ids else np.zeros((0, 2))
    b_obj = np.concatenate([BOARD.marker(i).corners() for i in b_ids])
    b_img = np.concatenate([board[i].corners for i in b_ids])
    return t_obj, t_img, b_obj, b_img


def _rigid(src: np.ndarray, dst: np.ndarray) -> tuple[float, np.ndarray]:
    """Angle and translation of the rigid motion taking 2-D points ``src`` onto ``dst``."""
    cs, cd = src.mean(axis=0), dst.mean(axis=0)
    a, b = src - cs, dst - cd
    angle = math.atan2(float(np.sum(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])),
                       float(np.sum(a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1])))
    c, s_ = math.cos(angle), math.sin(angle)
    return angle, cd - np.array([[c, -s_], [s_, c]]) @ cs


def _board_pose(pose: TablePose, p: np.ndarray) -> TablePose:
    """The camera seen from the board, the board lying at angle p[0], offset p[1:3] on the table."""
    c, s_ = math.cos(p[0]), math.sin(p[0])
    Rb = np.array([[c, -s_, 0.0], [s_, c, 0.0], [0.0, 0.0, 1.0]])
    tb = np.array([p[1], p[2], 0.0])
    return TablePose.from_Rt(pose.R @ Rb, pose.R @ tb + pose.t)


def _fit_calibrated(camera: CameraModel, table: dict[int, Detection], board: dict[int, Detection],
                    layout: TableLayout) -> Located:
    """With the lens known: the pose by PnP on the table markers (their measured places) and
    the board's place on the table from its markers, refined together; or, without table
    markers, PnP on the board's markers alone."""
    K, D = camera.K, camera.D
    t_obj, t_img, b_obj, b_img = _object_points(table, board, layout)
    markers = tuple(sorted(board)) + tuple(sorted(table))
    dets = tuple(board[i] for i in sorted(board)) + tuple(table[i] for i in sorted(table))
    if not len(t_obj):
        ok, rvec, tvec = cv2.solvePnP(b_obj.reshape(-1, 1, 3), b_img.reshape(-1, 1, 2), K, D,
                                      flags=cv2.SOLVEPNP_SQPNP)
        if not ok:
            return Located(None, markers, dets, None, "the board markers fit no camera pose")
        rvec, tvec = cv2.solvePnPRefineLM(b_obj.reshape(-1, 1, 3), b_img.reshape(-1, 1, 2), K, D, rvec, tvec)
        pose = TablePose(tuple(float(v) for v in rvec.ravel()), tuple(float(v) for v in tvec.ravel()))  # type: ignore[arg-type]
        proj, _ = cv2.projectPoints(b_obj.reshape(-1, 1, 3), rvec, tvec, K, D)
        err = np.linalg.norm(proj.reshape(-1, 2) - b_img, axis=1)
        rms = float(np.sqrt(np.mean(err ** 2)))
        return Located(BoardGeometry(View(camera, pose)), markers, dets, rms, "",
                       residuals=_per_marker(sorted(board), err))
    ok, rvec, tvec = cv2.solvePnP(t_obj.reshape(-1, 1, 3), t_img.reshape(-1, 1, 2), K, D, flags=cv2.SOLVEPNP_SQPNP)
    if not ok:
        return Located(None, markers, dets, None, "the table markers fit no camera pose")
    rvec, tvec = cv2.solvePnPRefineLM(t_obj.reshape(-1, 1, 3), t_img.reshape(-1, 1, 2), K, D, rvec, tvec)
    view = View(camera, TablePose(tuple(float(v) for v in rvec.ravel()), tuple(float(v) for v in tvec.ravel())))  # type: ignore[arg-type]
    on_table = view.unproject_to_plane(b_img, 0.0)[:, :2]
    angle, shift = _rigid(b_obj[:, :2], on_table)
    x0 = np.concatenate([rvec.ravel(), tvec.ravel(), [angle], shift])

    def residuals(p: np.ndarray) -> np.ndarray:
        c, s_ = math.cos(p[6]), math.sin(p[6])
        xy = b_obj[:, :2] @ np.array([[c, -s_], [s_, c]]).T + p[7:9]
        pts = np.concatenate([t_obj, np.column_stack([xy, np.zeros(len(xy))])])
        proj, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), p[0:3], p[3:6], K, D)
        return ((proj.reshape(-1, 2) - np.concatenate([t_img, b_img])) / CORNER_NOISE_PX).ravel()

    sol = least_squares(residuals, x0, max_iter=20)
    p = sol.x
    err = np.linalg.norm(sol.residuals.reshape(-1, 2), axis=1) * CORNER_NOISE_PX
    rms = float(np.sqrt(np.mean(err ** 2)))
    pose = TablePose(tuple(float(v) for v in p[0:3]), tuple(float(v) for v in p[3:6]))  # type: ignore[arg-type]
    per = _per_marker(sorted(table) + sorted(board), err)
    return Located(BoardGeometry(View(camera, _board_pose(pose, p[6:9]))), markers, dets, rms, "",
                   residuals=per)


def _worst_marker(out: Located) -> int | None:
    """The marker whose corners the fitted pose explains worst."""
    if not out.residuals:
        return None
    return max(out.residuals, key=lambda i: out.residuals[i])


def _per_marker(ids: list[int], err: np.ndarray) -> dict[int, float]:
    """RMS error (px) of each marker's four corners, from per-corner errors in id order."""
    return {i: float(np.sqrt(np.mean(err[4 * k:4 * k + 4] ** 2))) for k, i in enumerate(ids)}


def _values(grey: np.ndarray, pts: np.ndarray) -> np.ndarray:
    xi = np.clip(np.round(pts[:, 0]).astype(int), 0, grey.shape[1] - 1)
    yi = np.clip(np.round(pts[:, 1]).astype(int), 0, grey.shape[0] - 1)
    return grey[yi, xi].astype(np.float32)


def view_of(located: Located) -> View | None:
    return located.geometry.view if located.geometry is not None else None


# ------------------------------------------------------------------ the board's place from its grid
#: the printed grid's lines are sampled every this many mm, and this far (mm) on each side
GRID_STEP_MM = 2.0
GRID_SIDE_MM = 1.5
#: how far the grid may move the board from where its one marker put it (mm, degrees)
GRID_SHIFT_MM = 8.0
GRID_TURN_DEG = 2.0
#: the blurs (px) the grid is fitted on in turn, coarse to fine (a wide basin first)
GRID_BLURS = (4.0, 2.0, 1.0)
#: the grid's place is taken when its lines stand out by at least this (grey levels, mean over
#: the lines' points, towers included) and by this factor more than where the marker put them
GRID_CONTRAST = 2.0
GRID_GAIN = 1.2
#: ... and when it keeps the marker's middle within this (px) of where the marker put it: a
#: marker's middle is measured well though a corner of it is off (the grid turns the board
#: about it by a degree: 0.1–0.2 px there); a place that carries the marker off has lined
#: the grid up with something else (corpus seed 21 frame 6, among one-block towers: 3.7 px)
GRID_MARKER_PX = 1.0


def _grid_lines() -> tuple[np.ndarray, np.ndarray]:
    """Points along the printed grid's 2 × 11 lines (board mm) and each line's normal."""
    s, w = SQUARE_MM, SIZE * SQUARE_MM
    t = np.arange(1.0, w - 1.0 + 1e-9, GRID_STEP_MM)
    pts, nrm = [], []
    for k in range(SIZE + 1):
        pts += [np.column_stack([np.full(len(t), k * s), t]), np.column_stack([t, np.full(len(t), k * s)])]
        nrm += [np.tile([1.0, 0.0], (len(t), 1)), np.tile([0.0, 1.0], (len(t), 1))]
    return np.concatenate(pts), np.concatenate(nrm)


_GRID = _grid_lines()


def _keeps_markers(out: Located, grid: BoardGeometry) -> bool:
    """Whether the board's place from its grid keeps each board marker's middle within
    :data:`GRID_MARKER_PX` of where the markers' fit (``out``) put it."""
    assert out.geometry is not None
    ids = [i for i in out.markers if i in BOARD_MARKER_IDS]
    if not ids:
        return True
    mid = np.array([BOARD.marker(i).corners().mean(axis=0) for i in ids])
    moved = np.linalg.norm(grid.project(mid) - out.geometry.project(mid), axis=1)
    return bool(moved.max() <= GRID_MARKER_PX)


def on_grid(grey: np.ndarray, geo: BoardGeometry) -> BoardGeometry | None:
    """The board's place on the table refined on its printed grid, for a pose that rests on one
    board marker: a corner of it a few pixels off (a tower's shadow or edge against it) turns the
    whole board by a degree, 10 px at the far corners (corpus seed 10 frame 17: 54 squares
    misread). The grid's thin ink lines are darker than the paper a millimetre and a half on
    each side; the board is moved in its plane (shift and turn about its centre, the camera
    kept) to where they are darkest against their sides, on the frame blurred widely first then
    finely, the image motion of each point linear in the move. None when the lines do not stand
    out clearly more than where the marker put them (:data:`GRID_CONTRAST`, :data:`GRID_GAIN`)."""
    pts, nrm = _GRID
    n = len(pts)
    centre = np.full(2, SIZE * SQUARE_MM / 2)
    allp = np.concatenate([pts, pts + GRID_SIDE_MM * nrm, pts - GRID_SIDE_MM * nrm])
    z = np.zeros((len(allp), 1))
    px0 = geo.project(np.hstack([allp, z]))
    if not np.isfinite(px0).all():
        return None
    ax = (geo.project(np.hstack([allp + [0.5, 0.0], z])) - px0) / 0.5   # px per board mm
    ay = (geo.project(np.hstack([allp + [0.0, 0.5], z])) - px0) / 0.5
    rel = allp - centre
    turn = np.column_stack([-rel[:, 1], rel[:, 0]])  # board mm per radian
    h, w = grey.shape[:2]
    lo = np.clip(np.floor(px0.min(axis=0)) - 30, 0, [w, h]).astype(int)
    hi = np.clip(np.ceil(px0.max(axis=0)) + 30, 0, [w, h]).astype(int)
    if hi[0] - lo[0] < 20 or hi[1] - lo[1] < 20:
        return None
    crop = grey[lo[1]:hi[1], lo[0]:hi[0]].astype(np.float32)

    def contrast(img: np.ndarray, p: np.ndarray) -> float:
        move = p[:2] + np.radians(p[2]) * turn
        q = (px0 + ax * move[:, [0]] + ay * move[:, [1]] - lo).astype(np.float32)
        v = cv2.remap(img, q[:, :1], q[:, 1:], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).ravel()
        return float(np.clip(0.5 * (v[n:2 * n] + v[2 * n:]) - v[:n], -5.0, 30.0).mean())

    p = np.zeros(3)
    best = before = 0.0
    for blur in GRID_BLURS:
        img = cv2.GaussianBlur(crop, (0, 0), blur)
        step = np.array([0.5, 0.5, 0.1]) * blur
        best = contrast(img, p)
        if blur == GRID_BLURS[-1]:
            before = contrast(img, np.zeros(3))
        while step[0] > 0.06 * blur:  # a pattern search: each way in turn, halving the steps
            moved = False
            for k in range(3):
                for sign in (1.0, -1.0):
                    q = p.copy()
                    q[k] += sign * step[k]
                    if max(abs(q[0]), abs(q[1])) > GRID_SHIFT_MM or abs(q[2]) > GRID_TURN_DEG:
                        continue
                    c = contrast(img, q)
                    if c > best:
                        best, p, moved = c, q, True
            if not moved:
                step = step / 2
    if best < GRID_CONTRAST or best < GRID_GAIN * before:
        return None
    th = math.radians(p[2])
    Rz = np.array([[math.cos(th), -math.sin(th), 0.0], [math.sin(th), math.cos(th), 0.0], [0.0, 0.0, 1.0]])
    c3 = np.array([centre[0], centre[1], 0.0])
    shift = c3 - Rz @ c3 + np.array([p[0], p[1], 0.0])   # board point x -> Rz x + shift
    R, t = geo.view.pose.R, geo.view.pose.t
    return BoardGeometry(View(geo.view.camera, TablePose.from_Rt(R @ Rz, R @ shift + t)))
