"""An arm whose hand, over the board's edge row, is read as a tall tower with conviction: the
tower's box hides where the arm meets the board from the body check
(:func:`companion.vision.terra.hands.reaching_body`), which once looked for the body only at the
paper's edge. Corpus seed 10 frame 36 (a hand reaching down over the far edge of the board,
an arm of the wood's brown across the table): a body that reaches the towers' boxes is one that
reaches the board."""

from __future__ import annotations

import numpy as np

from companion.synth.corpora import CorpusItem
from companion.synth.terra.generate import TerraRanges, corpus_item
from companion.synth.terra.photo import photograph
from companion.vision.terra import hands
from companion.vision.terra.reader import DOUBT_CONF

from .conftest import reader_for


def _frame(seed: int, index: int, hand: float) -> CorpusItem:
    scene, shot = corpus_item(seed, index, TerraRanges(), hand_probability=hand,
                              light=None, tilt_deg=None)
    return CorpusItem(index, scene, shot, photograph(scene, shot))


def test_a_hand_read_as_towers_on_the_edge_row_is_an_arm():
    item = _frame(10, 36, 0.2)
    assert item.truth.hand_over_board
    reader = reader_for(item)
    reading = reader.read_all(item.image)
    assert reading.hand is not None and reading.hand.hand
    assert reading.hand.body_mm2 >= hands.MIN_BODY_MM2
    assert reading.heights is not None
    geo = reading.located.geometry
    sure = np.where(reading.heights.conf >= DOUBT_CONF, reading.heights.heights, 0)
    leaning = hands.towers_mask(item.image.shape[:2], geo, sure)
    # what is read under the hand covers the paper's edge where the arm meets it (the body
    # stopped short of the paper there, 0 mm² before): the body reaches those boxes
    assert leaning.any()
    assert hands.reaching_body(item.image, geo, reading.located.detections, leaning) >= hands.MIN_BODY_MM2
    seen = reader.read(item.image)
    assert seen is not None and seen.hand and not seen.pieces
