"""A coloured pyramid seated on a black large one is read as what it is, not as a large one of
its colour. Its patch of colour (the black below shows round it as a ring) was fitted better by
a large square with its corners rounded off by 3.7 mm than by a medium one: the top then read
as large, the size of the outline, and the stack as one pyramid. A coloured top's corners are
rounded by the blur alone, and its fit now holds the rounding within 3 mm (a black top keeps
4 mm: its patch is grown into the blend round it).

A set-up of the benchmark corpus (``companion bench vision_gleebs --positions 320``, seed 1):
a green medium on a black large under a low sun, at 23° of tilt."""

from __future__ import annotations

from tests.vision_gleebs.conftest import chains, read_session


def test_a_coloured_medium_on_a_black_large_is_read_as_two_pyramids():
    item, seen, _ = read_session(1, 30, 2)
    truth = chains(item.truth.observation)
    assert truth[(0, 2)] == [("black", "large"), ("green", "medium")]
    assert seen is not None and not seen.hand
    read = chains(seen)
    assert read[(0, 2)] == truth[(0, 2)]
    # and nothing else of the frame is read as more than it is
    for cell, chain in read.items():
        assert len(chain) <= len(truth.get(cell, [])), f"{cell}: read {chain}, is {truth.get(cell)}"

