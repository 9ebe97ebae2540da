"""The table located from its markers in images rendered with a known View."""

from __future__ import annotations

import math

import numpy as np
import pytest
from table_scenes import (camera_view, draw_marker, projection_error_px, render,
                          table_with_markers)

from calibration.boards import GLEEBS_BOARD, MarkerPlacement, TableLayout
from calibration.markers import detect_markers, marker_white
from calibration.pose import (estimate_intrinsics_from_markers, locate_board, locate_table,
                              measured_layout)
from companion.errors import BadInput
from companion.vision.camera import CameraModel

NOMINAL = TableLayout.rectangle(600, 600)
#: The markers as a user really lays them: a few mm and degrees off the nominal rectangle.
TRUE_LAYOUT = TableLayout((MarkerPlacement(0, (0.0, 0.0)), MarkerPlacement(1, (585.0, 12.0), 3.0),
                           MarkerPlacement(2, (570.0, 640.0), -4.0), MarkerPlacement(3, (-10.0, 625.0), 2.0)))
AREA = (0.0, 0.0, 580.0, 630.0)
BOARD_AT = (160.0, 210.0, 25.0)  # board origin x, y (table mm) and its turn (deg)


@pytest.fixture(scope="module")
def texture():
    tex = table_with_markers(TRUE_LAYOUT, seed=4)
    x, y, yaw = BOARD_AT
    a = math.radians(yaw)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    for m in GLEEBS_BOARD.markers:
        c = rot @ np.array(m.centre) + np.array([x, y])
        draw_marker(tex, MarkerPlacement(m.id, (float(c[0]), float(c[1])), yaw, m.size_mm), paper_mm=52.0)
    return tex


@pytest.fixture(scope="module")
def shots(texture):
    """Straight down and 35° tilt, seen through a lens we know (with some distortion)."""
    out = {}
    for tilt in (0, 35):
        view = camera_view(tilt, target=(290.0, 310.0), dist=(-0.05, 0.01, 0.0, 0.0, 0.0))
        out[tilt] = (view, render(texture, view, blur=0.6, noise=2.0, seed=tilt))
    return out


@pytest.mark.parametrize("tilt", [0, 35])
def test_pose_from_four_markers_with_a_calibrated_lens(shots, tilt):
    view, image = shots[tilt]
    # before `calibrate table`: the markers are a few mm off the nominal rectangle
    loc = locate_table(image, view.camera, NOMINAL)
    assert loc.ok and loc.markers == (0, 1, 2, 3) and not loc.focal_estimated
    # stated tolerances, unmeasured layout: table points within 4 px, camera within 10 mm and 1°
    assert projection_error_px(loc.view, view, AREA) < 4.0
    assert projection_error_px(loc.view, view, AREA, z_mm=60.0) < 4.0
    assert np.linalg.norm(loc.view.pose.camera_position - view.pose.camera_position) < 10.0
    assert abs(loc.view.pose.tilt_deg - tilt) < 1.0
    assert loc.reprojection_px < 0.5 and loc.confidence > 0.9
    # with the layout known (as measured by `calibrate table` over many frames): 1.5 px, 5 mm, 0.5°
    measured = locate_table(image, view.camera, TableLayout(TRUE_LAYOUT.markers, measured=True))
    assert projection_error_px(measured.view, view, AREA) < 1.5
    assert projection_error_px(measured.view, view, AREA, z_mm=60.0) < 1.5
    assert np.linalg.norm(measured.view.pose.camera_position - view.pose.camera_position) < 5.0
    assert abs(measured.view.pose.tilt_deg - tilt) < 0.5


@pytest.mark.parametrize("tilt", [0, 35])
def test_one_marker_is_enough(shots, tilt):
    view, image = shots[tilt]
    only0 = [d for d in detect_markers(image, camera=view.camera) if d.id == 0]
    loc = locate_table(None, view.camera, NOMINAL, detections=only0, size=view.camera.size)
    assert loc.ok and loc.markers == (0,) and "1, 2, 3 not seen" in loc.message
    # one 40 mm marker extrapolated over a 600 mm table: within 8 px
    assert projection_error_px(loc.view, view, AREA) < 8.0
    four = locate_table(image, view.camera, NOMINAL)
    assert loc.confidence < four.confidence


def test_a_marker_seen_square_on_is_not_mistaken_for_its_mirror_pose():
    """Straight down, a small marker fits two poses; the flat one must win (IPPE alone picks a
    46° mirror pose here)."""
    from calibration.markers import Detection

    view = camera_view(0, target=(290.0, 310.0))
    corners = view.project(NOMINAL.marker(0).corners())
    loc = locate_table(None, view.camera, NOMINAL, detections=[Detection(0, corners)], size=view.camera.size)
    assert projection_error_px(loc.view, view, AREA) < 0.05


