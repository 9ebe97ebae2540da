"""A lone pyramid whose faces read as two patches of its colour is one pyramid. Under a low sun
the lit face of a red or yellow large pyramid is brighter than the colours learned for it and
reads as no colour in its middle, leaving a strip of its colour along its foot apart from the
shaded faces. The shaded faces were fitted as a medium top, and the strip round them, of the
top's own colour, was read as a large pyramid under it: a large with a medium of its colour
seated on it. A lower pyramid is now taken from round the top only when it shows another colour;
the top's own colour round it makes a one-colour stack, read as such (its outline's pyramid,
or one of its colour seated on it turned against it, by the faces).

A set-up of the benchmark corpus (``companion bench vision_gleebs --positions 320``, seed 1):
low sun, 13° of tilt."""

from __future__ import annotations

import pytest

from tests.vision_gleebs.conftest import chains, read_session


@pytest.mark.parametrize("position, cell, pyramid", [
    (0, (2, 1), ("red", "large")),
    (2, (3, 0), ("yellow", "large")),
])
def test_a_lone_pyramid_whose_lit_face_reads_no_colour_is_one_pyramid(position, cell, pyramid):
    item, seen, _ = read_session(1, 72, position)
    truth = chains(item.truth.observation)
    assert truth[cell] == [pyramid]
    assert seen is not None and not seen.hand
    read = chains(seen)
    assert read[cell] == [pyramid]
    for other, chain in read.items():
        assert len(chain) <= len(truth.get(other, [])), f"{other}: read {chain}, is {truth.get(other)}"
