"""The calibration steps from the dashboard, on the camera feed's latest frame: a synthetic table
(exact ground truth) for the markers and the played card, a printed colour sheet with pieces on
its spots for the colours."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion import events as ev

from web_helpers import PIN


@pytest.fixture(scope="module")
def rendered_table():
    """A Haut les Cubes table seen by a camera: all four markers in view, a card in the zone."""
    from companion.synth.generate import corpus_item
    from companion.synth.render import render

    scene, shot = corpus_item(1, 2)
    return scene, render(scene, shot).image


@pytest.fixture(scope="module")
def colour_sheet_image():
    from calibration.targets import colour_sheet

    return colour_sheet(3.0).page.image.copy()


def test_no_frame_yet_is_said_plainly(api):
    for url in ("/api/calibration/table", "/api/calibration/table.jpg"):
        response = api.get(url)
        assert response.status_code == 409 and "camera" in response.get_json()["message"]
    assert api.get("/api/calibration/nothing").status_code == 404


def test_the_table_markers_are_found_previewed_and_saved(referee_api, table, rendered_table):
    _, image = rendered_table
    table.feed.push(image, force=True)
    look = referee_api.get("/api/calibration/table").get_json()
    assert look["ok"] and look["markers"] == [0, 1, 2, 3]
    assert look["reprojection_px"] < 2.0 and look["frame"]["size"][0] == 960
    assert {f["id"] for f in look["found"]} >= {0, 1, 2, 3}
    assert referee_api.get("/api/calibration/nope").status_code == 404
    preview = referee_api.get("/api/calibration/table.jpg")
    assert preview.status_code == 200 and preview.data[:2] == b"\xff\xd8"
    assert cv2.imdecode(np.frombuffer(preview.data, np.uint8), 1).shape[1] == 960
    last = table.bus.last_id
    saved = referee_api.post("/api/calibration/table").get_json()
    assert "pose" in saved["saved"] and "4 markers" in saved["summary"]
    stored = json.loads((table.data_dir / "calibration.json").read_text())
    assert stored["format"] == "companion-calibration" and "pose" in stored["table"]
    assert table.calibration["table"] == saved["summary"]
    assert [m.type for m in table.bus.since(last)] == [ev.CALIBRATION_STATUS]


def test_a_frame_without_markers_cannot_be_saved(referee_api, table):
    table.feed.push(np.full((540, 960, 3), 120, np.uint8), force=True)
    look = referee_api.get("/api/calibration/table").get_json()
    assert look["ok"] is False and "marker" in look["message"]
    refused = referee_api.post("/api/calibration/table")
    assert refused.status_code == 409 and "not located" in refused.get_json()["message"]
    assert not (table.data_dir / "calibration.json").exists()


def test_a_card_is_enrolled_from_the_played_card_zone(referee_api, table, rendered_table):
    scene, image = rendered_table
    table.feed.push(image, force=True)
    assert referee_api.get("/api/calibration/cards").status_code == 400  # which game?
    assert referee_api.get("/api/calibration/cards?game=altitude").status_code == 400
    look = referee_api.get("/api/calibration/cards?game=haut-les-cubes").get_json()
    assert look["ok"] and look["card"] and look["enrolled"] == [] and scene.card in look["names"]
    assert referee_api.get("/api/calibration/cards.jpg?game=haut-les-cubes").status_code == 200
    bad = referee_api.post("/api/calibration/cards", {"game": "haut-les-cubes", "name": "joker"})
    assert bad.status_code == 400 and "moaveou" in bad.get_json()["message"]
    saved = referee_api.post("/api/calibration/cards",
                             {"game": "haut-les-cubes", "name": scene.card}).get_json()
    assert saved["enrolled"] == [scene.card] and table.calibration["cards"] == saved["summary"]
    assert (table.data_dir / "cards-haut-les-cubes.npz").exists()
    again = referee_api.get("/api/calibration/cards?game=haut-les-cubes").get_json()
    assert again["reads_as"] == scene.card and again["enrolled"] == [scene.card]


def test_colours_are_sampled_on_the_sheet_and_learned(referee_api, table, colour_sheet_image):
    assert referee_api.get("/api/calibration/colours?game=chess").status_code == 400
    table.feed.push(np.full((540, 960, 3), 120, np.uint8), force=True)
    empty = referee_api.get("/api/calibration/colours?game=haut-les-cubes").get_json()
    assert empty["ok"] is False and "colour-sheet" in empty["message"]
    sheet = colour_sheet_image.copy()
    table.feed.push(sheet, force=True)
    look = referee_api.get("/api/calibration/colours?game=haut-les-cubes").get_json()
    assert look["ok"] and look["markers"] == [8, 9, 10, 11] and len(look["spots"]) == 6
    # lay a red, a blue and a green piece on spots 1 to 3, where the look found the spots
    h, w = sheet.shape[:2]
    pieces = {1: (30, 30, 200), 2: (190, 80, 25), 3: (40, 150, 40)}
    for spot in look["spots"]:
        if spot["spot"] in pieces:
            centre = (int(spot["centre"][0] * w), int(spot["centre"][1] * h))
            cv2.circle(sheet, centre, 40, pieces[spot["spot"]], -1)
    table.feed.push(sheet, force=True)
    look = referee_api.get("/api/calibration/colours?game=haut-les-cubes").get_json()
    reads = {s["spot"]: s.get("reads_as") for s in look["spots"]}
    assert reads[1] == "red" and reads[2] == "blue" and reads[3] == "green"
    assert referee_api.get("/api/calibration/colours.jpg?game=haut-les-cubes").status_code == 200
    for bad in ({"game": "haut-les-cubes", "spots": {"9": "red"}},
                {"game": "haut-les-cubes", "spots": {"1": "purple"}},
                {"game": "haut-les-cubes", "spots": []},
                {"game": "haut-les-cubes"}):
        assert referee_api.post("/api/calibration/colours", bad).status_code == 400, bad
    saved = referee_api.post("/api/calibration/colours", {
        "game": "haut-les-cubes", "spots": {"1": "red", "2": "blue", "3": "green"}}).get_json()
    assert saved["saved"] == ["blue", "green", "red"]
    from calibration.store import load_colours

    model = load_colours("haut-les-cubes", table.data_dir / "calibration.json")
    assert model is not None and model.source == "learned"
    assert {"red", "blue", "green"} <= set(model.names)
    assert table.calibration["colours"] == saved["summary"]


def test_calibration_changes_need_the_pin(api, table, rendered_table):
    table.feed.push(rendered_table[1], force=True)
    assert api.post("/api/calibration/table").status_code == 401
    api.post("/api/login", {"pin": PIN})
    assert api.post("/api/calibration/nowhere").status_code == 404


def test_a_raw_frame_is_used_when_the_table_offers_one(api, table, rendered_table):
    from companion.vision.frames import Frame

    _, image = rendered_table
    table.feed.push(np.zeros((540, 960, 3), np.uint8), force=True)  # a feed frame with nothing
    table.latest_frame = lambda: Frame(image, 41, 1.5)  # what the Table should offer
    look = api.get("/api/calibration/table").get_json()
    assert look["frame"] == {"seq": 41, "size": [1280, 720], "overlay": False, "source": "camera"}
    assert look["ok"] and look["markers"] == [0, 1, 2, 3]
