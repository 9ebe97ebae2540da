"""A small mountain on a table as pale as the cards' white border is read, not taken for an
arm (issue 8).

A card's bottom border was looked for as a step brighter than the colour field above it and
than what lies below the card. On a pale laminate the border hardly stands out from the table
below it, while the light band across each card's face does stand out from the field below
the band: the lattice of a two-card mountain followed the bands, a quarter of a card off, and
no card was read there; the two cards' patch was then taken for an arm (three clean frames of
the 40-table bench corpus, seed 2). When no lattice leads to a card, the outlines are looked
for again without asking the border to stand out from what lies below.
"""

from __future__ import annotations

import pytest

from companion.synth.altitude.corpus import CorpusItem, score
from companion.synth.altitude.deck import load_deck
from companion.synth.altitude.enrol import enrolled_library, enrolment_shot
from companion.synth.altitude.generate import AltitudeRanges, corpus_item, table_layout
from companion.synth.altitude.photo import photograph
from companion.vision.altitude.reader import make_reader


@pytest.fixture(scope="module")
def pale_table():
    """The bench corpus's table 16 (seed 2: three seats, overcast light, 31° of tilt, red's
    mountain of two cards on a pale laminate) and the ``demo`` deck enrolled under that light."""
    deck = load_deck("demo")
    scene, shot = corpus_item(2, 16, AltitudeRanges(), hand_probability=0.15, light=None, tilt_deg=None)
    assert shot.light.name == "overcast" and not scene.hand
    lib = enrolled_library(deck, enrolment_shot(seed=2, light="overcast"), frames=1)
    return CorpusItem(16, scene, shot, photograph(scene, shot)), lib


def test_a_two_card_mountain_on_a_pale_table_is_read_and_the_frame_is_no_arm(pale_table):
    item, lib = pale_table
    red = [m for m in item.scene.mountains if m.seat == "red"][0]
    assert len(red.cards) == 2
    seats = tuple(m.seat for m in item.scene.mountains)
    reader = make_reader(camera=item.shot.view.camera, table_layout=table_layout(item.scene.layout),
                         cards=lib, seats=seats)
    seen = reader.read(item.image)
    assert seen is not None and not seen.hand
    got = {(p.get("etage"), p.get("pos")): p.get("card") for p in seen.pieces if p.zone == "player:red"}
    assert got == {(c.etage, c.pos): c.card for c in red.cards}
    result = score(item.truth, seen)
    assert result["cards_right"] >= result["cards"] - 2
