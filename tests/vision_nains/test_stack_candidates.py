"""The stack search compares the readings of a slot fairly: a roof's top fits inside a flat one,
so roofs must not crowd out the flat tops of other heights, and the filled-in stacks moved to
their best place are the likeliest with their place and what they leave out counted (a lone
roof, a few millimetres off the slot towards the camera, fits the top of a taller stack and
scores above it by its stones alone).

The demo table (its camera, layout and pieces as the demo game draws them, after the demo
script's first twelve steps) under a light from the far side, as in the video where these
went wrong: the sides the camera sees are in the shade, too dark to show a colour, so a
stack's height shows only by where its top lies. Each case is a sensor noise where the search
without these rules misread the stack (measured: an orange cylinder on a red one read as the
orange cylinder alone; a violet cube, a yellow cylinder and a violet roof as the cylinder and
the roof; a red long block, a yellow cube and an orange roof as the block under two
cylinders)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.boards import TableLayout
from companion.demo.nains import demo_shot, scene_for
from companion.games import get_game
from companion.games.script import states
from companion.games.ville_des_nains.scripts import demo_script
from companion.synth.nains.colour_shot import learn_colours
from companion.synth.nains.photo import photograph
from companion.vision.nains import hands
from companion.vision.nains.buildings import _fitter, reach
from companion.vision.nains.kit import MAX_LEVELS, STONE_COLOURS, STONE_MM
from companion.vision.nains.pixels import Background, FrameColours, paper_white
from companion.vision.nains.planes import free_table, sample
from companion.vision.nains.reader import CLASSES, NainsReader
from companion.vision.nains.stacks import fit_stack

STEPS = 12


def _scene():
    game = get_game("ville-des-nains")
    return scene_for(states(game, demo_script())[STEPS])


def _read_slot(seed: int, seat: str, slot: int):
    """The stack on ``seat``'s ``slot`` as the reader's search reads it (its plane picture,
    colours and table as the reader measures them), and the scene's truth there."""
    scene = _scene()
    shot = demo_shot(seed)
    shot = replace(shot, light=replace(shot.light, azimuth_deg=69.0, elevation_deg=64.0))
    zones = scene.zones
    reader = NainsReader(camera=shot.view.camera, layout=TableLayout(zones.table_layout().markers, measured=True),
                         zones=zones, colours=learn_colours(scene, shot))
    image = photograph(scene, shot).image
    fix = reader.locator.locate(image)
    assert fix.ok
    view = fix.view
    colours = FrameColours(reader.colours, paper_white(image, fix.detections), CLASSES)
    table = Background.fit(colours.lab_of(sample(image, view, free_table(zones))))
    table = Background.fit_shadows(table, colours.lab_of(hands.overview(image, view, zones).image.reshape(-1, 3)))
    area = next(a for a in zones.areas if a.seat == seat)
    fitter, cls = _fitter(image, view, reach(view, area.rect, MAX_LEVELS * STONE_MM), colours, table,
                          STONE_COLOURS)
    st = fit_stack(fitter, area.slots[slot], area.yaw_deg, cls, max_levels=MAX_LEVELS,
                   search_mm=zones.slot_tolerance_mm)
    read = [(colours.names[c - 1], s.shape) for c, s in zip(st.classes, st.stones)] if st else []
    truth = next(b for b in scene.buildings if b.seat == seat and b.index == slot)
    return read, [(c, s) for c, s, _ in truth.stones]


@pytest.mark.parametrize("seed, seat, slot", [
    (9, "white", 0),   # an orange cylinder on a red one: the two-cylinder top came ninth
    (13, "green", 2),  # a violet cube, a yellow cylinder, a violet roof
    (6, "green", 1),   # a red long block across, a yellow cube, an orange roof across
])
def test_a_stack_in_the_shade_is_read_whole(seed, seat, slot):
    read, truth = _read_slot(seed, seat, slot)
    assert read == truth
