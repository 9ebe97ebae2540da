"""Synthetic videos: hands move pieces between still positions, the stillness gate settles once
per still stretch (never while an arm moves), and the frame source serves the frames in order."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import BadInput
from companion.synth.generate import corpus_item
from companion.synth.scene import Scene
from companion.synth.sequence import Keyframe, Sequence, SyntheticSource, change_point
from companion.vision.frames import SourceError
from companion.vision.stillness import StillnessGate


@pytest.fixture(scope="module")
def video():
    scene, shot = corpus_item(4, 0)
    removed = Scene(scene.lattice, scene.cubes[:-1], scene.giants, scene.card, scene.card_offset)
    seq = Sequence([Keyframe(scene, 0.8), Keyframe(removed, 0.8)], shot, fps=15.0)
    return seq, [seq.frame(i) for i in range(len(seq))]


def test_truth_follows_the_keyframes_and_the_arm(video):
    seq, frames = video
    assert len(frames) == len(seq) == round(seq.duration * 15)
    first, last = frames[0].truth, frames[-1].truth
    assert first["keyframe"] == 0 and not first["hand"] and not first["moving"]
    assert last["keyframe"] == 1 and not last["hand"]
    n_first = len([c for c in first["cubes"]])
    assert len(last["cubes"]) == n_first - 1
    with_arm = [f for f in frames if f.truth["hand"]]
    assert with_arm and all(f.truth["moving"] for f in with_arm)
    # frames are spaced by the frame rate and carry their index
    assert [f.index for f in frames] == list(range(len(frames)))
    assert np.allclose([f.t for f in frames], np.arange(len(frames)) / 15.0)


def test_the_gate_settles_once_per_still_stretch_and_never_on_a_moving_arm(video):
    _, frames = video
    gate = StillnessGate(0.4)
    settled = []
    for f in frames:
        report = gate.update(f.image, f.t)
        if report.settled:
            settled.append(f)
        if report.settled:
            assert report.still and report.delay >= 0.4 - 1e-9
    still_settles = [f.truth["keyframe"] for f in settled if not f.truth["hand"]]
    assert still_settles == [0, 1], "each still position is announced exactly once"
    # an arm coming in or going out is motion: the gate never settles on those frames
    entering = [f for f in settled if f.truth["hand"]]
    assert len(entering) <= 1  # at most the short hover, which the hand check then refuses


def test_the_gate_resets_on_motion_and_ignores_noise():
    rng = np.random.default_rng(0)
    base = rng.integers(60, 200, size=(720, 1280, 3), dtype=np.uint8)
    gate = StillnessGate(0.3)
    t = 0.0
    reports = []
    for k in range(12):  # sensor noise only: still
        noisy = np.clip(base.astype(int) + rng.integers(-4, 5, size=base.shape), 0, 255).astype(np.uint8)
        reports.append(gate.update(noisy, t))
        t += 1 / 30
    assert any(r.settled for r in reports)
    moved = base.copy()
    moved[200:400, 300:600] = 255 - moved[200:400, 300:600]
    r = gate.update(moved, t)
    assert r.moving and not r.still
    r = gate.update(moved, t + 0.1)
    assert not r.still and not r.settled
    with pytest.raises(BadInput):
        gate.update(np.zeros((0, 0, 3), np.uint8), t)
    with pytest.raises(BadInput):
        StillnessGate(-1.0)


def test_the_source_serves_the_video_then_ends(video):
    seq, _ = video
    src = SyntheticSource(seq)
    assert src.fps == 15.0
    count = 0
    while (f := src.read()) is not None:
        count += 1
        if count > 3:
            break
    src.close()
    with pytest.raises(SourceError):
        src.read()


def test_the_arm_goes_to_what_changes():
    scene, _ = corpus_item(4, 1)
    moved = Scene(scene.lattice, scene.cubes[:-1], scene.giants, scene.card, scene.card_offset)
    i, j, _ = scene.cubes[-1]
    expected = scene.lattice.to_table(np.array([[i + 1.0, j + 1.0]]))[0]
    assert np.allclose(change_point(scene, moved), expected)


@pytest.mark.parametrize("fps, hold", [(10.0, 0.8), (15.0, 0.8), (30.0, 1.1)])
def test_a_long_video_goes_through_its_positions_in_order(video, fps, hold):
    """Every frame of a long video shows its own moment: the positions in order, each still
    stretch and arm pass where it belongs (the segments' ends once rounded apart, and a frame in
    the gap showed the video's last position in the middle of a game)."""
    seq, _ = video
    a, b = seq.keyframes[0].scene, seq.keyframes[1].scene
    long = Sequence([Keyframe(a if k % 2 == 0 else b, hold) for k in range(130)], seq.shot, fps=fps)
    shown = [long.moment(i / fps).keyframe for i in range(len(long))]
    assert shown == sorted(shown)
    assert shown[0] == 0 and shown[-1] == 129
