"""Reading every square's height, front to back.

Squares are decided in the order of :meth:`BoardGeometry.wavefronts` (nearest to the camera's
foot first). For each square every height from 0 to the kit's maximum is scored from the
visible samples (:func:`companion.vision.terra.features.features`): a first scorer picks the
likeliest height, the square's four top edges are then measured to a fraction of a pixel around
that height's prediction (:func:`~companion.vision.terra.features.measure_edges`), and a second
scorer judges every height again with how well its predicted top face fits those measured edges
(the size of the face tells its height even straight down, where the slant does not). The
softmax of the second scores is the reader's probability of each height; its maximum is the
reading and its confidence.

Once a wavefront is decided its towers' silhouettes are painted into the visibility mask, so the
squares behind them are judged only on what still shows of them (a tower wholly hidden gets a
flat, unconfident distribution).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.terra.features import (
    FEATURE_NAMES, HIDDEN, NH, NSQ, Palette, Samples, edge_residuals, features, measure_edges,
    silhouette,
)
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.model import HeightModel

SECOND_NAMES = FEATURE_NAMES + ("fine_size", "fine_size_abs", "fine_shift", "fine_pairs",
                                 "fine_contrast")


@dataclass(frozen=True)
class HeightReading:
    """Heights (index y·10 + x), the probability of each height per square (100 × NH), and
    the visible share of each square's chosen top's interior (0 when wholly hidden)."""

    heights: np.ndarray
    probs: np.ndarray
    seen: np.ndarray

    @property
    def conf(self) -> np.ndarray:
        return self.probs[np.arange(NSQ), self.heights]


def second_features(F1: np.ndarray, size: np.ndarray, shift: np.ndarray, pairs: np.ndarray,
                    contrast: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The first features and the fine edge fit's (in millimetres at the board)."""
    s = np.clip(size / px_per_mm, -6.0, 6.0)
    t = np.minimum(shift / px_per_mm, 10.0)
    c = np.broadcast_to(contrast.mean(axis=1)[:, None], s.shape)
    extra = np.stack([s, np.abs(s), t, pairs / 2.0, c], axis=-1)
    return np.concatenate([F1, extra], axis=-1)


def _softmax(score: np.ndarray) -> np.ndarray:
    score = score - score.max(axis=1, keepdims=True)
    p = np.exp(score)
    return p / p.sum(axis=1, keepdims=True)


def decode(smp: Samples, geo: BoardGeometry, model: HeightModel, palette: Palette, *,
           hidden: np.ndarray | None = None, forced: np.ndarray | None = None,
           collect: list | None = None) -> HeightReading:
    """Decide every square (see the module docstring). ``hidden``: pixels (crop coordinates)
    to ignore from the start (flag heads). ``forced``: heights to paint instead of the
    decisions, and ``collect`` a list receiving (square, first features, second features), for
    fitting the scorers on ground truth."""
    mask = np.zeros(smp.shape, np.uint8)
    if hidden is not None:
        mask[hidden] = HIDDEN
    heights = np.zeros(NSQ, np.int64)
    probs = np.zeros((NSQ, NH))
    seen = np.zeros(NSQ)
    ppm = geo.px_per_mm()
    for wave in geo.wavefronts():
        sq = np.asarray(wave)
        F1 = features(smp, sq, mask, palette)
        h1 = np.argmax(model.first(F1), axis=1)
        fit = measure_edges(smp, geo, sq, h1, mask)
        size, shift, pairs = edge_residuals(fit, geo, sq, smp.origin)
        F2 = second_features(F1, size, shift, pairs, fit.contrast, ppm)
        p = _softmax(model.second(F2))
        best = np.argmax(p, axis=1)
        heights[sq] = best
        probs[sq] = p
        seen[sq] = F1[np.arange(len(sq)), best, FEATURE_NAMES.index("inner_seen")]
        if collect is not None:
            collect.extend(zip(sq.tolist(), F1, F2))
        paint = forced[sq] if forced is not None else best
        for s, h in zip(sq, paint):
            hull = silhouette(geo, int(s), int(h), smp.origin)
            if hull is not None:
                cv2.fillConvexPoly(mask, hull, HIDDEN, cv2.LINE_8, 4)
    return HeightReading(heights, probs, seen)
