"""The synthetic La Ville des Nains table: scenes, dice, random tables, views."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.nains.generate import NainsRanges, corpus_item, must_see, random_pool
from companion.synth.nains.scene import Building, Die, Loose, NainsScene, building_solids, pieces
from companion.vision.nains.kit import COLOUR_FACES, KOBOLD_FACES, STONE_MM
from companion.vision.nains.solids import footprint
from companion.vision.nains.zones import DEFAULT_ZONES


@pytest.mark.parametrize("kind,faces", [("colour", COLOUR_FACES), ("kobold", KOBOLD_FACES)])
def test_a_die_shows_the_face_asked_whichever_way_it_spins(kind, faces):
    for face in faces:
        for spin in range(4):
            labels = Die(kind, face, 0.0, 0.0, 0.0, spin).labels()
            assert labels["+z"] == face
            assert len(labels) == 6
    # the colour die carries each of its six colours once
    assert sorted(Die("colour", "red", 0, 0).labels().values()) == sorted(COLOUR_FACES)


def test_scenes_refuse_what_cannot_stand():
    with pytest.raises(ValueError, match="roof only goes on top"):
        Building("green", 0, (("red", "roof", 0), ("red", "cube", 0)))
    with pytest.raises(ValueError, match="seat"):
        Building("purple", 0, (("red", "cube", 0),))
    with pytest.raises(ValueError, match="two buildings on one slot"):
        NainsScene(buildings=(Building("green", 0, (("red", "cube", 0),)), Building("green", 0, (("red", "cube", 0),))))
    with pytest.raises(ValueError, match="no slot"):
        NainsScene(buildings=(Building("green", 9, (("red", "cube", 0),)),))
    with pytest.raises(ValueError, match="no face"):
        Die("kobold", "3", 0, 0)


def test_a_building_stands_on_its_slot_stone_on_stone():
    scene = NainsScene(buildings=(Building("cyan", 4, (("red", "cube", 0), ("orange", "long", 90), ("yellow", "roof", 0))),))
    solids = building_solids(scene, scene.buildings[0])
    slot = np.array(DEFAULT_ZONES.area("cyan").slots[4])
    for k, s in enumerate(solids):
        assert s.centre[2] == k * STONE_MM
        assert np.hypot(*(np.array(s.centre[:2]) - slot)) < 8.0
    # the long block lies across the others, the building squared to the far edge (turned 180°)
    assert abs(((solids[1].yaw_deg - solids[0].yaw_deg) % 180.0) - 90.0) < 8.0
    # the same scene places its stones the same way every time
    again = building_solids(scene, scene.buildings[0])
    assert all(np.allclose(a.points, b.points) for a, b in zip(solids, again))


def test_random_tables_follow_the_box():
    for i in range(6):
        scene, shot = corpus_item(7, i)
        kinds = [(p.colour, p.shape) for p in pieces(scene) if p.kind == "stone" and p.zone != "kobold"]
        for colour in ("red", "orange", "yellow", "violet"):
            assert sum(1 for c, _ in kinds if c == colour) <= 10
        for b in scene.buildings:
            assert all(s != "roof" for _, s, _ in b.stones[:-1])
        assert 0 <= scene.tower <= 12
        # the camera sees the whole play area and the tallest tower
        px = shot.view.project(must_see(scene))
        assert np.all(px >= 0) and np.all(px[:, 0] < 1280) and np.all(px[:, 1] < 720)
        assert 0.0 <= shot.view.pose.tilt_deg <= 35.0 + 1e-6
    assert corpus_item(7, 3)[0] == corpus_item(7, 3)[0]


def test_the_pool_is_spread():
    rng = np.random.default_rng(4)
    stones = [(c, s) for c in ("red", "orange", "yellow", "violet") for s in ("cube", "long", "cylinder", "roof")] * 2
    pool = random_pool(rng, stones, DEFAULT_ZONES)
    assert len(pool) >= 28
    polys = [footprint(s.shape, s.x, s.y, s.yaw_deg) for s in pool]
    import cv2
    for a in range(len(polys)):
        for b in range(a + 1, len(polys)):
            area, _ = cv2.intersectConvexConvex(polys[a].astype(np.float32), polys[b].astype(np.float32))
            assert area < 1.0
    assert all(DEFAULT_ZONES.pool.contains(np.array([[s.x, s.y]]))[0] for s in pool)
    assert NainsRanges().fill > 0.5
