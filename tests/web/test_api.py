"""The JSON API through Flask's test client: every endpoint, the PIN, the forgery checks, and bad
input answered with a clear 4xx that changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import events as ev
from companion.web import create_app

from web_helpers import PIN, ROUND_ONE, play, seen_after

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"


def fingerprint(table):
    """Everything a refused request must leave as it was."""
    referee = table.referee
    return (len(table.log.events(referee.session.game_id)), referee.state, table.overlay,
            table.bus.last_id, referee.session.question, referee.session.pending_illegal)


def jpeg(colour=(40, 90, 160)) -> bytes:
    image = np.full((48, 64, 3), colour, np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


def ask_question(table):
    """Round one, then red jumps with the card hidden: the referee asks which card it was."""
    referee = table.referee
    for text in ROUND_ONE:
        play(referee, text)
    events = play(referee, "red: M -4,0", card=False)
    assert [e.type for e in events] == [ev.QUESTION_ASKED]
    return events[0]


# -- the page and its assets ------------------------------------------------------------------

def test_the_page_and_its_assets_come_from_this_server_only(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert refs and all(r.startswith("/") for r in refs), refs
    for ref in refs:
        assert client.get(ref.split("?")[0]).status_code == 200, ref
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")  # a name
        assert not re.search(r"https?://", text), f"{path.name} refers to the internet"
        assert client.get(f"/static/{path.name}").status_code == 200
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["X-Frame-Options"] == "DENY"


def test_the_page_speaks_french_by_default_and_english_on_request(client):
    assert '<html lang="fr"' in client.get("/").get_data(as_text=True)
    assert '<html lang="en"' in client.get("/?lang=en").get_data(as_text=True)
    assert '<html lang="fr"' in client.get("/?lang=xx").get_data(as_text=True)


# -- reading ---------------------------------------------------------------------------------

def test_session_says_spectator_and_gives_a_token(api):
    data = api.get("/api/session").get_json()
    assert data["referee"] is False and data["read_only"] is False and data["lang"] == "fr"
    assert len(data["csrf"]) >= 20 and data["csrf"] == api.csrf


def test_snapshot_has_the_game_the_log_the_chart_and_the_last_move(api, table):
    play(table.referee, "red: N -5,1^0")
    snap = api.get("/api/snapshot").get_json()
    game = snap["game"]
    assert game["name"] == "haut-les-cubes" and game["board"]["kind"] == "haut-les-cubes"
    assert game["status"]["active"] == "blue"
    assert snap["bus"] == {"last_id": table.bus.last_id, "epoch": table.bus.epoch}
    types = [e["type"] for e in snap["history"]]
    assert types[0] == ev.GAME_STARTED and types.count(ev.MOVE_JUDGED) == 4
    points = snap["series"]["points"]
    assert len(points) == 5 and points[0]["seq"] is None
    assert points[-1]["notation"] == "red: N -5,1^0"
    # the cube laid on cell (-5, 1) covers four cells, all outlined as the last move
    assert set(game["highlight"]["last"]) >= {"cell:-5,1", "cell:-4,1", "cell:-5,2", "cell:-4,2"}
    assert game["question"] is None and game["pending_illegal"] is None


def test_history_after_a_sequence_number(api, table):
    first = api.get("/api/history").get_json()["history"]
    play(table.referee, "red: N -5,1^0")
    newer = api.get(f"/api/history?after={first[-1]['seq']}").get_json()["history"]
    assert [e["type"] for e in newer] == [ev.MOVE_JUDGED]
    bad = api.get("/api/history?after=yesterday")
    assert bad.status_code == 400 and "integer" in bad.get_json()["message"]


def test_games_device_health_and_calibration_status(api, table):
    names = [g["name"] for g in api.get("/api/games").get_json()["games"]]
    assert names == ["haut-les-cubes", "altitude", "terra-turrium", "gleebs-and-grues",
                     "ville-des-nains"]
    device = api.get("/api/device").get_json()
    assert device["device"]["status"] == "absent" and device["camera"]["status"] == "absent"
    assert device["overlay"] is True
    health = api.get("/api/health").get_json()
    assert health["ok"] and health["streams"]["open"] == 0
    cal = api.get("/api/calibration").get_json()
    assert cal["steps"] == ["table", "colours", "cards"] and cal["frame"] is None
    assert "haut-les-cubes" in cal["palettes"] and cal["card_games"] == ["haut-les-cubes"]


def test_the_reading_by_place_and_what_may_be_added(api, table):
    data = api.get("/api/reading").get_json()
    assert data["seen"] and data["game"] == "haut-les-cubes"
    places = {p["place"] for p in data["pieces"]}
    assert "cell:-4,0" in places  # red's giant
    kinds = {t["kind"] for t in data["templates"]["cell"]}
    assert {"cube", "giant"} <= kinds


def test_moves_to_pick_from_filtered(api, table):
    play(table.referee, "red: N -5,1^0")
    data = api.get("/api/moves?q=red N").get_json()
    assert data["target"]["notation"] == "red: N -5,1^0"
    assert data["moves"] and all("red" in m["notation"] and "n" in m["notation"].lower()
                                 for m in data["moves"])  # words match in any case
    assert "red: N -5,2^0" in [m["notation"] for m in data["moves"]]
    assert any(m["legal"] for m in data["moves"])
    assert api.get("/api/moves?q=" + "x" * 300).status_code == 400


def test_keyframes_are_served_and_missing_ones_say_so(api, table):
    events = play(table.referee, "red: N -5,1^0", image=jpeg())
    seq = events[0].seq
    history = api.get("/api/history").get_json()["history"]
    assert [e["keyframe"] for e in history if e["seq"] == seq] == [True]
    got = api.get(f"/api/keyframes/{seq}.jpg")
    assert got.status_code == 200 and got.mimetype == "image/jpeg" and got.data == jpeg()
    missing = api.get("/api/keyframes/99999.jpg")
    assert missing.status_code == 404 and "no image" in missing.get_json()["message"]


def test_camera_snapshot_and_qr_code(api, table):
    none = api.get("/api/camera.jpg")
    assert none.status_code == 404 and none.get_json()["error"] == "no_frame"
    table.feed.push(np.full((360, 640, 3), 128, np.uint8), force=True)
    got = api.get("/api/camera.jpg")
    assert got.status_code == 200 and got.data[:2] == b"\xff\xd8"
    qr = api.get("/api/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data
    assert api.get("/api/qr.svg?i=7").status_code == 400


def test_unknown_addresses_and_methods_answer_json(api):
    missing = api.get("/api/nothing-here")
    assert missing.status_code == 404 and "docs/api.md" in missing.get_json()["message"]
    wrong = api.client.put("/api/act/undo")
    assert wrong.status_code == 405 and wrong.get_json()["message"]
    assert api.get("/api/act/undo").status_code == 405


# -- the PIN and forgery -----------------------------------------------------------------------

def test_changes_need_the_pin(api, table):
    before = fingerprint(table)
    refused = api.post("/api/act/undo")
    assert refused.status_code == 401 and refused.get_json()["error"] == "pin_required"
    for url, body in (("/api/game", {"game": "altitude", "players": ["red"]}),
                      ("/api/overlay", {"on": False}), ("/api/calibration/table", {})):
        assert api.post(url, body).status_code == 401
    assert fingerprint(table) == before


def test_a_wrong_pin_is_refused_and_repeated_tries_are_paused(api, table):
    before = fingerprint(table)
    wrong = api.post("/api/login", {"pin": "0000"})
    assert wrong.status_code == 403 and wrong.get_json()["tries_left"] == 4
    for _ in range(4):
        api.post("/api/login", {"pin": "0000"})
    locked = api.post("/api/login", {"pin": PIN})
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) > 0
    assert "wait" in locked.get_json()["message"]
    assert api.get("/api/session").get_json()["referee"] is False
    assert fingerprint(table) == before


@pytest.mark.parametrize("body", [{"pin": 2468}, {"pin": ""}, {}, ["2468"], "2468"])
def test_a_malformed_login_is_a_400(api, body):
    response = api.post("/api/login", body)
    assert response.status_code == 400 and response.get_json()["message"]


def test_forgery_checks(client, table):
    from conftest import Api

    api = Api(client)
    api.login()
    before = fingerprint(table)
    no_token = api.post("/api/act/confirm", csrf=False)
    assert no_token.status_code == 403 and no_token.get_json()["error"] == "csrf"
    bad_token = api.post("/api/act/confirm", headers={"X-CSRF-Token": "forged"})
    assert bad_token.status_code == 403
    elsewhere = api.post("/api/act/confirm", headers={"Origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and elsewhere.get_json()["error"] == "cross_site"
    opaque = api.post("/api/act/confirm", headers={"Origin": "null"})
    assert opaque.status_code == 403
    form = client.post("/api/act/confirm", data={"x": "1"},
                       headers={"X-CSRF-Token": api.csrf})
    assert form.status_code == 415 and form.get_json()["error"] == "not_json"
    other_browser = Api(client.application.test_client())
    stolen = other_browser.client.post("/api/act/confirm", json={},
                                       headers={"X-CSRF-Token": api.csrf})
    assert stolen.status_code == 403
    assert fingerprint(table) == before
    same_origin = api.post("/api/act/confirm", headers={"Origin": "http://localhost"})
    assert same_origin.status_code == 200


def test_logout_ends_referee_mode(referee_api, table):
    assert referee_api.get("/api/session").get_json()["referee"] is True
    referee_api.post("/api/logout")
    assert referee_api.get("/api/session").get_json()["referee"] is False
    assert referee_api.post("/api/act/confirm").status_code == 401


def test_a_review_dashboard_refuses_every_change(table):
    app = create_app(table, {"pin": PIN, "read_only": True})
    from conftest import Api

    api = Api(app.test_client())
    api.login()
    before = fingerprint(table)
    refused = api.post("/api/act/confirm")
    assert refused.status_code == 403 and refused.get_json()["error"] == "read_only"
    assert api.get("/api/session").get_json()["read_only"] is True
    assert fingerprint(table) == before


def test_a_body_too_large_is_refused(referee_api, table):
    before = fingerprint(table)
    big = referee_api.post("/api/act/correct", {"move": "x" * 100_000})
    assert big.status_code == 413 and big.get_json()["message"]
    assert fingerprint(table) == before


def test_settings_are_checked():
    with pytest.raises(ValueError):
        create_app(None, {"pin": "12"})
    with pytest.raises(ValueError):
        create_app(None, {"pin": "1234", "colour": "blue"})


# -- the referee's actions ---------------------------------------------------------------------

def test_undo_takes_the_last_move_back_and_the_log_says_who(referee_api, table):
    play(table.referee, "red: N -5,1^0")
    done = referee_api.post("/api/act/undo")
    assert done.status_code == 200
    data = done.get_json()
    assert [e["type"] for e in data["events"]] == [ev.MOVE_UNDONE]
    assert data["events"][0]["actor"] == "referee" and data["status"]["active"] == "red"


def test_an_ambiguity_is_answered_by_its_number(referee_api, table):
    asked = ask_question(table)
    question = referee_api.get("/api/snapshot").get_json()["game"]["question"]
    assert question["seq"] == asked.seq and len(question["choices"]) >= 2
    index = next(i for i, c in enumerate(question["choices"]) if c["notation"].startswith("red: M"))
    for bad in ({"choice": True}, {"choice": ""}, {"choice": 1.5}, {}, {"choice": 0, "x": 1}):
        before = fingerprint(table)
        assert referee_api.post("/api/act/answer", bad).status_code == 400, bad
        assert fingerprint(table) == before
    before = fingerprint(table)
    out_of_range = referee_api.post("/api/act/answer", {"choice": 99})
    assert out_of_range.status_code == 409 and "does not exist" in out_of_range.get_json()["message"]
    assert fingerprint(table) == before
    done = referee_api.post("/api/act/answer", {"choice": index}).get_json()
    assert done["events"][0]["type"] == ev.QUESTION_ANSWERED
    assert done["events"][0]["data"]["score_delta"] == {"red": 1}
    assert referee_api.get("/api/snapshot").get_json()["game"]["question"] is None
    again = referee_api.post("/api/act/answer", {"choice": 0})
    assert again.status_code == 409 and "no question" in again.get_json()["message"]


def test_correcting_the_move(referee_api, table):
    play(table.referee, "red: N -5,1^0")
    before = fingerprint(table)
    for bad in ({"move": ""}, {"move": 3}, {}, {"move": "x", "why": "y"}):
        assert referee_api.post("/api/act/correct", bad).status_code == 400, bad
    nonsense = referee_api.post("/api/act/correct", {"move": "red: N 99,99^0 nonsense"})
    assert nonsense.status_code == 409 and nonsense.get_json()["message"]
    assert fingerprint(table) == before
    done = referee_api.post("/api/act/correct", {"move": "red: N -5,2^0"}).get_json()
    assert done["events"][0]["type"] == ev.MOVE_CORRECTED
    assert (-5, 2, 0) in table.referee.state.cubes


def test_correcting_the_reading(referee_api, table):
    state = table.referee.state
    table.referee.observe(seen_after(state, "red: N -5,1^0"))
    assert (-5, 1, 0) in table.referee.state.cubes
    before = fingerprint(table)
    for bad in ({"add": "cube"}, {"add": [1]}, {}, {"add": [], "remove": []}, {"move": "x"}):
        assert referee_api.post("/api/act/correct_reading", bad).status_code == 400, bad
    no_kind = referee_api.post("/api/act/correct_reading", {"add": [{"cell": [0, 0]}]})
    assert no_kind.status_code == 400 and "kind" in no_kind.get_json()["message"]
    assert fingerprint(table) == before
    # the cube was really laid one cell further: the reading is corrected in place
    done = referee_api.post("/api/act/correct_reading", {
        "remove": [{"kind": "cube", "cell": [-5, 1], "level": 0}],
        "add": [{"kind": "cube", "cell": [-5, 2], "level": 0}]}).get_json()
    assert [e["type"] for e in done["events"]] == [ev.MOVE_CORRECTED]
    assert done["events"][0]["data"]["corrected_reading"]["add"][0]["cell"] == [-5, 2]
    assert (-5, 2, 0) in table.referee.state.cubes


def test_an_illegal_move_let_stand_or_confirmed(referee_api, table):
    nothing = referee_api.post("/api/act/let_stand")
    assert nothing.status_code == 409 and "no illegal move" in nothing.get_json()["message"]
    table.referee.observe(seen_after(table.referee.state, "red: N 2,-2^1"))
    pending = referee_api.get("/api/snapshot").get_json()["game"]["pending_illegal"]
    assert pending["rule"]["id"] == "hlc.napozla.full-base"
    snap = referee_api.get("/api/snapshot").get_json()
    assert snap["game"]["highlight"]["illegal"]
    confirmed = referee_api.post("/api/act/confirm").get_json()
    assert confirmed["events"][0]["type"] == ev.VERDICT_CONFIRMED
    stood = referee_api.post("/api/act/let_stand").get_json()
    assert stood["events"][0]["type"] == ev.VERDICT_OVERRIDDEN
    assert stood["events"][0]["actor"] == "referee"
    assert (2, -2, 1) in table.referee.state.cubes


def test_unknown_actions_and_extra_fields(referee_api, table):
    before = fingerprint(table)
    unknown = referee_api.post("/api/act/shuffle")
    assert unknown.status_code == 404 and "undo" in unknown.get_json()["message"]
    extra = referee_api.post("/api/act/undo", {"now": True})
    assert extra.status_code == 400
    assert fingerprint(table) == before


def test_a_new_game_from_the_wizard(referee_api, table):
    old = table.referee.session.game_id
    before = fingerprint(table)
    for bad in ({"game": "chess", "players": ["red", "blue"]},
                {"game": "altitude"}, {"game": "altitude", "players": "red"},
                {"game": "altitude", "players": ["red"], "options": []},
                {"game": "altitude", "players": ["red"], "seed": "1"},
                {"game": "haut-les-cubes", "players": ["red", "blue"], "replace": True},
                {"game": "altitude", "players": ["red"], "options": {"colour": 1}, "replace": True},
                {"game": "altitude", "players": ["red"], "speed": 2}):
        response = referee_api.post("/api/game", bad)
        assert 400 <= response.status_code < 500 and response.get_json()["message"], bad
    in_progress = referee_api.post("/api/game", {"game": "altitude", "players": ["red", "blue"]})
    assert in_progress.status_code == 409 and in_progress.get_json()["error"] == "game_in_progress"
    assert fingerprint(table) == before
    started = referee_api.post("/api/game", {"game": "altitude", "players": ["red", "blue"],
                                             "options": {"manifest": "mini"}, "seed": 3,
                                             "replace": True}).get_json()
    assert started["ok"] and started["game_id"] != old
    snap = referee_api.get("/api/snapshot").get_json()
    assert snap["game"]["name"] == "altitude" and snap["game"]["board"]["kind"] == "altitude"
    assert [e["type"] for e in snap["history"]] == [ev.GAME_STARTED]
    assert snap["history"][0]["actor"] == "referee"


def test_the_overlay_switch(referee_api, table):
    for bad in ({"on": "no"}, {}, {"on": 0}):
        assert referee_api.post("/api/overlay", bad).status_code == 400
    assert table.overlay is True
    assert referee_api.post("/api/overlay", {"on": False}).get_json() == {"overlay": False}
    assert table.overlay is False
    assert referee_api.get("/api/snapshot").get_json()["overlay"] is False


def test_no_game_yet(data_dir):
    from companion.runtime.table import Table
    from conftest import Api

    table = Table(data_dir)
    try:
        api = Api(create_app(table, {"pin": PIN}).test_client())
        snap = api.get("/api/snapshot").get_json()
        assert snap["game"] is None and snap["history"] == [] and snap["series"] is None
        assert api.get("/api/reading").status_code == 409
        assert api.get("/api/moves").get_json() == {"target": None, "moves": []}
        api.login()
        refused = api.post("/api/act/undo")
        assert refused.status_code == 409 and "start one" in refused.get_json()["message"]
        started = api.post("/api/game", {"game": "gleebs-and-grues",
                                         "players": ["blue-yellow", "green-red"]})
        assert started.status_code == 200
    finally:
        table.close()


def test_what_the_led_board_shows_now(data_dir):
    from companion.runtime.table import Table
    from conftest import Api

    shows = {"leds": ["#ff0000", "#000000", "#0000ff"], "display": " 12  5  ", "turn": 0}
    table = Table(data_dir, board_view=lambda: dict(shows))
    try:
        api = Api(create_app(table, {"pin": PIN}).test_client())
        device = api.get("/api/device").get_json()["device"]
        assert device["shows"] == shows
        shows["display"] = " 13  5  "  # the board changed: the next read says so
        assert api.get("/api/device").get_json()["device"]["shows"]["display"] == " 13  5  "
        assert api.get("/api/snapshot").get_json()["device"]["shows"]["leds"][0] == "#ff0000"
    finally:
        table.close()
