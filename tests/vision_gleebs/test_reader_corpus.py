"""The reader on rendered positions across the table kit's range (cameras from straight down to
35°, 60–100 cm, six kinds of light, noise, blur, JPEG, arms): the raw reading, before any help
from the rules. Figures over larger corpora are in BENCHMARKS.md (`companion bench
vision_gleebs`); here the thresholds are far beyond what chance or a constant reading gives."""

from __future__ import annotations


def test_pyramids_are_read_exactly(corpus_readings):
    scored = [r.score for r in corpus_readings if not r.score["hand"]]
    expected = sum(s["expected"] for s in scored)
    correct = sum(s["correct"] for s in scored)
    wrong = sum(s["wrong"] for s in scored)
    assert expected > 100, "the corpus should hold a good number of pyramids"
    # square, level, colour and size all right for nearly every pyramid, and little invented
    assert correct / expected >= 0.93, f"{correct} of {expected} read exactly"
    assert wrong <= 0.04 * expected, f"{wrong} readings match no pyramid"
    tops = sum(s["tops_correct"] for s in scored) / sum(s["tops_expected"] for s in scored)
    assert tops >= 0.95


def test_no_frame_with_an_arm_over_the_board_is_read_as_a_position(corpus_readings):
    hands = [r for r in corpus_readings if r.item.truth.hand]
    assert hands, "the corpus should hold frames with an arm over the board"
    for r in hands:
        assert r.seen is not None and r.seen.hand, f"position {r.item.index} read with an arm over the board"
        assert not r.seen.pieces


def test_readings_carry_the_board_pose_and_round_trip_as_json(corpus_readings):
    from companion.observation import Observation

    r = next(r for r in corpus_readings if r.seen is not None and r.seen.pieces)
    assert r.seen.game == "gleebs-and-grues"
    assert r.seen.board["markers"] == [4, 5, 6, 7]
    again = Observation.loads(r.seen.dumps())
    assert [p.to_json() for p in again.pieces] == [p.to_json() for p in r.seen.pieces]
    for p in r.seen.pieces:
        assert p.kind == "pyramid" and 0 <= p.cell[0] < 4 and 0 <= p.cell[1] < 4
        assert 0.5 <= p.conf <= 0.99
