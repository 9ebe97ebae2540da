"""Videos of the synthetic table: still positions with an arm moving pieces between them,
served as a frame source with ground truth on every frame."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.synth.terra.scene import Flag
from companion.synth.terra.sequence import TerraSequenceSource, changed_squares, plan
from companion.vision.frames import SourceError

from .conftest import clean_shot, flat, view_of


def _positions(board_scene):
    a = replace(board_scene, heights=flat(1), flags=(Flag("red", (1, 1)),))
    h = list(flat(1))
    h[2 * 10 + 2] = 2
    h[2 * 10 + 3] = 0
    b = replace(a, heights=tuple(h))
    c = replace(b, flags=(Flag("red", (1, 2)),))
    return [a, b, c]


def test_changes_between_positions_are_found(board_scene):
    a, b, c = _positions(board_scene)
    assert changed_squares(a, b) == [(2, 2), (3, 2)]
    assert changed_squares(b, c) == [(1, 1), (1, 2)]


def test_the_plan_puts_an_arm_between_still_positions(board_scene):
    frames = plan(_positions(board_scene), still_frames=3, hand_frames=2, seed=1)
    assert len(frames) == 3 * 3 + 2 * 2
    assert [f.step for f in frames] == [0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]
    assert all((f.scene.hand is None) == f.still for f in frames)


def test_the_source_serves_rendered_frames_with_truth(board_scene):
    scenes = _positions(board_scene)
    shot = replace(clean_shot(view_of(board_scene, 25.0)), noise=2.0)
    source = TerraSequenceSource(scenes, shot, fps=30.0, still_frames=2, hand_frames=2, seed=2)
    seen = []
    while True:
        frame = source.read()
        if frame is None:
            break
        assert frame.image.shape == (720, 1280, 3)
        assert frame.t == pytest.approx(frame.index / 30.0)
        seen.append(frame)
    assert len(seen) == len(source) == 3 * 2 + 2 * 2
    still = [f for f in seen if f.truth["still"]]
    moving = [f for f in seen if not f.truth["still"]]
    assert all(not f.truth["hand"] for f in still)
    assert all(f.truth["hand"] for f in moving)
    assert seen[-1].truth["heights"][2 * 10 + 2] == 2
    # still frames of one position differ only by the sensor's noise
    a, b = (f.image.astype(int) for f in still[:2])
    assert 0 < np.abs(a - b).mean() < 4
    source.close()
    with pytest.raises(SourceError):
        source.read()


def test_an_empty_sequence_is_refused(board_scene):
    with pytest.raises(ValueError, match="at least one position"):
        TerraSequenceSource([], clean_shot(view_of(board_scene, 10.0)))
