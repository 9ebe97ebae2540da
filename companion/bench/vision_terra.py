"""``companion bench vision_terra``: how well and how fast the Terra Turrium reader reads.

Renders a corpus of positions (:func:`companion.synth.terra.corpus.corpus`, a seed the height
scorer was not fitted on) across the table kit's range: camera tilts from straight down to 35°,
60–100 cm, six lights, four block colours, noise, blur, JPEG; a share of the frames with an arm
over the board. Each frame is read by a reader given the lens calibration (the synthetic
camera's own, as ``companion calibrate camera`` measures it), the measured table layout and the
flags' colours learned from a calibration shot under the frame's light. Reported:

* raw per-piece exact accuracy, before any help from the rules: each readable square's height
  (an empty square read empty counts), towers alone, flags (colour and square; recall and
  precision); per camera tilt band and per light, so weak spots show;
* squares whose top this camera cannot see (hidden behind taller towers) apart;
* frames with an arm over the board read as a position (must be 0), and frames where the board
  was not found;
* the median reading time of a 1280×720 frame on one core: *cold* (the board searched for in
  the whole image) and *warm* (a still camera: the last pose confirmed on the markers).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

HELP = "Terra Turrium reader: per-square height and flag accuracy by tilt and light, hands, speed"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=300, help="rendered frames (default 300)")
    parser.add_argument("--seed", type=int, default=8, help="corpus seed (default 8)")
    parser.add_argument("--hands", type=float, default=0.2,
                        help="share of frames with an arm over the board (default 0.2)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.common import (machine, pin_one_core, print_table, ratio,
                                        summary_ms, tilt_band)
    from companion.synth.terra.colour_shot import learn_colours
    from companion.synth.terra.corpus import corpus, score
    from companion.synth.terra.generate import table_layout
    from companion.vision.terra.reader import TerraReader, observation_of

    pinned = pin_one_core()
    groups: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    cold, warm = [], []
    hand_frames = 0
    for item in corpus(args.frames, args.seed, hand_probability=args.hands):
        colours = learn_colours(item.scene, item.shot)
        reader = TerraReader(camera=item.shot.view.camera, layout=table_layout(), colours=colours)
        t0 = time.perf_counter()
        reading = reader.read_all(item.image)
        cold.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        reader.read_all(item.image)
        warm.append((time.perf_counter() - t0) * 1000)
        seen = observation_of(reading)
        counts = score(item.truth, seen)
        hand_frames += int(item.truth.hand_over_board)
        for key in (("tilt", tilt_band(item.tilt_deg)), ("light", item.light), ("all", "all")):
            for k, v in counts.items():
                groups[key][k] += v
            groups[key]["frames"] += 1
    rows = []
    for (kind, name), c in sorted(groups.items(), key=lambda kv: (kv[0][0] != "tilt", kv[0])):
        rows.append({
            "by": kind, "group": name, "frames": c["frames"],
            "squares": ratio(c["squares_right"], c["squares"]),
            "towers": ratio(c["towers_right"], c["towers"]),
            "flags_recall": ratio(c["flags_right"], c["flags"]),
            "flags_precision": ratio(c["flags_read_right"], c["flags_read"]),
            "hidden_squares": ratio(c["hidden_right"], c["hidden"]),
            "n_squares": c["squares"], "n_hidden": c["hidden"],
            "hands_as_position": c["hand_read_as_position"], "board_not_found": c["unreadable"],
        })
    print_table(f"Terra Turrium reader, {args.frames} frames, seed {args.seed} ({pinned}; "
                f"{machine()['processor']})", rows)
    timing = {"cold": summary_ms(cold), "warm": summary_ms(warm), "hand_frames": hand_frames}
    print(f"\nreading a 1280×720 frame on one core: cold median {statistics.median(cold):.1f} ms, "
          f"warm median {statistics.median(warm):.1f} ms; {hand_frames} frames with an arm over "
          "the board")
    return {"rows": rows, "timing": timing, "pinned": pinned}
