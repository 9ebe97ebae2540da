"""Corpora of rendered tables and how a reading is scored against their truth."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.observation import Observation
from companion.synth.nains.corpus import KEYS, corpus, score


def test_a_corpus_is_the_same_for_the_same_seed_and_scores_an_ideal_reading_as_perfect():
    a = list(corpus(2, seed=5, tilt_deg=25.0, light="overcast"))
    b = next(corpus(1, seed=5, tilt_deg=25.0, light="overcast"))
    assert np.array_equal(a[0].image, b.image) and a[0].scene == b.scene
    assert not np.array_equal(a[0].image, a[1].image)
    for item in a:
        assert abs(item.tilt_deg - 25.0) < 0.5 and item.light == "overcast"
        s = score(item.truth, item.truth.observation)
        assert set(s) == set(KEYS)
        assert s["dice_right"] == s["dice"] == s["dice_read"]
        assert s["pool_read_right"] == s["pool_read"] >= s["pool_right"] == s["pool"]
        assert s["stones_right"] == s["stones"] and s["hidden_right"] == s["hidden"]
        assert s["stones_read_right"] == s["stones_read"] == s["stones"] + s["hidden"]
        assert s["towers_right"] == 1
        assert s["hand_read_as_position"] == s["position_read_as_hand"] == s["unreadable"] == 0


def test_a_reading_that_misses_or_invents_pieces_is_counted_so():
    item = next(corpus(1, seed=5, tilt_deg=25.0, light="overcast"))
    truth = item.truth
    ideal = truth.observation
    built = [p for p in ideal.pieces if (p.zone or "").startswith("player:")]
    assert built, "the corpus's first table has buildings"
    # one building stone read with the wrong colour, the tower read one short, nothing in the pool
    wrong = replace(built[0], attrs={**built[0].attrs, "colour": "violet" if built[0].get("colour") != "violet" else "red"})
    top = max((p for p in ideal.pieces if p.zone == "kobold"), key=lambda p: p.level, default=None)
    pieces = [wrong if p is built[0] else p for p in ideal.pieces if p.zone != "pool" and p is not top]
    s = score(truth, Observation(game=ideal.game, pieces=tuple(pieces)))
    right = score(truth, ideal)
    assert s["stones_right"] + s["hidden_right"] == right["stones_right"] + right["hidden_right"] - 1
    assert s["stones_read_right"] == s["stones_read"] - 1
    assert s["pool_right"] == s["pool_read"] == 0
    assert s["towers_right"] == (0 if top is not None else 1)


def test_arms_and_missing_tables_are_counted_apart():
    item = next(corpus(1, seed=5, tilt_deg=25.0, light="overcast"))
    game = item.truth.observation.game
    refused = score(item.truth, Observation(game=game, hand=True))
    assert refused["position_read_as_hand"] == 1 and refused["dice_right"] == 0
    assert refused["dice"] == score(item.truth, item.truth.observation)["dice"]
    assert score(item.truth, None)["unreadable"] == 1
