"""The reader's bulk projection (:meth:`BoardGeometry.project_layers`, float32, every height at
once) puts each point where the plain projection of that point lifted to that height does."""

from __future__ import annotations

import numpy as np

from companion.synth.terra.corpus import corpus
from companion.vision.terra.features import _TOP, BLOCK_MM, HEIGHTS
from companion.vision.terra.geometry import BoardGeometry


def test_project_layers_is_the_projection_of_each_lifted_point():
    item = next(iter(corpus(1, seed=44, tilt_deg=(25.0, 30.0))))
    geo = BoardGeometry(item.shot.view)
    assert any(item.shot.view.camera.dist)  # the lens's distortion is part of it
    centres = np.array([[13.5 + 27.0 * (k % 10), 13.5 + 27.0 * (k // 10)] for k in (0, 9, 45, 90, 99)])
    for xy in (centres[:, None, :] + _TOP[None, :, :], centres):   # points of squares; one a square
        zs = HEIGHTS * BLOCK_MM
        layers = geo.project_layers(xy, zs)
        assert layers.shape == (len(zs),) + xy.shape
        for k, z in enumerate(zs):
            lifted = np.concatenate([xy, np.full(xy.shape[:-1] + (1,), z)], axis=-1)
            assert np.allclose(layers[k], geo.project(lifted), atol=2e-3)
