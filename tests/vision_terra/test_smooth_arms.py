"""An arm as orange as the wood it crosses, under a warm lamp: its colour and brightness are the
table's, so only its smoothness tells it from the wood round the board (grain shows every few
mm along the band, skin not for 50 mm and more). Frames of the arms benchmark (corpus seed 31,
every frame with an arm) that were read as positions."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.corpora import CorpusItem
from companion.synth.terra.generate import TerraRanges, corpus_item
from companion.synth.terra.photo import photograph
from companion.vision.terra import hands

from .conftest import reader_for


def _frame(seed: int, index: int, hand: float) -> CorpusItem:
    scene, shot = corpus_item(seed, index, TerraRanges(), hand_probability=hand, light=None,
                              tilt_deg=None)
    return CorpusItem(index, scene, shot, photograph(scene, shot))


@pytest.mark.parametrize("index", [8, 18])
def test_an_arm_the_colour_of_the_wood_is_seen_by_its_smoothness(index):
    item = _frame(31, index, 1.0)
    assert item.truth.hand_over_board and item.shot.light.name == "warm-lamp"
    reader = reader_for(item)
    seen = reader.read(item.image)
    assert seen is not None and seen.hand and not seen.pieces
    reading = reader.read_all(item.image)
    assert reading.hand is not None and reading.hand.table_run_mm >= hands.MIN_ARM_RUN_MM


def test_grained_wood_without_an_arm_is_never_smooth_for_long():
    # the same table and lamp (the frames of corpus seed 8 under a warm lamp), no arm
    from companion.synth.terra.corpus import corpus

    items = list(corpus(3, seed=8, light="warm-lamp"))
    for item in items:
        reading = reader_for(item).read_all(item.image)
        assert reading.hand is not None and not reading.hand.hand
        assert reading.heights is not None


def test_the_smooth_run_counts_only_seen_positions_on_a_grained_table():
    grained = np.tile([3.0, 0.2, 2.5, 0.1, 4.0, 0.3], 20)
    seen = np.ones(len(grained), bool)
    assert hands.smooth_run(grained, seen, float(np.median(grained))) == 0
    arm = grained.copy()
    arm[30:60] = 0.15  # 30 positions, 90 mm of skin
    run = hands.smooth_run(arm, seen, float(np.median(grained)))
    assert 26 <= run <= 30
    hidden = seen.copy()
    hidden[40:45] = False  # a tower leans over part of it: the stretch is broken there
    assert hands.smooth_run(arm, hidden, float(np.median(grained))) < 20
    assert hands.smooth_run(np.full(120, 0.2), seen, 0.2) == 0  # a plain table: no grain to miss
