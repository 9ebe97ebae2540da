"""``companion bench vision_nains``: how well and how fast the La Ville des Nains reader reads.

Renders a corpus of tables (:func:`companion.synth.nains.corpus.corpus`) across the table kit's
range: camera tilts from straight down to 35°, 60–100 cm, six lights, three table tops, two dice
mats, noise, blur, JPEG; 2 to 6 dwarves' buildings (stone side and beach side), the pool, the
kobold's tower, the dice; a share of the frames with an arm over the table. Each frame is read
by a reader given the lens calibration (the synthetic camera's own, as ``companion calibrate
camera`` measures it), the measured table layout and the colours learned from a calibration
shot under the frame's light. Reported, raw per-piece exact accuracy before any help from the
rules, per camera tilt band and per light:

* dice (each die's face), pool stones (colour and shape: recall over the stones the camera can
  see, precision over those read), building stones (colour, shape and level: the stones the
  camera can see, and apart those it cannot), the kobold tower's height;
* frames with an arm over the table read as a position (must be 0), frames without one refused
  as an arm, tables not found;
* the reading time of a 1280×720 frame on one core: *cold* (every zone read) and *still* (the
  same table in the next still moment: the pose and every unchanged zone's reading kept).

``--demo SEED`` reads the demo game's video instead, position by position against the scene's
truth (:func:`demo_positions`): where the referee goes wrong in the demo, which reading misled
it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

HELP = "La Ville des Nains reader: dice, pool, building stones, tower by tilt and light, hands, speed"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=60, help="rendered frames (default 60)")
    parser.add_argument("--seed", type=int, default=21, help="corpus seed (default 21)")
    parser.add_argument("--hands", type=float, default=0.2,
                        help="share of frames with an arm over the table (default 0.2)")
    parser.add_argument("--demo", type=int, default=None, metavar="SEED",
                        help="instead: the demo game's video of this seed, position by position "
                             "(each still moment's reading against the scene's truth)")
    parser.add_argument("--demo-steps", type=int, default=None,
                        help="with --demo: only the script's first steps")


def demo_positions(seed: int, steps: int | None = None) -> list[dict[str, Any]]:
    """The demo game's video read as the live loop reads it (the table's stillness gate, one
    reader kept from frame to frame): for each still position, what the reader got wrong
    against the scene's truth (building stones, the tower, the dice; pool stones counted), and
    the reading time. Where the referee goes wrong, this says which reading misled it."""
    from collections import Counter
    from dataclasses import replace

    from companion.demo import nains
    from companion.games.ville_des_nains.scripts import demo_script
    from companion.observation import Observation

    def key(p: Any) -> tuple:
        if p.kind == "die":
            return ("die", p.get("die"), p.get("face"))
        if p.zone == "pool":
            return ("pool", p.get("colour"), p.get("shape"))
        if p.zone == "kobold":
            return ("kobold", p.level)
        return (p.zone, p.get("building"), p.level, p.get("colour"), p.get("shape"))

    script = demo_script()
    if steps is not None:
        script = replace(script, steps=script.steps[:steps])
    source = nains.demo_source(script, seed=seed)
    reader = nains.reader_for(source)
    gate = nains.gate_for(source)
    rows = []
    while (frame := source.read()) is not None:
        if not gate.update(frame.image, frame.t).settled:
            continue
        t0 = time.process_time()
        seen = reader.read(frame)
        cpu = (time.process_time() - t0) * 1000
        truth = Observation.from_json(frame.truth["observation"])
        want = Counter(key(p) for p in truth.pieces)
        got = Counter(key(p) for p in seen.pieces) if seen is not None and not seen.hand else Counter()
        conf = {key(p): round(p.conf, 2) for p in (seen.pieces if seen is not None else ())}
        position = source.positions[int(frame.truth["step"])]
        rows.append({
            "position": int(frame.truth["step"]), "step": position.step, "put_back": position.put_back,
            "cpu_ms": round(cpu), "hand": bool(seen is None or seen.hand),
            "missed": sorted(map(str, (k for k in (want - got).elements() if k[0] != "pool"))),
            "misread": sorted(f"{k} {conf.get(k)}" for k in (got - want).elements() if k[0] != "pool"),
            "pool_missed": sum(1 for k in (want - got).elements() if k[0] == "pool"),
            "pool_extra": sum(1 for k in (got - want).elements() if k[0] == "pool"),
        })
        r = rows[-1]
        print(f"position {r['position']} (step {r['step']}{', put back' if r['put_back'] else ''}): "
              f"{r['cpu_ms']} ms, pool -{r['pool_missed']} +{r['pool_extra']}"
              + "".join(f"\n    missed {m}" for m in r["missed"])
              + "".join(f"\n    read   {m}" for m in r["misread"]), flush=True)
    return rows


def run(args: argparse.Namespace) -> dict[str, Any]:
    from dataclasses import replace

    from calibration.boards import TableLayout
    from companion.bench.common import machine, pin_one_core, print_table, ratio, tilt_band
    from companion.synth.nains.colour_shot import learn_colours
    from companion.synth.nains.corpus import corpus, score
    from companion.synth.nains.render import draw, expose
    from companion.vision.nains.reader import NainsReader, observation_of

    pinned = pin_one_core()
    if args.demo is not None:
        return {"demo": demo_positions(args.demo, args.demo_steps), "pinned": pinned}
    groups: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    cold, still = [], []
    hand_frames = 0
    for item in corpus(args.frames, args.seed, hand_probability=args.hands):
        zones = item.scene.zones
        layout = TableLayout(zones.table_layout().markers, measured=True)
        reader = NainsReader(camera=item.shot.view.camera, layout=layout, zones=zones,
                             colours=learn_colours(item.scene, item.shot))
        t0 = time.perf_counter()
        reading = reader.read_all(item.image)
        cold.append((time.perf_counter() - t0) * 1000)
        if not item.truth.hand:
            # the next still moment of the same table: another exposure of the same picture
            again = expose(draw(item.scene, item.shot), replace(item.shot, seed=item.shot.seed + 1)).image
            t0 = time.perf_counter()
            reader.read_all(again)
            still.append((time.perf_counter() - t0) * 1000)
        counts = score(item.truth, observation_of(reading))
        hand_frames += int(item.truth.hand_over_table)
        for key in (("tilt", tilt_band(item.tilt_deg)), ("light", item.light), ("all", "all")):
            for k, v in counts.items():
                groups[key][k] += v
            groups[key]["frames"] += 1
    rows = []
    for (kind, name), c in sorted(groups.items(), key=lambda kv: (kv[0][0] != "tilt", kv[0])):
        pieces = c["dice"] + c["pool"] + c["stones"] + c["towers"]
        right = c["dice_right"] + c["pool_right"] + c["stones_right"] + c["towers_right"]
        rows.append({
            "by": kind, "group": name, "frames": c["frames"],
            "pieces": ratio(right, pieces),
            "dice": ratio(c["dice_right"], c["dice"]),
            "pool_recall": ratio(c["pool_right"], c["pool"]),
            "pool_precision": ratio(c["pool_read_right"], c["pool_read"]),
            "stones": ratio(c["stones_right"], c["stones"]),
            "stones_precision": ratio(c["stones_read_right"], c["stones_read"]),
            "hidden_stones": ratio(c["hidden_right"], c["hidden"]),
            "tower": ratio(c["towers_right"], c["towers"]),
            "n_stones": c["stones"], "n_hidden": c["hidden"],
            "hands_as_position": c["hand_read_as_position"],
            "positions_as_hand": c["position_read_as_hand"], "table_not_found": c["unreadable"],
        })
    print_table(f"La Ville des Nains reader, {args.frames} frames, seed {args.seed} ({pinned}; "
                f"{machine()['processor']})", rows)
    timing = {"cold_median_ms": round(statistics.median(cold), 1) if cold else None,
              "still_median_ms": round(statistics.median(still), 1) if still else None,
              "hand_frames": hand_frames}
    print(f"\nreading a 1280×720 frame on one core: cold median {timing['cold_median_ms']} ms, "
          f"still table median {timing['still_median_ms']} ms; {hand_frames} frames with an arm over "
          "the table")
    return {"rows": rows, "timing": timing, "pinned": pinned}
