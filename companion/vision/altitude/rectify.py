"""Areas of the table seen from straight above.

A :class:`Patch` is a rectangle of the table in a frame of its own (a seat's frame, or a card's)
resampled from the camera image at a fixed number of pixels a millimetre, the lens's distortion
undone on the way (:meth:`View.project` is exact). Row 0 is the far edge (+v), so a card lying
upright in that frame shows upright. The sampling maps are computed on a coarse grid and
interpolated, and kept for the next frame while the camera does not move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.camera import View

#: the sampling map is computed every this many patch pixels and interpolated between
_STEP = 6


@dataclass(frozen=True)
class Frame2:
    """A frame on the table: table point = origin + R(angle)·(u, v)."""

    origin: tuple[float, float]
    angle_deg: float

    @property
    def rotation(self) -> np.ndarray:
        a = math.radians(self.angle_deg)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        return np.asarray(uv, float).reshape(-1, 2) @ self.rotation.T + np.asarray(self.origin)

    def to_local(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy, float).reshape(-1, 2) - np.asarray(self.origin)) @ self.rotation


@dataclass(frozen=True)
class PatchSpec:
    """The rectangle ``u0..u1`` × ``v0..v1`` (mm) of ``frame`` at height ``z`` (mm), sampled at
    ``ppm`` pixels a millimetre."""

    frame: Frame2
    u0: float
    v0: float
    u1: float
    v1: float
    ppm: float
    z: float = 0.0

    @property
    def size(self) -> tuple[int, int]:
        return (int(round((self.u1 - self.u0) * self.ppm)), int(round((self.v1 - self.v0) * self.ppm)))

    def uv_of(self, px: np.ndarray) -> np.ndarray:
        """Patch pixels (N×2, x right, y down; pixel centres at +0.5) to frame mm."""
        p = np.asarray(px, float).reshape(-1, 2)
        return np.column_stack([self.u0 + p[:, 0] / self.ppm, self.v1 - p[:, 1] / self.ppm])

    def px_of(self, uv: np.ndarray) -> np.ndarray:
        """Frame mm (N×2) to patch pixel coordinates."""
        q = np.asarray(uv, float).reshape(-1, 2)
        return np.column_stack([(q[:, 0] - self.u0) * self.ppm, (self.v1 - q[:, 1]) * self.ppm])


def _view_key(view: View) -> tuple:
    c = view.camera
    return (c.fx, c.fy, c.cx, c.cy, tuple(c.size), tuple(c.dist), tuple(view.pose.rvec),
            tuple(view.pose.tvec))


@lru_cache(maxsize=64)
def _grid(view_key: tuple, spec: PatchSpec) -> np.ndarray:
    """Where every :data:`_STEP`-th pixel of the patch lies in the image (rows × columns × 2)."""
    fx, fy, cx, cy, size, dist, rvec, tvec = view_key
    K = np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1.0]])
    w, h = spec.size
    gx = np.arange(0, w + _STEP, _STEP, dtype=np.float64)
    gy = np.arange(0, h + _STEP, _STEP, dtype=np.float64)
    us, vs = np.meshgrid(gx + 0.5, gy + 0.5)
    uv = spec.uv_of(np.column_stack([us.ravel(), vs.ravel()]))
    xy = spec.frame.to_table(uv)
    pts = np.column_stack([xy, np.full(len(xy), spec.z)]).reshape(-1, 1, 3)
    img, _ = cv2.projectPoints(pts, np.array(rvec), np.array(tvec), K, np.array(dist))
    return img.reshape(len(gy), len(gx), 2).astype(np.float32)


def _grid_maps(grid: np.ndarray, x0: int, y0: int, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """The sampling maps of the patch's pixels ``x0..x0+w`` × ``y0..y0+h``, interpolated from
    its :func:`_grid` (each pixel's the same whatever the part asked for)."""
    fxs, fys = np.meshgrid(np.arange(x0, x0 + w, dtype=np.float32) / _STEP,
                           np.arange(y0, y0 + h, dtype=np.float32) / _STEP)
    return (cv2.remap(grid[..., 0], fxs, fys, cv2.INTER_LINEAR),
            cv2.remap(grid[..., 1], fxs, fys, cv2.INTER_LINEAR))


@lru_cache(maxsize=64)
def _maps(view_key: tuple, spec: PatchSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = view_key[4]
    w, h = spec.size
    map_x, map_y = _grid_maps(_grid(view_key, spec), 0, 0, w, h)
    inside = ((map_x >= 0) & (map_x <= size[0] - 1) & (map_y >= 0) & (map_y <= size[1] - 1))
    return map_x, map_y, inside


#: the side (pixels) of the tiles a :class:`LazyPatch` is sampled in
TILE = 64


@lru_cache(maxsize=2048)
def _tile_maps(view_key: tuple, spec: PatchSpec, tx: int, ty: int) -> tuple[np.ndarray, np.ndarray]:
    w, h = spec.size
    x0, y0 = tx * TILE, ty * TILE
    return _grid_maps(_grid(view_key, spec), x0, y0, min(TILE, w - x0), min(TILE, h - y0))


class LazyPatch:
    """``rectify(image, view, spec)``'s patch sampled a tile at a time, only where a part of it
    is asked for (:meth:`region`): every pixel is the one :func:`rectify` gives (a pixel's
    sampling depends on its own place alone), and a large patch of which a few card-sized
    parts are looked at costs those parts."""

    def __init__(self, image: np.ndarray, view: View, spec: PatchSpec):
        self.image = image
        self.key = _view_key(view)
        self.spec = spec
        w, h = spec.size
        self.shape = (h, w) + image.shape[2:]
        self._tiles: dict[tuple[int, int], np.ndarray] = {}

    def _tile(self, tx: int, ty: int) -> np.ndarray:
        got = self._tiles.get((tx, ty))
        if got is None:
            map_x, map_y = _tile_maps(self.key, self.spec, tx, ty)
            got = self._tiles[(tx, ty)] = cv2.remap(self.image, map_x, map_y, cv2.INTER_LINEAR,
                                                    borderMode=cv2.BORDER_REPLICATE)
        return got

    def region(self, x0: int, y0: int, w: int, h: int) -> np.ndarray:
        """The patch's pixels ``x0..x0+w`` × ``y0..y0+h`` (which must lie inside it)."""
        out = np.empty((h, w) + self.shape[2:], self.image.dtype)
        for ty in range(y0 // TILE, (y0 + h - 1) // TILE + 1):
            for tx in range(x0 // TILE, (x0 + w - 1) // TILE + 1):
                tile = self._tile(tx, ty)
                ax, ay = max(x0, tx * TILE), max(y0, ty * TILE)
                bx, by = min(x0 + w, tx * TILE + tile.shape[1]), min(y0 + h, ty * TILE + tile.shape[0])
                out[ay - y0:by - y0, ax - x0:bx - x0] = tile[ay - ty * TILE:by - ty * TILE,
                                                             ax - tx * TILE:bx - tx * TILE]
        return out


def rectify(image: np.ndarray, view: View, spec: PatchSpec) -> tuple[np.ndarray, np.ndarray]:
    """The patch of ``image`` (same channels) and the mask of its pixels inside the image."""
    map_x, map_y, inside = _maps(_view_key(view), spec)
    out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out, inside


def sample_points(image: np.ndarray, view: View, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
    """Image values (bilinear) at table points (N×2, height ``z``)."""
    pts = np.column_stack([np.asarray(xy, float).reshape(-1, 2), np.full(len(xy), z)])
    px = view.project(pts).astype(np.float32)
    return cv2.remap(image, px[:, 0:1].copy(), px[:, 1:2].copy(), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
