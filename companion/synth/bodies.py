"""The solid things on the synthetic table, as geometry: cubes, giants and an arm.

Each body knows its bounding box in the *lattice frame* (u, v in mm along the lattice axes, z up),
which is what the painter's algorithm orders by, and a cloud of points whose shadow (projected
along the light) is the shadow of the body. Faces are planar rectangles with an outward normal,
described by a corner and two edge vectors in table millimetres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.synth.scene import Giant, Hand, Lattice

GIANT_SEGMENTS = 20


@dataclass(frozen=True)
class Frame3:
    """The lattice frame: table point = origin + M @ (u, v, z)."""

    origin: np.ndarray  # (3,)
    M: np.ndarray  # 3×3, columns: lattice x, lattice y, z in table coordinates

    @classmethod
    def of(cls, lattice: Lattice) -> "Frame3":
        ex, ey = lattice.axes
        M = np.array([[ex[0], ey[0], 0.0], [ex[1], ey[1], 0.0], [0.0, 0.0, 1.0]])
        return cls(np.array([lattice.origin[0], lattice.origin[1], 0.0]), M)

    def to_table(self, p: np.ndarray) -> np.ndarray:
        return self.origin + np.asarray(p, float) @ self.M.T

    def to_lattice(self, p: np.ndarray) -> np.ndarray:
        return (np.asarray(p, float) - self.origin) @ self.M

    def vec(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(v, float) @ self.M.T


@dataclass(frozen=True)
class Face:
    """A planar rectangle: ``corner + s·a + t·b`` for s in [0, w], t in [0, h] (mm), with unit
    edge vectors ``a``, ``b`` and outward ``normal`` (all table frame). ``kind`` is ``top`` or
    ``side``."""

    corner: np.ndarray
    a: np.ndarray
    b: np.ndarray
    normal: np.ndarray
    w: float
    h: float
    kind: str

    def corners(self) -> np.ndarray:
        c, a, b = self.corner, self.a * self.w, self.b * self.h
        return np.array([c, c + a, c + a + b, c + b])


#: a cube's faces in its own lattice frame: (corner offset, a, b, normal), size 1 = cube edge
_CUBE_FACES = (
    ("top", (0, 0, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ("side", (0, 0, 0), (1, 0, 0), (0, 0, 1), (0, -1, 0)),
    ("side", (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0)),
    ("side", (1, 1, 0), (-1, 0, 0), (0, 0, 1), (0, 1, 0)),
    ("side", (0, 1, 0), (0, -1, 0), (0, 0, 1), (-1, 0, 0)),
)


@dataclass(frozen=True)
class Body:
    """Something solid. ``lo``/``hi``: bounding box in the lattice frame (mm); ``points``: table
    points whose convex hull is the body (for shadows); ``key``: ("cube", n), ("giant", n) or
    ("hand", part)."""

    key: tuple[str, int]
    lo: np.ndarray
    hi: np.ndarray
    points: np.ndarray


def cube_body(frame: Frame3, index: int, cube: tuple[int, int, int], pitch: float) -> Body:
    i, j, k = cube
    edge = 2 * pitch
    lo = np.array([i * pitch, j * pitch, k * edge])
    hi = lo + edge
    corners = np.array([[x, y, z] for z in (lo[2], hi[2]) for y in (lo[1], hi[1]) for x in (lo[0], hi[0])])
    return Body(("cube", index), lo, hi, frame.to_table(corners))


def cube_faces(frame: Frame3, cube: tuple[int, int, int], pitch: float) -> list[Face]:
    i, j, k = cube
    edge = 2 * pitch
    base = np.array([i * pitch, j * pitch, k * edge])
    out = []
    for kind, off, a, b, n in _CUBE_FACES:
        corner = frame.to_table(base + edge * np.array(off, float))
        out.append(Face(corner, frame.vec(np.array(a, float)), frame.vec(np.array(b, float)),
                        frame.vec(np.array(n, float)), edge, edge, kind))
    return out


def giant_base(giant: Giant, pitch: float) -> np.ndarray:
    """Lattice-frame point (mm) at the centre of the giant's foot."""
    return np.array([(giant.cell[0] + 0.5) * pitch, (giant.cell[1] + 0.5) * pitch, giant.level * 2 * pitch])


def giant_body(frame: Frame3, index: int, giant: Giant, pitch: float, diameter: float,
               height: float) -> Body:
    c = giant_base(giant, pitch)
    r = diameter / 2
    lo = c + np.array([-r, -r, 0.0])
    hi = c + np.array([r, r, height])
    ang = np.linspace(0, 2 * math.pi, 12, endpoint=False)
    ring = np.stack([r * np.cos(ang), r * np.sin(ang), np.zeros_like(ang)], axis=1)
    pts = np.concatenate([c + ring, c + ring + np.array([0, 0, height])])
    return Body(("giant", index), lo, hi, frame.to_table(pts))


# ------------------------------------------------------------------------------------ the arm

