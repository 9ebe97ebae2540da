"""Drawing a height map as the camera would see it: a class map and a line map.

For a hypothesis of the mountain (a height per cell), :meth:`Raster.draw` paints, far to near,
each column's visible side faces and its top into a *class map* (table, top, side along u, side
along v) and a *line map* (where the engraved grid, the cube joints and the edges of the faces
should show: 2 on a predicted line, 1 elsewhere on a cube, 0 on the table). Only the columns
that reach the asked box are drawn, into the raster's own full-size maps; the polygons of each
face are computed once and kept.

A face's drawing (its polygon in the class map, in the line map, and its lines) is the same
wherever and whenever it is drawn: it is drawn once, into a scratch pair of maps of the crop's
size (the same size, so the same clipping and the same pixels), and kept as the pixels it set
and their values (a *stamp*). Drawing only sets pixels, so stamping a face over what the faces
drawn before it left gives the very pixels its polygons would: the search's thousands of tries
a frame stamp faces (one indexed assignment each) instead of drawing three polygons each.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from companion.vision.hlc.geometry import TOP, Cell, Grid

_SHIFT = 4
_SCALE = float(1 << _SHIFT)


class Raster:
    def __init__(self, grid: Grid):
        self.grid = grid
        # the class map and the line map, one after the other in one buffer (a face's stamp
        # sets pixels of both at once); the maps are views of it made when asked, so that a
        # copy of the raster (the referee's memory of a reading, a deep copy) draws into its
        # own buffer and reads its own maps
        self._maps = np.zeros((2,) + grid.shape, np.uint8)
        self._scratch: np.ndarray | None = None
        self._index: np.ndarray | None = None
        #: every lattice vertex's crop pixel at every half-cube height, in the drawing's fixed
        #: point (``_SHIFT`` bits of fraction), as each face's polygon was rounded
        self._iproj = np.round(grid.proj * _SCALE).astype(np.int32)
        #: (cell, height) → the column's painter's rank and crop box, for every column of the grid
        self._columns = {(c, h): (grid.rank[c],) + tuple(grid.boxes[(c, h)])
                         for c in grid.cells for h in range(1, grid.levels + 1)}
        #: each cell's neighbours behind its visible side faces, in the faces' order
        self._neighbours = {c: tuple(side.neighbour for side in grid.sides[c]) for c in grid.cells}
        #: the stamps of the tops (cell, height) and of the side faces (cell, side, bottom, top)
        self._top_stamps: dict[tuple[Cell, int], tuple[np.ndarray, np.ndarray]] = {}
        self._side_stamps: dict[tuple[Cell, int, int, int], tuple[np.ndarray, np.ndarray]] = {}

    @property
    def labels(self) -> np.ndarray:
        """The class map (a view of the raster's buffer)."""
        return self._maps[0]

    @property
    def lines(self) -> np.ndarray:
        """The line map (a view of the raster's buffer)."""
        return self._maps[1]

    #: what depends on the grid alone and is only ever added to: a copy of the raster may share
    #: it with the original (:func:`companion.vision.hlc.reader._kept`; the scratch maps, drawn
    #: into, are each copy's own)
    SHARED = ("_index", "_iproj", "_columns", "_neighbours", "_top_stamps", "_side_stamps")

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
        columns = self._columns
        # only the columns reaching the box are drawn, far to near (ranks are distinct, so
        # sorting these alone gives the order sorting all would)
        reach = []
        for c, h in heights.items():
            col = columns.get((c, h))  # (rank, box): None for no cube or a cell off the grid
            if col is not None and not (col[3] < x0 or col[1] > x1 or col[4] < y0 or col[2] > y1):
                reach.append((col[0], c, h))
        reach.sort()
        # each face stamped whole, as its polygons were drawn whole (the pixels outside the box
        # are no part of the answer)
        flat, neighbours = self._maps.reshape(-1), self._neighbours
        side_stamps, top_stamps = self._side_stamps, self._top_stamps
        for _, c, h in reach:
            for n, nb in enumerate(neighbours[c]):
                hn = heights.get(nb, 0)
                if hn >= h:
                    continue
                st = side_stamps.get((c, n, hn, h))
                if st is None:
                    st = self._side_stamp(c, n, hn, h)
                flat[st[0]] = st[1]
            st = top_stamps.get((c, h))
            if st is None:
                st = self._top_stamp(c, h)
            flat[st[0]] = st[1]
        return labels[y0:y1, x0:x1], lines[y0:y1, x0:x1]

    def _side_stamp(self, c: Cell, n: int, hn: int, h: int) -> tuple[np.ndarray, np.ndarray]:
        """The stamp of column ``c``'s ``n``-th visible side face from ``hn`` cubes up to ``h``:
        its polygon, its bottom and top edges, and every half-cube line between."""
        g = self.grid
        side = g.sides[c][n]
        col0 = self._iproj[2 * hn:2 * h + 1, g.vertex[side.a0]]
        col1 = self._iproj[2 * hn:2 * h + 1, g.vertex[side.a1]]
        poly = np.array([col0[0], col1[0], col1[-1], col0[-1]])
        segs = list(np.stack([col0, col1], axis=1)) + [poly[[0, 3]], poly[[1, 2]]]
        st = self._side_stamps[(c, n, hn, h)] = self._stamp(side.cls, poly, segs, False,
                                                            np.concatenate([col0, col1]))
        return st

    def _top_stamp(self, c: Cell, h: int) -> tuple[np.ndarray, np.ndarray]:
        """The stamp of column ``c``'s top at ``h`` cubes: its quad and its edges."""
        g = self.grid
        i, j = c
        v = g.vertex
        quad = self._iproj[2 * h, [v[(i, j)], v[(i + 1, j)], v[(i + 1, j + 1)], v[(i, j + 1)]]]
        st = self._top_stamps[(c, h)] = self._stamp(TOP, quad, [quad], True, quad)
        return st

    def _stamp(self, cls: int, poly: np.ndarray, segs: list[np.ndarray], closed: bool,
               pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A face's stamp: the face drawn as it always was (its polygon in the class map and in
        the line map, then its lines) into scratch maps of the crop's size holding a value no
        drawing sets, and the flat indices (into the pair of maps) and values of the pixels it
        set. ``pts``: every point of the polygon and the lines."""
        hh, ww = self.grid.shape
        if self._scratch is None:
            self._scratch = np.full((2, hh, ww), 255, np.uint8)
            self._index = np.arange(2 * hh * ww, dtype=np.intp).reshape(2, hh, ww)
        scratch = self._scratch
        cv2.fillConvexPoly(scratch[0], poly, cls, cv2.LINE_8, _SHIFT)
        cv2.fillConvexPoly(scratch[1], poly, 1, cv2.LINE_8, _SHIFT)
        cv2.polylines(scratch[1], segs, closed, 2, 1, cv2.LINE_8, _SHIFT)
        lo = pts.min(axis=0) >> _SHIFT
        hi = pts.max(axis=0) >> _SHIFT
        # every pixel the drawings can reach (an end rounds to the nearest pixel), in the crop
        x0 = min(max(int(lo[0]) - 3, 0), ww)
        y0 = min(max(int(lo[1]) - 3, 0), hh)
        x1 = min(max(int(hi[0]) + 4, 0), ww)
        y1 = min(max(int(hi[1]) + 4, 0), hh)
        part = scratch[:, y0:y1, x0:x1]
        on = part != 255
        st = (self._index[:, y0:y1, x0:x1][on], part[on])
        part[...] = 255
        return st

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
