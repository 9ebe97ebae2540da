"""Arms the table band round the board missed, seen as a body on the table reaching from the
board out towards the player (:func:`companion.vision.terra.hands.reaching_body`). Frames of the
arms benchmark (every frame with an arm) that the reader without it read as positions: a wrist
over a grey table of nearly its colour (corpus seed 31 frame 19), a hand over the top edge of
the board under a warm lamp whose crossing hides behind what is read under it (seed 33 frame 0),
a wrist over blurred wood grain (seed 33 frame 7)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.corpora import CorpusItem
from companion.synth.terra.generate import TerraRanges, corpus_item
from companion.synth.terra.photo import photograph
from companion.vision.terra import hands
from companion.vision.terra.reader import DOUBT_CONF

from .conftest import reader_for


def _frame(seed: int, index: int, hand: float = 1.0, **ranges) -> CorpusItem:
    scene, shot = corpus_item(seed, index, TerraRanges(), hand_probability=hand,
                              **{"light": None, "tilt_deg": None, **ranges})
    return CorpusItem(index, scene, shot, photograph(scene, shot))


@pytest.mark.parametrize("seed,index", [(31, 19), (33, 0), (33, 7)])
def test_an_arm_the_band_misses_is_seen_reaching_across_the_table(seed, index):
    item = _frame(seed, index)
    assert item.truth.hand_over_board
    reader = reader_for(item)
    reading = reader.read_all(item.image)
    assert reading.hand is not None and reading.hand.hand
    # the band alone does not see these arms: the body on the table does
    assert reading.hand.table_run_mm < hands.MIN_ARM_RUN_MM
    assert reading.hand.body_mm2 >= hands.MIN_BODY_MM2
    seen = reader.read(item.image)
    assert seen is not None and seen.hand and not seen.pieces


@pytest.mark.parametrize("seed,index", [(8, 6), (8, 28), (9, 15)])
def test_long_shadows_of_towers_are_no_body(seed, index):
    # corpus frames under a low sun, no arm: the towers' shadows stretch out across the table
    # from the board, darker and bluer than the lit table (seed 9 frame 15: a tall tower whose
    # shadow leaves the frame). With no shadow allowed bluer than the table they were bodies of
    # 17000–27000 mm²
    item = _frame(seed, index, hand=0.0)
    assert not item.truth.hand and item.shot.light.name == "low-sun"
    reading = reader_for(item).read_all(item.image)
    assert reading.hand is not None and not reading.hand.hand
    assert reading.heights is not None
    leaning = hands.towers_mask(item.image.shape[:2], reading.located.geometry,
                                np.where(reading.heights.conf >= DOUBT_CONF, reading.heights.heights, 0))
    assert hands.reaching_body(item.image, reading.located.geometry, reading.located.detections,
                               leaning) < hands.MIN_BODY_MM2 / 2
