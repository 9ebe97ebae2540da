"""The block comparison the warm readers share: a frame averaged over 8-pixel blocks, and two
views taken for one only when they put the play area at the same pixels."""

from __future__ import annotations

import math

import numpy as np

from companion.vision.blocks import BLOCK, area_corners, block_picture, same_view
from companion.vision.camera import CameraModel, TablePose, View


def view(x_mm: float) -> View:
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(70) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), source="synthetic")
    return View(cam, TablePose.look_at((x_mm, -250.0, 800.0), (x_mm, 200.0, 0.0), (0.0, 1.0, 0.0)))


def test_a_block_picture_is_the_frame_averaged_over_blocks():
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    blocks = block_picture(image)
    assert blocks.shape == (720 // BLOCK, 1280 // BLOCK, 3) and blocks.dtype == np.float32
    assert np.allclose(blocks[2, 3], image[16:24, 24:32].reshape(-1, 3).mean(axis=0), atol=0.5)
    assert block_picture(image[..., 0]).shape == (90, 160)


def test_views_are_one_only_when_the_area_lands_on_the_same_pixels():
    corners = area_corners(400.0, 300.0)
    assert corners.shape == (8, 3)
    assert same_view(view(0.0), view(0.0), corners)
    assert same_view(view(0.0), view(0.2), corners)  # a fraction of a pixel
    assert not same_view(view(0.0), view(5.0), corners)  # the camera moved 5 mm
    assert not same_view(view(0.0), view(0.0), corners[:0])  # nothing to compare
