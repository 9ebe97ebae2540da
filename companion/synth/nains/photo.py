"""A La Ville des Nains scene photographed: the frame and its ground truth together."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.synth.nains.render import render_nains
from companion.synth.nains.scene import NainsScene
from companion.synth.nains.truth import NainsTruth, make_truth
from companion.synth.scene import Shot


@dataclass(frozen=True)
class Photo:
    """A rendered frame (BGR uint8, the camera's size) and its ground truth."""

    image: np.ndarray
    truth: NainsTruth


def photograph(scene: NainsScene, shot: Shot) -> Photo:
    """Draw ``scene`` as ``shot``'s camera sees it, with exact ground truth."""
    rendered = render_nains(scene, shot)
    return Photo(rendered.image, make_truth(scene, shot, rendered))
