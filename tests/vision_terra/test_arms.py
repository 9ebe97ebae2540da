"""Arms the table band round the board must see (single frames, no history): arms whose
crossing differs from the table by little along part of it, and an arm whose own surface is
read as tall towers without conviction, which must not be taken to lean over the band."""

from __future__ import annotations

import pytest

from companion.synth.corpora import CorpusItem
from companion.synth.terra.generate import TerraRanges, corpus_item
from companion.synth.terra.photo import photograph

from .conftest import reader_for


def _frame(seed: int, index: int) -> CorpusItem:
    scene, shot = corpus_item(seed, index, TerraRanges(), hand_probability=1.0, light=None,
                              tilt_deg=None)
    return CorpusItem(index, scene, shot, photograph(scene, shot))


@pytest.mark.parametrize("index", [1, 35, 32])
def test_an_arm_crossing_the_table_round_the_board_is_seen(index):
    # corpus seed 31 (the arms benchmark): 1 and 35 arms whose crossing differs from the table
    # by little (anomaly under 4 along part of it), 32 a dark sleeve
    # whose surface over the board reads as towers of 5 to 11 blocks, unsurely
    item = _frame(31, index)
    assert item.truth.hand_over_board
    seen = reader_for(item).read(item.image)
    assert seen is not None and seen.hand and not seen.pieces
