"""Serving the dashboard from inside the process that owns the table: ``serve(table, ...)``.

waitress runs in a background thread of that process, with enough worker threads for the
long-lived connections (each event stream and each camera view holds one while it is open:
waitress's default of four would starve at the fifth tablet). The number of streams is capped
below the thread count, so the short requests (the page, actions, snapshots) always find a
free thread, and a client beyond the cap gets a clear 503.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any, Mapping, TextIO

from companion.errors import UserError
from companion.web.netaddr import addresses, url_for_host

log = logging.getLogger(__name__)

#: threads kept for short requests beyond the stream and camera caps
SPARE_THREADS = 8


class ServerHandle:
    """A running dashboard. ``url`` is the address given to tablets (the one in the QR code),
    ``local_url`` the one that works from this machine; ``stop()`` ends it (idempotent)."""

    def __init__(self, app: Any, server: Any, url: str, local_url: str, urls: list[str],
                 pin: str, threads: int):
        self.app = app
        self.url = url
        self.local_url = local_url
        self.urls = urls
        self.pin = pin
        self.threads = threads
        self.port = int(server.effective_port)
        self._server = server
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="dashboard-server", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        from waitress import wasyncore

        server = self._server
        sockets = server._map  # waitress's dispatcher map for this server
        try:
            while not self._stop.is_set():
                wasyncore.loop(timeout=0.5, map=sockets, use_poll=True, count=1)
        except Exception:  # the server must say why it died, never vanish silently
            log.exception("the dashboard's server stopped")
        finally:
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
            wasyncore.close_all(sockets)
            self._done.set()

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def stop(self, timeout: float = 10.0) -> None:
        """End the live channels, then the server; returns when it is stopped."""
        self.app.extensions["companion"].close_streams()
        self._stop.set()
        try:
            self._server.pull_trigger()
        except Exception:  # already closed
            log.debug("trigger already closed", exc_info=True)
        self._done.wait(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the server stops (or ``timeout``); True when it has stopped."""
        return self._done.wait(timeout)

    def __enter__(self) -> "ServerHandle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(table: Any, *, host: str = "0.0.0.0", port: int = 8080, pin: str | None = None,
          threads: int | None = None, advertise: str | None = None, announce: bool = False,
          config: Mapping[str, Any] | None = None, out: TextIO | None = None) -> ServerHandle:
    """Start the dashboard for ``table`` in a background thread and return its handle.

    ``host``/``port``: where to listen (``0.0.0.0``: every interface; ``port=0``: any free
    port). ``pin``: the referee's PIN (4–12 digits; None: a random 6-digit PIN). ``threads``:
    waitress's worker threads (None: enough for the stream and camera caps plus spare ones).
    ``advertise``: the address (host name or IP) tablets are given and the QR code encodes (None:
    the machine's address on its default route). ``announce``: print the address, the PIN, the
    other addresses and a QR code to ``out`` (standard output). ``config``: further
    :class:`~companion.web.app.WebConfig` settings (``max_streams``, ``read_only``, ``lang``...).
    """
    from waitress.server import create_server

    from companion.web.app import WebConfig, create_app
    from companion.web.security import check_pin_format, new_pin

    settings = dict(config or {})
    try:
        pin = check_pin_format(pin) if pin is not None else new_pin()
    except ValueError as exc:
        raise UserError(str(exc), hint="choose 4 to 12 digits, e.g. --pin 2468") from None
    max_streams = int(settings.get("max_streams", WebConfig.max_streams))
    max_cameras = int(settings.get("max_cameras", WebConfig.max_cameras))
    if threads is None:
        threads = max_streams + max_cameras + SPARE_THREADS
    if threads < max_streams + max_cameras + 2:
        raise UserError(f"{threads} server threads cannot carry {max_streams} event streams and "
                        f"{max_cameras} camera views",
                        hint=f"use at least {max_streams + max_cameras + 2} threads, or lower "
                             "the caps")
    try:
        server = create_server(_Deferred(), host=host, port=port, threads=threads,
                               connection_limit=max(100, threads + 64), ident="companion",
                               clear_untrusted_proxy_headers=True)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port} ({exc.strerror or exc})",
                        hint="choose another --port, or stop what uses this one") from None
    bound = int(server.effective_port)
    local_url = url_for_host("127.0.0.1" if host in ("0.0.0.0", "", "::") else host, bound)
    if host in ("0.0.0.0", "", "::"):
        urls = [url_for_host(a.ip, bound) for a in addresses() if not a.loopback]
    else:
        urls = [url_for_host(host, bound)]
    if advertise:
        chosen = url_for_host(advertise, bound)
        urls = [chosen] + [u for u in urls if u != chosen]
    if not urls:
        urls = [local_url]
    settings["pin"] = pin
    settings["urls"] = tuple(urls)
    try:
        app = create_app(table, WebConfig.from_mapping(settings))
    except ValueError as exc:
        server.close()
        raise UserError(f"dashboard settings: {exc}") from None
    server.application = app
    handle = ServerHandle(app, server, urls[0], local_url, urls, pin, threads)
    if announce:
        print_banner(handle, out or sys.stdout)
    return handle


class _Deferred:
    """Placeholder WSGI application for the moment between binding and building the app (the
    bound port is needed to build the app's addresses); never called."""

    def __call__(self, environ: Any, start_response: Any) -> Any:  # pragma: no cover
        start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
        return [b"starting"]


def print_banner(handle: ServerHandle, out: TextIO) -> None:
    """The address, the PIN, the other addresses and a QR code of the address, on a terminal."""
    import segno

    print(f"Dashboard: {handle.url}  (open it on the tablet, or scan the code below)", file=out)
    print(f"Referee PIN: {handle.pin}", file=out)
    others = handle.urls[1:]
    if others:
        print("Also reachable at: " + ", ".join(others) + "  (choose the one the QR code encodes "
              "with --advertise ADDRESS)", file=out)
    if handle.local_url not in handle.urls:
        print(f"On this computer: {handle.local_url}", file=out)
    segno.make(handle.url, error="m").terminal(out=out, compact=True)
    out.flush()
