"""The table's zones: the default layout, and a settings or calibration file changing it."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from companion.errors import BadInput
from companion.vision.nains.kit import SEATS
from companion.vision.nains.zones import DEFAULT_ZONES, ZoneLayout


def test_the_default_layout_keeps_every_zone_apart_and_inside_the_markers():
    z = DEFAULT_ZONES
    assert (z.width_mm, z.depth_mm) == (600.0, 480.0)
    assert [a.seat for a in z.areas] == list(SEATS)
    rects = [z.tray, z.pool, z.kobold_rect] + [a.rect for a in z.areas]
    for i, a in enumerate(rects):
        assert 0.0 <= a.x0 and a.x1 <= z.width_mm and 0.0 <= a.y0 and a.y1 <= z.depth_mm
        if a != z.kobold_rect:  # the tower stands near the right edge; the rest keeps 30 mm off
            assert 30.0 <= a.x0 and a.x1 <= z.width_mm - 30.0 + 1e-6
        for b in rects[i + 1:]:
            overlap = min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0)
            assert overlap[0] <= 1e-6 or overlap[1] <= 1e-6
    for area in z.areas:
        assert len(area.slots) == 6
        assert all(area.rect.contains(np.array([s]))[0] for s in area.slots)
        gaps = [np.hypot(a[0] - b[0], a[1] - b[1]) for k, a in enumerate(area.slots) for b in area.slots[k + 1:]]
        assert min(gaps) >= 50.0  # room for a long block lying either way
    # a far player's slot 0 is on their left: the table's right
    assert z.area("cyan").slots[0][0] > z.area("cyan").slots[2][0]
    assert z.area("green").slots[0][0] < z.area("green").slots[2][0]


def test_a_layout_round_trips_through_json():
    z = ZoneLayout.from_json(json.loads(json.dumps(DEFAULT_ZONES.to_json())))
    assert z.to_json() == DEFAULT_ZONES.to_json()


def test_a_settings_file_moves_what_it_names(tmp_path):
    path = tmp_path / "zones.json"
    path.write_text(json.dumps({"zones": {"kobold": [500, 250], "tray": [30, 170, 140, 300],
                                          "areas": [{"seat": "pink", "rect": [400, 20, 580, 160],
                                                     "slots": [[420, 60], [480, 60]], "yaw_deg": 5}]}}))
    z = ZoneLayout.load(path)
    assert z.kobold == (500.0, 250.0) and z.tray.x0 == 30.0
    assert z.area("pink").slots == ((420.0, 60.0), (480.0, 60.0)) and z.area("pink").yaw_deg == 5.0
    assert z.area("green") == DEFAULT_ZONES.area("green")
    assert z.pool == DEFAULT_ZONES.pool
    # the calibration's record comes first, a settings file over it
    extra = {"zones": {"ville-des-nains": {"kobold": [520, 240], "slot_tolerance_mm": 8}}}
    z = ZoneLayout.load({"tray": [35, 175, 145, 305]}, extra)
    assert z.kobold == (520.0, 240.0) and z.slot_tolerance_mm == 8.0 and z.tray.x0 == 35.0
    only = ZoneLayout.load({"areas": [DEFAULT_ZONES.area("green").to_json()], "replace_areas": True})
    assert [a.seat for a in only.areas] == ["green"]


@pytest.mark.parametrize("data,words", [
    ({"pool": [10, 10, 5, 50]}, "x0 < x1"),
    ({"tray": [1, 2, 3]}, "tray must be [x0, y0, x1, y1]"),
    ({"kobold": "centre"}, "kobold must be [x, y]"),
    ({"areas": [{"seat": "purple", "rect": [0, 0, 10, 10], "slots": [[1, 1]]}]}, "unknown seat"),
    ({"areas": [{"seat": "green", "rect": [0, 0, 10, 10], "slots": []}]}, "slots must be"),
    ({"slot_tolerance_mm": 100}, "slot_tolerance_mm"),
    ({"table_mm": [600]}, "table_mm"),
    ({"pools": [0, 0, 1, 1]}, "unknown key"),
    ([1, 2], "JSON object"),
])
def test_a_bad_layout_says_what_is_wrong(data, words):
    with pytest.raises(BadInput, match=re.escape(words)):
        ZoneLayout.from_json(data)


def test_a_missing_or_broken_zones_file_is_refused(tmp_path):
    with pytest.raises(BadInput, match="no such zones file"):
        ZoneLayout.load(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BadInput, match="not a readable zones file"):
        ZoneLayout.load(bad)
