"""The table's pose from its markers, as the reader finds it (``HlcReader.locate``).

An unmeasured layout's fit lets each marker but one move (80 mm of prior) to fit its corners
best; with the markers small and far off, those moves and the pose are poorly told apart, and
the corners' noise alone moved the pose 5–14 px at the mountain, the lattice found from the
cubes half a cell off with it. Markers that fit their nominal places within the corners' noise
are now held there; markers really moved keep the fit that moves them. A marker ArUco misses in
the frame (small, steep, blurred) is looked for in the frame enlarged."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.boards import MarkerPlacement, TableLayout
from calibration.markers import Detection
from calibration.pose import fit_markers, locate_table
from companion.synth.generate import corpus_item
from companion.synth.render import render
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import NOMINAL_RMS_PX, HlcReader, nominal_view, table_markers
from tests.vision_hlc.conftest import read_cold_cubes

pytestmark = pytest.mark.usefixtures("opencv_one_thread")

#: the play area's corners and the mountain's anchor on the table and 160 mm above it
_POINTS = np.array([[0, 0, 0], [540, 0, 0], [540, 380, 0], [0, 380, 0],
                    [*DEFAULT_LAYOUT.anchor_xy, 0.0], [*DEFAULT_LAYOUT.anchor_xy, 160.0]], float)


def _pose_error_px(view, truth) -> float:
    return float(np.linalg.norm(view.project(_POINTS) - truth.project(_POINTS), axis=1).max())


# corpus positions (seed 2024): 6 (21.7° tilt, dim light), its pose was 12 px off at the
# mountain and the lattice half a cell off (5 of 23 cubes right); 38 and 39 7–9 px off; 23
# (33.5°, a metre away): two of the four markers missed, the pose from the other two 10–23 px
# off, the hand band then over a marker's paper and the frame taken for an arm
@pytest.mark.parametrize("index", [6, 23, 38, 39])
def test_the_pose_from_markers_at_their_places_is_exact(index):
    scene, shot = corpus_item(2024, index)
    image = render(scene, shot).image
    view = HlcReader(camera=shot.view.camera).locate(image)
    assert _pose_error_px(view, shot.view) < 1.0


def test_a_marker_missed_in_the_frame_is_found_enlarged():
    scene, shot = corpus_item(2024, 23)
    image = render(scene, shot).image
    layout = TableLayout.rectangle(*DEFAULT_LAYOUT.play_area)
    assert len(table_markers(image, shot.view.camera, layout)) >= 3


# 6: 5 of its 23 cubes right, 17 wrong (now 19 right, 2 wrong: a tower's hidden cubes left);
# 23: taken for an arm, none read (now 19 of 21)
@pytest.mark.parametrize("index", [6, 23])
def test_positions_read_wrong_from_a_pose_off_are_read_right(index):
    cubes = read_cold_cubes(2024, index)  # asserts the frame is not taken for an arm
    assert cubes.precision >= 0.9 and cubes.recall >= 0.8, (cubes.correct, cubes.reported, cubes.found,
                                                            cubes.expected)


def _detections(layout: TableLayout, view, noise_px: float, seed: int) -> list[Detection]:
    rng = np.random.default_rng(seed)
    out = []
    for m in layout.markers:
        px = view.project(np.asarray(m.corners(), float))
        out.append(Detection(m.id, px + rng.normal(0.0, noise_px, px.shape)))
    return out


def test_markers_really_moved_keep_the_fit_that_moves_them():
    """A marker laid 25 mm off its nominal place does not fit the nominal layout: the pose is
    the one that moves it (as before), not one bent to hold it in place."""
    _, shot = corpus_item(2024, 6)
    size = tuple(shot.view.camera.size)
    nominal = TableLayout.rectangle(*DEFAULT_LAYOUT.play_area)
    real = TableLayout(tuple(MarkerPlacement(m.id, (m.centre[0] + 25.0, m.centre[1]) if m.id == 2 else m.centre,
                                             m.yaw_deg, m.size_mm) for m in nominal.markers))
    dets = _detections(real, shot.view, 0.2, 1)
    loc = locate_table(None, shot.view.camera, nominal, detections=dets, size=size)
    assert loc.ok
    held = fit_markers({d.id: d for d in dets}, size, nominal, shot.view.camera, free_layout=False)
    assert held.rms_px > NOMINAL_RMS_PX  # it does not fit there
    view = nominal_view(loc, dets, nominal, size, DEFAULT_LAYOUT.anchor_xy)
    assert view is loc.view
