"""Frame sources behind one interface.

Everything that produces images (a webcam by index, a stream URL, a video file, a folder of
images, the synthetic table) is a :class:`FrameSource`. The referee loop only ever calls
``read()``; a source that fails is wrapped by a resilient reader that retries with backoff and
reports its status rather than crashing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Frame:
    """One image and where it came from. ``truth`` carries exact ground truth when the source
    knows it (the synthetic table), for tests and benchmarks; readers never look at it."""

    image: np.ndarray  # BGR, uint8, H×W×3
    index: int
    t: float  # seconds since the source started
    truth: dict[str, Any] | None = field(default=None, repr=False)


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
