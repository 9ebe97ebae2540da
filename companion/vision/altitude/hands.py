"""Is an arm over the table? A frame with one is never read as a position.

An Altitude table is cards lying flat on a table top, so everything in a seat's area is either
the table (one colour, a texture that repeats) or a card that was read. An arm or a hand is
neither: it is a large patch, several centimetres across, whose colour or brightness is not the
table's and where no card was read. So, in each area looked at (every seat's area and the middle):

* the table's colour is taken from the area's pixels outside the cards read (their median
  chroma and brightness, white-referenced, so a warm or cold light does not matter), and how
  much it varies there;
* pixels outside the cards that are much further from it than the table varies are
  *unexplained* (an arm's shadow is the table, darker: it is allowed down to a share of the
  table's brightness);
* on a grained table top (wood), pixels much smoother than the table's grain are unexplained
  too: a skin-coloured arm has the wood's colour but not its grain;
* an unexplained patch larger than :data:`PATCH_MM2`, after thin things (wood grain, a card's
  edge) are opened away, is an arm, unless it is shaped like a card: no larger than a card,
  held in a card-sized rectangle that it mostly fills, and clear of the edges of the area
  looked at. Such a patch is a card the reader could not read (a pale face whose frame hardly
  shows, a card on a table top as light as its border), not an arm: an arm reaches in from
  beyond the table's edge, so it runs out of the area and is longer than a card. A card left
  unread on a table as light as its border shows as its colour field alone, parted by the pale
  band across its face into a square above and a strip below: patches closer than
  :data:`GROUP_MM` are judged together for that.

A hand over a mountain also hides cards: a card read where the face fits badly, or cards that
rest on nothing, are a second sign (:func:`cards_disturbed`). On their own they are no proof
(a card the reader missed leaves the cards above it resting on nothing), so they only make a
smaller patch enough (:data:`DISTURBED_PATCH_MM2`) in that seat's area.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: an unexplained patch this large (mm²) is an arm (a finger over the table is about 18 × 60)
PATCH_MM2 = 1400.0
#: ... and in a seat's area whose cards look disturbed (:func:`cards_disturbed`)
DISTURBED_PATCH_MM2 = 700.0
#: a patch is card-shaped (see :func:`_card_shaped`) when its rectangle's sides are a card's
#: (or a card's lower half's) within this share and these millimetres, its proportions within
#: this share, it fills at least this share of its rectangle and is at most this share of a card
CARD_SIZE_SLACK = 0.15
CARD_SLACK_MM = 4.0
CARD_ASPECT_SLACK = 0.12
CARD_FILL = 0.65
CARD_AREA_SHARE = 1.15
#: how far from the table's colour a pixel must be, in the table's own spreads, and at least
TABLE_SPREADS = 5.0
MIN_CHROMA = 7.0
#: a pixel darker than this share of the table's brightness (a dark sleeve) or brighter than
#: this many times it (a pale hand on a dark table) is not the table, whatever its colour
DARK_SHARE = 0.5
BRIGHT_TIMES = 1.6
#: the window (mm) the table's grain is measured in, how grained (spread of L*) a table top
#: must be for smoothness to mean something, and the share of its usual grain under which a
#: patch is smoother than the table
SMOOTH_MM = 9.0
GRAIN_MIN = 2.0
SMOOTH_SHARE = 0.3
#: thin things opened away before patches are measured (mm)
OPEN_MM = 7.0
#: patches this close (mm) are one when judged card-shaped: a card not read shows its colour
#: field in pieces, parted by the pale band across its face that looks like the table
GROUP_MM = 24.0


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame: the largest unexplained patch
    (mm²) and where it was looked for."""

    hand: bool
    patch_mm2: float
    where: str = ""


def lab_of(bgr: np.ndarray, white: np.ndarray) -> np.ndarray:
    f = np.clip(np.asarray(bgr, np.float32) / np.maximum(white, 1.0), 0.0, 1.0)
    return cv2.cvtColor(f, cv2.COLOR_BGR2Lab)


