"""Videos, the benchmark corpus and its score, and the colour calibration a user makes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.observation import Observation, Piece
from companion.synth.gleebs.calibration_shot import calibration_images, learn_colours
from companion.synth.gleebs.corpus import corpus, score
from companion.synth.gleebs.scene import GleebsScene, Pyramid, Stack
from companion.synth.gleebs.sequence import Change, SequenceSource
from companion.vision.colours import colour_distance
from companion.vision.frames import SourceError

from .gleebs_views import BOARD, clean_shot, view


def _piece(cell, level, colour, size):
    return Piece(kind="pyramid", cell=cell, level=level, attrs={"colour": colour, "size": size})


def test_a_video_shows_hands_between_still_positions():
    start = GleebsScene(board=BOARD)
    after = GleebsScene(board=BOARD, stacks=(Stack((2, 2), (Pyramid("green", "small"),)),))
    target = tuple(BOARD.to_table(np.array([[112.5, 112.5]]))[0])
    shot = replace(clean_shot(view(15.0, height=800, hfov=75)), noise=2.0)
    src = SequenceSource(start, [Change(after, (target,))], shot, hand_frames=3, still_frames=2,
                         fps=30.0, seed=2)
    frames = []
    while (f := src.read()) is not None:
        frames.append(f)
    assert len(frames) == len(src) == 2 + 3 + 2
    assert [f.index for f in frames] == list(range(7))
    assert frames[1].t == pytest.approx(1 / 30)
    still = [f.truth["still"] for f in frames]
    assert still == [True, True, False, False, False, True, True]
    assert all(f.truth["hand_in_view"] for f in frames[2:5])
    assert frames[2].truth["hand"], "the arm reaching for the square is over the board"
    # still frames of one position: the same picture, each with its own sensor noise
    a, b = frames[5].image.astype(int), frames[6].image.astype(int)
    assert frames[5].truth["observation"] == frames[6].truth["observation"]
    assert 0 < np.abs(a - b).mean() < 4
    assert frames[6].truth["observation"]["pieces"][0]["colour"] == "green"
    src.close()
    with pytest.raises(SourceError):
        src.read()


def test_the_corpus_is_the_same_for_the_same_seed_and_keeps_its_sessions():
    a = list(corpus(3, seed=5, per_session=2, hand_probability=0.0))
    b = list(corpus(3, seed=5, per_session=2, hand_probability=0.0))
    assert [x.session for x in a] == [0, 0, 1]
    assert [x.first for x in a] == [True, False, True]
    assert a[0].shot.view == a[1].shot.view and a[0].scene.board == a[1].scene.board
    for x, y in zip(a, b):
        assert np.array_equal(x.image, y.image)
        assert x.truth.observation == y.truth.observation
    with pytest.raises(ValueError, match="unknown corpus settings"):
        next(corpus(1, seed=5, colour="red"))


def test_the_score_counts_exact_pieces_misreadings_and_hands():
    truth = Observation("gleebs-and-grues", (_piece((0, 0), 0, "red", "large"), _piece((0, 0), 1, "blue", "small"),
                                             _piece((3, 1), 0, "black", "medium")))
    assert score(truth, truth)["accuracy"] == 1.0
    misread = Observation("gleebs-and-grues", (_piece((0, 0), 0, "red", "large"), _piece((0, 0), 1, "blue", "medium"),
                                               _piece((3, 1), 0, "black", "medium"), _piece((2, 2), 0, "red", "small")))
    s = score(truth, misread)
    assert (s["expected"], s["correct"], s["missed"], s["wrong"]) == (3, 2, 1, 2)
    assert s["accuracy"] == pytest.approx(2 / 5)
    assert (s["tops_expected"], s["tops_correct"]) == (2, 1)
    one_colour = Observation("gleebs-and-grues", (_piece((1, 1), 0, "red", "large"), _piece((1, 1), 1, "red", "small")))
    s = score(one_colour, Observation("gleebs-and-grues", (_piece((1, 1), 0, "red", "large"),)))
    assert (s["one_colour_expected"], s["one_colour_correct"], s["one_colour_wrong"]) == (2, 1, 0)
    assert score(truth, truth)["one_colour_expected"] == 0
    hand = Observation("gleebs-and-grues", hand=True)
    assert score(hand, misread)["read_as_position"] is True
    assert score(hand, hand)["read_as_position"] is False
    assert score(truth, hand)["said_hand"] is True


def test_the_colour_sheet_calibration_tells_the_five_colours_apart():
    shot = replace(clean_shot(view(18.0, height=700.0, hfov=66.0)), noise=2.0, jpeg=90)
    images = calibration_images(BOARD, shot)
    assert len(images) == 2 and not np.array_equal(images[0], images[1])
    model = learn_colours(BOARD, shot)
    assert model.source == "learned" and model.names == ("red", "yellow", "green", "blue", "black")
    for i, a in enumerate(model.names):
        for b in model.names[i + 1:]:
            assert colour_distance(model, a, b) > 3.0, f"{a} and {b} look alike"
