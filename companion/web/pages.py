"""The dashboard page itself. One page (the board, the log, the scores, the camera, the new-game
wizard and the calibration steps are its panels), so that one tab holds one event stream and at
most one camera view; its scripts and styles are served from this package, never a CDN."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, send_from_directory

pages = Blueprint("pages", __name__)


@pages.get("/")
def index():
    cfg = current_app.config["WEB"]
    lang = request.args.get("lang", cfg.lang)
    if lang not in ("fr", "en"):
        lang = cfg.lang
    return render_template("index.html", lang=lang, version=current_app.config["VERSION"],
                           heartbeat_s=cfg.heartbeat_s)


@pages.get("/favicon.ico")
def favicon():
    return send_from_directory(current_app.static_folder, "icon.svg", mimetype="image/svg+xml")
