"""The paper round the markers (the white reference) is read on the part of the frame round
them: the same pixels, in the same order, as rings drawn on a mask the size of the frame,
markers partly or wholly off the frame included."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.markers import Detection, quiet_zone_pixels


def _frame_size_mask(image, detections, inner=1.12, outer=1.3):
    mask = np.zeros(image.shape[:2], np.uint8)
    for det in detections:
        c = det.centre
        cv2.fillConvexPoly(mask, (c + (det.corners - c) * outer).astype(np.int32), 255)
        cv2.fillConvexPoly(mask, (c + (det.corners - c) * inner).astype(np.int32), 0)
    return image[mask > 0].reshape(-1, 3)


def _marker(rng, centre, side):
    a = rng.uniform(0, np.pi / 2)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * side / 2
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return Detection(int(rng.integers(0, 50)), (square @ rot.T + centre).astype(np.float32))


def test_the_quiet_zone_is_the_same_pixels_as_with_a_frame_size_mask():
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    for _ in range(40):
        n = int(rng.integers(1, 5))
        # centres anywhere from well inside to beyond the frame's edges
        dets = [_marker(rng, rng.uniform([-60, -60], [1340, 780]), rng.uniform(20, 90)) for _ in range(n)]
        got = quiet_zone_pixels(image, dets)
        want = _frame_size_mask(image, dets)
        assert got.shape == want.shape and np.array_equal(got, want)
    assert quiet_zone_pixels(image, []).shape == (0, 3)
