"""Colours learned on a colour sheet whose paper the exposure clips.

Under a bright warm lamp the sheet's paper clips white in the camera, and the grey spots nearly
so: divided by that clipped white, the grey reads peach. A small pyramid on its spot, a few
pixels across, is largely its rim, where lens and sensor blend it with that grey; learned with
the rim, black came out a warm mid-grey (L* about 50) and blue a grey, and the Gleeb's and Grues
reader then read black pyramids blue. The sheet reader leaves the rim out on a clipped sheet
for the games that ask it to (:data:`calibration.colour_sheet.RIM_BY_GAME`), and keeps every
non-grey pixel on a sheet that does not clip, and for the other games, as before.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.boards import COLOUR_SHEET
from calibration.colour_sheet import CLIPPED_WHITE, RIM_BY_GAME, RIM_PX, _piece_pixels, read_sheet
from companion.synth.gleebs.calibration_shot import PALETTE, calibration_images
from companion.synth.gleebs.generate import GleebsRanges, random_scene, random_shot
from companion.vision.colours import lab_features


def _session(seed: int, session: int):
    """The camera set-up and light of one session of the benchmark corpus
    (:func:`companion.synth.gleebs.corpus.corpus`), its board and its sheet's two frames."""
    rng = np.random.default_rng([seed, session, 101, 0])
    scene = random_scene(rng, GleebsRanges())
    shot = random_shot(rng, scene.board, GleebsRanges())
    return calibration_images(scene.board, shot)


@pytest.fixture(scope="module")
def clipped():
    """Seed 11, session 29 of the corpus: a warm lamp, the sheet clipped in green and red."""
    return read_sheet(_session(11, 29)[0], rim_px=RIM_BY_GAME["gleebs-and-grues"])


def _lab(reading, name: str) -> np.ndarray:
    px = reading.samples[PALETTE.index(name) + 1]
    return np.median(lab_features(px, reading.white), axis=0)


def test_the_sheet_clips_and_its_grey_reads_tinted(clipped):
    assert sum(v >= CLIPPED_WHITE for v in clipped.white) >= 2
    grey = np.asarray(clipped.grey) / np.asarray(clipped.white)
    assert grey.max() - grey.min() > 0.2  # peach, not grey


def test_black_is_learned_dark_on_a_clipped_sheet(clipped):
    L, a, b = _lab(clipped, "black")
    assert L < 20.0, L          # with the rim: about 51


def test_blue_is_learned_blue_on_a_clipped_sheet(clipped):
    L, a, b = _lab(clipped, "blue")
    assert b < -12.0, b          # with the rim: +5 (grey)


def test_every_colour_keeps_enough_pixels_on_a_clipped_sheet(clipped):
    for k in range(1, len(PALETTE) + 1):
        assert len(clipped.samples[k]) >= 100


def test_a_sheet_that_does_not_clip_keeps_the_rim():
    # seed 11, session 0: a low sun, the paper at about 130 of 255
    image = _session(11, 0)[0]
    reading = read_sheet(image)
    assert max(reading.white) < CLIPPED_WHITE
    r = COLOUR_SHEET.spot_mm / 2
    centre = COLOUR_SHEET.spots()[PALETTE.index("black")]
    grey = np.asarray(reading.grey)
    whole = _piece_pixels(image, reading.homography, centre, 0.7 * r, grey, 40.0)
    inside = _piece_pixels(image, reading.homography, centre, 0.7 * r, grey, 40.0, RIM_PX)
    assert len(inside) < 0.9 * len(whole)          # the piece has a rim to leave out
    learned = reading.samples[PALETTE.index("black") + 1]
    assert len(learned) > len(inside)              # and it is not left out here


def test_a_clipped_sheet_keeps_the_rim_unless_asked():
    image = _session(11, 29)[0]
    plain = read_sheet(image)
    rimless = read_sheet(image, rim_px=RIM_PX)
    assert _lab(plain, "black")[0] > 35.0       # black with its peach rim
    assert _lab(rimless, "black")[0] < 20.0
    assert "ville-des-nains" not in RIM_BY_GAME
