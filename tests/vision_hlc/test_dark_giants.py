"""Dark giants on benchmark-corpus positions (``companion bench vision``, seed 2024 and 7), read
cold.

* A shadow, or a gap between cubes, is as dark as a black pawn in some lights, and was read as
  one (0.62–0.94 sure). A pawn's black paint ends at its outline, and what surrounds it is about
  ten times lighter; a shadow or a gap goes on past the outline it was read in
  (:func:`surround_contrast`).
* A true black pawn is still read: one in a tower's shadow on wood under a warm lamp, and one in
  a pit of shaded cube sides under a cool LED panel (its surround only ×1.7 lighter, the whole
  of its outline black).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from companion.synth.generate import corpus_item
from companion.synth.render import render
from companion.synth.scoring import score
from companion.vision.hlc.giants import _pawn_points, surround_contrast
from companion.vision.hlc.reader import HlcReader


@lru_cache(maxsize=None)
def read(seed: int, index: int):
    scene, shot = corpus_item(seed, index)
    rendered = render(scene, shot)
    reader = HlcReader(camera=shot.view.camera)
    seen = reader.read(rendered.image)
    assert seen is not None and not seen.hand
    return rendered, seen, reader


def colours(seen) -> list[str]:
    return sorted(p.get("colour") for p in seen.of_kind("giant"))


@pytest.mark.parametrize("seed, index", [
    (2024, 11),  # daylight, cloth: the gap between two rows of cubes, in their shadow
    (2024, 21),  # low sun, cloth: a tower's long shadow
    (2024, 29),  # warm lamp, wood: a gap between cubes
])
def test_a_shadow_or_a_gap_is_no_black_giant(seed, index):
    rendered, seen, _ = read(seed, index)
    assert "black" not in {g.name for g in rendered.truth.giants}
    assert "black" not in colours(seen)
    giants = score(seen, rendered.truth).giants
    assert giants.correct == giants.reported  # and the giants there are read right


@pytest.mark.parametrize("seed, index", [
    (2024, 28),  # warm lamp, wood: in a tower's shadow
    (7, 32),  # cool LED: in a pit of shaded cube sides
])
def test_a_black_pawn_is_still_read(seed, index):
    rendered, seen, reader = read(seed, index)
    black = [p for p in seen.of_kind("giant") if p.get("colour") == "black"]
    assert len(black) == 1
    giants = score(seen, rendered.truth).giants
    assert giants.correct == giants.reported
    # its paint is darker than the lighter three quarters of its surround
    p = black[0]
    mountain = reader.last.mountain
    lay = reader.layout
    pts = _pawn_points(mountain.lattice, p.cell, p.level, lay)
    px = reader.last.view.project(pts)
    h, w = rendered.image.shape[:2]
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    bgr = rendered.image[px[inside, 1].astype(int), px[inside, 0].astype(int)]
    assert surround_contrast(rendered.image, reader.last.view, mountain.lattice, p.cell, p.level, lay,
                             np.asarray(bgr)) > 8.0
