"""Sources read through OpenCV's capture: a webcam by index, a network stream, a video file.

The three differ in what a failed read means. A video file that stops delivering has ended
(``read`` returns None). A webcam or a stream that stops delivering has *failed*: it raises
:class:`SourceError` so that :class:`~companion.vision.frames.ResilientSource` can report it and
reconnect. Network streams are opened with time limits, so a dead phone or camera never hangs
the program.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from companion.errors import BadInput
from companion.vision.frames import Frame, FrameSource, SourceError

#: How long opening or reading a network stream may take before it counts as down.
STREAM_TIMEOUT_MS = 5000


def _to_bgr(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


class _CaptureSource(FrameSource):
    """A cv2.VideoCapture and what a failed read means for it."""

    live = True

    def __init__(self, cap: "cv2.VideoCapture", name: str):
        self._cap = cap
        self.name = name
        self._index = 0
        self._t0 = time.monotonic()
        self._closed = False
        value = float(cap.get(cv2.CAP_PROP_FPS))
        self._fps = value if 0.5 < value < 1000 else None

    @property
    def fps(self) -> float | None:
        return self._fps

    def _timestamp(self) -> float:
        return time.monotonic() - self._t0

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        ok, image = self._cap.read()
        if not ok or image is None or image.size == 0:
            if self.live:
                raise SourceError(f"{self.name} stopped delivering frames")
            return None
        frame = Frame(_to_bgr(image), self._index, self._timestamp())
        self._index += 1
        return frame

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._cap.release()


class CameraSource(_CaptureSource):
    """A webcam by index (``/dev/video<index>`` on Linux). ``size`` asks it for a resolution
    (it may pick the nearest it supports; frames come at the size it really delivers)."""

    def __init__(self, index: int, *, size: tuple[int, int] | None = None):
        if index < 0:
            raise BadInput(f"a camera index is 0 or more, got {index}")
        cap = cv2.VideoCapture(index)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"camera {index} could not be opened: is it plugged in, and not "
                              f"used by another program?")
        if size is not None:
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, int(size[0]))
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, int(size[1]))
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued seconds ago
        super().__init__(cap, f"camera {index}")


class StreamSource(_CaptureSource):
    """A network stream: MJPEG over HTTP (phone camera apps, IP cameras) or RTSP."""

    def __init__(self, url: str, *, timeout_ms: int = STREAM_TIMEOUT_MS):
        cap = cv2.VideoCapture(url, cv2.CAP_FFMPEG, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(timeout_ms),
                                                     cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(timeout_ms)])
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"stream {url} could not be opened: check the address and that "
                              f"the camera is on the same network")
        super().__init__(cap, url)


class VideoFileSource(_CaptureSource):
    """A video file, read once from start to end; timestamps are the video's own."""

    live = False

    def __init__(self, path: str | Path):
        path = Path(path)
        if not path.is_file():
            raise BadInput(f"no such video file: {path}")
        cap = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
        if not cap.isOpened():
            cap.release()
            raise BadInput(f"{path} cannot be read as a video",
                           hint="is it a complete video file (mp4, avi, mkv)?")
        super().__init__(cap, path.name)

    def _timestamp(self) -> float:
        fps = self.fps
        return self._index / fps if fps else float(self._cap.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0
