"""Arms over the table are never read as positions, and tables without an arm still are.

The frames are those of ``companion bench vision`` (seed 2024, the arm of every 4th position drawn
as the bench draws it), picked among the kinds of arm that used to be read as a position: an arm
over the mountain read as tall towers that hide its crossing of both bands (40); dark skin over a
wood table of nearly its colour (16, 24, 84: seen by the arm's body, its sleeve or its shadow
crossing the table round the markers; 8, straight down with no sleeve in sight: by the arm's
whole body, faintly redder than the table all along); an arm held so high that its picture lies
outside the bands (48); an arm reaching in under a tilted camera beside the mountain (72); a green
sleeve over a grey top, read as towers whose shadow, cast along the arm under a light found
there, once excused its colour (296: a shadow's colour moves along the daylight diagonal, a
green sleeve's across it). The
hand-free frames are positions of the same corpus whose arm frames the reader already told
(0, 20) or that carry no arm (2).
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.generate import corpus_item, random_hand
from companion.synth.render import render
from companion.synth.scoring import score
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader

SEED = 2024
ARM_POSITIONS = (8, 16, 24, 40, 48, 72, 84, 296)


def _arm_frame(index: int):
    scene, shot = corpus_item(SEED, index)
    rng = np.random.default_rng([SEED, index, 99])
    rendered = render(scene.with_hand(random_hand(rng, scene, DEFAULT_LAYOUT)), shot)
    return scene, shot, rendered


@pytest.mark.parametrize("index", ARM_POSITIONS)
def test_an_arm_over_the_table_is_never_read_as_a_position(index):
    scene, shot, rendered = _arm_frame(index)
    assert rendered.truth.hand and rendered.truth.hand_visible > 0.005
    seen = HlcReader(camera=shot.view.camera).read(rendered.image)
    assert seen is not None
    assert seen.hand and seen.pieces == ()


@pytest.mark.parametrize("index", (0, 2, 20))
def test_tables_without_an_arm_are_read(index):
    scene, shot = corpus_item(SEED, index)
    rendered = render(scene, shot)
    reader = HlcReader(camera=shot.view.camera)
    seen = reader.read(rendered.image)
    assert seen is not None and not seen.hand
    # the mountain is read (most of its cubes where they stand), not only "no hand"
    cubes = score(seen, rendered.truth).cubes
    assert cubes.recall >= 0.6 and cubes.precision >= 0.5
