"""Reading each square's stack from the labelled picture of the board plane.

On the plane (:class:`~companion.vision.gleebs.board.Rectifier`) a pyramid standing on the board
shows its base square at its true place and size, and the rest of it leaning away from the
camera's foot: a point at height z over board point q appears at ``C + (q − C)·Cz/(Cz − z)``
(C the camera). So a pyramid's picture on the plane is the convex hull of its base square and
of its leaning apex, and a pyramid seated higher up a stack shows its base scaled and pushed
the same way. A convex shape is known by its *support* (how far it reaches in each direction):
the reader measures the support of what it sees and fits squares to it.

For each square, nearest the camera's foot first (what stands in front may hide what stands
behind, never the reverse):

1. the pixels of a piece's colour (black included) connected to the square's middle, less what
   the stacks already read explain, are the stack's silhouette ("other" pixels, where two
   colours blur into each other, join its parts but are not part of it);
2. the *bottom* pyramid is the square base (size, turn, place) whose support, with its leaning
   apex, matches the silhouette's: an outline that reaches beyond the model is tolerated (a
   taller stack, a neighbour touching, a shadow), one that falls short of it is not;
3. the *top* pyramid's colour is the colour seen along the stack's axis near its top; its size
   and place are fitted the same way to the outline of that colour's patch;
4. a top smaller than the bottom makes a chain; the colours showing between them (nearer the
   axis: the middle pyramid) complete it.

What cannot be told from the picture is not made up: a stack showing one colour is read as one
pyramid, the size of its outline, unless its faces' tones show a smaller pyramid of that colour
seated on it turned against it (:mod:`.faces`). (Turned alike, such a pyramid shows only by its
rim; ``docs/observation/gleebs-and-grues.md`` says so.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.boards import GLEEBS_BOARD, BoardSpec
from companion.vision.gleebs.board import Rectifier
from companion.vision.gleebs.faces import seated_top
from companion.vision.gleebs.geometry import COLOURS, SIZE_NAMES, SIZES, seat_heights
from companion.vision.gleebs.labels import OTHER, PAPER, label_of

BLACK = label_of("black")

#: directions the support is measured in
DIRECTIONS = 36
_PHI = np.arange(DIRECTIONS) * (2 * math.pi / DIRECTIONS)
_U = np.stack([np.cos(_PHI), np.sin(_PHI)], axis=1)
#: turns tried for a square (degrees; a square repeats every 90)
YAWS = np.arange(0.0, 90.0, 6.0)
#: how much an outline reaching beyond the model counts against it, relative to falling short
BEYOND_WEIGHT = 0.04
#: how far beyond the model an outline still counts against it (mm)
BEYOND_MM = 6.0
#: how much an outline falling short of the model counts where it ends against something that
#: may hide it
OPEN_WEIGHT = 0.002
#: how firmly the corners' rounding is held to what the camera's blur makes, and its limit (mm)
ROUNDING_PRIOR = 0.5
MAX_ROUNDING_MM = 4.0
#: the most a coloured top's corners are rounded (mm)
TOP_ROUNDING_MM = 3.0
#: the stack's axis stands within this of its square's middle (mm)
MAX_OFFSET_MM = 7.0
#: what an axis beyond MAX_OFFSET_MM costs a fit, per mm² (a seated top's axis is the lower
#: one's, fitted again from less; a stack's bottom is held firmly to its square: a medium leaning
#: far in a tilted view otherwise fits as a large standing 8 mm off the middle)
OFFSET_WEIGHT = 0.02
BOTTOM_OFFSET_WEIGHT = 1.0
#: a stack whose top colour covers this share of its outline shows one pyramid
ONE_COLOUR_SHARE = 0.9
#: the fit cost margin over which a size's confidence grows (see :meth:`StackReader._conf`)
SIZE_MARGIN = 0.15
#: black taking at least this share of what is seen along the axis near a coloured top's apex is
#: that pyramid's faces in shade, never a lower pyramid, which the top covers there
FACE_SHARE = 0.12
#: how far a black top's patch is taken to reach into the blend round it (mm)
BLEND_MM = 1.0
#: the fewest pixels of a patch worth reading (at the plane's resolution)
MIN_PIXELS = 25
#: a stack reaches at most this high (three pyramids turned against each other)
MAX_TOP_MM = 62.0


@dataclass(frozen=True)
class Level:
    """One visible pyramid of a stack, as read."""

    colour: str
    size: str
    conf: float


@dataclass(frozen=True)
class StackReading:
    """A square's stack as read: its visible pyramids bottom to top, where its axis stands
    (board mm), and its outline on the plane (board mm polygon) for drawing and for knowing
    what it hides."""

    cell: tuple[int, int]
    levels: tuple[Level, ...]
    centre: tuple[float, float]
    yaws: tuple[float, ...]
    outline: np.ndarray
    fit_mm: float


@dataclass(frozen=True)
class SquareFit:
    size: str
    yaw: float
    offset: np.ndarray  # where the square's centre appears on the plane, from the cell middle
    cost: float
    costs: dict[str, float]


def _spread(yaws: np.ndarray) -> np.ndarray:
    """(len(yaws), DIRECTIONS): support of a unit-half-side square turned ``yaws`` (degrees)."""
    d = np.radians(yaws)[:, None] - _PHI[None, :]
    return np.abs(np.cos(d)) + np.abs(np.sin(d))


_SPREAD = _spread(YAWS)


def fit_square(support: np.ndarray, sizes: list[str], scale: dict[str, float],
               lean: dict[str, np.ndarray], apex_gain: dict[str, float],
               origin_shift: dict[str, np.ndarray], prior: np.ndarray | None = None,
               rounding: float = 1.0, open_dirs: np.ndarray | None = None,
               max_rounding: float = MAX_ROUNDING_MM,
               offset_weight: float = OFFSET_WEIGHT) -> SquareFit | None:
    """Fit a square base (size, turn, place) and its leaning apex to an outline's ``support``
    (DIRECTIONS values, mm from the cell middle).

    For each size: the base appears scaled by ``scale[size]`` and its centre at
    ``origin_shift[size] + scale·δ`` (δ the axis offset, fitted), its apex at
    ``lean[size] + apex_gain[size]·δ``. A camera rounds a square's corners (blur, the pixel
    grid), so the base is a square with corners rounded by ρ (fitted, near ``rounding``): its
    support is ``h·g + ρ·(1 − g)`` where g ≥ 1 is the turned square's spread. δ and ρ are found
    by iteratively reweighted least squares with a one-sided weight: the outline may reach
    beyond the model cheaply, never fall short of it, except in the ``open_dirs`` where it ends
    at something that may hide it (print, a nearer stack, the edge of the picture). ρ is held
    within ``max_rounding``; an axis beyond MAX_OFFSET_MM costs ``offset_weight`` a mm².
    """
    short = np.where(open_dirs, OPEN_WEIGHT, 1.0)[None, :] if open_dirs is not None else 1.0
    n, k = len(YAWS), len(sizes)
    # every (size, turn) candidate at once: rows are size-major
    s = np.repeat([scale[z] for z in sizes], n)[:, None]                      # (N, 1)
    ga = np.repeat([apex_gain[z] for z in sizes], n)[:, None]
    h = np.repeat([SIZES[z].base / 2 * scale[z] for z in sizes], n)[:, None]
    spread = np.tile(_SPREAD, (k, 1))                                         # (N, K)
    shift = np.repeat(np.array([origin_shift[z] @ _U.T for z in sizes]), n, axis=0)
    base_const = h * spread + shift
    apex_const = np.repeat(np.array([lean[z] @ _U.T for z in sizes]), n, axis=0)
    corner = 1.0 - spread                                                      # ≤ 0
    x = np.zeros((n * k, 3))
    x[:, 2] = rounding
    if prior is not None:
        x[:, :2] = prior
    ux, uy = _U[:, 0][None, :], _U[:, 1][None, :]
    for _ in range(3):
        proj = x[:, 0:1] * ux + x[:, 1:2] * uy
        base = base_const + s * proj + x[:, 2:3] * corner
        apex = apex_const + ga * proj
        use_apex = apex > base
        r = support[None, :] - np.where(use_apex, apex, base)
        # beyond the model: a little cost up to BEYOND_MM, then none (a shadow, a neighbour or a
        # taller stack reaching far out says nothing about where this base is)
        w = np.where(r > BEYOND_MM, 1e-4, np.where(r > 0, BEYOND_WEIGHT, short)) * np.where(use_apex, 0.4, 1.0)
        coef = np.where(use_apex, ga, s)
        a0, a1, a2 = coef * ux, coef * uy, np.where(use_apex, 0.0, corner)
        b = support[None, :] - np.where(use_apex, apex_const, base_const)
        wa0, wa1, wa2 = w * a0, w * a1, w * a2
        # the normal equations, 3×3 per candidate, solved by Cramer's rule all at once
        m00 = np.einsum("ij,ij->i", wa0, a0) + 1e-3
        m01 = np.einsum("ij,ij->i", wa0, a1)
        m02 = np.einsum("ij,ij->i", wa0, a2)
        m11 = np.einsum("ij,ij->i", wa1, a1) + 1e-3
        m12 = np.einsum("ij,ij->i", wa1, a2)
        m22 = np.einsum("ij,ij->i", wa2, a2) + ROUNDING_PRIOR
        v0 = np.einsum("ij,ij->i", wa0, b)
        v1 = np.einsum("ij,ij->i", wa1, b)
        v2 = np.einsum("ij,ij->i", wa2, b) + ROUNDING_PRIOR * rounding
        c00 = m11 * m22 - m12 * m12
        c01 = m02 * m12 - m01 * m22
        c02 = m01 * m12 - m02 * m11
        det = m00 * c00 + m01 * c01 + m02 * c02
        c11 = m00 * m22 - m02 * m02
        c12 = m01 * m02 - m00 * m12
        c22 = m00 * m11 - m01 * m01
        x = np.stack([c00 * v0 + c01 * v1 + c02 * v2,
                      c01 * v0 + c11 * v1 + c12 * v2,
                      c02 * v0 + c12 * v1 + c22 * v2], axis=1) / det[:, None]
        x[:, 2] = np.clip(x[:, 2], 0.0, max_rounding)
        norm = np.hypot(x[:, 0], x[:, 1])[:, None]
        lim = MAX_OFFSET_MM * 1.5
        x[:, :2] = np.where(norm > lim, x[:, :2] * (lim / np.maximum(norm, 1e-9)), x[:, :2])
    proj = x[:, 0:1] * ux + x[:, 1:2] * uy
    model = np.maximum(base_const + s * proj + x[:, 2:3] * corner, apex_const + ga * proj)
    r = support[None, :] - model
    cost = np.sum(np.where(r > 0, BEYOND_WEIGHT * np.minimum(r, BEYOND_MM) ** 2, short * r * r), axis=1) / DIRECTIONS
    cost += offset_weight * np.maximum(np.hypot(x[:, 0], x[:, 1]) - MAX_OFFSET_MM, 0.0) ** 2
    per = cost.reshape(k, n)
    costs = {z: float(per[i].min()) for i, z in enumerate(sizes)}
    j = int(np.argmin(cost))
    return SquareFit(sizes[j // n], float(YAWS[j % n]), x[j, :2].copy(), float(cost[j]), costs)


def _band_px(ink: np.ndarray, rect: Rectifier, spec: BoardSpec) -> int:
    """How many plane pixels across a grid line's band of print is (the printed line widened by
    the camera's blur), measured on the inner line x = one square, half a square up."""
    p = rect.to_px(np.array([[spec.square_mm, spec.square_mm / 2]]))[0]
    u, v = int(round(p[0])), int(round(p[1]))
    if not (0 <= v < ink.shape[0] and 0 <= u < ink.shape[1]) or not ink[v, u]:
        return max(2, int(round(2.0 * rect.ppm)))
    row = ink[v]
    a = u
    while a > 0 and row[a - 1]:
        a -= 1
    b = u
    while b + 1 < len(row) and row[b + 1]:
        b += 1
    return b - a + 1


