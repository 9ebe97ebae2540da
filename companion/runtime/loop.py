"""The referee loop: frames → stillness gate → reading → referee → events.

Each frame goes to the dashboard's camera view, then through the stillness gate. Only when the
scene has just become still (and no hand is over the table) is a reading given to the referee,
which decides what it means. A scene that stays still is not read again; the next reading
happens after the next movement. So an unchanged table costs the gate's few milliseconds a frame
and nothing more.

With ``read_early`` the reading is made early: on the first frame the gate finds unmoved, while
the gate goes on waiting for the scene to stay still. The reading's time is then spent inside
the gate's wait instead of after it, and the verdict follows the gate's settling by the judging
alone. If the table moves before the gate settles, the early reading is dropped and the reader's
memory put back as it was (:mod:`companion.runtime.memory`): nothing is judged that the gate did
not let through, and the reader reads on as if that frame had never been read. It is not the
default: the frame read is then the second of the still moment instead of the one the gate
settles on, and a reader that reads two frames of one still position differently (sensor noise
alone) judges differently; the La Ville des Nains demo video goes wrong at step 26 that way.

Nothing a frame contains can crash the loop or change the game by itself: a frame the reader
cannot use (black, saturated, the markers not visible, a hand in it) is reported on the camera's
status and skipped; a source that fails is the resilient source's business (it reconnects and
reports); the loop only ever hands the referee complete readings.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

import numpy as np

from companion.observation import Observation
from companion.runtime.memory import Kept
from companion.runtime.table import Table
from companion.vision.frames import Frame, FrameSource, SourceError

log = logging.getLogger(__name__)


class Gate(Protocol):
    """The stillness gate: fed every frame; says when the scene has just become still."""

    def update(self, image: np.ndarray, t: float) -> Any: ...


class Reader(Protocol):
    """Reads one frame into an observation; None when it cannot (no markers, bad frame)."""

    def read(self, frame: Frame) -> Observation | None: ...


@dataclass
class LoopStats:
    frames: int = 0
    readings: int = 0
    unreadable: int = 0
    #: frames refused because their size is not the camera's
    wrong_size: int = 0
    hands: int = 0
    events: int = 0
    #: early readings dropped because the table moved before the gate settled
    early_dropped: int = 0
    #: seconds from the first still frame to the referee's verdict, per reading with events
    latencies: list[float] = field(default_factory=list)
    #: the parts of each of those latencies: the gate's wait for stillness (from the first
    #: still frame to the frame it settles on), the reading, and the judging. A reading made
    #: early runs inside the gate's wait: its latency is the longer of the two, plus the judging
    waits: list[float] = field(default_factory=list)
    reading_s: list[float] = field(default_factory=list)
    judging_s: list[float] = field(default_factory=list)
    #: for each of those latencies, seconds from the first still frame to the end of the
    #: reading at the camera's pace (for a reading made on settling: the wait plus the reading)
    read_by: list[float] = field(default_factory=list)
    #: seconds spent on each frame by the loop itself (gate, feed, reading, judging)
    busy: list[float] = field(default_factory=list)


@dataclass
class _Early:
    """A reading made on the first frame the gate found unmoved, waiting for the gate."""

    frame: Frame
    kept: Kept
    observation: Observation | None = None
    failed: str | None = None
    #: seconds the reading took (wall), and the loop's own seconds on the frames after it
    reading_s: float = 0.0
    catch_up_s: float = 0.0


class RefereeLoop:
    """Runs in its own thread (``start``/``stop``) or step by step (``step``), e.g. in tests.

    ``skip_to``: frames with an index up to this were judged before a crash; they still go to
    the camera view and the gate, but are not judged again. The last of them (the frame of the
    last verdict) is read once more, unjudged: a reader remembers the last still moment (the Haut
    les Cubes reader reads a changed frame against it), and a resumed game must be read as the
    uninterrupted one would have been.

    ``read_early``: read on the first unmoved frame, inside the gate's wait (see the module's
    text); the verdict and its keyframe then name that frame. A game resumed after a crash must
    be run as it was (``companion run --read-early`` both times).
    """

    def __init__(self, table: Table, source: FrameSource, reader: Reader, gate: Gate, *,
                 skip_to: int = -1, overlay: Callable[[np.ndarray, Observation], np.ndarray] | None = None,
                 on_events: Callable[[list], None] | None = None, keyframes: bool = True,
                 read_early: bool = False):
        self.table = table
        self.source = source
        self.reader = reader
        self.gate = gate
        self.skip_to = skip_to
        self.overlay = overlay
        self.on_events = on_events
        self.keyframes = keyframes
        self.read_early = read_early
        self.stats = LoopStats()
        self._early: _Early | None = None
        #: whether the current still stretch has had its early reading (or its settled one)
        self._stretch_read = False
        self.last_observation: Observation | None = None
        self.last_frame: Frame | None = None
        #: the size of the camera's frames (the first usable frame's): the calibration and the
        #: reader's pose hold for that size only
        self.frame_size: tuple[int, int] | None = None
        self.finished = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- running ------------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="referee-loop", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        try:
            while not self._stop.is_set():
                if not self.step():
                    break
        finally:
            self.finished.set()

    def step(self) -> bool:
        """Handle one frame; False when the source has ended."""
        try:
            frame = self.source.read()
        except SourceError as exc:
            self.table.set_camera("lost", str(exc))
            return False
        if frame is None:  # a resilient source returns None while down: keep going until it ends
            return getattr(self.source, "status", "ended") not in ("ended", "closed")
        self.last_frame = frame
        t0 = time.perf_counter()
        early = self._early
        self.handle(frame)
        spent = time.perf_counter() - t0
        self.stats.busy.append(spent)
        if early is not None and early is self._early and early.frame is not frame:
            early.catch_up_s += spent
        return True

    # -- one frame ----------------------------------------------------------------------------

    def handle(self, frame: Frame) -> list:
        self.stats.frames += 1
        image = frame.image
        if not _usable(image):
            self.table.set_camera("connected", "the image is empty or not a colour picture")
            return []
        size = (int(image.shape[1]), int(image.shape[0]))
        if self.frame_size is None:
            self.frame_size = size
        elif size != self.frame_size:
            self.stats.wrong_size += 1
            w, h = self.frame_size
            self.table.set_camera(
                "connected", f"the camera's frames changed size from {w}×{h} to {size[0]}×{size[1]}: "
                f"what was measured no longer fits; set the camera back to {w}×{h}, or calibrate "
                f"again and resume")
            return []
        self.table.set_latest_frame(frame)
        if self.table.overlay and self.overlay is not None and self.last_observation is not None:
            obs = self.last_observation
            self.table.feed.push(image, overlay=lambda im: self.overlay(im, obs))
        else:
            self.table.feed.push(image)
        report = self.gate.update(image, frame.t)
        if getattr(report, "moving", False):
            self._drop_early()
            self._stretch_read = False
            return []
        if not getattr(report, "settled", False):
            if (self.read_early and not self._stretch_read and getattr(report, "moving", None) is False
                    and frame.index >= self.skip_to):
                self._stretch_read = True
                self._early = self._read_ahead(frame)
            return []
        self._stretch_read = True
        early, self._early = self._early, None
        if early is not None:
            return self._settle(early.frame, early.observation, early.failed, report,
                                reading_s=early.reading_s, ahead_s=early.catch_up_s)
        if frame.index < self.skip_to:
            return []
        t_still = time.perf_counter()
        observation, failed = self._read(frame)
        return self._settle(frame, observation, failed, report,
                            reading_s=time.perf_counter() - t_still, ahead_s=None)

    def _read(self, frame: Frame) -> tuple[Observation | None, str | None]:
        """The reader's reading of ``frame``, or why it failed (a reader failure is a bad frame,
        never a crash)."""
        try:
            return self.reader.read(frame), None
        except Exception as exc:
            log.exception("the reader failed on frame %s", frame.index)
            return None, f"could not read frame {frame.index}: {exc}"

    def _read_ahead(self, frame: Frame) -> _Early:
        t0 = time.perf_counter()  # keeping the reader's memory is part of the reading's time
        kept = Kept(self.reader)
        observation, failed = self._read(frame)
        return _Early(frame, kept, observation, failed, reading_s=time.perf_counter() - t0)

    def _drop_early(self) -> None:
        """The table moved before the gate settled: the early reading never happened."""
        early, self._early = self._early, None
        if early is not None:
            early.kept.restore()
            self.stats.early_dropped += 1

    def _settle(self, frame: Frame, observation: Observation | None, failed: str | None,
                report: Any, *, reading_s: float, ahead_s: float | None) -> list:
        """The reading of the still moment the gate just let through, given to the referee.

        ``ahead_s``: for a reading made early, the loop's seconds on the frames between it and
        the gate's settling (None for a reading made on settling)."""
        if failed is not None:
            self.stats.unreadable += 1
            self.table.set_camera("connected", failed)
            return []
        if frame.index == self.skip_to:  # judged before the crash: read only to be remembered
            return []
        t_read = time.perf_counter()
        self.stats.readings += 1
        if observation is None:
            self.stats.unreadable += 1
            self.table.set_camera("connected", "cannot see the table: check the markers and "
                                  "the light")
            return []
        if observation.hand:
            self.stats.hands += 1
            return []
        self.last_observation = observation
        referee = self.table.referee
        if referee is None:
            return []
        events = referee.observe(
            observation, image_jpeg=_jpeg(frame.image) if self.keyframes else None,
            actor="camera", source={"frame": frame.index, "t": round(frame.t, 3)})
        if events:
            judging_s = time.perf_counter() - t_read
            wait = float(getattr(report, "delay", 0.0))
            if ahead_s is None:
                read_by = wait + reading_s
            else:
                # the early reading began on its frame, which came this long after the first
                # still frame (video time), and the loop then handled the frames it had missed:
                # at the camera's pace the verdict comes when both that and the gate are done
                settled_t = float(getattr(self.last_frame, "t", frame.t))
                read_by = max(0.0, wait - (settled_t - frame.t)) + reading_s + ahead_s
            latency = max(wait, read_by) + judging_s
            self.stats.events += len(events)
            self.stats.latencies.append(latency)
            self.stats.waits.append(wait)
            self.stats.reading_s.append(reading_s)
            self.stats.judging_s.append(judging_s)
            self.stats.read_by.append(read_by)
            if self.on_events is not None:
                self.on_events(events)
        return events


def _usable(image: Any) -> bool:
    return (isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3
            and image.shape[0] >= 16 and image.shape[1] >= 16 and image.dtype == np.uint8)


def _jpeg(image: np.ndarray) -> bytes | None:
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes() if ok else None


def last_frame_judged(table: Table) -> int:
    """The index of the last frame the current game's record refers to (for ``--resume``)."""
    referee = table.referee
    if referee is None:
        return -1
    last = -1
    for event in table.log.events(referee.session.game_id):
        src = event.data.get("source") or {}
        if isinstance(src, dict) and isinstance(src.get("frame"), int):
            last = max(last, src["frame"])
    return last
