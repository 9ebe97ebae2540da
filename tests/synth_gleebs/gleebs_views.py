"""Cameras and shots for the Gleeb's and Grues synthetic-table tests."""

from __future__ import annotations

import math

import numpy as np

from companion.synth.gleebs.scene import BoardPlacement
from companion.synth.scene import Light, Shot
from companion.vision.camera import CameraModel, TablePose, View

BOARD = BoardPlacement.centred((300.0, 300.0), 25.0)


def board_centre(board: BoardPlacement = BOARD) -> np.ndarray:
    return board.to_table(np.array([[90.0, 90.0]]))[0]


def view(tilt: float, az: float = 60.0, height: float = 650.0, hfov: float = 62.0,
         dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0), board: BoardPlacement = BOARD) -> View:
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), dist, source="synthetic")
    tx, ty = board_centre(board)
    a = math.radians(az)
    back = height * math.tan(math.radians(tilt))
    eye = (tx - math.cos(a) * back, ty - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (tx, ty, 0.0), (math.cos(a), math.sin(a), 0.0)))


def clean_shot(v: View, seed: int = 3) -> Shot:
    """No noise, no blur, no JPEG: what the renderer draws, exactly."""
    return Shot(view=v, light=Light(40.0, 65.0, (0.75, 0.75, 0.75), (0.3, 0.3, 0.3)), table="laminate",
                noise=0.0, blur=0.0, jpeg=None, seed=seed)
