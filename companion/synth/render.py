"""The synthetic table's renderer: a scene, photographed, with exact ground truth.

Everything is drawn with the shared camera model (:class:`~companion.vision.camera.View`) on a
pinhole canvas, then bent by the lens's own distortion (:mod:`companion.synth.optics`), so a table
point lands exactly where ``View.project`` puts it. Solid bodies are painted back to front
(:func:`~companion.synth.bodies.painter_order`); each face is a small texture (wood, the engraved
2×2 grid, Lambert shading, the shadows other bodies cast on it along the light) warped into place.
The table, the markers and the card are one plane and are shaded together, shadows included.

An *id map* is painted alongside: which piece every pixel shows. It gives each piece's visible
fraction, which decides what an ideal reader could report (:mod:`companion.synth.truth`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.synth import bodies as B
from companion.synth import optics, textures
from companion.synth.canvas import Canvas
from companion.synth.scene import Scene, Shot
from companion.synth.truth import Truth, make_truth
from companion.vision.hlc.layout import DEFAULT_LAYOUT, Layout

#: id map values: cube n is CUBE_ID + n, giant n GIANT_ID + n, and so on; 0 is the table
CUBE_ID, GIANT_ID, HAND_ID, CARD_ID, MARKER_ID = 1, 10_000, 20_000, 30_000, 30_100

#: giant albedos (BGR, 0–1): painted wood
GIANT_ALBEDO = {
    "red": (0.10, 0.10, 0.72), "yellow": (0.08, 0.70, 0.86), "blue": (0.62, 0.28, 0.06),
    "green": (0.18, 0.52, 0.10), "white": (0.86, 0.86, 0.85), "black": (0.055, 0.05, 0.05),
}
#: resolution of cube face textures and of the card and marker sheets
FACE_PPM = 2.0
SHEET_PPM = 4.0
PAPER_MM = 60.0
PAPER_ALBEDO = 0.92


@dataclass(frozen=True)
class Rendered:
    """A rendered frame: ``image`` (BGR uint8, the camera's size) and its ground ``truth``."""

    image: np.ndarray
    truth: Truth


class _Painter(Canvas):
    """One render in progress: the shared canvas, the scene and its lattice frame."""

    def __init__(self, scene: Scene, shot: Shot, layout: Layout):
        super().__init__(shot, salt=1)
        self.scene, self.layout = scene, layout
        self.frame = B.Frame3.of(scene.lattice)

    # ------------------------------------------------------------------------ the table plane
    def _sheet(self, sheet: np.ndarray, top_left: np.ndarray, right: np.ndarray, down: np.ndarray,
               ppm: float, ident: int) -> None:
        """Lay a flat sheet (float BGR albedo) on the table: its pixel (u, v) is at
        ``top_left + (u+0.5)/ppm·right + (v+0.5)/ppm·down`` (table mm)."""
        o = np.array([top_left[0], top_left[1], 0.0])
        a = np.array([right[0], right[1], 0.0])
        b = np.array([down[0], down[1], 0.0])
        H = self.plane_homography(o + (a + b) * 0.5 / ppm, a / ppm, b / ppm)
        hs, ws = sheet.shape[:2]
        corners = np.array([[-0.5, -0.5], [ws - 0.5, -0.5], [ws - 0.5, hs - 0.5], [-0.5, hs - 0.5]])
        quad = cv2.perspectiveTransform(corners[None], H)[0]
        self.warp_into(sheet, H, quad)
        self._fill_id(quad, ident)

    def markers_and_card(self) -> None:
        lay = self.layout
        for mid in range(4):
            sheet = _marker_sheet(mid, lay.marker_size)
            cx, cy = lay.marker_centres()[mid]
            half = PAPER_MM / 2
            self._sheet(sheet, np.array([cx - half, cy + half]), np.array([1.0, 0.0]),
                        np.array([0.0, -1.0]), SHEET_PPM, MARKER_ID + mid)
        if self.scene.card is not None:
            dx, dy, turn = self.scene.card_offset
            c = lay.card_zone_centre
            corners = lay.card_corners((c[0] + dx, c[1] + dy), turn)
            face = _card_sheet(self.scene.card, lay.card_size)
            right = (corners[1] - corners[0]) / np.linalg.norm(corners[1] - corners[0])
            down = (corners[3] - corners[0]) / np.linalg.norm(corners[3] - corners[0])
            self._sheet(face, corners[0], right, down, SHEET_PPM, CARD_ID)

    def shade_table(self, bodies: list[B.Body]) -> None:
        """Light the table plane: ambient plus the direct light where nothing casts a shadow, and
        a soft contact darkening under what stands on it."""
        n = np.array([0.0, 0.0, 1.0])
        shadows, contacts = [], []
        for body in bodies:
            poly = _shadow_on_plane(body.points, self.L, n, 0.0)
            if poly is not None:
                shadows.append(self.project(poly))
            if body.key[0] in ("cube", "giant") and body.lo[2] < 1e-6:
                foot = body.points[body.points[:, 2] < 1e-6]
                ctr = foot.mean(axis=0)
                contacts.append(self.project(ctr + (foot - ctr) * 1.12))
        self.light_plane(shadows, contacts, pad=(14, 14), shadow_blur=1.6, contact_blur=4.0,
                         contact_strength=0.35)

    # ------------------------------------------------------------------------ drawing helpers
    def _fill_id(self, quad_px: np.ndarray, ident: int) -> None:
        self.fill(self.ids, quad_px, int(ident))

    # ------------------------------------------------------------------------ bodies
    def face(self, face: B.Face, occluders: list[B.Body], ident: int) -> None:
        lam = max(0.0, -float(face.normal @ self.L))
        pw, ph = int(round(face.w * FACE_PPM)), int(round(face.h * FACE_PPM))
        shadow = np.zeros((ph, pw), np.float32)
        if lam > 0:
            self._face_shadows(face, occluders, shadow)
            shadow = cv2.GaussianBlur(shadow, (0, 0), 1.2)
        albedo = textures.cube_face_albedo(self.rng, (pw, ph)) * _engraving(pw, ph)
        sky = _sky(face.normal)
        light = self.ambient[None, None, :] * sky + self.light[None, None, :] * (lam * (1.0 - shadow))[:, :, None]
        tex = albedo * light
        # pixel (u, v): point = corner + (u+0.5)/ppm·a + (h - (v+0.5)/ppm)·b
        origin = face.corner + face.a * (0.5 / FACE_PPM) + face.b * (face.h - 0.5 / FACE_PPM)
        H = self.plane_homography(origin, face.a / FACE_PPM, -face.b / FACE_PPM)
        quad = self.project(face.corners())
        self.warp_into(tex, H, quad)
        self._fill_id(quad, ident)

    def _face_shadows(self, face: B.Face, occluders: list[B.Body], mask: np.ndarray) -> None:
        n = face.normal
        d = float(n @ face.corner)
        nl = float(n @ self.L)
        if nl >= -1e-9:
            return
        for body in occluders:
            side = body.points @ n - d
            if side.min() < -1e-6:
                continue
            t = -side / nl
            proj = body.points + t[:, None] * self.L
            rel = proj - face.corner
            s = rel @ face.a
            u = rel @ face.b
            if s.max() < 0 or s.min() > face.w or u.max() < 0 or u.min() > face.h:
                continue
            px = np.stack([s * FACE_PPM - 0.5, (face.h - u) * FACE_PPM - 0.5], axis=1)
            hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_8, 4)

    def cube(self, body: B.Body, cube: tuple[int, int, int], occluders: list[B.Body]) -> None:
        ident = CUBE_ID + body.key[1]
        for face in B.cube_faces(self.frame, cube, self.scene.lattice.pitch):
            mid = face.corner + face.a * face.w / 2 + face.b * face.h / 2
            if float(face.normal @ (self.C - mid)) <= 0:
                continue
            self.face(face, occluders, ident)

    def giant(self, body: B.Body, index: int, cubes: list[B.Body]) -> None:
        g = self.scene.giants[index]
        lay = self.layout
        r, height = lay.giant_diameter / 2, lay.giant_height
        base = self.frame.to_table(B.giant_base(g, self.scene.lattice.pitch))
        top = base + np.array([0, 0, height])
        albedo = np.asarray(GIANT_ALBEDO[g.colour], np.float32)
        lit = np.mean([_lit(p, self.L, cubes) for p in (top, base + np.array([0, 0, height / 2]))])
        ang = np.linspace(0, 2 * math.pi, B.GIANT_SEGMENTS + 1)
        strips = []
        for k in range(B.GIANT_SEGMENTS):
            a0, a1 = ang[k], ang[k + 1]
            am = (a0 + a1) / 2
            nrm = np.array([math.cos(am), math.sin(am), 0.0])
            mid = base + r * nrm + np.array([0, 0, height / 2])
            if float(nrm @ (self.C - mid)) <= 0:
                continue
            p0 = np.array([math.cos(a0), math.sin(a0), 0.0]) * r
            p1 = np.array([math.cos(a1), math.sin(a1), 0.0]) * r
            quad = np.array([base + p0, base + p1, top + p1, top + p0])
            strips.append((float(np.linalg.norm(mid - self.C)), quad, nrm))
        strips.sort(key=lambda s: -s[0])
        for _, quad, nrm in strips:
            lam = max(0.0, -float(nrm @ self.L))
            spec = 0.12 * max(0.0, float(_reflect(self.L, nrm) @ _unit(self.C - quad.mean(axis=0)))) ** 8
            col = albedo * (self.ambient * _sky(nrm) + self.light * lam * lit) + self.light * spec * lit
            self.fill(self.img, self.project(quad), tuple(float(c) for c in col))
        lam_top = max(0.0, -float(self.L[2]))
        col = albedo * (self.ambient + self.light * lam_top * lit) * 1.04
        disk = top + np.stack([r * np.cos(ang[:-1]), r * np.sin(ang[:-1]), np.zeros(B.GIANT_SEGMENTS)], axis=1)
        self.fill(self.img, self.project(disk), tuple(float(c) for c in col))
        self.fill(self.ids, self.project(body.points), GIANT_ID + index)

    def hand_part(self, cap: B.Capsule) -> None:
        pts = self.project(cap.points())
        lam = max(0.0, -float(self.L[2]))
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (self.ambient + self.light * lam * 0.55)
        self.fill(self.img, pts, tuple(float(c) for c in dark))
        # a lit core, nearer the light, for a rounded look
        shift = -np.array([self.L[0], self.L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = B.Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (self.ambient + self.light * lam)
        self.fill(self.img, self.project(core.points()), tuple(float(c) for c in bright))
        self.fill(self.ids, pts, HAND_ID)


def _sky(normal: np.ndarray) -> float:
    """Share of the ambient light a surface facing ``normal`` receives: a face turned up sees
    the whole sky, a vertical face half of it plus a little light bounced off the table."""
    return float(0.6 + 0.4 * max(0.0, float(normal[2])))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-12)


def _reflect(L: np.ndarray, n: np.ndarray) -> np.ndarray:
    return L - 2 * float(L @ n) * n


def _lit(point: np.ndarray, L: np.ndarray, cubes: list[B.Body]) -> float:
    """1 when the light reaches ``point`` (table mm), 0 when a cube is in the way."""
    d = -L
    for body in cubes:
        lo = body.points.min(axis=0)
        hi = body.points.max(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = (lo - point) / d
            t1 = (hi - point) / d
        tmin = np.nanmax(np.minimum(t0, t1))
        tmax = np.nanmin(np.maximum(t0, t1))
        if tmax >= max(tmin, 1e-6):
            return 0.0
    return 1.0


def _shadow_on_plane(points: np.ndarray, L: np.ndarray, n: np.ndarray, d: float) -> np.ndarray | None:
    nl = float(n @ L)
    if nl >= -1e-9:
        return None
    side = points @ n - d
    keep = side >= -1e-6
    if keep.sum() < 3:
        return None
    p = points[keep]
    t = -(p @ n - d) / nl
    return p + t[:, None] * L


@lru_cache(maxsize=8)
def _engraving(w: int, h: int) -> np.ndarray:
    """Darkening of a cube face: the 2×2 grid burnt into the wood and the slightly rounded edges."""
    m = np.ones((h, w), np.float32)
    cx, cy = w // 2, h // 2
    m[:, cx - 1:cx + 1] *= 0.42
    m[cy - 1:cy + 1, :] *= 0.42
    m[:, [cx - 2, cx + 1]] *= 0.85
    m[[cy - 2, cy + 1], :] *= 0.85
    m[:, [0, w - 1]] *= 0.62
    m[[0, h - 1], :] *= 0.62
    m[:, [1, w - 2]] *= 0.9
    m[[1, h - 2], :] *= 0.9
    m = m[:, :, None].repeat(3, axis=2)
    m.setflags(write=False)
    return m


@lru_cache(maxsize=8)
def _marker_sheet(marker_id: int, marker_mm: float) -> np.ndarray:
    """A printed table marker on its square of white paper, as albedo (float BGR)."""
    side = int(round(PAPER_MM * SHEET_PPM))
    inner = int(round(marker_mm * SHEET_PPM))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    marker = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
    sheet = np.full((side, side), 255, np.uint8)
    o = (side - inner) // 2
    sheet[o:o + inner, o:o + inner] = marker
    out = np.where(sheet[:, :, None] > 127, np.float32(PAPER_ALBEDO), np.float32(0.05))
    out = np.repeat(out, 3, axis=2).astype(np.float32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _card_sheet(name: str, card_mm: tuple[float, float]) -> np.ndarray:
    from companion.synth.card_faces import hlc_face

    size = (int(round(card_mm[0] * SHEET_PPM)), int(round(card_mm[1] * SHEET_PPM)))
    face = hlc_face(name, size).astype(np.float32) / 255.0
    face *= np.float32(PAPER_ALBEDO / 0.98)
    face.setflags(write=False)
    return face


def render(scene: Scene, shot: Shot, layout: Layout = DEFAULT_LAYOUT) -> Rendered:
    """Draw ``scene`` as ``shot``'s camera sees it; returns the frame and its ground truth."""
    linear, truth = render_linear(scene, shot, layout)
    return Rendered(expose(linear, shot), truth)


def expose(linear: np.ndarray, shot: Shot, frame_seed: int = 0) -> np.ndarray:
    """The camera's frame of a linear image: exposure, blur, noise, JPEG. ``frame_seed`` makes
    the noise of successive frames of a video differ."""
    rng = np.random.default_rng([shot.seed, 2, frame_seed])
    return optics.sensor(linear, rng, exposure=shot.exposure, noise=shot.noise, blur=shot.blur,
                         jpeg=shot.jpeg)


def render_linear(scene: Scene, shot: Shot, layout: Layout = DEFAULT_LAYOUT) -> tuple[np.ndarray, Truth]:
    """The light reaching the sensor (float BGR, before the camera's own effects) and the truth;
    a video re-exposes one of these for every frame the scene holds still."""
    p = _Painter(scene, shot, layout)
    pitch = scene.lattice.pitch
    cubes = [B.cube_body(p.frame, n, c, pitch) for n, c in enumerate(scene.cubes)]
    giants = [B.giant_body(p.frame, n, g, pitch, layout.giant_diameter, layout.giant_height)
              for n, g in enumerate(scene.giants)]
    hand = B.hand_bodies(p.frame, scene.hand) if scene.hand is not None else []
    solids = cubes + giants
    occluders = solids + [b for b, _ in hand]

    p.table()
    p.markers_and_card()
    p.shade_table(occluders)

    cam_lat = p.frame.to_lattice(p.C[None, :])[0]
    boxes = []
    for body in solids:
        px = p.project(body.points)
        boxes.append((px[:, 0].min(), px[:, 1].min(), px[:, 0].max(), px[:, 1].max()))
    for i in B.painter_order(solids, cam_lat, boxes):
        body = solids[i]
        if body.key[0] == "cube":
            p.cube(body, scene.cubes[body.key[1]], occluders)
        else:
            p.giant(body, body.key[1], cubes)
    for _, cap in hand:
        p.hand_part(cap)

    size = shot.view.camera.size
    linear = optics.distort(p.canvas, p.img, size)
    ids = optics.distort(p.canvas, p.ids, size, nearest=True)
    return linear, make_truth(scene, shot, layout, ids)
