"""A card's white border on a pale table under soft light hardly differs from the table, so the
card's blob is its coloured print alone, a few millimetres short of the card on every side. The
zone is rectified to table millimetres, so the card is cut out at its true size about that
blob's centre; before, the print was stretched to the card's size, the drawing no longer lined
up with the enrolled face, and a Moavéou scored 0.49 (below 0.5): every Moavéou in a game was
asked instead of read.

Cards enrolled as a user would (under plain light, ``companion.bench.vision.enrol_cards``), then
laid on a laminate table under overcast light and seen by demo cameras the tests use."""

from __future__ import annotations

import pytest

from companion.bench.vision import enrol_cards
from companion.demo.hlc import demo_lattice, demo_shot
from companion.synth.render import render
from companion.synth.scene import Scene
from companion.vision.hlc.layout import CARD_NAMES, DEFAULT_LAYOUT


@pytest.fixture(scope="module")
def library():
    return enrol_cards(DEFAULT_LAYOUT)


@pytest.mark.parametrize("seed", [1, 4])
def test_every_card_is_read_on_a_pale_table_under_soft_light(library, seed):
    shot = demo_shot(seed, light="overcast", table="laminate")
    lay = DEFAULT_LAYOUT
    for name in CARD_NAMES:
        image = render(Scene(demo_lattice(), (), (), name), shot, lay).image
        match = library.recognise_in_view(image, lay.card_zone_corners(), shot.view)
        assert match.name == name, (name, match)
        assert match.score > 0.7, (name, match)
