"""The dashboard's Flask application: ``create_app(table, config)``.

The application is built around one running :class:`~companion.runtime.table.Table` (the
process that owns the camera, the board and the game). Two blueprints: :mod:`pages` (the page
itself and its local assets) and :mod:`api` (JSON, the event stream and the camera view, in
``docs/api.md``). The web layer reads the table and asks it to act (``Table.act``,
``Table.start_game``); it never changes the game itself.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from companion.web.errors import ApiError

#: ``Content-Security-Policy``: everything from this server, nothing from anywhere else
CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
       "script-src 'self'; connect-src 'self'; font-src 'self'; media-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@dataclass(frozen=True)
class WebConfig:
    """How the dashboard behaves. Only ``pin`` has no default.

    ``max_streams`` caps the event streams and ``max_cameras`` the camera views (each holds a
    server thread while open); ``heartbeat_s`` is how often a quiet stream says it is alive;
    ``read_only`` serves a recorded game for review (every change refused); ``urls`` are the
    addresses the page can be opened at (the first is encoded in the QR code shown on the page).
    """

    pin: str
    max_streams: int = 64
    max_cameras: int = 16
    heartbeat_s: float = 15.0
    read_only: bool = False
    pin_attempts: int = 5
    pin_lockout_s: float = 30.0
    lang: str = "fr"
    urls: tuple[str, ...] = ()
    secret_key: str = field(default_factory=lambda: secrets.token_hex(32))
    epoch: str = field(default_factory=lambda: f"{int(time.time() * 1000):x}")

    def __post_init__(self) -> None:
        from companion.web.security import check_pin_format

        object.__setattr__(self, "pin", check_pin_format(self.pin))
        if self.lang not in ("fr", "en"):
            raise ValueError("the dashboard speaks fr or en")
        if self.max_streams < 1 or self.max_cameras < 0:
            raise ValueError("max_streams must be at least 1 and max_cameras at least 0")
        if self.heartbeat_s <= 0:
            raise ValueError("heartbeat_s must be positive")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "WebConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown dashboard setting(s): {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(known))}")
        values = dict(data)
        if "urls" in values:
            values["urls"] = tuple(values["urls"])
        return cls(**values)


class Dashboard:
    """What the application keeps beside the table: its reads, the calibration steps, the
    stream caps, the shared encodings and the stop flag of the live channels."""

    def __init__(self, table: Any, config: WebConfig):
        from companion.web.calib import Calibrator
        from companion.web.security import PinGuard
        from companion.web.streams import Encoded, Slots
        from companion.web.views import GameViews

        self.table = table
        self.config = config
        self.views = GameViews(table)
        self.calibrator = Calibrator(table)
        self.streams = Slots("streams", config.max_streams)
        self.cameras = Slots("camera views", config.max_cameras)
        self.encoded = Encoded(table.bus.epoch)
        self.pins = PinGuard(config.pin_attempts, config.pin_lockout_s)
        self.stopping = threading.Event()
        self.started = time.time()

    def close_streams(self) -> None:
        """End every live channel soon (within half a second): the server is stopping."""
        self.stopping.set()


def create_app(table: Any, config: WebConfig | Mapping[str, Any]):
    """The dashboard for ``table``. ``config`` is a :class:`WebConfig` or a mapping of its
    fields (``{"pin": "1234"}`` at least)."""
    from flask import Flask, jsonify, request
    from werkzeug.exceptions import HTTPException

    from companion import __version__
    from companion.web.api import api
    from companion.web.pages import pages

    cfg = config if isinstance(config, WebConfig) else WebConfig.from_mapping(config)
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        SECRET_KEY=cfg.secret_key,
        SESSION_COOKIE_NAME="companion_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
        WEB=cfg,
        VERSION=__version__,
    )
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.extensions["companion"] = Dashboard(table, cfg)
    app.register_blueprint(pages)
    app.register_blueprint(api, url_prefix="/api")

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        response = jsonify(exc.to_json())
        response.status_code = exc.status
        for key, value in exc.headers.items():
            response.headers[key] = value
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        messages = {
            404: f"nothing at {request.path}: see docs/api.md for the dashboard's addresses",
            405: f"{request.method} is not accepted at {request.path}",
            413: "the request body is too large (64 KiB at most)",
        }
        response = jsonify({"error": (exc.name or "error").lower().replace(" ", "_"),
                            "message": messages.get(exc.code or 0, exc.description)})
        response.status_code = exc.code or 400
        return response

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


def dashboard() -> Dashboard:
    """The :class:`Dashboard` of the application handling the current request."""
    from flask import current_app

    return current_app.extensions["companion"]