class StackReader:
    """Reads the stacks of one labelled plane picture."""

    def __init__(self, rect: Rectifier, labels: np.ndarray, ink: np.ndarray,
                 spec: BoardSpec = GLEEBS_BOARD, cache: dict | None = None,
                 grey: np.ndarray | None = None):
        self.rect = rect
        self.labels = labels
        #: the plane picture's grey tones, where the faces of one-colour stacks are read
        self.grey = grey
        #: what depends only on the view (each square's window and zone), kept by the caller
        #: for as long as the camera and the board stay still
        self.cache = {} if cache is None else cache
        self.spec = spec
        C = rect.view.pose.camera_position
        self.C = np.asarray(C, float)
        # a piece is what shows one of the pieces' colours ("other" is a hand, a sleeve, the
        # fringe of a shadow: the hand check looks at it)
        fg = ((labels != PAPER) & (labels != OTHER)).astype(np.uint8)
        # print is black: on it only a colour is surely a piece (a black pyramid standing on a
        # line cannot be told from the line, and is bridged over it below)
        fg[(ink > 0) & (labels == BLACK)] = 0
        # a grid line crossing a pyramid's picture must not cut it in two: fill the masked
        # band where the picture continues on both sides
        r = max(2, int(round(2.0 * rect.ppm)))
        closed = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (r, r)))
        fg = fg | (closed & ink)
        # a black pyramid lying across a grid line reads black on both sides of the line's band
        # (the line, widened by the blur, is wider than the gap closed above): bridge the band
        # straight across, where black shows on both sides of it, so the part beyond the line
        # (a leaning apex) stays part of the silhouette
        k = _band_px(ink, rect, spec) + 2
        black = ((labels == BLACK) & (ink == 0)).astype(np.uint8)
        across = (cv2.morphologyEx(black, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
                  | cv2.morphologyEx(black, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k))))
        fg = fg | (across & ink & (labels == BLACK))
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
        self.fg = fg
        # what joins a stack's pieces: mixed pixels where two colours meet read "other"
        self.joined = fg | ((labels == OTHER) & (ink == 0)).astype(np.uint8)
        self.ink = ink
        self.explained = np.zeros_like(fg)

    # ------------------------------------------------------------------------------ geometry
    def scale(self, z: float) -> float:
        return float(self.C[2] / max(self.C[2] - z, 1.0))

    def shift(self, c0: np.ndarray, z: float) -> np.ndarray:
        """Where the cell middle's vertical at height z appears, from the cell middle."""
        return (self.C[:2] - c0) * (1.0 - self.scale(z))

    def _support(self, mask: np.ndarray, off: tuple[int, int], c0: np.ndarray,
                 hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
        """How far the patch ``mask`` (a window at ``off``) reaches in each direction (mm from
        the cell middle), and in which directions it ends against ``hidden`` pixels (print, a
        nearer stack, the window's edge): there it may go on unseen."""
        pts = cv2.findNonZero(mask)
        if pts is None or len(pts) < MIN_PIXELS:
            return None
        hull = cv2.convexHull(pts).reshape(-1, 2)
        xy = self.rect.to_board(hull.astype(np.float64) + np.array(off, float)) - c0
        dots = xy @ _U.T
        half = 0.5 / self.rect.ppm  # a pixel's centre lies half a pixel inside the edge
        reach = dots.max(axis=0) + half
        if hidden is None:
            return reach, np.zeros(DIRECTIONS, bool)
        ext = hull[np.argmax(dots, axis=0)]
        return reach, hidden[ext[:, 1], ext[:, 0]] > 0

    def _hidden(self, win: tuple[int, int, int, int], zone: np.ndarray) -> np.ndarray:
        """Window pixels next to something that may hide a stack's edge: print, what nearer
        stacks explain, the zone's and the window's edges."""
        x0, y0, x1, y1 = win
        hid = (self.ink[y0:y1, x0:x1] | self.explained[y0:y1, x0:x1] | (1 - zone)).astype(np.uint8)
        hid[0, :] = hid[-1, :] = 1
        hid[:, 0] = hid[:, -1] = 1
        r = max(1, int(round(1.2 * self.rect.ppm)))
        return cv2.dilate(hid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))

    def _window(self, c0: np.ndarray) -> tuple[int, int, int, int]:
        """The plane pixels a stack on the square around ``c0`` can cover."""
        lean = self.shift(c0, MAX_TOP_MM)
        reach = MAX_OFFSET_MM + SIZES["large"].base / 2 * math.sqrt(2) * self.scale(25.0)
        pts = np.array([c0 + [dx, dy] for dx in (-reach, reach) for dy in (-reach, reach)]
                       + [c0 + lean + [dx, dy] for dx in (-6, 6) for dy in (-6, 6)])
        px = self.rect.to_px(pts)
        x0 = max(int(np.floor(px[:, 0].min())), 0)
        y0 = max(int(np.floor(px[:, 1].min())), 0)
        x1 = min(int(np.ceil(px[:, 0].max())) + 1, self.rect.width)
        y1 = min(int(np.ceil(px[:, 1].max())) + 1, self.rect.height)
        return x0, y0, x1, y1

    def _zone(self, c0: np.ndarray, win: tuple[int, int, int, int]) -> np.ndarray:
        """Pixels of the window where this square's stack may show: a disc around the middle
        wide enough for a large pyramid turned any way and off centre, swept along the lean."""
        x0, y0, x1, y1 = win
        zone = np.zeros((y1 - y0, x1 - x0), np.uint8)
        reach = MAX_OFFSET_MM + SIZES["large"].base / 2 * math.sqrt(2) + 0.5
        ang = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        ring = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        pts = [c0 + reach * ring, c0 + self.shift(c0, MAX_TOP_MM) + 4.0 * ring]
        px = self.rect.to_px(np.concatenate(pts)) - np.array([x0, y0])
        hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
        cv2.fillConvexPoly(zone, hull, 1, cv2.LINE_8, 4)
        return zone

    # ------------------------------------------------------------------------------ reading
    def order(self) -> list[tuple[int, int]]:
        """Squares nearest the camera's foot first."""
        cells = [(c, r) for r in range(self.spec.rows) for c in range(self.spec.cols)]
        return sorted(cells, key=lambda cr: float(np.linalg.norm(
            np.array(self.spec.cell_centre(*cr)) - self.C[:2])))

    def read_all(self) -> list[StackReading]:
        out = []
        for cell in self.order():
            reading = self.read(cell)
            if reading is not None:
                out.append(reading)
        return out

    def read(self, cell: tuple[int, int]) -> StackReading | None:
        c0 = np.array(self.spec.cell_centre(*cell), float)
        if cell not in self.cache:
            win = self._window(c0)
            core_px = self.rect.to_px(c0[None])[0]
            self.cache[cell] = (win, self._zone(c0, win) if win[2] - win[0] >= 4 and win[3] - win[1] >= 4
                                else None, (int(round(core_px[0])), int(round(core_px[1]))))
        win, zone, (cx, cy) = self.cache[cell]
        x0, y0, x1, y1 = win
        if zone is None:
            return None
        r = max(2, int(round(3.0 * self.rect.ppm)))
        if not np.any(self.fg[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1]):
            return None  # nothing of a piece's colour at the square's middle: empty
        free = zone & (1 - self.explained[y0:y1, x0:x1])
        fg = self.fg[y0:y1, x0:x1] & free
        # the stack is what is connected to the square's middle
        n, comp, stats, _ = cv2.connectedComponentsWithStats(self.joined[y0:y1, x0:x1] & free,
                                                             connectivity=8)
        cx, cy = cx - x0, cy - y0
        core = comp[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1]
        ids = [i for i in np.unique(core) if i != 0 and stats[i, cv2.CC_STAT_AREA] >= MIN_PIXELS]
        if not ids:
            return None
        blob = (np.isin(comp, ids) & (fg > 0)).astype(np.uint8)
        hidden = self._hidden(win, zone)
        measured = self._support(blob, (x0, y0), c0, hidden)
        if measured is None:
            return None
        support, open_dirs = measured
        sizes = list(SIZE_NAMES)
        scale = {s: 1.0 for s in sizes}
        shift0 = {s: np.zeros(2) for s in sizes}
        lean = {s: self.shift(c0, SIZES[s].height - 2.0) for s in sizes}
        gain = {s: self.scale(SIZES[s].height - 2.0) for s in sizes}
        bottom = fit_square(support, sizes, scale, lean, gain, shift0, open_dirs=open_dirs,
                            offset_weight=BOTTOM_OFFSET_WEIGHT)
        if bottom is None:
            return None
        centre = c0 + bottom.offset
        levels, yaws, top_fit = self._chain(blob, (x0, y0), c0, bottom, hidden)
        outline = self._outline(centre, bottom, top_fit, levels)
        self._explain(outline)
        return StackReading(cell, tuple(levels), (float(centre[0]), float(centre[1])), tuple(yaws),
                            outline, math.sqrt(bottom.cost))

    # ------------------------------------------------------------------------------ chains
    def _labels_near(self, labs: np.ndarray, blob: np.ndarray, off: tuple[int, int],
                     point: np.ndarray, radius_mm: float) -> np.ndarray:
        """Counts of each label among the stack's pixels within ``radius_mm`` of a plane point
        (``labs`` and ``blob``: the window at ``off``)."""
        px = self.rect.to_px(point[None])[0] - np.array(off, float)
        r = max(1, int(round(radius_mm * self.rect.ppm)))
        cx, cy = int(round(px[0])), int(round(px[1]))
        ys, xs = slice(max(cy - r, 0), max(cy + r + 1, 0)), slice(max(cx - r, 0), max(cx + r + 1, 0))
        near = labs[ys, xs][blob[ys, xs] > 0]
        return np.bincount(near, minlength=OTHER + 1)[:OTHER + 1].astype(float)

    def _chain(self, blob: np.ndarray, off: tuple[int, int], c0: np.ndarray,
               bottom: SquareFit, hidden: np.ndarray) -> tuple[list[Level], list[float], SquareFit | None]:
        x0, y0 = off
        h, w = blob.shape
        labs = self.labels[y0:y0 + h, x0:x0 + w]
        b0 = bottom.size
        axis = c0 + bottom.offset
        # the top's colour: along the stack's axis, from half its height to near its apex
        apex = self._apex_height(blob, off, c0, bottom)
        H = SIZES[b0].height
        probes = [self.C[:2] + (axis - self.C[:2]) * self.scale(z)
                  for z in np.linspace(0.5 * H, 0.9 * min(apex, H + 10.0), 5)]
        votes = np.zeros(OTHER + 1)
        for p in probes:
            votes += self._labels_near(labs, blob, off, p, 1.6)
        if votes[1:OTHER].sum() == 0:
            for p in probes:
                votes += self._labels_near(labs, blob, off, p, 4.0)
        if votes[1:OTHER].sum() == 0:
            return [], [], None
        top_label = int(np.argmax(votes[1:OTHER])) + 1
        purity = float(votes[top_label] / votes[1:OTHER].sum())
        probe = probes[int(np.argmax([self._labels_near(labs, blob, off, p, 1.6)[top_label] for p in probes]))]
        top_colour = COLOURS[top_label - 1]
        in_blob = blob > 0
        top_mask = ((labs == top_label) & in_blob).astype(np.uint8)
        # the top's patch: the part of that colour connected to the probe
        n, comp = cv2.connectedComponents(top_mask, connectivity=8)
        ppx = self.rect.to_px(probe[None])[0] - np.array(off, float)
        cx, cy = int(round(ppx[0])), int(round(ppx[1]))
        r = max(2, int(round(2.0 * self.rect.ppm)))
        near = comp[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1]
        ids = [i for i in np.unique(near) if i != 0]
        if ids:
            top_mask = np.isin(comp, ids).astype(np.uint8)
        smaller = [s for s in SIZE_NAMES if SIZES[s].rank <= SIZES[b0].rank]
        if len(smaller) == 1 or int(top_mask.sum()) >= ONE_COLOUR_SHARE * int(in_blob.sum()):
            # one colour over (nearly) the whole outline: the top is the outline's pyramid, or a
            # smaller one of its colour seated on it, turned against it (:mod:`.faces`)
            return self._one_colour(top_colour, top_mask, off, axis, bottom, purity, len(smaller) > 1)
        edge = top_mask
        if top_label == BLACK:
            # black against a colour blurs into a band of neither (read "other"), wider than
            # between two colours; the top's edge lies in its middle: half of it is the top's
            # (without it a black medium on a larger pyramid fits as a small one)
            g = max(1, int(round(BLEND_MM * self.rect.ppm)))
            grown = cv2.dilate(top_mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * g + 1, 2 * g + 1)))
            edge = top_mask | (grown & (labs == OTHER))
        measured = self._support(edge, off, c0, hidden)
        if measured is None:
            return self._single(top_colour, b0, bottom, purity)
        support, open_dirs = measured
        scale, shift, lean, gain = {}, {}, {}, {}
        for s in smaller:
            z0 = 0.0 if s == b0 else seat_heights([b0, s])[1]
            scale[s] = self.scale(z0)
            shift[s] = self.shift(c0, z0)
            lean[s] = self.shift(c0, z0 + SIZES[s].height - 2.0)
            gain[s] = self.scale(z0 + SIZES[s].height - 2.0)
        # a coloured top's corners are rounded by the blur only, less than a black one's (grown
        # into its blend above): free to round them by up to 4 mm, a large model rounded by 3.7
        # fitted the patch of a green medium seated on a black large, read then as one large
        top = fit_square(support, smaller, scale, lean, gain, shift, prior=bottom.offset,
                         open_dirs=open_dirs,
                         max_rounding=MAX_ROUNDING_MM if top_label == BLACK else TOP_ROUNDING_MM)
        if top is None or top.size == b0:
            return self._single(top_colour, b0, bottom, purity)
        # a smaller top: what shows of the stack outside the top's picture are lower pyramids
        top_outline = self._square_outline(c0 + top.offset, top.size, top.yaw, z0_of(b0, top.size))
        cover = np.zeros_like(blob)
        opx = self.rect.to_px(top_outline) - np.array(off, float)
        cv2.fillConvexPoly(cover, cv2.convexHull(np.round(opx * 16).astype(np.int32)), 1, cv2.LINE_8, 4)
        grow = max(1, int(round(1.2 * self.rect.ppm)))
        cover = cv2.dilate(cover, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
        rest = in_blob & (cover == 0)
        rest_labs = labs[rest]
        keep = (rest_labs != PAPER) & (rest_labs != OTHER)
        rest_labs = rest_labs[keep]
        if len(rest_labs) < MIN_PIXELS // 2:
            # nothing of another colour shows around the top: the outline's width came from
            # something else (a shadow's fringe, a neighbour); the top stands alone
            return [Level(top_colour, top.size, round(0.8 * self._conf(purity, top), 3))], [top.yaw], top
        counts = np.bincount(rest_labs, minlength=OTHER + 1)
        order = [int(k) for k in np.argsort(counts)[::-1] if counts[k] > 0]
        main = order[0]
        if main == BLACK and top_label != BLACK and votes[BLACK] >= FACE_SHARE * votes[1:OTHER].sum():
            # black round a coloured top that also shows along the axis near the apex, where a
            # lower pyramid never does (the top covers it there): the top pyramid's own faces
            # turned from the light (a blue face in shade reads black); the stack is one
            # pyramid of the outline's size
            return self._single(top_colour, b0, bottom, purity)
        share = counts[main] / len(rest_labs)
        levels = [Level(COLOURS[main - 1], b0, round(0.55 + 0.4 * share, 3))]
        yaws = [bottom.yaw]
        third = b0 == "large" and top.size == "small" and len(order) > 1 and counts[order[1]] >= max(
            MIN_PIXELS // 2, 0.2 * len(rest_labs))
        if main == top_label and not third:
            # the top's own colour round the part of it fitted as the top: one pyramid whose
            # faces read as two patches of its colour (under a low sun a lit face can read as
            # no colour at all, leaving a strip of its colour along its foot apart from the
            # shaded faces), read as a one-colour stack
            return self._one_colour(top_colour, ((labs == top_label) & in_blob).astype(np.uint8), off,
                                    axis, bottom, purity, True)
        if third:
            # a third colour between: the one nearer the axis is the medium pyramid
            ys, xs = np.nonzero(rest)
            pts = self.rect.to_board(np.column_stack([xs + x0, ys + y0]).astype(float))
            dist = np.linalg.norm(pts - axis, axis=1)
            lab_rest = labs[rest]
            d_main = float(np.median(dist[lab_rest == main]))
            d_other = float(np.median(dist[lab_rest == order[1]]))
            inner, outer = (main, order[1]) if d_main < d_other else (order[1], main)
            second = counts[order[1]] / len(rest_labs)
            levels = [Level(COLOURS[outer - 1], "large", round(0.5 + 0.4 * max(share, second), 3)),
                      Level(COLOURS[inner - 1], "medium", round(0.45 + 0.4 * min(share, second), 3))]
            yaws = [bottom.yaw, bottom.yaw]
        levels.append(Level(top_colour, top.size, self._conf(purity, top)))
        yaws.append(top.yaw)
        return levels, yaws, top

    def _one_colour(self, colour: str, mask: np.ndarray, off: tuple[int, int], axis: np.ndarray,
                    bottom: SquareFit, purity: float, may_seat: bool
                    ) -> tuple[list[Level], list[float], SquareFit | None]:
        """A stack showing one colour (its patch ``mask``): the outline's pyramid, or a smaller
        one of its colour seated on it, turned against it (:mod:`.faces`)."""
        if may_seat and self.grey is not None:
            h, w = mask.shape
            seated = seated_top(self.rect, self.C, self.grey[off[1]:off[1] + h, off[0]:off[0] + w], mask,
                                off, axis, bottom.size, bottom.yaw)
            if seated is not None:
                conf = self._conf(purity, bottom)
                return ([Level(colour, bottom.size, round(0.9 * conf, 3)),
                         Level(colour, seated.size, round(min(conf, 0.5 + 0.5 * seated.gain), 3))],
                        [bottom.yaw, seated.yaw], None)
        return self._single(colour, bottom.size, bottom, purity)

    def _single(self, colour: str, size: str, bottom: SquareFit,
                purity: float) -> tuple[list[Level], list[float], None]:
        """A stack showing one colour reads as one pyramid. (A smaller pyramid of the same
        colour seated on it square to it shows only by its rim: see
        ``docs/observation/gleebs-and-grues.md``; turned against it, :mod:`.faces` finds it.)"""
        return [Level(colour, size, self._conf(purity, bottom))], [bottom.yaw], None

    def _conf(self, purity: float, fit: SquareFit) -> float:
        """How sure a pyramid's reading is: the share of its colour among the pixels read along
        the axis, and how much better its size fits the outline than the next size (cost
        margins of a few tenths separate sizes in the corpora; below 0.1 they do not)."""
        costs = sorted(fit.costs.values())
        margin = (costs[1] - costs[0]) if len(costs) > 1 else 4.0
        size_sure = 1.0 - math.exp(-max(margin, 0.0) / SIZE_MARGIN)
        return round(float(min(0.99, 0.5 + 0.5 * purity * size_sure)), 3)

    def _apex_height(self, blob: np.ndarray, off: tuple[int, int], c0: np.ndarray,
                     bottom: SquareFit) -> float:
        """How high the stack's apex stands, from how far its picture leans (a camera straight
        above sees no lean: then the bottom pyramid's own height)."""
        base_h = SIZES[bottom.size].height
        axis = c0 + bottom.offset
        away = axis - self.C[:2]
        dist = float(np.linalg.norm(away))
        ppm_lean = dist * base_h / max(self.C[2] - base_h, 1.0)
        if ppm_lean < 6.0:
            return base_h
        u = away / dist
        pts = cv2.findNonZero(blob)
        if pts is None:
            return base_h
        xy = self.rect.to_board(pts.reshape(-1, 2).astype(float) + np.array(off, float))
        reach = float(((xy - axis) @ u).max()) + 1.5
        # reach = dist·(s − 1) with s = Cz/(Cz − z)  ⇒  z = Cz·reach/(dist + reach)
        z = self.C[2] * reach / (dist + reach)
        return float(np.clip(z, base_h, base_h + 12.0))

    # ------------------------------------------------------------------------------ outlines
    def _square_outline(self, axis: np.ndarray, size: str, yaw: float, z0: float) -> np.ndarray:
        """Plane points (board mm) of a pyramid's picture: its base corners and apex."""
        spec = SIZES[size]
        h = spec.base / 2
        a = math.radians(yaw)
        c, s = math.cos(a), math.sin(a)
        corners = np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ np.array([[c, s], [-s, c]]) + axis
        pts3 = np.vstack([np.column_stack([corners, np.full(4, z0)]),
                          [[axis[0], axis[1], z0 + spec.height]]])
        return self.rect.ground(pts3)

    def _outline(self, centre: np.ndarray, bottom: SquareFit, top: SquareFit | None,
                 levels: list[Level]) -> np.ndarray:
        pts = [self._square_outline(centre, bottom.size, bottom.yaw, 0.0)]
        if top is not None and len(levels) > 1:
            z0 = z0_of(levels[-2].size, top.size) if len(levels) == 2 else \
                seat_heights([lv.size for lv in levels])[-1]
            pts.append(self._square_outline(centre, top.size, top.yaw, z0))
        allp = np.concatenate(pts).astype(np.float32)
        return cv2.convexHull(allp).reshape(-1, 2).astype(np.float64)

    def _explain(self, outline: np.ndarray) -> None:
        px = self.rect.to_px(outline)
        mask = np.zeros_like(self.explained)
        cv2.fillConvexPoly(mask, cv2.convexHull(np.round(px * 16).astype(np.int32)), 1, cv2.LINE_8, 4)
        r = max(1, int(round(1.5 * self.rect.ppm)))
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        self.explained |= mask


def z0_of(below: str, top: str) -> float:
    """Seat height of a ``top`` pyramid on a ``below`` one, square to it."""
    if below == top:
        return 0.0
    return seat_heights([below, top])[1]
