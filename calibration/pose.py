"""Where the table is: its pose from the ArUco table markers, and printed boards on it.

The markers are the table's only fixed points, so everything here starts from their corners
(:mod:`calibration.markers`) and fits one model to all of them at once:

* the camera (its focal length and first radial distortion term too, when no lens calibration
  was made: the markers' known size and square shape, seen at several places in the image under
  one common perspective, give them; the principal point is taken at the image centre. That is
  "good enough to play" and is reported as such. Seen straight down, a flat table shows no
  perspective and the focal length stays near a typical webcam's: positions on the table are
  still right, heights less so);
* the table pose (table → camera);
* where each marker other than the reference really lies on the table (x, y and a small turn),
  held to the nominal layout by a soft prior until ``companion calibrate table`` has measured
  the layout; after that the measured positions are used as fixed.

The reference marker (0 when seen, otherwise the lowest id seen) defines the table frame, so
one marker is enough to locate the table; more markers pin the table's tilt and distance down.

Nothing here raises on a normal bad image: :func:`locate_table` and :func:`locate_board`
return a result whose ``ok`` is False and whose ``message`` says what to do.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from calibration.boards import BOARD_MARKER_IDS, BoardSpec, MarkerPlacement, TableLayout
from calibration.markers import Detection, detect_markers, unique_by_id
from calibration.solve import least_squares
from companion.errors import BadInput
from companion.vision.camera import CameraModel, TablePose, View

log = logging.getLogger(__name__)

#: Corner noise the residuals are scaled by (px): sub-pixel ArUco corners on a webcam.
CORNER_NOISE_PX = 0.3
#: How far an unmeasured marker may stray from the nominal layout (mm, degrees) before the fit
#: resists: a user lays markers by eye, within a few centimetres and a few degrees.
POSITION_PRIOR_MM = 80.0
YAW_PRIOR_DEG = 10.0
#: The prior on the focal length when it is estimated: log-normal around a 70° webcam.
FOCAL_PRIOR_LOG = 0.7
#: The prior on the radial distortion k1 when it is estimated (webcams: about -0.3 to 0.1).
K1_PRIOR = 0.15
NOMINAL_HFOV_DEG = 70.0
#: Steepest view accepted (degrees from straight down); the kit asks for at most 35°.
MAX_TILT_DEG = 70.0
#: Two poses whose costs (in units of squared corner noise) differ by less than this explain the
#: corners equally well.
AMBIGUITY_COST = 9.0
#: A fit worse than this (RMS px) is not a table: a marker misread or a table that moved.
MAX_RMS_PX = 4.0

NO_MARKER_HELP = ("show the camera at least one table marker (ArUco 4x4 ids 0-3, printed by "
                  "`companion calibrate targets`), flat, well lit and whole in the image; "
                  "marker 0 marks the origin")


@dataclass(frozen=True)
class MarkerFit:
    """The result of fitting camera, pose and marker positions to the markers' corners."""

    camera: CameraModel
    pose: TablePose
    placements: tuple[MarkerPlacement, ...]
    rms_px: float
    markers: tuple[int, ...]
    reference: int
    focal_estimated: bool
    focal_rel_sd: float | None  # relative standard deviation of the estimated focal length

    @property
    def view(self) -> View:
        return View(self.camera, self.pose)


@dataclass(frozen=True)
class TableLocation:
    """Where the table is, as seen in one image. ``ok`` False: ``message`` says why and what to
    do, and ``view`` is None."""

    ok: bool
    view: View | None
    markers: tuple[int, ...] = ()
    reprojection_px: float | None = None
    confidence: float = 0.0
    message: str = ""
    focal_estimated: bool = False
    other_markers: tuple[int, ...] = ()
    fit: MarkerFit | None = None


