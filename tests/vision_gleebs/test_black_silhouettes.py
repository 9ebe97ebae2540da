"""A black pyramid's silhouette is measured whole.

* Lying across a grid line, a black pyramid reads black on both sides of the line's band of
  print (which is black too, and left out of every silhouette): the band is bridged where black
  shows on both sides, so the part beyond the line (a leaning apex, at 24–35° of tilt) stays in
  the silhouette. Before, black large pyramids were fitted as mediums.
* A black top on a coloured pyramid blurs into it through a band of neither colour ("other");
  its edge lies in that band's middle. Before, black mediums on large pyramids were fitted as
  smalls.

Set-ups of the benchmark corpus (``companion bench vision_gleebs --positions 320``)."""

from __future__ import annotations

import pytest
from tests.vision_gleebs.conftest import chains, read_session



@pytest.mark.parametrize("seed, session, position, cell", [
    (7, 24, 1, (1, 3)),   # dim light, 34° of tilt: its apex leans across the line into a1's square
    (7, 20, 3, (1, 3)),   # cool LED, 33°
    (7, 34, 1, (1, 1)),   # warm lamp, 34°
])
def test_a_black_large_pyramid_across_a_line_is_large(seed, session, position, cell):
    item, seen, _ = read_session(seed, session, position)
    truth = chains(item.truth.observation)
    assert truth[cell] == [("black", "large")]
    assert seen is not None and not seen.hand
    assert chains(seen).get(cell) == truth[cell]


@pytest.mark.parametrize("seed, session, position, cell", [
    (11, 78, 3, (0, 0)),  # a black medium on a red large, overcast, 28° of tilt
    (11, 53, 3, (2, 2)),  # on a blue large, dim light, 35°
    (7, 68, 2, (0, 2)),   # on a yellow large, cool LED, 34°
])
def test_a_black_medium_on_a_coloured_pyramid_is_a_medium(seed, session, position, cell):
    item, seen, _ = read_session(seed, session, position)
    truth = chains(item.truth.observation)
    assert truth[cell][-1] == ("black", "medium") and len(truth[cell]) == 2
    assert seen is not None and not seen.hand
    assert chains(seen).get(cell) == truth[cell]
