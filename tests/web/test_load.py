"""Load: 50 tablets on the event stream and 5 on the camera view for a minute while a whole game of
Haut les Cubes is played (the demo script's observations fed at an even pace, frames pushed at
15 fps). Every tablet must get every event, none later than a second, and the referee's verdict
latency (time inside ``referee.observe``) must stay near what it is with nobody watching.

The figures are written to artifacts/dashboard-load.json and go into BENCHMARKS.md ("Dashboard");
only loss, lateness and a generous latency ratio are asserted."""

from __future__ import annotations

import json
import multiprocessing
import statistics
import threading
import time

import numpy as np

from companion.games.haut_les_cubes.scripts import demo_script
from companion.games.script import observation_lines
from companion.observation import Observation
from companion.runtime.feed import FrameFeed
from companion.runtime.table import Table
from companion.web import serve

from web_helpers import HLC, PIN

STREAMS = 50
VIEWERS = 5
SECONDS = 60.0
FPS = 15
#: generous: the loaded median may be this many times the quiet one
LATENCY_RATIO = 6.0


def script_lines() -> list[dict]:
    return list(observation_lines(HLC, demo_script()))


def play_script(table: Table, lines: list[dict], interval: float) -> list[float]:
    """Feed the script to the table's referee; returns the seconds spent in each observe."""
    referee = table.referee
    spent = []
    start = time.monotonic()
    for i, line in enumerate(lines):
        if interval:
            delay = start + i * interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # the pace of a real table, not a wait for a condition
        if "pieces" in line:
            observation = Observation.from_json(line)
            t0 = time.perf_counter()
            referee.observe(observation, actor="camera")
            spent.append(time.perf_counter() - t0)
        elif "answer" in line:
            table.act("answer", {"choice": line["answer"]}, actor="test")
        elif line.get("let_stand"):
            table.act("let_stand", actor="test")
    return spent


def frames() -> list[np.ndarray]:
    """Camera frames as a webcam gives them: a rendered table with the sensor's noise changing
    from frame to frame (so each JPEG is as large as a real one)."""
    from companion.synth.generate import corpus_item
    from companion.synth.render import render

    scene, shot = corpus_item(1, 2)
    base = render(scene, shot).image.astype(np.int16)
    rng = np.random.default_rng(7)
    return [np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)
            for _ in range(6)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_fifty_tablets_and_five_camera_views_while_a_game_is_played(tmp_path, artifacts_dir):
    from load_clients import run as run_clients

    lines = script_lines()
    script = demo_script()

    def quiet_run(name: str) -> list[float]:
        """The referee with nobody watching (run before and after the load: the slower of the
        two is the baseline, so a machine busy with other work is not blamed on the dashboard)."""
        quiet = Table(tmp_path / name)
        quiet.start_game(HLC.name, list(script.players), dict(script.options), seed=script.seed)
        try:
            return play_script(quiet, lines, 0.0)
        finally:
            quiet.close()

    quiet_before = quiet_run("quiet-before")

    table = Table(tmp_path / "loaded", feed=FrameFeed(fps=FPS))
    table.start_game(HLC.name, list(script.players), dict(script.options), seed=script.seed)
    table.set_camera("connected", "load test", fps=FPS)
    handle = serve(table, host="127.0.0.1", port=0, pin=PIN, config={"heartbeat_s": 2.0})
    ctx = multiprocessing.get_context("spawn")
    final, stop, results = ctx.Value("i", 0), ctx.Event(), ctx.Queue()
    first = f"{table.bus.epoch}-{table.bus.last_id}"
    child = ctx.Process(target=run_clients, args=(handle.port, first, STREAMS, VIEWERS, final,
                                                   stop, results), daemon=True)
    pushing = threading.Event()
    pushed = [0]

    def push_frames() -> None:
        images = frames()
        period = 1.0 / FPS
        next_at = time.monotonic()
        while not pushing.is_set():
            table.feed.push(images[pushed[0] % len(images)], force=True)
            pushed[0] += 1
            next_at += period
            pushing.wait(max(0.0, next_at - time.monotonic()))

    pusher = threading.Thread(target=push_frames, daemon=True)
    try:
        child.start()
        assert results.get(timeout=60) == {"ready": True}, "the tablets could not all connect"
        health = handle.app.extensions["companion"]
        assert health.streams.count == STREAMS and health.cameras.count == VIEWERS
        pusher.start()
        started = time.monotonic()
        loaded_spent = play_script(table, lines, SECONDS / len(lines))
        played_s = time.monotonic() - started
        final.value = table.bus.last_id
        stop.set()
        report = results.get(timeout=60)
        child.join(30)
    finally:
        pushing.set()
        stop.set()
        handle.stop()
        table.close()
        if child.is_alive():
            child.kill()

    quiet_after = quiet_run("quiet-after")
    quiet_spent = max(quiet_before, quiet_after, key=statistics.median)
    first_id = int(first.rsplit("-", 1)[1])
    expected = list(range(first_id + 1, final.value + 1))
    lateness, lost, duplicates = [], 0, 0
    for stream in report["streams"]:
        assert "error" not in stream, stream.get("error")
        assert stream["status"] == 200
        ids = [a[0] for a in stream["arrivals"]]
        duplicates += len(ids) - len(set(ids))
        lost += len(set(expected) - set(ids))
        lateness += [arrival - ts for _, arrival, ts in stream["arrivals"]]
    viewer_fps = []
    for viewer in report["viewers"]:
        assert "error" not in viewer, viewer.get("error")
        assert viewer["status"] == 200 and viewer["frames"] > 0
        viewer_fps.append(viewer["frames"] / viewer["seconds"])
    figures = {
        "streams": STREAMS, "camera_viewers": VIEWERS, "played_s": round(played_s, 1),
        "observations": len(loaded_spent), "events": len(expected),
        "messages_delivered": len(lateness), "lost": lost, "duplicates": duplicates,
        "lateness_ms": {"median": round(statistics.median(lateness) * 1000, 1),
                        "p99": round(percentile(lateness, 0.99) * 1000, 1),
                        "max": round(max(lateness) * 1000, 1)},
        "observe_ms_quiet": {"median": round(statistics.median(quiet_spent) * 1000, 2),
                             "p95": round(percentile(quiet_spent, 0.95) * 1000, 2),
                             "max": round(max(quiet_spent) * 1000, 2)},
        "observe_ms_loaded": {"median": round(statistics.median(loaded_spent) * 1000, 2),
                              "p95": round(percentile(loaded_spent, 0.95) * 1000, 2),
                              "max": round(max(loaded_spent) * 1000, 2)},
        "frames_pushed": pushed[0],
        "viewer_fps": {"min": round(min(viewer_fps), 1), "max": round(max(viewer_fps), 1)},
        "jpeg_kib": round(len(table.feed.latest().jpeg) / 1024, 1),
    }
    (artifacts_dir / "dashboard-load.json").write_text(json.dumps(figures, indent=2) + "\n")
    print("dashboard load:", json.dumps(figures))
    assert lost == 0 and duplicates == 0
    assert max(lateness) <= 1.0, f"an event reached a tablet {max(lateness):.2f} s late"
    ratio = statistics.median(loaded_spent) / statistics.median(quiet_spent)
    assert ratio <= LATENCY_RATIO, f"the referee was {ratio:.1f} times slower under load"
    assert len(loaded_spent) == len(quiet_spent)
