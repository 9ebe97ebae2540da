"""Ground truth of a rendered frame: what is on the table, what the camera can see of it, and the
observation an ideal reader would make.

Everything on the table is listed with its *visible fraction* (pixels showing it over the pixels
its silhouette would cover with nothing in front). A cube is *expected* from a reader when at
least :data:`MIN_VISIBLE` of it shows, or when it holds up an expected cube (the full-base rule
means a visible cube proves the cubes under it). A cube wholly hidden behind a taller stack is
not expected: ``docs/observation.md`` lets the reader leave it out. The ideal observation is
counted on the normalised lattice (angle in (−45°, 45°], cells from the lattice point nearest the
mountain anchor), exactly as a reader reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observation import Observation, Piece
from companion.synth.scene import Scene, Shot
from companion.vision.camera import View
from companion.vision.hlc.lattice import Lattice, cube_cell, normalised, point_cell
from companion.vision.hlc.layout import Layout

MIN_VISIBLE = 0.10
MIN_VISIBLE_GIANT = 0.25
MIN_VISIBLE_CARD = 0.5
#: id map values (kept equal to the renderer's)
CUBE_ID, GIANT_ID, HAND_ID, CARD_ID = 1, 10_000, 20_000, 30_000


@dataclass(frozen=True)
class PieceTruth:
    """One piece on the table: ``cell``/``level`` on the normalised lattice (cubes, giants),
    ``name`` (giant colour or card), ``visible`` fraction and whether a reader is ``expected`` to
    report it. ``xyz``: table mm of the cube's top centre, the giant's foot, the card's centre."""

    kind: str
    cell: tuple[int, int] | None
    level: int | None
    name: str | None
    xyz: tuple[float, float, float]
    visible: float
    expected: bool


@dataclass(frozen=True)
class Truth:
    """Ground truth of one frame."""

    observation: Observation
    lattice: Lattice
    cubes: tuple[PieceTruth, ...]
    giants: tuple[PieceTruth, ...]
    card: PieceTruth | None
    hand: bool
    hand_visible: float
    view: View
    ids: np.ndarray

    def to_json(self) -> dict[str, Any]:
        """Plain data for :class:`~companion.vision.frames.Frame.truth`."""
        def piece(p: PieceTruth) -> dict[str, Any]:
            return {"kind": p.kind, "cell": p.cell, "level": p.level, "name": p.name,
                    "xyz": p.xyz, "visible": round(p.visible, 4), "expected": p.expected}
        return {"observation": self.observation.to_json(), "lattice": self.lattice.to_json(),
                "cubes": [piece(c) for c in self.cubes], "giants": [piece(g) for g in self.giants],
                "card": piece(self.card) if self.card else None, "hand": self.hand,
                "view": self.view.to_json()}


def _silhouette_area(view: View, points: np.ndarray) -> float:
    """Pixels the convex hull of ``points`` covers inside the frame."""
    w, h = view.camera.size
    px = view.project(points).astype(np.float32)
    if not np.all(np.isfinite(px)):
        return 0.0
    hull = cv2.convexHull(px)
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, _ = cv2.intersectConvexConvex(hull, frame)
    return float(area)


def make_truth(scene: Scene, shot: Shot, layout: Layout, ids: np.ndarray) -> Truth:
    view = shot.view
    lat = scene.lattice
    norm = normalised(lat, layout.anchor_xy)
    counts = np.bincount(ids.ravel().astype(np.int64), minlength=CARD_ID + 2)
    pitch = lat.pitch
    edge = 2 * pitch

    # ---- cubes
    vis = []
    for n, (i, j, k) in enumerate(scene.cubes):
        foot = lat.to_table(np.array([[i, j], [i + 2, j], [i, j + 2], [i + 2, j + 2]], float))
        pts = np.array([[x, y, z] for x, y in foot for z in (k * edge, (k + 1) * edge)])
        area = _silhouette_area(view, pts)
        seen = float(counts[CUBE_ID + n]) if CUBE_ID + n < len(counts) else 0.0
        vis.append(min(1.0, seen / area) if area > 0 else 0.0)
    expected = [v >= MIN_VISIBLE for v in vis]
    changed = True
    while changed:  # an expected cube makes the cubes under it expected
        changed = False
        for n, (i, j, k) in enumerate(scene.cubes):
            if not expected[n] or k == 0:
                continue
            for m, (a, b, c) in enumerate(scene.cubes):
                if c == k - 1 and not expected[m] and abs(a - i) <= 1 and abs(b - j) <= 1:
                    expected[m] = True
                    changed = True
    cubes = []
    for n, (i, j, k) in enumerate(scene.cubes):
        ctr = lat.to_table(np.array([[i + 1.0, j + 1.0]]))[0]
        cubes.append(PieceTruth("cube", cube_cell(lat, norm, (i, j)), k, None,
                                (float(ctr[0]), float(ctr[1]), float((k + 1) * edge)), vis[n], expected[n]))

    # ---- giants
    giants = []
    for n, g in enumerate(scene.giants):
        c = lat.to_table(np.array([[g.cell[0] + 0.5, g.cell[1] + 0.5]]))[0]
        r, hgt = layout.giant_diameter / 2, layout.giant_height
        z0 = g.level * edge
        ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        ring = np.stack([c[0] + r * np.cos(ang), c[1] + r * np.sin(ang)], axis=1)
        pts = np.concatenate([np.column_stack([ring, np.full(16, z0)]),
                              np.column_stack([ring, np.full(16, z0 + hgt)])])
        area = _silhouette_area(view, pts)
        seen = float(counts[GIANT_ID + n]) if GIANT_ID + n < len(counts) else 0.0
        v = min(1.0, seen / area) if area > 0 else 0.0
        giants.append(PieceTruth("giant", point_cell(lat, norm, g.cell), g.level, g.colour,
                                 (float(c[0]), float(c[1]), float(z0)), v, v >= MIN_VISIBLE_GIANT))

    # ---- card
    card = None
    if scene.card is not None:
        dx, dy, turn = scene.card_offset
        cz = layout.card_zone_centre
        corners = layout.card_corners((cz[0] + dx, cz[1] + dy), turn)
        area = _silhouette_area(view, np.column_stack([corners, np.zeros(4)]))
        v = min(1.0, float(counts[CARD_ID]) / area) if area > 0 else 0.0
        card = PieceTruth("card", None, None, scene.card, (cz[0] + dx, cz[1] + dy, 0.0), v,
                          v >= MIN_VISIBLE_CARD)

    hand_px = float(counts[HAND_ID]) if HAND_ID < len(counts) else 0.0
    hand_visible = hand_px / ids.size

    pieces = [Piece(kind="cube", cell=c.cell, level=c.level) for c in cubes if c.expected]
    pieces += [Piece(kind="giant", cell=g.cell, level=g.level, attrs={"colour": g.name})
               for g in giants if g.expected]
    if card is not None and card.expected:
        pieces.append(Piece(kind="card", zone="played", attrs={"card": card.name}))
    obs = Observation(game="haut-les-cubes", pieces=tuple(pieces), hand=scene.hand is not None,
                      board={"lattice": norm.to_json()})
    return Truth(obs, norm, tuple(cubes), tuple(giants), card, scene.hand is not None,
                 hand_visible, view, ids)
