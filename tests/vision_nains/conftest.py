"""Shared helpers of the La Ville des Nains reader's tests: clean cameras over the default
table, and readers given the lens, the measured table and colours learned as a user would."""

from __future__ import annotations

import math
from functools import lru_cache

from calibration.boards import TableLayout
from companion.synth.nains.colour_shot import learn_colours
from companion.synth.nains.scene import NainsScene
from companion.synth.scene import Light, Shot
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.nains.reader import NainsReader
from companion.vision.nains.zones import DEFAULT_ZONES


def view_at(tilt: float, az_deg: float = 90.0, height: float = 720.0, hfov: float = 66.0,
            target: tuple[float, float] = (300.0, 255.0)) -> View:
    """A camera ``height`` mm above the table, tilted ``tilt`` degrees, looking along the
    azimuth ``az_deg`` (90: from beyond the near edge across the table) at ``target``."""
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), (-0.05, 0.01, 0.0, 0.0, 0.0), source="synthetic")
    a = math.radians(az_deg)
    back = height * math.tan(math.radians(tilt))
    eye = (target[0] - math.cos(a) * back, target[1] - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (target[0], target[1], 0.0), (math.cos(a), math.sin(a), 0.0)))


def clean_shot(view: View, seed: int = 3, light: Light | None = None) -> Shot:
    return Shot(view=view, light=light or Light(40.0, 65.0, (0.75, 0.75, 0.75), (0.32, 0.32, 0.32)),
                table="laminate", noise=1.5, blur=0.6, jpeg=90, seed=seed)


@lru_cache(maxsize=8)
def _colours(tilt: float):
    return learn_colours(NainsScene(), clean_shot(view_at(tilt)))


def reader_for(tilt: float) -> NainsReader:
    layout = TableLayout(DEFAULT_ZONES.table_layout().markers, measured=True)
    return NainsReader(camera=view_at(tilt).camera, layout=layout, colours=_colours(tilt))


def corpus_reader(scene: NainsScene, shot: Shot) -> NainsReader:
    """A reader set up for a rendered table as a user would set it up: the camera's lens, the
    table's measured markers, its zones, and colours learned under the shot's light."""
    zones = scene.zones
    return NainsReader(camera=shot.view.camera, layout=TableLayout(zones.table_layout().markers, measured=True),
                       zones=zones, colours=learn_colours(scene, shot))


def corpus_table(seed: int, index: int, hand_probability: float = 0.2):
    """The reader corpus's table ``index`` of ``seed`` as `companion bench vision_nains` draws
    it, and its photograph: (scene, shot, photo)."""
    from companion.synth.nains.generate import NainsRanges, corpus_item
    from companion.synth.nains.photo import photograph

    scene, shot = corpus_item(seed, index, NainsRanges(), hand_probability=hand_probability)
    return scene, shot, photograph(scene, shot)


def read_corpus_item(seed: int, index: int, hand_probability: float = 0.2):
    """The reader corpus's table ``index`` of ``seed``, read cold by :func:`corpus_reader`: the
    buildings read and the truth's, each as ``{(zone, building, level): (colour, shape)}``, and
    the shot."""
    from companion.synth.nains.corpus import _built
    from companion.vision.nains.reader import observation_of

    scene, shot, photo = corpus_table(seed, index, hand_probability)
    read = _built(observation_of(corpus_reader(scene, shot).read_all(photo.image)))
    return read, _built(photo.truth.observation), shot
