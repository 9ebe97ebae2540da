"""The reader as the program uses it: an arm over the table is never read as a position, what
is not a picture is refused with a clear error, and a frame with no table in it gives None."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import BadInput
from companion.synth.generate import random_hand
from companion.synth.render import render
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader, make_reader

from .conftest import corpus_position


@pytest.mark.parametrize("index", [0, 1, 2])
def test_an_arm_over_the_table_is_never_read_as_a_position(index, cards):
    scene, shot = corpus_position(31, index)
    rng = np.random.default_rng([31, index, 99])
    with_arm = render(scene.with_hand(random_hand(rng, scene, DEFAULT_LAYOUT)), shot)
    assert with_arm.truth.hand
    seen = HlcReader(camera=shot.view.camera, cards=cards).read(with_arm.image)
    assert seen is None or (seen.hand and seen.pieces == ())


@pytest.mark.parametrize("bad, words", [
    ([[0, 0, 0]], "image array"),
    (np.zeros((720, 1280, 3), np.uint16), "8-bit"),
    (np.zeros((720, 1280, 2), np.uint8), "colour image"),
    (np.zeros((60, 80, 3), np.uint8), "too small"),
])
def test_what_is_not_a_frame_is_refused_clearly(bad, words):
    with pytest.raises(BadInput, match=words):
        HlcReader().read(bad)


def test_a_frame_with_no_table_in_it_gives_none_and_says_why():
    rng = np.random.default_rng(5)
    wall = cv2_blur(rng.integers(90, 160, size=(720, 1280, 3), dtype=np.uint8))
    reader = HlcReader()
    assert reader.read(wall) is None
    assert reader.last.message
    assert reader.read(np.zeros((720, 1280, 3), np.uint8)) is None


def test_a_black_frame_of_a_located_table_gives_none(corpus_readings):
    r = corpus_readings[0]
    reader = HlcReader(camera=r.shot.view.camera)
    view = reader.locate(r.rendered.image)
    assert view is not None
    assert reader.read(np.zeros_like(r.rendered.image), view=view) is None
    assert "black" in reader.last.message


def test_a_grey_camera_frame_is_accepted(corpus_readings):
    import cv2

    r = corpus_readings[1]
    grey = cv2.cvtColor(r.rendered.image, cv2.COLOR_BGR2GRAY)
    reader = HlcReader(camera=r.shot.view.camera)
    view = reader.locate(grey)
    assert view is not None  # the markers are found in grey as in colour
    seen = reader.read(grey, view=view)
    assert seen is not None and seen.game == "haut-les-cubes"


def test_the_registry_reader_refuses_unknown_settings():
    with pytest.raises(BadInput, match="takes no"):
        make_reader(colour_space="hsv")
    assert isinstance(make_reader(game="haut-les-cubes", size=(1280, 720)), HlcReader)


def cv2_blur(image: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.GaussianBlur(image, (0, 0), 6.0)
