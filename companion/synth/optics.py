"""What a real camera does to a perfect picture: lens distortion, exposure, vignetting, blur,
sensor noise and JPEG compression.

The renderer draws a pinhole image (straight lines stay straight) on a canvas a little larger than
the frame, then :func:`distort` bends it with the camera model's own distortion coefficients, so
that a table point lands exactly where :meth:`View.project` says.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.camera import CameraModel

#: the undistortion map is computed on a grid this many pixels apart, then interpolated
_MAP_STEP = 8


@dataclass(frozen=True)
class Canvas:
    """The pinhole canvas: ``K`` is the camera matrix on it, ``size`` (w, h), and ``offset`` the
    canvas pixel of the frame's (0, 0) before distortion is applied."""

    K: np.ndarray
    size: tuple[int, int]
    offset: tuple[int, int]
    map_x: np.ndarray | None
    map_y: np.ndarray | None


@lru_cache(maxsize=16)
def _canvas_cached(camera_json: tuple) -> Canvas:
    fx, fy, cx, cy, w, h, dist = camera_json
    K = np.array([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])
    D = np.array(dist, float)
    if not np.any(D):
        return Canvas(K, (w, h), (0, 0), None, None)
    gx = np.arange(0, w + _MAP_STEP, _MAP_STEP, dtype=np.float64)
    gy = np.arange(0, h + _MAP_STEP, _MAP_STEP, dtype=np.float64)
    grid = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 1, 2)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
    und = cv2.undistortPoints(grid, K, D, None, K, criteria=crit).reshape(len(gy), len(gx), 2)
    x0 = int(np.floor(min(0.0, und[..., 0].min()))) - 2
    y0 = int(np.floor(min(0.0, und[..., 1].min()))) - 2
    x1 = int(np.ceil(max(w - 1.0, und[..., 0].max()))) + 3
    y1 = int(np.ceil(max(h - 1.0, und[..., 1].max()))) + 3
    off = (-x0, -y0)
    Kc = K.copy()
    Kc[0, 2] += off[0]
    Kc[1, 2] += off[1]
    # bilinear interpolation of the coarse map at every pixel of the frame (grid point k lies
    # at pixel k*step)
    xs = np.arange(w, dtype=np.float32) / _MAP_STEP
    ys = np.arange(h, dtype=np.float32) / _MAP_STEP
    mx, my = np.meshgrid(xs, ys)
    map_x = cv2.remap((und[..., 0] + off[0]).astype(np.float32), mx, my, cv2.INTER_LINEAR)
    map_y = cv2.remap((und[..., 1] + off[1]).astype(np.float32), mx, my, cv2.INTER_LINEAR)
    return Canvas(Kc, (x1 - x0 + 1, y1 - y0 + 1), off, map_x, map_y)


def canvas_for(camera: CameraModel) -> Canvas:
    return _canvas_cached((camera.fx, camera.fy, camera.cx, camera.cy, camera.size[0],
                           camera.size[1], tuple(camera.dist)))


def distort(canvas: Canvas, image: np.ndarray, size: tuple[int, int], *, nearest: bool = False) -> np.ndarray:
    """The frame the lens makes of a pinhole canvas image."""
    w, h = size
    if canvas.map_x is None:
        ox, oy = canvas.offset
        return image[oy:oy + h, ox:ox + w].copy()
    interp = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
    return cv2.remap(image, canvas.map_x, canvas.map_y, interp, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=8)
def vignette(size: tuple[int, int], strength: float) -> np.ndarray:
    """Relative illumination across the frame (1 at the centre, ``1 - strength`` in the corners),
    as a 3-channel float image."""
    w, h = size
    x = (np.arange(w, dtype=np.float32) - (w - 1) / 2) / (w / 2)
    y = (np.arange(h, dtype=np.float32) - (h - 1) / 2) / (w / 2)
    r2 = x[None, :] ** 2 + y[:, None] ** 2
    r2 /= r2.max()
    v = (1.0 - strength * r2).astype(np.float32)
    out = cv2.merge([v, v, v])
    out.setflags(write=False)
    return out


_NOISE_MARGIN = 64


@lru_cache(maxsize=4)
def _noise_field(size: tuple[int, int]) -> np.ndarray:
    """Unit Gaussian noise a little larger than a frame; each frame takes a window of it at a
    seeded random offset (a fresh field per frame would cost more than the rest of the sensor)."""
    w, h = size
    rng = np.random.default_rng(12345)
    field = rng.standard_normal((h + _NOISE_MARGIN, w + _NOISE_MARGIN, 3)).astype(np.float32)
    field.setflags(write=False)
    return field


def sensor(image: np.ndarray, rng: np.random.Generator, *, exposure: float, noise: float, blur: float,
           jpeg: int | None, vignetting: float = 0.15) -> np.ndarray:
    """Expose, blur, add noise, quantise and compress a linear float image (BGR, 0–1 scale).

    Automatic exposure scales the image so that its median grey is ``exposure``; the gain it
    needed multiplies the noise, as a real sensor's does in dim light."""
    h, w = image.shape[:2]
    grey = image[::8, ::8].mean(axis=2)
    med = float(np.median(grey))
    gain = float(np.clip(exposure / max(med, 1e-4), 0.25, 6.0))
    img = cv2.multiply(image, vignette((w, h), vignetting), scale=gain * 255.0)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        sigma = noise * float(np.sqrt(max(gain, 1.0)))
        field = _noise_field((w, h))
        ox, oy = (int(v) for v in rng.integers(0, _NOISE_MARGIN, size=2))
        img = cv2.scaleAdd(field[oy:oy + h, ox:ox + w], sigma, img)
    out = cv2.convertScaleAbs(cv2.max(img, 0.0))
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
