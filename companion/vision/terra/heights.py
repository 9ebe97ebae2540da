"""Reading every square's height.

Towers hide one another only in the order of :meth:`BoardGeometry.wavefronts` (nearest to the
camera's foot first), so a square is judged on the samples no nearer tower covers: the towers
read in a first pass (where only the flags' heads are hidden) are painted into an occlusion
image, farthest first, and every square is read again on what they leave visible of it, until
the heights settle (a square whose view the new image leaves as it was reads the same). For
each square every height from 0 to the kit's maximum is scored from the visible samples
(:func:`companion.vision.terra.features.features`) by the scorer of
:mod:`companion.vision.terra.model`; the softmax of the scores is the reader's probability of
each height, its maximum the reading and its confidence. A tower wholly hidden gets a flat,
unconfident distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.terra.features import (
    NH, NSQ, Palette, Samples, features, interior_level, occlusion, visibility,
)
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.model import HeightModel

#: the most reading passes (the first with nothing hidden but the flags' heads)
PASSES = 4


@dataclass(frozen=True)
class HeightReading:
    """Heights (index y·10 + x), the probability of each height per square (100 × NH), the
    visible share of each square's chosen top's interior (0 when wholly hidden), and the raw
    scores (100 × NH) the probabilities are the softmax of."""

    heights: np.ndarray
    probs: np.ndarray
    seen: np.ndarray
    raw: np.ndarray
    #: the visible share of every height's top interior (100 × NH)
    seen_all: np.ndarray

    @property
    def conf(self) -> np.ndarray:
        return self.probs[np.arange(NSQ), self.heights]


def _softmax(score: np.ndarray) -> np.ndarray:
    score = score - score.max(axis=1, keepdims=True)
    p = np.exp(score)
    return p / p.sum(axis=1, keepdims=True)


def score_all(smp: Samples, model: HeightModel, palette: Palette, depth: np.ndarray,
              limit: np.ndarray, *, collect: list | None = None,
              previous: HeightReading | None = None, squares: np.ndarray | None = None,
              shown: tuple[np.ndarray, np.ndarray] | None = None) -> HeightReading:
    """Every square's height probabilities under one occlusion image; with ``previous`` and
    ``squares``, only those squares are scored again, the others keep ``previous``'s.
    ``shown``: :func:`~companion.vision.terra.features.visibility` of this image, when known."""
    sq = np.arange(NSQ) if squares is None else np.asarray(squares)
    seen = np.zeros((len(sq), NH))
    level = None if squares is None else interior_level(smp, np.arange(NSQ), depth, limit, shown)
    F = features(smp, sq, depth, limit, palette, seen=seen, level=level, shown=shown)
    if collect is not None:
        collect.extend(zip(sq.tolist(), F))
    raw_sq = model.scorer(F)
    if previous is None:
        raw, seen_all = raw_sq, seen
    else:
        raw, seen_all = previous.raw.copy(), previous.seen_all.copy()
        raw[sq], seen_all[sq] = raw_sq, seen
    probs = _softmax(raw)
    best = np.argmax(probs, axis=1)
    return HeightReading(best, probs, seen_all[np.arange(NSQ), best], raw, seen_all)


def _rows(shown: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Which sample points of every square show (one row a square): a square whose row is
    unchanged from one pass to the next reads the same."""
    return np.concatenate([shown[0].reshape(NSQ, -1), shown[1].reshape(NSQ, -1)], axis=1)


def decode(smp: Samples, geo: BoardGeometry, model: HeightModel, palette: Palette, *,
           hidden: np.ndarray | None = None, forced: np.ndarray | None = None,
           collect: list | None = None, passes: int = PASSES) -> HeightReading:
    """Read every square (see the module docstring). ``hidden``: pixels (crop coordinates)
    hidden from the start (the flags' heads). ``forced``: true heights for the occlusion, and
    ``collect`` a list receiving (square, features): for fitting the scorer on ground truth.

    Each pass reads every square under the occlusion of the previous pass's heights, until the
    heights no longer change (at most ``passes``): a tower read taller in the second pass hides
    more of the squares behind it, which must be read again under it, or what shows of that
    tower's own side is taken for a block behind it."""
    if forced is not None:
        depth, limit = occlusion(geo, forced, smp.shape, smp.origin, hidden)
        return score_all(smp, model, palette, depth, limit, collect=collect)
    depth, limit = occlusion(geo, np.zeros(NSQ, np.int64), smp.shape, smp.origin, hidden)
    vis = visibility(smp, depth, limit)
    reading = score_all(smp, model, palette, depth, limit, shown=vis)
    shown = _rows(vis)
    for _ in range(passes - 1):
        depth, limit = occlusion(geo, reading.heights, smp.shape, smp.origin, hidden)
        vis = visibility(smp, depth, limit)
        now = _rows(vis)
        changed = np.nonzero((now != shown).any(axis=1))[0]
        shown = now
        if not len(changed):
            break
        # only squares whose view changed are read again: the rest would read the same
        again = score_all(smp, model, palette, depth, limit, previous=reading, squares=changed,
                          shown=vis)
        done = np.array_equal(again.heights, reading.heights)
        reading = again
        if done:
            break
    return reading
