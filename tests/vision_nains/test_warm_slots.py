"""A still moment after a turn re-reads only the building slots whose picture changed: the
other slots keep their readings, and a slot re-read is read as a reader re-reading every slot
reads it."""

from __future__ import annotations

from dataclasses import replace

from companion.synth.nains.photo import photograph
from companion.synth.nains.scene import Building

from .conftest import clean_shot, reader_for, view_at
from .test_nains_reader import TABLE, TILT


def _stones(obs, seat, building):
    return [p for p in obs.pieces if p.zone == f"player:{seat}" and p.get("building") == building]


def test_a_turn_re_reads_only_the_slots_it_built_on():
    shot = clean_shot(view_at(TILT))
    first_image = photograph(TABLE, shot).image
    # a turn: a violet cube on white's empty slot 4, seen in the next still moment
    built = replace(TABLE, buildings=TABLE.buildings + (Building("white", 4, (("violet", "cube", 0),)),))
    image = photograph(built, replace(shot, seed=shot.seed + 1)).image
    reader, every = reader_for(TILT), reader_for(TILT)
    first = reader.read(first_image)
    every.read(first_image)
    before = dict(reader._slots)
    assert len(before) == sum(len(a.slots) for a in reader.zones.areas)
    warm = reader.read(image)
    every._slots = {}  # the same history, every slot of a changed area searched again
    again = every.read(image)
    fitted = {k for k in reader._slots if reader._slots[k][1] is not before[k][1]}
    assert ("player:white", 4) in fitted
    assert len(fitted) <= 3, fitted  # the slot built on and its neighbours, not the area's six
    for zone, k in fitted:
        seat = zone.split(":")[1]
        assert _stones(warm, seat, k) == _stones(again, seat, k)
    new = _stones(warm, "white", 4)  # read as the reader reads it: a stone, violet at the foot
    assert new and [(p.level, p.get("colour")) for p in new][0] == (0, "violet")
    # the slots not re-read keep their readings, in the changed area and elsewhere
    for zone, k in set(before) - fitted:
        seat = zone.split(":")[1]
        assert _stones(warm, seat, k) == _stones(first, seat, k)
