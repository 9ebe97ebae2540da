"""The camera view for the dashboard: encoded once per frame, shared by every viewer.

Frames arrive from the referee loop at the camera's rate; the feed keeps at most ``fps`` frames
a second, scales them to about ``width`` pixels wide, draws what the reader found over them
when asked, and encodes one JPEG. Every viewer (MJPEG streams and snapshot requests) gets the
same bytes, so ten viewers cost the same as one.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class JpegFrame:
    seq: int
    jpeg: bytes
    t: float
    overlay: bool


class FrameFeed:
    def __init__(self, *, width: int = 960, fps: float = 12.0, quality: int = 75):
        self.width = width
        self.min_interval = 1.0 / fps
        self.quality = quality
        self._latest: JpegFrame | None = None
        self._cond = threading.Condition()
        self._last_push = 0.0
        self._seq = 0
        self.viewers = 0

    def push(self, image: np.ndarray, *, overlay: Callable[[np.ndarray], np.ndarray] | None = None,
             force: bool = False) -> bool:
        """Offer a frame; returns whether it was encoded (the rate limit may drop it)."""
        import cv2

        now = time.monotonic()
        if not force and now - self._last_push < self.min_interval:
            return False
        self._last_push = now
        if overlay is not None:  # drawn at full size, where the reader's geometry holds
            image = overlay(image.copy())
        h, w = image.shape[:2]
        if w > self.width:
            image = cv2.resize(image, (self.width, int(h * self.width / w)),
                               interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            return False
        with self._cond:
            self._seq += 1
            self._latest = JpegFrame(self._seq, buf.tobytes(), time.time(), overlay is not None)
            self._cond.notify_all()
        return True

    def latest(self) -> JpegFrame | None:
        with self._cond:
            return self._latest

    def wait_next(self, after_seq: int, timeout: float) -> JpegFrame | None:
        """The next frame after ``after_seq``, or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._latest is None or self._latest.seq <= after_seq:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
            return self._latest
