"""Top-down pictures of the table's zones, and the table's background colour.

A piece seen from above is easiest to measure in a picture of one horizontal plane: warp the
frame so that the plane ``z = h`` lies square, at a chosen resolution, over a rectangle of the
table. A face lying in that plane then shows at its true shape and size, and everything lower
shows shifted towards the camera's foot (everything higher, away from it), along the line from
the camera's foot, by an amount the camera's position gives. The readers of the dice, the pool
and the stacks all work on such pictures (:func:`plane_picture`).

The maps are computed on a coarse grid through the camera model (lens distortion included)
and interpolated, and kept for the next frame while the camera's pose is reused.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.nains.pixels import FrameColours
from companion.vision.nains.zones import Rect, ZoneLayout

#: the maps are computed every this many output pixels, then interpolated
MAP_STEP = 6


@dataclass(frozen=True)
class Plane:
    """A top-down picture of the plane ``z`` over ``rect`` at ``ppm`` pixels per millimetre:
    its pixel (u, v) shows table point ``(rect.x0 + (u + 0.5)/ppm, rect.y1 - (v + 0.5)/ppm, z)``
    (rows run along +x, columns down -y, so the picture reads like the table seen from above)."""

    rect: Rect
    z: float
    ppm: float
    image: np.ndarray

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        uv = np.asarray(uv, float).reshape(-1, 2)
        return np.column_stack([self.rect.x0 + (uv[:, 0] + 0.5) / self.ppm,
                                self.rect.y1 - (uv[:, 1] + 0.5) / self.ppm])

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, float).reshape(-1, 2)
        return np.column_stack([(xy[:, 0] - self.rect.x0) * self.ppm - 0.5,
                                (self.rect.y1 - xy[:, 1]) * self.ppm - 0.5])


def _maps(view: View, rect: Rect, z: float, ppm: float) -> tuple[np.ndarray, np.ndarray]:
    w = int(round((rect.x1 - rect.x0) * ppm))
    h = int(round((rect.y1 - rect.y0) * ppm))
    gu = np.arange(0, w + MAP_STEP, MAP_STEP, dtype=np.float64)
    gv = np.arange(0, h + MAP_STEP, MAP_STEP, dtype=np.float64)
    U, V = np.meshgrid(gu, gv)
    pts = np.column_stack([rect.x0 + (U.ravel() + 0.5) / ppm, rect.y1 - (V.ravel() + 0.5) / ppm,
                           np.full(U.size, z)])
    px = view.project(pts).reshape(len(gv), len(gu), 2).astype(np.float32)
    xs = np.arange(w, dtype=np.float32) / MAP_STEP
    ys = np.arange(h, dtype=np.float32) / MAP_STEP
    mx, my = np.meshgrid(xs, ys)
    map_x = cv2.remap(np.ascontiguousarray(px[..., 0]), mx, my, cv2.INTER_LINEAR)
    map_y = cv2.remap(np.ascontiguousarray(px[..., 1]), mx, my, cv2.INTER_LINEAR)
    return map_x, map_y


@lru_cache(maxsize=64)
def _maps_cached(view_key: str, view: View, rect: Rect, z: float, ppm: float):
    return _maps(view, rect, z, ppm)


def plane_picture(image: np.ndarray, view: View, rect: Rect, z: float, ppm: float) -> Plane:
    """The frame warped onto the plane ``z`` over ``rect`` (see :class:`Plane`)."""
    key = repr((view.camera.to_json(), view.pose.to_json()))
    mx, my = _maps_cached(key, view, rect, float(z), float(ppm))
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return Plane(rect, float(z), float(ppm), out)


def camera_foot(view: View) -> np.ndarray:
    """The camera's position (table mm, x, y, height)."""
    return view.pose.camera_position


def sweep(view: View, xy: tuple[float, float], z_from: float, z_to: float) -> np.ndarray:
    """Where, in a top-down picture of the plane ``z_from``, a point at ``xy`` and height
    ``z_to`` appears relative to the point at ``xy`` and height ``z_from`` (table mm): the shift
    along the line from the camera's foot that parallax gives it."""
    C = view.pose.camera_position
    P = np.array([xy[0], xy[1], z_to])
    s = (C[2] - z_from) / (C[2] - z_to)
    seen = C[:2] + (P[:2] - C[:2]) * s
    return seen - np.asarray(xy, float)


def free_table(zones: ZoneLayout) -> np.ndarray:
    """Table points (N×2) where no piece lies by the layout: the bands between the zones and
    the margins inside the markers, where the background's colour is measured."""
    w, d = zones.width_mm, zones.depth_mm
    pts = []
    rows = [r.rect for r in zones.areas]
    near = max((r.y1 for r in rows if r.y1 < d / 2), default=150.0)
    far = min((r.y0 for r in rows if r.y0 > d / 2), default=d - 150.0)
    mid0 = min(zones.tray.y0, zones.pool.y0)
    mid1 = max(zones.tray.y1, zones.pool.y1)
    for y0, y1 in ((near + 1.0, mid0 - 1.0), (mid1 + 1.0, far - 1.0)):
        if y1 - y0 >= 3:
            xs = np.arange(40.0, w - 40.0, 4.0)
            ys = np.linspace(y0, y1, 3)
            pts.append(np.array([[x, y] for x in xs for y in ys]))
    gap0, gap1 = zones.tray.x1 + 2.0, zones.pool.x0 - 2.0
    if gap1 - gap0 >= 3:
        pts.append(np.array([[x, y] for x in np.linspace(gap0, gap1, 3) for y in np.arange(mid0, mid1, 4.0)]))
    return np.concatenate(pts) if pts else np.zeros((0, 2))


def sample(image: np.ndarray, view: View, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
    """The frame's BGR at table points ``xy`` (N×2) at height ``z`` (nearest pixel; points
    outside the frame are left out)."""
    if not len(xy):
        return np.zeros((0, 3), np.uint8)
    px = view.project(np.column_stack([xy, np.full(len(xy), z)]))
    h, w = image.shape[:2]
    ij = np.round(px).astype(int)
    ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
    return image[ij[ok, 1], ij[ok, 0]]


__all__ = ["Plane", "plane_picture", "sweep", "free_table", "sample", "camera_foot", "FrameColours"]
