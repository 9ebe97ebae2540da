"""The synthetic Terra Turrium table draws what the shared camera model predicts: block tops
where the View projects a plane at h × 25 mm, nearer towers hiding farther ones, flags on their
towers, the board's markers where calibration looks for them."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.markers import detect_markers
from companion.synth.terra.photo import photograph
from companion.synth.terra.render import FLAG_ID, HAND_ID, SIDE_ID, TOP_ID, render_terra
from companion.synth.terra.scene import Flag, TerraScene
from companion.synth.terra.truth import board_view
from companion.vision.terra.kit import BLOCK_MM, SQUARE_MM, head_centre_z

from .conftest import clean_shot, flat, view_of


def _top_quad(bview, x, y, h, scene):
    dx, dy, _ = scene.block_offsets(x, y)[-1]
    cx, cy = (x + 0.5) * SQUARE_MM + dx, (y + 0.5) * SQUARE_MM + dy
    half = BLOCK_MM / 2
    c = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]])
    return bview.project(np.column_stack([c, np.full(4, h * BLOCK_MM)]))


@pytest.mark.parametrize("dist", [(0.0, 0.0, 0.0, 0.0, 0.0), (-0.25, 0.08, 0.001, -0.001, 0.0)])
@pytest.mark.parametrize("height", [1, 4])
def test_a_tower_top_lies_where_the_view_projects_its_plane(board_scene, dist, height):
    heights = list(flat(0))
    heights[4 * 10 + 6] = height
    scene = replace(board_scene, heights=tuple(heights))
    view = view_of(scene, 25.0, dist=dist)
    out = render_terra(scene, clean_shot(view))
    mask = out.ids == TOP_ID + 46
    assert mask.sum() > 300, "the tower's top should cover a good patch of the frame"
    quad = _top_quad(board_view(scene, view), 6, 4, height, scene).astype(np.float32)
    ys, xs = np.nonzero(mask)
    inside = [cv2.pointPolygonTest(quad, (float(x), float(y)), True) for x, y in zip(xs[::5], ys[::5])]
    assert min(inside) > -1.5
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    for corner in quad:
        assert np.min(np.linalg.norm(pts - corner, axis=1)) < 1.5
    # a top one block lower or higher would lie visibly elsewhere at this tilt
    for other in (height - 1, height + 1):
        shifted = _top_quad(board_view(scene, view), 6, 4, other, scene)
        assert np.max(np.linalg.norm(shifted - quad, axis=1)) > 6.0


def test_a_tall_tower_hides_the_square_behind_it(board_scene):
    heights = list(flat(1))
    view = view_of(board_scene, 32.0, az_deg=90.0)  # looking along +y
    heights[4 * 10 + 5] = 6  # the tower in front ...
    scene = replace(board_scene, heights=tuple(heights), board_yaw_deg=0.0)
    view = view_of(scene, 32.0, az_deg=90.0)
    photo = photograph(scene, clean_shot(view))
    behind, front, aside = 5 * 10 + 5, 4 * 10 + 5, 5 * 10 + 2
    assert photo.truth.visible[front] > 0.95
    assert photo.truth.visible[behind] < 0.05  # ... hides the top of the square behind it
    assert photo.truth.visible[aside] > 0.9
    assert not photo.truth.readable(behind)


def test_flags_stand_on_their_towers(board_scene):
    heights = list(flat(1))
    heights[2 * 10 + 3] = 3
    flags = (Flag("red", (3, 2)), Flag("blue", (7, 7)))
    scene = replace(board_scene, heights=tuple(heights), flags=flags)
    view = view_of(scene, 20.0)
    out = render_terra(scene, clean_shot(view))
    bview = board_view(scene, view)
    for n, f in enumerate(flags):
        ys, xs = np.nonzero(out.ids == FLAG_ID + n)
        assert len(xs) > 40, f"the {f.colour} head should show"
        h = scene.height(*f.cell)
        want = bview.project(np.array([[(f.cell[0] + 0.5) * SQUARE_MM, (f.cell[1] + 0.5) * SQUARE_MM,
                                        head_centre_z(h)]]))[0]
        assert np.linalg.norm(np.array([xs.mean(), ys.mean()]) - want) < 4.0
        # the head's colour is the flag's: its strongest channel
        bgr = out.image[ys, xs].mean(axis=0)
        strongest = {"red": 2, "blue": 0}[f.colour]
        assert int(np.argmax(bgr)) == strongest


def test_the_board_markers_are_drawn_where_the_board_says(board_scene):
    from companion.vision.terra.kit import BOARD

    view = view_of(board_scene, 15.0)
    out = render_terra(board_scene, clean_shot(view))
    found = {d.id: d for d in detect_markers(out.image) if d.id in (4, 5, 6, 7)}
    assert len(found) == 4
    bview = board_view(board_scene, view)
    for mid, det in found.items():
        want = bview.project(np.column_stack([BOARD.marker(mid).corners()[:, :2], np.zeros(4)]))
        assert np.max(np.abs(det.corners - want)) < 0.8


def test_the_seams_between_blocks_show_on_a_towers_side(board_scene):
    heights = list(flat(0))
    heights[5 * 10 + 5] = 5
    scene = replace(board_scene, heights=tuple(heights), board_yaw_deg=0.0)
    view = view_of(scene, 34.0, az_deg=90.0)
    out = render_terra(scene, clean_shot(view))
    bview = board_view(scene, view)
    grey = cv2.cvtColor(out.image, cv2.COLOR_BGR2GRAY).astype(float)
    side = out.ids == SIDE_ID + 55
    assert side.sum() > 500
    # along the face turned to the camera (−y), the grey level at the seams (z = 25, 50, ...:
    # a rounded edge, or the ledge of a block set a little back) differs from half-way between
    x = 5.5 * SQUARE_MM
    y = 5 * SQUARE_MM + (SQUARE_MM - BLOCK_MM) / 2 - 0.2
    seams = bview.project(np.array([[x, y, k * BLOCK_MM] for k in (1, 2, 3, 4)]))
    mids = bview.project(np.array([[x, y, (k + 0.5) * BLOCK_MM] for k in (1, 2, 3)]))
    at = lambda p: grey[int(round(p[1])), int(round(p[0]))]  # noqa: E731
    assert abs(np.mean([at(p) for p in seams]) - np.mean([at(p) for p in mids])) > 5


def test_a_hand_is_drawn_over_everything_and_marked_in_the_truth(board_scene):
    from companion.synth.terra.generate import random_hand

    scene = replace(board_scene, heights=flat(2))
    rng = np.random.default_rng(4)
    centre = scene.board_centre()
    hand = random_hand(rng, scene, (float(centre[0]), float(centre[1])))
    view = view_of(scene, 20.0)
    photo = photograph(scene.with_hand(hand), clean_shot(view))
    assert photo.truth.hand
    assert photo.truth.hand_over_board
    out = render_terra(scene.with_hand(hand), clean_shot(view))
    assert (out.ids == HAND_ID).sum() > 2000
    assert photo.truth.observation.pieces  # the truth still lists the position under the arm


def test_rendering_is_repeatable(board_scene):
    scene = replace(board_scene, heights=flat(2))
    shot = replace(clean_shot(view_of(scene, 20.0)), noise=3.0, jpeg=80, blur=0.8)
    a = render_terra(scene, shot).image
    b = render_terra(scene, shot).image
    assert np.array_equal(a, b)
    c = render_terra(scene, replace(shot, seed=shot.seed + 1)).image
    assert not np.array_equal(a, c)  # the sensor's noise differs from frame to frame
