"""Drawing a Gleeb's and Grues table as a webcam sees it, with exact ground truth.

Everything is drawn with the shared camera model on a pinhole canvas, then bent by the lens's
own distortion and passed through the sensor (:mod:`companion.synth.optics`), as the Haut les
Cubes renderer does, so a point lands exactly where ``View.project`` puts it. The table top and
the printed sheets (table markers, the board page, the colour sheet) are one plane, lit
together: ambient light everywhere, the directional light where no pyramid or arm casts a
shadow, a soft darkening where a pyramid stands.

Pyramids are true square pyramids of opaque plastic: each visible triangular face is a small
texture (albedo with a faint mottle, Lambert shading, a broad specular highlight of the light's
colour, the shadows other pyramids and the arm cast on it) warped into place and kept where it
is nearer than what is already drawn (a depth buffer), so stacks, neighbours and tilted views
occlude each other exactly. Pyramids nested out of sight inside another are not drawn. The arm
is drawn last, over everything (it is held above the pieces).

An id map is painted alongside: which pyramid (or the arm, or a sheet) every pixel shows. The
truth (:mod:`.truth`) counts it to say how much of each pyramid the camera sees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.synth import optics
from companion.synth.bodies import Capsule, hand_capsules
from companion.synth.canvas import Canvas
from companion.synth.gleebs.scene import GleebsScene, Pyramid
from companion.synth.gleebs.sheets import SheetTexture, board_texture, marker_sheet
from companion.synth.gleebs.truth import GleebsTruth, make_truth
from companion.synth.scene import Shot
from companion.vision.gleebs.geometry import pyramid_points

#: id map values: 0 is the table
SHEET_ID, MARKER_ID, PYRAMID_ID, HAND_ID = 1, 10, 1000, 20_000

#: plastic albedos (BGR, 0–1): saturated toy colours, and a black that is not quite black
PYRAMID_ALBEDO: dict[str, tuple[float, float, float]] = {
    "red": (0.07, 0.08, 0.68),
    "yellow": (0.05, 0.66, 0.86),
    "green": (0.17, 0.50, 0.09),
    "blue": (0.62, 0.27, 0.05),
    "black": (0.045, 0.045, 0.05),
}
#: specular reflection of the plastic (share of the light) and its sharpness
SPECULAR = 0.07
SHININESS = 18.0
#: share of the light falling on the paper around a pyramid that its faces receive back
BOUNCE = 0.45
#: resolution of the pyramid face textures (pixels per millimetre)
FACE_PPM = 3.0


@dataclass(frozen=True)
class Solid:
    """A pyramid as drawn: its table-frame corners (4 base corners counter-clockwise, then the
    apex), and where it belongs: ``cell`` and ``level`` in its square's visible chain, or None
    for a pyramid off the board. ``ident`` is its value in the id map."""

    pyramid: Pyramid
    points: np.ndarray
    cell: tuple[int, int] | None
    level: int | None
    ident: int
    stack_index: int | None  # the index of the pyramid in its stack (bottom first)


@dataclass(frozen=True)
class Rendered:
    """A rendered frame: ``image`` (BGR uint8), its ``truth``, and the linear picture before the
    sensor (``linear``, float32) so a still scene can be exposed again with fresh noise."""

    image: np.ndarray
    truth: GleebsTruth
    linear: np.ndarray


def solids_of(scene: GleebsScene) -> list[Solid]:
    """Every pyramid the renderer draws (nested ones are inside another and are not)."""
    out: list[Solid] = []
    for stack in scene.stacks:
        axis = scene.axis(stack)
        for level, (i, pyr, z0, yaw) in enumerate(stack.seated()):
            pts = pyramid_points(axis, z0, pyr.size, yaw + scene.board.yaw_deg)
            out.append(Solid(pyr, pts, stack.cell, level, PYRAMID_ID + len(out), i))
    for loose in scene.loose:
        pts = pyramid_points(loose.xy, 0.0, loose.pyramid.size, loose.yaw)
        out.append(Solid(loose.pyramid, pts, None, None, PYRAMID_ID + len(out), None))
    return out


class _Canvas(Canvas):
    """One render in progress: the shared canvas, with a depth buffer for the pyramids."""

    def __init__(self, shot: Shot):
        super().__init__(shot, salt=11)
        self.Kinv = np.linalg.inv(self.K)
        self.depth = np.full((self.h, self.w), np.inf, np.float32)

    def sheet(self, sheet: SheetTexture, frame_to_table: np.ndarray, ident: int) -> None:
        """Lay a printed page flat on the table; ``frame_to_table`` (3×3) maps the sheet's frame
        (mm) to table (x, y). The page is drawn from the level of its texture whose resolution
        is nearest above the picture's (no finer: fine print would alias)."""
        G = self.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0]))
        H = G @ frame_to_table @ sheet.px_to_frame()
        h, w = sheet.albedo.shape[:2]
        c = cv2.perspectiveTransform(np.array([[[w / 2, h / 2], [w / 2 + 1, h / 2], [w / 2, h / 2 + 1]]],
                                               np.float64), H)[0]
        step = max(float(np.linalg.norm(c[1] - c[0])), float(np.linalg.norm(c[2] - c[0])), 1e-6)
        times = max(0, int(math.floor(math.log2(1.0 / step))))  # texture pixels per picture pixel
        sheet = sheet.halved(times)
        H = G @ frame_to_table @ sheet.px_to_frame()
        quad = cv2.perspectiveTransform(sheet.corners_px()[None], H)[0]
        roi = self.box(quad)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        T = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ H
        part = np.ascontiguousarray(self.img[y0:y1, x0:x1])
        cv2.warpPerspective(sheet.albedo, T, (x1 - x0, y1 - y0), dst=part, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        self.img[y0:y1, x0:x1] = part
        self.fill(self.ids, quad, ident)

    def shade_plane(self, solids: list[Solid], capsules: list[Capsule]) -> None:
        """Light the table plane: ambient plus direct light where nothing casts a shadow, and a
        soft darkening around the foot of each pyramid standing on it."""
        shadows, contacts = [], []
        for s in solids:
            poly = _shadow_on_z0(s.points, self.L)
            if poly is not None:
                shadows.append(self.project(poly))
            if s.points[0, 2] < 1e-6:
                foot = s.points[:4]
                ctr = foot.mean(axis=0)
                contacts.append(self.project(ctr + (foot - ctr) * 1.15))
        for cap in capsules:
            poly = _shadow_on_z0(cap.points(), self.L)
            if poly is not None:
                shadows.append(self.project(poly))
        self.light_plane(shadows, contacts, pad=(14, 15), shadow_blur=1.4, contact_blur=3.0,
                         contact_strength=0.22)

    # ---------------------------------------------------------------------------- pyramids
    def pyramid(self, solid: Solid, occluders: list[np.ndarray]) -> None:
        pts = solid.points
        apex = pts[4]
        albedo = np.asarray(PYRAMID_ALBEDO[solid.pyramid.colour], np.float32)
        rng = np.random.default_rng([self.shot.seed, 23, solid.ident])
        tint = np.float32(1.0 + rng.normal(0.0, 0.025))
        for k in range(4):
            p0, p1 = pts[k], pts[(k + 1) % 4]
            normal = np.cross(p1 - p0, apex - p0)
            normal /= np.linalg.norm(normal)
            mid = (p0 + p1 + apex) / 3
            if float(normal @ (self.C - mid)) <= 0:
                continue  # facing away from the camera
            self._face(p0, p1, apex, normal, albedo * tint, occluders, solid.ident, rng)

    def _face(self, p0: np.ndarray, p1: np.ndarray, apex: np.ndarray, n: np.ndarray,
              albedo: np.ndarray, occluders: list[np.ndarray], ident: int,
              rng: np.random.Generator) -> None:
        a = p1 - p0
        width = float(np.linalg.norm(a))
        a /= width
        up = apex - p0
        b = up - (up @ a) * a
        height = float(np.linalg.norm(b))
        b /= height
        ppm = FACE_PPM
        pw, ph = max(2, int(math.ceil(width * ppm))), max(2, int(math.ceil(height * ppm)))
        # texel centres in face coordinates (s along the base, t up the face)
        s = (np.arange(pw, dtype=np.float32) + 0.5) / ppm
        t = (np.arange(ph, dtype=np.float32) + 0.5) / ppm
        X = p0[None, None, :] + s[None, :, None] * a[None, None, :] + t[:, None, None] * b[None, None, :]
        lam = max(0.0, -float(n @ self.L))
        shadow = np.zeros((ph, pw), np.float32)
        if lam > 0:
            self._face_shadows(p0, a, b, n, occluders, shadow, ppm)
            shadow = cv2.GaussianBlur(shadow, (0, 0), 0.8)
        view = self.C[None, None, :] - X
        view /= np.linalg.norm(view, axis=2, keepdims=True)
        half = view - self.L[None, None, :]
        half /= np.linalg.norm(half, axis=2, keepdims=True)
        spec = SPECULAR * np.clip(half @ n, 0.0, 1.0) ** SHININESS if lam > 0 else np.zeros((ph, pw))
        mottle = 1.0 + 0.015 * rng.standard_normal((ph, pw)).astype(np.float32)
        sky = 0.6 + 0.4 * max(0.0, float(n[2]))
        # light bounced off the paper and table around the foot, seen by the lower half of
        # the face's view
        ground = (self.ambient + self.light * max(0.0, -float(self.L[2]))) * (BOUNCE * (1.0 - float(n[2])) / 2)
        lit = (1.0 - shadow)[:, :, None]
        tex = (albedo[None, None, :] * mottle[:, :, None]
               * ((self.ambient * sky + ground)[None, None, :] + self.light[None, None, :] * lam * lit)
               + self.light[None, None, :] * (spec.astype(np.float32)[:, :, None] * lit))
        tex = tex.astype(np.float32)
        H = self.plane_homography(p0 + (a + b) * (0.5 / ppm), a / ppm, b / ppm)
        tri = self.project(np.array([p0, p1, apex]))
        roi = self.box(tri)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        T = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ H
        warped = cv2.warpPerspective(tex, T, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        self.fill(mask, tri - np.array([x0, y0], float), 1)
        # depth of the face's plane along each pixel's ray (camera z, mm)
        nc = self.R @ n
        cc = float(nc @ (self.R @ p0 + self.t))
        coef = self.Kinv.T @ nc
        xs = np.arange(x0, x1, dtype=np.float64)
        ys = np.arange(y0, y1, dtype=np.float64)
        denom = coef[0] * xs[None, :] + coef[1] * ys[:, None] + coef[2]
        with np.errstate(divide="ignore"):
            z = (cc / denom).astype(np.float32)
        region = self.depth[y0:y1, x0:x1]
        keep = (mask > 0) & (z < region) & (z > 0)
        region[keep] = z[keep]
        self.img[y0:y1, x0:x1][keep] = warped[keep]
        self.ids[y0:y1, x0:x1][keep] = ident

    def _face_shadows(self, p0: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray,
                      occluders: list[np.ndarray], mask: np.ndarray, ppm: float) -> None:
        d = float(n @ p0)
        nl = float(n @ self.L)
        if nl >= -1e-9:
            return
        ph, pw = mask.shape
        for pts in occluders:
            side = pts @ n - d
            keep = side > 1e-6
            if keep.sum() < 3:
                continue
            p = pts[keep]
            tt = -side[keep] / nl
            proj = p + tt[:, None] * self.L
            rel = proj - p0
            su = rel @ a
            tv = rel @ b
            if su.max() < 0 or su.min() > pw / ppm or tv.max() < 0 or tv.min() > ph / ppm:
                continue
            px = np.stack([su * ppm - 0.5, tv * ppm - 0.5], axis=1)
            hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_8, 4)

    # ---------------------------------------------------------------------------- the arm
    def arm_part(self, cap: Capsule) -> None:
        pts = self.project(cap.points())
        lam = max(0.0, -float(self.L[2]))
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (self.ambient + self.light * lam * 0.55)
        self.fill(self.img, pts, tuple(float(c) for c in dark))
        shift = -np.array([self.L[0], self.L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (self.ambient + self.light * lam)
        self.fill(self.img, self.project(core.points()), tuple(float(c) for c in bright))
        self.fill(self.ids, pts, HAND_ID)


def _shadow_on_z0(points: np.ndarray, L: np.ndarray) -> np.ndarray | None:
    """Where ``points`` cast their shadow on the table plane along the light."""
    if L[2] >= -1e-9:
        return None
    keep = points[:, 2] >= -1e-6
    if keep.sum() < 3:
        return None
    p = points[keep]
    t = -p[:, 2] / L[2]
    return p + t[:, None] * L


def _rigid(origin: tuple[float, float], yaw_deg: float) -> np.ndarray:
    a = math.radians(yaw_deg)
    return np.array([[math.cos(a), -math.sin(a), origin[0]], [math.sin(a), math.cos(a), origin[1]],
                     [0.0, 0.0, 1.0]])


def draw(scene: GleebsScene, shot: Shot, *,
         extra_sheets: tuple[tuple[SheetTexture, np.ndarray], ...] = ()) -> tuple[np.ndarray, np.ndarray, list[Solid]]:
    """The linear picture (float32 BGR, the camera's size, before the sensor), its id map and
    the solids drawn. ``extra_sheets``: more pages on the table, each with its frame → table
    3×3 map (the colour sheet of a calibration shot)."""
    p = _Canvas(shot)
    solids = solids_of(scene)
    capsules = hand_capsules(scene.hand) if scene.hand is not None else []
    p.table()
    for m in scene.layout.markers:
        p.sheet(marker_sheet(m.id, m.size_mm), _rigid(m.centre, m.yaw_deg), MARKER_ID + m.id)
    if scene.show_board:
        p.sheet(board_texture(scene.spec), _rigid(scene.board.origin, scene.board.yaw_deg), SHEET_ID)
    for sheet, frame_to_table in extra_sheets:
        p.sheet(sheet, frame_to_table, SHEET_ID)
    p.shade_plane(solids, capsules)
    hand_points = [c.points() for c in capsules]
    for s in solids:
        occluders = [o.points for o in solids if o.ident != s.ident] + hand_points
        p.pyramid(s, occluders)
    for cap in capsules:
        p.arm_part(cap)
    size = shot.view.camera.size
    linear = optics.distort(p.canvas, p.img, size)
    ids = optics.distort(p.canvas, p.ids, size, nearest=True)
    return linear, ids, solids


def expose(linear: np.ndarray, shot: Shot, noise_seed: int | None = None) -> np.ndarray:
    """The camera's frame of a linear picture: exposure, vignetting, blur, noise, JPEG. A new
    ``noise_seed`` gives the same picture with fresh sensor noise (the next frame of a still
    scene)."""
    seed = shot.seed if noise_seed is None else noise_seed
    return optics.sensor(linear, np.random.default_rng([seed, 2]), exposure=shot.exposure,
                         noise=shot.noise, blur=shot.blur, jpeg=shot.jpeg)


def render(scene: GleebsScene, shot: Shot, *,
           extra_sheets: tuple[tuple[SheetTexture, np.ndarray], ...] = ()) -> Rendered:
    """Draw ``scene`` as ``shot``'s camera sees it; returns the frame and its ground truth."""
    linear, ids, solids = draw(scene, shot, extra_sheets=extra_sheets)
    image = expose(linear, shot)
    return Rendered(image, make_truth(scene, shot, solids, ids), linear)


