"""`companion calibrate ...` end to end on pictures rendered with known truth."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import camera_view, charuco_views, paste_image, render, table_with_markers

from calibration.boards import COLOUR_SHEET, TableLayout
from calibration.store import load_calibration, load_colours
from calibration.targets import colour_sheet
from companion.cli import main
from companion.synth.card_faces import HLC_CARDS, hlc_face
from companion.vision.cards import CardLibrary
from companion.vision.camera import CameraModel
from companion.vision.colours import NOMINAL_REFLECTANCE

SAMPLES = Path("/usr/share/doc/opencv-doc/examples/data")
LAYOUT = TableLayout.rectangle(600, 600)
SHEET_AT = (330.0, 330.0, -20.0)      # where the colour sheet lies: centre x, y (mm), turn (deg)
ZONE = "240,90,360,220"


@pytest.fixture
def data(data_dir: Path, monkeypatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data_dir))
    return data_dir


def run_cli(*argv: str) -> int:
    return main(["calibrate", *argv])


def test_help_does_not_load_opencv():
    code = ("import sys, argparse\nimport companion.cli.cmd_calibrate as c\n"
            "p = argparse.ArgumentParser(); c.register(p)\n"
            "assert 'cv2' not in sys.modules, 'cv2 imported for --help'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for step in ("targets", "camera", "table", "colours", "cards"):
        with pytest.raises(SystemExit) as exit_:
            main(["calibrate", step, "--help"])
        assert exit_.value.code == 0


def test_targets(tmp_path: Path, capsys):
    assert run_cli("targets", "--out", str(tmp_path), "--dpi", "100", "--sheet", "table-markers") == 0
    assert (tmp_path / "table-markers.png").exists() and (tmp_path / "table-markers.pdf").exists()
    assert "100 %" in capsys.readouterr().out


def test_camera_from_the_sample_photographs(data: Path, capsys):
    if not (SAMPLES / "left01.jpg").exists():
        pytest.fail("OpenCV's sample photographs are missing: run `apt-get install opencv-doc`")
    files = [str(p) for p in sorted(SAMPLES.glob("left[0-9][0-9].jpg"))]
    assert run_cli("camera", "--chessboard", "9x6", "--square", "25", *files) == 0
    out = capsys.readouterr().out
    assert "RMS reprojection error" in out and "saved" in out
    cal = load_calibration()
    assert cal.camera.source == "chessboard" and cal.camera.rms < 0.5


def test_camera_from_a_live_source(data: Path, tmp_path: Path, capsys):
    """A video stands in for the webcam: the board is moved about; near-repeated views are not
    kept, and the progress bar counts the ones that are."""
    truth = CameraModel(800.0, 800.0, 640.0, 360.0, (1280, 720), (-0.1, 0.0, 0.0, 0.0, 0.0))
    views = charuco_views(truth, 9)
    video = tmp_path / "waving.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (1280, 720))
    for image in views:
        for _ in range(3):          # the board held still a moment: the repeats are not new views
            writer.write(image)
    writer.release()
    assert run_cli("camera", "--charuco", "--source", str(video), "--views", "6") == 0
    captured = capsys.readouterr()
    assert "6/6" in captured.err and "6 views" in captured.out
    cal = load_calibration()
    assert cal.camera.source == "charuco" and cal.camera.fx == pytest.approx(800.0, rel=0.02)


def test_camera_argument_errors(data: Path, tmp_path: Path, capsys):
    assert run_cli("camera", "--chessboard", "9x6", "nothing.jpg") == 1
    assert "--square" in capsys.readouterr().err
    assert run_cli("camera", "--chessboard", "nine", "--square", "25", "x.jpg") == 1
    (tmp_path / "notes.txt").write_text("no pictures here")
    assert run_cli("camera", "--charuco", str(tmp_path)) == 2
    assert "no images in folder" in capsys.readouterr().err
    assert not (data / "calibration.json").exists()


def table_scene(tmp_path: Path, name: str = "table.png", extra=None, light=(1.0, 1.0, 1.0)) -> Path:
    tex = table_with_markers(LAYOUT, seed=5)
    if extra:
        extra(tex)
    view = camera_view(30, target=(300.0, 300.0), distance_mm=1050.0)
    path = tmp_path / name
    cv2.imwrite(str(path), render(tex, view, blur=0.6, noise=2.0, light=light, supersample=1))
    return path


def test_table_then_cards(data: Path, tmp_path: Path, capsys):
    scene = table_scene(tmp_path)
    check = tmp_path / "check.png"
    assert run_cli("table", "--image", str(scene), "--table", "600x600", "--check", str(check)) == 0
    out = capsys.readouterr().out
    assert "table markers seen: 0, 1, 2, 3" in out and "lens estimated from the markers" in out
    cal = load_calibration()
    assert cal.layout.measured and cal.pose is not None and cal.camera.source == "markers"
    assert math.dist(cal.layout.marker(2).centre, (600.0, 600.0)) < 4.0
    assert cv2.imread(str(check)) is not None

    frames = tmp_path / "cards"
    frames.mkdir()
    for k, name in enumerate(HLC_CARDS):
        def lay_card(tex, n=name, k=k):
            paste_image(tex, hlc_face(n, 368), (300 + k, 155 - k), (59, 92), 3 * k)

        table_scene(frames, f"{name}.png", extra=lay_card)
    assert run_cli("cards", "--game", "haut-les-cubes", "--from-dir", str(frames), "--zone", ZONE) == 0
    assert "enrolled 6 cards" in capsys.readouterr().out
    lib = CardLibrary.load(data / "cards-haut-les-cubes.npz")
    assert lib.names == tuple(HLC_CARDS)
    assert lib.recognise(hlc_face("hopla", 184))[0] == "hopla"


def test_table_with_no_marker_in_view_says_what_to_show(data: Path, tmp_path: Path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 120, np.uint8))
    assert run_cli("table", "--image", str(blank)) == 1
    err = capsys.readouterr().err
    assert "no table marker seen" in err and "ids 0-3" in err and "calibrate targets" in err
    assert not (data / "calibration.json").exists()
    assert run_cli("table", "--image", str(tmp_path / "missing.png")) == 2


def sheet_with_pieces(tex, names, skip=()):
    """The colour sheet lying on the table with a round flat piece of each colour on its spot."""
    page = colour_sheet(4.0).page
    cx, cy, yaw = SHEET_AT
    paste_image(tex, page.image, (cx, cy), page.size_mm, yaw)
    a = math.radians(yaw)
    off_x, off_y = (page.size_mm[0] - COLOUR_SHEET.width_mm) / 2, (page.size_mm[1] - COLOUR_SHEET.height_mm) / 2
    for k, ((sx, sy), name) in enumerate(zip(COLOUR_SHEET.spots(), names), start=1):
        if k in skip:
            continue
        u = off_x + sx - page.size_mm[0] / 2           # sheet → page → table
        v = page.size_mm[1] / 2 - (off_y + COLOUR_SHEET.height_mm - sy)
        x, y = cx + u * math.cos(a) - v * math.sin(a), cy + u * math.sin(a) + v * math.cos(a)
        colour = np.array(NOMINAL_REFLECTANCE[name]) * 235
        disc = np.zeros((80, 80, 3), np.uint8)
        disc[:] = (150, 150, 150)
        cv2.circle(disc, (40, 40), 26, tuple(int(c) for c in colour), -1, cv2.LINE_AA)
        paste_image(tex, disc, (x, y), (30.0, 30.0), 0.0)


def test_colours_learned_under_a_warm_light(data: Path, tmp_path: Path, capsys):
    names = ["red", "yellow", "green", "blue", "black"]
    scene = table_scene(tmp_path, extra=lambda tex: sheet_with_pieces(tex, names), light=(0.6, 0.85, 1.2))
    assert run_cli("colours", "--game", "gleebs-and-grues", "--image", str(scene)) == 0
    out = capsys.readouterr().out
    assert "spot 3: green" in out and "saved" in out
    model = load_colours("gleebs-and-grues", data / "calibration.json")
    assert model.names == tuple(names) and model.source == "learned"
    # the white it learned is the paper under that light: blue channel lowest, red highest
    assert model.white[0] < model.white[1] < model.white[2]


def test_colours_with_an_empty_spot_saves_nothing(data: Path, tmp_path: Path, capsys):
    names = ["red", "yellow", "green", "blue", "black"]
    scene = table_scene(tmp_path, extra=lambda tex: sheet_with_pieces(tex, names, skip={3}))
    assert run_cli("colours", "--game", "gleebs-and-grues", "--image", str(scene)) == 1
    assert "nothing seen on spot 3: put a green piece on it" in capsys.readouterr().err
    assert not (data / "colours.json").exists()
    plain = table_scene(tmp_path, "plain.png")
    assert run_cli("colours", "--game", "gleebs-and-grues", "--image", str(plain)) == 1
    assert "colour sheet is not in view" in capsys.readouterr().err


def test_a_damaged_calibration_file_is_reported_not_replaced(data: Path, tmp_path: Path, capsys):
    (data / "calibration.json").write_text("{ broken")
    scene = table_scene(tmp_path)
    assert run_cli("table", "--image", str(scene)) == 2
    assert "not a readable calibration file" in capsys.readouterr().err
    assert (data / "calibration.json").read_text() == "{ broken"
