"""The calibration file: round trips, defaults, and damaged files refused without losing them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.boards import TableLayout
from calibration.store import (Calibration, default_path, load_calibration, load_colours,
                               save_calibration, save_colours, update_calibration)
from companion.errors import BadInput
from companion.vision.camera import CameraModel, TablePose
from companion.vision.colours import ColourModel

CAMERA = CameraModel(1000.0, 1001.0, 960.0, 540.0, (1920, 1080), (-0.1, 0.02, 0.0, 0.0, 0.0), 0.31, "charuco")
POSE = TablePose((3.1, 0.05, 0.01), (-300.0, 280.0, 900.0))


@pytest.fixture(autouse=True)
def isolated_data_dir(data_dir: Path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data_dir))
    return data_dir


def test_round_trip_and_the_three_part_unpacking(data_dir: Path):
    layout = TableLayout.rectangle(550, 650)
    path = save_calibration(Calibration(CAMERA, POSE, layout, {"note": "kitchen table"}, {"reprojection_px": 0.3}))
    assert path == data_dir / "calibration.json"
    cal = load_calibration()
    assert cal.camera == CAMERA and cal.pose == POSE and cal.layout == layout
    assert cal.table == {"reprojection_px": 0.3} and cal.extra == {"note": "kitchen table"}
    camera, pose, extra = cal
    assert camera == CAMERA and pose == POSE and extra["note"] == "kitchen table"
    assert cal.view is not None and cal.view.camera == CAMERA


def test_the_lens_follows_the_resolution_but_not_the_aspect():
    cal = Calibration(CAMERA)
    assert cal.camera_for((1280, 720)).fx == pytest.approx(1000.0 * 1280 / 1920)
    assert cal.camera_for((1920, 1080)) is CAMERA
    assert cal.camera_for((640, 480)) is None


def test_nothing_calibrated_yet_is_not_an_error():
    cal = load_calibration()
    assert cal.camera is None and cal.pose is None and cal.layout is None
    assert tuple(cal) == (None, None, {})


@pytest.mark.parametrize("content,match", [
    ("{ not json", "not a readable calibration file"),
    ('{"format": "something-else"}', "not a companion calibration file"),
    ('{"format": "companion-calibration", "version": 99}', "version 99"),
    ('{"format": "companion-calibration", "version": 1, "camera": {"fx": "wide"}}', "not a camera model"),
    ('{"format": "companion-calibration", "version": 1, "table": {"layout": {"markers": []}}}',
     "each of its markers"),
])
def test_damaged_files_are_refused_with_a_hint(tmp_path: Path, content, match):
    path = tmp_path / "cal.json"
    path.write_text(content)
    with pytest.raises(BadInput, match=match) as err:
        load_calibration(path)
    assert err.value.hint and "calibrate" in err.value.hint


def test_a_named_file_that_does_not_exist(tmp_path: Path):
    with pytest.raises(BadInput, match="no calibration file") as err:
        load_calibration(tmp_path / "nope.json")
    assert "companion calibrate camera" in err.value.hint


def test_updating_keeps_what_it_does_not_change_and_never_overwrites_a_damaged_file(data_dir: Path):
    update_calibration(camera=CAMERA)
    update_calibration(pose=POSE, layout=TableLayout.rectangle(500, 500), table={"markers": [0, 1, 2, 3]})
    cal = load_calibration()
    assert cal.camera == CAMERA and cal.pose == POSE and cal.layout.marker(2).centre == (500.0, 500.0)
    # a new lens invalidates the pose seen through the old one, not where the markers are
    other = CameraModel(900.0, 900.0, 960.0, 540.0, (1920, 1080), rms=0.4, source="chessboard")
    cal = update_calibration(camera=other)
    assert cal.camera == other and cal.pose is None and cal.layout is not None
    # damaged: refused, and the file is left exactly as it was
    default_path().write_text("{ half a fi")
    with pytest.raises(BadInput):
        update_calibration(camera=CAMERA)
    assert default_path().read_text() == "{ half a fi"


def test_colour_models_live_beside_the_calibration(tmp_path: Path):
    rng = np.random.default_rng(0)
    model = ColourModel.learn({"red": rng.normal((40, 40, 200), 5, (50, 3)),
                               "blue": rng.normal((200, 80, 30), 5, (50, 3))})
    cal_path = tmp_path / "cal" / "calibration.json"
    assert load_colours("gleebs-and-grues", cal_path) is None
    written = save_colours("gleebs-and-grues", model, cal_path)
    save_colours("terra-turrium", ColourModel.default(["red"]), cal_path)
    assert written == tmp_path / "cal" / "colours.json"
    again = load_colours("gleebs-and-grues", cal_path)
    assert again.names == model.names and np.allclose(again.means, model.means)
    assert load_colours("terra-turrium", cal_path).names == ("red",)
    assert load_colours("ville-des-nains", cal_path) is None
    data = json.loads(written.read_text())
    data["games"]["gleebs-and-grues"]["covs"] = "broken"
    written.write_text(json.dumps(data))
    with pytest.raises(BadInput, match="not a colour model"):
        load_colours("gleebs-and-grues", cal_path)
