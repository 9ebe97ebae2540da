"""A smaller pyramid seated on a larger one of its own colour, turned against it, is read from
its faces: its outline is the lower one's, but its four faces, with their own tones, cut across
the lower one's. Before, each of these stacks was read as the lower pyramid alone. Lone pyramids
in the same frames (faces of uneven tone from a highlight, light bounced off the paper, a
neighbour's shadow) stay one pyramid.

Set-ups of the benchmark corpus (``companion bench vision_gleebs --positions 320``)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.boards import GLEEBS_BOARD
from companion.vision.gleebs.faces import _faces
from companion.vision.gleebs.geometry import pyramid_points
from tests.vision_gleebs.conftest import chains, read_session


@pytest.mark.parametrize("seed, session, position, cell", [
    (11, 10, 0, (0, 0)),  # a green small on a green medium, turned 39° against it, daylight
    (11, 25, 3, (0, 1)),  # a green medium on a green large, turned 26°, low sun
    (7, 40, 3, (2, 2)),   # a green small on a green medium, daylight, 13° of tilt
])
def test_a_pyramid_seated_on_one_of_its_colour_is_read(seed, session, position, cell):
    item, seen, _ = read_session(seed, session, position)
    truth = chains(item.truth.observation)
    assert len(truth[cell]) == 2 and truth[cell][0][0] == truth[cell][1][0]
    assert seen is not None and not seen.hand
    read = chains(seen)
    assert read.get(cell) == truth[cell]
    # no lone pyramid of the frame is read as two
    for other, chain in truth.items():
        assert len(read.get(other, [])) <= len(chain), f"{other}: read {read.get(other)}, is {chain}"


def test_the_faces_seen_are_those_facing_the_camera():
    # the faces' outlines on the plane, written out for speed, against the geometry's pyramid
    # and the rectifier's ground projection, for cameras all round and above
    item, _, reader = read_session(11, 10, 0)
    rect = reader._plane.rect
    rng = np.random.default_rng(3)
    for _ in range(200):
        C = np.array([rng.uniform(-300, 500), rng.uniform(-300, 500), rng.uniform(400, 900)])
        axis = rng.uniform(0, GLEEBS_BOARD.width_mm, 2)
        z0, size, yaw = float(rng.choice([0.0, 9.8, 21.6])), str(rng.choice(["small", "medium", "large"])), rng.uniform(-45, 90)
        off = np.array([rng.integers(0, 100), rng.integers(0, 100)], float)
        pts = pyramid_points(axis, z0, size, yaw)
        s = C[2] / (C[2] - pts[:, 2])
        flat = C[:2] + (pts[:, :2] - C[:2]) * s[:, None]
        px = ((flat - [rect.x0, rect.y0]) * rect.ppm - 0.5 - off) * 16
        want = []
        for k in range(4):
            p0, p1 = pts[k], pts[(k + 1) % 4]
            n = np.cross(p1 - p0, pts[4] - p0)
            if n @ (C - (p0 + p1 + pts[4]) / 3) > 0:
                want.append(px[[k, (k + 1) % 4, 4]])
        got = _faces(rect, C, axis, z0, size, yaw, off)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert np.abs(g - w).max() <= 1.0
