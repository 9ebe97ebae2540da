"""Lens calibration: OpenCV's real sample photographs, rendered ChArUco views, bad inputs."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import charuco_views

from calibration.boards import CHARUCO, ChessboardSpec
from calibration.intrinsics import ViewCollector, calibrate_images
from companion.errors import BadInput, UserError
from companion.vision.camera import CameraModel

SAMPLES = Path("/usr/share/doc/opencv-doc/examples/data")


def left_series() -> list[Path]:
    files = sorted(SAMPLES.glob("left[0-9][0-9].jpg"))
    if len(files) < 10:
        pytest.fail(f"OpenCV's sample chessboard photographs are missing from {SAMPLES}: "
                    "run `apt-get install opencv-doc`")
    return files


def test_real_photographs_calibrate_under_half_a_pixel():
    result = calibrate_images(left_series(), ChessboardSpec(9, 6, 25.0))
    assert result.used == len(left_series())
    assert result.rms < 0.5
    cam = result.camera
    assert cam.source == "chessboard" and cam.size == (640, 480) and cam.rms == pytest.approx(result.rms)
    assert 500 < cam.fx < 560 and abs(cam.fx - cam.fy) < 5       # a 640×480 camera of ~62° fov
    assert all(v.error_px is not None and v.error_px < 0.6 for v in result.views)


def test_progress_is_reported_per_image():
    seen = []
    calibrate_images(left_series()[:4], ChessboardSpec(9, 6, 25.0),
                     progress=lambda k, n, what: seen.append((k, n)))
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_charuco_views_recover_the_lens():
    truth = CameraModel(820.0, 820.0, 652.0, 351.0, (1280, 720), (-0.12, 0.05, 0.0, 0.0, 0.0))
    collector = ViewCollector(CHARUCO)
    for k, image in enumerate(charuco_views(truth)):
        collector.add(image, f"view{k}")
    assert collector.count >= 7
    result = collector.calibrate()
    cam = result.camera
    assert cam.source == "charuco" and result.rms < 0.5
    assert cam.fx == pytest.approx(truth.fx, rel=0.01) and cam.fy == pytest.approx(truth.fy, rel=0.01)
    assert cam.cx == pytest.approx(truth.cx, abs=8) and cam.cy == pytest.approx(truth.cy, abs=8)
    assert cam.dist[0] == pytest.approx(truth.dist[0], abs=0.03)


def test_too_few_views_say_what_to_do(tmp_path: Path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    files = left_series()[:2] + [blank]
    with pytest.raises(UserError, match=r"found in only 2 of 3 images.*at least 3") as err:
        calibrate_images(files, ChessboardSpec(9, 6, 25.0))
    assert "different angles" in str(err.value)


def test_unreadable_and_odd_sized_images_are_reported_not_fatal(tmp_path: Path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(left_series()[0].read_bytes()[:5000])
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(left_series()[0])), (320, 240)))
    result = calibrate_images(left_series()[:5] + [broken, small], ChessboardSpec(9, 6, 25.0))
    notes = {v.name: v.note for v in result.views}
    assert "truncated" in notes["broken.jpg"]
    assert "320×240" in notes["small.png"]
    assert result.used == 5


def test_no_images_at_all():
    with pytest.raises(BadInput, match="no images given"):
        calibrate_images([], ChessboardSpec())
    with pytest.raises(BadInput, match="no such image"):
        from calibration.intrinsics import read_image

        read_image("/nonexistent/left01.jpg")
