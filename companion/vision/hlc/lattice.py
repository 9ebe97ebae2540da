"""The lattice the cubes sit on, and how cells are counted on it.

Cubes are not glued to any table grid: the lattice is wherever the cubes are. It is a square grid
of pitch half a cube, turned by ``angle_deg`` from the table's x axis. A lattice has four equal
descriptions (its axes turned by quarter turns) and one per lattice point chosen as origin; the
observation format fixes one (``docs/observation.md``): the angle in (−45°, 45°] and the origin at
the lattice point nearest the mountain anchor. :func:`normalised` turns any description into that
one, and :func:`cell_map` re-counts cells accordingly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Lattice:
    """``origin`` (table mm) is the corner of cell (0, 0); cell (i, j) spans
    ``origin + [i, i+1]·pitch·ex + [j, j+1]·pitch·ey`` with ``ex`` at ``angle_deg`` from the
    table's +x axis and ``ey`` a quarter turn further."""

    origin: tuple[float, float]
    angle_deg: float = 0.0
    pitch: float = 20.0

    @property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        a = math.radians(self.angle_deg)
        return np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        """Lattice coordinates in cells (N×2, may be fractional) to table mm (N×2)."""
        ex, ey = self.axes
        uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
        return np.asarray(self.origin, dtype=np.float64) + self.pitch * (uv[:, :1] * ex + uv[:, 1:2] * ey)

    def to_cells(self, xy: np.ndarray) -> np.ndarray:
        """Table mm (N×2) to lattice coordinates in cells (N×2, fractional)."""
        ex, ey = self.axes
        d = np.asarray(xy, dtype=np.float64).reshape(-1, 2) - np.asarray(self.origin, dtype=np.float64)
        return np.stack([d @ ex, d @ ey], axis=1) / self.pitch

    def cell_centre(self, cell: tuple[int, int]) -> np.ndarray:
        return self.to_table(np.array([[cell[0] + 0.5, cell[1] + 0.5]]))[0]

    def to_json(self) -> dict[str, object]:
        return {"origin": [round(float(self.origin[0]), 2), round(float(self.origin[1]), 2)],
                "angle_deg": round(float(self.angle_deg), 3), "pitch": round(float(self.pitch), 3)}

    @classmethod
    def from_json(cls, data: dict) -> "Lattice":
        return cls((float(data["origin"][0]), float(data["origin"][1])), float(data["angle_deg"]),
                   float(data.get("pitch", 20.0)))


def normalised(lattice: Lattice, anchor: tuple[float, float]) -> Lattice:
    """The same lattice described as the observation format wants it: angle in (−45°, 45°],
    origin at the lattice point nearest ``anchor``."""
    a = (lattice.angle_deg + 45.0) % 90.0 - 45.0
    if a == -45.0:
        a = 45.0
    turned = Lattice(lattice.origin, a, lattice.pitch)
    uv = turned.to_cells(np.array([anchor]))[0]
    corner = turned.to_table(np.round(uv)[None, :])[0]
    return Lattice((float(corner[0]), float(corner[1])), a, lattice.pitch)


def cube_cell(src: Lattice, dst: Lattice, cell: tuple[int, int], size: int = 2) -> tuple[int, int]:
    """The lower-left cell, on ``dst``, of a ``size``×``size``-cell footprint whose lower-left cell
    on ``src`` is ``cell`` (both describe the same lattice)."""
    i, j = cell
    corners = np.array([[i, j], [i + size, j], [i, j + size], [i + size, j + size]], float)
    uv = dst.to_cells(src.to_table(corners))
    lo = np.round(uv.min(axis=0)).astype(int)
    return int(lo[0]), int(lo[1])


def point_cell(src: Lattice, dst: Lattice, cell: tuple[int, int]) -> tuple[int, int]:
    """The cell on ``dst`` holding the centre of cell ``cell`` of ``src``."""
    uv = dst.to_cells(src.to_table(np.array([[cell[0] + 0.5, cell[1] + 0.5]])))[0]
    return int(math.floor(uv[0])), int(math.floor(uv[1]))
