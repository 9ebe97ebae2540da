"""The reader's quick paths give what the plain computations give.

The Altitude reader was made quicker without changing a reading (BENCHMARKS.md, "Altitude":
every piece of the 40 seed-1 bench tables read as before). Each quick path stands in for a
plain computation, and must keep giving what it gives:

* the frame alignment's masked correlation, prepared once for a card's five turns
  (:class:`~companion.vision.altitude.faces._MaskedNcc`; the frame's sums taken from integral
  images for a card shown whole), against OpenCV's masked ``TM_CCOEFF_NORMED``;
* the cards' patch sampled a tile at a time, only where a card is cut out
  (:class:`~companion.vision.altitude.rectify.LazyPatch`), against the patch
  :func:`~companion.vision.altitude.rectify.rectify` samples whole: every pixel the same;
* the residuals' sums over a cut-out's pixels taken as matrix products, against the same fit
  computed plainly in double precision.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.altitude import faces
from companion.vision.altitude.layout import DEFAULT_LAYOUT
from companion.vision.altitude.mountain import fine_spec
from companion.vision.altitude.rectify import LazyPatch, rectify
from tests.vision_altitude.test_reader import _camera_view


def _matcher() -> faces.CardMatcher:
    return faces.CardMatcher(("a",), (np.zeros((184, 118, 3), np.uint8),))


@pytest.mark.parametrize("whole", [True, False])
def test_the_frame_alignment_correlates_as_opencv_does(whole):
    rng = np.random.default_rng(5)
    light = cv2.GaussianBlur(rng.random((104, 71), dtype=np.float32) * 4.0, (0, 0), 1.5)
    template = cv2.GaussianBlur(rng.random((92, 59), dtype=np.float32) * 4.0, (0, 0), 1.0)
    vis = np.ones((184, 118), bool)
    if not whole:
        vis[:70] = False  # the upper part covered by the cards above
    ring = _matcher()._ring(vis)
    ncc = faces._MaskedNcc(template, ring, faces.CardMatcher._ring_bounds() if whole else None)
    for turn in faces.ALIGN_TURNS:
        turned = faces._turned(light, turn)
        want = cv2.matchTemplate(turned, template, cv2.TM_CCOEFF_NORMED, mask=ring)
        got = ncc(turned)
        assert got.shape == want.shape
        assert np.abs(got - want).max() < 1e-4
        assert np.unravel_index(np.argmax(got), got.shape) == np.unravel_index(np.argmax(want), want.shape)


def test_a_flat_window_correlates_as_nothing():
    template = np.random.default_rng(1).random((92, 59), dtype=np.float32)
    mask = _matcher()._ring(np.ones((184, 118), bool))
    got = faces._MaskedNcc(template, mask, faces.CardMatcher._ring_bounds())(np.ones((104, 71), np.float32))
    assert np.all(got == -1.0)


def test_the_cards_patch_sampled_in_tiles_is_the_patch_sampled_whole():
    rng = np.random.default_rng(7)
    image = cv2.GaussianBlur(rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8), (0, 0), 2.0)
    view = _camera_view(20.0, 60.0)
    spec = fine_spec(DEFAULT_LAYOUT.seat("red"), DEFAULT_LAYOUT)
    whole, _ = rectify(image, view, spec)
    lazy = LazyPatch(image, view, spec)
    assert lazy.shape == whole.shape
    h, w = whole.shape[:2]
    for x0, y0, cw, ch in [(0, 0, 142, 208), (w - 142, h - 208, 142, 208), (63, 64, 1, 1), (100, 37, 300, 129)] + \
            [(int(rng.integers(0, w - 142)), int(rng.integers(0, h - 208)), 142, 208) for _ in range(20)]:
        assert np.array_equal(lazy.region(x0, y0, cw, ch), whole[y0:y0 + ch, x0:x0 + cw])


def _plain(query: np.ndarray, face: np.ndarray, weights: np.ndarray) -> float:
    q, f, k = (np.asarray(a, np.float64) for a in (query, face, weights))
    n = np.maximum(k.sum(axis=0), 1.0)
    dq = (q - (q * k).sum(axis=0) / n) * k
    df = (f - (f * k).sum(axis=0) / n) * k
    cov = (dq * df).sum(axis=0)
    gain = np.clip(cov / np.maximum((df * df).sum(axis=0), 1e-9), 0.0, None)
    return float(((dq - gain * df) ** 2).sum()) / len(q)


def test_the_residuals_are_the_plain_fit():
    rng = np.random.default_rng(11)
    faces_ = rng.random((5, 3000, 3), dtype=np.float32) * 4.0
    query = (faces_[2] * 0.8 + 0.3 + rng.normal(0.0, 0.05, (3000, 3))).astype(np.float32)
    weights = (rng.random((3000, 3)) > 0.1).astype(np.float32)
    for w in (np.ones_like(weights), weights):
        got = faces.residuals(query, faces_, w)
        want = [_plain(query, f, w) for f in faces_]
        assert got == pytest.approx(want, rel=1e-4, abs=1e-6)
        assert int(np.argmin(got)) == 2
        each = faces.residuals_each(np.stack([query] * 2), faces_[2], np.stack([w] * 2))
        assert each == pytest.approx([want[2]] * 2, rel=1e-4, abs=1e-6)
