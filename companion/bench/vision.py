"""``companion bench vision``: how well and how fast Haut les Cubes is read from the camera.

A seeded corpus of positions is drawn by the synthetic table (``docs/synthetic-table.md``):
mid-game mountains of 12–24 cubes up to 6 levels, giants, a card, cameras from straight down to
35° of tilt at 60–100 cm, six kinds of light, three table tops, noise, blur, JPEG. Each frame is
read as the product reads it: the table located from its markers (the lens calibrated), then the
reading. Every ``--hands-every``-th position is also shown with an arm reaching over the table;
such a frame must never be read as a position.

Figures: per-cube exact precision and recall (position and level), per-giant exact precision and
recall (colour, square, level), played-card accuracy, hand frames read as positions, hand-free
frames mistaken for hands, the median time to read a 1280×720 frame on one core, wall and CPU
time (the table location, done once per camera placement in play, timed apart) and the stillness gate's time per
frame; broken down by camera tilt and by light so weak spots show.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Any

HELP = "Haut les Cubes camera reading: accuracy on rendered positions, reading and gate times"

TILT_BANDS = ((0.0, 10.0, "0-10°"), (10.0, 20.0, "10-20°"), (20.0, 35.01, "20-35°"))


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=500, help="positions in the corpus (default 500)")
    parser.add_argument("--seed", type=int, default=2024, help="corpus seed (default 2024)")
    parser.add_argument("--hands-every", type=int, default=4, metavar="K",
                        help="also show every K-th position with an arm over the table (default 4)")
    parser.add_argument("--start", type=int, default=0, help="first position index (to split a run)")
    parser.add_argument("--demo-video", type=int, default=None, metavar="SEED",
                        help="instead: read the last frame of every still position of the demo "
                             "game's video of this seed against its truth")
    parser.add_argument("--referee", action="store_true",
                        help="with --demo-video: also referee the whole video through the live "
                             "loop and compare with the script")
    parser.add_argument("--cold", action="store_true",
                        help="with --demo-video: read every position cold (from its frame alone), "
                             "not warm from the last position read")


def _band(tilt: float) -> str:
    for lo, hi, name in TILT_BANDS:
        if lo <= tilt < hi:
            return name
    return TILT_BANDS[-1][2]


def enrol_cards(layout) -> Any:
    """Enrol the six cards as a user would: each laid in the zone once, seen by a calibrated
    camera under plain light."""
    import math

    from companion.synth.render import render
    from companion.synth.scene import Light, Scene, Shot
    from companion.vision.camera import CameraModel, TablePose, View
    from companion.vision.cards import CardLibrary
    from companion.vision.hlc.lattice import Lattice
    from companion.vision.hlc.layout import CARD_NAMES

    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(70) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), source="synthetic")
    ax, ay = layout.anchor_xy
    view = View(cam, TablePose.look_at((ax, ay - 250.0, 800.0), (ax + 60, ay, 0.0), (0.0, 1.0, 0.0)))
    lib = CardLibrary("haut-les-cubes")
    for name in CARD_NAMES:
        scene = Scene(Lattice((ax, ay)), (), (), name)
        shot = Shot(view=view, light=Light(30.0, 60.0, (0.7, 0.7, 0.7), (0.35, 0.35, 0.35)), table="cloth",
                    noise=1.0, blur=0.5, jpeg=None, seed=1)
        image = render(scene, shot, layout).image
        lib.enroll_from_view(name, [image], layout.card_zone_corners(), view)
    return lib


def gate_timing(samples: int = 300) -> list[float]:
    import numpy as np

    from companion.bench.common import timed
    from companion.synth.generate import corpus_item
    from companion.synth.render import render
    from companion.vision.stillness import StillnessGate

    scene, shot = corpus_item(7, 0)
    frames = [render(scene, shot).image]
    frames.append(np.roll(frames[0], 3, axis=1))
    gate = StillnessGate(0.4)
    k = iter(range(10**9))
    return timed(lambda: gate.update(frames[next(k) % 2], next(k) / 30.0), samples)


def demo_video(seed: int, referee: bool = False, cold: bool = False) -> dict[str, Any]:
    """The demo game's video (``companion demo --game haut-les-cubes --seed SEED``): the last
    frame of each still position read in order, as the table reads them (warm from the last
    position read when the camera has not moved, :mod:`companion.vision.hlc.warm`; the lattice
    angle of the last frame carried over), against the scene's truth; ``cold``: every position
    read from its frame alone; with ``referee``, the whole video refereed through the live loop
    too."""
    from companion.demo.hlc import demo_source, reader_for, referee_video
    from companion.games.haut_les_cubes.scripts import demo_script

    script = demo_script()
    source = demo_source(script, seed)
    reader = reader_for(source)
    reader.warm = not cold
    seq = source.sequence
    wrong, cpu, warm_cpu, cold_cpu = [], [], [], []
    for k in range(len(seq.keyframes)):
        # the last frame of still position k
        frame = seq.frame(_last_still(seq, k))
        c0 = time.process_time()
        obs = reader.read(frame)
        cpu.append((time.process_time() - c0) * 1000)
        (warm_cpu if reader.last.message == "warm" else cold_cpu).append(cpu[-1])
        scene = seq.keyframes[k].scene
        truth = ({((x, y), z) for x, y, z in scene.cubes}, {(g.colour, g.cell, g.level) for g in scene.giants},
                 [scene.card] if scene.card else [])
        seen = (set(), set(), []) if obs is None else (
            {(p.cell, p.level) for p in obs.of_kind("cube")},
            {(p.get("colour"), p.cell, p.level) for p in obs.of_kind("giant")},
            [p.get("card") for p in obs.of_kind("card")])
        if obs is None or obs.hand or seen != truth:
            wrong.append({"position": k, "step": source.steps[k].step,
                          "cubes": sorted(map(str, truth[0] ^ seen[0])),
                          "giants": sorted(map(str, truth[1] ^ seen[1]))})
    def median(xs: list[float]) -> float | None:
        return round(sorted(xs)[len(xs) // 2], 1) if xs else None

    cpu.sort()
    figures: dict[str, Any] = {"seed": seed, "positions": len(seq.keyframes), "cold": cold,
                               "exact": len(seq.keyframes) - len(wrong), "wrong": wrong,
                               "read CPU ms median": round(cpu[len(cpu) // 2], 1),
                               "read CPU ms p95": round(cpu[int(0.95 * (len(cpu) - 1))], 1),
                               "read warm": len(warm_cpu), "warm read CPU ms median": median(warm_cpu),
                               "cold read CPU ms median": median(cold_cpu)}
    print(f"demo video seed {seed}: {figures['exact']} of {figures['positions']} still positions read "
          f"exactly; reading CPU median {figures['read CPU ms median']} ms, p95 {figures['read CPU ms p95']} ms; "
          f"{len(warm_cpu)} read warm (median {figures['warm read CPU ms median']} ms), {len(cold_cpu)} cold "
          f"(median {figures['cold read CPU ms median']} ms)")
    for w in wrong:
        print(f"  position {w['position']} (step {w['step']}): cubes {w['cubes']} giants {w['giants']}")
    if referee:
        c0, t0 = time.process_time(), time.perf_counter()
        result = referee_video(script, seed=seed)
        c = result.comparison
        figures["refereed"] = {"steps": len(script.steps), "mismatches": c.mismatches,
                               "questions": c.questions, "unexplained": c.unexplained,
                               "CPU s": round(time.process_time() - c0), "wall s": round(time.perf_counter() - t0)}
        print(f"refereed: {len(script.steps)} steps, {len(c.mismatches)} mismatches, {c.questions} questions, "
              f"{c.unexplained} unexplained ({figures['refereed']['CPU s']} s CPU)")
        for m in c.mismatches:
            print("  " + m)
    return figures


def _last_still(seq: Any, k: int) -> int:
    """Index of the last frame of keyframe ``k``'s still stretch."""
    for start, end, key, kind in seq._segments:
        if key == k and kind == "still":
            return min(int((end - 1e-9) * seq.fps), len(seq) - 1)
    raise ValueError(f"no still stretch for position {k}")


