"""A small seeded corpus of rendered Haut les Cubes positions, read once for the reader's tests
(rendering and reading are the slow part)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from companion.bench.vision import enrol_cards
from companion.observation import Observation
from companion.synth.generate import Ranges, random_scene, random_shot
from companion.synth.render import Rendered, render
from companion.synth.scene import Scene, Shot
from companion.synth.scoring import FrameScore, score
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader

#: the part of the table kit's range these tests hold the reader to: a webcam 62–80 cm up,
#: tilted 8–26°, mid-game mountains up to 4 levels, in even light (the whole range, with its
#: weak spots, is measured by ``companion bench vision``)
RANGES = Ranges(tilt_deg=(8.0, 26.0), height_mm=(620.0, 800.0), hfov_deg=(64.0, 72.0),
                cubes=(8, 16), max_levels=4, giants=(1, 4), noise=(1.0, 3.0), blur=(0.4, 0.9),
                jpeg_quality=(80, 95), lossless_probability=0.2)
LIGHTS = ("daylight", "overcast", "cool-led")


@dataclass
class Read:
    scene: Scene
    shot: Shot
    rendered: Rendered
    seen: Observation | None
    score: FrameScore | None


def corpus_position(seed: int, index: int) -> tuple[Scene, Shot]:
    rng = np.random.default_rng([seed, index])
    scene = random_scene(rng, RANGES, DEFAULT_LAYOUT)
    shot = random_shot(rng, RANGES, DEFAULT_LAYOUT, light=LIGHTS[index % len(LIGHTS)])
    return scene, shot


def read_cold_cubes(seed: int, index: int):
    """A benchmark-corpus position (``companion.synth.generate.corpus_item``) drawn and read
    cold with no cards enrolled: the score of its cubes."""
    from companion.synth.generate import corpus_item

    scene, shot = corpus_item(seed, index)
    rendered = render(scene, shot)
    seen = HlcReader(camera=shot.view.camera).read(rendered.image)
    assert seen is not None and not seen.hand
    return score(seen, rendered.truth).cubes


@pytest.fixture(scope="session")
def cards():
    return enrol_cards(DEFAULT_LAYOUT)


@pytest.fixture(scope="session")
def corpus_readings(cards) -> list[Read]:
    """Eight positions, each with its own camera and light, read by a reader with that
    camera's lens and the enrolled cards."""
    out = []
    for i in range(8):
        scene, shot = corpus_position(31, i)
        rendered = render(scene, shot)
        seen = HlcReader(camera=shot.view.camera, cards=cards).read(rendered.image)
        out.append(Read(scene, shot, rendered, seen, None if seen is None else score(seen, rendered.truth)))
    return out


@pytest.fixture
def opencv_one_thread():
    """OpenCV on one thread for the test, as the benchmark reads, then as it was."""
    import cv2

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(threads)
