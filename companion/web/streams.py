"""The live channels: the event stream (server-sent events) and the camera view (MJPEG).

Both are long-lived responses, each holding one of waitress's worker threads for as long as the
tablet stays connected, so both are capped (:class:`Slots`): beyond the cap a client gets a 503
with a message and a ``Retry-After``, never a silently starved server.

**Event stream.** One stream per tab carries every message of the table's :class:`EventBus`,
numbered ``<epoch>-<id>`` (the bus id, and the bus epoch that changes when the process
restarts). A browser that reconnects sends the last number it saw in ``Last-Event-ID`` and gets
everything after it (``bus.since``); when the bus no longer holds all of it, or the number is from
an earlier run, the stream first sends a ``resync`` message carrying a full snapshot, so a tablet
that slept loses nothing. A ``heartbeat`` message is sent when nothing else was for
``heartbeat_s`` seconds: writing it is how a dead client is noticed (the write fails and the
slot is freed), and receiving it is how the page knows the server is still there.

**Camera view.** ``multipart/x-mixed-replace`` of the JPEGs the :class:`FrameFeed` encoded once
for every viewer; a still camera resends its last frame every few seconds for the same reason
as the heartbeat.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Iterator

from companion import events as ev
from companion.web.errors import ApiError

#: how long a stream waits on the bus before it looks at the stop flag again
POLL_S = 0.5
#: the camera view resends its last frame after this long without a new one
MJPEG_KEEPALIVE_S = 5.0
#: a frame not followed by another this soon is sent again (see :func:`mjpeg_stream`)
MJPEG_SETTLE_S = 0.25
BOUNDARY = "frame"


class Slots:
    """A counted set of long-lived connections with a cap."""

    def __init__(self, name: str, cap: int):
        self.name = name
        self.cap = cap
        self.count = 0
        self.served = 0
        self.refused = 0
        self._lock = threading.Lock()

    def take(self) -> None:
        with self._lock:
            if self.count >= self.cap:
                self.refused += 1
                raise ApiError(503, "too_many_" + self.name,
                               f"this dashboard already serves {self.cap} {self.name} (the most it "
                               "allows); close another tab or try again shortly",
                               headers={"Retry-After": "10"})
            self.count += 1
            self.served += 1

    def give(self) -> None:
        with self._lock:
            self.count -= 1

    def to_json(self) -> dict[str, int]:
        with self._lock:
            return {"open": self.count, "cap": self.cap, "served": self.served,
                    "refused": self.refused}


class Encoded:
    """Bus messages as SSE text, encoded once and shared by every stream (bounded)."""

    def __init__(self, epoch: str, size: int = 1024):
        self.epoch = epoch
        self._size = size
        self._items: OrderedDict[int, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, message: Any) -> bytes:
        with self._lock:
            cached = self._items.get(message.id)
        if cached is not None:
            return cached
        text = json.dumps(message.to_json(), ensure_ascii=False, separators=(",", ":"))
        data = f"id: {self.epoch}-{message.id}\ndata: {text}\n\n".encode()
        with self._lock:
            self._items[message.id] = data
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return data


def parse_last_id(text: str | None, epoch: str) -> tuple[int | None, bool]:
    """``(last id, from this run)`` of a ``Last-Event-ID`` (``<epoch>-<id>`` or a bare bus id).
    ``(None, True)`` when none was sent; ``(None, False)`` when it cannot be used."""
    if text is None or not text.strip():
        return None, True
    text = text.strip()
    head, sep, tail = text.rpartition("-")
    if sep:
        if not tail.isdigit():
            return None, False
        return int(tail), head == epoch
    if text.isdigit():
        return int(text), True
    return None, False


def sse(type_: str, data: Any, *, id_: str | None = None) -> bytes:
    """A control message (resync, heartbeat) in the same shape as bus messages."""
    text = json.dumps({"type": type_, "ts": round(time.time(), 3), "data": data},
                      ensure_ascii=False, separators=(",", ":"))
    head = f"id: {id_}\n" if id_ else ""
    return f"{head}data: {text}\n\n".encode()


class Held:
    """A streaming body that gives its slot back however it ends: exhausted, closed by the
    server when the client went away, or never started at all."""

    def __init__(self, body: Iterator[bytes], release: Callable[[], None]):
        self._body = body
        self._release = release
        self._released = False
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._body
        finally:
            self.close()

    def close(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        try:
            self._body.close()  # type: ignore[attr-defined]
        finally:
            self._release()


def event_stream(bus: Any, encoded: Encoded, last_text: str | None,
                 snapshot: Callable[[], dict[str, Any]], *, heartbeat_s: float,
                 stopping: threading.Event) -> Iterator[bytes]:
    """The body of one event stream (see the module docstring)."""
    yield f"retry: 2000\n: {bus.epoch}\n\n".encode()
    last, same_run = parse_last_id(last_text, bus.epoch)
    if last is not None and same_run and last > bus.last_id:
        same_run = False  # a number from the future is from an earlier run
    backlog = bus.since(last) if (last is not None and same_run) else None
    if backlog is None:
        snap = snapshot()
        last = snap["bus"]["last_id"]
        reason = ("new stream" if last_text is None else
                  "the events since your last one are no longer kept" if same_run else
                  "the server restarted")
        yield sse("resync", {"reason": reason, "snapshot": snap},
                  id_=f"{bus.epoch}-{last}")
        backlog = bus.since(last) or []
    quiet_since = time.monotonic()
    while not stopping.is_set():
        for message in backlog:
            yield encoded.get(message)
            last = message.id
            quiet_since = time.monotonic()
        if time.monotonic() - quiet_since >= heartbeat_s:
            yield sse(ev.HEARTBEAT, {"last_id": last, "epoch": bus.epoch})
            quiet_since = time.monotonic()
        waited = bus.wait(last, timeout=min(POLL_S, heartbeat_s))
        if waited is None:  # fell behind the bus's memory while writing: start over
            snap = snapshot()
            last = snap["bus"]["last_id"]
            yield sse("resync", {"reason": "the events since your last one are no longer kept",
                                 "snapshot": snap}, id_=f"{bus.epoch}-{last}")
            waited = bus.since(last) or []
        backlog = waited


def mjpeg_stream(feed: Any, *, stopping: threading.Event) -> Iterator[bytes]:
    """The body of one camera view: every new frame of the shared feed.

    Browsers show a part of the stream only once the *next* part begins, so a frame that is not
    followed by another within :data:`MJPEG_SETTLE_S` (a still table, a paused camera) is sent a
    second time: the viewer always shows the latest frame, and a live camera costs nothing more.
    """
    yield f"--{BOUNDARY}\r\n".encode()
    seq = 0
    sent_at = 0.0
    settled = True
    while not stopping.is_set():
        frame = feed.wait_next(seq, timeout=MJPEG_SETTLE_S if not settled else POLL_S)
        if frame is None:
            frame = feed.latest()
            if frame is None:
                continue
            if settled and time.monotonic() - sent_at < MJPEG_KEEPALIVE_S:
                continue
            settled = True
        else:
            settled = False
        seq = frame.seq
        sent_at = time.monotonic()
        yield (f"Content-Type: image/jpeg\r\nContent-Length: {len(frame.jpeg)}\r\n"
               f"X-Frame-Seq: {frame.seq}\r\n\r\n").encode() + frame.jpeg + \
            f"\r\n--{BOUNDARY}\r\n".encode()
