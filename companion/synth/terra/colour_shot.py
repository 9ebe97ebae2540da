"""The colour calibration of a synthetic table: the flags shown to the camera under its light.

At a real table, ``companion calibrate colours --game terra-turrium`` learns the flags' colours
from the pieces the user shows under the table's own light. The synthetic equivalent renders the
board with one flag of each colour standing on a one-block tower, through the very camera and
light of a shot, takes each head's pixels from the id map (eroded, so no edge pixel counts) and
fits a :class:`~companion.vision.colours.ColourModel` with the white of the paper around the
markers, as the real calibration does.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from calibration.markers import detect_markers, marker_white
from companion.synth.scene import Shot
from companion.synth.terra.render import FLAG_ID, render_terra
from companion.synth.terra.scene import Flag, TerraScene
from companion.vision.colours import ColourModel
from companion.vision.terra.kit import FLAG_COLOURS

#: where the calibration flags stand (one per territory, on one-block towers)
_CELLS = ((2, 2), (7, 2), (7, 7), (2, 7))


def calibration_scene(like: TerraScene) -> TerraScene:
    heights = [0] * 100
    for x, y in _CELLS:
        heights[y * 10 + x] = 1
    flags = tuple(Flag(c, cell) for c, cell in zip(FLAG_COLOURS, _CELLS))
    return replace(like, heights=tuple(heights), flags=flags, hand=None)


def learn_colours(like: TerraScene, shot: Shot) -> ColourModel:
    """The flags' colour model as calibration would learn it for ``shot``'s camera and light,
    the board lying as in ``like``."""
    scene = calibration_scene(like)
    rendered = render_terra(scene, replace(shot, seed=shot.seed + 101))
    samples = {}
    for n, colour in enumerate(FLAG_COLOURS):
        mask = (rendered.ids == FLAG_ID + n).astype(np.uint8)
        mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
        px = rendered.image[mask > 0]
        if len(px) < 10:
            raise RuntimeError(f"the {colour} flag shows too little for a colour calibration")
        samples[colour] = px
    white = marker_white(rendered.image, detect_markers(rendered.image, refine=False))
    return ColourModel.learn(samples, white)
