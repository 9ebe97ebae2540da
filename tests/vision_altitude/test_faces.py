"""The card matcher alone, on drawn faces: two cards printed with one drawing on fields of
different colours (an olive 8 and a green 8) are told apart under a coloured light once the
frame's tint is known from the cards read surely, which a fit of each colour channel's contrast
apart cannot do; the colour misfit is nothing for the right face under any exposure; a frame
with too few sure readings has no tint."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.altitude.faces import (
    ALIGN_SHIFT_MM, CANON_PPM, TINT_MIN, CardMatcher, colour_misfit, tint_of,
)

W, H = 118, 184                       # a 59 × 92 mm card at CANON_PPM
MARGIN = int(round(ALIGN_SHIFT_MM * CANON_PPM))
OLIVE = (60, 180, 170)                # BGR fields of the demo deck's look
GREEN = (70, 185, 120)
TEAL = (150, 170, 60)


def _face(field: tuple[int, int, int], digit: str = "8") -> np.ndarray:
    """White paper and one field colour: each channel of one field's face is then another's
    brightness and contrast changed, and only the colour tells them apart."""
    img = np.full((H, W, 3), 245, np.uint8)
    cv2.rectangle(img, (6, 6), (W - 7, H - 7), field, -1)
    cv2.putText(img, digit, (32, 95), cv2.FONT_HERSHEY_SIMPLEX, 2.6, (245, 245, 245), 9, cv2.LINE_AA)
    cv2.rectangle(img, (14, 120), (W - 15, 150), (245, 245, 245), 3)
    return img


def _seen(face: np.ndarray, gains: tuple[float, float, float], seed: int) -> np.ndarray:
    """The face laid on a dark table, under a light of these channel gains, blurred and noisy
    as a camera a pixel a millimetre away sees it: the cut-out the matcher takes."""
    rng = np.random.default_rng(seed)
    crop = np.empty((H + 2 * MARGIN, W + 2 * MARGIN, 3), np.float32)
    crop[:] = (40, 70, 110)
    crop[MARGIN:MARGIN + H, MARGIN:MARGIN + W] = face
    crop = crop * np.asarray(gains, np.float32)
    crop = cv2.GaussianBlur(crop, (0, 0), 1.6) + rng.normal(0, 3.0, crop.shape).astype(np.float32)
    return np.clip(crop, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def matcher() -> CardMatcher:
    faces = (_face(OLIVE), _face(GREEN), _face(TEAL), _face(OLIVE, "5"), _face(GREEN, "3"))
    return CardMatcher(("olive8", "green8", "teal8", "olive5", "green3"), faces, 0.7)


@pytest.mark.parametrize("gains", [(0.55, 0.8, 1.0), (1.0, 0.9, 0.7), (0.5, 0.5, 0.5)])
def test_one_drawing_on_two_field_colours_is_told_apart_under_the_frames_tint(matcher, gains):
    vis = np.ones((H, W), bool)
    # the frame's other cards, read surely by their drawings, tell its tint
    sure = [matcher.match(_seen(_face(field, digit), gains, 10 + k), vis, camera_ppm=1.0)
            for k, (field, digit) in enumerate([(OLIVE, "5"), (GREEN, "3"), (OLIVE, "5"), (GREEN, "3")])]
    assert [m.name for m in sure] == ["olive5", "green3"] * 2
    tint = tint_of(sure)
    assert tint is not None and tint_of(sure[:TINT_MIN - 1]) is None
    drawing_alone = []
    for name, field in (("olive8", OLIVE), ("green8", GREEN)):
        for seed in range(3):
            first = matcher.match(_seen(_face(field), gains, seed), vis, camera_ppm=1.0)
            drawing_alone.append(first.name == name)
            got = matcher.decide(first, tint)
            assert got.name == name and got.tinted
            assert got.runner_up != name and got.conf > 0.7
            # deciding again is the same as matching with the tint
            again = matcher.match(_seen(_face(field), gains, seed), vis, camera_ppm=1.0, tint=tint)
            assert again.name == name and again.conf == pytest.approx(got.conf)
    # by drawing alone, the two 8s are a coin toss
    assert not all(drawing_alone)


def test_the_colour_misfit_is_nothing_for_the_right_face_whatever_the_exposure():
    rng = np.random.default_rng(4)
    face = rng.uniform(0.5, 4.0, 3)
    other = face * np.array([1.0, 1.0, 0.8])     # its red weaker: another field
    tint = np.array([0.9, 1.0, 1.2])
    for exposure in (0.6, 1.0, 1.3):
        assert colour_misfit(face * exposure, face) == pytest.approx(0.0, abs=1e-9)
        assert colour_misfit(face * exposure, other) > 1e-3
        # a card seen through the frame's tint fits its face through that tint
        assert colour_misfit(face * tint * exposure, face, tint) == pytest.approx(0.0, abs=1e-9)
        assert colour_misfit(face * tint * exposure, face) > 1e-3
