"""Rendering La Ville des Nains: pieces where the camera model puts them, the ground truth, the
colour calibration shot, and videos."""

from __future__ import annotations

import numpy as np

from companion.synth.nains.colour_shot import learn_colours
from companion.synth.nains.photo import photograph
from companion.synth.nains.render import PIECE_ID, render_nains
from companion.synth.nains.scene import Building, Die, Loose, NainsScene, pieces
from companion.synth.nains.sequence import NainsSequenceSource, plan
from companion.synth.scene import Hand

from .conftest import clean_shot, view_at

SCENE = NainsScene(
    pool=(Loose("red", "cube", 250.0, 200.0, 10.0), Loose("violet", "long", 330.0, 260.0, 70.0)),
    buildings=(Building("white", 1, (("yellow", "cylinder", 0), ("orange", "roof", 90))),),
    tower=3,
    dice=(Die("colour", "blue", 80.0, 220.0, 15.0), Die("kobold", "kobold", 120.0, 270.0, 40.0)),
)


def test_every_piece_shows_where_the_camera_model_puts_it():
    shot = clean_shot(view_at(25.0))
    r = render_nains(SCENE, shot)
    assert r.image.shape == (720, 1280, 3) and r.ids.shape == (720, 1280)
    all_pieces = pieces(SCENE)
    for n, p in enumerate(all_pieces):
        covered = any(q.zone == p.zone and q.building == p.building and q.level is not None and p.level is not None
                      and q.level == p.level + 1 for q in all_pieces)
        if covered:
            continue  # a stone with another on it shows its sides, not its top
        top = np.array([[p.solid.centre[0], p.solid.centre[1], p.solid.top_z - 0.5]])
        u, v = np.round(shot.view.project(top)[0]).astype(int)
        assert r.ids[v, u] == PIECE_ID + n, f"piece {n} ({p.kind} {p.colour}{p.face})"
    # a stone's colour is its paint: the red cube's top is redder than it is green or blue
    cube = next(n for n, p in enumerate(pieces(SCENE)) if p.colour == "red")
    px = r.image[r.ids == PIECE_ID + cube].astype(float)
    assert px[:, 2].mean() > px[:, 1].mean() + 40 and px[:, 2].mean() > px[:, 0].mean() + 40


def test_truth_is_the_documented_observation_with_what_shows():
    photo = photograph(SCENE, clean_shot(view_at(25.0)))
    obs = photo.truth.observation
    zones = sorted({p.zone for p in obs.pieces})
    assert zones == ["kobold", "player:white", "pool", "tray"]
    assert sorted((p.get("die"), p.get("face")) for p in obs.pieces if p.kind == "die") == [
        ("colour", "blue"), ("kobold", "kobold")]
    built = sorted((p.level, p.get("colour"), p.get("shape"), p.get("building")) for p in obs.pieces if p.zone == "player:white")
    assert built == [(0, "yellow", "cylinder", 1), (1, "orange", "roof", 1)]
    assert [p.level for p in obs.pieces if p.zone == "kobold"] == [0, 1, 2]
    assert all(0.0 < t.visible <= 1.0 for t in photo.truth.pieces)
    assert photo.truth.tower == 3 and not photo.truth.hand


def test_an_arm_over_the_table_is_in_the_truth():
    hand = Hand((300.0, -300.0, 250.0), (300.0, 180.0, 160.0))
    photo = photograph(SCENE.with_hand(hand), clean_shot(view_at(20.0)))
    assert photo.truth.hand and photo.truth.hand_over_table


def test_the_colour_calibration_learns_the_palette_apart():
    from companion.vision.colours import colour_distance

    model = learn_colours(SCENE, clean_shot(view_at(25.0)))
    assert set(model.names) == {"red", "orange", "yellow", "violet", "blue", "white"}
    for a in ("red", "orange", "yellow", "violet", "blue"):
        for b in ("red", "orange", "yellow", "violet", "blue"):
            if a < b:
                assert colour_distance(model, a, b) > 2.5, (a, b)


def test_a_video_shows_each_position_still_after_an_arm_made_it():
    second = NainsScene(pool=SCENE.pool[1:], buildings=(Building("white", 1, (("yellow", "cylinder", 0), ("orange", "roof", 90))),
                                                         Building("green", 0, (("red", "cube", 0),))),
                        tower=3, dice=SCENE.dice)
    frames = plan([SCENE, second], still_frames=2, hand_frames=3, seed=1)
    assert [(f.step, f.hand is None) for f in frames] == [(0, True), (0, True), (1, False), (1, False), (1, False), (1, True), (1, True)]
    src = NainsSequenceSource([SCENE, second], clean_shot(view_at(25.0)), still_frames=2, hand_frames=3, seed=1)
    out = []
    while (f := src.read()) is not None:
        out.append(f)
    assert len(out) == len(src) == 7
    assert [f.truth["still"] for f in out] == [True, True, False, False, False, True, True]
    assert out[2].truth["hand"] and out[2].truth["hand_over_table"]
    assert float(np.abs(out[2].image.astype(int) - out[0].image.astype(int)).mean()) > 3.0
    assert out[-1].truth["observation"] != out[0].truth["observation"]
    assert [f.t for f in out] == [k / 30.0 for k in range(7)]