@pytest.mark.parametrize("tilt", [0, 35])
def test_calibration_measures_where_the_markers_really_lie(shots, tilt):
    view, image = shots[tilt]
    loc = locate_table(image, view.camera, NOMINAL)
    layout = measured_layout(loc.fit, NOMINAL)
    assert layout.measured
    for true in TRUE_LAYOUT.markers:
        got = layout.marker(true.id)
        # stated: within 4 mm and 0.6° from a single frame (straight down the table's tilt,
        # and so the far markers' places, rest on marker sizes alone)
        assert math.dist(got.centre, true.centre) < 4.0, (true.id, got.centre, true.centre)
        assert abs(got.yaw_deg - true.yaw_deg) < 0.6
    again = locate_table(image, view.camera, layout)
    assert again.ok and projection_error_px(again.view, view, AREA) < 4.0
    partial = measured_layout(locate_table(None, view.camera, NOMINAL, size=view.camera.size,
                                           detections=[d for d in detect_markers(image) if d.id != 2]).fit,
                              NOMINAL)
    assert not partial.measured and partial.marker(2) == NOMINAL.marker(2)


def test_intrinsics_from_markers_at_a_tilt(texture):
    """A 62° lens (the prior assumes 70°) with barrel distortion, seen at 35° tilt."""
    view = camera_view(35, hfov_deg=62.0, distance_mm=1150.0, target=(290.0, 310.0),
                       dist=(-0.06, 0.0, 0.0, 0.0, 0.0))
    image = render(texture, view, blur=0.6, noise=2.0, seed=7)
    camera, rel_sd = estimate_intrinsics_from_markers(image, NOMINAL)
    assert camera.source == "markers"
    assert camera.fx == pytest.approx(view.camera.fx, rel=0.03)        # stated: within 3 %
    assert camera.dist[0] == pytest.approx(-0.06, abs=0.03)
    assert rel_sd < 0.05
    loc = locate_table(image, None, NOMINAL)
    assert loc.ok and loc.focal_estimated and "calibrate the camera" in loc.message
    assert projection_error_px(loc.view, view, AREA) < 3.0


def test_straight_down_gives_no_focal_length_but_still_the_table(shots):
    view, image = shots[0]
    loc = locate_table(image, None, NOMINAL)
    _, rel_sd = estimate_intrinsics_from_markers(image, NOMINAL)
    assert rel_sd > 0.3                      # honest: the focal length is not determined
    assert projection_error_px(loc.view, view, AREA) < 3.0   # positions on the table are
    tilted = locate_table(shots[35][1], None, NOMINAL)
    assert loc.confidence < tilted.confidence


@pytest.mark.parametrize("tilt", [0, 35])
def test_a_board_is_located_on_the_table(shots, tilt):
    view, image = shots[tilt]
    table = locate_table(image, view.camera, NOMINAL)
    board = locate_board(image, table.view, GLEEBS_BOARD)
    assert board.ok and board.markers == (4, 5, 6, 7)
    assert math.dist(board.origin_mm, BOARD_AT[:2]) < 2.5
    assert board.yaw_deg == pytest.approx(BOARD_AT[2], abs=0.5)
    centre = board.to_table(np.array([GLEEBS_BOARD.cell_centre(3, 2)]))[0]
    a = math.radians(BOARD_AT[2])
    bx, by = GLEEBS_BOARD.cell_centre(3, 2)
    expected = (BOARD_AT[0] + bx * math.cos(a) - by * math.sin(a),
                BOARD_AT[1] + bx * math.sin(a) + by * math.cos(a))
    assert math.dist(centre, expected) < 2.5
    assert np.allclose(board.to_board(board.to_table(np.array([[10.0, 20.0]]))), [[10.0, 20.0]])


def test_the_white_of_the_markers_follows_the_light(texture):
    view = camera_view(20, target=(290.0, 310.0))
    image = render(texture, view, light=(0.6, 0.9, 1.2), noise=1.0)
    white = marker_white(image, detect_markers(image))
    paper = np.array((235, 238, 240)) * np.array((0.6, 0.9, 1.2))
    assert white is not None and np.allclose(white, np.minimum(paper, 255), rtol=0.06)


def test_no_marker_gives_a_clear_failure_not_an_exception(shots):
    rng = np.random.default_rng(0)
    for image in (np.zeros((720, 1280, 3), np.uint8), rng.integers(0, 255, (480, 640, 3), dtype=np.uint8),
                  np.full((100, 100), 200, np.uint8)):
        loc = locate_table(image)
        assert not loc.ok and loc.view is None and "ids 0-3" in loc.message
    # only a board in view: says what it saw
    view, image = shots[35]
    boards_only = [d for d in detect_markers(image) if d.id >= 4]
    loc = locate_table(None, None, NOMINAL, detections=boards_only, size=view.camera.size)
    assert not loc.ok and "saw markers 4, 5, 6, 7" in loc.message


def test_a_lens_calibrated_at_another_aspect_is_refused_clearly(shots):
    _, image = shots[0]
    loc = locate_table(image, CameraModel.nominal((640, 480)))
    assert not loc.ok and "640×480" in loc.message


def test_not_an_image_is_bad_input():
    with pytest.raises(BadInput, match="not an image"):
        locate_table(np.zeros((10, 10, 7)))
