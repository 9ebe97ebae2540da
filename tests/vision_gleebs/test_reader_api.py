"""The reader as the rest of the program uses it: looked up by game name with a calibration,
refusing what is not a picture, saying when it cannot see the board, and drawing its reading."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.store import Calibration, save_calibration, save_colours
from companion.errors import BadInput
from companion.observation import Observation
from companion.synth.gleebs.calibration_shot import learn_colours
from companion.synth.gleebs.render import render
from companion.synth.gleebs.scene import BoardPlacement, GleebsScene, Pyramid, Stack
from companion.synth.scene import Light, Shot
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.gleebs.board import BoardLocator
from companion.vision.gleebs.reader import GleebsReader, annotate, make_reader
from companion.vision.readers import make_reader as reader_for_game

BOARD = BoardPlacement.centred((300.0, 300.0), -30.0)


def _shot(tilt: float = 20.0, seed: int = 5) -> Shot:
    w, h = 1280, 720
    f = (w / 2) / np.tan(np.radians(33.0))
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), (-0.15, 0.04, 0.0, 0.0, 0.0), source="synthetic")
    c = BOARD.to_table(np.array([[90.0, 90.0]]))[0]
    back = 700.0 * np.tan(np.radians(tilt))
    pose = TablePose.look_at((c[0] - back, c[1], 700.0), (c[0], c[1], 0.0), (1.0, 0.0, 0.0))
    return Shot(view=View(cam, pose), light=Light(30.0, 60.0, (0.8, 0.78, 0.75), (0.33, 0.33, 0.33)),
                table="wood", noise=2.0, blur=0.6, jpeg=90, seed=seed)


SCENE = GleebsScene(board=BOARD, stacks=(
    Stack((0, 0), (Pyramid("red", "large"), Pyramid("green", "small")), (1.0, -2.0), (3.0, 25.0)),
    Stack((2, 1), (Pyramid("black", "medium"),), (0.0, 1.5), (-4.0,)),
    Stack((3, 3), (Pyramid("yellow", "small"),)),
))


@pytest.fixture(scope="module")
def shot_and_colours():
    shot = _shot()
    return shot, learn_colours(BOARD, shot)


def _keys(obs: Observation):
    return sorted((tuple(p.cell), p.level, p.get("colour"), p.get("size")) for p in obs.pieces)


def test_the_board_pose_is_found_to_a_fraction_of_a_pixel(shot_and_colours):
    shot, _ = shot_and_colours
    image = render(SCENE, shot).image
    board = BoardLocator(shot.view.camera).locate(image)
    assert board is not None and board.markers == (4, 5, 6, 7)
    pts = np.array([[0, 0, 0], [180, 0, 0], [180, 180, 0], [90, 90, 45]], float)
    table = np.column_stack([BOARD.to_table(pts[:, :2]), pts[:, 2]])
    assert np.max(np.linalg.norm(shot.view.project(table) - board.view.project(pts), axis=1)) < 0.5


def test_a_reading_is_the_position(shot_and_colours):
    shot, colours = shot_and_colours
    out = render(SCENE, shot)
    seen = GleebsReader(shot.view.camera, colours).read(out.image)
    assert _keys(seen) == _keys(out.truth.observation) == [
        ((0, 0), 0, "red", "large"), ((0, 0), 1, "green", "small"), ((2, 1), 0, "black", "medium"),
        ((3, 3), 0, "yellow", "small")]
    assert not seen.hand


def test_the_reader_is_found_by_game_name_with_the_calibration_and_its_colours(tmp_path, shot_and_colours):
    shot, colours = shot_and_colours
    path = save_calibration(Calibration(camera=shot.view.camera), tmp_path / "calibration.json")
    save_colours("gleebs-and-grues", colours, path)
    from calibration.store import load_calibration

    reader = reader_for_game("gleebs-and-grues", calibration=load_calibration(path))
    assert isinstance(reader, GleebsReader)
    assert reader.colours.source == "learned" and reader.locator.camera == shot.view.camera
    seen = reader.read(render(SCENE, replace(shot, seed=9)).image)
    assert len(seen.pieces) == 4
    # without any calibration: nominal colours, the lens estimated from the board's markers
    bare = make_reader()
    assert bare.colours.source == "nominal" and bare.locator.camera is None


def test_without_the_board_in_view_there_is_no_reading(shot_and_colours):
    shot, colours = shot_and_colours
    image = render(replace(SCENE, show_board=False, stacks=()), shot).image
    assert GleebsReader(shot.view.camera, colours).read(image) is None


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100), np.uint8), None])
def test_what_is_not_a_picture_is_refused_with_a_message(bad):
    with pytest.raises(BadInput, match="not a colour picture"):
        GleebsReader().read(bad)


def test_annotate_draws_the_reading_and_warns_of_a_hand(shot_and_colours):
    shot, colours = shot_and_colours
    image = render(SCENE, shot).image
    seen = GleebsReader(shot.view.camera, colours).read(image)
    drawn = annotate(image, seen)
    assert drawn.shape == image.shape and drawn.dtype == np.uint8
    changed = np.any(drawn != image, axis=2)
    assert changed.sum() > 2000, "the squares and the readings are drawn"
    hand = annotate(image, Observation("gleebs-and-grues", hand=True, board=seen.board))
    assert np.any(hand[:, :, 2] > hand[:, :, 1] + 100), "a red warning is written"
    assert np.array_equal(image, render(SCENE, shot).image), "the frame itself is left as it was"


def test_companion_detect_prints_the_reading_and_draws_it(tmp_path, shot_and_colours, capsys):
    import cv2

    from companion.cli import main

    shot, colours = shot_and_colours
    path = save_calibration(Calibration(camera=shot.view.camera), tmp_path / "calibration.json")
    save_colours("gleebs-and-grues", colours, path)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), render(SCENE, shot).image)
    drawn = tmp_path / "drawn.png"
    assert main(["detect", str(image), "--game", "gleebs-and-grues", "--calibration", str(path),
                 "--annotate", str(drawn)]) == 0
    printed = Observation.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert _keys(printed) == _keys(render(SCENE, shot).truth.observation)
    assert cv2.imread(str(drawn)).shape == (720, 1280, 3)
    # a picture without the board: a message saying what to do, no reading
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render(replace(SCENE, show_board=False, stacks=()), shot).image)
    assert main(["detect", str(empty), "--game", "gleebs-and-grues", "--calibration", str(path)]) != 0
    assert "markers 4-7" in capsys.readouterr().err
