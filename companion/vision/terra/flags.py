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
from companion.vision.terra.kit import FLAG_COLOURS, HEAD_DIAMETER, SIZE, SQUARE_MM, head_centre_z

#: a pixel is a candidate head pixel when its white-referenced saturation reaches this ...
MIN_SATURATION = 0.55
#: ... and its brightness this share of white's
MIN_VALUE = 0.10
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


def find_heads(crop_bgr: np.ndarray, white: np.ndarray, colours: ColourModel, geo: BoardGeometry
               ) -> tuple[list[Blob], np.ndarray]:
    """Heads in the board's crop (float BGR), and the mask of their pixels (dilated a little,
    for hiding them from the height reading)."""
    rel = crop_bgr / np.maximum(np.asarray(white, np.float32), 1.0)
    mx = rel.max(axis=2)
    mn = rel.min(axis=2)
    sat = (mx - mn) / np.maximum(mx, 1e-3)
    cand = (sat >= MIN_SATURATION) & (mx >= MIN_VALUE)
    mask = np.zeros(cand.shape, np.uint8)
    if not cand.any():
        return [], mask.astype(bool)
    ys, xs = np.nonzero(cand)
    idx, conf = colours.classify(crop_bgr[ys, xs], white)
    names = colours.names
    ppm = geo.px_per_mm(150.0)
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
        for c in range(1, n):
            area = float(stats[c, cv2.CC_STAT_AREA])
            if area < 0.2 * expected:
                continue
            mask[lab == c] = 1
            pts = np.column_stack(np.nonzero(lab == c)[::-1]).astype(np.float32)
            colour_conf = float(np.median(conf[sel])) if sel.any() else 0.0
            count = int(round(area / expected))
            if count >= 2 and len(pts) >= 2 * count:
                crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
                _, labels, centres = cv2.kmeans(pts, count, None, crit, 3, cv2.KMEANS_PP_CENTERS)
                for j in range(count):
                    blobs.append(Blob(name, (float(centres[j][0]), float(centres[j][1])),
                                      float((labels.ravel() == j).sum()), colour_conf))
            else:
                blobs.append(Blob(name, (float(cents[c][0]), float(cents[c][1])), area, colour_conf))
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    return blobs, mask


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
