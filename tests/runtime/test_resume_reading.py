"""A resumed loop reads the frames the uninterrupted loop would have read from the last verdict
on: the frame of that verdict is read again (unjudged) so that a reader's memory of the last
still moment is what it was before the crash, and no frame before it is read at all.

A Haut les Cubes reader reads a changed frame against its last still moment; read cold after a
restart, an arm over the mountain that it saw as an arm could be read as towers, and the resumed
game would then differ from the uninterrupted one (``test_run_command.py`` kills real games)."""

from __future__ import annotations

import numpy as np
import pytest
from test_bad_frames import ListSource

from companion.observation import Observation
from companion.runtime.loop import RefereeLoop
from companion.runtime.table import Table
from companion.vision.stillness import StillnessGate


def frames():
    """Three still positions with something crossing the table between them (15 fps)."""
    rng = np.random.default_rng(0)
    base = rng.integers(60, 90, (72, 128, 3), dtype=np.uint8)
    images = []
    for position in range(3):
        still = base.copy()
        still[10:20, 10 + 30 * position:20 + 30 * position] = 220
        images += [still] * 8
        for k in range(4):
            moving = still.copy()
            moving[40:60, 20 * k:20 * k + 30] = 30
            images.append(moving)
    return ListSource(images)


class Recorder:
    """A reader that notes which frames it was given (and always sees a hand: nothing is
    judged)."""

    def __init__(self):
        self.read_frames: list[int] = []

    def read(self, frame):
        self.read_frames.append(frame.index)
        return Observation(game="haut-les-cubes", hand=True)


def reads(tmp_path, skip_to, read_early=False):
    table = Table(tmp_path)
    try:
        reader = Recorder()
        RefereeLoop(table, frames(), reader, StillnessGate(still_s=0.2), skip_to=skip_to,
                    keyframes=False, read_early=read_early).run()
        return reader.read_frames
    finally:
        table.close()


@pytest.mark.parametrize("read_early", [False, True])
def test_the_last_judged_frame_is_read_again_and_nothing_before_it(tmp_path, read_early):
    """Also when the loop reads early (on a still moment's first unmoved frame, which the
    verdict then names)."""
    uninterrupted = reads(tmp_path / "a", -1, read_early)
    assert len(uninterrupted) >= 3  # each still position was read
    for last_judged in uninterrupted:
        resumed = reads(tmp_path / f"r{last_judged}", last_judged, read_early)
        assert resumed == [i for i in uninterrupted if i >= last_judged]


def test_an_early_reading_is_of_the_first_unmoved_frame(tmp_path):
    """The frames read early are each still position's second frame (its first is the one
    that differs from the frame before), where the loop reading on settling reads later ones."""
    early = reads(tmp_path / "e", -1, True)
    late = reads(tmp_path / "l", -1, False)
    assert early == [1, 13, 25]
    assert all(e < l for e, l in zip(early, late)) and len(early) == len(late)
