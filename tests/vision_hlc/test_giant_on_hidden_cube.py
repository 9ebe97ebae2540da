"""Giants standing on a cube their own bodies hide (``companion.vision.hlc.lift``), read cold on
a benchmark-corpus position (``companion bench vision``, seed 2024).

Haut les Cubes puts giants on cubes' tops; two of them side by side on one cube, seen nearly
straight down, cover most of its top. With the giants' pixels left out of the mountain's
evidence the cube was lost, and both giants were read on the table, a level low (0.74 and 0.75
sure). Judged a level up, on the cube that would hold them, their pawns fit at 0.97 and 0.98.
"""

from __future__ import annotations

from functools import lru_cache

from companion.synth.generate import corpus_item
from companion.synth.render import render
from companion.synth.scoring import score
from companion.vision.hlc.lift import UNSURE
from companion.vision.hlc.reader import HlcReader


@lru_cache(maxsize=None)
def read(seed: int, index: int):
    scene, shot = corpus_item(seed, index)
    rendered = render(scene, shot)
    seen = HlcReader(camera=shot.view.camera).read(rendered.image)
    assert seen is not None and not seen.hand
    return rendered, seen


def test_two_giants_on_one_hidden_cube_are_read_up_there():
    rendered, seen = read(2024, 17)  # low sun, cloth, 11 degrees of tilt
    truth = {(g.name, g.cell, g.level) for g in rendered.truth.giants}
    assert {("yellow", (-2, 1), 1), ("green", (-3, 0), 1)} <= truth
    giants = {(p.get("colour"), p.cell, p.level) for p in seen.of_kind("giant")}
    assert giants == truth
    # and the cube holding them up is read where it lies, as a cube on the table
    cubes = {(p.cell, p.level): p.conf for p in seen.of_kind("cube")}
    assert ((-3, 0), 0) in cubes
    assert cubes[((-3, 0), 0)] >= 0.9  # seen through the pawns it holds
    assert score(seen, rendered.truth).cubes.correct == len(rendered.truth.cubes)


def test_an_unsure_giant_on_the_table_stays_there():
    """A white pawn on the table read unsure (0.84, under ``lift.UNSURE``) is judged a level up
    too, on every cube that could hold it; its pawn fits none of them, so it stays on the table
    and no cube is added under it."""
    rendered, seen = read(2024, 7)  # overcast, wood, 31 degrees of tilt
    white = [p for p in seen.of_kind("giant") if p.get("colour") == "white"]
    assert len(white) == 1 and white[0].level == 0 and white[0].conf < UNSURE
    giants = {(p.get("colour"), p.cell, p.level) for p in seen.of_kind("giant")}
    # (a black pawn behind the mountain, which this camera cannot see, is not expected)
    assert giants == {(g.name, g.cell, g.level) for g in rendered.truth.giants if g.expected}
    assert not any(p.level == 0 and p.cell[0] in (-1, 0) and p.cell[1] in (1, 2)
                   for p in seen.of_kind("cube"))
