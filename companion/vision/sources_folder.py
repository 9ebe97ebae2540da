"""A folder of images (or one image) as a frame source.

Frames come in natural order (``shot2.jpg`` before ``shot10.jpg``). A file that is not an
image, or an image that cannot be decoded completely (a JPEG cut short by a full card or a
copy interrupted), is skipped with a warning and listed in :attr:`FolderSource.skipped`: one bad
file never stops a replay. A truncated JPEG is caught even where the decoder would return a
half-grey picture, because a half-grey picture read as a position is worse than no picture.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import cv2
import numpy as np

from companion.errors import BadInput
from companion.vision.frames import Frame, FrameSource, SourceError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm", ".pnm")


def natural_key(path: Path) -> list[object]:
    """Sort key that orders embedded numbers by value."""
    return [int(tok) if tok.isdigit() else tok.lower() for tok in re.split(r"(\d+)", path.name)]


def jpeg_is_complete(data: bytes) -> bool:
    """True when a JPEG ends its image data properly: the last end-of-image marker comes after
    the last start-of-scan marker (inside entropy-coded data 0xFF is always escaped, so the
    marker cannot occur there by chance)."""
    if not data.startswith(b"\xff\xd8"):
        return False
    return data.rfind(b"\xff\xd9") > data.rfind(b"\xff\xda") > 0


def decode_image(path: Path) -> np.ndarray:
    """Read one image file as BGR uint8, or raise :class:`BadInput` saying why not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadInput(f"{path} cannot be read ({exc.strerror or exc})") from None
    if not data:
        raise BadInput(f"{path} is empty")
    if path.suffix.lower() in (".jpg", ".jpeg") or data.startswith(b"\xff\xd8"):
        if not jpeg_is_complete(data):
            raise BadInput(f"{path} is a truncated or damaged JPEG")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise BadInput(f"{path} is not an image OpenCV can decode")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1.0, float(image.max())))
    return image


class FolderSource(FrameSource):
    """The images of a folder in natural order, or a single image file."""

    def __init__(self, path: str | Path, *, fps: float | None = None):
        path = Path(path).expanduser()
        self.skipped: list[tuple[Path, str]] = []
        if path.is_dir():
            entries = sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")),
                             key=natural_key)
            self._files = [p for p in entries if p.suffix.lower() in IMAGE_SUFFIXES]
            for other in entries:
                if other.suffix.lower() not in IMAGE_SUFFIXES:
                    self._skip(other, "not an image file")
            if not self._files:
                raise BadInput(f"no images in folder {path}",
                               hint=f"it should hold {', '.join(IMAGE_SUFFIXES[:3])} ... files")
            self.name = f"{path.name or path}/"
        elif path.is_file():
            self._files = [path]
            self.name = path.name
        else:
            raise BadInput(f"no such file or folder: {path}")
        if fps is not None and not fps > 0:
            raise BadInput(f"a frame rate is positive, got {fps}")
        self._fps = fps
        self._pos = 0
        self._index = 0
        self._closed = False

    def _skip(self, path: Path, why: str) -> None:
        self.skipped.append((path, why))
        log.warning("skipping %s: %s", path, why)

    @property
    def fps(self) -> float | None:
        return self._fps

    def __len__(self) -> int:
        return len(self._files)

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        while self._pos < len(self._files):
            path = self._files[self._pos]
            self._pos += 1
            try:
                image = decode_image(path)
            except BadInput as exc:
                self._skip(path, exc.message)
                continue
            t = self._index / self._fps if self._fps else float(self._index)
            frame = Frame(image, self._index, t, origin=str(path))
            self._index += 1
            return frame
        return None

    def close(self) -> None:
        self._closed = True
