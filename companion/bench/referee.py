"""``companion bench referee``: the whole loop on rendered games, as a table would run it.

Each game's scripted games are drawn by the synthetic table as videos (the game's demo module:
hands making each move, illegal moves put right, questions answered by the script's people) with
**video seeds the tests never use** (light, camera pose, noise, hands), and refereed through the
live loop: stillness gate, camera reader, referee. For Haut les Cubes the scripts themselves are
benchmark-only too: whole games played by :func:`sensible_game` with seeds no test uses.

Reported per game:

* **moves right with the rules' help**: the referee's record against the script (move,
  legality, rule, score change, asked when it must be), as ``companion.referee.scripted``
  compares them;
* **positions read exactly by the raw reading alone**: of the readings of still positions, the
  share whose observation equals the synthetic table's truth piece for piece (kind, square,
  level, colour/face...) — what a referee with no rules would have to rely on;
* **latency** from the first still frame after a move to the verdict event (median, 95th
  percentile), and the frame size; and its parts' medians: the stillness gate's wait (set by
  the video's still frames), the reading, the judging, and when the reading was done counted
  from the first still frame (``read_by``: with ``--read-early`` the loop reads on the first
  frame the gate finds unmoved, so the reading overlaps the gate's wait);
* **CPU of an unchanged table**: the loop watching the same still frame at 30 frames a second
  for ``--idle-s`` seconds, as a share of one core (process CPU time over wall time); both over
  the whole watch and in the steady state after the first reading, because that one reading of
  a table the loop has never seen is paid once per game, not per second watched.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from typing import Any

HELP = "referee loop on rendered games: moves right with rules vs raw reading, latency, idle CPU"

GAMES = ("haut-les-cubes", "gleebs-and-grues", "terra-turrium", "ville-des-nains", "altitude")
#: video seeds of the benchmark (tests use small seeds: 0 to 40)
VIDEO_SEED = 9000
#: Haut les Cubes games of the benchmark, 3 players, seeds no test uses: whole games of 127,
#: 130, 134 and 146 steps, each with 5 to 7 illegal moves and 2 to 8 questions
HLC_SEEDS = (7178, 7103, 7057, 7090)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", action="append", choices=GAMES, metavar="GAME",
                        help="a game to measure (repeatable; default: every game)")
    parser.add_argument("--videos", type=int, default=1,
                        help="rendered games per game (default 1)")
    parser.add_argument("--idle-s", type=float, default=10.0,
                        help="seconds of an unchanged table watched at 30 fps (default 10)")
    parser.add_argument("--read-early", action="store_true",
                        help="the loop reads on the first still frame, inside the gate's wait")
    parser.add_argument("--idle-only", action="store_true",
                        help="measure only the unchanged table's CPU, not the refereed games")
    parser.add_argument("--fps", type=float, default=None,
                        help="Haut les Cubes only: render its videos at this frame rate "
                        "(default: the demo's 10 fps)")
    parser.add_argument("--gate-frames", type=float, default=None,
                        help="the stillness gate's wait, in frames of the video (default: the "
                        "demo's own gate for each game)")


def bench_scripts(game: str, count: int) -> list[Any]:
    """The scripts the benchmark plays: for Haut les Cubes, games with benchmark-only seeds; for
    the other games, the scripted games they ship, in turn."""
    if game == "haut-les-cubes":
        from companion.games.haut_les_cubes.scripts import sensible_game

        return [sensible_game(("red", "blue", "green"), seed=HLC_SEEDS[k % len(HLC_SEEDS)])
                for k in range(count)]
    from companion.demo.play import demo_script

    return [demo_script(game)] * count


def piece_key(piece: dict[str, Any]) -> tuple:
    """A piece as the benchmark compares it: what it is, where, and what it shows (colour, face,
    card...), not how sure the reader is or exactly where in millimetres."""
    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in piece.items()
                        if k not in ("conf", "xyz")))


def exact(observation: Any, truth: dict[str, Any]) -> bool:
    """Whether a reading equals the synthetic table's truth, piece for piece."""
    seen = Counter(piece_key(p) for p in observation.to_json().get("pieces", ()))
    want = Counter(piece_key(p) for p in truth["observation"].get("pieces", ()))
    return seen == want


