"""Where the mountain's surfaces fall in the image, for every cell and every height.

The reader tests hypotheses of the mountain against the frame; each test needs the image of cube
faces at known lattice positions and heights. Every lattice vertex of the search area is projected
once, at every height that is a multiple of half a cube (20 mm: cube edges and the engraved
middle line of side faces), and the faces of a column are assembled from those points.

A column of cells is seen from the camera's foot: its side faces that look towards the camera
are visible, the others never are. Sorting columns by their distance from the camera's foot
gives a correct painter's order for a height field (a column can only hide columns farther from
the foot), which the rasteriser relies on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.vision.camera import View
from companion.vision.hlc.lattice import Lattice

#: label values of the rendered class map
TABLE, TOP, SIDE_U, SIDE_V = 0, 1, 2, 3
CLASSES = 4

Cell = tuple[int, int]


@dataclass(frozen=True)
class Side:
    """A side face of a column that the camera can see: its class (``SIDE_U`` faces along the
    lattice u axis, ``SIDE_V`` along v), its two bottom vertices and the neighbouring cell."""

    cls: int
    a0: Cell
    a1: Cell
    neighbour: Cell


class Grid:
    """The search area: cells within ``radius`` cells of the lattice origin, their projections
    and visibility, cropped to the part of the frame they can appear in (``off``, ``shape``)."""

    def __init__(self, view: View, lattice: Lattice, image_size: tuple[int, int], *,
                 radius: float = 8.0, levels: int = 7, margin: int = 16, scale: float = 1.0):
        self.view, self.lattice, self.levels = view, lattice, levels
        self.pitch = lattice.pitch
        ex, ey = lattice.axes
        self.ex = np.array([ex[0], ex[1], 0.0])
        self.ey = np.array([ey[0], ey[1], 0.0])
        self.origin = np.array([lattice.origin[0], lattice.origin[1], 0.0])
        self.camera = view.pose.camera_position
        r = int(math.ceil(radius))
        self.cells: list[Cell] = [(i, j) for i in range(-r, r) for j in range(-r, r)
                                  if math.hypot(i + 0.5, j + 0.5) <= radius]
        self.cellset = set(self.cells)
        keys = sorted({(i + a, j + b) for (i, j) in self.cells for a in (0, 1) for b in (0, 1)})
        self.vertex = {k: n for n, k in enumerate(keys)}
        verts = np.array(keys, dtype=np.float64)
        zs = np.arange(0, 2 * levels + 1) * (self.pitch)  # half-cube steps
        pts = [self.point(verts[:, 0], verts[:, 1], np.full(len(verts), z)) for z in zs]
        proj = view.project(np.concatenate(pts)).reshape(len(zs), len(keys), 2)
        w, h = image_size
        lo = np.floor(proj.reshape(-1, 2).min(axis=0)).astype(int) - margin
        hi = np.ceil(proj.reshape(-1, 2).max(axis=0)).astype(int) + margin
        x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
        x1, y1 = min(int(hi[0]), w), min(int(hi[1]), h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            raise ValueError("the mountain's area is not in the frame")
        self.off = np.array([x0, y0], dtype=np.float64)
        #: the crop is worked on at ``scale`` times the frame's resolution
        self.scale = float(scale)
        self.full_shape = (y1 - y0, x1 - x0)
        self.shape = (int(round((y1 - y0) * scale)), int(round((x1 - x0) * scale)))
        #: vertex pixel positions in the (scaled) crop, [half-cube level, vertex]
        self._proj_full = proj
        self.proj = (proj - self.off) * scale
        foot = self.camera[:2]
        # the cells' centres and side midpoints computed for all cells at once (the same
        # element-wise arithmetic as :meth:`point`, so the same values)
        ij = np.array(self.cells, dtype=np.float64).reshape(-1, 2)
        centre = self.point(ij[:, 0] + 0.5, ij[:, 1] + 0.5, np.zeros(len(ij)))[:, :2]
        dist = [float(np.linalg.norm(c - foot)) for c in centre]
        self.distance = dict(zip(self.cells, dist))
        self.far_to_near = sorted(self.cells, key=lambda c: -self.distance[c])
        #: painter's rank of each cell (0 = farthest from the camera's foot)
        self.rank = {c: n for n, c in enumerate(self.far_to_near)}
        self.sides: dict[Cell, tuple[Side, ...]] = self._all_sides()
        #: the crop box of every column (cell, cubes high), looked up by the search's every try
        self.boxes = self._all_boxes()

    def at_scale(self, scale: float) -> "Grid":
        """The same grid worked on at another ``scale`` (the crop and the cells are the same;
        only the pixel positions are scaled): no projection or visibility is computed again."""
        import copy

        other = copy.copy(self)
        other.scale = float(scale)
        hh, ww = self.full_shape
        other.shape = (int(round(hh * scale)), int(round(ww * scale)))
        other.proj = (self._proj_full - self.off) * scale
        other.boxes = other._all_boxes()
        return other

    # ------------------------------------------------------------------------ points
    def point(self, u, v, z) -> np.ndarray:
        """Table point(s) of lattice coordinates (cells) and height (mm)."""
        u = np.asarray(u, dtype=np.float64)
        v = np.asarray(v, dtype=np.float64)
        z = np.asarray(z, dtype=np.float64)
        return (self.origin + (u * self.pitch)[..., None] * self.ex + (v * self.pitch)[..., None] * self.ey
                + z[..., None] * np.array([0.0, 0.0, 1.0]))

    def px(self, vertex: Cell, half_levels: int) -> np.ndarray:
        """Crop pixel of a lattice vertex at a height of ``half_levels`` × 20 mm."""
        return self.proj[half_levels, self.vertex[vertex]]

    def top_quad(self, cell: Cell, level: int) -> np.ndarray:
        i, j = cell
        z = 2 * level
        return np.array([self.px((i, j), z), self.px((i + 1, j), z), self.px((i + 1, j + 1), z),
                         self.px((i, j + 1), z)])

    #: the four sides of a cell (i, j): the step to the neighbour, and the side's two bottom
    #: vertices as offsets from (i, j), in the order a face is drawn
    _SIDE_STEPS = (((1, 0), (1, 0), (1, 1)), ((-1, 0), (0, 1), (0, 0)),
                   ((0, 1), (1, 1), (0, 1)), ((0, -1), (0, 0), (1, 0)))

    def _all_sides(self) -> dict[Cell, tuple[Side, ...]]:
        """The side faces of every cell that look towards the camera (computed for all cells
        at once)."""
        ij = np.array(self.cells, dtype=np.int64).reshape(-1, 2)
        visible = []
        for (du, dv), o0, o1 in self._SIDE_STEPS:
            p0 = self.point(ij[:, 0] + o0[0], ij[:, 1] + o0[1], np.zeros(len(ij)))
            p1 = self.point(ij[:, 0] + o1[0], ij[:, 1] + o1[1], np.zeros(len(ij)))
            mid = (p0 + p1) / 2
            normal = du * self.ex + dv * self.ey
            visible.append((self.camera[None, :] - mid) @ normal > 0)
        out: dict[Cell, tuple[Side, ...]] = {}
        for n, (i, j) in enumerate(self.cells):
            out[(i, j)] = tuple(Side(SIDE_U if du else SIDE_V, (i + o0[0], j + o0[1]), (i + o1[0], j + o1[1]),
                                     (i + du, j + dv))
                                for k, ((du, dv), o0, o1) in enumerate(self._SIDE_STEPS) if visible[k][n])
        return out

    def crop(self, image: np.ndarray) -> np.ndarray:
        """The frame's part this grid covers, at the grid's scale."""
        import cv2

        x0, y0 = self.off.astype(int)
        hh, ww = self.full_shape
        part = image[y0:y0 + hh, x0:x0 + ww]
        if self.scale == 1.0:
            return part
        return cv2.resize(part, (self.shape[1], self.shape[0]), interpolation=cv2.INTER_AREA)

    def cell_size_px(self) -> float:
        """Median size of a cell's top at the table in the (scaled) crop, pixels."""
        q = self.proj[0]
        keys = list(self.vertex)
        d = []
        for (i, j) in keys[:: max(1, len(keys) // 60)]:
            if (i + 1, j) in self.vertex:
                d.append(float(np.linalg.norm(q[self.vertex[(i + 1, j)]] - q[self.vertex[(i, j)]])))
        return float(np.median(d)) if d else 0.0

    def box(self, cell: Cell, level: int) -> tuple[float, float, float, float]:
        """Crop bounding box (x0, y0, x1, y1) of a column of ``level`` cubes at ``cell``."""
        b = self.boxes.get((cell, level))
        if b is None:
            b = self.boxes[(cell, level)] = self._box(cell, level)
        return b

    def _box(self, cell: Cell, level: int) -> tuple[float, float, float, float]:
        i, j = cell
        ks = [self.vertex[(i + a, j + b2)] for a in (0, 1) for b2 in (0, 1)]
        q = self.proj[[0, 2 * level]][:, ks].reshape(-1, 2)
        return (float(q[:, 0].min()) - 2, float(q[:, 1].min()) - 2, float(q[:, 0].max()) + 2,
                float(q[:, 1].max()) + 2)

    def _all_boxes(self) -> dict[tuple[Cell, int], tuple[float, float, float, float]]:
        """:meth:`box` of every cell at every height, computed at once (the same values)."""
        ks = np.array([[self.vertex[(i + a, j + b)] for a in (0, 1) for b in (0, 1)] for i, j in self.cells],
                      dtype=np.int64).reshape(-1, 4)
        out: dict[tuple[Cell, int], tuple[float, float, float, float]] = {}
        base = self.proj[0][ks]  # [cell, corner, xy]
        for level in range(1, self.levels + 1):
            q = np.concatenate([base, self.proj[2 * level][ks]], axis=1)
            lo, hi = q.min(axis=1), q.max(axis=1)
            for n, c in enumerate(self.cells):
                out[(c, level)] = (float(lo[n, 0]) - 2, float(lo[n, 1]) - 2, float(hi[n, 0]) + 2,
                                   float(hi[n, 1]) + 2)
        return out
