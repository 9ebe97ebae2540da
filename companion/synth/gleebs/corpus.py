"""The Gleeb's and Grues benchmark corpus and its score.

The corpus is made of *sessions*, as a table is used: a camera set up over the board under one
light, the colours calibrated once under that light (:mod:`.calibration_shot`; a set-up whose
colour sheet cannot be read is set up again, as a user would), then several
positions photographed from the same place. Each item carries its frame, its ground truth and
the session's learned colours; the first item of a session is the one a reader sees with
nothing known yet. Everything is rendered on the fly from ``(seed, index)``; nothing is stored.

:func:`score` compares a reading with the truth piece by piece: a pyramid is read *exactly*
when the reading has one on the same square, at the same level, of the same colour and size.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields, replace
from typing import Any, Iterator

import numpy as np

from companion.errors import UserError
from companion.observation import Observation
from companion.synth.gleebs.calibration_shot import learn_colours
from companion.synth.gleebs.generate import GleebsRanges, random_hand, random_scene, random_shot
from companion.synth.gleebs.render import render
from companion.synth.gleebs.scene import GleebsScene
from companion.synth.gleebs.truth import GleebsTruth
from companion.synth.scene import Shot
from companion.vision.colours import ColourModel

#: camera tilt bands the figures are reported by (degrees from straight down)
TILT_BANDS = ((0.0, 12.0, "0-12°"), (12.0, 24.0, "12-24°"), (24.0, 35.01, "24-35°"))


def tilt_band(tilt_deg: float) -> str:
    for lo, hi, name in TILT_BANDS:
        if lo <= tilt_deg < hi:
            return name
    return TILT_BANDS[-1][2]


@dataclass(frozen=True)
class CorpusItem:
    """One rendered position with its truth. ``session``: which camera set-up and light it was
    taken in; ``first``: whether it is that session's first frame; ``colours``: the colour
    model learned in the session's calibration."""

    index: int
    session: int
    first: bool
    scene: GleebsScene
    shot: Shot
    image: np.ndarray
    truth: GleebsTruth
    colours: ColourModel

    @property
    def light(self) -> str:
        return self.shot.light.name

    @property
    def tilt(self) -> str:
        return tilt_band(self.shot.view.pose.tilt_deg)


def _ranges(overrides: dict[str, Any]) -> tuple[GleebsRanges, dict[str, Any]]:
    names = {f.name for f in fields(GleebsRanges)}
    mine = {k: v for k, v in overrides.items() if k in names}
    rest = {k: v for k, v in overrides.items() if k not in names}
    return GleebsRanges(**mine), rest


def corpus(n: int, seed: int = 0, **ranges: Any) -> Iterator[CorpusItem]:
    """``n`` rendered positions, the same for the same ``seed``. ``ranges``: fields of
    :class:`~companion.synth.gleebs.generate.GleebsRanges`, and ``per_session`` (positions per
    camera set-up, default 4), ``hand_probability`` (share of frames with an arm over the board,
    default 0.15), ``light`` (one lighting condition for all), ``tilt_deg`` (one tilt) and
    ``first_session`` (start at that camera set-up, numbering positions from it, without
    rendering the ones before: a test can take one set-up of a larger corpus)."""
    if n < 0:
        raise ValueError("a corpus has 0 or more positions")
    r, extra = _ranges(ranges)
    per_session = int(extra.pop("per_session", 4))
    hand_probability = float(extra.pop("hand_probability", 0.15))
    light = extra.pop("light", None)
    tilt = extra.pop("tilt_deg", None)
    first_session = int(extra.pop("first_session", 0))
    if extra:
        raise ValueError(f"unknown corpus settings: {', '.join(sorted(extra))}")
    if per_session < 1:
        raise ValueError("per_session must be at least 1")
    session = first_session
    index = first_session * per_session
    stop = index + n
    while index < stop:
        colours = None
        attempt = 0
        while colours is None:
            rng = np.random.default_rng([seed, session, 101, attempt])
            first_scene = random_scene(rng, r)
            shot = random_shot(rng, first_scene.board, r, light=light, tilt_deg=tilt)
            try:
                colours = learn_colours(first_scene.board, shot)
            except UserError:
                # the colour sheet cannot be read from there (too small, too blurred): a user
                # would set the camera up again before playing, and so does the corpus
                attempt += 1
                if attempt > 20:
                    raise
        for k in range(per_session):
            if index >= stop:
                break
            prng = np.random.default_rng([seed, session, k, 202])
            scene = random_scene(prng, r, board=first_scene.board)
            if prng.random() < hand_probability:
                scene = scene.with_hand(random_hand(prng, scene, over_board=prng.random() < 0.85))
            frame_shot = replace(shot, seed=int(prng.integers(0, 2**31 - 1)))
            out = render(scene, frame_shot)
            yield CorpusItem(index, session, k == 0, scene, frame_shot, out.image, out.truth, colours)
            index += 1
        session += 1


