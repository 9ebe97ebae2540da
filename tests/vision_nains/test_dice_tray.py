"""The dice in the tray, read where the reader went wrong before: dice touching each other, and
a patch that only partly shows a die's colour taken for another die (which then made a white
face the kobold die's blank: four dice and no marks)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.synth.nains.photo import photograph
from companion.synth.nains.scene import Die, NainsScene
from companion.synth.scene import Light

from .conftest import clean_shot, corpus_reader, corpus_table, reader_for, view_at

GREY_MAT = (0.42, 0.43, 0.42)
DIM = Light(30.0, 60.0, (0.25, 0.28, 0.3), (0.07, 0.08, 0.09))
#: a violet die and a yellow one side by side, touching
TOUCHING = (Die("colour", "violet", 85, 218, 87, 1), Die("colour", "yellow", 101.5, 218.5, 85, 1),
            Die("colour", "blue", 70, 257, 35, 1), Die("kobold", "2", 120, 270, 20, 0))


def _tray(observation) -> Counter:
    return Counter((p.get("die"), p.get("face")) for p in observation.pieces if p.zone == "tray")


def _corpus_tray(index: int) -> tuple[Counter, Counter]:
    """The tray read and its truth, on the reader corpus's table ``index`` of seed 21."""
    scene, shot, photo = corpus_table(21, index)
    return _tray(corpus_reader(scene, shot).read(photo.image)), _tray(photo.truth.observation)


def _dice_read(dice, tilt: float, light: Light) -> tuple[Counter, Counter]:
    """The tray read and its truth, for ``dice`` on the grey mat seen at ``tilt`` in ``light``."""
    photo = photograph(NainsScene(dice=dice, placement_seed=5, mat=GREY_MAT),
                       clean_shot(view_at(tilt), light=light))
    return _tray(reader_for(tilt).read(photo.image)), Counter((d.kind, d.face) for d in dice)


@pytest.mark.parametrize("tilt", [17.0, 25.0])
def test_dice_touching_each_other_are_both_read(tilt):
    # before: the violet die was not found (its neighbour lay where the mat should show)
    read, truth = _dice_read(TOUCHING, tilt, DIM)
    assert read == truth


def test_a_phantom_die_does_not_make_a_white_face_the_kobold_blank():
    # the reader corpus's table 116 of seed 21 (daylight, 3° of tilt, dark green mat): a patch
    # beside the blue die, partly its colour, was read as a red die at 0.14, and with four dice
    # and no marks the white die was read as the kobold die's blank
    read, truth = _corpus_tray(116)
    assert read == truth == Counter({("colour", "violet"): 1, ("colour", "white"): 1, ("colour", "blue"): 1})


#: the kobold die showing the kobold's head among three colour dice
KOBOLD_HEAD = (Die("colour", "orange", 93, 261, 76, 1), Die("colour", "red", 119, 247, 77, 2),
               Die("colour", "orange", 129, 289, 42, 0), Die("kobold", "kobold", 75, 226, 49, 1))


@pytest.mark.parametrize("tilt", [11.0, 30.0])
def test_the_kobold_head_is_read(tilt):
    # before: the kobold die showing its head was not found (the head, blurred, looks as grey
    # as the grey mat, and what is left of the ivory face is a thin ring)
    light = Light(60.0, 75.0, (0.22, 0.22, 0.22), (0.62, 0.64, 0.66))
    read, truth = _dice_read(KOBOLD_HEAD, tilt, light)
    assert read == truth


def test_a_white_die_is_placed_by_its_light_face_not_its_shadow():
    # the reader corpus's table 91 of seed 21 (low sun, 11° of tilt, dark green mat): the
    # white die was placed half on its shadow (the kobold die's face class takes in dark marks,
    # and a shadow is as dark), the shadow beside it read as a violet die at 0.65, and with four
    # dice and no marks the white die was read as the kobold die's blank
    read, truth = _corpus_tray(91)
    assert read == truth == Counter({("colour", "violet"): 1, ("colour", "white"): 1, ("colour", "orange"): 1})