def unexplained(patch: np.ndarray, inside: np.ndarray, cards: np.ndarray, white: np.ndarray,
               ppm: float, card_mm: tuple[float, float] | None = None) -> float:
    """The area (mm²) of the largest patch of ``patch`` (BGR) that is neither a card (``cards``
    mask) nor the table; ``inside`` marks the pixels the camera sees. With ``card_mm``, a
    card-shaped patch (see the module docstring) is left out: it is a card not read."""
    table = inside & ~cards
    if table.sum() < 200:
        return 0.0
    lab = lab_of(patch, white)
    px = lab[table]
    med = np.median(px, axis=0)
    chroma = np.hypot(lab[..., 1] - med[1], lab[..., 2] - med[2])
    spread = float(np.percentile(chroma[table], 75)) + 1.0
    far_colour = chroma > max(TABLE_SPREADS * spread, MIN_CHROMA)
    light = lab[..., 0] / max(float(med[0]), 1.0)
    far_light = (light < DARK_SHARE) | (light > BRIGHT_TIMES)
    odd = ((far_colour | far_light | _smooth(lab[..., 0], table, ppm)) & table).astype(np.uint8)
    k = max(3, int(round(OPEN_MM * ppm)) | 1)
    odd = cv2.morphologyEx(odd, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(odd, connectivity=8)
    if n <= 1:
        return 0.0
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64) / (ppm * ppm)
    if card_mm is None:
        return float(areas.max())
    # the edge of what is looked at: the patch's border and the pixels the camera does not see
    edge = ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                      borderValue=0).astype(bool)
    best = 0.0
    groups = None
    for i in np.argsort(-areas):
        a = float(areas[i])
        if a <= best:
            break
        if _card_shaped(labels == i + 1, stats[i + 1], a, edge, ppm, card_mm):
            continue
        if groups is None:
            kg = max(3, int(round(GROUP_MM * ppm)) | 1)
            closed = cv2.morphologyEx(odd, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kg, kg)))
            groups = cv2.connectedComponentsWithStats(closed & inside.astype(np.uint8), connectivity=8)
        _, glabels, gstats, _ = groups
        g = int(np.bincount(glabels[labels == i + 1]).argmax())
        if g > 0 and _card_shaped(glabels == g, gstats[g], float(gstats[g, cv2.CC_STAT_AREA]) / (ppm * ppm),
                                  edge, ppm, card_mm):
            continue
        best = a
    return best


def _card_shaped(blob: np.ndarray, stat: np.ndarray, area_mm2: float, edge: np.ndarray, ppm: float,
                 card_mm: tuple[float, float]) -> bool:
    """A patch a card the reader did not read would make (see the module docstring): the
    rectangle holding it is a whole card or a card's lower half (the upper half under the
    cards read above it), within :data:`CARD_SIZE_SLACK` of its sides and :data:`CARD_ASPECT_SLACK`
    of its proportions (a hand or a fist over the table is rounder), and the patch fills it."""
    cw, ch = card_mm
    if area_mm2 > CARD_AREA_SHARE * cw * ch:
        return False
    x, y, w, h = (int(v) for v in stat[:4])
    sub = blob[y:y + h, x:x + w]
    if (sub & edge[y:y + h, x:x + w]).any():
        return False
    pts = cv2.findNonZero(sub.astype(np.uint8))
    if pts is None:
        return False
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
    long_side, short_side = max(rw, rh) / ppm, min(rw, rh) / ppm
    if area_mm2 < CARD_FILL * max(long_side * short_side, 1e-9):
        return False
    for big, small in ((ch, cw), (cw, ch / 2)):
        if abs(long_side - big) > CARD_SIZE_SLACK * big + CARD_SLACK_MM or \
                abs(short_side - small) > CARD_SIZE_SLACK * small + CARD_SLACK_MM:
            continue
        aspect = (long_side / max(short_side, 1e-9)) / (big / small)
        if abs(aspect - 1.0) <= CARD_ASPECT_SLACK:
            return True
    return False


def _smooth(lightness: np.ndarray, table: np.ndarray, ppm: float) -> np.ndarray:
    """Pixels much smoother than the table around them: on a grained table top (wood), a
    skin-coloured arm is the table's colour but has none of its grain. On a plain table top
    (its own texture under :data:`GRAIN_MIN`) this says nothing and marks nothing."""
    k = max(3, int(round(SMOOTH_MM * ppm)) | 1)
    g = lightness.astype(np.float32)
    mean = cv2.blur(g, (k, k))
    var = np.maximum(cv2.blur(g * g, (k, k)) - mean * mean, 0.0)
    std = np.sqrt(var)
    inner = cv2.erode(table.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    if inner.sum() < 200:
        return np.zeros(table.shape, bool)
    grain = float(np.median(std[inner]))
    if grain < GRAIN_MIN:
        return np.zeros(table.shape, bool)
    return (std < SMOOTH_SHARE * grain) & inner


def cards_disturbed(explained: list[float], unsupported: int) -> bool:
    """Cards read where a face fits badly (a hand over part of them), or cards that rest on
    nothing (the cards under them hidden), in one mountain."""
    poor = sum(1 for e in explained if e < 0.72)
    return unsupported > 0 or poor >= 2
