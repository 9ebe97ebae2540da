"""The cards shown one by one to the camera, as ``companion calibrate cards --game altitude``
sees them at a real table: each card laid face up on the discard pile's spot, upright for the red
seat, photographed by the table's camera under its light; then one card face down, for the
back.

:func:`enrolment_frames` renders those frames (for ``--from-dir`` and the tests);
:func:`enrolled_library` enrols them into a :class:`~companion.vision.cards.CardLibrary`
exactly as the command does, through the camera's view of the table.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from companion.synth.altitude.deck import CardSpec
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.scene import AltitudeScene, PileCard
from companion.synth.generate import random_light
from companion.synth.scene import Shot
from companion.vision.altitude.layout import DEFAULT_LAYOUT, AltitudeLayout
from companion.vision.altitude.faces import BACK
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.cards import CardLibrary


def enrolment_shot(seed: int = 0, *, height_mm: float = 700.0, tilt_deg: float = 12.0,
                   hfov_deg: float = 64.0, light: str = "daylight",
                   layout: AltitudeLayout = DEFAULT_LAYOUT,
                   size: tuple[int, int] = (1280, 720)) -> Shot:
    """A table camera looking at the middle of the table, as it stays for the game."""
    rng = np.random.default_rng([seed, 61])
    w, h = size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, size, (-0.12, 0.04, 0.0, 0.0, 0.0),
                      source="synthetic")
    cx, cy = layout.discard.centre
    back = height_mm * math.tan(math.radians(tilt_deg))
    eye = (cx, cy - back, height_mm)
    view = View(cam, TablePose.look_at(eye, (cx, cy, 0.0), (0.0, 1.0, 0.0)))
    return Shot(view=view, light=random_light(rng, light), table="wood", table_variant=1,
                noise=1.5, blur=0.6, jpeg=92, exposure=0.45, seed=seed)


def enrolment_frames(cards: tuple[CardSpec, ...], shot: Shot,
                     layout: AltitudeLayout = DEFAULT_LAYOUT, *, back: bool = True,
                     frames: int = 1) -> dict[str, list[np.ndarray]]:
    """``frames`` frames per card, the card alone on the discard pile's spot, face up (name →
    BGR images); and, with ``back``, one card face down (under the name ``back``)."""
    out: dict[str, list[np.ndarray]] = {}
    shown = [(c.id, c.id) for c in cards] + ([(BACK, None)] if back else [])
    for n, (name, card) in enumerate(shown):
        scene = AltitudeScene(cards, discard=(PileCard(card),), layout=layout)
        out[name] = [photograph(scene, replace(shot, seed=shot.seed + 1 + n * 16 + k)).image
                     for k in range(frames)]
    return out


def enrolled_library(cards: tuple[CardSpec, ...], shot: Shot | None = None,
                     layout: AltitudeLayout = DEFAULT_LAYOUT, game: str = "altitude", *,
                     frames: int = 3) -> CardLibrary:
    """The library ``companion calibrate cards`` would build from :func:`enrolment_frames`
    (each card's face the median of ``frames`` frames, as the command takes)."""
    shot = shot or enrolment_shot()
    lib = CardLibrary(game, layout.card_mm)
    zone = layout.enrol_zone()
    for name, images in enrolment_frames(cards, shot, layout, frames=frames).items():
        lib.enroll_from_view(name, images, zone, shot.view)
    return lib
