"""Frame sources behind one interface.

Everything that produces images (a webcam by index, a stream URL, a video file, a folder of
images, the synthetic table) is a :class:`FrameSource`. The referee loop only ever calls
``read()``; a source that fails is wrapped by a resilient reader that retries with backoff and
reports its status rather than crashing.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from companion.errors import BadInput, UserError

log = logging.getLogger(__name__)


@dataclass
class Frame:
    """One image and where it came from. ``truth`` carries exact ground truth when the source
    knows it (the synthetic table), for tests and benchmarks; readers never look at it."""

    image: np.ndarray  # BGR, uint8, H×W×3
    index: int
    t: float  # seconds since the source started
    truth: dict[str, Any] | None = field(default=None, repr=False)
    #: where the image came from when that is a file (a folder source's image path), for messages
    origin: str | None = None


class SourceError(Exception):
    """The source cannot deliver frames now (unplugged, stream down, file unreadable)."""


class FrameSource(ABC):
    """A source of frames. ``read`` returns the next frame, None at the end of a finite
    source (a video file or folder), and raises :class:`SourceError` when the source fails."""

    #: a short description for messages and the dashboard ("camera 0", "video.mp4")
    name: str = "source"

    @abstractmethod
    def read(self) -> Frame | None: ...

    def close(self) -> None:
        """Release the device or file. Reading after close raises :class:`SourceError`."""

    @property
    def fps(self) -> float | None:
        """Nominal frame rate, when known."""
        return None

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------------------ opening by name
#: Openers for ``scheme:...`` specs that other parts of the program provide (the synthetic
#: table registers ``synth``), so this module needs no knowledge of them.
_SCHEMES: dict[str, Callable[[str], FrameSource]] = {}

#: URL schemes read as network streams (MJPEG over HTTP, RTSP, ...).
STREAM_SCHEMES = ("http", "https", "rtsp", "rtsps", "rtmp", "udp", "tcp")
#: File name endings read as videos; anything else that is a file is tried as an image.
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpg", ".mjpeg", ".mpg",
                  ".mpeg", ".wmv", ".ts")


def register_scheme(scheme: str, opener: Callable[[str], FrameSource]) -> None:
    """Let ``open_source("<scheme>:<rest>")`` open sources another module provides; the opener
    receives the whole spec."""
    if not re.fullmatch(r"[a-z][a-z0-9+-]+", scheme) or scheme in STREAM_SCHEMES:
        raise ValueError(f"cannot register frame source scheme {scheme!r}")
    _SCHEMES[scheme] = opener


def open_source(spec: str, *, size: tuple[int, int] | None = None,
                fps: float | None = None) -> FrameSource:
    """The frame source a user names on the command line:

    * ``"0"``, ``"1"``: a webcam by index (``size`` asks it for a resolution);
    * ``"rtsp://..."``, ``"http://.../video.mjpg"``: a network stream;
    * ``"game.mp4"``: a video file;
    * ``"shots/"`` or any directory: its images in natural order (``frame2`` before
      ``frame10``); ``fps`` sets their timestamps;
    * ``"photo.jpg"``: one image;
    * ``"<scheme>:..."``: a source registered with :func:`register_scheme`.

    Raises :class:`BadInput` for a spec that names nothing usable, :class:`SourceError` for a
    device or stream that cannot be opened now.
    """
    text = str(spec).strip()
    if not text:
        raise BadInput("no frame source given",
                       hint="give a camera index (0), a stream URL, a video file or a folder")
    if re.fullmatch(r"\d{1,3}", text):
        from companion.vision.sources_capture import CameraSource

        return CameraSource(int(text), size=size)
    scheme_match = re.match(r"([a-zA-Z][a-zA-Z0-9+-]+):", text)
    if scheme_match:
        scheme = scheme_match.group(1).lower()
        if scheme in STREAM_SCHEMES:
            from companion.vision.sources_capture import StreamSource

            return StreamSource(text)
        if scheme in _SCHEMES:
            return _SCHEMES[scheme](text)
        if not os.path.exists(text):
            known = ", ".join(sorted(set(STREAM_SCHEMES) | set(_SCHEMES)))
            raise BadInput(f"unknown frame source {text!r}",
                           hint=f"known URL schemes: {known}; or give a camera index, a file or a folder")
    path = Path(text).expanduser()
    if path.is_dir() or text.endswith(("/", os.sep)):
        from companion.vision.sources_folder import FolderSource

        return FolderSource(path, fps=fps)
    if not path.exists():
        raise BadInput(f"no such file or folder: {path}",
                       hint="check the path, or give a camera index such as 0")
    if path.suffix.lower() in VIDEO_SUFFIXES:
        from companion.vision.sources_capture import VideoFileSource

        return VideoFileSource(path)
    from companion.vision.sources_folder import FolderSource

    return FolderSource(path, fps=fps)


# --------------------------------------------------------------------------------- resilience
Status = str
CONNECTING: Status = "connecting"      # not yet opened (initial value, never reported)
CONNECTED: Status = "connected"        # frames are flowing
RECONNECTING: Status = "reconnecting"  # down, retrying with backoff
LOST: Status = "lost"                  # down for longer than ``lost_after``; still retrying
ENDED: Status = "ended"                # a finite source (file, folder) has no more frames
CLOSED: Status = "closed"


def _is_device_failure(exc: BaseException) -> bool:
    """Exceptions that mean "the device or stream failed", as opposed to a bug."""
    if isinstance(exc, (SourceError, OSError, UserError, EOFError)):
        return True
    return type(exc).__module__.split(".")[0] == "cv2"  # cv2.error: the capture backend failed


class ResilientSource(FrameSource):
    """Wraps a source that can vanish (a webcam unplugged, a phone's stream dropping) so the
    program never crashes on it: ``factory`` opens the source; when opening or reading fails,
    :meth:`read` returns None, reports the status through ``on_status(status, detail)`` and
    retries with exponential backoff (``initial_delay`` doubling up to ``max_delay``). After
    ``lost_after`` seconds down, the status becomes ``"lost"`` (the dashboard says so) but the
    retries go on, so a camera plugged back in is picked up again.

    ``read`` blocks at most ``max_wait`` seconds while the source is down, so a caller's loop
    stays responsive; :meth:`close` from another thread ends the wait at once. Frames are
    renumbered continuously across reconnections. The end of a finite source (a video file)
    is reported as ``"ended"`` and is not retried.
    """

    def __init__(self, factory: Callable[[], FrameSource],
                 on_status: Callable[[Status, str], None] | None = None, *,
                 name: str | None = None, initial_delay: float = 0.5, max_delay: float = 30.0,
                 lost_after: float = 10.0, max_wait: float = 0.5,
                 clock: Callable[[], float] = time.monotonic,
                 wait: Callable[[float], object] | None = None):
        if initial_delay <= 0 or max_delay < initial_delay or lost_after < 0 or max_wait < 0:
            raise ValueError("backoff delays must be positive and max_delay >= initial_delay")
        self._factory = factory
        self._on_status = on_status
        self.name = name or getattr(factory, "__name__", "source")
        self._initial_delay, self._max_delay = initial_delay, max_delay
        self._lost_after, self._max_wait = lost_after, max_wait
        self._clock = clock
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._source: FrameSource | None = None
        self._status: Status = CONNECTING
        self._detail = ""
        self._delay = initial_delay
        self._next_try = clock()
        self._down_since: float | None = None
        self._t0 = clock()
        self._t_base = 0.0
        self._count = 0
        self.failures = 0

    @property
    def status(self) -> Status:
        return self._status

    @property
    def detail(self) -> str:
        """The last status message (why it is down, when it retries)."""
        return self._detail

    @property
    def fps(self) -> float | None:
        return self._source.fps if self._source is not None else None

    def _set_status(self, status: Status, detail: str) -> None:
        self._detail = detail
        if status != self._status:
            self._status = status
            (log.info if status in (CONNECTED, ENDED, CLOSED) else log.warning)(
                "%s: %s (%s)", self.name, status, detail)
            if self._on_status is not None:
                self._on_status(status, detail)

    def _down(self, exc: BaseException) -> None:
        now = self._clock()
        self.failures += 1
        if self._down_since is None:
            self._down_since = now
        delay = self._delay
        self._next_try = now + delay
        self._delay = min(self._delay * 2.0, self._max_delay)
        lost = now - self._down_since >= self._lost_after
        message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        self._set_status(LOST if lost else RECONNECTING, f"{message}; retrying in {delay:.1f} s")

    def _drop(self, exc: BaseException) -> None:
        src, self._source = self._source, None
        if src is not None:
            try:
                src.close()
            except Exception as close_exc:  # a dying device may fail to close too
                if not _is_device_failure(close_exc):
                    raise
        self._delay = self._initial_delay
        self._down(exc)

    def _connect(self) -> None:
        try:
            src = self._factory()
        except Exception as exc:
            if not _is_device_failure(exc):
                raise
            self._down(exc)
            return
        self._source = src
        self._delay = self._initial_delay
        self._down_since = None
        self._t_base = self._clock() - self._t0
        self.name = getattr(src, "name", None) or self.name
        self._set_status(CONNECTED, f"reading {self.name}")

    def read(self) -> Frame | None:
        if self._status == CLOSED:
            raise SourceError(f"{self.name} is closed")
        if self._status == ENDED:
            return None
        if self._source is None:
            remaining = self._next_try - self._clock()
            if remaining > 0:
                self._wait(min(remaining, self._max_wait))
                if self._stop.is_set():
                    return None
                if self._clock() < self._next_try:
                    if self._down_since is not None and \
                            self._clock() - self._down_since >= self._lost_after:
                        self._set_status(LOST, self._detail)
                    return None
            self._connect()
            if self._source is None:
                return None
        try:
            frame = self._source.read()
        except Exception as exc:
            if not _is_device_failure(exc):
                raise
            self._drop(exc)
            return None
        if frame is None:
            self._set_status(ENDED, f"{self.name} has no more frames")
            return None
        out = Frame(frame.image, self._count, self._t_base + frame.t, frame.truth, frame.origin)
        self._count += 1
        return out

    def close(self) -> None:
        self._stop.set()
        src, self._source = self._source, None
        if src is not None:
            try:
                src.close()
            except Exception as exc:
                if not _is_device_failure(exc):
                    raise
        self._set_status(CLOSED, "closed")