class RecordingReader:
    """The game's reader, keeping each reading beside the frame's truth (for the raw figure)."""

    def __init__(self, reader: Any):
        self.reader = reader
        self.readings: list[tuple[bool, bool]] = []  # (still position, read exactly)
        #: the truth of every frame read (what the demo module needs to say what the camera
        #: could not see)
        self.truths: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)

    def memory(self) -> tuple:
        """The reader's memory and how many readings were kept (a reading the loop drops is
        neither remembered by the reader nor counted)."""
        from companion.runtime.memory import Kept

        return Kept(self.reader), len(self.readings), len(self.truths)

    def recall(self, memory: tuple) -> None:
        kept, readings, truths = memory
        kept.restore()
        del self.readings[readings:]
        del self.truths[truths:]

    def read(self, frame: Any) -> Any:
        seen = self.reader.read(frame)
        truth = getattr(frame, "truth", None) or {}
        self.truths.append(truth)
        if seen is not None and not seen.hand and "observation" in truth:
            still = not truth.get("hand") and truth.get("still", not truth.get("moving", False))
            if still:
                self.readings.append((True, exact(seen, truth)))
        return seen


def referee_one(script: Any, seed: int, *, read_early: bool = False, fps: float | None = None,
                gate_frames: float | None = None) -> dict[str, Any]:
    """Referee one rendered game; the comparison, the raw readings, the loop's figures.

    ``fps``: the video's frame rate (Haut les Cubes only; its demo is drawn at 10 fps);
    ``gate_frames``: the stillness gate's wait in frames, instead of the demo's own gate."""
    from companion.demo.video import demo_module, play_video
    from companion.games import get_game
    from companion.referee.scripted import compare
    from companion.runtime.table import Table

    from companion.vision.stillness import StillnessGate

    module = demo_module(script.game)
    if fps is not None:
        if script.game != "haut-les-cubes":
            from companion.errors import BadInput

            raise BadInput("--fps applies to Haut les Cubes videos only (the other games' "
                           "videos are drawn at their own rates): add --game haut-les-cubes")
        source = module.demo_source(script, seed, fps=fps)
    else:
        source = module.demo_source(script, seed)
    gate = None
    if gate_frames is not None:
        gate = StillnessGate(still_s=gate_frames / (source.fps or 15.0))
    reader = RecordingReader(module.reader_for(source))
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(tmp)
        try:
            started = time.perf_counter()
            loop = play_video(table, script, seed=seed, source=source, reader=reader,
                              read_early=read_early, gate=gate)
            wall = time.perf_counter() - started
            referee = table.require_game()
            events = table.log.events(referee.session.game_id)
            # what the referee must do at this table: a demo module may turn steps the camera
            # cannot see into questions (a block laid behind a tall tower)
            expected = getattr(module, "expected_script", None)
            judged_against = expected(script, reader.truths) if expected else script
            comparison = compare(get_game(script.game), judged_against, events)
            # and where the referee may ask: a question where this camera cannot see where a
            # piece went is the referee doing its job (it never guesses), not a mistake
            blind = getattr(module, "blind_steps", None)
            if blind is not None:
                may_ask = {f"step {n} ({judged_against.steps[n].kind}): asked although the "
                           f"picture was clear" for n in blind(judged_against, source.shot)}
                comparison.mismatches = [m for m in comparison.mismatches if m not in may_ask]
        finally:
            table.close()
    return {"comparison": comparison, "raw": reader.readings, "stats": loop.stats, "wall_s": wall}


