"""Frame sources: webcam, stream, video file, folder; opened by name; bad input refused clearly."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from frame_helpers import index_of, numbered_image

from companion.errors import BadInput
from companion.vision.frames import FrameSource, SourceError, open_source, register_scheme
from companion.vision.sources_capture import CameraSource, StreamSource, VideoFileSource
from companion.vision.sources_folder import FolderSource, jpeg_is_complete


def read_all(src: FrameSource, limit: int = 1000):
    out = []
    while len(out) < limit:
        frame = src.read()
        if frame is None:
            break
        out.append(frame)
    return out


def test_video_file_plays_every_frame_in_order_then_ends(video_file: Path):
    with open_source(str(video_file)) as src:
        assert isinstance(src, VideoFileSource)
        frames = read_all(src)
        assert src.read() is None
    assert [index_of(f.image) for f in frames] == list(range(12))
    assert [f.index for f in frames] == list(range(12))
    assert src.fps == pytest.approx(10.0)
    assert [f.t for f in frames] == pytest.approx([i / 10 for i in range(12)])
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8
    with pytest.raises(SourceError):
        src.read()


def test_folder_plays_images_in_natural_order(tmp_path: Path):
    for i in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"shot{i}.png"), numbered_image(i))
    cv2.imwrite(str(tmp_path / "shot3.png"), cv2.cvtColor(numbered_image(3), cv2.COLOR_BGR2GRAY))
    src = open_source(str(tmp_path) + "/", fps=2.0)
    assert isinstance(src, FolderSource) and len(src) == 4
    frames = read_all(src)
    assert [index_of(f.image) for f in frames] == [1, 2, 3, 10]
    assert all(f.image.ndim == 3 and f.image.shape[2] == 3 for f in frames)
    assert [f.t for f in frames] == [0.0, 0.5, 1.0, 1.5]
    assert frames[0].origin.endswith("shot1.png")


def test_folder_skips_truncated_and_non_image_files_with_a_warning(tmp_path: Path, caplog):
    good = cv2.imencode(".jpg", numbered_image(1))[1].tobytes()
    (tmp_path / "a1.jpg").write_bytes(good)
    (tmp_path / "a2.jpg").write_bytes(good[: len(good) * 2 // 3])    # a copy cut short
    (tmp_path / "a3.jpg").write_text("not a picture at all")           # an image name, no image
    (tmp_path / "a4.png").write_bytes(b"")                             # empty
    (tmp_path / "notes.txt").write_text("table 3, evening game")       # not an image
    cv2.imwrite(str(tmp_path / "a5.jpg"), numbered_image(5))
    with caplog.at_level(logging.WARNING):
        src = FolderSource(tmp_path)
        frames = read_all(src)
    assert [index_of(f.image) for f in frames] == [1, 5]
    assert [f.index for f in frames] == [0, 1]
    skipped = {p.name: why for p, why in src.skipped}
    assert set(skipped) == {"a2.jpg", "a3.jpg", "a4.png", "notes.txt"}
    assert "truncated" in skipped["a2.jpg"] and "empty" in skipped["a4.png"]
    assert all(name in caplog.text for name in skipped)


def test_jpeg_completeness_check():
    data = cv2.imencode(".jpg", numbered_image(2))[1].tobytes()
    assert jpeg_is_complete(data)
    assert jpeg_is_complete(data + b"\x00" * 100)  # padding after the end is harmless
    assert not jpeg_is_complete(data[:-200])
    assert not jpeg_is_complete(b"\x89PNG....")


def test_a_single_image_is_a_one_frame_source(tmp_path: Path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), numbered_image(4))
    src = open_source(str(path))
    assert [index_of(f.image) for f in read_all(src)] == [4]


def test_mjpeg_stream_is_read_and_a_dropped_stream_is_a_failure(mjpeg_server):
    src = open_source(mjpeg_server.url)
    assert isinstance(src, StreamSource)
    frames = [src.read() for _ in range(5)]
    assert [index_of(f.image) for f in frames] == [0, 1, 2, 3, 4]
    mjpeg_server.stop()
    with pytest.raises(SourceError, match="stopped delivering"):
        read_all(src)   # the server's 40 frames run out, then the stream is gone
    src.close()


def test_sources_that_cannot_open_say_why(tmp_path: Path):
    with pytest.raises(SourceError, match="camera 97 could not be opened"):
        CameraSource(97)
    with pytest.raises(SourceError, match="could not be opened"):
        StreamSource("http://127.0.0.1:9/none.mjpg", timeout_ms=1000)
    bogus = tmp_path / "broken.mp4"
    bogus.write_bytes(b"\x00\x01garbage" * 100)
    with pytest.raises(BadInput, match="cannot be read as a video"):
        open_source(str(bogus))


@pytest.mark.parametrize("spec,match", [
    ("", "no frame source"),
    ("no/such/place.mp4", "no such file or folder"),
    ("gopher://table", "unknown frame source"),
])
def test_bad_specs_are_refused_clearly(spec, match):
    with pytest.raises(BadInput, match=match):
        open_source(spec)


def test_an_empty_folder_is_refused(tmp_path: Path):
    (tmp_path / "readme.md").write_text("nothing here")
    with pytest.raises(BadInput, match="no images in folder"):
        open_source(str(tmp_path))


def test_other_modules_can_register_a_scheme(tmp_path: Path):
    cv2.imwrite(str(tmp_path / "x.png"), numbered_image(7))
    register_scheme("replaytest", lambda spec: FolderSource(tmp_path))
    src = open_source("replaytest:anything")
    assert index_of(src.read().image) == 7
    with pytest.raises(ValueError):
        register_scheme("http", lambda spec: src)
