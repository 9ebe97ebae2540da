"""The reader's memory of a watched table, on readings built by hand (no rendering): what it
reports for a square whose top the camera cannot see now, or sees under a shadow, and the
questions a camera's blind spots make the referee ask (``companion.demo.terra``)."""

from __future__ import annotations

import numpy as np

from companion.demo.terra import LIFT_VISIBLE, demo_shot, with_hidden_puts_asked
from companion.games.terra_turrium import board
from companion.games.terra_turrium.scripts import demo_script
from companion.vision.terra.features import NH, NSQ
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.heights import HeightReading
from companion.vision.terra.locate import Located
from companion.vision.terra.reader import REMEMBERED_CONF, TerraReader

SQ = board.parse_square("e2")


def _located() -> Located:
    return Located(BoardGeometry(demo_shot(0).view), markers=(4, 5, 6, 7))


def _reading(square_probs: np.ndarray, square_seen: np.ndarray) -> HeightReading:
    """Every square read empty, surely and in full view, but ``SQ``."""
    probs = np.full((NSQ, NH), 1e-4)
    probs[:, 0] = 1.0
    seen = np.ones((NSQ, NH))
    probs[SQ], seen[SQ] = square_probs, square_seen
    probs /= probs.sum(axis=1, keepdims=True)
    heights = np.argmax(probs, axis=1)
    return HeightReading(heights, probs, seen[np.arange(NSQ), heights], np.log(probs), seen)


def _watching(height: int) -> TerraReader:
    """A reader that last read ``SQ`` clearly at ``height``."""
    reader = TerraReader()
    probs = np.full(NH, 1e-4)
    probs[height] = 1.0
    reader._remember(_located(), _reading(probs, np.ones(NH)))
    return reader


def _dist(**p: float) -> np.ndarray:
    out = np.full(NH, 1e-4)
    for h, v in p.items():
        out[int(h[1:])] = v
    return out


def test_a_new_top_partly_in_view_over_a_hidden_old_one_is_read():
    # e2 held one block; a second is laid on it. A nearer tower now hides the old top wholly and
    # the new one but a third: what shows of the new top outweighs the memory
    reader = _watching(1)
    seen = np.ones(NH)
    seen[:2] = 0.0
    seen[2] = 1 / 3
    out = reader._remember(_located(), _reading(_dist(h0=0.10, h1=0.083, h2=0.817), seen))
    assert out.heights[SQ] == 2 and out.conf[SQ] > 0.8


def test_a_height_nothing_shows_of_does_not_beat_the_memory_of_a_hidden_square():
    reader = _watching(1)
    seen = np.ones(NH)
    seen[:3] = 0.0
    out = reader._remember(_located(), _reading(_dist(h0=0.1, h1=0.083, h2=0.817), seen))
    assert out.heights[SQ] == 1 and out.conf[SQ] == REMEMBERED_CONF


def test_a_top_in_view_under_a_shadow_is_not_read_as_a_tower_gone():
    # e2 was read surely at five blocks; its top is in full view, a shadow across it, and the
    # reading leans to heights whose tops the camera cannot see, without ruling five out
    reader = _watching(5)
    seen = np.ones(NH)
    seen[:3] = 0.0
    out = reader._remember(_located(), _reading(_dist(h0=0.49, h1=0.41, h2=0.057, h5=0.038), seen))
    assert out.heights[SQ] == 5 and out.conf[SQ] == REMEMBERED_CONF


def test_a_tower_taken_down_out_of_sight_is_reported_as_read():
    # the same, but the picture rules the old top out: the blocks were taken
    reader = _watching(5)
    seen = np.ones(NH)
    seen[:3] = 0.0
    out = reader._remember(_located(), _reading(_dist(h0=0.55, h1=0.44, h5=0.001), seen))
    assert out.heights[SQ] == 0 and out.conf[SQ] < 0.6


def _shares(hidden: dict[str, float]) -> tuple[float, ...]:
    out = [1.0] * 100
    for name, v in hidden.items():
        out[board.parse_square(name)] = v
    return tuple(out)


def test_a_block_lifted_out_of_sight_while_another_hidden_square_could_give_it_is_asked():
    # the demo's step 4: blue lifts f7, g7 and h7, and the blocks laid on g8 hide where g7's
    # block was; d2, hidden too, holds a block blue could have lifted instead
    script = demo_script()
    after = 6  # the position after step 4 (the layout, two steps, an illegal one put back)
    visible = {after: _shares({"g7": 0.04, "d2": 0.02})}
    asked = with_hidden_puts_asked(script, visible, {after: _shares({"g7": LIFT_VISIBLE / 2})})
    assert [n for n, s in enumerate(asked.steps) if s.kind == "ask"] == [4]
    # where the block's top still shows, the camera sees it gone
    seen = with_hidden_puts_asked(script, visible, {after: _shares({"g7": 2 * LIFT_VISIBLE})})
    assert not [n for n, s in enumerate(seen.steps) if s.kind == "ask"]
    # with no other hidden square holding a block, nothing is in doubt
    alone = with_hidden_puts_asked(script, {after: _shares({"g7": 0.04})},
                                   {after: _shares({"g7": LIFT_VISIBLE / 2})})
    assert not [n for n, s in enumerate(alone.steps) if s.kind == "ask"]
