"""Drawing a La Ville des Nains table as a webcam sees it, with an id map for the ground truth.

The same camera model, optics, table tops, lights and arms as the Haut les Cubes renderer
(:mod:`companion.synth.render`): everything is drawn on the pinhole canvas of the shared
:class:`~companion.vision.camera.View`, then bent by the lens (:mod:`companion.synth.optics`), so a
table point lands exactly where ``View.project`` puts it.

Pieces here stand in heaps and stacks of every shape, so the drawing is deferred:

* every face of every solid (:mod:`companion.vision.nains.solids`) is rasterised into a depth
  buffer, keeping per pixel the nearest surface's albedo, normal and piece id (the table plane,
  its markers and the dice mat lie underneath everything);
* a shadow map seen from the light (an orthographic depth image of every solid and of the arm)
  tells which pixels the light does not reach, on the table and on the pieces alike;
* each pixel is then lit: ambient light (less of it on faces turned from the sky and at the
  foot of pieces) plus the directional light where it is not shadowed;
* the arm, held above everything, is drawn last, as in the other renderers.

Faces are painted wood: the colour with a faint mottle, darker along the rounded edges (the
ridge of a roof shows as a line), and a cylinder's side is shaded smoothly. The dice carry their
faces: colours, or the kobold die's black pips and kobold head on ivory.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.synth import bodies as B
from companion.synth import optics, textures
from companion.synth.nains.scene import NainsScene, Piece, pieces
from companion.synth.scene import Shot
from companion.vision.nains.kit import DIE_MM
from companion.vision.nains.marks import marks

#: id map values: piece n of :func:`~companion.synth.nains.scene.pieces` is PIECE_ID + n
PIECE_ID, HAND_ID, MARKER_ID, MAT_ID, SHEET_ID = 1000, 900, 800, 700, 600
#: stone paints and die faces (BGR albedo, 0–1)
ALBEDO: dict[str, tuple[float, float, float]] = {
    "red": (0.10, 0.09, 0.68), "orange": (0.07, 0.38, 0.88), "yellow": (0.09, 0.72, 0.86),
    "violet": (0.48, 0.15, 0.36), "blue": (0.60, 0.28, 0.07), "white": (0.86, 0.86, 0.84),
    "ivory": (0.80, 0.84, 0.86),
}
#: the kobold die is ivory with black marks
MARK_ALBEDO = 0.05
PAPER_ALBEDO = 0.90
INK_ALBEDO = 0.05
SHEET_PPM = 4.0
MARKER_PAPER_MM = 60.0
SHADOW_RES_MM = 0.7
SHADOW_BIAS_MM = 0.9
EDGE_MM = 0.8


@dataclass(frozen=True)
class Drawn:
    """The picture before the sensor: ``linear`` (float BGR, light units) and ``ids`` (which
    piece each pixel shows), both on the pinhole canvas."""

    linear: np.ndarray
    ids: np.ndarray


@dataclass(frozen=True)
class RenderedNains:
    """A rendered frame: ``image`` (BGR uint8, the camera's size) and ``ids`` (the same size)."""

    image: np.ndarray
    ids: np.ndarray


def _sky(nz: np.ndarray) -> np.ndarray:
    """Share of the ambient light a surface receives: all of the sky facing up, about half of it
    on a vertical face (as the other renderers)."""
    return 0.6 + 0.4 * np.clip(nz, 0.0, None)


@lru_cache(maxsize=4)
def _mottle() -> np.ndarray:
    rng = np.random.default_rng(77)
    n = cv2.GaussianBlur(rng.standard_normal((256, 256)).astype(np.float32), (0, 0), 2.5)
    n /= max(float(n.std()), 1e-6)
    n.setflags(write=False)
    return n


@lru_cache(maxsize=8)
def _marker_sheet(marker_id: int) -> np.ndarray:
    side = int(round(MARKER_PAPER_MM * SHEET_PPM))
    inner = int(round(40.0 * SHEET_PPM))
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    marker = cv2.aruco.generateImageMarker(d, marker_id, inner)
    sheet = np.full((side, side), 255, np.uint8)
    o = (side - inner) // 2
    sheet[o:o + inner, o:o + inner] = marker
    out = np.where(sheet[:, :, None] > 127, np.float32(PAPER_ALBEDO), np.float32(INK_ALBEDO))
    out = np.repeat(out, 3, axis=2).astype(np.float32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _mat_sheet(w_mm: float, h_mm: float, colour: tuple[float, float, float]) -> np.ndarray:
    """A felt dice mat: the felt's colour with a fuzzy texture and a stitched darker border."""
    ppm = 2.0
    w, h = int(round(w_mm * ppm)), int(round(h_mm * ppm))
    rng = np.random.default_rng(5)
    fuzz = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
    shade = 1.0 + 0.06 * fuzz / max(float(fuzz.std()), 1e-6)
    border = int(round(4 * ppm))
    shade[:border, :] *= 0.7
    shade[-border:, :] *= 0.7
    shade[:, :border] *= 0.7
    shade[:, -border:] *= 0.7
    out = shade[:, :, None] * np.asarray(colour, np.float32)[None, None, :]
    out = out.astype(np.float32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _kobold_marks(label: str) -> np.ndarray:
    """The marks of a kobold die face at 8 px/mm, slightly softened (paint edges)."""
    out = cv2.GaussianBlur(marks(label, 8.0), (0, 0), 0.6)
    out.setflags(write=False)
    return out


class _Painter:
    """One render in progress (see the module docstring)."""

    def __init__(self, scene: NainsScene, shot: Shot):
        self.scene, self.shot = scene, shot
        cam = shot.view.camera
        self.canvas = optics.canvas_for(cam)
        self.K = self.canvas.K
        self.R = shot.view.pose.R
        self.t = shot.view.pose.t
        self.P = self.K @ np.hstack([self.R, self.t[:, None]])
        self.C = shot.view.pose.camera_position
        self.L = shot.light.direction
        self.light = np.asarray(shot.light.colour, np.float32)
        self.ambient = np.asarray(shot.light.ambient, np.float32)
        w, h = self.canvas.size
        self.w, self.h = w, h
        self.albedo = np.zeros((h, w, 3), np.float32)
        self.normal = np.zeros((h, w, 3), np.float32)
        self.ids = np.zeros((h, w), np.int32)
        # viewing rays: table-frame directions scaled so that their camera-frame z is 1, as a
        # linear map of the pixel (u, v, 1); the depth buffer starts as the table plane's depth
        self.M = (self.R.T @ np.linalg.inv(self.K)).astype(np.float64)
        u = np.arange(w, dtype=np.float32)[None, :]
        v = np.arange(h, dtype=np.float32)[:, None]
        M = self.M.astype(np.float32)
        rz = M[2, 0] * u + M[2, 1] * v + M[2, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            depth = np.where(rz < -1e-9, np.float32(-self.C[2]) / rz, np.inf)
        self.depth = depth.astype(np.float32)
        centre = np.array([scene.zones.width_mm / 2, scene.zones.depth_mm / 2, 0.0])
        self.px_per_mm = float(self.K[0, 0] / max(np.linalg.norm(centre - self.C), 1.0))

    # ---------------------------------------------------------------------- projection
    def rays_at(self, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """Viewing rays (table frame, camera-frame z = 1) of canvas pixels."""
        return np.column_stack([xs, ys, np.ones(len(xs))]) @ self.M.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, float) @ self.P[:, :3].T + self.P[:, 3]
        return p[:, :2] / p[:, 2:3]

    def plane_homography(self, origin: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self.K @ np.column_stack([self.R @ a, self.R @ b, self.R @ origin + self.t])

    # ---------------------------------------------------------------------- the table plane
    def table(self) -> None:
        shot = self.shot
        tex = textures.table_texture(shot.table, shot.table_variant)
        ppm = textures.TABLE_PX_PER_MM
        sx, sy = shot.table_shift
        S = np.array([[1 / ppm, 0, sx], [0, 1 / ppm, sy], [0, 0, 1]])
        H = self.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])) @ S
        cv2.warpPerspective(tex, H, (self.w, self.h), dst=self.albedo, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_WRAP)
        self.albedo *= np.asarray(shot.table_tint, np.float32)

    def sheet(self, tex: np.ndarray, px_to_table: np.ndarray, ident: int) -> None:
        """Lay a flat sheet (an albedo texture) on the table: ``px_to_table`` (3×3) takes its
        pixel centres (u, v, 1) to table millimetres (x, y, 1)."""
        A = np.asarray(px_to_table, float)
        ppm = 1.0 / max(float(np.hypot(A[0, 0], A[1, 0])), 1e-9)
        sigma = 0.45 * ppm / max(self.px_per_mm, 1e-3)
        if sigma > 0.3:
            tex = _blurred(tex, round(sigma * 4) / 4)
        H = self.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])) @ A
        hs, ws = tex.shape[:2]
        corners = np.array([[-0.5, -0.5], [ws - 0.5, -0.5], [ws - 0.5, hs - 0.5], [-0.5, hs - 0.5]])
        quad = cv2.perspectiveTransform(corners[None], H)[0]
        x0 = max(int(np.floor(quad[:, 0].min())) - 1, 0)
        y0 = max(int(np.floor(quad[:, 1].min())) - 1, 0)
        x1 = min(int(np.ceil(quad[:, 0].max())) + 2, self.w)
        y1 = min(int(np.ceil(quad[:, 1].max())) + 2, self.h)
        if x1 <= x0 or y1 <= y0:
            return
        T = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ H
        roi = np.ascontiguousarray(self.albedo[y0:y1, x0:x1])
        cv2.warpPerspective(tex, T, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        self.albedo[y0:y1, x0:x1] = roi
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        self.ids[y0:y1, x0:x1][mask > 0] = ident

    def markers_and_mat(self) -> None:
        z = self.scene.zones
        corners = {0: (0.0, 0.0), 1: (z.width_mm, 0.0), 2: (z.width_mm, z.depth_mm), 3: (0.0, z.depth_mm)}
        half = MARKER_PAPER_MM / 2
        for mid, (cx, cy) in corners.items():
            self.sheet(_marker_sheet(mid), upright(SHEET_PPM, (cx - half, cy + half)), MARKER_ID + mid)
        t = z.tray
        mat = _mat_sheet(t.x1 - t.x0, t.y1 - t.y0, tuple(self.scene.mat))
        self.sheet(mat, upright(2.0, (t.x0, t.y1)), MAT_ID)

    # ---------------------------------------------------------------------- solids
    def _raster(self, poly: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Canvas pixels (ys, xs) inside a convex polygon (canvas px)."""
        if not np.all(np.isfinite(poly)):
            return None
        x0 = max(int(np.floor(poly[:, 0].min())), 0)
        y0 = max(int(np.floor(poly[:, 1].min())), 0)
        x1 = min(int(np.ceil(poly[:, 0].max())) + 1, self.w)
        y1 = min(int(np.ceil(poly[:, 1].max())) + 1, self.h)
        if x1 <= x0 or y1 <= y0:
            return None
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        hull = cv2.convexHull(np.round((poly - [x0, y0]) * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
        ys, xs = np.nonzero(mask)
        if not len(ys):
            return None
        return ys + y0, xs + x0

    def solid(self, piece: Piece, ident: int, look: int | None = None) -> None:
        """Paints ``piece`` (``ident`` in the id map); ``look`` seeds its tint and mottle (by
        default its id): a stone keeps its look from one position of a game to the next."""
        solid = piece.solid
        sh = solid.shape
        look = ident if look is None else look
        rng = np.random.default_rng([self.shot.seed, look, 3])
        labels = dict(piece.labels)
        if piece.kind == "die":
            base = None
        else:
            base = np.asarray(ALBEDO[piece.colour], np.float32) * np.float32(1.0 + rng.normal(0.0, 0.02))
        axis = np.array(solid.centre[:2])
        for k, face in enumerate(sh.faces):
            n = solid.normals[k]
            pts = solid.face_points(k)
            mid = pts.mean(axis=0)
            if float(n @ (self.C - mid)) <= 1e-9:
                continue
            hit = self._raster(self.project(pts))
            if hit is None:
                continue
            ys, xs = hit
            rays = self.rays_at(ys, xs)
            d = float(n @ pts[0])
            denom = rays @ n
            ok = denom < -1e-9
            s = np.full(len(ys), np.inf)
            s[ok] = (d - float(n @ self.C)) / denom[ok]
            nearer = s < self.depth[ys, xs] - 1e-4
            if not nearer.any():
                continue
            ys, xs, s, rays = ys[nearer], xs[nearer], s[nearer], rays[nearer]
            X = self.C + s[:, None] * rays
            # face coordinates: along the first edge, and across it in the face's plane
            a = pts[1] - pts[0]
            a /= np.linalg.norm(a)
            b = np.cross(n, a)
            rel = X - pts[0]
            fs, ft = rel @ a, rel @ b
            poly2 = np.column_stack([(pts - pts[0]) @ a, (pts - pts[0]) @ b])
            smooth = sh.faces[k].kind == "side" and len(sh.faces) > 10
            if smooth:
                h = sh.height
                edge = np.minimum(X[:, 2] - solid.centre[2], solid.centre[2] + h - X[:, 2])
            else:
                edge = _edge_distance(poly2, fs, ft)
            shade = 0.62 + 0.38 * np.clip(edge / EDGE_MM, 0.0, 1.0)
            mot = _mottle()
            mi = (np.round(fs * 3).astype(int) + 37 * k) % 256
            mj = (np.round(ft * 3).astype(int) + 91 * look) % 256
            shade = shade * (1.0 + 0.025 * mot[mj, mi])
            if piece.kind == "die":
                colour = self._die_face(labels.get(face.tag, ""), piece.die, fs, ft, poly2)
            else:
                tint = np.float32(1.0 + rng.normal(0.0, 0.015))
                colour = np.broadcast_to(base * tint, (len(ys), 3))
            self.albedo[ys, xs] = (colour * shade[:, None]).astype(np.float32)
            if smooth:
                radial = X[:, :2] - axis
                radial /= np.maximum(np.linalg.norm(radial, axis=1, keepdims=True), 1e-9)
                self.normal[ys, xs] = np.column_stack([radial, np.zeros(len(ys))])
            else:
                self.normal[ys, xs] = n
            self.depth[ys, xs] = s
            self.ids[ys, xs] = ident

    def _die_face(self, label: str, kind: str, fs: np.ndarray, ft: np.ndarray, poly2: np.ndarray) -> np.ndarray:
        if kind == "colour":
            return np.broadcast_to(np.asarray(ALBEDO.get(label, ALBEDO["white"]), np.float32), (len(fs), 3))
        marks = _kobold_marks(label)
        n = marks.shape[0]
        u = np.clip((fs / DIE_MM * n).astype(int), 0, n - 1)
        v = np.clip(((1.0 - ft / DIE_MM) * n).astype(int), 0, n - 1)
        m = marks[v, u][:, None]
        ivory = np.asarray(ALBEDO["ivory"], np.float32)
        return (ivory * (1 - m) + MARK_ALBEDO * m).astype(np.float32)

    # ---------------------------------------------------------------------- light
    def shadow_map(self, all_pieces: list[Piece], hand: list[B.Capsule]) -> tuple:
        L = self.L / np.linalg.norm(self.L)
        helper = np.array([0.0, 0.0, 1.0]) if abs(L[2]) < 0.95 else np.array([1.0, 0.0, 0.0])
        e1 = np.cross(L, helper)
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(L, e1)
        z = self.scene.zones
        box = np.array([[x, y, 0.0] for x in (-150.0, z.width_mm + 150.0) for y in (-150.0, z.depth_mm + 150.0)])
        uv = np.column_stack([box @ e1, box @ e2])
        u0, v0 = uv.min(axis=0)
        u1, v1 = uv.max(axis=0)
        res = SHADOW_RES_MM
        W, H = int(math.ceil((u1 - u0) / res)) + 1, int(math.ceil((v1 - v0) / res)) + 1
        smap = np.full((H, W), np.inf, np.float32)

        def fill(poly_uv: np.ndarray, depth_of) -> None:
            px = (poly_uv - [u0, v0]) / res
            x0 = max(int(np.floor(px[:, 0].min())), 0)
            y0 = max(int(np.floor(px[:, 1].min())), 0)
            x1 = min(int(np.ceil(px[:, 0].max())) + 1, W)
            y1 = min(int(np.ceil(px[:, 1].max())) + 1, H)
            if x1 <= x0 or y1 <= y0:
                return
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            hull = cv2.convexHull(np.round((px - [x0, y0]) * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
            ys, xs = np.nonzero(mask)
            if not len(ys):
                return
            uu = (xs + x0) * res + u0
            vv = (ys + y0) * res + v0
            dep = depth_of(uu, vv)
            cur = smap[ys + y0, xs + x0]
            smap[ys + y0, xs + x0] = np.minimum(cur, dep)

        for p in all_pieces:
            solid = p.solid
            for k, face in enumerate(solid.shape.faces):
                n = solid.normals[k]
                nl = float(n @ L)
                if nl >= -1e-6:
                    continue
                pts = solid.face_points(k)
                d = float(n @ pts[0])
                a1, a2 = float(n @ e1), float(n @ e2)
                fill(np.column_stack([pts @ e1, pts @ e2]),
                     lambda uu, vv, d=d, a1=a1, a2=a2, nl=nl: (d - a1 * uu - a2 * vv) / nl)
        for cap in hand:
            pts = cap.points()
            w = float((pts @ L).min())
            fill(np.column_stack([pts @ e1, pts @ e2]), lambda uu, vv, w=w: np.full(len(uu), w))
        return smap, (e1, e2, L, u0, v0, res)

    def light_up(self, all_pieces: list[Piece], hand: list[B.Capsule]) -> np.ndarray:
        smap, (e1, e2, L, u0, v0, res) = self.shadow_map(all_pieces, hand)
        # the table plane: shadowed wherever anything lies between it and the light, found by
        # warping the map's occupancy into the picture (canvas -> table -> light space)
        occupied = np.isfinite(smap).astype(np.float32)
        Hplane = self.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0]))
        A = np.array([[e1[0] / res, e1[1] / res, -u0 / res], [e2[0] / res, e2[1] / res, -v0 / res],
                      [0.0, 0.0, 1.0]])
        to_map = A @ np.linalg.inv(Hplane)
        shadow = cv2.warpPerspective(occupied, to_map, (self.w, self.h),
                                     flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
        # the pieces: each pixel's own point, compared with the map's depth there
        ys, xs = np.nonzero(self.ids >= PIECE_ID)
        if len(ys):
            X = self.C + self.depth[ys, xs][:, None].astype(np.float64) * self.rays_at(ys, xs)
            mx = ((X @ e1) - u0) / res
            my = ((X @ e2) - v0) / res
            ix = np.clip(np.round(mx).astype(int), 0, smap.shape[1] - 1)
            iy = np.clip(np.round(my).astype(int), 0, smap.shape[0] - 1)
            shadow[ys, xs] = ((X @ L) > smap[iy, ix] + SHADOW_BIAS_MM).astype(np.float32)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.6, 0.7 * self.px_per_mm))
        ao = self._contact(all_pieces)
        lam_table = max(0.0, -float(L[2]))
        direct = (lam_table * (1.0 - shadow))[:, :, None] * self.light[None, None, :]
        light = ao[:, :, None] * self.ambient[None, None, :] + direct
        if len(ys):
            n = self.normal[ys, xs].astype(np.float64)
            lam = np.clip(-(n @ L), 0.0, None)
            light[ys, xs] = (self.ambient[None, :] * _sky(n[:, 2])[:, None]
                             + self.light[None, :] * (lam * (1.0 - shadow[ys, xs]))[:, None])
        return self.albedo * light

    def _contact(self, all_pieces: list[Piece]) -> np.ndarray:
        """Less ambient light at the foot of every piece standing on the table."""
        mask = np.zeros((self.h, self.w), np.float32)
        for p in all_pieces:
            pts = p.solid.points
            foot = pts[pts[:, 2] < 1e-6]
            if len(foot) < 3:
                continue
            c = foot.mean(axis=0)
            poly = self.project(c + (foot - c) * 1.12)
            if np.all(np.isfinite(poly)):
                hull = cv2.convexHull(np.round(poly * 16).astype(np.int32))
                cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_8, 4)
        mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, 2.5 * self.px_per_mm))
        return (1.0 - 0.45 * mask).astype(np.float32)

    def hand_part(self, img: np.ndarray, cap: B.Capsule) -> None:
        pts = self.project(cap.points())
        lam = max(0.0, -float(self.L[2]))
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (self.ambient + self.light * lam * 0.55)
        self._fill(img, pts, tuple(float(c) for c in dark))
        shift = -np.array([self.L[0], self.L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = B.Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (self.ambient + self.light * lam)
        self._fill(img, self.project(core.points()), tuple(float(c) for c in bright))
        self._fill(self.ids, pts, HAND_ID)

    def _fill(self, target: np.ndarray, poly: np.ndarray, value) -> None:
        if not np.all(np.isfinite(poly)):
            return
        hull = cv2.convexHull(np.round(poly * 16).astype(np.int32))
        cv2.fillConvexPoly(target, hull, value, cv2.LINE_8, 4)


def upright(ppm: float, top_left: tuple[float, float]) -> np.ndarray:
    """The pixel-to-table map of a sheet at ``ppm`` px/mm lying square on the table, its top-left
    corner at ``top_left`` (its rows along +x, its columns down -y)."""
    return np.array([[1.0 / ppm, 0.0, top_left[0] + 0.5 / ppm],
                     [0.0, -1.0 / ppm, top_left[1] - 0.5 / ppm], [0.0, 0.0, 1.0]])


def _edge_distance(poly: np.ndarray, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Distance (mm) from points (s, t) inside a convex polygon to its nearest edge."""
    out = np.full(len(s), np.inf)
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        e = q - p
        length = float(np.hypot(*e))
        if length < 1e-9:
            continue
        out = np.minimum(out, np.abs((s - p[0]) * e[1] - (t - p[1]) * e[0]) / length)
    return out


@lru_cache(maxsize=32)
def _blurred_cached(key: int, sigma: float) -> np.ndarray:
    tex = _BLUR_SOURCES[key]
    out = cv2.GaussianBlur(tex, (0, 0), sigma)
    out.setflags(write=False)
    return out


_BLUR_SOURCES: dict[int, np.ndarray] = {}


def _blurred(tex: np.ndarray, sigma: float) -> np.ndarray:
    key = id(tex)
    _BLUR_SOURCES[key] = tex
    return _blurred_cached(key, sigma)


def look_of(piece: Piece) -> int:
    """What a piece's look (its tint, its mottle) is seeded by: what the piece is and where it
    stands, not its place in the scene's list, so that a stone keeps its look when another is
    taken from the pool or built (a physical stone does not change colour when its neighbour
    moves)."""
    x, y, _ = piece.solid.centre
    where = (piece.building, piece.level) if piece.zone.startswith("player:") or piece.zone == "kobold" \
        else (int(round(float(x))), int(round(float(y))))
    key = (piece.kind, piece.zone, piece.colour, piece.shape, piece.die, where)
    return PIECE_ID + zlib.crc32(repr(key).encode()) % 100_000


def draw(scene: NainsScene, shot: Shot, *, sheets: tuple = ()) -> Drawn:
    """The linear picture of ``scene`` on the pinhole canvas. ``sheets``: extra flat sheets,
    each ``(albedo, px_to_table, id)`` (the colour calibration's sheet)."""
    p = _Painter(scene, shot)
    all_pieces = pieces(scene)
    hand = B.hand_capsules(scene.hand) if scene.hand is not None else []
    p.table()
    p.markers_and_mat()
    for tex, px_to_table, ident in sheets:
        p.sheet(tex, px_to_table, ident)
    for n, piece in enumerate(all_pieces):
        p.solid(piece, PIECE_ID + n, look_of(piece))
    linear = p.light_up(all_pieces, hand)
    for cap in hand:
        p.hand_part(linear, cap)
    return Drawn(linear, p.ids)


def expose(drawn: Drawn, shot: Shot) -> RenderedNains:
    """The frame a camera makes of a drawn picture: the lens, then the sensor (seeded by
    ``shot.seed``, so two exposures of one picture differ only by their noise)."""
    canvas = optics.canvas_for(shot.view.camera)
    size = shot.view.camera.size
    linear = optics.distort(canvas, drawn.linear, size)
    ids = optics.distort(canvas, drawn.ids, size, nearest=True)
    image = optics.sensor(linear, np.random.default_rng([shot.seed, 2]), exposure=shot.exposure,
                          noise=shot.noise, blur=shot.blur, jpeg=shot.jpeg)
    return RenderedNains(image, ids)


def render_nains(scene: NainsScene, shot: Shot) -> RenderedNains:
    """Draw ``scene`` as ``shot``'s camera sees it: the frame and its id map."""
    return expose(draw(scene, shot), shot)


def over_arm(drawn: Drawn, hand, shot: Shot) -> Drawn:
    """A drawn picture with an arm held over it: the arm painted on top (it is above every
    piece) and its shadow laid on what lies below, the directional light taken away inside it
    (where the picture is the table or a piece's top; a quicker stand-in for drawing the whole
    scene again, used for the frames of a video where an arm passes)."""
    cam = shot.view.camera
    canvas = optics.canvas_for(cam)
    K, R, t = canvas.K, shot.view.pose.R, shot.view.pose.t
    P = K @ np.hstack([R, t[:, None]])
    L = shot.light.direction
    light = np.asarray(shot.light.colour, np.float32)
    ambient = np.asarray(shot.light.ambient, np.float32)
    lam = max(0.0, -float(L[2]))

    def project(pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, float) @ P[:, :3].T + P[:, 3]
        return p[:, :2] / p[:, 2:3]

    linear = drawn.linear.copy()
    ids = drawn.ids.copy()
    h, w = ids.shape
    caps = B.hand_capsules(hand)
    if L[2] < -1e-6:
        mask = np.zeros((h, w), np.float32)
        for cap in caps:
            pts = cap.points()
            on_table = pts - (pts[:, 2] / L[2])[:, None] * L
            poly = project(on_table)
            if np.all(np.isfinite(poly)):
                cv2.fillConvexPoly(mask, cv2.convexHull(np.round(poly * 16).astype(np.int32)), 1.0, cv2.LINE_8, 4)
        mask = cv2.GaussianBlur(mask, (0, 0), 3.0)
        keep = (ambient / np.maximum(ambient + light * lam, 1e-6)).astype(np.float32)
        linear *= 1.0 - mask[:, :, None] * (1.0 - keep[None, None, :])
    for cap in caps:
        pts = project(cap.points())
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (ambient + light * lam * 0.55)
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        cv2.fillConvexPoly(linear, hull, tuple(float(c) for c in dark), cv2.LINE_8, 4)
        shift = -np.array([L[0], L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = B.Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (ambient + light * lam)
        cv2.fillConvexPoly(linear, cv2.convexHull(np.round(project(core.points()) * 16).astype(np.int32)),
                           tuple(float(c) for c in bright), cv2.LINE_8, 4)
        cv2.fillConvexPoly(ids, hull, HAND_ID, cv2.LINE_8, 4)
    return Drawn(linear, ids)
