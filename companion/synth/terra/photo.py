"""A Terra Turrium scene photographed: the frame and its ground truth together."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.synth.scene import Shot
from companion.synth.terra.render import render_terra
from companion.synth.terra.scene import TerraScene
from companion.synth.terra.truth import TerraTruth, make_truth


@dataclass(frozen=True)
class Photo:
    """A rendered frame (BGR uint8, the camera's size) and its ground truth."""

    image: np.ndarray
    truth: TerraTruth


def photograph(scene: TerraScene, shot: Shot, frame: int | None = None) -> Photo:
    """Draw ``scene`` as ``shot``'s camera sees it, with exact ground truth (``frame``: a
    video's frame number, for its own sensor noise)."""
    rendered = render_terra(scene, shot, frame)
    return Photo(rendered.image, make_truth(scene, shot, rendered))
