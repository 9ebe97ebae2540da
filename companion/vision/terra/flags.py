"""Finding the flags: coloured heads standing 20–30 mm above their tower's top.

A flag's head is the only strongly coloured thing on the board: blocks are one plain colour per
kit (natural wood, white, grey, walnut), the printed territories are pale tints. So heads are
found in two steps, both under the table's own light:

1. every pixel of the board's crop is divided by the white reference (the paper around the
   markers), and those clearly saturated and not too dark are kept;
2. the kept pixels are named by the colour model learned at ``companion calibrate colours``
   (:class:`~companion.vision.colours.ColourModel`: red, yellow, blue, green), and grouped into
   blobs of one colour; a blob the size of a head (or of several touching heads, then split)
   is a flag.

Where a flag stands depends on its tower's height: its head's middle is at ``h × 25 + 25 mm``
over its square's centre. So blobs are found before the heights are read (their pixels are
hidden from the height reading, as they cover tower tops), and are placed on a square after
(:func:`assign`): the square whose predicted head lies nearest the blob, among those within a
head's width of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colours import ColourModel
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import (
    FLAG_COLOURS, HEAD_DIAMETER, MAX_HEIGHT, SIZE, SQUARE_MM, head_centre_z,
)

#: a pixel is a candidate head pixel when its white-referenced saturation reaches this ...
MIN_SATURATION = 0.6
#: ... and its brightness this share of white's
MIN_VALUE = 0.10
#: brightnesses (shares of white's) at which a candidate pixel in a deep shadow is named too,
#: as if the light the shadow takes were given back (:func:`find_heads`) ...
SHADOW_LEVELS = (0.4, 0.55, 0.7)
#: ... where the shadow takes at least this share of the light: the brightness times this
#: reaches at most the level
SHADOW_GAIN = 1.5
#: a colour confidence below this does not count for a head
MIN_COLOUR_CONF = 0.25
#: a head's disc (its diameter) has at least this mean colour confidence (a head seen whole
#: 0.8 and more; speckles of wood under a warm lamp far less)
MIN_FILL = 0.5
#: a head partly hidden behind a nearer tower (:func:`partly_hidden`): at most this share of
#: its disc shows, at least PARTLY_MIN_SEEN of it and PARTLY_MIN_PX half-size pixels
PARTLY_SEEN = 0.75
PARTLY_MIN_SEEN = 0.12
PARTLY_MIN_PX = 5
#: a head in full view that the search missed (:func:`partly_hidden`) is looked for on this
#: share of its disc, its core: the rim is blurred into what lies behind it and unsaturated
#: there, so a small or dark head's disc never fills, though its core does
CORE = 0.7


@dataclass(frozen=True)
class Blob:
    """A head seen: its colour, its centre (crop pixels), its area (px) and how sure the
    colour is."""

    colour: str
    centre: tuple[float, float]
    area: float
    conf: float


@dataclass(frozen=True)
class Heads:
    """What :func:`find_heads` found: the heads, the mask of their pixels (full crop), and for
    each flag colour the half-size map of each pixel's confidence in that colour (0 where
    another colour or none; deep shadows named as if lit, :data:`SHADOW_LEVELS`), for looking
    again where a head may stand half hidden, or missed in full view."""

    blobs: list[Blob]
    mask: np.ndarray
    maps: dict[str, np.ndarray]


@dataclass(frozen=True)
class FlagReading:
    colour: str
    cell: tuple[int, int]
    conf: float


def default_colours() -> ColourModel:
    return ColourModel.default(FLAG_COLOURS)


def _reach(shape: tuple[int, int], geo: BoardGeometry, origin: tuple[int, int], scale: float = 1.0
           ) -> np.ndarray:
    """Where a head can show (crop pixels, times ``scale``): over the grid, from a flag on the
    board to one on the tallest tower the reader considers."""
    w = SIZE * SQUARE_MM
    corners = np.array([[0.0, 0.0], [w, 0.0], [w, w], [0.0, w]])
    pts = np.concatenate([np.column_stack([corners, np.full(4, z)])
                          for z in (head_centre_z(0), head_centre_z(MAX_HEIGHT))])
    px = (geo.project(pts) - np.asarray(origin, float)) * scale
    out = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(out, cv2.convexHull(np.round(px).astype(np.int32)), 1)
    return out > 0


def _disc(radius: float) -> np.ndarray:
    r = max(1, int(np.ceil(radius)))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    return ((xx * xx + yy * yy) <= radius * radius).astype(np.float32)


def find_heads(crop_bgr: np.ndarray, white: np.ndarray, colours: ColourModel, geo: BoardGeometry,
               origin: tuple[int, int]) -> Heads:
    """Heads in the board's crop (float BGR), and the mask of their pixels (dilated a little,
    for hiding them from the height reading). The search runs at half resolution (a head is
    still 5 pixels or more across there); centres are given in full crop pixels.

    A head is a solid disc of one colour, named surely. So for each colour, every pixel gets
    the mean colour confidence over a head-sized disc around it (pixels of another colour or
    not saturated count 0), and a head stands where that mean peaks above :data:`MIN_FILL`
    (peaks a head's width apart, so touching heads stay apart). Under a warm lamp natural
    wood, its lit tops and its shaded sides, is saturated enough for some of its pixels to be
    named yellow or red, but they are speckled over the blocks and named unsurely: their disc
    never fills."""
    full_shape = crop_bgr.shape[:2]
    small = cv2.resize(crop_bgr, (full_shape[1] // 2, full_shape[0] // 2), interpolation=cv2.INTER_AREA)
    rel = cv2.multiply(small, tuple(float(1.0 / max(v, 1.0)) for v in white) + (0.0,))
    hsv = cv2.cvtColor(np.minimum(rel, 1.0), cv2.COLOR_BGR2HSV)   # float: S and V in 0–1
    reach = _reach(small.shape[:2], geo, origin, scale=0.5)
    cand = (hsv[..., 1] >= MIN_SATURATION) & (hsv[..., 2] >= MIN_VALUE) & reach
    mask = np.zeros(cand.shape, np.uint8)
    if not cand.any():
        return Heads([], np.zeros(full_shape, bool), {})
    ys, xs = np.nonzero(cand)
    idx, conf = colours.classify(small[ys, xs], white)
    # a head in a tower's shadow: the same paint under less light, as if lit fully
    lit = small[ys, xs] / np.maximum(hsv[ys, xs, 2:3], 1e-3)
    idx_lit, conf_lit = colours.classify(lit, white)
    better = conf_lit > conf
    idx = np.where(better, idx_lit, idx)
    conf = np.where(better, conf_lit, conf)
    # ... and in a deep shadow, where the head's paint lit fully is too bright for its colour:
    # named too as if lit to each of SHADOW_LEVELS of white's brightness. Only for the second
    # look at the places heads would stand (:func:`partly_hidden`): over the whole board, the
    # shadows of natural wood under a warm lamp would be named yellow
    value = np.maximum(hsv[ys, xs, 2], 1e-3)
    idx_dark, conf_dark = idx, conf
    for level in SHADOW_LEVELS:
        idx_lit, conf_lit = colours.classify(small[ys, xs] * (level / value)[:, None], white)
        better = (conf_lit > conf_dark) & (value * SHADOW_GAIN <= level)
        idx_dark = np.where(better, idx_lit, idx_dark)
        conf_dark = np.where(better, conf_lit, conf_dark)
    names = colours.names
    ppm = geo.px_per_mm(150.0) / 2
    radius = HEAD_DIAMETER / 2 * ppm
    disc = _disc(radius)
    apart = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(round(0.8 * radius)) + 1,) * 2)
    blobs: list[Blob] = []
    maps: dict[str, np.ndarray] = {}
    for k, name in enumerate(names):
        if name not in FLAG_COLOURS:
            continue
        dark = (idx_dark == k) & (conf_dark >= MIN_COLOUR_CONF)
        if dark.sum() >= 4:
            maps[name] = np.zeros(cand.shape, np.float32)
            maps[name][ys[dark], xs[dark]] = conf_dark[dark]
        sel = (idx == k) & (conf >= MIN_COLOUR_CONF)
        if sel.sum() < 4:
            continue
        pix_conf = np.zeros(cand.shape, np.float32)
        pix_conf[ys[sel], xs[sel]] = conf[sel]
        fill = cv2.filter2D(pix_conf, -1, disc / disc.sum(), borderType=cv2.BORDER_CONSTANT)
        peaks = (fill >= MIN_FILL) & (fill >= cv2.dilate(fill, apart))
        py, px = np.nonzero(peaks)
        order = np.argsort(-fill[py, px])
        taken: list[tuple[float, float]] = []
        named = (pix_conf > 0).astype(np.float32)
        share = cv2.filter2D(named, -1, disc / disc.sum(), borderType=cv2.BORDER_CONSTANT)
        for j in order:
            x, y = int(px[j]), int(py[j])
            if any((x - tx) ** 2 + (y - ty) ** 2 < (1.5 * radius) ** 2 for tx, ty in taken):
                continue  # a plateau's second peak
            taken.append((x, y))
            r = disc.shape[0] // 2
            y0, y1, x0, x1 = max(0, y - r), min(cand.shape[0], y + r + 1), max(0, x - r), min(cand.shape[1], x + r + 1)
            w = pix_conf[y0:y1, x0:x1] * disc[r - (y - y0):r + (y1 - y), r - (x - x0):r + (x1 - x)]
            gy, gx = np.mgrid[y0:y1, x0:x1]
            total = float(w.sum())
            cx, cy = float((w * gx).sum() / total), float((w * gy).sum() / total)
            area = float(share[y, x] * disc.sum())
            blobs.append(Blob(name, (cx, cy), area, float(min(1.0, fill[y, x] / max(share[y, x], 1e-6)))))
            mask[y0:y1, x0:x1] |= (w > 0).astype(np.uint8)
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    full = cv2.resize(mask, (full_shape[1], full_shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    return Heads([Blob(b.colour, (2 * b.centre[0] + 0.5, 2 * b.centre[1] + 0.5), 4 * b.area, b.conf)
                  for b in blobs], full, maps)


def partly_hidden(heads: Heads, placed: list[FlagReading], heights: np.ndarray, geo: BoardGeometry,
                  origin: tuple[int, int], depth: np.ndarray, limit: np.ndarray) -> list[FlagReading]:
    """Flags whose heads nearer towers half hide: where a head would stand on each square
    with no flag read (at its tower's height as read), the part of its disc that no nearer
    tower (``depth``, ``limit``: :func:`companion.vision.terra.features.occlusion` of the
    heights read) nor any head already found covers is looked at; when that part is small
    (:data:`PARTLY_SEEN`) but filled with one flag colour (:data:`MIN_FILL`), a flag stands
    there. The head search alone misses such heads: a sliver of a disc never fills a
    head-sized disc, and one touching a nearer head of its colour makes no peak of its own.

    Where a head would stand in full view and none was found, its core (:data:`CORE`) is
    looked at the same way (:func:`_in_view`): small heads, their rims blurred and unsaturated,
    and heads in a tower's deep shadow, named only as if lit, never fill the search's disc."""
    if not heads.maps:
        return []
    taken = {f.cell for f in placed}
    sq = np.arange(SIZE * SIZE)
    centres = np.column_stack([(sq % SIZE + 0.5) * SQUARE_MM, (sq // SIZE + 0.5) * SQUARE_MM,
                               [head_centre_z(int(h)) for h in heights]])
    predicted = (geo.project(centres) - np.asarray(origin, float) - 0.5) / 2.0   # half-size px
    shape = next(iter(heads.maps.values())).shape
    covered8 = np.zeros(shape, np.uint8)
    r_found = HEAD_DIAMETER / 2 * geo.px_per_mm(150.0) / 2
    for b in heads.blobs:  # heads found cover what lies behind them (drawn at 1/16 px)
        centre = (int(round((b.centre[0] - 0.5) / 2.0 * 16)), int(round((b.centre[1] - 0.5) / 2.0 * 16)))
        cv2.circle(covered8, centre, int(round(r_found * 16)), 1, -1, cv2.LINE_8, 4)
    covered = covered8 > 0
    # a head's radius depends on its tower's height alone: worked out once a height
    radius_at = {h: HEAD_DIAMETER / 2 * geo.px_per_mm(head_centre_z(h)) / 2 for h in {int(v) for v in heights}}
    radii = np.array([radius_at[int(h)] for h in heights])
    # only heads part of whose disc is hidden: test the centre and eight points of the rim first
    ring = np.array([[0.0, 0.0]] + [[np.cos(a), np.sin(a)] for a in np.arange(8) * np.pi / 4])
    pts = predicted[:, None, :] + 0.8 * radii[:, None, None] * ring[None, :, :]
    px = np.clip(np.round(2 * pts).astype(int), 0, [depth.shape[1] - 1, depth.shape[0] - 1])
    hid = (depth[px[..., 1], px[..., 0]] < limit[:, None]) | covered[
        np.clip(np.round(pts[..., 1]).astype(int), 0, shape[0] - 1),
        np.clip(np.round(pts[..., 0]).astype(int), 0, shape[1] - 1)]
    out: list[FlagReading] = []
    whole = ~hid.any(axis=1)
    # a core filled with a colour at MIN_FILL on average holds a pixel that reaches it, in the
    # window :func:`_in_view` cuts round it: one dilation of the colours' maxima a frame (over
    # the widest such window) passes over the squares with none at once (most of a board)
    r_max = int(np.ceil(CORE * float(radii.max()))) if len(radii) else 0
    k = 2 * r_max + 2
    peak = cv2.dilate(np.maximum.reduce(list(heads.maps.values())), np.ones((k, k), np.uint8),
                      anchor=(r_max, r_max))
    for s in np.nonzero(~hid.all(axis=1))[0]:
        cell = (int(s % SIZE), int(s // SIZE))
        if cell in taken:
            continue
        if whole[s]:
            ix, iy = int(np.floor(predicted[s][0])), int(np.floor(predicted[s][1]))
            if 0 <= iy < shape[0] and 0 <= ix < shape[1] and peak[iy, ix] < MIN_FILL - 1e-3:
                continue
            found = _in_view(heads.maps, predicted[s], CORE * radii[s], covered)
            if found is not None:
                out.append(FlagReading(found[1], cell, float(np.clip(found[0], 0.05, 0.9))))
            continue
        radius = radii[s]
        r = int(np.ceil(radius))
        cx, cy = predicted[s]
        x0, y0 = int(np.floor(cx)) - r, int(np.floor(cy)) - r
        if x0 < 0 or y0 < 0 or x0 + 2 * r + 2 > shape[1] or y0 + 2 * r + 2 > shape[0]:
            continue
        gy, gx = np.mgrid[y0:y0 + 2 * r + 2, x0:x0 + 2 * r + 2]
        disc = (gx - cx) ** 2 + (gy - cy) ** 2 <= radius * radius
        full_y = np.clip(2 * gy, 0, depth.shape[0] - 1)
        full_x = np.clip(2 * gx, 0, depth.shape[1] - 1)
        open_ = disc & (depth[full_y, full_x] >= limit[s]) & ~covered[gy, gx]
        seen = float(open_.sum()) / max(1, int(disc.sum()))
        if seen > PARTLY_SEEN or seen < PARTLY_MIN_SEEN or open_.sum() < PARTLY_MIN_PX:
            continue
        best = max(((float(m[gy, gx][open_].mean()), name) for name, m in heads.maps.items()))
        if best[0] >= MIN_FILL:
            out.append(FlagReading(best[1], cell, float(np.clip(best[0] * (0.5 + 0.5 * seen), 0.05, 0.9))))
    return out


def _in_view(maps: dict[str, np.ndarray], centre: np.ndarray, radius: float, covered: np.ndarray
             ) -> tuple[float, str] | None:
    """A head in full view at ``centre`` (half-size px) that the search missed: the disc of
    ``radius`` there, no found head over it, filled with one flag colour (:data:`MIN_FILL`):
    (its mean colour confidence, the colour), else None."""
    shape = covered.shape
    cx, cy = centre
    r = int(np.ceil(radius))
    x0, y0 = int(np.floor(cx)) - r, int(np.floor(cy)) - r
    if x0 < 0 or y0 < 0 or x0 + 2 * r + 2 > shape[1] or y0 + 2 * r + 2 > shape[0]:
        return None
    win = np.s_[y0:y0 + 2 * r + 2, x0:x0 + 2 * r + 2]
    if covered[win].any():
        return None
    gy, gx = np.mgrid[win]
    disc = (gx - cx) ** 2 + (gy - cy) ** 2 <= radius * radius
    if disc.sum() < PARTLY_MIN_PX:
        return None
    best = max((float(m[win][disc].mean()), name) for name, m in maps.items())
    if best[0] < MIN_FILL:
        return None
    # a head is a disc, not a line (an edge between a lit top and a dark side, named so): its
    # core holds a named pixel whose four neighbours are named too
    R = int(np.ceil(radius)) + 1
    x0, y0 = int(np.floor(cx)) - R, int(np.floor(cy)) - R
    wide = np.s_[max(0, y0):y0 + 2 * R + 2, max(0, x0):x0 + 2 * R + 2]
    gy, gx = np.mgrid[wide]
    d2 = (gx - cx) ** 2 + (gy - cy) ** 2
    named = maps[best[1]][wide]
    solid = cv2.erode((named > 0).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    return best if solid[d2 <= radius * radius].any() else None


def wholly_hidden(squares: list[int], heights: np.ndarray, geo: BoardGeometry, origin: tuple[int, int],
                  depth: np.ndarray, limit: np.ndarray) -> list[bool]:
    """For each square, whether nearer towers (``depth``, ``limit``: the occlusion image of the
    heights read) hide the whole head of a flag standing on it (its centre and eight points
    of its rim): a flag there cannot show."""
    out = []
    ring = np.array([[0.0, 0.0]] + [[np.cos(a), np.sin(a)] for a in np.arange(8) * np.pi / 4])
    for s in squares:
        h = int(heights[s])
        centre = np.array([[(s % SIZE + 0.5) * SQUARE_MM, (s // SIZE + 0.5) * SQUARE_MM, head_centre_z(h)]])
        c = geo.project(centre)[0] - np.asarray(origin, float)
        radius = HEAD_DIAMETER / 2 * geo.px_per_mm(head_centre_z(h))
        pts = np.round(c[None, :] + 0.8 * radius * ring).astype(int)
        inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < depth.shape[1]) & (pts[:, 1] < depth.shape[0])
        if not inside.all():
            out.append(False)
            continue
        out.append(bool((depth[pts[:, 1], pts[:, 0]] < limit[s]).all()))
    return out


def assign(blobs: list[Blob], heights: np.ndarray, geo: BoardGeometry, origin: tuple[int, int]
           ) -> list[FlagReading]:
    """Place each head on the square whose predicted head (on its tower, as read) is nearest,
    within a head's width; one flag per square, the surer one kept."""
    if not blobs:
        return []
    sq = np.arange(SIZE * SIZE)
    centres = np.column_stack([(sq % SIZE + 0.5) * SQUARE_MM, (sq // SIZE + 0.5) * SQUARE_MM,
                               [head_centre_z(int(h)) for h in heights]])
    predicted = geo.project(centres) - np.asarray(origin, float)
    ppm = geo.px_per_mm(150.0)
    reach = HEAD_DIAMETER * ppm
    best: dict[int, FlagReading] = {}
    for blob in blobs:
        d = np.linalg.norm(predicted - np.asarray(blob.centre), axis=1)
        s = int(np.argmin(d))
        if d[s] > reach:
            continue
        fit = float(np.exp(-0.5 * (d[s] / (0.35 * reach)) ** 2))
        size = min(1.0, blob.area / (np.pi / 4 * (HEAD_DIAMETER * ppm) ** 2))
        conf = float(np.clip(blob.conf * (0.5 + 0.5 * fit) * (0.6 + 0.4 * size), 0.05, 0.99))
        reading = FlagReading(blob.colour, (s % SIZE, s // SIZE), conf)
        if s not in best or best[s].conf < conf:
            best[s] = reading
    return sorted(best.values(), key=lambda f: (f.cell[1], f.cell[0]))