@dataclass(frozen=True)
class BoardLocation:
    """A printed board on the table: the rigid transform board mm → table mm."""

    ok: bool
    spec: BoardSpec | None
    rotation: np.ndarray | None = None      # 2×2
    translation: np.ndarray | None = None   # 2
    markers: tuple[int, ...] = ()
    residual_mm: float | None = None
    confidence: float = 0.0
    message: str = ""

    @property
    def yaw_deg(self) -> float | None:
        if self.rotation is None:
            return None
        return math.degrees(math.atan2(self.rotation[1, 0], self.rotation[0, 0]))

    @property
    def origin_mm(self) -> tuple[float, float] | None:
        return None if self.translation is None else (float(self.translation[0]), float(self.translation[1]))

    def to_table(self, points_board_mm: np.ndarray) -> np.ndarray:
        """Board points (N×2 mm) to table points (N×2 mm)."""
        self._require()
        pts = np.asarray(points_board_mm, dtype=np.float64).reshape(-1, 2)
        return pts @ self.rotation.T + self.translation

    def to_board(self, points_table_mm: np.ndarray) -> np.ndarray:
        self._require()
        pts = np.asarray(points_table_mm, dtype=np.float64).reshape(-1, 2)
        return (pts - self.translation) @ self.rotation

    def _require(self) -> None:
        if not self.ok:
            raise BadInput(f"the board was not located: {self.message}")


# --------------------------------------------------------------------------------- fitting
def _nominal_camera(size: tuple[int, int]) -> CameraModel:
    return CameraModel.nominal(size, NOMINAL_HFOV_DEG)


