"""The lens: focal length, principal point and distortion, from pictures of a known target.

Two targets are supported. A ChArUco board (``companion calibrate targets`` prints one) is the
better one: its corners are identified one by one, so a view where the board is partly out of
the frame still counts, and corners near the image edges (where distortion shows) are easy to
get. A plain chessboard works too, many players have one; it must be seen whole in each view.

Chessboard corners come from OpenCV's sector-based detector (more accurate than the classic one;
on OpenCV's own sample photographs it roughly halves the reprojection error), with the classic
detector and sub-pixel refinement as a fallback for the views it misses. Views whose error is
far above the others' (a blurred frame, a corner latched on the wrong square) are dropped and the
calibration is run again without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from calibration.boards import CHARUCO, CharucoSpec, ChessboardSpec
from companion.errors import BadInput, UserError
from companion.vision.camera import CameraModel

#: Fewest usable views a calibration accepts; 10–20 varied views are what a user should give.
MIN_VIEWS = 3
#: Fewest ChArUco corners for a view to count.
MIN_CHARUCO_CORNERS = 8
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class ViewReport:
    """What became of one image: whether the target was found, how many corners, its error."""

    name: str
    found: bool
    corners: int = 0
    error_px: float | None = None
    note: str = ""


@dataclass(frozen=True)
class IntrinsicsResult:
    camera: CameraModel
    views: tuple[ViewReport, ...]

    @property
    def rms(self) -> float:
        return float(self.camera.rms or 0.0)

    @property
    def used(self) -> int:
        return sum(1 for v in self.views if v.error_px is not None and "dropped" not in v.note)


def _grey(image: np.ndarray) -> np.ndarray:
    from calibration.markers import to_grey

    return to_grey(image)


def find_chessboard(grey: np.ndarray, spec: ChessboardSpec) -> np.ndarray | None:
    """The inner corners (N×2, sub-pixel) of a chessboard seen whole, or None."""
    import cv2

    pattern = (spec.cols, spec.rows)
    flags = cv2.CALIB_CB_ACCURACY | cv2.CALIB_CB_NORMALIZE_IMAGE
    ok, corners = cv2.findChessboardCornersSB(grey, pattern, flags)
    if not ok:
        ok, corners = cv2.findChessboardCornersSB(grey, pattern, flags | cv2.CALIB_CB_EXHAUSTIVE)
    if not ok:
        ok, corners = cv2.findChessboardCorners(
            grey, pattern, cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
        if ok:
            corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1),
                                       (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 50, 0.001))
    return np.asarray(corners, dtype=np.float64).reshape(-1, 2) if ok else None


def find_charuco(grey: np.ndarray, spec: CharucoSpec = CHARUCO) -> tuple[np.ndarray, np.ndarray] | None:
    """(object points N×3 mm, image points N×2) of the ChArUco corners seen, or None when fewer
    than :data:`MIN_CHARUCO_CORNERS`."""
    import cv2

    board = _charuco_board(spec)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(grey)
    if ids is None or len(ids) < MIN_CHARUCO_CORNERS:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < MIN_CHARUCO_CORNERS:
        return None
    return np.asarray(obj, np.float64).reshape(-1, 3), np.asarray(img, np.float64).reshape(-1, 2)


_BOARDS: dict[CharucoSpec, object] = {}


def _charuco_board(spec: CharucoSpec):
    if spec not in _BOARDS:
        _BOARDS[spec] = spec.board()
    return _BOARDS[spec]


class ViewCollector:
    """Gathers the target's corners view by view, then calibrates from all of them."""

    def __init__(self, target: ChessboardSpec | CharucoSpec):
        self.target = target
        self.kind = "charuco" if isinstance(target, CharucoSpec) else "chessboard"
        self.size: tuple[int, int] | None = None
        self._obj: list[np.ndarray] = []
        self._img: list[np.ndarray] = []
        self._names: list[str] = []
        self.reports: list[ViewReport] = []

    @property
    def count(self) -> int:
        return len(self._obj)

    def detect(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        grey = _grey(image)
        if isinstance(self.target, CharucoSpec):
            return find_charuco(grey, self.target)
        corners = find_chessboard(grey, self.target)
        return None if corners is None else (self.target.object_points().astype(np.float64), corners)

    def add(self, image: np.ndarray, name: str) -> ViewReport:
        """Look for the target in one image and keep its corners when found."""
        h, w = image.shape[:2]
        if self.size is None:
            self.size = (w, h)
        elif self.size != (w, h):
            report = ViewReport(name, False, note=f"image is {w}×{h}, the others {self.size[0]}×{self.size[1]}")
            self.reports.append(report)
            return report
        found = self.detect(image)
        if found is None:
            report = ViewReport(name, False, note=f"no {self.kind} found")
        else:
            self._obj.append(found[0])
            self._img.append(found[1])
            self._names.append(name)
            report = ViewReport(name, True, len(found[1]))
        self.reports.append(report)
        return report

    def calibrate(self) -> IntrinsicsResult:
        """Run the calibration; views far worse than the rest are dropped and it is run again."""
        import cv2

        if self.count < MIN_VIEWS:
            raise UserError(
                f"the {self.kind} was found in only {self.count} of {len(self.reports)} images; "
                f"calibration needs at least {MIN_VIEWS}",
                hint="show the whole target, sharp and well lit, from 10 to 20 different angles "
                     "and distances, some near the image corners")
        keep = list(range(self.count))
        dropped: dict[int, float] = {}
        for _ in range(3):
            rms, K, D, errors = self._run(keep)
            med = float(np.median(errors))
            worst = [k for k, e in zip(keep, errors) if e > max(1.0, 3.0 * med)]
            if not worst or len(keep) - len(worst) < MIN_VIEWS:
                break
            for k in worst:
                dropped[k] = float(errors[keep.index(k)])
            keep = [k for k in keep if k not in dropped]
        per_view = dict(zip(keep, errors))
        assert self.size is not None
        w, h = self.size
        camera = CameraModel(float(K[0, 0]), float(K[1, 1]), float(K[0, 2]), float(K[1, 2]), (w, h),
                             tuple(float(v) for v in np.ravel(D)[:5]),  # type: ignore[arg-type]
                             float(rms), self.kind)
        reports = []
        index = {name: k for k, name in enumerate(self._names)}
        for rep in self.reports:
            if not rep.found:
                reports.append(rep)
                continue
            k = index[rep.name]
            if k in dropped:
                reports.append(ViewReport(rep.name, True, rep.corners, dropped[k],
                                          "dropped: far worse than the other views"))
            else:
                reports.append(ViewReport(rep.name, True, rep.corners, float(per_view[k])))
        _check_plausible(camera)
        return IntrinsicsResult(camera, tuple(reports))

    def _run(self, keep: list[int]):
        import cv2

        obj = [self._obj[k].astype(np.float32).reshape(-1, 1, 3) for k in keep]
        img = [self._img[k].astype(np.float32).reshape(-1, 1, 2) for k in keep]
        try:
            rms, K, D, _, _, _, _, errors = cv2.calibrateCameraExtended(obj, img, self.size, None, None)
        except cv2.error as exc:
            raise UserError(f"the calibration did not converge ({exc.err})",
                            hint="give views from more varied angles (tilt the target)") from None
        return float(rms), K, D, np.asarray(errors, dtype=np.float64).ravel()


def _check_plausible(camera: CameraModel) -> None:
    w, h = camera.size
    if not (0.1 * w < camera.fx < 20 * w and 0.1 * w < camera.fy < 20 * w
            and 0 < camera.cx < w and 0 < camera.cy < h):
        raise UserError(f"the calibration gave an implausible lens (focal {camera.fx:.0f} px, "
                        f"centre {camera.cx:.0f}, {camera.cy:.0f})",
                        hint="give more views with the target tilted in different directions")


def read_image(path: str | Path) -> np.ndarray:
    """One image file as BGR, or :class:`BadInput` naming the file and what is wrong with it."""
    from companion.vision.sources_folder import decode_image

    p = Path(path)
    if not p.is_file():
        raise BadInput(f"no such image: {p}")
    return decode_image(p)


def calibrate_images(paths: Iterable[str | Path], target: ChessboardSpec | CharucoSpec,
                     progress: Progress | None = None) -> IntrinsicsResult:
    """Calibrate from image files. Unreadable files are reported in the views, not fatal."""
    files = [Path(p) for p in paths]
    if not files:
        raise BadInput("no images given", hint="give the calibration photos as arguments")
    collector = ViewCollector(target)
    for k, path in enumerate(files):
        if progress:
            progress(k, len(files), path.name)
        try:
            image = read_image(path)
        except BadInput as exc:
            collector.reports.append(ViewReport(path.name, False, note=exc.message))
            continue
        collector.add(image, path.name)
    if progress:
        progress(len(files), len(files), "solving")
    return collector.calibrate()
