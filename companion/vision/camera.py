"""The camera model shared by calibration, the readers and the synthetic table.

Two values describe how the table appears in an image:

* :class:`CameraModel`: the intrinsics (focal lengths, principal point, lens distortion in
  OpenCV's 5-coefficient model) for one image size;
* :class:`TablePose`: where the table is seen from (the rotation and translation taking table
  coordinates, millimetres with z up and the origin at marker 0, into camera coordinates).

The renderer draws with exactly these, and the readers invert them, so a rendered scene's ground
truth and a reading of it are in the same frame by construction.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import BadInput


@dataclass(frozen=True)
class CameraModel:
    """Pinhole intrinsics with OpenCV's (k1, k2, p1, p2, k3) distortion, for ``size`` (w, h)."""

    fx: float
    fy: float
    cx: float
    cy: float
    size: tuple[int, int]
    dist: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rms: float | None = None  # reprojection error of the calibration that produced it, px
    source: str = "unknown"   # "charuco", "chessboard", "markers", "nominal", "synthetic"

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def D(self) -> np.ndarray:
        return np.array(self.dist, dtype=np.float64)

    @classmethod
    def nominal(cls, size: tuple[int, int], hfov_deg: float = 70.0) -> "CameraModel":
        """A typical webcam's intrinsics when nothing better is known (no distortion)."""
        w, h = size
        f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
        return cls(fx=f, fy=f, cx=(w - 1) / 2, cy=(h - 1) / 2, size=(w, h), source="nominal")

    def scaled(self, size: tuple[int, int]) -> "CameraModel":
        """The same lens at another resolution of the same aspect (a camera set to 720p after
        being calibrated at 1080p)."""
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        return CameraModel(self.fx * sx, self.fy * sy, self.cx * sx, self.cy * sy, size,
                           self.dist, self.rms, self.source)

    def to_json(self) -> dict[str, Any]:
        return {"fx": self.fx, "fy": self.fy, "cx": self.cx, "cy": self.cy,
                "size": list(self.size), "dist": list(self.dist), "rms": self.rms,
                "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CameraModel":
        try:
            return cls(float(data["fx"]), float(data["fy"]), float(data["cx"]), float(data["cy"]),
                       (int(data["size"][0]), int(data["size"][1])),
                       tuple(float(v) for v in data.get("dist", (0, 0, 0, 0, 0))),  # type: ignore[arg-type]
                       None if data.get("rms") is None else float(data["rms"]),
                       str(data.get("source", "unknown")))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BadInput(f"not a camera model ({exc})") from None


@dataclass(frozen=True)
class TablePose:
    """Table → camera transform: ``X_cam = R @ X_table + t`` (millimetres)."""

    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(np.array(self.rvec, dtype=np.float64))[0]

    @property
    def t(self) -> np.ndarray:
        return np.array(self.tvec, dtype=np.float64)

    @classmethod
    def from_Rt(cls, R: np.ndarray, t: np.ndarray) -> "TablePose":
        rvec = cv2.Rodrigues(np.asarray(R, dtype=np.float64))[0].ravel()
        return cls(tuple(float(v) for v in rvec), tuple(float(v) for v in np.ravel(t)))  # type: ignore[arg-type]

    @classmethod
    def look_at(cls, eye: tuple[float, float, float], target: tuple[float, float, float],
                up_hint: tuple[float, float, float] = (0.0, 1.0, 0.0)) -> "TablePose":
        """A camera at ``eye`` (table mm) looking at ``target``; image 'up' leans to ``up_hint``."""
        eye_v, tgt = np.array(eye, float), np.array(target, float)
        z = tgt - eye_v
        z /= np.linalg.norm(z)
        up = np.array(up_hint, float)
        x = np.cross(z, up)
        if np.linalg.norm(x) < 1e-9:  # looking along the hint: pick another
            x = np.cross(z, np.array([1.0, 0.0, 0.0]))
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        R = np.stack([x, y, z])  # rows: camera axes in table coordinates
        return cls.from_Rt(R, -R @ eye_v)

    @property
    def camera_position(self) -> np.ndarray:
        """Where the camera is, in table millimetres."""
        return -self.R.T @ self.t

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down."""
        axis = self.R.T @ np.array([0.0, 0.0, 1.0])
        return math.degrees(math.acos(max(-1.0, min(1.0, -axis[2]))))

    def to_json(self) -> dict[str, Any]:
        return {"rvec": list(self.rvec), "tvec": list(self.tvec)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TablePose":
        try:
            return cls(tuple(float(v) for v in data["rvec"]), tuple(float(v) for v in data["tvec"]))  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"not a table pose ({exc})") from None


@dataclass(frozen=True)
class View:
    """A camera model and the table pose it sees: everything needed to go between table
    millimetres and pixels."""

    camera: CameraModel
    pose: TablePose

    def project(self, points_mm: np.ndarray, *, distort: bool = True) -> np.ndarray:
        """Table points (N×3, mm) to pixel coordinates (N×2)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 3)
        dist = self.camera.D if distort else np.zeros(5)
        img, _ = cv2.projectPoints(pts, np.array(self.pose.rvec), np.array(self.pose.tvec),
                                   self.camera.K, dist)
        return img.reshape(-1, 2)

    def ray(self, pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Viewing rays for pixels: (origin 3, directions N×3) in table coordinates."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(px, self.camera.K, self.camera.D).reshape(-1, 2)
        dirs_cam = np.hstack([norm, np.ones((len(norm), 1))])
        R = self.pose.R
        dirs = dirs_cam @ R  # R.T @ d for each row
        dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
        return self.pose.camera_position, dirs

    def unproject_to_plane(self, pixels: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Where the pixels' rays meet the horizontal plane at height ``z_mm`` (N×3, mm)."""
        origin, dirs = self.ray(pixels)
        s = (z_mm - origin[2]) / dirs[:, 2]
        return origin + dirs * s[:, None]

    def to_json(self) -> dict[str, Any]:
        return {"camera": self.camera.to_json(), "pose": self.pose.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "View":
        return cls(CameraModel.from_json(data["camera"]), TablePose.from_json(data["pose"]))


def save_json(path: str | Path, data: dict[str, Any]) -> None:
    """Write a calibration file atomically (a crash never leaves half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def load_json(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"no such file: {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path} is not a readable calibration file ({exc})",
                       hint="run `companion calibrate` again to rewrite it") from None
