"""Every game refereed from an observation file through `companion referee`, and resumed.

For each game, its demo script is written as an observation file (what an ideal camera would
report after each step, with the people's answers); the command must record exactly the
script's moves and verdicts, and a run stopped half-way and resumed must end with the same
record.
"""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.demo.play import demo_script
from companion.games import GAMES, get_game
from companion.games.script import observation_lines
from companion.referee.scripted import compare
from companion.store import EventLog


def write_file(path, game, script):
    with open(path, "w") as fh:
        for line in observation_lines(game, script):
            fh.write(json.dumps(line) + "\n")


def record(data_dir):
    with EventLog.in_dir(data_dir) as log:
        events = log.events(log.latest_game())
    return events, [(e.type, e.actor, {k: v for k, v in e.data.items() if k != "source"})
                    for e in events]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_demo_game_through_the_referee_command_and_resume(name, tmp_path, capsys):
    game = get_game(name)
    script = demo_script(name)
    obs = tmp_path / "game.jsonl"
    write_file(obs, game, script)
    args = ["referee", "--game", name, "--players", ",".join(script.players),
            "--observations", str(obs), "--seed", str(script.seed)]
    for key, value in script.options.items():
        args += ["--option", f"{key}={json.dumps(value)}"]
    assert main(args + ["--data-dir", str(tmp_path / "whole")]) == 0
    lines = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert lines[-1]["event"] == "summary" and lines[-1]["outcome"] is not None
    events, whole = record(tmp_path / "whole")
    result = compare(game, script, events)
    assert result.mismatches == [], result.mismatches[:3]

    # stopped half-way (the file cut), then resumed on the whole file
    half = tmp_path / "half.jsonl"
    text = obs.read_text().splitlines()
    half.write_text("\n".join(text[: len(text) // 2]) + "\n")
    assert main(args[:6] + [str(half)] + args[7:] + ["--data-dir", str(tmp_path / "resumed")]) == 0
    assert main(["referee", "--game", name, "--resume", "--observations", str(obs),
                 "--data-dir", str(tmp_path / "resumed")]) == 0
    capsys.readouterr()
    assert record(tmp_path / "resumed")[1] == whole
