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


def run(args: argparse.Namespace) -> dict[str, Any]:
    from dataclasses import replace

    from calibration.boards import TableLayout
    from companion.bench.common import machine, pin_one_core, print_table, ratio, tilt_band
    from companion.synth.nains.colour_shot import learn_colours
    from companion.synth.nains.corpus import corpus, score
    from companion.synth.nains.render import draw, expose
    from companion.vision.nains.reader import NainsReader, observation_of

    pinned = pin_one_core()
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
