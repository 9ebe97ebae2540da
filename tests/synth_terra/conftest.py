"""Shared fixtures of the Terra Turrium synthetic table's tests: one clean camera and light."""

from __future__ import annotations

import math

import pytest

from companion.synth.scene import Light, Shot
from companion.synth.terra.scene import TerraScene
from companion.vision.camera import CameraModel, TablePose, View

BOARD_ORIGIN = (165.0, 160.0)


def view_of(scene: TerraScene, tilt: float, az_deg: float = 60.0, height: float = 700.0,
            dist=(0.0, 0.0, 0.0, 0.0, 0.0)) -> View:
    """A camera ``height`` mm above the board's centre, tilted ``tilt`` degrees, looking from
    the azimuth ``az_deg``."""
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(66) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), dist, source="synthetic")
    cx, cy = scene.board_centre()
    a = math.radians(az_deg)
    back = height * math.tan(math.radians(tilt))
    eye = (cx - math.cos(a) * back, cy - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (cx, cy, 0.0), (math.cos(a), math.sin(a), 0.0)))


def clean_shot(view: View, seed: int = 3) -> Shot:
    return Shot(view=view, light=Light(40.0, 65.0, (0.75, 0.75, 0.75), (0.32, 0.32, 0.32)),
                table="laminate", noise=0.0, blur=0.0, jpeg=None, seed=seed)


def flat(height: int = 1) -> tuple[int, ...]:
    return tuple([height] * 100)


@pytest.fixture
def board_scene() -> TerraScene:
    return TerraScene(flat(0), (), BOARD_ORIGIN, 12.0, "natural", 5)
