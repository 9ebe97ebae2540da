"""A lone medium pyramid seen at 34° of tilt, its apex leaning far from the camera, is read as a
medium. Its outline, long along the lean, fitted as well a large whose axis stood 8 mm from the
square's middle (a large's apex leans further), beyond the 7 mm a stack's axis is taken to stand
within, which cost the fit next to nothing: it read as a large. A stack's bottom is now held
firmly within that limit.

A set-up of the benchmark corpus (``companion bench vision_gleebs --positions 320``, seed 1):
a yellow medium in dim light."""

from __future__ import annotations

from tests.vision_gleebs.conftest import chains, read_session


def test_a_lone_medium_leaning_far_is_not_read_as_a_large_off_its_middle():
    item, seen, reader = read_session(1, 61, 1)
    truth = chains(item.truth.observation)
    assert truth[(0, 0)] == [("yellow", "medium")]
    assert seen is not None and not seen.hand
    assert chains(seen)[(0, 0)] == [("yellow", "medium")]
    stack = next(s for s in reader.last_stacks if s.cell == (0, 0))
    cx, cy = reader.spec.cell_centre(0, 0)
    assert abs(stack.centre[0] - cx) < 7.0 and abs(stack.centre[1] - cy) < 7.0
