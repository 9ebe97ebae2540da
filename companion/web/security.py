"""Who may change things: the referee's PIN, and protection against cross-site forgery.

* Everyone on the network may *look* (spectators): every GET is open.
* Every request that changes anything (POST) needs the referee: a browser session that entered
  the PIN (``POST /api/login``). The PIN is compared in constant time, and after
  :attr:`WebConfig.pin_attempts` wrong tries from one address that address must wait
  :attr:`WebConfig.pin_lockout_s` seconds.
* Every POST also carries the session's anti-forgery token in the ``X-CSRF-Token`` header (the
  page reads it from ``GET /api/session``, which another site cannot read), must be JSON (a form
  on another site cannot send that without the browser asking first) and, when the browser
  says where it comes from (``Origin``), must come from this dashboard. The session cookie is
  ``SameSite=Strict`` and ``HttpOnly`` as a further layer.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from functools import wraps
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import current_app, request, session

from companion.web.errors import ApiError

CSRF_HEADER = "X-CSRF-Token"


def new_pin(digits: int = 6) -> str:
    """A random PIN of ``digits`` digits (when none was chosen at start)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def check_pin_format(pin: str) -> str:
    pin = str(pin).strip()
    if not (pin.isdigit() and 4 <= len(pin) <= 12):
        raise ValueError("the referee's PIN is 4 to 12 digits")
    return pin


class PinGuard:
    """Counts wrong PINs per client address and locks an address out for a while."""

    def __init__(self, attempts: int, lockout_s: float):
        self.attempts = attempts
        self.lockout_s = lockout_s
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def locked_for(self, who: str) -> float:
        with self._lock:
            count, since = self._failures.get(who, (0, 0.0))
            if count < self.attempts:
                return 0.0
            left = since + self.lockout_s - time.monotonic()
            if left <= 0:
                self._failures.pop(who, None)
                return 0.0
            return left

    def failed(self, who: str) -> int:
        """Record a wrong PIN; returns how many tries are left before the lockout."""
        with self._lock:
            count, _ = self._failures.get(who, (0, 0.0))
            count += 1
            self._failures[who] = (count, time.monotonic())
            return max(0, self.attempts - count)

    def succeeded(self, who: str) -> None:
        with self._lock:
            self._failures.pop(who, None)


def csrf_token() -> str:
    """This browser session's anti-forgery token (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def is_referee() -> bool:
    return bool(session.get("referee")) and session.get("epoch") == current_app.config["WEB"].epoch


def check_forgery() -> None:
    """Refuse a changing request that may come from another site (403) or is not JSON (415)."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null":
        parts = urlsplit(origin)
        if parts.netloc.lower() != request.host.lower():
            raise ApiError(403, "cross_site",
                           f"requests from {origin} are refused: open the dashboard itself "
                           f"at {request.host_url}")
    elif origin == "null":
        raise ApiError(403, "cross_site", "requests from an opaque origin are refused")
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.get("csrf", "")
    if not sent or not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise ApiError(403, "csrf",
                       f"missing or wrong {CSRF_HEADER} header: reload the page (the token comes "
                       "from GET /api/session)")
    if request.mimetype != "application/json":
        raise ApiError(415, "not_json",
                       "send the request body as JSON (Content-Type: application/json)")


def json_body() -> dict[str, Any]:
    """The request's JSON object (an empty body counts as ``{}``)."""
    if not request.get_data(cache=True):
        return {}
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "the request body must be a JSON object, e.g. {\"pin\": \"1234\"}")
    return data


def changing(referee: bool = True) -> Callable:
    """Decorate a view that changes something: forgery checks, then (by default) the PIN, then
    the read-only mode of a dashboard serving a recorded game for review."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            check_forgery()
            if referee and not is_referee():
                raise ApiError(401, "pin_required",
                               "this needs the referee: enter the PIN first (POST /api/login)")
            if referee and current_app.config["WEB"].read_only:
                raise ApiError(403, "read_only",
                               "this dashboard shows a recorded game for review; serve it with "
                               "--resume to act on it")
            return view(*args, **kwargs)

        return wrapper

    return decorate
