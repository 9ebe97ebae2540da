"""``companion bench vision_altitude``: how well and how fast the Altitude reader reads.

On a rendered corpus (:mod:`companion.synth.altitude.corpus`: random mid-game tables of one to
four players with the ``demo`` deck of 52 cards, cameras over the table kit's range, six
lights, some frames with an arm reaching in), the raw per-frame reading is scored card by card
with no help from the rules (:func:`companion.synth.altitude.corpus.score`): a mountain card is
right when the card read in its zone and slot is that card; the discard's top, the shown drawn
card and the kept cards likewise. Mountain cards are counted apart by how much of them shows
(``full``: nothing on them; ``quarter``: one card on half their upper half; ``half``: two cards
on it). Figures are given per camera tilt band and per light, with the frames where an arm was
over the table (how many were read as a position: must be 0), the frames with no arm taken for
arm frames (read as nothing), and the reading time of a 1280×720 frame on one core (the
process's CPU time; the wall-clock time is printed beside it), and of the same still table read
again by the same reader, its sensor noise drawn anew (a warm reading: the parts whose pixels
did not change are taken as they were read). The cards are enrolled once per
camera as ``companion calibrate cards`` does, through that camera under that light. With
``--games``, the demo's scripted game is also rendered as a video and refereed through the
live loop: the share of moves the referee judged as the script says. As the command does with a
manifest, the copies of a card (same kind, value and label) are declared printed alike: the
reader then tells copies apart by their print-run mark alone, and the score still counts a copy
read for its twin as wrong.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from typing import Any

HELP = "Altitude camera reader: per-card accuracy by tilt and light, hands, time"

TILT_BANDS = ((0.0, 12.0), (12.0, 24.0), (24.0, 35.1))


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=60,
                        help="rendered tables to read (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand-share", type=float, default=0.15,
                        help="share of frames with an arm reaching in (default 0.15)")
    parser.add_argument("--games", type=int, default=0, metavar="N",
                        help="also referee the demo game rendered from N seeds through the live loop")


def _band(tilt: float) -> str:
    for lo, hi in TILT_BANDS:
        if lo <= tilt < hi:
            return f"tilt {lo:.0f}-{min(hi, 35.0):.0f}°"
    return "tilt >35°"


def _pct(right: float, total: float) -> float:
    return round(100.0 * right / total, 2) if total else float("nan")


def _row(name: str, acc: dict[str, float]) -> dict[str, Any]:
    return {"group": name, "frames": int(acc["frames"]), "cards": int(acc["cards"]),
            "exact_%": _pct(acc["cards_right"], acc["cards"]),
            "full_%": _pct(acc["full_right"], acc["full"]),
            "quarter_%": _pct(acc["quarter_right"], acc["quarter"]),
            "half_%": _pct(acc["half_right"], acc["half"]),
            "piles_%": _pct(acc["discard_right"] + acc["drawn_right"] + acc["kept_right"],
                            acc["discard"] + acc["drawn"] + acc["kept"]),
            "extra": int(acc["extra"]), "taken_for_arm": int(acc["false_hand"])}


def run_corpus(args: argparse.Namespace) -> dict[str, Any]:
    from companion.synth.altitude.corpus import corpus, score
    from companion.synth.altitude.deck import load_deck
    from companion.synth.altitude.enrol import enrolled_library, enrolment_shot
    from companion.synth.altitude.generate import table_layout
    from companion.vision.altitude.reader import make_reader

    deck = load_deck("demo")
    designs: dict[tuple, list[str]] = {}
    for c in deck:  # copies of one card share kind, value and label, as `calibrate cards` groups them
        designs.setdefault((c.kind, c.value, c.label), []).append(c.id)
    libraries: dict[str, Any] = {}
    groups: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    cpu: list[float] = []
    wall: list[float] = []
    warm_cpu: list[float] = []
    warm_same = 0
    hands = {"frames": 0, "read_as_position": 0}
    for item in corpus(args.positions, args.seed, hand_probability=args.hand_share):
        light = item.light
        if light not in libraries:  # enrolled once per light, through a table camera
            libraries[light] = enrolled_library(deck, enrolment_shot(seed=args.seed, light=light), frames=1)
            libraries[light].set_twins([g for g in designs.values() if len(g) > 1])
        seats = tuple(m.seat for m in item.scene.mountains) or ("red",)
        reader = make_reader(camera=item.shot.view.camera, table_layout=table_layout(item.scene.layout),
                             cards=libraries[light], seats=seats)
        w0, c0 = time.perf_counter(), time.process_time()
        seen = reader.read(item.image)
        cpu.append((time.process_time() - c0) * 1000.0)
        wall.append((time.perf_counter() - w0) * 1000.0)
        if seen is not None and not seen.hand:
            # the same still table read again (its sensor noise drawn anew): a warm reading
            image = _noisy(item.image, len(cpu))
            c0 = time.process_time()
            again = reader.read(image)
            warm_cpu.append((time.process_time() - c0) * 1000.0)
            warm_same += int(again is not None and _keys(again) == _keys(seen))
        result = score(item.truth, seen)
        if item.truth.hand_over_table:
            hands["frames"] += 1
            hands["read_as_position"] += int(result["hand_read_as_position"])
            continue
        result["false_hand"] = int(seen is not None and seen.hand)
        result["frames"] = 1
        for name in ("all", _band(item.tilt_deg), f"light {light}"):
            g = groups[name]
            for key, value in result.items():
                g[key] += value
    order = ["all"] + sorted(k for k in groups if k.startswith("tilt")) + \
        sorted(k for k in groups if k.startswith("light"))
    rows = [_row(name, groups[name]) for name in order]
    timing = {"cpu_median_ms": round(statistics.median(cpu), 1) if cpu else None,
              "cpu_p95_ms": round(sorted(cpu)[int(0.95 * (len(cpu) - 1))], 1) if cpu else None,
              "wall_median_ms": round(statistics.median(wall), 1) if wall else None,
              "frames_timed": len(cpu),
              "warm_cpu_median_ms": round(statistics.median(warm_cpu), 1) if warm_cpu else None,
              "warm_frames": len(warm_cpu), "warm_same_reading": warm_same}
    return {"rows": rows, "hands": hands, "timing": timing}


def _noisy(image: Any, seed: int) -> Any:
    """Another frame of the same still table: the sensor's noise (2 levels) drawn again."""
    import numpy as np

    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 2.0, image.shape).round().astype(np.int16)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def _keys(observation: Any) -> list[tuple]:
    return sorted((p.kind, p.zone or "", str(p.get("card")), p.get("etage") or 0, p.get("pos") or 0)
                  for p in observation.pieces)


