"""The stones and dice as convex solids in table millimetres.

Every piece of the game is convex: a box (cube, long block, die), a prism (the roof, the cylinder
as a many-sided prism). A convex solid's picture is the convex hull of its projected corners and
each of its faces is a flat polygon, so the synthetic table draws faces and the reader compares
silhouettes, both from this one description.

A piece is placed by its base centre ``(x, y)``, the height ``z0`` of its base and its turn
``yaw_deg`` about the vertical (a long block and a roof's ridge run along the turned x axis).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.vision.nains.kit import DIE_MM, LONG_MM, ROOF_MM, STONE_MM

#: sides of the prism a cylinder is drawn and fitted as
CYLINDER_SIDES = 24


@dataclass(frozen=True)
class Face:
    """A flat face: the indices of its corners (counter-clockwise seen from outside), its
    outward normal (local frame), its ``kind`` (``top``, ``side``, ``slope``, ``gable``,
    ``bottom``) and ``tag`` (for a die, which local direction it is: ``+x``, ``-z``, ...)."""

    index: tuple[int, ...]
    normal: tuple[float, float, float]
    kind: str
    tag: str = ""


@dataclass(frozen=True)
class Shape:
    """A solid in its own frame: base centre at the origin, z up."""

    points: np.ndarray
    faces: tuple[Face, ...]
    height: float


def _box(w: float, d: float, h: float) -> Shape:
    x, y = w / 2, d / 2
    pts = np.array([[-x, -y, 0], [x, -y, 0], [x, y, 0], [-x, y, 0],
                    [-x, -y, h], [x, -y, h], [x, y, h], [-x, y, h]], float)
    faces = (
        Face((4, 5, 6, 7), (0, 0, 1), "top", "+z"),
        Face((0, 3, 2, 1), (0, 0, -1), "bottom", "-z"),
        Face((0, 1, 5, 4), (0, -1, 0), "side", "-y"),
        Face((1, 2, 6, 5), (1, 0, 0), "side", "+x"),
        Face((2, 3, 7, 6), (0, 1, 0), "side", "+y"),
        Face((3, 0, 4, 7), (-1, 0, 0), "side", "-x"),
    )
    return Shape(pts, faces, h)


def _roof() -> Shape:
    s = STONE_MM / 2
    h = ROOF_MM
    pts = np.array([[-s, -s, 0], [s, -s, 0], [s, s, 0], [-s, s, 0], [-s, 0, h], [s, 0, h]], float)
    ny = math.hypot(h, s)
    faces = (
        Face((0, 1, 5, 4), (0, -h / ny, s / ny), "slope", "-y"),
        Face((2, 3, 4, 5), (0, h / ny, s / ny), "slope", "+y"),
        Face((1, 2, 5), (1, 0, 0), "gable", "+x"),
        Face((3, 0, 4), (-1, 0, 0), "gable", "-x"),
        Face((0, 3, 2, 1), (0, 0, -1), "bottom", "-z"),
    )
    return Shape(pts, faces, h)


def _cylinder(n: int) -> Shape:
    r = STONE_MM / 2
    h = STONE_MM
    ang = (np.arange(n) + 0.5) * 2 * math.pi / n
    ring = np.column_stack([r * np.cos(ang), r * np.sin(ang)])
    pts = np.vstack([np.column_stack([ring, np.zeros(n)]), np.column_stack([ring, np.full(n, h)])])
    faces = [Face(tuple(range(n, 2 * n)), (0, 0, 1), "top", "+z"),
             Face(tuple(range(n - 1, -1, -1)), (0, 0, -1), "bottom", "-z")]
    for k in range(n):
        a = (k + 1) * 2 * math.pi / n
        faces.append(Face((k, (k + 1) % n, n + (k + 1) % n, n + k), (math.cos(a), math.sin(a), 0.0), "side"))
    return Shape(pts, tuple(faces), h)


@lru_cache(maxsize=None)
def shape(name: str, sides: int = CYLINDER_SIDES) -> Shape:
    """The solid of a stone shape (``cube``, ``long``, ``cylinder``, ``roof``) or ``die``."""
    if name == "cube":
        return _box(STONE_MM, STONE_MM, STONE_MM)
    if name == "long":
        return _box(LONG_MM, STONE_MM, STONE_MM)
    if name == "cylinder":
        return _cylinder(sides)
    if name == "roof":
        return _roof()
    if name == "die":
        return _box(DIE_MM, DIE_MM, DIE_MM)
    raise ValueError(f"no solid named {name!r}")


def rotation(yaw_deg: float) -> np.ndarray:
    a = math.radians(yaw_deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class Placed:
    """A solid put on the table: its corners and face normals in table millimetres."""

    shape: Shape
    points: np.ndarray
    normals: np.ndarray
    centre: tuple[float, float, float]
    yaw_deg: float

    @property
    def top_z(self) -> float:
        return self.centre[2] + self.shape.height

    def face_points(self, k: int) -> np.ndarray:
        return self.points[list(self.shape.faces[k].index)]


def place(name: str, x: float, y: float, z0: float = 0.0, yaw_deg: float = 0.0,
          sides: int = CYLINDER_SIDES) -> Placed:
    """The solid ``name`` with its base centre at ``(x, y, z0)`` turned ``yaw_deg``."""
    sh = shape(name, sides)
    R = rotation(yaw_deg)
    pts = sh.points @ R.T + np.array([x, y, z0])
    normals = np.array([f.normal for f in sh.faces], float) @ R.T
    return Placed(sh, pts, normals, (float(x), float(y), float(z0)), float(yaw_deg))


def footprint(name: str, x: float, y: float, yaw_deg: float) -> np.ndarray:
    """The corners of a piece's base on the table (N×2), for overlap tests."""
    pts = place(name, x, y, 0.0, yaw_deg, sides=12).points
    return pts[pts[:, 2] < 1e-6][:, :2]
