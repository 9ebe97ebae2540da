"""Random positions look like games: start layouts as the rules lay them out, blocks conserved,
flags on tower tops; corpora are repeatable and scored per piece, exactly."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.observation import Observation, Piece
from companion.synth.terra.corpus import corpus, score
from companion.synth.terra.generate import TerraRanges, corpus_item, random_position, start_heights
from companion.synth.terra.truth import ideal_observation


@pytest.mark.parametrize("players,blocks", [(2, 64), (3, 80), (4, 116)])
def test_start_layouts_hold_the_rules_blocks(players, blocks):
    heights = start_heights(players)
    assert sum(heights) == blocks
    assert heights[5 * 10 + 5] == (2 if players > 2 else 1)  # the centre
    assert (heights[0] == 0) == (players < 4)  # the outer ring


@pytest.mark.parametrize("seed", range(12))
def test_random_positions_conserve_blocks_and_stand_flags_on_towers(seed):
    rng = np.random.default_rng(seed)
    heights, flags = random_position(rng, TerraRanges())
    assert sum(heights) in (64, 80, 116)
    assert max(heights) <= TerraRanges().max_height
    cells = [f.cell for f in flags]
    assert len(set(cells)) == len(cells)
    for f in flags:
        assert heights[f.cell[1] * 10 + f.cell[0]] >= 1
    colours = {f.colour for f in flags}
    assert colours and all(sum(1 for f in flags if f.colour == c) == 6 for c in colours)


def test_corpus_items_are_repeatable():
    a = corpus_item(3, 7)
    b = corpus_item(3, 7)
    assert a[0] == b[0] and a[1] == b[1]
    assert corpus_item(3, 8)[0] != a[0]


def test_the_ideal_reading_scores_perfectly_and_a_misreading_does_not():
    item = next(corpus(1, seed=2, tilt_deg=30.0))
    perfect = score(item.truth, item.truth.observation)
    assert perfect["squares_right"] == perfect["squares"] > 50
    assert perfect["hidden_right"] == perfect["hidden"]
    assert perfect["flags_right"] == perfect["flags"] and perfect["flags_read_right"] == perfect["flags_read"]
    # one tower one block too high, one flag on the wrong square, one tower missing
    pieces = list(item.truth.observation.pieces)
    towers = [i for i, p in enumerate(pieces) if p.kind == "tower"
              and item.truth.readable(p.cell[1] * 10 + p.cell[0])]
    flags = [i for i, p in enumerate(pieces) if p.kind == "flag"]
    pieces[towers[0]] = replace(pieces[towers[0]], level=pieces[towers[0]].level + 1)
    pieces[flags[0]] = replace(pieces[flags[0]], cell=((pieces[flags[0]].cell[0] + 1) % 10, pieces[flags[0]].cell[1]))
    del pieces[towers[1]]
    wrong = score(item.truth, Observation("terra-turrium", pieces=tuple(pieces)))
    assert wrong["squares_right"] == perfect["squares_right"] - 2
    assert wrong["towers_right"] == perfect["towers_right"] - 2
    assert wrong["flags_right"] == perfect["flags_right"] - 1
    assert wrong["flags_read_right"] == perfect["flags_read_right"] - 1


def test_an_arm_over_the_board_must_not_be_read_as_a_position():
    item = next(i for i in corpus(8, seed=5, hand_probability=1.0) if i.truth.hand_over_board)
    assert score(item.truth, item.truth.observation)["hand_read_as_position"] == 1
    assert score(item.truth, Observation("terra-turrium", hand=True))["hand_read_as_position"] == 0
    assert score(item.truth, None)["hand_read_as_position"] == 0


def test_the_ideal_observation_is_the_documented_format():
    item = next(corpus(1, seed=4))
    obs = ideal_observation(item.scene)
    again = Observation.from_json(obs.to_json())
    assert again == obs
    for p in obs.pieces:
        assert p.kind in ("tower", "flag")
        assert 0 <= p.cell[0] < 10 and 0 <= p.cell[1] < 10
        if p.kind == "tower":
            assert p.level >= 1
        else:
            assert p.get("colour") in ("red", "yellow", "blue", "green")
    assert ideal_observation(item.scene, hand=True).hand
    assert isinstance(obs.pieces[0], Piece)


def test_unknown_corpus_ranges_are_refused():
    with pytest.raises(ValueError, match="unknown corpus ranges"):
        next(corpus(1, seed=0, tilt=3))
