"""The pyramids' physics that both the renderer and the reader use: which pyramids of a stack
a camera sees (the same rule as the rules engine's), and where each seats."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.gleebs_and_grues.camera import visible
from companion.games.gleebs_and_grues.pieces import RAINBOW
from companion.vision.gleebs.geometry import (NEST_LIFT_MM, SIZES, pyramid_points, seat_heights,
                                              visible_chain)


@given(st.lists(st.sampled_from(range(len(RAINBOW))), min_size=1, max_size=6, unique=True))
def test_the_visible_chain_is_the_rules_engines(indices):
    stack = tuple(RAINBOW[i] for i in indices)
    ours = [stack[i] for i in visible_chain([(p.colour, p.size_name) for p in stack])]
    assert ours == visible(stack)


def test_a_chain_seats_each_apex_a_lift_above_the_last_when_turned_alike():
    z = seat_heights(["large", "medium", "small"])
    apexes = [z0 + SIZES[s].height for z0, s in zip(z, ["large", "medium", "small"])]
    assert z[0] == 0.0
    assert np.allclose(np.diff(apexes), NEST_LIFT_MM)
    # the medium's rim sits where the large is just narrower than it
    large = SIZES["large"]
    width_at_rim = large.base * (1 - z[1] / large.height)
    assert width_at_rim < SIZES["medium"].base < width_at_rim + 2.0


def test_a_pyramid_turned_against_the_one_below_seats_higher():
    aligned = seat_heights(["large", "small"], [0.0, 0.0])[1]
    turned = seat_heights(["large", "small"], [0.0, 45.0])[1]
    same_turn = seat_heights(["large", "small"], [10.0, 100.0])[1]
    assert turned > aligned + 2.0
    assert same_turn == pytest.approx(aligned)


def test_a_larger_pyramid_cannot_be_seen_seated_on_a_smaller_one():
    with pytest.raises(ValueError, match="cannot be seen seated"):
        seat_heights(["small", "large"])


def test_pyramid_points_give_the_kit_sizes():
    pts = pyramid_points((10.0, 20.0), 5.0, "medium", 30.0)
    base, apex = pts[:4], pts[4]
    sides = np.linalg.norm(np.roll(base, -1, axis=0) - base, axis=1)
    assert np.allclose(sides, 19.8)
    assert apex[2] == pytest.approx(5.0 + 34.9)
    assert np.allclose(base[:, :2].mean(axis=0), [10.0, 20.0])