def idle_cpu(game: str, seconds: float) -> dict[str, Any]:
    """The loop watching an unchanged table at 30 frames a second."""
    import numpy as np

    from companion.demo.play import demo_script
    from companion.demo.video import demo_module
    from companion.runtime.loop import RefereeLoop
    from companion.runtime.table import Table
    from companion.vision.frames import Frame
    from companion.vision.stillness import StillnessGate

    module = demo_module(game)
    script = demo_script(game)
    source = module.demo_source(script, VIDEO_SEED)
    image = source.read().image
    reader = module.reader_for(source)

    class StillTable:
        """The same frame at 30 fps, paced in real time, for ``seconds``."""

        fps = 30.0
        name = "still table"

        def __init__(self) -> None:
            self.index = 0
            self.t0 = time.monotonic()
            self.loop: RefereeLoop | None = None
            #: process CPU and wall clock when the first reading was done
            self.after_first: tuple[float, float] | None = None

        def read(self) -> Frame | None:
            if (self.after_first is None and self.loop is not None
                    and self.loop.stats.readings > 0):
                self.after_first = (time.process_time(), time.monotonic())
            t = self.index / self.fps
            if t >= seconds:
                return None
            wait = self.t0 + t - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.index += 1
            return Frame(image=image, index=self.index - 1, t=t)

        def close(self) -> None:
            pass

    with tempfile.TemporaryDirectory() as tmp:
        table = Table(tmp)
        try:
            table.start_game(script.game, list(script.players), dict(script.options),
                             seed=script.seed, actor="bench")
            still = StillTable()
            loop = RefereeLoop(table, still, reader, StillnessGate(), keyframes=False)
            still.loop = loop
            cpu0, wall0 = time.process_time(), time.monotonic()
            loop.run()
            cpu_end, wall_end = time.process_time(), time.monotonic()
            cpu, wall = cpu_end - cpu0, wall_end - wall0
        finally:
            table.close()
    steady = None
    if still.after_first is not None and wall_end - still.after_first[1] > 0.5:
        steady = round((cpu_end - still.after_first[0]) / (wall_end - still.after_first[1]), 3)
    h, w = image.shape[:2]
    return {"frames": loop.stats.frames, "readings": loop.stats.readings,
            "cpu_share_of_one_core": round(cpu / wall, 3),
            "cpu_share_after_first_reading": steady, "frame": f"{w}x{h}",
            "gate_ms_median": round(1000 * float(np.median(loop.stats.busy)), 2)
            if loop.stats.busy else None}


def run(args: argparse.Namespace) -> dict[str, Any]:
    games = args.game or list(GAMES)
    figures: dict[str, Any] = {}
    for game in games:
        if args.idle_only:
            figures[game] = {"idle": idle_cpu(game, args.idle_s)}
            print(f"{game}: {figures[game]}", flush=True)
            continue
        moves = right = 0
        raw_read = raw_right = 0
        latencies: list[float] = []
        parts: dict[str, list[float]] = {"gate_wait": [], "reading": [], "judging": [],
                                         "read_by": []}
        mismatches: list[str] = []
        wall = 0.0
        early_dropped = 0
        for k, script in enumerate(bench_scripts(game, args.videos)):
            one = referee_one(script, VIDEO_SEED + k, read_early=args.read_early,
                              fps=args.fps, gate_frames=args.gate_frames)
            c = one["comparison"]
            moves += len(c.expected)
            right += c.correct
            mismatches += [f"video {k}: {m}" for m in c.mismatches]
            raw_read += len(one["raw"])
            raw_right += sum(1 for _, ok in one["raw"] if ok)
            latencies += one["stats"].latencies
            parts["gate_wait"] += one["stats"].waits
            parts["reading"] += one["stats"].reading_s
            parts["judging"] += one["stats"].judging_s
            parts["read_by"] += one["stats"].read_by
            wall += one["wall_s"]
            early_dropped += one["stats"].early_dropped
        lat = sorted(latencies)
        figures[game] = {
            "videos": args.videos,
            "read_early": bool(args.read_early),
            "fps": args.fps,
            "gate_frames": args.gate_frames,
            "early_dropped": early_dropped,
            "moves": moves,
            "moves_right_with_rules": round(right / moves, 4) if moves else None,
            "still_readings": raw_read,
            "readings_exact_raw": round(raw_right / raw_read, 4) if raw_read else None,
            "latency_ms_median": round(1000 * statistics.median(lat), 1) if lat else None,
            "latency_ms_p95": round(1000 * lat[min(len(lat) - 1, int(0.95 * len(lat)))], 1)
            if lat else None,
            "latency_parts_ms_median": {name: round(1000 * statistics.median(v), 1)
                                        for name, v in parts.items() if v},
            "wall_s": round(wall, 1),
            "mismatches": mismatches[:10],
        }
        if args.idle_s > 0:
            figures[game]["idle"] = idle_cpu(game, args.idle_s)
        print(f"{game}: {figures[game]}", flush=True)
    return figures
