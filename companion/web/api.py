"""The dashboard's JSON API, its event stream and its camera view (``docs/api.md``).

Reads are open to every spectator. Changes (``POST``) pass the forgery checks and, except for
logging in, need the referee's PIN (:mod:`companion.web.security`); they reach the game only
through ``Table.act`` and ``Table.start_game``, and a refused request changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file, session

from companion.errors import BadInput, UserError
from companion.referee import RefereeError
from companion.runtime.table import ACTIONS
from companion.web.app import dashboard
from companion.web.errors import ApiError, bad_request
from companion.web.security import changing, csrf_token, is_referee, json_body
from companion.web.streams import BOUNDARY, Held, event_stream, mjpeg_stream

api = Blueprint("api", __name__)


def client() -> str:
    return request.remote_addr or "?"


# -- the session ----------------------------------------------------------------------------------

@api.get("/session")
def get_session():
    cfg = current_app.config["WEB"]
    return jsonify({"referee": is_referee(), "csrf": csrf_token(), "read_only": cfg.read_only,
                    "lang": cfg.lang, "urls": list(cfg.urls),
                    "version": current_app.config["VERSION"]})


@api.post("/login")
@changing(referee=False)
def login():
    import hmac

    cfg = current_app.config["WEB"]
    board = dashboard()
    wait = board.pins.locked_for(client())
    if wait > 0:
        raise ApiError(429, "pin_locked", f"too many wrong PINs: wait {int(wait) + 1} s and try "
                                          "again", headers={"Retry-After": str(int(wait) + 1)},
                       retry_after=int(wait) + 1)
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin.strip():
        raise bad_request("send the PIN as a string: {\"pin\": \"1234\"}", "bad_pin")
    if not hmac.compare_digest(pin.strip().encode(), cfg.pin.encode()):
        left = board.pins.failed(client())
        raise ApiError(403, "pin_wrong", f"wrong PIN ({left} tries left before a pause)",
                       tries_left=left)
    board.pins.succeeded(client())
    session["referee"] = True
    session["epoch"] = cfg.epoch
    return jsonify({"referee": True, "csrf": csrf_token()})


@api.post("/logout")
@changing(referee=False)
def logout():
    session.pop("referee", None)
    return jsonify({"referee": False, "csrf": csrf_token()})


# -- reading --------------------------------------------------------------------------------------

@api.get("/snapshot")
def snapshot():
    return jsonify(dashboard().views.snapshot())


@api.get("/history")
def history():
    after = request.args.get("after", "0")
    if not after.isdigit():
        raise bad_request("after is the sequence number of the last event you have (an integer)")
    return jsonify({"history": dashboard().views.history(after=int(after))})


@api.get("/games")
def games():
    return jsonify({"games": dashboard().table.games()})


@api.get("/device")
def device():
    snap = dashboard().table.snapshot()
    return jsonify({"device": snap["device"], "camera": snap["camera"],
                    "calibration": snap["calibration"], "overlay": snap["overlay"]})


@api.get("/reading")
def reading():
    found = dashboard().views.reading()
    if found is None:
        raise ApiError(409, "no_game", "no game is being played: start one first")
    return jsonify(found)


@api.get("/moves")
def moves():
    query = request.args.get("q", "")
    if len(query) > 200:
        raise bad_request("the search is too long (200 characters at most)")
    return jsonify(dashboard().views.suggestions(query))


@api.get("/keyframes/<int:seq>.jpg")
def keyframe(seq: int):
    path = dashboard().table.keyframe(seq)
    if path is None:
        raise ApiError(404, "no_keyframe", f"no image was kept for event {seq} of this game")
    return send_file(path, mimetype="image/jpeg", max_age=3600)


@api.get("/health")
def health():
    board = dashboard()
    return jsonify({"ok": True, "streams": board.streams.to_json(),
                    "camera_views": board.cameras.to_json(), "bus": {
                        "last_id": board.table.bus.last_id, "epoch": board.table.bus.epoch}})


@api.get("/qr.svg")
def qr():
    import io

    import segno

    urls = current_app.config["WEB"].urls or (request.host_url,)
    which = request.args.get("i", "0")
    if not which.isdigit() or int(which) >= len(urls):
        raise bad_request(f"i is the index of one of the dashboard's {len(urls)} address(es)")
    out = io.BytesIO()
    segno.make(urls[int(which)], error="m").save(out, kind="svg", scale=6, border=2,
                                                 dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


# -- live channels --------------------------------------------------------------------------------

@api.get("/events")
def events():
    board = dashboard()
    last = request.headers.get("Last-Event-ID") or request.args.get("last")
    board.streams.take()
    body = event_stream(board.table.bus, board.encoded, last, board.views.snapshot,
                        heartbeat_s=board.config.heartbeat_s, stopping=board.stopping)
    held = Held(body, board.streams.give)
    return Response(held, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@api.get("/camera.mjpg")
def camera_stream():
    board = dashboard()
    board.cameras.take()
    feed = board.table.feed
    feed.viewers = board.cameras.count
    held = Held(mjpeg_stream(feed, stopping=board.stopping), lambda: _camera_gone(board))
    return Response(held, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-store"})


def _camera_gone(board: Any) -> None:
    board.cameras.give()
    board.table.feed.viewers = board.cameras.count


@api.get("/camera.jpg")
def camera_snapshot():
    frame = dashboard().table.feed.latest()
    if frame is None:
        raise ApiError(404, "no_frame", "no camera frame yet")
    response = Response(frame.jpeg, mimetype="image/jpeg")
    response.headers["X-Frame-Seq"] = str(frame.seq)
    return response


# -- the referee's actions ------------------------------------------------------------------------

def _check_payload(action: str, body: dict[str, Any]) -> dict[str, Any]:
    def only(*keys: str) -> None:
        extra = sorted(set(body) - set(keys))
        if extra:
            raise bad_request(f"{action} takes {', '.join(keys) or 'nothing'}; not "
                              f"{', '.join(extra)}")

    if action == "answer":
        only("choice")
        choice = body.get("choice")
        if isinstance(choice, bool) or not isinstance(choice, (int, str, dict)) or choice == "":
            raise bad_request("an answer gives 'choice': the number of a choice, or a move's "
                              "notation or JSON")
    elif action == "correct":
        only("move")
        move = body.get("move")
        if not isinstance(move, (str, dict)) or not move:
            raise bad_request("a correction gives 'move': the real move's notation or JSON")
    elif action == "correct_reading":
        only("add", "remove")
        for key in ("add", "remove"):
            items = body.get(key, [])
            if not isinstance(items, list) or not all(isinstance(p, dict) for p in items):
                raise bad_request(f"'{key}' is a list of pieces (JSON objects, "
                                  "docs/observation.md)")
        if not body.get("add") and not body.get("remove"):
            raise bad_request("a reading correction adds or removes at least one piece")
    else:
        only()
    return body


@api.post("/act/<action>")
@changing()
def act(action: str):
    if action not in ACTIONS:
        raise ApiError(404, "no_action", f"no action {action!r}; one of {', '.join(ACTIONS)}")
    payload = _check_payload(action, json_body())
    table = dashboard().table
    try:
        done = table.act(action, payload, actor="referee")
    except RefereeError as exc:
        raise ApiError(409, "refused", exc.message) from None
    except BadInput as exc:
        raise ApiError(400, "bad_input", exc.message) from None
    except UserError as exc:
        raise ApiError(409, "refused", exc.message) from None
    referee = table.referee
    return jsonify({"ok": True, "events": [e.to_json() for e in done],
                    "status": referee.status() if referee else None})


@api.post("/game")
@changing()
def new_game():
    body = json_body()
    extra = sorted(set(body) - {"game", "players", "options", "seed", "replace"})
    if extra:
        raise bad_request(f"a new game takes game, players, options, seed and replace; not "
                          f"{', '.join(extra)}")
    game, players = body.get("game"), body.get("players")
    options, seed = body.get("options", {}), body.get("seed", 0)
    if not isinstance(game, str) or not game:
        raise bad_request("say which game: 'game' (haut-les-cubes, altitude, ...)")
    if not isinstance(players, list) or not players or not all(
            isinstance(p, str) and p for p in players):
        raise bad_request("'players' lists the seats (colours) in play order, first player first")
    if not isinstance(options, dict):
        raise bad_request("'options' is an object of the game's named options")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad_request("'seed' is an integer")
    table = dashboard().table
    current = table.referee
    if current is not None and not current.session.ended and current.session.entries \
            and body.get("replace") is not True:
        raise ApiError(409, "game_in_progress",
                       "a game is being played; send \"replace\": true to start a new one anyway "
                       "(the current one stays in the log and can be resumed)")
    try:
        referee = table.start_game(game, players, options, seed=seed, actor="referee")
    except UserError as exc:
        raise ApiError(400, "bad_game", exc.message) from None
    return jsonify({"ok": True, "game_id": referee.session.game_id, "status": referee.status()})


@api.post("/overlay")
@changing()
def overlay():
    on = json_body().get("on")
    if not isinstance(on, bool):
        raise bad_request("send {\"on\": true} or {\"on\": false}")
    dashboard().table.set_overlay(on)
    return jsonify({"overlay": on})


# -- calibration ----------------------------------------------------------------------------------

@api.get("/calibration")
def calibration_status():
    from companion.vision.colours import GAME_PALETTES

    from companion.web.calib import CARD_GAMES, STEPS, latest_frame

    table = dashboard().table
    frame = latest_frame(table)
    return jsonify({"status": dict(table.calibration), "steps": list(STEPS),
                    "frame": frame.info() if frame is not None else None,
                    "palettes": {k: list(v) for k, v in GAME_PALETTES.items()},
                    "card_games": list(CARD_GAMES), "overlay": table.overlay})


@api.get("/calibration/<step>")
def calibration_look(step: str):
    if step.endswith(".jpg"):
        data = dashboard().calibrator.preview(step[:-4], request.args.get("game"))
        return Response(data, mimetype="image/jpeg")
    return jsonify(dashboard().calibrator.look(step, request.args.get("game")))


@api.post("/calibration/<step>")
@changing()
def calibration_save(step: str):
    body = json_body()
    calibrator = dashboard().calibrator
    try:
        if step == "table":
            return jsonify(calibrator.save_table())
        if step == "colours":
            return jsonify(calibrator.save_colours(body.get("game"), body.get("spots")))
        if step == "cards":
            return jsonify(calibrator.save_card(body.get("game"), body.get("name")))
    except BadInput as exc:
        raise ApiError(409, "calibration", exc.message) from None
    raise ApiError(404, "no_step", f"no calibration step {step!r}; one of table, colours, cards")
