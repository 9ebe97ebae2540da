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
#: at most this many heads of one colour are taken to touch in the image
MAX_HEADS_TOUCHING = 3
#: a colour confidence below this does not count for a head
MIN_COLOUR_CONF = 0.25


@dataclass(frozen=True)
class Blob:
    """A head seen: its colour, its centre (crop pixels), its area (px) and how sure the
    colour is."""

    colour: str
    centre: tuple[float, float]
    area: float
    conf: float


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


def find_heads(crop_bgr: np.ndarray, white: np.ndarray, colours: ColourModel, geo: BoardGeometry,
               origin: tuple[int, int]) -> tuple[list[Blob], np.ndarray]:
    """Heads in the board's crop (float BGR), and the mask of their pixels (dilated a little,
    for hiding them from the height reading). The search runs at half resolution (a head is
    still 5 pixels or more across there); centres are given in full crop pixels."""
    full_shape = crop_bgr.shape[:2]
    small = cv2.resize(crop_bgr, (full_shape[1] // 2, full_shape[0] // 2), interpolation=cv2.INTER_AREA)
    rel = cv2.multiply(small, tuple(float(1.0 / max(v, 1.0)) for v in white) + (0.0,))
    hsv = cv2.cvtColor(np.minimum(rel, 1.0), cv2.COLOR_BGR2HSV)   # float: S and V in 0–1
    reach = _reach(small.shape[:2], geo, origin, scale=0.5)
    cand = (hsv[..., 1] >= MIN_SATURATION) & (hsv[..., 2] >= MIN_VALUE) & reach
    mask = np.zeros(cand.shape, np.uint8)
    if not cand.any():
        return [], np.zeros(full_shape, bool)
    ys, xs = np.nonzero(cand)
    idx, conf = colours.classify(small[ys, xs], white)
    names = colours.names
    ppm = geo.px_per_mm(150.0) / 2
    expected = np.pi / 4 * (HEAD_DIAMETER * ppm) ** 2
    blobs: list[Blob] = []
    label_img = np.zeros(cand.shape, np.uint8)
    for k, name in enumerate(names):
        if name not in FLAG_COLOURS:
            continue
        sel = (idx == k) & (conf >= MIN_COLOUR_CONF)
        if sel.sum() < 4:
            continue
        label_img[:] = 0
        label_img[ys[sel], xs[sel]] = 1
        label_img = cv2.morphologyEx(label_img, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, lab, stats, cents = cv2.connectedComponentsWithStats(label_img, connectivity=8)
        areas = stats[:, cv2.CC_STAT_AREA].astype(float)
        keep = (areas >= 0.2 * expected) & (areas <= MAX_HEADS_TOUCHING * 1.3 * expected)
        keep[0] = False  # the background, or specks and things far larger than a few heads
        if not keep.any():
            continue
        mask |= keep.astype(np.uint8)[lab]
        colour_conf = float(np.median(conf[sel]))
        for c in np.nonzero(keep)[0]:
            area = areas[c]
            count = min(int(round(area / expected)), MAX_HEADS_TOUCHING)
            if count >= 2:
                x, y, w, h = (int(v) for v in stats[c, :4])
                ys_c, xs_c = np.nonzero(lab[y:y + h, x:x + w] == c)
                pts = np.column_stack([xs_c + x, ys_c + y]).astype(np.float32)
                crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
                _, labels, centres = cv2.kmeans(pts, count, None, crit, 3, cv2.KMEANS_PP_CENTERS)
                for j in range(count):
                    blobs.append(Blob(name, (float(centres[j][0]), float(centres[j][1])),
                                      float((labels.ravel() == j).sum()), colour_conf))
            else:
                blobs.append(Blob(name, (float(cents[c][0]), float(cents[c][1])), area, colour_conf))
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    full = cv2.resize(mask, (full_shape[1], full_shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    return [Blob(b.colour, (2 * b.centre[0] + 0.5, 2 * b.centre[1] + 0.5), 4 * b.area, b.conf)
            for b in blobs], full


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
