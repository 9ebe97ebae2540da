"""The pinhole canvas every game's synthetic table is drawn on.

Each game's renderer paints its own pieces, but they all start the same way: the shot's camera
as a pinhole canvas (:func:`companion.synth.optics.canvas_for`, bent by the lens afterwards), its
projection of table points, homographies of planes in the scene, the linear image and the id map
(which piece each pixel shows), the table top, and the light on the table plane with the shadows
and contact darkening of what stands on it. :class:`Canvas` holds that common part once.
"""

from __future__ import annotations

import cv2
import numpy as np

import threading
from collections import OrderedDict

from companion.synth import optics, textures
from companion.synth.scene import Shot

#: the last table tops drawn (a video draws the same one, by the same camera, for every frame
#: whose scene changed: about a third of a frame's drawing time), keyed by all they depend on
_TABLES: OrderedDict[tuple, np.ndarray] = OrderedDict()
_TABLES_KEPT = 2
_TABLES_LOCK = threading.Lock()


class Canvas:
    """One render in progress: the pinhole canvas, its projection, the light, the buffers.

    ``salt`` seeds the renderer's own random generator (``[shot.seed, salt]``): each game's
    renderer has its own, so the textures it draws do not change when another game's do."""

    def __init__(self, shot: Shot, salt: int):
        self.shot = shot
        self.canvas = optics.canvas_for(shot.view.camera)
        self.K = self.canvas.K
        self.R = shot.view.pose.R
        self.t = shot.view.pose.t
        self.P = self.K @ np.hstack([self.R, self.t[:, None]])
        self.C = shot.view.pose.camera_position
        self.L = shot.light.direction
        self.light = np.asarray(shot.light.colour, np.float32)
        self.ambient = np.asarray(shot.light.ambient, np.float32)
        self.rng = np.random.default_rng([shot.seed, salt])
        self.w, self.h = self.canvas.size
        self.img = np.zeros((self.h, self.w, 3), np.float32)
        self.ids = np.zeros((self.h, self.w), np.int32)

    # ------------------------------------------------------------------------ projection
    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table points (N×3, mm) to canvas pixels (N×2) through the pinhole."""
        p = np.asarray(pts, float) @ self.P[:, :3].T + self.P[:, 3]
        return p[:, :2] / p[:, 2:3]

    def plane_homography(self, origin: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Plane coordinates (s, t, 1), point = origin + s·a + t·b, to canvas pixels."""
        return self.K @ np.column_stack([self.R @ a, self.R @ b, self.R @ origin + self.t])

    def box(self, pts_px: np.ndarray, before: int = 1, after: int = 2
            ) -> tuple[int, int, int, int] | None:
        """The canvas box (x0, y0, x1, y1) round some pixels, ``before`` pixels of margin on the
        low side and ``after`` on the high side, clipped; None when nothing of it is on the
        canvas or a point is not finite."""
        if not np.all(np.isfinite(pts_px)):
            return None
        x0 = max(int(np.floor(pts_px[:, 0].min())) - before, 0)
        y0 = max(int(np.floor(pts_px[:, 1].min())) - before, 0)
        x1 = min(int(np.ceil(pts_px[:, 0].max())) + after, self.w)
        y1 = min(int(np.ceil(pts_px[:, 1].max())) + after, self.h)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def fill(self, target: np.ndarray, poly_px: np.ndarray, value) -> None:
        """Fill the convex hull of some pixels in ``target`` (sub-pixel accurate)."""
        if len(poly_px) < 3 or not np.all(np.isfinite(poly_px)):
            return
        hull = cv2.convexHull(np.round(poly_px * 16).astype(np.int32))
        cv2.fillConvexPoly(target, hull, value, cv2.LINE_8, 4)

    def warp_into(self, tex: np.ndarray, H: np.ndarray, quad_px: np.ndarray,
                  margin: tuple[int, int] = (1, 2)) -> None:
        """Warp a texture whose pixels map to the canvas by ``H`` into the image, only where it
        falls (``quad_px``: its outline on the canvas, ``margin`` round it as :meth:`box`);
        the rest is left as it is."""
        box = self.box(quad_px, *margin)
        if box is None:
            return
        x0, y0, x1, y1 = box
        T = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ H
        roi = np.ascontiguousarray(self.img[y0:y1, x0:x1])
        cv2.warpPerspective(tex, T, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        self.img[y0:y1, x0:x1] = roi

    # ------------------------------------------------------------------------ the table plane
    def table(self) -> None:
        """The table top's texture over the whole canvas, tinted."""
        shot = self.shot
        tex = textures.table_texture(shot.table, shot.table_variant)
        ppm = textures.TABLE_PX_PER_MM
        sx, sy = shot.table_shift
        # texture pixel (u, v) -> table (u/ppm + sx, v/ppm + sy)
        S = np.array([[1 / ppm, 0, sx], [0, 1 / ppm, sy], [0, 0, 1]])
        H = self.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])) @ S
        tint = np.asarray(shot.table_tint, np.float32)
        key = (shot.table, shot.table_variant, H.tobytes(), tint.tobytes(), self.w, self.h)
        with _TABLES_LOCK:
            drawn = _TABLES.get(key)
            if drawn is not None:
                _TABLES.move_to_end(key)
        if drawn is None:
            # the texture wraps round: every pixel of the canvas is drawn
            drawn = cv2.warpPerspective(tex, H, (self.w, self.h), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_WRAP)
            drawn *= tint
            with _TABLES_LOCK:
                _TABLES[key] = drawn
                while len(_TABLES) > _TABLES_KEPT:
                    _TABLES.popitem(last=False)
        self.img[...] = drawn

    def light_plane(self, shadows: list[np.ndarray], contacts: list[np.ndarray], *,
                    pad: tuple[int, int], shadow_blur: float, contact_blur: float,
                    contact_strength: float) -> None:
        """Light the table plane (everything drawn so far lies on it): the ambient light plus the
        direct light, except in ``shadows`` (canvas polygons of shadows cast on the plane), and
        a soft darkening round ``contacts`` (the feet of what stands on it). The whole canvas
        gets the unshadowed light; only the box round shadows and contacts (``pad``: its margin
        before and after) is shaded pixel by pixel, with the two masks blurred by
        ``shadow_blur`` and ``contact_blur`` pixels."""
        lam = max(0.0, -float(self.L[2]))
        base = self.ambient + self.light * lam
        cv2.multiply(self.img, tuple(float(v) for v in base) + (0.0,), dst=self.img)
        polys = [p for p in shadows + contacts if np.all(np.isfinite(p))]
        if not polys:
            return
        box = self.box(np.concatenate(polys), *pad)
        if box is None:
            return
        x0, y0, x1, y1 = box
        off = np.array([x0, y0], float)
        shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
        contact = np.zeros_like(shadow)
        for p in shadows:
            self.fill(shadow, p - off, 1.0)
        for p in contacts:
            self.fill(contact, p - off, 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), shadow_blur)
        contact = cv2.GaussianBlur(contact, (0, 0), contact_blur)
        occl = 1.0 - contact_strength * contact
        direct = (lam * (1.0 - shadow) * occl)[:, :, None]
        factor = (self.ambient[None, None, :] * occl[:, :, None]
                  + self.light[None, None, :] * direct) / base
        self.img[y0:y1, x0:x1] *= factor
