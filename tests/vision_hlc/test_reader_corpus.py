"""The reader on a seeded corpus of rendered positions with exact ground truth: cubes by lattice
position and level, giants by colour, square and level, the played card; no frame refused and
no hand-free frame taken for a hand. The thresholds are what the reader measured on this corpus,
less a margin; a reading by chance (a cube's level, a giant's colour and square) would score
near zero."""

from __future__ import annotations

from companion.synth.scoring import Tally


def _total(readings, kind: str) -> Tally:
    t = Tally()
    for r in readings:
        t.add(getattr(r.score, kind))
    return t


def test_every_frame_of_the_corpus_is_read_and_none_is_taken_for_a_hand(corpus_readings):
    assert all(r.seen is not None for r in corpus_readings)
    assert not any(r.seen.hand for r in corpus_readings)


def test_cubes_are_read_at_their_lattice_position_and_level(corpus_readings):
    cubes = _total(corpus_readings, "cubes")
    assert cubes.expected > 80
    assert cubes.precision >= 0.9, cubes
    assert cubes.recall >= 0.8, cubes
    # most positions are read without a single cube wrong or missing
    exact = sum(1 for r in corpus_readings if r.score.cubes.correct == r.score.cubes.reported
                and r.score.cubes.found == r.score.cubes.expected)
    assert exact >= 5


def test_giants_are_read_by_colour_square_and_level(corpus_readings):
    giants = _total(corpus_readings, "giants")
    assert giants.expected >= 15
    assert giants.precision >= 0.55, giants
    assert giants.recall >= 0.55, giants


def test_the_played_card_is_recognised(corpus_readings):
    right = sum(1 for r in corpus_readings if r.score.card_right)
    assert right >= 6


def test_cube_confidences_are_probabilities(corpus_readings):
    for r in corpus_readings:
        for p in r.seen.of_kind("cube"):
            assert 0.0 <= p.conf <= 1.0
