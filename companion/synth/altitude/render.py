"""Drawing an Altitude table as a webcam sees it, with an id map for the ground truth.

The same camera model, optics, lights, table tops and arms as the other games' renderers
(:mod:`companion.synth.render`): everything is drawn on a pinhole canvas with the shared
:class:`~companion.vision.camera.View`, then bent by the lens (:mod:`companion.synth.optics`), so a
table point lands exactly where ``View.project`` puts it.

Cards are flat sheets a third of a millimetre thick, painted bottom first (the order of
:meth:`~companion.synth.altitude.scene.AltitudeScene.laid`), so a card of a higher étage covers
the cards it rests on. A card never lies perfectly flat: its edge throws a thin soft shadow on
what lies under it, which is what shows the edge of a white border lying on another white
border. The deck is a block of cards whose sides show from a tilted camera. The table, the
markers and the cards are lit together (ambient light, and the directional light where the arm
or the deck does not throw its shadow); the arm comes last.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.synth import bodies as B
from companion.synth import optics
from companion.synth.altitude import faces
from companion.synth.altitude.scene import CARD_THICK_MM, AltitudeScene, Laid
from companion.synth.canvas import Canvas
from companion.synth.scene import Shot
from companion.synth.terra import sheets as printed
from companion.vision.altitude.layout import card_corners

#: id map values: laid card n is CARD_ID + n; 0 is the table
CARD_ID, DECK_SIDE_ID, HAND_ID, MARKER_ID = 1000, 900, 20_000, 600
#: how far a card's edge stands above what it lies on (mm), for its shadow
EDGE_LIFT_MM = 0.6
#: how dark the shadow of a card's edge is, right at the edge
EDGE_SHADOW = 0.55


@dataclass(frozen=True)
class RenderedTable:
    """A rendered frame: ``image`` (BGR uint8) and the ``ids`` map (which thing each pixel shows),
    both at the camera's size, and the cards as painted (``laid``, index n has id CARD_ID + n)."""

    image: np.ndarray
    ids: np.ndarray
    laid: tuple[Laid, ...]


