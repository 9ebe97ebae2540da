"""A warm reading looks for an unsure giant on the lattice's offset found again in the frame.

The warm reading keeps the lattice of the last cold reading; one found when the mountain was
small can be a millimetre or two off, and a giant standing half behind a tall tower, judged on
the strip of it the tower leaves, was then read unsure (0.64 in the Haut les Cubes referee
benchmark's step 98, where a cold reading of the same frame gives 0.96, and the referee asked).

Here the last cold reading is made on a lattice 1.3 mm off the cubes' (the offset the benchmark's
warm reader kept), then the red giant steps to the square beside a five-cube tower.

Cost: two renders of the demo camera and two readings, about 4 s CPU.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.demo.hlc import demo_lattice, demo_shot
from companion.synth.render import render
from companion.synth.scene import Giant, Scene
from companion.vision.hlc import reader as reader_module
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.lattice_fit import refit_phase
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader

CUBES = ((-3, -2, 0), (-1, -2, 0), (-1, -2, 1), (-1, -2, 2), (-1, -2, 3), (-1, -2, 4),
         (1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 0, 4))


def _scene(red: tuple[int, int]) -> Scene:
    return Scene(demo_lattice(), cubes=CUBES,
                 giants=(Giant("red", red, 0), Giant("blue", (3, 0), 0), Giant("green", (-3, -1), 1)))


@pytest.fixture(scope="module")
def frames():
    shot = demo_shot(12)
    return shot, render(_scene((2, 2)), shot).image, render(_scene((3, 2)), shot).image


def _off_lattice() -> Lattice:
    lat = demo_lattice()
    ex, ey = lat.axes
    origin = np.asarray(lat.origin) - 1.0 * ex + 0.9 * ey
    return Lattice((float(origin[0]), float(origin[1])), lat.angle_deg, lat.pitch)


def test_a_giant_half_behind_a_tower_is_read_sure_on_a_kept_lattice_a_little_off(frames, monkeypatch):
    shot, before, after = frames
    off = _off_lattice()
    reader = HlcReader(camera=shot.view.camera)
    cold_read = reader_module.read_mountain
    with monkeypatch.context() as m:
        # the last cold reading found the lattice 1.3 mm off (as one found from few cubes can be)
        m.setattr(reader_module, "read_mountain", lambda *a, **k: cold_read(*a, **{**k, "lattice": off}))
        reader.read(before)
    seen = reader.read(after)
    assert reader.last.message == "warm"
    # the cubes are read on the kept lattice, exactly
    assert reader.last.mountain.lattice == off
    assert {(p.cell[0], p.cell[1], p.level) for p in seen.of_kind("cube")} == set(CUBES)
    giants = {p.get("colour"): p for p in seen.of_kind("giant")}
    assert {(c, p.cell, p.level) for c, p in giants.items()} == {
        ("red", (3, 2), 0), ("blue", (3, 0), 0), ("green", (-3, -1), 1)}
    # on the kept lattice alone the red giant was read at 0.76; a cold reading gives 0.97
    assert giants["red"].conf >= 0.9


def test_the_offset_found_again_moves_the_kept_lattice_back_onto_the_cubes(frames):
    shot, _, after = frames
    off = _off_lattice()
    cold = HlcReader(camera=shot.view.camera, warm=False)
    cold.read(after)
    found = cold.last.mountain.lattice
    refit, moved = refit_phase(after, cold.last.view, off, DEFAULT_LAYOUT.anchor_xy, levels=cold.levels - 1)
    # the same angle, the same cells (the origin moves by less than half a cell)
    assert refit.angle_deg == off.angle_deg
    assert 1.0 < moved < 3.0
    # and the lines where a cold reading of the frame puts them (within its own spread)
    gap = np.linalg.norm(refit.to_table(np.array([[0.5, 0.5]])) - found.to_table(np.array([[0.5, 0.5]])))
    assert gap < 0.8
