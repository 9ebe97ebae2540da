"""Drawing a height map as the camera would see it: a class map and a line map.

For a hypothesis of the mountain (a height per cell), :meth:`Raster.draw` paints, far to near,
each column's visible side faces and its top into a *class map* (table, top, side along u, side
along v) and a *line map* (where the engraved grid, the cube joints and the edges of the faces
should show: 2 on a predicted line, 1 elsewhere on a cube, 0 on the table). Only the columns
that reach the asked box are drawn, into the raster's own full-size maps; the polygons of each
face are computed once and kept.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from companion.vision.hlc.geometry import TOP, Cell, Grid

_SHIFT = 4
_SCALE = float(1 << _SHIFT)


def _ipoly(poly: np.ndarray) -> np.ndarray:
    return np.round(poly * _SCALE).astype(np.int32)


class Raster:
    def __init__(self, grid: Grid):
        self.grid = grid
        self.labels = np.zeros(grid.shape, np.uint8)
        self.lines = np.zeros(grid.shape, np.uint8)
        self._tops: dict[tuple[Cell, int], np.ndarray] = {}
        self._sides: dict[tuple[Cell, int, int, int], tuple[int, np.ndarray, list[np.ndarray]]] = {}

    def _top(self, c: Cell, h: int) -> np.ndarray:
        key = (c, h)
        p = self._tops.get(key)
        if p is None:
            p = self._tops[key] = _ipoly(self.grid.top_quad(c, h))
        return p

    def _side(self, c: Cell, n: int, hn: int, h: int) -> tuple[int, np.ndarray, list[np.ndarray]]:
        key = (c, n, hn, h)
        v = self._sides.get(key)
        if v is None:
            g = self.grid
            side = g.sides[c][n]
            b, top = 2 * hn, 2 * h
            # the face's bottom and top edges and every half-cube line between, all at once
            col0 = g.proj[b:top + 1, g.vertex[side.a0]]
            col1 = g.proj[b:top + 1, g.vertex[side.a1]]
            poly = np.array([col0[0], col1[0], col1[-1], col0[-1]])
            segs = np.concatenate([np.stack([col0, col1], axis=1), poly[[0, 3]][None], poly[[1, 2]][None]])
            v = self._sides[key] = (side.cls, _ipoly(poly), list(_ipoly(segs)))
        return v

    def draw(self, heights: dict[Cell, int], box: tuple[int, int, int, int] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
        """Class and line maps of ``box`` (x0, y0, x1, y1 in crop pixels; the whole crop when
        None). The arrays returned are views into the raster's buffers: copy them to keep them."""
        g = self.grid
        if box is None:
            box = (0, 0, g.shape[1], g.shape[0])
        x0, y0, x1, y1 = box
        labels, lines = self.labels, self.lines
        labels[y0:y1, x0:x1] = 0
        lines[y0:y1, x0:x1] = 0
        rank, boxes = g.rank, g.boxes
        # only the columns reaching the box are drawn, far to near (ranks are distinct, so
        # sorting these alone gives the order sorting all would)
        reach = []
        for c, h in heights.items():
            if h > 0 and c in rank:
                bx = boxes[(c, h)]
                if not (bx[2] < x0 or bx[0] > x1 or bx[3] < y0 or bx[1] > y1):
                    reach.append((rank[c], c, h))
        reach.sort()
        for _, c, h in reach:
            for n, side in enumerate(g.sides[c]):
                hn = heights.get(side.neighbour, 0)
                if hn >= h:
                    continue
                cls, poly, segs = self._side(c, n, hn, h)
                cv2.fillConvexPoly(labels, poly, cls, cv2.LINE_8, _SHIFT)
                cv2.fillConvexPoly(lines, poly, 1, cv2.LINE_8, _SHIFT)
                cv2.polylines(lines, segs, False, 2, 1, cv2.LINE_8, _SHIFT)
            quad = self._top(c, h)
            cv2.fillConvexPoly(labels, quad, TOP, cv2.LINE_8, _SHIFT)
            cv2.fillConvexPoly(lines, quad, 1, cv2.LINE_8, _SHIFT)
            cv2.polylines(lines, [quad], True, 2, 1, cv2.LINE_8, _SHIFT)
        return labels[y0:y1, x0:x1], lines[y0:y1, x0:x1]

    def column_box(self, heights: dict[Cell, int], cells: list[Cell], new_heights: dict[Cell, int]
                   ) -> tuple[int, int, int, int] | None:
        """The crop box that changes when ``cells`` go from ``heights`` to ``new_heights``: their
        columns before and after, and the side faces of their neighbours."""
        g = self.grid
        inf = float("inf")
        bx0 = by0 = inf
        bx1 = by1 = -inf
        # the bounds of the columns before and after and of their neighbours' sides, kept
        # running (the search asks this on each of its ~1000 tries a frame: no lists built)
        for b in self._touched_boxes(cells, heights, new_heights):
            if b[0] < bx0:
                bx0 = b[0]
            if b[1] < by0:
                by0 = b[1]
            if b[2] > bx1:
                bx1 = b[2]
            if b[3] > by1:
                by1 = b[3]
        if bx0 == inf:
            return None
        x0 = max(int(bx0), 0)
        y0 = max(int(by0), 0)
        x1 = min(int(bx1) + 2, g.shape[1])
        y1 = min(int(by1) + 2, g.shape[0])
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _touched_boxes(self, cells: list[Cell], heights: dict[Cell, int],
                       new_heights: dict[Cell, int]) -> Iterator[tuple]:
        """The frame boxes of the given cells' columns before and after a change, and of their
        neighbours' columns (whose side faces the change can uncover or hide)."""
        g = self.grid
        boxes, cellset = g.boxes, g.cellset
        for c in cells:
            for hh in (heights.get(c, 0), new_heights.get(c, 0)):
                if hh > 0:
                    yield boxes.get((c, hh)) or g.box(c, hh)  # a cell just outside the grid
            i, j = c
            for nb in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                hn = max(heights.get(nb, 0), new_heights.get(nb, 0))
                if hn > 0 and nb in cellset:
                    yield boxes[(nb, hn)]
