"""A cube read as a cylinder is tried as a cube, the whole stack weighed.

Filled in level by level, a stone is chosen by its own points; a cylinder's lie inside a cube's,
away from the edges where the stone's colour blends with what is beside it, so a cube can fit
as well as a cylinder and the corners it covers are left unexplained. The stack search now tries
each cube or cylinder of the stack it read as the other, counting what the stack leaves out
(:func:`companion.vision.nains.stacks.fit_stack`). The frame is the reader corpus's (seed 21,
item 1: the camera tilted 32° under a cool LED light), where grey's first building (an orange
long block, a red cube, a violet cube) had its top cube read as a cylinder.
"""

from __future__ import annotations

from tests.vision_nains.conftest import read_corpus_item


def test_a_cube_on_a_building_is_read_as_a_cube_not_a_cylinder():
    read, truth, _ = read_corpus_item(21, 1)
    building = {k: v for k, v in truth.items() if k[:2] == ("player:grey", 0)}
    assert building == {("player:grey", 0, 0): ("orange", "long"), ("player:grey", 0, 1): ("red", "cube"),
                        ("player:grey", 0, 2): ("violet", "cube")}
    assert {k: read.get(k) for k in building} == building
