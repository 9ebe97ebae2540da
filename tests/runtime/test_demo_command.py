"""``companion demo``: the scripted game of each game through the whole chain, headless (verdicts
and a summary on the terminal) and with the dashboard (served on localhost while it plays)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.cli import main
from companion.demo.play import demo_script
from companion.games import GAMES, get_game
from companion.referee.scripted import expectations


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_ideal_demo_of_every_game_prints_each_verdict_and_the_summary(name, tmp_path, capsys):
    script = demo_script(name)
    assert main(["demo", "--game", name, "--headless", "--ideal", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    want = expectations(get_game(name), script)
    illegal = sum(1 for e in want if not e.legal)
    # one line per flagged illegal move, and the summary counts them
    assert out.count("ILLEGAL") >= illegal
    assert f"{illegal} illegal moves flagged" in out or (illegal == 1 and "1 illegal move" in out)
    assert "scores:" in out


def test_the_video_demo_referees_the_rendered_game_through_the_loop(tmp_path, capsys):
    """Gleeb's and Grues: the quickest game to draw; every verdict as the script says."""
    name = "gleebs-and-grues"
    script = demo_script(name)
    assert main(["demo", "--game", name, "--headless", "--data-dir", str(tmp_path),
                 "--board", "emulated"]) == 0
    out = capsys.readouterr().out
    want = expectations(get_game(name), script)
    assert f"{len(want)} moves judged, {sum(1 for e in want if not e.legal)} illegal" in out
    assert "video:" in out and " 0 unreadable" in out
    # the emulated board shows the final scores
    assert "the board shows the scores" in out


def test_the_demo_serves_the_dashboard_while_it_plays(tmp_path):
    """Not headless: the dashboard answers on localhost, shows the game, and the process stops
    cleanly on Ctrl-C once the game is over."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--ideal", "--game",
                             "gleebs-and-grues", "--port", str(port), "--pin", "2468",
                             "--data-dir", str(tmp_path), "--board", "none"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "dashboard stays open" in line:
                break
        text = "".join(lines)
        assert f"http://127.0.0.1:{port}" in text and "Referee PIN: 2468" in text, text
        assert "dashboard stays open" in text, text
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/snapshot", timeout=10) as r:
            snap = json.load(r)
        assert snap["game"]["name"] == "gleebs-and-grues"
        assert snap["game"]["status"].get("outcome"), "the game played to its end"
        assert len(snap["history"]) >= len(demo_script("gleebs-and-grues").steps)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0
