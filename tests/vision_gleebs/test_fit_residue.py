"""A pyramid whose outline is fitted a little off (turned, or a size short) leaves a small patch
of its colour unexplained beside it; that is the stack's residue, not a hand. An arm near the
stacks is still an arm: it is joined to a patch that runs far beyond them, or it hides the
grid's lines.

Set-ups of the benchmark corpus (``companion bench vision_gleebs --positions 320 --seed 7``):
before, three frames with no hand over the board were taken for a hand (a black large pyramid
fitted as a medium under a warm lamp, a green one's shadow reading green at its rim, a yellow
large one fitted turned), and every pyramid in them went unread."""

from __future__ import annotations

import pytest

from companion.synth.gleebs.corpus import corpus, score
from companion.vision.gleebs.reader import GleebsReader


def colours(observation):
    return sorted((tuple(p.cell), p.level, p.get("colour")) for p in observation.of_kind("pyramid"))


def read_one(session: int, position: int):
    items = [i for i in corpus(4, seed=7, first_session=session) if i.index % 4 <= position]
    reader = GleebsReader(items[0].shot.view.camera, items[0].colours)
    for item in items:  # a reader reads its session's frames in order, as at a table
        seen = reader.read(item.image)
    return item, seen, reader.last_hand


@pytest.mark.parametrize("session, position", [(34, 1), (45, 3), (63, 2)])
def test_a_misfitted_outline_is_not_a_hand(session, position):
    item, seen, check = read_one(session, position)
    assert not item.truth.observation.hand
    assert seen is not None and not seen.hand, check
    # every square's pyramids are read, in their colours; sizes may be off where an outline
    # is misfitted (two pyramids at most here)
    assert colours(seen) == colours(item.truth.observation)
    result = score(item.truth.observation, seen)
    assert result["correct"] >= result["expected"] - 2, result


@pytest.mark.parametrize("session, position", [(5, 0), (21, 0), (35, 2)])
def test_an_arm_beside_the_stacks_is_still_a_hand(session, position):
    # arms whose frames also hold small patches beside read stacks
    item, seen, check = read_one(session, position)
    assert item.truth.observation.hand
    assert seen is not None and seen.hand, check
