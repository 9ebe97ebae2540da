"""Cameras and clean shots shared by the synthetic-table tests."""

from __future__ import annotations

import math

from companion.synth.scene import Light, Shot
from companion.vision.altitude.layout import DEFAULT_LAYOUT
from companion.vision.camera import CameraModel, TablePose, View


def view(tilt: float = 0.0, *, target: tuple[float, float] | None = None, height: float = 650.0,
         hfov: float = 70.0, dist=(0.0, 0.0, 0.0, 0.0, 0.0), az_deg: float = 90.0) -> View:
    """A 1280×720 camera ``height`` mm above the table looking at ``target`` (the table's middle
    by default), tilted ``tilt`` degrees, the camera's up along ``az_deg``."""
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), dist, source="synthetic")
    tw, td = DEFAULT_LAYOUT.table_mm
    tx, ty = target if target is not None else (tw / 2, td / 2)
    a = math.radians(az_deg)
    back = height * math.tan(math.radians(tilt))
    eye = (tx - math.cos(a) * back, ty - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (tx, ty, 0.0), (math.cos(a), math.sin(a), 0.0)))


def clean_shot(v: View, *, seed: int = 3) -> Shot:
    """No noise, no blur, no JPEG: what is drawn is exactly what the geometry says."""
    return Shot(view=v, light=Light(40.0, 70.0, (0.7, 0.7, 0.7), (0.3, 0.3, 0.3)), table="laminate",
                noise=0.0, blur=0.0, jpeg=None, seed=seed)
