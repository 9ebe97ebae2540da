"""A smaller pyramid of the same colour seated on a larger one, told by its faces.

A stack that shows one colour has the outline of its lower pyramid whether or not a smaller one
of that colour sits on it (the kit's pyramids share one slope: a seated one's apex stands where
the lower one's would). What sets the two apart is shading: every face of a pyramid is a flat
plane of one plastic, so under the table's light it reads as one even tone, and a seated pyramid
turned against the lower one brings its own four faces, with their own tones, whose edges cut
across the lower one's faces.

So the stack's picture (grey, on the board plane) is partitioned into the faces the camera sees,
once for the lower pyramid alone and once for each seated candidate (size, turn) drawn over it,
and each partition is scored by how even the tone is within its faces. A seated pyramid is read
only when it explains the picture far better than the lower one alone. Turned alike (within a
few degrees) the two pyramids' faces coincide and nothing tells them apart: the stack is read as
one pyramid, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.gleebs.geometry import SIZES, seat_heights

#: turns tried for the seated pyramid, relative to the lower one (degrees; a square repeats
#: every 90): closer than MIN_TURN the faces nearly coincide and tell nothing
TURN_STEP = 6.0
MIN_TURN = 9.0
#: the lower pyramid's turn is refined within this of the outline's (degrees), in steps
REFINE = (-2.0, 0.0, 2.0)
#: a seated pyramid turned against the lower one must take away at least this share of the
#: unevenness left by one seated square to it (on the bench corpus: lone pyramids at most 0.17,
#: seated ones turned by 12° or more from 0.39)
MIN_GAIN = 0.4
#: and its faces must hold at least this many pixels, two faces at least MIN_FACE_PIXELS each
MIN_TOP_PIXELS = 40
MIN_FACE_PIXELS = 10
#: the lone pyramid's unevenness must stand at least this far (grey levels, rms) above what a
#: flat face shows for a seated pyramid to be looked for
MIN_RMS = 2.0


@dataclass(frozen=True)
class Seated:
    size: str
    yaw: float
    gain: float


def _faces(rect, C: np.ndarray, axis: np.ndarray, z0: float, size: str, yaw: float,
           off: np.ndarray) -> list[np.ndarray]:
    """The plane polygons (pixels of the crop at ``off``, fixed point ×16) of a pyramid's
    faces that the camera sees (as :func:`~companion.vision.gleebs.geometry.pyramid_points`
    and ``rect.ground`` put them, written out: this runs some thirty times a stack)."""
    spec = SIZES[size]
    h = spec.base / 2
    a = math.radians(yaw)
    c, s = math.cos(a), math.sin(a)
    cx, cy, cz = float(C[0]), float(C[1]), float(C[2])
    ax, ay = float(axis[0]), float(axis[1])
    top = z0 + spec.height
    sb = cz / max(cz - z0, 1e-6)
    sa = cz / max(cz - top, 1e-6)
    ppm = rect.ppm
    ox, oy = rect.x0 + (off[0] + 0.5) / ppm, rect.y0 + (off[1] + 0.5) / ppm
    k16 = 16.0 * ppm
    corners = []
    flat = []
    for lx, ly in ((-h, -h), (h, -h), (h, h), (-h, h)):
        x, y = ax + lx * c - ly * s, ay + lx * s + ly * c
        corners.append((x, y))
        flat.append((round((cx + (x - cx) * sb - ox) * k16), round((cy + (y - cy) * sb - oy) * k16)))
    apex = (round((cx + (ax - cx) * sa - ox) * k16), round((cy + (ay - cy) * sa - oy) * k16))
    out = []
    for k in range(4):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
        # the face's outward normal, horizontally: along the base edge's outward side
        nx, ny = y1 - y0, -(x1 - x0)
        if (nx * (ax - x0) + ny * (ay - y0)) > 0:
            nx, ny = -nx, -ny
        # the camera sees the face when it stands outside the face's plane, which rises from
        # the base edge to the apex: z above the base it lies z·h/height inward of the edge
        norm = math.hypot(nx, ny)
        outward = ((cx - x0) * nx + (cy - y0) * ny) / norm
        if outward + (cz - z0) * h / spec.height <= 0:
            continue
        out.append(np.array([flat[k], flat[(k + 1) % 4], apex], np.int32))
    return out


class _Picture:
    """The stack's pixels well inside its picture, their tones, and face partitions of them."""

    def __init__(self, shape: tuple[int, int], inner: np.ndarray, values: np.ndarray):
        self.shape = shape
        self.inner = inner
        self.values = values
        self.v2 = values * values

    def paint(self, polys: list[np.ndarray], start: int, base: tuple[np.ndarray, np.ndarray] | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
        """Face labels over the crop, and where faces meet (their edges blur: left out)."""
        if base is None:
            lab = np.zeros(self.shape, np.uint8)
            edge = np.zeros(self.shape, np.uint8)
        else:
            lab, edge = base[0].copy(), base[1].copy()
        for i, poly in enumerate(polys):
            cv2.fillConvexPoly(lab, poly, start + i, cv2.LINE_8, 4)
        cv2.polylines(edge, polys, True, 1, 2, cv2.LINE_8, 4)
        return lab, edge

    def uneven(self, lab: np.ndarray, keep: np.ndarray, count: int) -> tuple[float, np.ndarray]:
        """Sum of squared deviations from each face's mean tone over ``keep`` (inner pixels),
        and each face's pixel count."""
        labels = lab[self.inner][keep]
        n = np.bincount(labels, minlength=count).astype(float)
        s = np.bincount(labels, weights=self.values[keep], minlength=count)
        s2 = np.bincount(labels, weights=self.v2[keep], minlength=count)
        used = n > 0
        return max(float(np.sum(s2[used] - s[used] ** 2 / n[used])), 0.0), n


def seated_top(rect, C: np.ndarray, grey: np.ndarray, blob: np.ndarray, off: tuple[int, int],
               axis: np.ndarray, size: str, yaw: float) -> Seated | None:
    """A smaller pyramid seated on the lone pyramid ``size`` turned ``yaw`` at ``axis`` (board
    mm) whose one-colour picture is ``blob`` (window at ``off``, with its ``grey`` tones), or
    None when the lone pyramid explains the faces' tones as well."""
    smaller = [s for s in SIZES if SIZES[s].rank < SIZES[size].rank]
    if not smaller:
        return None
    pts = cv2.findNonZero(blob.astype(np.uint8))
    if pts is None:
        return None
    x, y, w, h = cv2.boundingRect(pts)
    crop = blob[y:y + h, x:x + w].astype(np.uint8)
    # pixels well inside the stack's picture (its rim blurs into the paper)
    inner = cv2.erode(crop, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    if int(inner.sum()) < 4 * MIN_TOP_PIXELS:
        return None
    pic = _Picture((h, w), inner, grey[y:y + h, x:x + w][inner].astype(np.float64))
    at = np.array([off[0] + x, off[1] + y], float)

    # the lone pyramid, its turn refined on the faces
    lone_best = None
    for d in REFINE:
        lab, edge = pic.paint(_faces(rect, C, axis, 0.0, size, yaw + d, at), 1)
        keep = edge[inner] == 0
        if keep.sum() < 4 * MIN_TOP_PIXELS:
            continue
        sse, _ = pic.uneven(lab, keep, 5)
        score = sse / keep.sum()
        if lone_best is None or score < lone_best[0]:
            lone_best = (score, yaw + d, (lab, edge))
    if lone_best is None:
        return None
    lone_score, y0, lone = lone_best
    if math.sqrt(lone_score) < MIN_RMS:
        return None  # every face even: one pyramid
    best = None
    for s in smaller:
        # the same pyramid seated square to the lower one: its faces split the lower one's
        # at the seat, which takes in how a face's tone drifts from foot to apex (a highlight,
        # light bounced off the paper) with no turn at all; a turned one must do far better
        z00 = seat_heights([size, s], [y0, y0])[1]
        base0 = pic.paint(_faces(rect, C, axis, z00, s, y0, at), 5, lone)

        def gain_at(t: float) -> float | None:
            y1 = y0 + t
            z0 = seat_heights([size, s], [y0, y1])[1]
            lab, edge = pic.paint(_faces(rect, C, axis, z0, s, y1, at), 5, lone)
            keep = (edge[inner] == 0) & (base0[1][inner] == 0)
            if keep.sum() < 4 * MIN_TOP_PIXELS:
                return None
            sse, n = pic.uneven(lab, keep, 9)
            top_n = n[5:]
            if top_n.sum() < MIN_TOP_PIXELS or int(np.sum(top_n >= MIN_FACE_PIXELS)) < 2:
                return None
            sse0, _ = pic.uneven(base0[0], keep, 9)
            return 1.0 - sse / max(sse0, 1e-9)

        # turns on a coarse grid, then beside the best of them
        tried = {}
        for t in np.arange(MIN_TURN, 90.0 - MIN_TURN + 0.1, 2 * TURN_STEP):
            tried[float(t)] = gain_at(float(t))
        found = [(g, t) for t, g in tried.items() if g is not None]
        if not found:
            continue
        t_best = max(found)[1]
        for t in (t_best - TURN_STEP, t_best + TURN_STEP):
            if MIN_TURN <= t <= 90.0 - MIN_TURN and t not in tried:
                tried[t] = gain_at(t)
        for t, g in tried.items():
            if g is not None and (best is None or g > best.gain):
                best = Seated(s, (y0 + t) % 90.0, g)
    if best is None or best.gain < MIN_GAIN:
        return None
    return best
