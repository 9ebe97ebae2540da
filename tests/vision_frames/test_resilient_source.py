"""A source that vanishes is retried with backoff and reported, and never crashes the reader."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from frame_helpers import index_of

from companion.vision.frames import (CONNECTED, ENDED, LOST, RECONNECTING, Frame, FrameSource,
                                     ResilientSource, SourceError, open_source)


class FakeClock:
    """Time that moves only when the source waits, so backoff is tested without waiting."""

    def __init__(self):
        self.now = 100.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        self.now += seconds
        return False


class FakeCamera(FrameSource):
    """A webcam on a loose USB lead: it delivers ``good`` frames, then fails."""

    def __init__(self, device: "FakeDevice"):
        self.device = device
        self.name = "fake camera"
        self.closed = False

    def read(self):
        if self.device.unplugged:
            raise SourceError("camera unplugged")
        self.device.frames += 1
        return Frame(np.full((4, 4, 3), self.device.frames, np.uint8), self.device.frames, 0.0)

    def close(self):
        self.closed = True


class FakeDevice:
    def __init__(self, fail_opens: int):
        self.fail_opens = fail_opens
        self.opens = 0
        self.unplugged = False
        self.frames = 0
        self.cameras: list[FakeCamera] = []

    def open(self) -> FakeCamera:
        self.opens += 1
        if self.unplugged or self.opens <= self.fail_opens:
            raise SourceError("no such device")
        cam = FakeCamera(self)
        self.cameras.append(cam)
        return cam


def test_a_failing_device_is_retried_with_backoff_and_reported():
    clock, device, statuses = FakeClock(), FakeDevice(fail_opens=2), []
    src = ResilientSource(device.open, lambda s, d: statuses.append((s, d)), initial_delay=0.5,
                          max_delay=4.0, lost_after=5.0, max_wait=10.0, clock=clock, wait=clock.wait)
    first = None
    for _ in range(10):
        first = src.read()
        if first is not None:
            break
    assert first is not None and device.opens == 3
    assert [s for s, _ in statuses] == [RECONNECTING, CONNECTED]
    assert "no such device" in statuses[0][1] and "retrying in 0.5 s" in statuses[0][1]
    assert clock.waits == [0.5, 1.0]  # exponential backoff between the attempts

    # unplugged mid-game: read returns None, never raises; status says so
    device.unplugged = True
    results = [src.read() for _ in range(12)]
    assert results == [None] * 12
    assert device.cameras[0].closed
    assert [s for s, _ in statuses][2:] == [RECONNECTING, LOST]
    assert src.status == LOST and max(clock.waits) == 4.0  # backoff capped at max_delay

    # plugged back: picked up again, frames renumbered continuously
    device.unplugged = False
    frames = [f for f in (src.read() for _ in range(10)) if f is not None]
    assert src.status == CONNECTED and statuses[-1][0] == CONNECTED
    assert frames[0].index == first.index + 1
    src.close()
    with pytest.raises(SourceError):
        src.read()


def test_a_bug_in_the_source_is_not_swallowed():
    def broken_factory():
        raise TypeError("programming error")

    src = ResilientSource(broken_factory, clock=FakeClock(), wait=FakeClock().wait)
    with pytest.raises(TypeError):
        src.read()


def test_a_finite_source_ends_and_is_not_retried(video_file):
    opens = []

    def factory():
        opens.append(1)
        return open_source(str(video_file))

    statuses = []
    src = ResilientSource(factory, lambda s, d: statuses.append(s))
    frames = []
    while (frame := src.read()) is not None:
        frames.append(frame)
    assert len(frames) == 12 and src.read() is None
    assert statuses == [CONNECTED, ENDED] and len(opens) == 1


def test_close_ends_a_wait_at_once():
    device = FakeDevice(fail_opens=10**6)
    src = ResilientSource(device.open, initial_delay=30.0, max_delay=30.0, max_wait=30.0)
    assert src.read() is None  # first attempt fails: next one in 30 s
    done = threading.Event()

    def reader():
        src.read()
        done.set()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    src.close()
    assert done.wait(timeout=10.0), "read() kept waiting after close()"


def test_a_real_stream_that_drops_is_reconnected(mjpeg_server):
    statuses = []
    src = ResilientSource(lambda: open_source(mjpeg_server.url), lambda s, d: statuses.append(s),
                          initial_delay=0.05, max_delay=0.2, max_wait=0.2)
    deadline = time.monotonic() + 20.0
    seen = []
    while time.monotonic() < deadline and len(seen) < 5:
        frame = src.read()
        if frame is not None:
            seen.append(index_of(frame.image))
    assert seen == [0, 1, 2, 3, 4]
    mjpeg_server.stop()
    while time.monotonic() < deadline and src.status != RECONNECTING:
        src.read()
    assert src.status == RECONNECTING
    mjpeg_server.start()  # the phone's app comes back on the same address
    frame = None
    while time.monotonic() < deadline and frame is None:
        frame = src.read()
    assert frame is not None and src.status == CONNECTED
    assert statuses[:3] == [CONNECTED, RECONNECTING, CONNECTED]
    src.close()
