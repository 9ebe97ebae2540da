"""Lens calibration: OpenCV's real sample photographs, rendered ChArUco views, bad inputs."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import TableTexture, render

from calibration.boards import CHARUCO, ChessboardSpec
from calibration.intrinsics import ViewCollector, calibrate_images
from companion.errors import BadInput, UserError
from companion.vision.camera import CameraModel, TablePose, View

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
    calibrate_images(left_series()[:4], ChessboardSpec(9, 6, 25.0), progress=lambda k, n, what: seen.append((k, n)))
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


class BoardTexture(TableTexture):
    """The ChArUco board as OpenCV lays out its corners: x along the image, y down it."""

    def pixel_of(self, x_mm, y_mm):
        return (x_mm - self.x0) * self.ppm, (y_mm - self.y1) * self.ppm


def charuco_views(camera: CameraModel, n: int = 9) -> list[np.ndarray]:
    ppm = 5.0
    margin = 15.0
    w, h = CHARUCO.width_mm + 2 * margin, CHARUCO.height_mm + 2 * margin
    art = CHARUCO.board().generateImage((int(CHARUCO.width_mm * ppm), int(CHARUCO.height_mm * ppm)), marginSize=0)
    paper = np.full((int(h * ppm), int(w * ppm)), 255, np.uint8)
    paper[int(margin * ppm):int(margin * ppm) + art.shape[0], int(margin * ppm):int(margin * ppm) + art.shape[1]] = art
    tex = BoardTexture(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR), -margin, -margin, ppm)
    centre = np.array([CHARUCO.width_mm / 2, CHARUCO.height_mm / 2, 0.0])
    rng = np.random.default_rng(11)
    images = []
    for k in range(n):
        # the board held in front of the camera at varied angles, distances and image positions
        tilt, heading = math.radians(rng.uniform(15, 40)), 2 * math.pi * k / n
        dist = rng.uniform(320, 450)
        eye = centre + dist * np.array([math.sin(tilt) * math.cos(heading), math.sin(tilt) * math.sin(heading),
                                        -math.cos(tilt)])
        aim = centre + np.array([rng.uniform(-60, 60), rng.uniform(-40, 40), 0.0])
        pose = TablePose.look_at(tuple(eye), tuple(aim), up_hint=(0.0, -1.0, 0.0))
        images.append(render(tex, View(camera, pose), blur=0.5, noise=1.5, seed=k))
    return images


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
