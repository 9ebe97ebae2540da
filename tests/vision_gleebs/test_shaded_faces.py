"""A coloured pyramid's faces turned from the light read black, and a black patch round a
coloured top is also what a black pyramid under it shows: the reader tells them apart by what
is seen along the stack's axis near its apex, where a lower pyramid never shows (the top covers
it there) but a shaded face of the top itself does.

Set-ups of the benchmark corpus (``companion bench vision_gleebs --seed 7``) where the two
meet: a camera tilted 24–35° under a warm lamp (blue pyramids with a dark side), and real
chains with a black top on a coloured pyramid."""

from __future__ import annotations

from collections import defaultdict

import pytest

from companion.synth.gleebs.corpus import corpus
from companion.vision.gleebs.reader import GleebsReader


def chains(observation):
    """Each square's pyramids, bottom first, as (colour, size)."""
    out = defaultdict(list)
    for p in sorted(observation.of_kind("pyramid"), key=lambda p: p.level):
        out[tuple(p.cell)].append((p.get("colour"), p.get("size")))
    return dict(out)


def read_session(session: int, positions: list[int]):
    items = [i for i in corpus(4, seed=7, first_session=session) if i.index % 4 in positions]
    reader = GleebsReader(items[0].shot.view.camera, items[0].colours)
    return [(item, reader.read(item.image)) for item in items]


def test_a_blue_pyramid_with_a_side_in_shade_is_one_blue_pyramid():
    # session 36: tilted 24–35° under a warm lamp; before, a large and a medium blue pyramid
    # were read as blue on black (two pyramids each)
    for item, seen in read_session(36, [0, 2]):
        truth = chains(item.truth.observation)
        read = chains(seen)
        blue = [cell for cell, chain in truth.items() if chain[-1][0] == "blue" and len(chain) == 1]
        assert blue, "the set-up shows lone blue pyramids"
        for cell in blue:
            assert read.get(cell) == truth[cell], f"{cell}: read {read.get(cell)}, is {truth[cell]}"
        assert read == truth


@pytest.mark.parametrize("session, position", [(66, 3), (72, 2)])
def test_a_black_pyramid_on_a_coloured_one_is_still_a_chain(session, position):
    # a black small pyramid on a green and on a blue large one: the lower colour shows round
    # the black top, and the black top is black all along its axis
    (item, seen), = read_session(session, [position])
    truth = chains(item.truth.observation)
    read = chains(seen)
    two = [cell for cell, chain in truth.items() if len(chain) == 2 and chain[1][0] == "black"]
    assert two, "the set-up shows a black pyramid on a coloured one"
    for cell in two:
        assert read.get(cell) == truth[cell], f"{cell}: read {read.get(cell)}, is {truth[cell]}"
