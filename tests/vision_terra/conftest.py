"""Fixtures of the Terra Turrium reader's tests: a few rendered frames, read once per session."""

from __future__ import annotations

import pytest

from companion.synth.terra.colour_shot import learn_colours
from companion.synth.terra.corpus import corpus
from companion.synth.terra.generate import table_layout
from companion.vision.terra.reader import TerraReader


def reader_for(item) -> TerraReader:
    """A reader as a calibrated table has it: the lens, the measured table, the flags' colours
    learned under this light."""
    return TerraReader(camera=item.shot.view.camera, layout=table_layout(),
                       colours=learn_colours(item.scene, item.shot), reuse_pose=False)


@pytest.fixture(scope="session")
def tilted_frames():
    """Six positions seen from tilted cameras (20–35°), every light."""
    items = list(corpus(6, seed=31, tilt_deg=(20.0, 35.0)))
    return [(item, reader_for(item)) for item in items]


@pytest.fixture(scope="session")
def hand_frames():
    """Positions with an arm over the board."""
    items = [item for item in corpus(10, seed=32, hand_probability=1.0) if item.truth.hand_over_board]
    assert len(items) >= 5, "the generator should put most arms over the board"
    return [(item, reader_for(item)) for item in items[:6]]
