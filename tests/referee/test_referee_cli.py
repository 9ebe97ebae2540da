"""`companion referee` and `companion log` end to end: verdict lines, bad input, resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.cli import main
from companion.games.script import observation_lines
from companion.games.haut_les_cubes.scripts import sensible_game
from companion.store import EventLog

from referee_helpers import HLC

PLAYERS = ("red", "blue", "green")


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    script = sensible_game(PLAYERS, seed=44)
    path = tmp_path_factory.mktemp("obs") / "game.jsonl"
    with open(path, "w") as fh:
        for line in observation_lines(HLC, script):
            fh.write(json.dumps(line) + "\n")
    return path


def run_cli(*args, data_dir):
    return subprocess.run([sys.executable, "-m", "companion", *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True, timeout=120)


def record(data_dir):
    """A game's record without what differs between runs (times, ids)."""
    with EventLog.in_dir(data_dir) as log:
        game_id = log.latest_game()
        return [(e.type, e.actor, {k: v for k, v in e.data.items() if k != "source"})
                for e in log.events(game_id)]


def test_one_verdict_a_line(game_file, data_dir, capsys):
    status = main(["referee", "--game", HLC.name, "--players", ",".join(PLAYERS),
                   "--observations", str(game_file), "--data-dir", str(data_dir)])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["event"] == "game.started"
    judged = [l for l in lines if l["event"] == "move.judged"]
    assert len(judged) > 60
    for line in judged:
        assert {"notation", "move", "legal", "rule", "score_delta", "scores"} <= set(line)
        assert HLC.move_from_json(line["move"]) is not None
    illegal = [l for l in judged if not l["legal"]]
    assert illegal and all(l["rule"]["id"].startswith("hlc.") and l["rule"]["fr"] for l in illegal)
    assert any(l["event"] == "question.asked" for l in lines)
    assert lines[-1]["event"] == "summary" and lines[-1]["outcome"]["winners"]


def test_a_malformed_line_is_refused_with_its_line_number_and_loses_nothing(game_file, tmp_path,
                                                                            data_dir):
    lines = game_file.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:10] + ['{"game": "haut-les-cubes", "pieces": [{"kind": "cube", "cell": [1]}]}'] + lines[10:]) + "\n")
    result = run_cli("referee", "--game", HLC.name, "--players", ",".join(PLAYERS),
                     "--observations", str(bad), data_dir=data_dir)
    assert result.returncode == 2
    assert f"{bad}:11" in result.stderr and "cell must be two integers" in result.stderr
    before = record(data_dir)
    # nothing from line 11 on was judged; fix the file and resume: nothing lost, nothing doubled
    bad.write_text("\n".join(lines[:10] + ["# the bad line was removed"] + lines[10:]) + "\n")
    result = run_cli("referee", "--game", HLC.name, "--resume", "--observations", str(bad),
                     data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    after = record(data_dir)
    assert after[:len(before)] == before
    clean = data_dir.parent / "clean"
    clean.mkdir()
    assert run_cli("referee", "--game", HLC.name, "--players", ",".join(PLAYERS),
                   "--observations", str(game_file), data_dir=clean).returncode == 0
    assert after == record(clean)


def test_not_json_and_missing_file_are_clear_errors(tmp_path, data_dir):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "haut-les-cubes", "pieces": []}\n{nope\n')
    result = run_cli("referee", "--game", HLC.name, "--players", "red,blue,green",
                     "--observations", str(bad), data_dir=data_dir)
    assert result.returncode == 2 and f"{bad}:2: not JSON" in result.stderr
    result = run_cli("referee", "--game", HLC.name, "--players", "red,blue,green",
                     "--observations", str(tmp_path / "none.jsonl"), data_dir=data_dir)
    assert result.returncode == 2 and "cannot read" in result.stderr
    result = run_cli("referee", "--game", HLC.name, "--players", "red,purple,green",
                     "--observations", str(bad), data_dir=data_dir)
    assert result.returncode == 1 and "unknown giant colour" in result.stderr


@pytest.mark.parametrize("trial", range(3))
def test_killed_and_resumed_the_record_is_the_same(game_file, tmp_path, trial):
    clean, crashed = tmp_path / "clean", tmp_path / "crashed"
    assert run_cli("referee", "--game", HLC.name, "--players", ",".join(PLAYERS),
                   "--observations", str(game_file), data_dir=clean).returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "companion", "referee", "--game", HLC.name,
                             "--players", ",".join(PLAYERS), "--observations", str(game_file),
                             "--data-dir", str(crashed)], stdout=subprocess.PIPE, text=True)
    # kill it after it has printed a few verdicts (a different number each trial)
    for _ in range(5 + 15 * trial):
        if not proc.stdout.readline():
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    result = run_cli("referee", "--game", HLC.name, "--resume", "--observations", str(game_file),
                     data_dir=crashed)
    assert result.returncode == 0, result.stderr
    assert record(crashed) == record(clean)


def test_log_export_and_a_corrupt_event(game_file, data_dir, capsys):
    main(["referee", "--game", HLC.name, "--players", ",".join(PLAYERS),
          "--observations", str(game_file), "--data-dir", str(data_dir)])
    capsys.readouterr()
    assert main(["log", "export", "--data-dir", str(data_dir)]) == 0
    exported = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert exported[0]["type"] == "game.started" and len(exported) > 60
    assert main(["log", "list", "--data-dir", str(data_dir)]) == 0
    assert "haut-les-cubes" in capsys.readouterr().out
    db = sqlite3.connect(str(data_dir / EventLog.FILENAME))
    db.execute("UPDATE events SET data = '{broken' WHERE seq = 5")
    db.commit()
    db.close()
    assert main(["log", "export", "--data-dir", str(data_dir)]) == 1
    assert "event 5 is corrupt" in capsys.readouterr().err