class _Painter(Canvas):
    def __init__(self, scene: AltitudeScene, shot: Shot):
        super().__init__(shot, salt=0)
        self.scene = scene
        tw, td = scene.layout.table_mm
        centre = np.array([tw / 2, td / 2, 0.0])
        self.px_per_mm = float(self.K[0, 0] / max(np.linalg.norm(centre - self.C), 1.0))

    def warp_into(self, tex: np.ndarray, H: np.ndarray, quad_px: np.ndarray,
                  margin: tuple[int, int] = (2, 3)) -> None:
        super().warp_into(tex, H, quad_px, margin)

    def sheet(self, tex: np.ndarray, corners_mm: np.ndarray, z: float, ident: int) -> np.ndarray:
        """Lay a flat texture whose top-left, top-right, bottom-right, bottom-left corners lie at
        ``corners_mm`` (table mm, 4×2) at height ``z``; returns the canvas quad."""
        hs, ws = tex.shape[:2]
        tl, tr, _, bl = (np.append(c, z) for c in corners_mm)
        a = (tr - tl) / ws
        b = (bl - tl) / hs
        origin = tl + (a + b) * 0.5
        H = self.plane_homography(origin, a, b)
        corners = np.array([[-0.5, -0.5], [ws - 0.5, -0.5], [ws - 0.5, hs - 0.5], [-0.5, hs - 0.5]])
        quad = cv2.perspectiveTransform(corners[None], H)[0]
        self.warp_into(tex, H, quad)
        self.fill(self.ids, quad, int(ident))
        return quad

    def markers(self) -> None:
        tw, td = self.scene.layout.table_mm
        sigma = round(0.45 * printed.SHEET_PPM / max(self.px_per_mm, 1e-3) * 4) / 4
        half = printed.MARKER_PAPER_MM / 2
        for mid, (cx, cy) in {0: (0.0, 0.0), 1: (tw, 0.0), 2: (tw, td), 3: (0.0, td)}.items():
            tex = printed.blurred(f"marker:{mid}", sigma)
            corners = np.array([[cx - half, cy + half], [cx + half, cy + half],
                                [cx + half, cy - half], [cx - half, cy - half]])
            self.sheet(tex, corners, 0.0, MARKER_ID + mid)

    def edge_shadow(self, corners_mm: np.ndarray, z: float) -> None:
        """The soft shadow a card's slightly raised edge throws on what lies under it."""
        lz = -float(self.L[2])
        if lz <= 1e-3:
            return
        shift = -self.L[:2] / lz * EDGE_LIFT_MM
        ctr = corners_mm.mean(axis=0)
        grown = ctr + (corners_mm - ctr) * (1.0 + 1.2 / 46.0) + shift
        quad = self.project(np.column_stack([grown, np.full(4, z)]))
        roi = self.box(quad, 4, 5)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        self.fill(mask, quad - np.array([x0, y0]), 1.0)
        sigma = max(0.5, 0.5 * self.px_per_mm)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        self.img[y0:y1, x0:x1] *= (1.0 - (1.0 - EDGE_SHADOW) * mask)[:, :, None]

    def deck_block(self, card: Laid) -> np.ndarray:
        """The sides of the deck (a block of cards) that face the camera; returns its corner
        points (for its shadow)."""
        foot = card_corners(card.centre, card.angle_deg)
        lo = np.column_stack([foot, np.zeros(4)])
        hi = np.column_stack([foot, np.full(4, card.z)])
        edge_albedo = np.array([0.78, 0.80, 0.82], np.float32)
        for k in range(4):
            p0, p1 = lo[k], lo[(k + 1) % 4]
            mid = (p0 + p1) / 2 + np.array([0, 0, card.z / 2])
            d = p1 - p0
            n = np.array([d[1], -d[0], 0.0])
            if np.linalg.norm(n) < 1e-9:
                continue
            n /= np.linalg.norm(n)
            if float(n @ (mid - np.append(card.centre, 0.0))) < 0:
                n = -n
            if float(n @ (self.C - mid)) <= 0:
                continue
            quad = np.array([p0, p1, hi[(k + 1) % 4], hi[k]])
            lam = max(0.0, -float(n @ self.L))
            col = edge_albedo * (self.ambient * 0.7 + self.light * lam)
            self.fill(self.img, self.project(quad), tuple(float(c) for c in col))
            self.fill(self.ids, self.project(quad), DECK_SIDE_ID)
        return np.concatenate([lo, hi])

    def shade(self, occluders: list[np.ndarray], sides: list[np.ndarray]) -> None:
        """Ambient plus direct light on the table plane (cards and markers included), with the
        shadows of the arm and of the deck. Sides already drawn (lit on their own) are kept."""
        lam = max(0.0, -float(self.L[2]))
        base = self.ambient + self.light * lam
        keep = self.ids == DECK_SIDE_ID
        saved = self.img[keep].copy() if keep.any() else None
        cv2.multiply(self.img, tuple(float(v) for v in base) + (0.0,), dst=self.img)
        if saved is not None:
            self.img[keep] = saved
        shadows = []
        for pts in occluders:
            p = pts[pts[:, 2] >= -1e-6]
            if len(p) < 3 or self.L[2] >= -1e-9:
                continue
            t = -p[:, 2] / self.L[2]
            shadows.append(self.project(p + t[:, None] * self.L))
        polys = [p for p in shadows if np.all(np.isfinite(p))]
        if not polys:
            return
        box = self.box(np.concatenate(polys), 16, 16)
        if box is None:
            return
        x0, y0, x1, y1 = box
        off = np.array([x0, y0], float)
        shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
        for p in polys:
            self.fill(shadow, p - off, 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, 1.5 * self.px_per_mm))
        direct = (lam * (1.0 - shadow))[:, :, None]
        factor = (self.ambient[None, None, :] + self.light[None, None, :] * direct) / base
        region = self.img[y0:y1, x0:x1]
        mask = keep[y0:y1, x0:x1]
        shaded = region * factor
        region[~mask] = shaded[~mask]

    def hand_part(self, cap: B.Capsule) -> None:
        pts = self.project(cap.points())
        lam = max(0.0, -float(self.L[2]))
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (self.ambient + self.light * lam * 0.55)
        self.fill(self.img, pts, tuple(float(c) for c in dark))
        shift = -np.array([self.L[0], self.L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = B.Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (self.ambient + self.light * lam)
        self.fill(self.img, self.project(core.points()), tuple(float(c) for c in bright))
        self.fill(self.ids, pts, HAND_ID)


def render_table(scene: AltitudeScene, shot: Shot) -> RenderedTable:
    """Draw ``scene`` as ``shot``'s camera sees it: the frame, its id map and the cards."""
    p = _Painter(scene, shot)
    laid = scene.laid()
    p.table()
    p.markers()
    sigma = round(0.45 * faces.SHEET_PPM / max(p.px_per_mm, 1e-3) * 4) / 4
    occluders: list[np.ndarray] = []
    sides: list[np.ndarray] = []
    for n, card in enumerate(laid):
        corners = card_corners(card.centre, card.angle_deg, scene.layout.card_mm)
        if card.role == "deck":
            sides.append(p.deck_block(card))
        under = card.z - CARD_THICK_MM
        if card.role != "deck":
            p.edge_shadow(corners, max(under, 0.0))
        spec = scene.spec(card.card) if card.card is not None else None
        tex = faces.sheet(spec, sigma)
        p.sheet(tex, corners, card.z, CARD_ID + n)
    hand = B.hand_capsules(scene.hand) if scene.hand is not None else []
    occluders += [cap.points() for cap in hand]
    p.shade(occluders, sides)
    for cap in hand:
        p.hand_part(cap)
    size = shot.view.camera.size
    linear = optics.distort(p.canvas, p.img, size)
    ids = optics.distort(p.canvas, p.ids, size, nearest=True)
    image = optics.sensor(linear, np.random.default_rng([shot.seed, 2]), exposure=shot.exposure,
                          noise=shot.noise, blur=shot.blur, jpeg=shot.jpeg)
    return RenderedTable(image, ids, tuple(laid))
