"""The synthetic table's ground truth agrees with its pictures: pieces are drawn where the shared
camera model projects them, nearer bodies hide farther ones, and the truth is counted on the
lattice the observation format defines."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.synth.generate import corpus_item, giant_squares, random_mountain
from companion.synth.render import CUBE_ID, render
from companion.synth.scene import Giant, Lattice, Light, Scene, Shot
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.hlc.layout import DEFAULT_LAYOUT

ANCHOR = DEFAULT_LAYOUT.anchor_xy


def _view(tilt: float, az: float = 90.0, height: float = 700.0, dist=(0.0, 0.0, 0.0, 0.0, 0.0)) -> View:
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(70) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), dist, source="synthetic")
    a = math.radians(az)
    back = height * math.tan(math.radians(tilt))
    eye = (ANCHOR[0] - math.cos(a) * back, ANCHOR[1] - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (ANCHOR[0], ANCHOR[1], 0.0), (math.cos(a), math.sin(a), 0.0)))


def _clean_shot(view: View) -> Shot:
    return Shot(view=view, light=Light(40.0, 70.0, (0.7, 0.7, 0.7), (0.3, 0.3, 0.3)), table="laminate",
                noise=0.0, blur=0.0, jpeg=None, seed=3)


def _corners(lattice: Lattice, cube: tuple[int, int, int]) -> np.ndarray:
    i, j, k = cube
    foot = lattice.to_table(np.array([[i, j], [i + 2, j], [i + 2, j + 2], [i, j + 2]], float))
    return np.array([[x, y, z] for z in (40.0 * k, 40.0 * (k + 1)) for x, y in foot])


@pytest.mark.parametrize("dist", [(0.0, 0.0, 0.0, 0.0, 0.0), (-0.28, 0.09, 0.001, -0.001, 0.0)])
def test_cube_corners_land_where_the_view_projects_them(dist):
    lattice = Lattice((ANCHOR[0] - 95.0, ANCHOR[1] - 60.0), 17.0)
    cube = (0, 0, 0)
    view = _view(25.0, az=60.0, dist=dist)
    out = render(Scene(lattice, (cube,)), _clean_shot(view))
    mask = (out.truth.ids == CUBE_ID).astype(np.uint8)
    assert mask.sum() > 500, "the cube should cover a good patch of the frame"
    projected = view.project(_corners(lattice, cube)).astype(np.float32)
    hull = cv2.convexHull(projected)
    # every pixel the renderer gave the cube lies inside the projected silhouette (1.5 px slack) ...
    ys, xs = np.nonzero(mask)
    inside = [cv2.pointPolygonTest(hull, (float(x), float(y)), True) for x, y in zip(xs[::7], ys[::7])]
    assert min(inside) > -1.5
    # ... and each silhouette corner has cube pixels within 1.5 px of it
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    for corner in hull.reshape(-1, 2):
        assert np.min(np.linalg.norm(pts - corner, axis=1)) < 1.5
    # the picture itself: just inside the top face's corners the image shows orange wood, on
    # the table beside the cube the grey laminate
    img = out.image.astype(int)
    top = _corners(lattice, cube)[4:]
    centre = top.mean(axis=0)
    for corner in top:
        x, y = np.round(view.project((centre + (corner - centre) * 0.8)[None])[0]).astype(int)
        assert img[y, x, 2] - img[y, x, 0] > 40
    ring = centre + (top - centre) * 1.6
    ring[:, 2] = 0.0
    for x, y in np.round(view.project(ring)).astype(int):
        if mask[y, x]:
            continue  # behind the cube from this side
        assert abs(img[y, x, 2] - img[y, x, 0]) < 25


def test_a_taller_stack_in_front_hides_the_cube_behind_it():
    lattice = Lattice((ANCHOR[0] - 20.0, ANCHOR[1] - 20.0), 0.0)
    tower = tuple((0, 0, k) for k in range(5))
    behind = (0, 3, 0)  # 20 mm behind the tower, seen from -y
    scene = Scene(lattice, tower + (behind,))
    back_index = len(tower)
    # the camera looks along +y, low: the 200 mm tower stands between it and the small cube
    front = render(scene, _clean_shot(_view(35.0, az=90.0, height=620.0)))
    seen = {c.cell: c for c in front.truth.cubes if c.level == 0}
    hidden = front.truth.cubes[back_index]
    assert hidden.visible < 0.02 and not hidden.expected
    # where the hidden cube projects, the id map shows the tower
    ids = front.truth.ids
    for p in front.truth.view.project(_corners(lattice, behind)[4:]):
        x, y = int(round(p[0])), int(round(p[1]))
        assert CUBE_ID <= ids[y, x] < CUBE_ID + len(tower)
    # seen from the other side, the small cube is in front and fully visible
    back = render(scene, _clean_shot(_view(35.0, az=-90.0, height=620.0)))
    assert back.truth.cubes[back_index].visible > 0.9
    assert all(c.expected for c in back.truth.cubes)
    assert seen  # the tower's base was listed


def test_cubes_under_a_visible_cube_are_expected_even_when_unseen():
    lattice = Lattice((ANCHOR[0] - 40.0, ANCHOR[1] - 40.0), 5.0)
    # a 2×2 platform with one cube on top, seen straight down: the platform's middle is hidden
    cubes = ((0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0), (1, 1, 1))
    out = render(Scene(lattice, cubes), _clean_shot(_view(0.0)))
    assert all(c.expected for c in out.truth.cubes)
    assert len(list(out.truth.observation.of_kind("cube"))) == 5


def test_truth_is_counted_on_the_normalised_lattice():
    scene, shot = corpus_item(5, 3)
    out = render(scene, shot)
    lat = out.truth.lattice
    assert -45.0 < lat.angle_deg <= 45.0
    # the origin is the lattice point nearest the anchor
    uv = lat.to_cells(np.array([ANCHOR]))[0]
    assert np.all(np.abs(uv) <= 0.5 + 1e-9)
    # every cube's cell, on that lattice, is where the cube physically is
    for c in out.truth.cubes:
        ctr = lat.to_table(np.array([[c.cell[0] + 1.0, c.cell[1] + 1.0]]))[0]
        assert np.linalg.norm(ctr - np.array(c.xyz[:2])) < 1e-6
        assert math.isclose(c.xyz[2], 40.0 * (c.level + 1))
    for g in out.truth.giants:
        ctr = lat.to_table(np.array([[g.cell[0] + 0.5, g.cell[1] + 0.5]]))[0]
        assert np.linalg.norm(ctr - np.array(g.xyz[:2])) < 1e-6


def test_rendering_is_deterministic():
    scene, shot = corpus_item(9, 0, hand_probability=1.0)
    a = render(scene, shot).image
    b = render(scene, shot).image
    assert a.shape == (720, 1280, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)


def test_table_markers_are_found_where_the_layout_puts_them():
    scene, shot = corpus_item(2, 1)
    out = render(scene, shot)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = det.detectMarkers(out.image)
    assert ids is not None and sorted(int(i) for i in ids.ravel()) == [0, 1, 2, 3]
    view = shot.view
    for c, i in zip(corners, ids.ravel()):
        expected = view.project(DEFAULT_LAYOUT.marker_corners(int(i)))
        assert np.max(np.linalg.norm(c.reshape(4, 2) - expected, axis=1)) < 1.5


def test_generated_mountains_rest_on_full_bases():
    rng = np.random.default_rng(4)
    for _ in range(30):
        cubes = random_mountain(rng, int(rng.integers(12, 25)), 6, 5.5)
        heights: dict = {}
        for i, j, k in cubes:  # in placement order, every cube sits on four cells at its level
            cells = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)]
            assert all(heights.get(c, 0) == k for c in cells)
            assert k < 6
            for c in cells:
                heights[c] = k + 1
        tops, table = giant_squares(cubes)
        assert all(heights[(i, j)] == lvl for i, j, lvl in tops)
        assert all((i, j) not in heights and lvl == 0 for i, j, lvl in table)


def test_a_giant_on_a_top_is_drawn_on_it():
    lattice = Lattice((ANCHOR[0] - 20.0, ANCHOR[1] - 20.0), 0.0)
    scene = Scene(lattice, ((0, 0, 0), (0, 0, 1)), (Giant("red", (1, 1), 2),))
    out = render(scene, _clean_shot(_view(20.0)))
    g = out.truth.giants[0]
    assert g.level == 2 and g.visible > 0.8
    foot = np.array([[g.xyz[0], g.xyz[1], 80.0 + 14.0]])
    p = out.truth.view.project(foot)[0]
    b, gch, r = out.image[int(round(p[1])), int(round(p[0]))].astype(int)
    assert r > 2 * gch and r > 2 * b, "the giant's body is red where the view projects it"