def focal_from_homography(obj_xy: np.ndarray, img: np.ndarray, centre: tuple[float, float]) -> float | None:
    """Focal length (px) from one view of points on a plane, with square pixels and the
    principal point at ``centre``: the two orthogonality constraints of the homography's first
    columns, solved together. None when the view has too little perspective (straight down)."""
    import cv2

    if len(obj_xy) < 4:
        return None
    H, _ = cv2.findHomography(np.asarray(obj_xy, np.float64), np.asarray(img, np.float64) - np.asarray(centre))
    if H is None:
        return None
    H = H / np.linalg.norm(H[:2, :2])
    h1, h2 = H[:, 0], H[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    if denom <= 0:
        return None
    u = -float(a @ b) / denom  # 1 / f²
    if not u > 0:
        return None
    f = 1.0 / math.sqrt(u)
    return f if np.isfinite(f) else None


def _placement_from(params: np.ndarray, base: MarkerPlacement) -> MarkerPlacement:
    return MarkerPlacement(base.id, (float(params[0]), float(params[1])), float(params[2]), base.size_mm)


def fit_markers(detections: Mapping[int, Detection], size: tuple[int, int], layout: TableLayout,
                camera: CameraModel | None = None, *, free_layout: bool | None = None) -> MarkerFit:
    """Fit the table pose (and the focal length when ``camera`` is None, and the markers'
    positions unless the layout was measured) to the detected table markers' corners."""
    import cv2

    ids = sorted(i for i in detections if i in layout.ids)
    if not ids:
        raise BadInput("no table marker to fit", hint=NO_MARKER_HELP)
    free = (not layout.measured) if free_layout is None else free_layout
    ref = 0 if 0 in ids else ids[0]
    movable = [i for i in ids if i != ref] if free else []
    est_f = camera is None
    cam0 = camera or _nominal_camera(size)
    img_pts = np.concatenate([detections[i].corners for i in ids])
    nominal = {i: layout.marker(i) for i in ids}
    obj_nominal = np.concatenate([nominal[i].corners() for i in ids])
    centre = (cam0.cx, cam0.cy)
    f0 = cam0.fx
    if est_f and len(ids) >= 2:
        guess = focal_from_homography(obj_nominal[:, :2], img_pts, centre)
        if guess is not None and 0.3 * size[0] < guess < 5.0 * size[0]:
            f0 = guess
    f_nominal = _nominal_camera(size).fx
    dist = np.zeros(5) if est_f else cam0.D

    def unpack(p: np.ndarray):
        k = 0
        f, k1 = f0, 0.0
        if est_f:
            f, k1 = math.exp(p[0]), float(p[1])
            k = 2
        rvec, tvec = p[k:k + 3], p[k + 3:k + 6]
        k += 6
        placements = dict(nominal)
        for i in movable:
            placements[i] = _placement_from(p[k:k + 3], nominal[i])
            k += 3
        return f, k1, rvec, tvec, placements

    def project(p: np.ndarray) -> tuple[np.ndarray, float]:
        f, k1, rvec, tvec, placements = unpack(p)
        obj = np.concatenate([placements[i].corners() for i in ids])
        if est_f:
            K = np.array([[f, 0, centre[0]], [0, f, centre[1]], [0, 0, 1.0]])
            d = np.array([k1, 0.0, 0.0, 0.0, 0.0])
        else:
            K, d = cam0.K, dist
        out, _ = cv2.projectPoints(obj.reshape(-1, 1, 3), rvec, tvec, K, d)
        return out.reshape(-1, 2), f

    def residuals(p: np.ndarray) -> np.ndarray:
        proj, f = project(p)
        parts = [((proj - img_pts) / CORNER_NOISE_PX).ravel()]
        if est_f:
            parts.append(np.array([(math.log(f) - math.log(f_nominal)) / FOCAL_PRIOR_LOG,
                                   p[1] / K1_PRIOR]))
        _, _, _, _, placements = unpack(p)
        for i in movable:
            m, n = placements[i], nominal[i]
            parts.append(np.array([(m.centre[0] - n.centre[0]) / POSITION_PRIOR_MM,
                                   (m.centre[1] - n.centre[1]) / POSITION_PRIOR_MM,
                                   (m.yaw_deg - n.yaw_deg) / YAW_PRIOR_DEG]))
        return np.concatenate(parts)

    K0 = np.array([[f0, 0, centre[0]], [0, f0, centre[1]], [0, 0, 1.0]]) if est_f else cam0.K
    # Starting poses: IPPE's two planar solutions (the pose and its mirror ambiguity), and
    # SQPnP's global optimum (IPPE degenerates for a plane exactly square to the camera).
    starts = []
    for method in (cv2.SOLVEPNP_IPPE, cv2.SOLVEPNP_SQPNP):
        try:
            n_sol, rvecs, tvecs, _ = cv2.solvePnPGeneric(obj_nominal.reshape(-1, 1, 3),
                                                         img_pts.reshape(-1, 1, 2), K0, dist, flags=method)
            starts += [(np.ravel(r), np.ravel(t)) for r, t in zip(rvecs[:n_sol], tvecs[:n_sol])]
        except cv2.error as exc:
            log.debug("solvePnP method %d failed: %s", method, exc)
    if not starts:
        ok, r, t = cv2.solvePnP(obj_nominal.reshape(-1, 1, 3), img_pts.reshape(-1, 1, 2), K0, dist)
        if not ok:
            raise BadInput("the markers' corners do not fit any camera pose")
        starts = [(np.ravel(r), np.ravel(t))]
    solutions = []
    for rvec, tvec in starts:
        R = cv2.Rodrigues(rvec)[0]
        if (-R.T @ tvec)[2] <= 0:  # the mirror solution puts the camera under the table
            continue
        x0 = ([math.log(f0), 0.0] if est_f else []) + list(rvec) + list(tvec)
        for i in movable:
            x0 += [nominal[i].centre[0], nominal[i].centre[1], nominal[i].yaw_deg]
        sol = least_squares(residuals, np.array(x0, dtype=np.float64))
        _, _, r_fit, t_fit, _ = unpack(sol.x)
        tilt = TablePose(tuple(r_fit), tuple(t_fit)).tilt_deg  # type: ignore[arg-type]
        if tilt <= MAX_TILT_DEG:
            solutions.append((sol, tilt))
    if not solutions:
        raise BadInput("the markers fit no camera looking down at the table: they are misread")
    # A small marker seen almost square-on fits two poses nearly equally well (the plane and
    # its mirror about the line of sight). When the data do not tell them apart, the flatter
    # view is the one a table camera has.
    solutions.sort(key=lambda st: st[0].cost)
    best, best_tilt = solutions[0]
    for sol, tilt in solutions[1:]:
        if sol.cost - best.cost < AMBIGUITY_COST and tilt < best_tilt:
            best, best_tilt = sol, tilt
    f, k1, rvec, tvec, placements = unpack(best.x)
    proj, _ = project(best.x)
    rms = float(np.sqrt(np.mean(np.sum((proj - img_pts) ** 2, axis=1))))
    if est_f:
        camera_out = CameraModel(f, f, centre[0], centre[1], (int(size[0]), int(size[1])),
                                 (k1, 0.0, 0.0, 0.0, 0.0), None, "markers")
        rel_sd = float(best.stddev()[0])
    else:
        camera_out, rel_sd = cam0, None
    pose = TablePose(tuple(float(v) for v in rvec), tuple(float(v) for v in tvec))  # type: ignore[arg-type]
    return MarkerFit(camera_out, pose, tuple(placements[i] for i in ids), rms, tuple(ids), ref, est_f, rel_sd)


def _confidence(fit: MarkerFit) -> float:
    by_count = {1: 0.55, 2: 0.75, 3: 0.88}.get(len(fit.markers), 0.96)
    by_error = 1.0 if fit.rms_px <= 0.7 else max(0.0, 1.0 - (fit.rms_px - 0.7) / (MAX_RMS_PX - 0.7))
    by_focal = 1.0
    if fit.focal_estimated:
        sd = fit.focal_rel_sd if fit.focal_rel_sd is not None else 1.0
        by_focal = 0.9 if sd < 0.03 else 0.75 if sd < 0.1 else 0.6
    return round(by_count * by_error * by_focal, 4)


def _camera_for_image(camera: CameraModel | None, size: tuple[int, int]) -> CameraModel | None:
    if camera is None or tuple(camera.size) == tuple(size):
        return camera
    w, h = camera.size
    if abs(w / h - size[0] / size[1]) > 0.01:
        raise BadInput(f"the lens calibration was made at {w}×{h} but the image is {size[0]}×{size[1]}",
                       hint="set the camera to the calibrated resolution, or calibrate again at this one")
    return camera.scaled(size)


def locate_table(image: np.ndarray | None, camera: CameraModel | None = None,
                 layout: TableLayout | None = None, *,
                 detections: Iterable[Detection] | None = None,
                 size: tuple[int, int] | None = None) -> TableLocation:
    """Locate the table in an image (or from detections already made, with the image ``size``).
    ``camera`` None: the focal length is estimated from the markers. ``layout`` None: the
    default 600 × 600 mm rectangle, unmeasured. Never raises for an image without markers."""
    layout = layout or TableLayout.rectangle()
    if detections is None and image is None:
        raise BadInput("locate_table needs an image or detections")
    if size is None:
        if image is None:
            raise BadInput("locate_table needs the image size with detections")
        size = (image.shape[1], image.shape[0])
    try:
        cam = _camera_for_image(camera, size)
    except BadInput as exc:
        return TableLocation(False, None, message=exc.message)
    if detections is None:
        detections = detect_markers(image, camera=cam)
    found = unique_by_id(detections)
    table = {i: d for i, d in found.items() if i in layout.ids}
    others = tuple(sorted(i for i in found if i not in layout.ids))
    if not table:
        seen = f" (saw markers {', '.join(map(str, others))}, which are not table markers)" if others else ""
        return TableLocation(False, None, message=f"no table marker seen{seen}: {NO_MARKER_HELP}",
                             other_markers=others)
    try:
        fit = fit_markers(table, size, layout, cam)
        if fit.rms_px > MAX_RMS_PX / 2 and len(table) >= 3:
            # one marker may be misread (or moved): try without each in turn
            for drop in sorted(table):
                trial = fit_markers({i: d for i, d in table.items() if i != drop}, size, layout, cam)
                if trial.rms_px < fit.rms_px / 3:
                    log.warning("marker %d does not agree with the others; ignoring it", drop)
                    fit = trial
    except BadInput as exc:
        return TableLocation(False, None, tuple(sorted(table)), message=exc.message, other_markers=others)
    except Exception as exc:  # an OpenCV solver failing on degenerate corners
        if type(exc).__module__.split(".")[0] != "cv2":
            raise
        return TableLocation(False, None, tuple(sorted(table)),
                             message=f"the markers could not be fitted ({exc}); {NO_MARKER_HELP}",
                             other_markers=others)
    if fit.rms_px > MAX_RMS_PX:
        return TableLocation(False, None, fit.markers, fit.rms_px, 0.0,
                             f"the table markers do not agree (error {fit.rms_px:.1f} px): one may have "
                             "moved or be misread; lay them flat and run `companion calibrate table` again",
                             fit.focal_estimated, others, fit)
    note = []
    if fit.focal_estimated:
        note.append("focal length estimated from the markers (calibrate the camera for accuracy)")
    missing = [i for i in layout.ids if i not in fit.markers]
    if missing:
        note.append(f"markers {', '.join(map(str, missing))} not seen")
    return TableLocation(True, fit.view, fit.markers, fit.rms_px, _confidence(fit), "; ".join(note),
                         fit.focal_estimated, others, fit)


def estimate_intrinsics_from_markers(image: np.ndarray | None = None, layout: TableLayout | None = None,
                                     *, detections: Iterable[Detection] | None = None,
                                     size: tuple[int, int] | None = None) -> tuple[CameraModel, float]:
    """A camera model from the table markers alone (no lens calibration made): the focal length
    and radial distortion k1 fitted to the markers' size and shape, the principal point at the
    image centre. Returns (camera, relative standard deviation of the focal length): below 0.05
    the estimate is good; straight-down views give little perspective and a larger spread, and
    then the nominal 70° webcam focal length dominates."""
    loc = locate_table(image, None, layout, detections=detections, size=size)
    if not loc.ok or loc.fit is None:
        raise BadInput(loc.message or "the table markers could not be fitted", hint=NO_MARKER_HELP)
    return loc.fit.camera, float(loc.fit.focal_rel_sd if loc.fit.focal_rel_sd is not None else 1.0)


def measured_layout(fit: MarkerFit, layout: TableLayout) -> TableLayout:
    """The layout with the fitted positions of the markers seen; ``measured`` only when every
    marker of the layout was seen (a marker not seen keeps its nominal place)."""
    fitted = {m.id: m for m in fit.placements}
    markers = tuple(fitted.get(m.id, m) for m in layout.markers)
    return TableLayout(markers, measured=all(m.id in fitted for m in layout.markers))


def average_detections(frames: Iterable[Iterable[Detection]]) -> list[Detection]:
    """Corners of each marker averaged over several frames of a still scene (less noise)."""
    acc: dict[int, list[np.ndarray]] = {}
    for dets in frames:
        for i, det in unique_by_id(dets).items():
            acc.setdefault(i, []).append(det.corners)
    return [Detection(i, np.mean(cs, axis=0)) for i, cs in sorted(acc.items())]


# ---------------------------------------------------------------------------------- boards
def _rigid_2d(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rotation and translation (no scale, no mirror) taking ``src`` onto ``dst`` (N×2)."""
    cs, cd = src.mean(axis=0), dst.mean(axis=0)
    u, _, vt = np.linalg.svd((src - cs).T @ (dst - cd))
    d = np.sign(np.linalg.det(vt.T @ u.T)) or 1.0
    R = vt.T @ np.diag([1.0, d]) @ u.T
    return R, cd - R @ cs


def locate_board(image: np.ndarray | None, view: View, spec: BoardSpec, *,
                 detections: Iterable[Detection] | None = None, z_mm: float = 0.0) -> BoardLocation:
    """Locate a printed board (markers 4–7) on the table seen through ``view``: each marker
    corner's ray meets the table plane (``z_mm`` up for a board on thick card), and a rigid
    transform is fitted from board millimetres to table millimetres."""
    if detections is None:
        if image is None:
            raise BadInput("locate_board needs an image or detections")
        detections = detect_markers(image, ids=BOARD_MARKER_IDS, camera=view.camera)
    found = {i: d for i, d in unique_by_id(detections).items() if i in BOARD_MARKER_IDS}
    if not found:
        return BoardLocation(False, spec, message=f"no board marker (ids 4-7) seen: show the camera the "
                             f"{spec.title} board printed by `companion calibrate targets`, markers uncovered")
    ids = sorted(found)
    board_pts = np.concatenate([spec.marker(i).corners()[:, :2] for i in ids])
    pixels = np.concatenate([found[i].corners for i in ids])
    table_pts = view.unproject_to_plane(pixels, z_mm)[:, :2]
    if not np.all(np.isfinite(table_pts)):
        return BoardLocation(False, spec, markers=tuple(ids),
                             message="the board markers are not on the table plane")
    R, t = _rigid_2d(board_pts, table_pts)
    resid = table_pts - (board_pts @ R.T + t)
    rms = float(np.sqrt(np.mean(np.sum(resid ** 2, axis=1))))
    if rms > 8.0:
        return BoardLocation(False, spec, R, t, tuple(ids), rms, 0.0,
                             f"the board markers do not fit the {spec.title} board (error {rms:.1f} mm): "
                             "is it the right board, lying flat?")
    by_count = {1: 0.6, 2: 0.85, 3: 0.93}.get(len(ids), 0.97)
    by_error = 1.0 if rms <= 1.5 else max(0.0, 1.0 - (rms - 1.5) / 6.5)
    missing = [i for i in BOARD_MARKER_IDS if i not in ids]
    note = f"markers {', '.join(map(str, missing))} not seen" if missing else ""
    return BoardLocation(True, spec, R, t, tuple(ids), rms, round(by_count * by_error, 4), note)
