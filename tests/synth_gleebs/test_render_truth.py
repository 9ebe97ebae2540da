"""The synthetic table draws pyramids where the shared camera model puts them, hides what is
nested or behind, and its truth is the observation the rules engine expects of the same
position."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.boards import GLEEBS_BOARD
from calibration.markers import detect_markers
from companion.games.gleebs_and_grues import GleebsAndGrues
from companion.games.gleebs_and_grues.scripts import demo_script
from companion.synth.gleebs.generate import random_hand
from companion.synth.gleebs.render import PYRAMID_ID, SHEET_ID, render
from companion.synth.gleebs.scene import GleebsScene, Pyramid, Stack
from companion.vision.gleebs.geometry import pyramid_points

from .gleebs_views import BOARD, clean_shot, view

P = Pyramid


def _keys(observation):
    return sorted((tuple(p.cell), p.level, p.get("colour"), p.get("size")) for p in observation.pieces)


@pytest.mark.parametrize("dist", [(0.0, 0.0, 0.0, 0.0, 0.0), (-0.25, 0.08, 0.001, -0.001, 0.0)])
def test_a_pyramid_is_drawn_where_the_view_projects_it(dist):
    stack = Stack((1, 2), (P("red", "large"),), (2.0, -1.5), (20.0,))
    scene = GleebsScene(board=BOARD, stacks=(stack,))
    v = view(25.0, dist=dist)
    out = render(scene, clean_shot(v))
    mask = (out.truth.ids == PYRAMID_ID).astype(np.uint8)
    assert mask.sum() > 400, "the pyramid should cover a good patch of the frame"
    pts = pyramid_points(scene.axis(stack), 0.0, "large", 20.0 + BOARD.yaw_deg)
    hull = cv2.convexHull(v.project(pts).astype(np.float32))
    ys, xs = np.nonzero(mask)
    inside = [cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in zip(xs[::5], ys[::5])]
    assert min(inside) > -1.5
    filled = np.zeros_like(mask)
    cv2.fillConvexPoly(filled, np.round(hull).astype(np.int32), 1)
    # the silhouette drawn is the projected hull, give or take the edge pixels
    assert abs(int(filled.sum()) - int(mask.sum())) < 0.08 * filled.sum()
    # and its colour is red
    b, g, r = out.image[ys, xs].astype(int).mean(axis=0)
    assert r > b + 40 and r > g + 40


def test_the_board_markers_are_printed_where_boards_py_says():
    scene = GleebsScene(board=BOARD)
    v = view(20.0)
    out = render(scene, clean_shot(v))
    found = {d.id: d for d in detect_markers(out.image, ids=(4, 5, 6, 7))}
    assert sorted(found) == [4, 5, 6, 7]
    for m in GLEEBS_BOARD.markers:
        corners = BOARD.to_table(m.corners())
        expected = v.project(corners)
        assert np.max(np.linalg.norm(found[m.id].corners - expected, axis=1)) < 0.8
    assert np.count_nonzero(out.truth.ids == SHEET_ID) > 10_000


def test_a_swallowed_pyramid_is_neither_drawn_nor_expected():
    scene = GleebsScene(board=BOARD, stacks=(
        Stack((0, 0), (P("red", "small"), P("blue", "large"))),
        Stack((2, 1), (P("green", "large"), P("yellow", "small"))),
    ))
    out = render(scene, clean_shot(view(0.0)))
    assert _keys(out.truth.observation) == [((0, 0), 0, "blue", "large"), ((2, 1), 0, "green", "large"),
                                            ((2, 1), 1, "yellow", "small")]
    assert out.truth.nested == (((0, 0), "red", "small"),)
    # the small yellow seated on the large green shows all of itself, the green its rim
    by_colour = {p.colour: p for p in out.truth.pyramids}
    assert by_colour["yellow"].visible > 0.9 and by_colour["green"].visible > 0.9


def test_the_truth_is_what_the_rules_engine_expects_of_the_same_position():
    from companion.demo.gleebs import scene_for

    game = GleebsAndGrues()
    script = demo_script()
    state = game.setup(script.players)
    v = view(0.0, height=700.0, hfov=60.0)
    for k, step in enumerate(script.steps):
        if step.kind != "play":
            continue
        state = game.apply(state, game.move_from_json(step.move))
        if k % 6:
            continue
        out = render(scene_for(state, board=BOARD), clean_shot(v, seed=k))
        assert _keys(out.truth.observation) == _keys(game.expected_observation(state)), f"step {k}"


def test_an_arm_over_the_board_makes_a_hand_frame_and_one_elsewhere_does_not():
    scene = GleebsScene(board=BOARD, stacks=(Stack((1, 1), (P("red", "medium"),)),))
    rng = np.random.default_rng(4)
    v = view(15.0, height=800.0, hfov=75.0)
    over = render(scene.with_hand(random_hand(rng, scene)), clean_shot(v))
    assert over.truth.hand and over.truth.observation.hand and not over.truth.observation.pieces
    away = None
    for _ in range(10):
        hand = random_hand(rng, scene, over_board=False)
        out = render(scene.with_hand(hand), clean_shot(v))
        if out.truth.hand_in_view and not out.truth.hand:
            away = out
            break
    assert away is not None, "an arm reaching beside the board should show without covering it"
    assert _keys(away.truth.observation) == [((1, 1), 0, "red", "medium")]


def test_a_render_is_the_same_every_time():
    scene = GleebsScene(board=BOARD, stacks=(Stack((3, 3), (P("black", "small"),)),))
    shot = clean_shot(view(10.0))
    assert np.array_equal(render(scene, shot).image, render(scene, shot).image)


def test_a_scene_refuses_impossible_positions():
    with pytest.raises(ValueError, match="twice"):
        GleebsScene(stacks=(Stack((0, 0), (P("red", "small"),)), Stack((1, 0), (P("red", "small"),))))
    with pytest.raises(ValueError, match="not on the 4"):
        GleebsScene(stacks=(Stack((4, 0), (P("red", "small"),)),))
    with pytest.raises(ValueError, match="colour"):
        P("purple", "small")
