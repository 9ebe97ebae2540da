"""Reading every square's height, front to back.

Towers hide one another only in the order of :meth:`BoardGeometry.wavefronts` (nearest to the
camera's foot first), so a square is judged on the samples no nearer tower covers: the towers
read in a first pass are painted into an occlusion image, farthest first, and every square is
read again on what they leave visible of it. For each square every height from 0 to the kit's
maximum is scored from the visible samples (:func:`companion.vision.terra.features.features`): a first scorer picks the
likeliest height, the square's four top edges are then measured to a fraction of a pixel around
that height's prediction (:func:`~companion.vision.terra.features.measure_edges`), and a second
scorer judges every height again with how well its predicted top face fits those measured edges
(the size of the face tells its height even straight down, where the slant does not). The
softmax of the second scores is the reader's probability of each height; its maximum is the
reading and its confidence.

A tower wholly hidden gets a flat, unconfident distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.terra.features import (
    FEATURE_NAMES, NH, NSQ, Palette, Samples, edge_residuals, features, measure_edges, occlusion,
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


def score_all(smp: Samples, geo: BoardGeometry, model: HeightModel, palette: Palette,
              depth: np.ndarray, limit: np.ndarray, *, collect: list | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """Every square's height probabilities under one occlusion image (see the module
    docstring): (probabilities 100 × NH, the visible share of each height's top interior)."""
    sq = np.arange(NSQ)
    F1 = features(smp, sq, depth, limit, palette)
    h1 = np.argmax(model.first(F1), axis=1)
    fit = measure_edges(smp, geo, sq, h1, depth, limit)
    size, shift, pairs = edge_residuals(fit, geo, sq, smp.origin)
    F2 = second_features(F1, size, shift, pairs, fit.contrast, geo.px_per_mm())
    if collect is not None:
        collect.extend(zip(sq.tolist(), F1, F2))
    return _softmax(model.second(F2)), F1[..., FEATURE_NAMES.index("inner_seen")]


def decode(smp: Samples, geo: BoardGeometry, model: HeightModel, palette: Palette, *,
           hidden: np.ndarray | None = None, forced: np.ndarray | None = None,
           collect: list | None = None, passes: int = 2) -> HeightReading:
    """Read every square (see the module docstring): a first pass with only the flags' heads
    hidden, then passes where each square is judged on what the towers read in the pass before
    leave visible of it. ``hidden``: pixels (crop coordinates) hidden from the start (the
    flags' heads). ``forced``: true heights for the occlusion, and ``collect`` a list receiving
    (square, first features, second features): for fitting the scorers on ground truth."""
    empty = np.zeros(NSQ, np.int64)
    if forced is not None:
        depth, limit = occlusion(geo, forced, smp.shape, smp.origin, hidden)
        probs, seen = score_all(smp, geo, model, palette, depth, limit, collect=collect)
        best = np.argmax(probs, axis=1)
        return HeightReading(best, probs, seen)
    depth, limit = occlusion(geo, empty, smp.shape, smp.origin, hidden)
    probs, seen = score_all(smp, geo, model, palette, depth, limit)
    best = np.argmax(probs, axis=1)
    for _ in range(passes - 1):
        depth, limit = occlusion(geo, best, smp.shape, smp.origin, hidden)
        probs, seen = score_all(smp, geo, model, palette, depth, limit)
        new = np.argmax(probs, axis=1)
        if np.array_equal(new, best):
            break
        best = new
    rows = np.arange(NSQ)
    return HeightReading(best, probs, seen[rows, best])