def run(args: argparse.Namespace) -> dict[str, Any]:
    import cv2
    import numpy as np

    if getattr(args, "demo_video", None) is not None:
        cv2.setNumThreads(1)
        return demo_video(args.demo_video, args.referee, args.cold)

    from companion.bench.common import machine, pin_one_core, print_table, summary_ms
    from companion.synth.generate import corpus_item, random_hand
    from companion.synth.render import render
    from companion.synth.scoring import Tally, score
    from companion.vision.hlc.layout import DEFAULT_LAYOUT
    from companion.vision.hlc.reader import HlcReader

    pinned = pin_one_core()
    cv2.setNumThreads(1)
    layout = DEFAULT_LAYOUT
    print(f"enrolling the six cards ... ({pinned}, OpenCV on 1 thread)")
    cards = enrol_cards(layout)
    groups: dict[str, dict[str, Any]] = defaultdict(lambda: {"frames": 0, "cubes": Tally(), "giants": Tally(),
                                                              "cards": 0, "unreadable": 0})
    read_ms: list[float] = []
    read_cpu_ms: list[float] = []
    locate_ms: list[float] = []
    hand_frames = hand_read = false_hands = lattice_same = 0
    # which positions, so that a weak spot can be looked at again
    hand_read_at: list[int] = []
    false_hands_at: list[int] = []
    # each position's counts (reported, correct, expected, found), for finding the weak spots
    per_position: list[dict[str, Any]] = []
    t_start = time.perf_counter()
    stop = args.start + args.positions
    for i in range(args.start, stop):
        scene, shot = corpus_item(args.seed, i)
        rendered = render(scene, shot)
        reader = HlcReader(camera=shot.view.camera, cards=cards)
        t0 = time.perf_counter()
        view = reader.locate(rendered.image)
        locate_ms.append((time.perf_counter() - t0) * 1000)
        keys = ("all", f"tilt {_band(shot.view.pose.tilt_deg)}", f"light {shot.light.name}",
                f"table {shot.table}")
        if view is None:
            for key in keys:
                groups[key]["frames"] += 1
                groups[key]["unreadable"] += 1
                groups[key]["cubes"].expected += sum(1 for c in rendered.truth.cubes if c.expected)
                groups[key]["giants"].expected += sum(1 for g in rendered.truth.giants if g.expected)
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        obs = reader.read_view(rendered.image, view)
        read_ms.append((time.perf_counter() - t0) * 1000)
        # the CPU time of the reading too: on a shared machine the wall time counts the waits
        read_cpu_ms.append((time.process_time() - c0) * 1000)
        if obs.hand:
            false_hands += 1
            false_hands_at.append(i)
        s = score(obs, rendered.truth)
        lattice_same += s.lattice_same
        per_position.append({"position": i, "tilt": round(shot.view.pose.tilt_deg, 1),
                             "light": shot.light.name, "table": shot.table,
                             "cubes": [s.cubes.reported, s.cubes.correct, s.cubes.expected, s.cubes.found],
                             "giants": [s.giants.reported, s.giants.correct, s.giants.expected,
                                        s.giants.found],
                             "card": s.card_right, "hand": obs.hand})
        for key in keys:
            g = groups[key]
            g["frames"] += 1
            g["cubes"].add(s.cubes)
            g["giants"].add(s.giants)
            g["cards"] += s.card_right
        if args.hands_every and i % args.hands_every == 0:
            rng = np.random.default_rng([args.seed, i, 99])
            with_hand = render(scene.with_hand(random_hand(rng, scene, layout)), shot)
            hand_frames += 1
            obs_h = HlcReader(camera=shot.view.camera, cards=cards).read(with_hand.image)
            if obs_h is not None and not obs_h.hand:
                hand_read += 1
                hand_read_at.append(i)
        done = i - args.start + 1
        if done % 25 == 0:
            a = groups["all"]
            print(f"  {done}/{args.positions} positions, {time.perf_counter() - t_start:.0f} s; cubes "
                  f"P {a['cubes'].precision:.3f} R {a['cubes'].recall:.3f}", flush=True)

    def row(name: str, g: dict[str, Any]) -> dict[str, Any]:
        return {"group": name, "frames": g["frames"], "cube precision": round(g["cubes"].precision, 4),
                "cube recall": round(g["cubes"].recall, 4), "cubes expected": g["cubes"].expected,
                "giant precision": round(g["giants"].precision, 4), "giant recall": round(g["giants"].recall, 4),
                "card accuracy": round(g["cards"] / max(g["frames"] - g["unreadable"], 1), 4),
                "unreadable": g["unreadable"]}

    order = ["all"] + [f"tilt {b[2]}" for b in TILT_BANDS] + sorted(k for k in groups if k.startswith("light")) \
        + sorted(k for k in groups if k.startswith("table"))
    rows = [row(k, groups[k]) for k in order if k in groups]
    gate = gate_timing()
    timing = {"read": summary_ms(read_ms) if read_ms else {},
              "read (CPU time)": summary_ms(read_cpu_ms) if read_cpu_ms else {}, "locate": summary_ms(locate_ms) if locate_ms else {},
              "stillness gate": summary_ms(gate)}
    figures = {
        "corpus": {"seed": args.seed, "positions": args.positions, "start": args.start,
                   "hand frames": hand_frames},
        "accuracy": rows,
        "hand frames read as positions": hand_read,
        "hand-free frames taken for hands": false_hands,
        "hand frames read as positions at": hand_read_at,
        "hand-free frames taken for hands at": false_hands_at,
        "lattice as the truth's (angle < 1°, origin < 3 mm)": lattice_same,
        "positions (cubes, giants: reported, correct, expected, found)": per_position,
        "timing_ms": timing,
        "one core": pinned,
        "machine": machine(),
    }
    print_table("Accuracy (per-piece exact; cubes matched where they stand)", rows)
    print_table("Hands and lattice", [{"hand frames": hand_frames, "read as positions": hand_read,
                                       "hand-free frames taken for hands": false_hands,
                                       "lattice as truth": lattice_same}])
    print(f"hand frames read as positions at {hand_read_at or 'none'}; hand-free frames taken for hands at "
          f"{false_hands_at or 'none'}")
    print_table("Time per 1280×720 frame (ms, one core)",
                [{"step": k, **v} for k, v in timing.items() if v])
    return figures
