"""Fixtures for the dashboard's tests: a table with a Haut les Cubes game under way, the
application with Flask's test client, a real waitress server, and headless Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.runtime.feed import FrameFeed
from companion.runtime.table import Table
from companion.web import create_app, serve

from web_helpers import PIN, PLAYERS, place_giants

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def table(data_dir: Path):
    """A table whose referee has placed the three giants (round 1 is about to begin)."""
    t = Table(data_dir, feed=FrameFeed(fps=15))
    referee = t.start_game("haut-les-cubes", PLAYERS, actor="test")
    place_giants(referee)
    yield t
    t.close()


@pytest.fixture
def app(table):
    return create_app(table, {"pin": PIN, "heartbeat_s": 1.0})


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """Flask's test client with the session's anti-forgery token and JSON by default."""

    def __init__(self, client):
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def get(self, url, **kw):
        return self.client.get(url, **kw)

    def post(self, url, body=None, *, csrf=True, **kw):
        headers = dict(kw.pop("headers", {}))
        if csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return self.client.post(url, json={} if body is None else body, headers=headers, **kw)

    def login(self, pin: str = PIN):
        response = self.post("/api/login", {"pin": pin})
        assert response.status_code == 200, response.get_json()
        return response


@pytest.fixture
def api(client):
    return Api(client)


@pytest.fixture
def referee_api(client):
    a = Api(client)
    a.login()
    return a


@pytest.fixture
def server(table):
    """The dashboard on a real waitress server on localhost (any free port)."""
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN, config={"heartbeat_s": 1.0})
    yield handle
    handle.stop()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: install Debian's 'chromium' package "
                    "(apt-get install chromium) for the dashboard's browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the 'playwright' Python package is missing: pip install playwright "
                    "(its browsers are not needed: Debian's chromium is used)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
