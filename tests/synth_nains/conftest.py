"""Shared helpers of the La Ville des Nains synthetic table's tests: one clean camera and light."""

from __future__ import annotations

import math

from companion.synth.scene import Light, Shot
from companion.vision.camera import CameraModel, TablePose, View


def view_at(tilt: float, az_deg: float = 90.0, height: float = 720.0, hfov: float = 70.0,
            target: tuple[float, float] = (300.0, 240.0)) -> View:
    """A camera ``height`` mm above the table, tilted ``tilt`` degrees, looking along the
    azimuth ``az_deg`` (90: from the near edge across the table) at ``target``."""
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), source="synthetic")
    a = math.radians(az_deg)
    back = height * math.tan(math.radians(tilt))
    eye = (target[0] - math.cos(a) * back, target[1] - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (target[0], target[1], 0.0), (math.cos(a), math.sin(a), 0.0)))


def clean_shot(view: View, seed: int = 3) -> Shot:
    return Shot(view=view, light=Light(40.0, 65.0, (0.75, 0.75, 0.75), (0.32, 0.32, 0.32)),
                table="laminate", noise=1.0, blur=0.5, jpeg=None, seed=seed)
