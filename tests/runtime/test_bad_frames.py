"""Bad frames through the referee loop never make a move and never crash it: black, saturated,
the wrong size, not a colour picture, noise, truncated files in a folder, and a camera that
vanishes mid-game. Each bad stretch is held still long enough for the gate to settle on it, so
the reader really is asked to read it."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.demo.gleebs import demo_source, gate_for, reader_for
from companion.demo.play import demo_script
from companion.runtime.loop import RefereeLoop
from companion.runtime.table import Table
from companion.vision.frames import Frame, FrameSource, ResilientSource, SourceError, open_source

GAME = "gleebs-and-grues"


@pytest.fixture(scope="module")
def video():
    """The start of the demo game and one move, as frames, with the reader and gate a user has."""
    script = demo_script(GAME)
    script = replace(script, steps=script.steps[:1])
    source = demo_source(script, seed=5)
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    return script, frames, reader_for(source), source


class ListSource(FrameSource):
    """Frames from a list, renumbered and retimed at 15 fps."""

    def __init__(self, images):
        self.images = list(images)
        self.k = 0

    @property
    def fps(self):
        return 15.0

    def read(self):
        if self.k >= len(self.images):
            return None
        image = self.images[self.k]
        self.k += 1
        return Frame(image=image, index=self.k - 1, t=(self.k - 1) / self.fps)

    def close(self):
        pass


def bad_images(good: np.ndarray, moved: np.ndarray | None = None) -> dict[str, list]:
    """Bad frames; the wrong-size ones show the position after a move (``moved``), so that the
    gate sees a change and the reader is asked to read them."""
    h, w = good.shape[:2]
    moved = good if moved is None else moved
    rng = np.random.default_rng(0)
    return {
        "black": [np.zeros_like(good)] * 8,
        "saturated": [np.full_like(good, 255)] * 8,
        "wrong size": [cv2.resize(moved, (w // 2, h // 2))] * 8,
        "grey": [cv2.cvtColor(good, cv2.COLOR_BGR2GRAY)] * 8,
        "tiny": [good[:8, :8]] * 8,
        "noise": [rng.integers(0, 256, good.shape, dtype=np.uint8)] * 8,
        "float": [good.astype(np.float32)] * 8,
    }


def start_table(tmp_path, script):
    table = Table(tmp_path)
    table.start_game(script.game, list(script.players), dict(script.options), seed=script.seed,
                     actor="test")
    return table


def moves(table):
    return [e for e in table.log.events(table.require_game().session.game_id)
            if e.type.startswith("move.") or e.type in ("question.asked", "unexplained")]


@pytest.mark.parametrize("kind", ["black", "saturated", "wrong size", "grey", "tiny", "noise",
                                  "float"])
def test_a_bad_stretch_of_frames_makes_no_move(video, tmp_path, kind):
    script, frames, reader, source = video
    start = frames[0].image
    table = start_table(tmp_path, script)
    try:
        before = table.require_game().session.state
        images = [start] * 8 + bad_images(start, frames[-1].image)[kind] + [start] * 8
        loop = RefereeLoop(table, ListSource(images), reader, gate_for(source), keyframes=False)
        loop.run()
        assert loop.stats.frames == len(images)
        assert moves(table) == []
        assert table.require_game().session.state == before
        camera = table.snapshot()["camera"]
        if kind in ("grey", "tiny", "float"):
            assert "not a colour picture" in camera["detail"]
        elif kind == "wrong size":
            assert loop.stats.wrong_size == 8 and "changed size from 1280×720" in camera["detail"]
        else:  # the reader was asked, and said it could not see the table
            assert loop.stats.unreadable >= 1 and "cannot see the table" in camera["detail"]
    finally:
        table.close()


def test_a_move_after_bad_frames_is_still_judged(video, tmp_path):
    """The loop goes on after a bad stretch: the next real move is judged as usual."""
    script, frames, reader, source = video
    start = frames[0].image
    table = start_table(tmp_path, script)
    try:
        bad = bad_images(start)
        images = [start] * 8 + bad["black"] + bad["noise"] + [f.image for f in frames]
        loop = RefereeLoop(table, ListSource(images), reader, gate_for(source), keyframes=False)
        loop.run()
        judged = [e for e in moves(table) if e.type == "move.judged"]
        assert len(judged) == 1 and judged[0].data["move"] == dict(script.steps[0].move)
    finally:
        table.close()


def test_truncated_and_unreadable_files_in_a_folder_are_skipped(video, tmp_path):
    script, frames, reader, source = video
    folder = tmp_path / "frames"
    folder.mkdir()
    n = 0
    for k, frame in enumerate(frames):
        ok, buf = cv2.imencode(".jpg", frame.image)
        data = buf.tobytes()
        if k % 7 == 3:
            data = data[: len(data) // 3]  # a file cut short while being copied
        (folder / f"{n:05d}.jpg").write_bytes(data)
        n += 1
        if k % 11 == 5:
            (folder / f"{n:05d}.jpg").write_bytes(b"not an image at all")
            n += 1
    table = start_table(tmp_path / "data", script)
    try:
        loop = RefereeLoop(table, open_source(str(folder)), reader, gate_for(source),
                           keyframes=False)
        loop.run()
        judged = [e for e in moves(table) if e.type == "move.judged"]
        # the one move of the video is judged, once; nothing else happened
        assert [e.data["move"] for e in judged] == [dict(script.steps[0].move)]
    finally:
        table.close()


class VanishingCamera(FrameSource):
    """A camera that gives some frames, then fails as an unplugged webcam does."""

    def __init__(self, images, fail_after):
        self.images, self.fail_after, self.k = images, fail_after, 0

    def read(self):
        if self.k >= self.fail_after:
            raise SourceError("the camera stopped answering (unplugged?)")
        image = self.images[self.k % len(self.images)]
        self.k += 1
        return Frame(image=image, index=self.k - 1, t=(self.k - 1) / 15.0)

    def close(self):
        pass


def test_a_camera_that_vanishes_is_reported_and_the_game_kept(video, tmp_path):
    script, frames, reader, source = video
    table = start_table(tmp_path, script)
    statuses = []
    opened = []

    def factory():
        if len(opened) >= 2:  # unplugged for good after the second connection
            raise SourceError("no camera at index 0")
        opened.append(1)
        return VanishingCamera([f.image for f in frames[:5]], fail_after=5)

    def on_status(status, detail):
        statuses.append(status)
        table.set_camera(status, detail)

    clock = [0.0]
    resilient = ResilientSource(factory, on_status, name="camera 0", initial_delay=0.5,
                                max_delay=2.0, lost_after=3.0, max_wait=0.0,
                                clock=lambda: clock[0],
                                wait=lambda s: clock.__setitem__(0, clock[0] + s))
    try:
        before = table.require_game().session.state
        loop = RefereeLoop(table, resilient, reader, gate_for(source), keyframes=False)
        for _ in range(60):
            clock[0] += 0.25
            assert loop.step() in (True, False)
        assert "lost" in statuses and "connected" in statuses
        assert table.snapshot()["camera"]["status"] == "lost"
        assert moves(table) == [] and table.require_game().session.state == before
    finally:
        resilient.close()
        table.close()
