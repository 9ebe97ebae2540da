"""A reading the loop makes early and drops leaves every game's reader as it was (issue 4: the
loop reads inside the stillness gate's wait; a reading of a table that then moved never
happened, for the referee and for the reader's memory of the last still moment).

For each game's reader, on its demo video: the reading of a later still position after an
earlier one, against the same with a dropped reading in between (of a frame with an arm over
the table, which the reader would otherwise remember as it remembers any frame it reads), taken
back with :class:`companion.runtime.memory.Kept`. The two readings must be equal."""

from __future__ import annotations

import pytest

from companion.demo.play import demo_script
from companion.demo.video import demo_module
from companion.runtime.memory import Kept

GAMES = ("haut-les-cubes", "gleebs-and-grues", "terra-turrium", "ville-des-nains", "altitude")


def video_frames(game: str):
    """Two still positions of the demo video (the start and after the first step) and a frame
    with an arm over the table between them."""
    module = demo_module(game)
    source = module.demo_source(demo_script(game), 0)
    still: dict[int, object] = {}
    arm = None
    while len(still) < 2:
        frame = source.read()
        assert frame is not None, "the demo video ended before two still positions"
        truth = getattr(frame, "truth", None) or {}
        step = source.step_of(frame)
        if truth.get("hand"):
            arm = arm or (frame if still else None)
        elif truth.get("still", not truth.get("moving", False)) and step not in still \
                and (not still or arm is not None):
            still[step] = frame
    first, second = still.values()
    return module, source, first, arm, second


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_reading_leaves_the_reader_as_it_was(game):
    module, source, first, arm, second = video_frames(game)
    assert arm is not None

    uninterrupted = module.reader_for(source)
    uninterrupted.read(first)
    expected = uninterrupted.read(second)

    reader = module.reader_for(source)
    reader.read(first)
    kept = Kept(reader)
    reader.read(arm)  # read early, then the table moved: dropped
    kept.restore()
    got = reader.read(second)

    assert expected is not None and got is not None
    assert got.to_json() == expected.to_json()



def first_move(game: str):
    """The demo video's start, every frame with an arm of its first move, the position after it."""
    module = demo_module(game)
    source = module.demo_source(demo_script(game), 0)
    arms, still = [], {}
    while len(still) < 2:
        frame = source.read()
        truth = frame.truth or {}
        if truth.get("hand"):
            arms.append(frame)
        elif not truth.get("moving", False) and source.step_of(frame) not in still and (not still or arms):
            still[source.step_of(frame)] = frame
    first, second = still.values()
    return module, source, first, arms, second


def test_a_frame_with_an_arm_leaves_the_last_still_moment_remembered():
    """A frame read with an arm over the table is no position (issue 3: "a frame with a hand or
    arm over the play area is never read as a position"), so the Haut les Cubes reader keeps the
    last still moment it read: the next position is read warm from it, as if the arm's frame had
    never been read, instead of cold (about ten times the time, every time an arm pauses)."""
    module, source, first, arms, second = first_move("haut-les-cubes")

    uninterrupted = module.reader_for(source)
    uninterrupted.read(first)
    expected = uninterrupted.read(second)
    assert uninterrupted.last.message == "warm"

    for arm in arms:  # the first arm frame the reader tells from a position (an arm reaching in
        reader = module.reader_for(source)  # at the table's edge is not over the play area yet)
        reader.read(first)
        if reader.read(arm).hand:
            break
    else:
        raise AssertionError("no frame of the first move's arm was read as an arm")
    got = reader.read(second)

    assert reader.last.message == "warm"
    assert got.to_json() == expected.to_json()


def test_an_arm_is_refused_before_the_mountain_is_read_again():
    """A frame whose warm reading fails because an arm reaches in over the table is refused by
    the arm checks that need no new reading (the band and the ring round the play area, the last
    mountain left out), not read cold first: no mountain is read for it. Both still positions are
    read as positions."""
    module, source, first, arms, second = first_move("haut-les-cubes")
    reader = module.reader_for(source)
    assert not reader.read(first).hand
    refused_early = []
    for arm in arms:
        kept = Kept(reader)
        obs = reader.read(arm)
        if reader.last.mountain is None:
            assert obs.hand
            refused_early.append(arm.index)
        kept.restore()
    assert len(refused_early) >= len(arms) // 2, refused_early
    assert not reader.read(second).hand
    assert reader.last.message == "warm"
