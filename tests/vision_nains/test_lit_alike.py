"""The stack search's check that one light lights alike the faces of one colour turned one way,
on different stones of a stack: a column of cubes imagined over a long block lying towards the
camera puts its near faces on the block's lit top and on its shaded end, and pays for it; faces
turned other ways, or of other colours, are free to differ."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.nains.fitting import SHADE_SIGMA
from companion.vision.nains.stacks import _lit_alike

NEAR = np.array([0.0, -1.0, 0.0])      # a side facing the camera
TOP = np.array([0.0, 0.0, 1.0])
YELLOW, ORANGE = 3, 2


def test_near_faces_of_one_colour_lit_unlike_cost_the_stones_that_differ():
    # four yellow cubes: the lowest one's near face on a shaded end (45), the others on a lit
    # top (92): the lowest pays the most, each in units of the faces' own unevenness
    faces = [(NEAR, 16.0, 45.0), (NEAR, 16.0, 92.0), (NEAR, 16.0, 93.0), (NEAR, 16.0, 92.0), (TOP, 36.0, 85.0)]
    cost = _lit_alike(faces, [YELLOW] * 4, [0, 1, 2, 3, 3], 4)
    mean = (45.0 + 92.0 + 93.0 + 92.0) / 4
    assert cost[0] == pytest.approx((45.0 - mean) ** 2 / SHADE_SIGMA ** 2)
    assert cost[0] > 30.0 and cost[0] > 5 * cost[1]
    # the top cube's top face is alone of its way: only its near face is counted, over both
    assert cost[3] == pytest.approx(16.0 * (92.0 - mean) ** 2 / 52.0 / SHADE_SIGMA ** 2)


def test_faces_lit_alike_or_of_other_colours_or_turned_other_ways_cost_nothing():
    # a tower of three cubes of one colour, lit alike
    alike = [(NEAR, 16.0, 60.0), (NEAR, 16.0, 60.0), (NEAR, 16.0, 60.0)]
    assert _lit_alike(alike, [YELLOW] * 3, [0, 1, 2], 3) == pytest.approx(np.zeros(3))
    # two long blocks lying towards the camera: an orange end under a yellow one, and the
    # yellow top: nothing to compare
    longs = [(NEAR, 16.0, 27.0), (TOP, 62.0, 88.6), (NEAR, 16.0, 41.5)]
    assert _lit_alike(longs, [ORANGE, YELLOW], [0, 1, 1], 2) == pytest.approx(np.zeros(2))
    # one stone, or none
    assert _lit_alike([(NEAR, 16.0, 50.0)], [YELLOW], [0], 1) == pytest.approx(np.zeros(1))
    assert _lit_alike([], [], [], 0).shape == (0,)
