"""Finding the height map that best explains the frame.

The search changes the heights of cells (one cell, or a 2×2 block: a cube top) and keeps a change
when the frame is better explained by it, the mountain drawn by :class:`~.raster.Raster` and
judged by :class:`~.evidence.Evidence`. Only the box a change can affect is redrawn and re-scored,
so a change costs a fraction of a millisecond. Changes are tried best first (a lazy greedy
search: a change's gain is re-measured only when something near it changed since), which builds
tall, well-seen stacks before the doubtful cubes around them. Each cube costs a little
(:attr:`Search.cube_cost`), so a cube is only reported when the frame shows it. A tower read a
cell off its place is then moved whole (:meth:`Search.shift`): no single change of one tower
can move it there without first losing what the misplaced tower explains.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Callable, Iterable

import numpy as np

from companion.vision.hlc.evidence import Evidence
from companion.vision.hlc.geometry import Cell, Grid
from companion.vision.hlc.raster import Raster

Move = tuple[tuple[Cell, int], ...]


def _hits(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


class Search:
    def __init__(self, grid: Grid, evidence: Evidence, *, levels: int = 7, cube_cost: float = 30.0):
        self.grid, self.evidence, self.levels = grid, evidence, levels
        self.raster = Raster(grid)
        self.cube_cost = cube_cost
        self.heights: dict[Cell, int] = {}
        #: 2×2 towers whose highest cover is the height map (a pile of cubes is such a union:
        #: one tower per cube with nothing on it)
        self.towers: dict[Cell, int] = {}
        self.redraw()

    # ------------------------------------------------------------------------ one change
    def gain(self, move: Move) -> tuple[float, tuple[int, int, int, int] | None]:
        new = dict(self.heights)
        for c, h in move:
            new[c] = h
        cells = [c for c, _ in move]
        box = self.raster.column_box(self.heights, cells, new)
        if box is None:
            return -np.inf, None
        x0, y0, x1, y1 = box
        labels, lines = self.raster.draw(new, box)
        old = float(self.current[y0:y1, x0:x1].sum())
        now = self.evidence.score(labels, lines, box)
        dh = sum(h - self.heights.get(c, 0) for c, h in move)
        return now - old - self.cube_cost * dh / 4.0, box

    def apply(self, move: Move) -> tuple[int, int, int, int] | None:
        new = dict(self.heights)
        for c, h in move:
            new[c] = h
        box = self.raster.column_box(self.heights, [c for c, _ in move], new)
        self.heights = {c: h for c, h in new.items() if h > 0}
        if box is not None:
            x0, y0, x1, y1 = box
            labels, lines = self.raster.draw(self.heights, box)
            self.labels[y0:y1, x0:x1] = labels
            self.lines[y0:y1, x0:x1] = lines
            self.current[y0:y1, x0:x1] = self.evidence.pixel_scores(labels, lines, box)
        return box

    def redraw(self) -> None:
        """Draw the whole current map again (after the evidence changed)."""
        labels, lines = self.raster.draw(self.heights)
        self.labels, self.lines = labels.copy(), lines.copy()
        self.current = self.evidence.pixel_scores(self.labels, self.lines)

    def total(self) -> float:
        return float(self.current.sum()) - self.cube_cost * sum(self.heights.values()) / 4.0

    # ------------------------------------------------------------------------ the moves
    def tower_move(self, pos: Cell, h: int) -> Move:
        """The cell changes of setting the tower standing on the 2×2 block at ``pos`` to ``h``
        (0 removes it): each of its cells takes the highest tower covering it."""
        i, j = pos
        out = []
        for c in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)):
            if c not in self.grid.cellset:
                continue
            best = h
            for p in ((c[0] - 1, c[1] - 1), (c[0], c[1] - 1), (c[0] - 1, c[1]), (c[0], c[1])):
                if p != pos:
                    best = max(best, self.towers.get(p, 0))
            if best != self.heights.get(c, 0):
                out.append((c, best))
        return tuple(out)

    def towers_move(self, changes: dict[Cell, int]) -> Move:
        """The cell changes of setting several towers at once (``changes``: position to height,
        0 takes the tower away): each cell they cover takes the highest tower covering it."""
        towers = dict(self.towers)
        towers.update(changes)
        cells = {c for (i, j) in changes for c in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1))
                 if c in self.grid.cellset}
        out = []
        for c in sorted(cells):
            best = max(towers.get(p, 0) for p in ((c[0] - 1, c[1] - 1), (c[0], c[1] - 1), (c[0] - 1, c[1]), c))
            if best != self.heights.get(c, 0):
                out.append((c, best))
        return tuple(out)

    def _move_towers(self, changes: dict[Cell, int], move: Move) -> None:
        """Set the towers ``changes`` names (0 takes one away) and apply their cell changes
        ``move`` (:meth:`towers_move` of the same changes)."""
        for p, hh in changes.items():
            if hh > 0:
                self.towers[p] = hh
            else:
                self.towers.pop(p, None)
        self.apply(move)

    def _best_move(self, pos: Cell, targets: Iterable[tuple[int, int, int]], valid: set[Cell],
                   min_gain: float) -> tuple[dict[Cell, int], Move] | None:
        """The best of moving the tower at ``pos`` whole to one of ``targets`` ((i, j, height)
        triples, tried in order; the first of equal gains is kept): its changes and cell move,
        or None when none gains over ``min_gain``. A target off the valid positions, on ``pos``
        itself, out of the levels or not above the tower already standing there is skipped."""
        best, best_gain = None, min_gain
        for i, j, h2 in targets:
            q = (i, j)
            if q == pos or q not in valid or h2 < 1 or h2 > self.levels or h2 <= self.towers.get(q, 0):
                continue
            ch = {pos: 0, q: h2}
            mv = self.towers_move(ch)
            if not mv:
                continue
            gn, _ = self.gain(mv)
            if gn > best_gain:
                best, best_gain = (ch, mv), gn
        return best

    def shift(self, *, min_gain: float = 40.0, rounds: int = 3) -> int:
        """Move whole towers by a cell (to any of the eight neighbouring positions, a level
        lower, as high or a level higher): what the one-tower changes of :meth:`run` cannot do
        in one step, since taking a well-placed-looking tower away first loses more than
        setting it one cell off gains. A tower read one cell off its place explains most of
        the frame's wood there (its top overlaps the true one by half or a quarter), so the
        greedy search keeps it; the shifted tower explains it all. Returns the number of
        towers moved.

        ``min_gain``: a whole tower moved is a large change, taken only when it explains the
        picture clearly better. The towers a cell off in the corpus frames of its tests gain
        over 50; a tower under a giant on the demo table gained 25 from being moved off its
        true place (the giant's pixels fit no cube), which made the same frame read two ways
        depending on the lattice kept from earlier frames: a game resumed after a crash then
        read a giant off its cube and judged another move than the uninterrupted game."""
        valid = set(self.tower_positions())
        moved = 0
        for _ in range(rounds):
            done = 0
            for pos in sorted(self.towers, key=lambda p: (-self.towers[p], p)):
                h = self.towers.get(pos, 0)
                if h == 0:
                    continue
                targets = ((pos[0] + da, pos[1] + db, h2)
                           for da in (-1, 0, 1) for db in (-1, 0, 1) for h2 in (h - 1, h, h + 1))
                best = self._best_move(pos, targets, valid, min_gain)
                if best is not None:
                    self._move_towers(*best)
                    done += 1
            moved += done
            if done == 0:
                break
        return moved

    def slide(self, *, min_gain: float = 40.0) -> int:
        """Move whole towers along the camera's line of sight: a tower ``h`` high at ``pos``
        becomes one ``h2`` high where its top's centre falls on the same ray from the camera
        (farther and lower, or nearer and taller). A tall tower's top and a lower one farther
        along the ray look alike from above; which one the greedy search builds can depend on
        one frame's sensor noise (a three-cube tower read as one cube on the table three cells
        behind it, the tower's sides then left unexplained), and no change of one tower, nor a
        move by one cell (:meth:`shift`), gets from one to the other without first losing
        what the top explains. Returns the number of towers moved."""
        g = self.grid
        valid = set(self.tower_positions())
        cam = np.asarray(g.camera, dtype=np.float64)
        ex, ey = g.ex[:2], g.ey[:2]
        moved = 0
        for pos in sorted(self.towers, key=lambda p: (-self.towers[p], p)):
            h = self.towers.get(pos, 0)
            if h == 0:
                continue
            z = 2.0 * g.pitch * h
            top = g.point(pos[0] + 1.0, pos[1] + 1.0, z)
            if cam[2] <= z:
                continue
            targets = []
            for h2 in range(1, self.levels + 1):
                z2 = 2.0 * g.pitch * h2
                if h2 == h or cam[2] <= z2:
                    continue
                far = cam[:2] + (top[:2] - cam[:2]) * (cam[2] - z2) / (cam[2] - z)
                rel = far - g.origin[:2]
                u, v = float(rel @ ex) / g.pitch, float(rel @ ey) / g.pitch
                targets.append((int(round(u)) - 1, int(round(v)) - 1, h2))
            best = self._best_move(pos, targets, valid, min_gain)
            if best is not None:
                self._move_towers(*best)
                moved += 1
        return moved

    def tower_positions(self) -> list[Cell]:
        g = self.grid
        return [(i, j) for (i, j) in g.cells
                if all(b in g.cellset for b in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)))]

    # ------------------------------------------------------------------------ the search
    def run(self, *, min_gain: float = 1.0, max_steps: int = 400, near: int | None = None,
            span: int | None = None, positions: list[Cell] | None = None,
            only: Callable[[tuple[int, int, int, int]], bool] | None = None,
            placed: bool = False) -> int:
        """Best-first improvement of the towers until no change gains ``min_gain``; returns the
        number of changes made. ``near``: only start with changes within that many cells of the
        towers standing (a refinement after the evidence changed); ``span``: only try heights
        within that many levels of a tower's current one (a refinement once the heights are
        nearly right: each tried height costs a drawing of its column); ``positions``: only
        these towers are tried; ``only``: only changes whose drawing box it accepts are tried
        (a warm reading: the changes the frame's changed pixels can show); ``placed``: with
        ``span``, also try a cube laid on what stands under a tower's square now, and taking
        the tower away (what a move does between two still moments)."""
        counter = itertools.count()
        heap: list = []
        applied: list[tuple[int, tuple[int, int, int, int]]] = []
        clock = 0
        if positions is None:
            positions = self.tower_positions()

        def heights_to_try(pos: Cell, cur: int) -> range | list[int]:
            if span is None:
                return range(self.levels + 1)
            near_cur = range(max(0, cur - span), min(self.levels, cur + span) + 1)
            if not placed:
                return near_cur
            i, j = pos
            under = max(self.heights.get(c, 0) for c in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)))
            return sorted(set(near_cur) | {0} | ({under + 1} if under < self.levels else set()))

        def push(pos: Cell, h: int) -> None:
            mv = self.tower_move(pos, h)
            if not mv:
                return
            if only is not None:
                new = dict(self.heights)
                new.update(mv)
                where = self.raster.column_box(self.heights, [c for c, _ in mv], new)
                if where is None or not only(where):
                    return
            gn, box = self.gain(mv)
            if gn > min_gain:
                heapq.heappush(heap, (-gn, next(counter), clock, pos, h, box))

        if near is None:
            for pos in positions:
                cur = self.towers.get(pos, 0)
                for h in heights_to_try(pos, cur):
                    if h != cur:
                        push(pos, h)
        else:
            standing = list(self.towers)
            for pos in positions:
                cur = self.towers.get(pos, 0)
                if cur == 0 and not any(abs(pos[0] - a) <= near and abs(pos[1] - b) <= near for a, b in standing):
                    continue
                for h in heights_to_try(pos, cur):
                    if h != cur:
                        push(pos, h)
        steps = 0
        while heap and steps < max_steps:
            _, _, when, pos, h, box = heapq.heappop(heap)
            if self.towers.get(pos, 0) == h:
                continue
            if box is None or any(t > when and _hits(box, b) for t, b in applied):
                push(pos, h)
                continue
            mv = self.tower_move(pos, h)
            if not mv:
                continue
            if h > 0:
                self.towers[pos] = h
            else:
                self.towers.pop(pos, None)
            changed = self.apply(mv)
            clock += 1
            steps += 1
            if changed is not None:
                applied.append((clock, changed))
            for h2 in heights_to_try(pos, self.towers.get(pos, 0)):
                if h2 != self.towers.get(pos, 0):
                    push(pos, h2)
        return steps
