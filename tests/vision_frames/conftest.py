"""Fixtures for the frame-source tests: generated videos and a local MJPEG server."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from frame_helpers import MjpegServer, numbered_image


@pytest.fixture
def video_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (160, 120))
    assert writer.isOpened(), "OpenCV cannot write MJPG video: install opencv-python-headless with FFMPEG"
    for i in range(12):
        writer.write(numbered_image(i))
    writer.release()
    return path


@pytest.fixture
def mjpeg_server():
    server = MjpegServer()
    yield server
    server.stop()
