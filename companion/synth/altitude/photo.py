"""An Altitude scene photographed: the frame and its ground truth together."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.synth.altitude.render import render_table
from companion.synth.altitude.scene import AltitudeScene
from companion.synth.altitude.truth import AltitudeTruth, make_truth
from companion.synth.scene import Shot


@dataclass(frozen=True)
class Photo:
    """A rendered frame (BGR uint8, the camera's size) and its ground truth."""

    image: np.ndarray
    truth: AltitudeTruth


def photograph(scene: AltitudeScene, shot: Shot) -> Photo:
    """Draw ``scene`` as ``shot``'s camera sees it, with exact ground truth."""
    rendered = render_table(scene, shot)
    return Photo(rendered.image, make_truth(scene, shot, rendered))
