"""``serve()`` and ``companion serve``: the handle, the banner with the PIN and the QR code, the
address given to tablets, and the command serving a log without a camera."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.web import serve
from companion.web.netaddr import addresses, url_for_host

from web_helpers import PIN, play, wait_for

REPO = Path(__file__).resolve().parents[2]


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def test_serve_returns_a_handle_and_prints_the_address_pin_and_qr(table):
    out = io.StringIO()
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN, announce=True, out=out)
    try:
        assert handle.url == f"http://127.0.0.1:{handle.port}/" == handle.local_url
        assert handle.pin == PIN and handle.running
        text = out.getvalue()
        assert handle.url in text and f"Referee PIN: {PIN}" in text
        assert "█" in text or "▀" in text  # the QR code, drawn with block characters
        assert get_json(handle.local_url + "api/snapshot")["game"]["name"] == "haut-les-cubes"
        assert handle.threads >= 64 + 16  # room for every stream and camera view
    finally:
        handle.stop()
    assert not handle.running
    handle.stop()  # stopping twice is harmless


def test_a_random_pin_when_none_is_given_and_bad_settings_refused(table):
    handle = serve(table, host="127.0.0.1", port=0)
    try:
        assert handle.pin.isdigit() and len(handle.pin) == 6
    finally:
        handle.stop()
    for kwargs in ({"pin": "12"}, {"pin": "abcd"}, {"threads": 4},
                   {"config": {"max_streams": 0}}):
        with pytest.raises(UserError):
            serve(table, host="127.0.0.1", port=0, **{"pin": PIN, **kwargs})


def test_a_port_in_use_is_a_clear_error(table):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(UserError, match="--port"):
            serve(table, host="127.0.0.1", port=port, pin=PIN)


def test_the_advertised_address_is_the_one_given_to_tablets(table):
    handle = serve(table, host="0.0.0.0", port=0, pin=PIN, advertise="192.0.2.77")
    try:
        assert handle.url == f"http://192.0.2.77:{handle.port}/"
        assert handle.urls[0] == handle.url
        session = get_json(handle.local_url + "api/session")
        assert session["urls"][0] == handle.url
    finally:
        handle.stop()
    listed = addresses()
    assert listed and listed[-1].loopback  # loopback last: the QR code never encodes it first
    assert url_for_host("fe80::1", 80) == "http://[fe80::1]:80/"


def run_cli(args, data_dir):
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "companion", "serve", "--data-dir", str(data_dir),
                             "--host", "127.0.0.1", "--port", "0", "--pin", PIN, "--no-qr", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=REPO)


def read_url(proc) -> str:
    line = proc.stdout.readline()
    assert line.startswith("Dashboard: "), line + proc.stderr.read()
    return line.split()[1]


@pytest.mark.parametrize("resume", [False, True])
def test_companion_serve_reviews_or_resumes_the_latest_game(table, data_dir, resume):
    play(table.referee, "red: N -5,1^0")
    game_id = table.referee.session.game_id
    table.close()
    proc = run_cli(["--resume"] if resume else [], data_dir)
    try:
        url = read_url(proc)
        snap = get_json(url + "api/snapshot")
        assert snap["game"]["id"] == game_id
        assert "red: N -5,1^0" in [e["data"].get("notation") for e in snap["history"]]
        assert snap["camera"]["status"] == "absent"
        assert get_json(url + "api/session")["read_only"] is (not resume)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Dashboard stopped." in out


def test_companion_serve_stops_cleanly_when_stopped_as_soon_as_it_says_where(table, data_dir):
    """Ctrl-C the moment the address is printed stops the dashboard as any later Ctrl-C does:
    the handlers are in place before the address is given."""
    play(table.referee, "red: N -5,1^0")
    table.close()
    proc = run_cli([], data_dir)
    try:
        read_url(proc)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Dashboard stopped." in out


def test_companion_serve_refuses_an_unknown_game(data_dir):
    proc = run_cli(["--game-id", "no-such-game"], data_dir)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode != 0 and "no game 'no-such-game'" in err


def test_companion_serve_with_an_empty_log_serves_no_game(data_dir):
    proc = run_cli([], data_dir)
    try:
        url = read_url(proc)
        assert wait_for(lambda: get_json(url + "api/snapshot"), what="snapshot")["game"] is None
        assert get_json(url + "api/session")["read_only"] is False
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
    assert proc.returncode == 0