def _keys(observation: Observation) -> Counter:
    return Counter((tuple(p.cell), p.level, p.get("colour"), p.get("size"))
                   for p in observation.of_kind("pyramid") if p.cell is not None)


def score(truth: Observation, seen: Observation | None) -> dict[str, Any]:
    """How a reading compares with the truth, piece by piece.

    ``expected``: pyramids the truth says a reader can see; ``correct``: those read exactly
    (square, level, colour and size); ``missed`` = expected − correct; ``wrong``: readings that
    match no expected pyramid (a misread counts once as missed and once as wrong);
    ``accuracy`` = correct / (expected + wrong), 1 for a frame with nothing to see read as
    nothing. ``tops_*``: the same for each square's top pyramid only; ``one_colour_*``: for the
    squares whose visible chain shows one colour twice in a row. With a hand over the board,
    ``hand`` is True and ``read_as_position`` says whether the reader wrongly gave a position."""
    if truth.hand:
        as_position = seen is not None and not seen.hand
        return {"hand": True, "read_as_position": as_position, "expected": 0, "correct": 0,
                "missed": 0, "wrong": 0, "accuracy": 0.0 if as_position else 1.0}
    if seen is None or seen.hand:
        t = _keys(truth)
        n = sum(t.values())
        return {"hand": False, "read_as_position": False, "unread": True, "said_hand": bool(seen and seen.hand),
                "expected": n, "correct": 0, "missed": n, "wrong": 0,
                "accuracy": 1.0 if n == 0 else 0.0, "tops_expected": len(_tops(truth)),
                "tops_correct": 0}
    t, s = _keys(truth), _keys(seen)
    correct = sum((t & s).values())
    expected, got = sum(t.values()), sum(s.values())
    wrong = got - correct
    denom = expected + wrong
    tops_t, tops_s = _tops(truth), _tops(seen)
    tops_correct = sum(1 for cell, key in tops_t.items() if tops_s.get(cell) == key)
    one = _one_colour_cells(truth)
    t_one = Counter({k: v for k, v in t.items() if k[0] in one})
    s_one = Counter({k: v for k, v in s.items() if k[0] in one})
    return {"hand": False, "read_as_position": False, "unread": False, "said_hand": False,
            "expected": expected, "correct": correct,
            "missed": expected - correct, "wrong": wrong, "accuracy": correct / denom if denom else 1.0,
            "tops_expected": len(tops_t), "tops_correct": tops_correct,
            "tops_wrong": sum(1 for cell in tops_s if tops_s[cell] != tops_t.get(cell)),
            "one_colour_expected": sum(t_one.values()), "one_colour_correct": sum((t_one & s_one).values()),
            "one_colour_wrong": sum(s_one.values()) - sum((t_one & s_one).values())}


def _one_colour_cells(observation: Observation) -> set[tuple[int, int]]:
    """Squares whose visible chain shows one colour twice in a row (a pyramid on one of its
    own colour, visible because a pyramid between them was swallowed): the camera's hard
    case."""
    chains: dict[tuple[int, int], list[tuple[int, Any]]] = {}
    for p in observation.of_kind("pyramid"):
        if p.cell is not None:
            chains.setdefault((p.cell[0], p.cell[1]), []).append((p.level or 0, p.get("colour")))
    out = set()
    for cell, chain in chains.items():
        colours = [c for _, c in sorted(chain)]
        if any(a == b for a, b in zip(colours, colours[1:])):
            out.add(cell)
    return out


def _tops(observation: Observation) -> dict[tuple[int, int], tuple]:
    """Each square's top pyramid (highest level) as (colour, size)."""
    best: dict[tuple[int, int], tuple[int, tuple]] = {}
    for p in observation.of_kind("pyramid"):
        if p.cell is None:
            continue
        cell = (p.cell[0], p.cell[1])
        lv = p.level or 0
        if cell not in best or lv > best[cell][0]:
            best[cell] = (lv, (p.get("colour"), p.get("size")))
    return {cell: key for cell, (_, key) in best.items()}
