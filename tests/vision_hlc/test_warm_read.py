"""The warm reading (:mod:`companion.vision.hlc.warm`): a still moment of an unchanged camera
read from the last one must read what a cold reading of the same frame reads, and never keep a
piece that has gone.

Cost: four renders of the demo camera and a dozen readings, about 10 s CPU.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.demo.hlc import demo_lattice, demo_shot
from companion.synth.generate import random_hand
from companion.synth.render import render
from companion.synth.scene import Giant, Scene
from companion.vision.hlc.reader import HlcReader


def _pieces(obs) -> tuple[set, set]:
    return ({(p.cell, p.level) for p in obs.of_kind("cube")},
            {(p.get("colour"), p.cell, p.level) for p in obs.of_kind("giant")})


@pytest.fixture(scope="module")
def frames():
    """A position, then the same table after one cube and one giant were moved (the cube taken
    off the top of a stack and laid on the table elsewhere, the giant stepped down onto the
    table), then after a third cube was laid beside them; the demo's camera and light."""
    shot = demo_shot(0)
    first = Scene(demo_lattice(), cubes=((-3, -2, 0), (-1, -2, 0), (1, -2, 0), (-3, 0, 0), (-1, 0, 0),
                                         (1, 0, 0), (-2, -1, 1), (0, -1, 1)),
                  giants=(Giant("red", (2, -1), 1), Giant("blue", (0, 0), 2)))
    second = replace(first, cubes=first.cubes[:-1] + ((3, -2, 0),),
                     giants=(Giant("red", (2, -1), 1), Giant("blue", (-1, 2), 0)))
    third = replace(second, cubes=second.cubes + ((-3, 2, 0),))
    return shot, [render(s, shot).image for s in (first, second, third)], (first, second, third)


def test_a_moved_cube_and_giant_are_read_warm_as_a_cold_reading_reads_them(frames):
    shot, images, scenes = frames
    reader = HlcReader(camera=shot.view.camera)
    reader.read(images[0])
    assert reader.last.message != "warm"  # nothing to start from: read cold
    warm = reader.read(images[1])
    assert reader.last.message == "warm"
    cold = HlcReader(camera=shot.view.camera, warm=False).read(images[1])
    assert _pieces(warm) == _pieces(cold)
    cubes, giants = _pieces(warm)
    # the cube taken off the stack and the giant that stood on it are gone from the reading
    assert ((0, -1), 1) not in cubes and ("blue", (0, 0), 2) not in giants
    assert ((3, -2), 0) in cubes and ("blue", (-1, 2), 0) in giants
    assert cubes == {((i, j), k) for i, j, k in scenes[1].cubes}


def test_a_third_move_is_read_warm_from_the_second(frames):
    shot, images, scenes = frames
    reader = HlcReader(camera=shot.view.camera)
    for image in images:
        seen = reader.read(image)
    assert reader.last.message == "warm"
    cold = HlcReader(camera=shot.view.camera, warm=False).read(images[2])
    assert _pieces(seen) == _pieces(cold)
    assert _pieces(seen)[0] == {((i, j), k) for i, j, k in scenes[2].cubes}


def test_an_unchanged_frame_reads_the_same_and_a_moved_camera_reads_cold(frames):
    shot, images, _ = frames
    reader = HlcReader(camera=shot.view.camera)
    first = reader.read(images[0])
    again = reader.read(images[0].copy())
    assert reader.last.message == "warm"
    assert _pieces(again) == _pieces(first)
    # the light rising slowly: too little between two still moments to read cold, but the
    # models fitted on the first frame are refitted once it has risen enough
    def lit(image: np.ndarray, by: float) -> np.ndarray:
        return np.clip(image.astype(np.float32) + by, 0, 255).round().astype(np.uint8)
    reader.read(lit(images[0], 2.0))
    assert reader.last.message == "warm"
    reader.read(lit(images[0], 4.0))
    assert reader.last.message.startswith("cold")
    # the whole picture shifted by a few pixels: the markers moved, the pose is found again and
    # differs, so nothing of the last reading is kept
    shifted = np.roll(images[1], 6, axis=1)
    reader.read(shifted)
    assert reader.last.message != "warm"


def test_an_arm_over_the_table_after_a_still_moment_is_a_hand_and_the_next_frame_reads_right(frames):
    shot, images, scenes = frames
    reader = HlcReader(camera=shot.view.camera)
    reader.read(images[0])
    rng = np.random.default_rng(1)
    arm = render(scenes[1].with_hand(random_hand(rng, scenes[1])), shot).image
    seen = reader.read(arm)
    assert seen is not None and seen.hand and not seen.pieces
    assert HlcReader(camera=shot.view.camera, warm=False).read(arm).hand  # as a cold reading says
    # nothing of the frame with the arm is kept: the next still frame reads the position
    after = reader.read(images[1])
    assert not after.hand
    assert _pieces(after)[0] == {((i, j), k) for i, j, k in scenes[1].cubes}
