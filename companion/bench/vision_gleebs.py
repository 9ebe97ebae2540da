"""``companion bench vision_gleebs``: how well and how fast the Gleeb's and Grues reader reads.

On a rendered corpus (:mod:`companion.synth.gleebs.corpus`: sessions of one camera and one light,
colours calibrated on the colour sheet under that light, several positions each, some with an
arm over the board), the raw per-frame reading is scored piece by piece, with no help from the
rules: a pyramid is right when its square, level, colour and size are. Figures are given per
camera tilt band and per lighting condition (and without the squares whose visible chain shows
one colour twice, which the reader finds only when the upper pyramid is turned against the lower
one: ``docs/observation/gleebs-and-grues.md``), with the frames where an arm was over the board
(how many were read as a position: must be 0) and the reading time of a 1280×720 frame on one
core (the process's CPU time, which other work sharing the machine does not inflate; the
wall-clock time is printed beside it), both for a session's first frame (the board located from
scratch) and for the following ones (a still camera: the board's fit is kept). With ``--games``, whole scripted games are also
rendered as videos and refereed through the live loop: the share of moves the referee judged
exactly as the script says (move, verdict, rule, score) is the move-level accuracy with the
rules' help.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from typing import Any

HELP = "Gleeb's and Grues camera reader: per-piece accuracy by tilt and light, hands, time"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=240,
                        help="rendered positions to read (default 240)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-session", type=int, default=4,
                        help="positions per camera set-up and light (default 4)")
    parser.add_argument("--hand-share", type=float, default=0.15,
                        help="share of frames with an arm reaching in (default 0.15)")
    parser.add_argument("--games", type=int, default=0, metavar="N",
                        help="also referee N rendered whole games (the scripts in turn, "
                             "from different seeds) through the live loop")


def _row(name: str, acc: dict[str, float]) -> dict[str, Any]:
    expected, correct, wrong = acc["expected"], acc["correct"], acc["wrong"]
    denom = expected + wrong
    # the same without the squares whose chain shows one colour twice (the hard case)
    e2 = expected - acc["one_colour_expected"]
    c2 = correct - acc["one_colour_correct"]
    w2 = wrong - acc["one_colour_wrong"]
    return {"group": name, "frames": int(acc["frames"]), "pyramids": int(expected),
            "exact": int(correct), "misread_or_extra": int(wrong),
            "accuracy_%": round(100.0 * correct / denom, 2) if denom else float("nan"),
            "tops_%": round(100.0 * acc["tops_correct"] / acc["tops_expected"], 2)
            if acc["tops_expected"] else float("nan"),
            "one_colour_pyramids": int(acc["one_colour_expected"]),
            "accuracy_without_them_%": round(100.0 * c2 / (e2 + w2), 2) if e2 + w2 else float("nan"),
            "unread_frames": int(acc["unread"])}


def run_corpus(args: argparse.Namespace) -> dict[str, Any]:
    from companion.synth.gleebs.corpus import corpus, score
    from companion.vision.gleebs.reader import GleebsReader

    groups: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    cold: list[float] = []
    warm: list[float] = []
    wall: list[float] = []
    hands = {"frames": 0, "read_as_position": 0}
    reader = None
    session = None
    for item in corpus(args.positions, args.seed, per_session=args.per_session,
                       hand_probability=args.hand_share):
        if item.session != session:
            reader = GleebsReader(item.shot.view.camera, item.colours)
            session = item.session
        assert reader is not None
        w0, c0 = time.perf_counter(), time.process_time()
        seen = reader.read(item.image)
        cpu = (time.process_time() - c0) * 1000.0
        (cold if item.first else warm).append(cpu)
        wall.append((time.perf_counter() - w0) * 1000.0)
        result = score(item.truth.observation, seen)
        if result["hand"]:
            hands["frames"] += 1
            hands["read_as_position"] += int(result["read_as_position"])
            continue
        for name in ("all", f"tilt {item.tilt}", f"light {item.light}"):
            g = groups[name]
            g["frames"] += 1
            for key in ("expected", "correct", "wrong", "tops_expected", "tops_correct",
                        "one_colour_expected", "one_colour_correct", "one_colour_wrong"):
                g[key] += result.get(key, 0)
            g["unread"] += int(result.get("unread", False))
    order = ["all"] + sorted(k for k in groups if k.startswith("tilt")) + \
        sorted(k for k in groups if k.startswith("light"))
    rows = [_row(name, groups[name]) for name in order]
    timing = {
        "warm_median_ms": round(statistics.median(warm), 2) if warm else None,
        "warm_p95_ms": round(sorted(warm)[int(0.95 * (len(warm) - 1))], 2) if warm else None,
        "cold_median_ms": round(statistics.median(cold), 2) if cold else None,
        "wall_median_ms": round(statistics.median(wall), 2) if wall else None,
        "frames_timed": len(wall),
    }
    return {"rows": rows, "hands": hands, "timing": timing}


def run_games(count: int, seed: int) -> dict[str, Any]:
    from companion.games.gleebs_and_grues.scripts import SCRIPTS
    from companion.demo.gleebs import referee_video

    names = sorted(SCRIPTS)
    judged = right = questions = 0
    runs = []
    for k in range(count):
        name = names[k % len(names)]
        result = referee_video(SCRIPTS[name](), seed=seed + k)
        judged += len(result.comparison.expected)
        right += result.comparison.correct
        questions += result.comparison.questions
        runs.append({"script": name, "seed": seed + k, "moves": len(result.comparison.expected),
                     "right": result.comparison.correct, "questions": result.comparison.questions,
                     "mismatches": result.comparison.mismatches[:3]})
    return {"moves": judged, "right": right, "questions": questions,
            "accuracy_%": round(100.0 * right / judged, 2) if judged else None, "runs": runs}


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.common import machine, pin_one_core, print_table

    import cv2

    pinned = pin_one_core()
    cv2.setNumThreads(1)  # one core: OpenCV's own threads would only wait for each other
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out = run_corpus(args)
    print_table(f"Gleeb's and Grues reader, {args.positions} positions, seed {args.seed} "
                f"({pinned}; {machine()['processor']})", out["rows"])
    print(f"\narms over the board: {out['hands']['frames']} frames, "
          f"{out['hands']['read_as_position']} read as a position")
    t = out["timing"]
    print(f"reading a 1280×720 frame, CPU time on one core: median {t['warm_median_ms']} ms (p95 "
          f"{t['warm_p95_ms']} ms) with the camera still; {t['cold_median_ms']} ms for a "
          f"session's first frame; wall-clock median {t['wall_median_ms']} ms with the "
          f"machine's load at {load:.1f}")
    if args.games:
        out["games"] = run_games(args.games, args.seed)
        g = out["games"]
        print(f"\nwhole games refereed from rendered video: {g['right']}/{g['moves']} moves "
              f"judged as scripted ({g['accuracy_%']} %), {g['questions']} questions asked")
    out["pinned"] = pinned
    out["load_average"] = load
    return out
