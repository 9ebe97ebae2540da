"""`companion run` end to end: a table filmed to a folder of frames (the first moves of the
rendered Gleeb's and Grues and Haut les Cubes demo games), calibrated as a user would (the lens;
for Gleeb's the learned colours, for Haut les Cubes the enrolled cards), refereed headless with
the emulated LED board; and the process killed at random moments and started again with
--resume, ending with the same record, in 20 trials per game."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace

import cv2
import pytest

from calibration.store import Calibration, save_calibration, save_colours
from companion.demo import gleebs, hlc
from companion.demo.play import demo_script
from companion.games import get_game
from companion.referee.scripted import compare
from companion.store import EventLog
from companion.synth.gleebs.calibration_shot import learn_colours

GAMES = ("gleebs-and-grues", "haut-les-cubes")
STEPS = 10


def _film_gleebs(script, calibrated):
    source = gleebs.demo_source(script, seed=3)
    path = save_calibration(Calibration(camera=source.shot.view.camera), calibrated / "calibration.json")
    save_colours(script.game, learn_colours(source.start.board, source.shot), path)
    return source


def _film_hlc(script, calibrated):
    from companion.bench.vision import enrol_cards
    from companion.vision.cards import library_path

    source = hlc.demo_source(script, seed=0)
    save_calibration(Calibration(camera=source.shot.view.camera), calibrated / "calibration.json")
    enrol_cards(source.sequence.layout).save(library_path(script.game, calibrated))
    return source


@pytest.fixture(scope="module", params=GAMES)
def filmed(request, tmp_path_factory):
    """The first steps of a demo game, as a folder of frames and a calibrated data dir."""
    script = demo_script(request.param)
    script = replace(script, steps=script.steps[:STEPS])
    calibrated = tmp_path_factory.mktemp("calibration")
    film = _film_hlc if request.param == "haut-les-cubes" else _film_gleebs
    source = film(script, calibrated)
    folder = tmp_path_factory.mktemp("frames")
    n = 0
    while (frame := source.read()) is not None:
        cv2.imwrite(str(folder / f"{n:05d}.png"), frame.image)
        n += 1
    return script, folder, calibrated


def fresh_data_dir(calibrated, target):
    target.mkdir()
    for name in os.listdir(calibrated):
        (target / name).write_bytes((calibrated / name).read_bytes())
    return target


def command(script, folder, data_dir, *, resume=False):
    cmd = [sys.executable, "-m", "companion", "run", "--game", script.game, "--camera", str(folder),
           "--serial", "emulated", "--headless", "--data-dir", str(data_dir)]
    return cmd + (["--resume"] if resume else ["--players", ",".join(script.players)])


def record(data_dir):
    with EventLog.in_dir(data_dir) as log:
        events = log.events(log.latest_game())
    return events, [(e.type, e.actor, {k: v for k, v in e.data.items() if k != "source"})
                    for e in events]


@pytest.fixture(scope="module")
def uninterrupted(filmed, tmp_path_factory):
    """The filmed game refereed from start to end without interruption."""
    script, folder, calibrated = filmed
    data_dir = fresh_data_dir(calibrated, tmp_path_factory.mktemp("clean") / "data")
    result = subprocess.run(command(script, folder, data_dir), capture_output=True, text=True,
                            timeout=600, stdin=subprocess.DEVNULL)
    return result, data_dir


def test_a_filmed_game_is_refereed_headless(filmed, uninterrupted):
    script, _, _ = filmed
    result, data_dir = uninterrupted
    assert result.returncode == 0, result.stderr[-2000:]
    events, _ = record(data_dir)
    comparison = compare(get_game(script.game), script, events)
    assert comparison.mismatches == [], comparison.mismatches[:5]
    assert "legal" in result.stdout


@pytest.mark.parametrize("trial", range(20))
def test_killed_at_a_random_moment_and_resumed(filmed, uninterrupted, tmp_path, trial):
    """SIGKILL after a random number of verdicts and a random fraction of a second more (in the
    middle of reading, judging or writing), then ``--resume``: the same record as without the
    crash, in 20 trials."""
    script, folder, calibrated = filmed
    assert uninterrupted[0].returncode == 0
    clean = uninterrupted[1]
    crashed = fresh_data_dir(calibrated, tmp_path / "crashed")
    proc = subprocess.Popen(command(script, folder, crashed), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    # wait until the game has a few moves, then kill it at a random moment
    rng = random.Random(trial)
    deadline = time.monotonic() + 300
    wanted = rng.randint(1, STEPS - 2)
    while time.monotonic() < deadline and proc.poll() is None:
        if (crashed / EventLog.FILENAME).exists():
            with EventLog.in_dir(crashed) as log:
                game = log.latest_game()
                if game and sum(1 for e in log.events(game) if e.type == "move.judged") >= wanted:
                    break
        time.sleep(0.05)  # polling the log file written by the other process
    time.sleep(rng.uniform(0.0, 0.4))  # a random moment within the next reading
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    result = subprocess.run(command(script, folder, crashed, resume=True), capture_output=True,
                            text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr[-2000:]
    assert record(crashed)[1] == record(clean)[1]