@dataclass(frozen=True)
class Capsule:
    """A rounded cylinder from ``p0`` to ``p1`` (table mm), radius ``r0`` at p0 and ``r1`` at
    p1, of BGR albedo ``colour``; ``flat`` squashes its section vertically (a palm)."""

    p0: np.ndarray
    p1: np.ndarray
    r0: float
    r1: float
    colour: tuple[float, float, float]
    flat: float = 1.0

    def points(self, n: int = 12) -> np.ndarray:
        axis = self.p1 - self.p0
        length = float(np.linalg.norm(axis))
        d = axis / length if length > 1e-9 else np.array([1.0, 0.0, 0.0])
        helper = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
        e1 = np.cross(d, helper)
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(d, e1)
        ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
        out = []
        for p, r in ((self.p0, self.r0), (self.p1, self.r1)):
            for lift in (-0.6, 0.0, 0.6):  # a ring and two smaller rings towards the caps
                rr = r * math.sqrt(1 - lift * lift)
                ctr = p + d * (lift * r if p is self.p1 else -lift * r)
                ring = ctr + rr * (np.cos(ang)[:, None] * e1 + self.flat * np.sin(ang)[:, None] * e2)
                out.append(ring)
        return np.concatenate(out)


def hand_capsules(hand: Hand) -> list[Capsule]:
    """The arm as capsules: sleeve, bare forearm, palm, four fingers and a thumb."""
    elbow, wrist = np.array(hand.elbow, float), np.array(hand.wrist, float)
    fore = wrist - elbow
    horiz = np.array([fore[0], fore[1], 0.0])
    hn = np.linalg.norm(horiz)
    d = horiz / hn if hn > 1e-9 else np.array([1.0, 0.0, 0.0])
    side = np.array([-d[1], d[0], 0.0])
    parts = []
    cut = elbow + fore * float(np.clip(hand.sleeve_to, 0.0, 1.0))
    if hand.sleeve_to > 0:
        parts.append(Capsule(elbow, cut, 42.0, 36.0, hand.sleeve))
    if hand.sleeve_to < 1:
        parts.append(Capsule(cut, wrist, 33.0, 27.0, hand.skin))
    down = np.array([0.0, 0.0, -1.0])
    palm_end = wrist + d * 75.0 + down * 10.0
    parts.append(Capsule(wrist + d * 10.0, palm_end, 38.0, 40.0, hand.skin, flat=0.35))
    spread = float(np.clip(hand.spread, 0.0, 1.0))
    curl = math.radians(70.0 * (1.0 - spread))
    for n, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        fan = math.radians(off * 9.0 * (0.3 + spread))
        fd = d * math.cos(fan) + side * math.sin(fan)
        fdir = fd * math.cos(curl) + down * math.sin(curl)
        base = palm_end + side * off * 18.0
        length = (62.0, 72.0, 70.0, 56.0)[n]
        parts.append(Capsule(base, base + fdir * length, 9.0, 7.5, hand.skin))
    tdir = (d * 0.5 + side * 0.85 * (1 if spread > 0.3 else 0.6)) + down * 0.3
    tdir /= np.linalg.norm(tdir)
    tbase = wrist + d * 30.0 + side * 30.0
    parts.append(Capsule(tbase, tbase + tdir * 55.0, 11.0, 9.0, hand.skin))
    return parts


def hand_bodies(frame: Frame3, hand: Hand) -> list[tuple[Body, Capsule]]:
    out = []
    for n, cap in enumerate(hand_capsules(hand)):
        pts = cap.points()
        lat = frame.to_lattice(pts)
        out.append((Body(("hand", n), lat.min(axis=0), lat.max(axis=0), pts), cap))
    return out


# --------------------------------------------------------------------------- painter's order

def painter_order(bodies: list[Body], camera_lattice: np.ndarray,
                  screen_boxes: list[tuple[float, float, float, float]]) -> list[int]:
    """Indices of ``bodies`` from back to front for a camera at ``camera_lattice`` (lattice frame).

    Two boxes that do not overlap are split by a plane along one lattice axis; the one on the
    camera's side of that plane is in front. Only pairs whose images overlap are compared; the
    order is a topological sort of those relations (ties: farther first)."""
    n = len(bodies)
    after: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    eps = 1e-6
    for a in range(n):
        ba, sa = bodies[a], screen_boxes[a]
        for b in range(a + 1, n):
            sb = screen_boxes[b]
            if sa[2] < sb[0] or sb[2] < sa[0] or sa[3] < sb[1] or sb[3] < sa[1]:
                continue
            bb = bodies[b]
            front = None
            for ax in (2, 0, 1):
                if ba.hi[ax] <= bb.lo[ax] + eps:
                    front = b if camera_lattice[ax] > ba.hi[ax] else a
                    break
                if bb.hi[ax] <= ba.lo[ax] + eps:
                    front = a if camera_lattice[ax] > bb.hi[ax] else b
                    break
            if front is None:
                continue
            back = a if front == b else b
            after[back].append(front)
            indeg[front] += 1
    dist = [float(np.linalg.norm((bd.lo + bd.hi) / 2 - camera_lattice)) for bd in bodies]
    ready = sorted((i for i in range(n) if indeg[i] == 0), key=lambda i: -dist[i])
    order: list[int] = []
    while ready:
        i = ready.pop(0)
        order.append(i)
        changed = False
        for j in after[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
                changed = True
        if changed:
            ready.sort(key=lambda k: -dist[k])
    if len(order) < n:  # a cycle (never for lattice cubes): finish by distance
        rest = sorted((i for i in range(n) if i not in set(order)), key=lambda i: -dist[i])
        order.extend(rest)
    return order