def run_games(count: int, seed: int) -> dict[str, Any]:
    from companion.demo.altitude import referee_video
    from companion.games.altitude.scripts import demo_script

    judged = right = questions = 0
    runs = []
    for k in range(count):
        t0 = time.perf_counter()
        result = referee_video(demo_script(), seed=seed + k)
        c = result.comparison
        judged += len(c.expected)
        right += c.correct
        questions += c.questions
        runs.append({"seed": seed + k, "moves": len(c.expected), "right": c.correct,
                     "questions": c.questions, "wall_s": round(time.perf_counter() - t0, 1),
                     "mismatches": c.mismatches[:3]})
    return {"moves": judged, "right": right, "questions": questions,
            "accuracy_%": _pct(right, judged) if judged else None, "runs": runs}


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.common import machine, pin_one_core, print_table

    import cv2

    pinned = pin_one_core()
    cv2.setNumThreads(1)  # one core: OpenCV's own threads would only wait for each other
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out = run_corpus(args)
    print_table(f"Altitude reader, {args.positions} tables, seed {args.seed} "
                f"({pinned}; {machine()['processor']})", out["rows"])
    print(f"\narms over the table: {out['hands']['frames']} frames, "
          f"{out['hands']['read_as_position']} read as a position")
    t = out["timing"]
    print(f"reading a 1280×720 frame (the seats in play), CPU time on one core: median "
          f"{t['cpu_median_ms']} ms (p95 {t['cpu_p95_ms']} ms); wall-clock median "
          f"{t['wall_median_ms']} ms with the machine's load at {load:.1f}")
    print(f"the same still table read again by the same reader (warm): "
          f"CPU median {t['warm_cpu_median_ms']} ms over {t['warm_frames']} frames, "
          f"{t['warm_same_reading']} read as the first time")
    if args.games:
        out["games"] = run_games(args.games, args.seed)
        g = out["games"]
        print(f"\nthe demo game refereed from rendered video: {g['right']}/{g['moves']} moves "
              f"judged as scripted ({g['accuracy_%']} %), {g['questions']} questions asked; "
              + ", ".join(f"seed {r['seed']}: {r['wall_s']} s" for r in g["runs"]))
    out["pinned"] = pinned
    out["load_average"] = load
    return out
