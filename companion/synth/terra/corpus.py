"""Corpora of rendered Terra Turrium positions with ground truth, and how a reading is scored.

:func:`corpus` yields rendered frames (:class:`CorpusItem`) drawn by
:func:`companion.synth.terra.generate.corpus_item`: the same seed gives the same frames.
Keyword ranges narrow what is drawn (``tilt_deg=20`` or ``tilt_deg=(0, 10)``, ``light="dim"``,
``hand_probability=0.3``, any field of :class:`~companion.synth.terra.generate.TerraRanges`).

:func:`score` compares a reading with the truth, per piece, exactly (issue 8's figure): a tower
is right when the square's height is read exactly (an empty square is right when nothing, or
level 0, is read there); a flag is right when a flag of its colour is read on its square. Squares
are counted apart when their top is hidden from this camera (``hidden_*``): they cannot be read
from one picture, and the figures say so rather than mixing them in.
"""

from __future__ import annotations

from typing import Any, Iterator

from companion.observation import Observation
from companion.synth.corpora import CorpusItem as RenderedItem, rendered_corpus
from companion.synth.terra.generate import TerraRanges, corpus_item
from companion.synth.terra.photo import photograph
from companion.synth.terra.truth import MIN_VISIBLE, TerraTruth
from companion.vision.terra.kit import SIZE



#: a rendered table of the corpus
CorpusItem = RenderedItem


def corpus(n: int, seed: int = 0, **ranges: Any) -> Iterator[CorpusItem]:
    """``n`` rendered positions of the corpus ``seed`` (see the module docstring)."""
    return rendered_corpus(n, seed, ranges, TerraRanges, corpus_item, photograph, CorpusItem)


def _read_heights(seen: Observation) -> tuple[dict[int, int], list[tuple[str, int]]]:
    towers: dict[int, tuple[int, float]] = {}
    flags = []
    for p in seen.pieces:
        if p.cell is None or not (0 <= p.cell[0] < SIZE and 0 <= p.cell[1] < SIZE):
            continue
        sq = p.cell[1] * SIZE + p.cell[0]
        if p.kind == "tower" and p.level is not None:
            if sq not in towers or p.conf > towers[sq][1]:
                towers[sq] = (p.level, p.conf)
        elif p.kind == "flag" and p.get("colour"):
            flags.append((str(p.get("colour")), sq))
    return {sq: lv for sq, (lv, _) in towers.items()}, flags


def score(truth: Observation | TerraTruth, seen: Observation | None) -> dict[str, int]:
    """Per-piece exact counts of a reading against the truth (see the module docstring):
    ``squares``/``squares_right`` (readable squares), ``hidden``/``hidden_right``,
    ``towers``/``towers_right`` (readable squares with blocks), ``flags``/``flags_right``
    (recall), ``flags_read``/``flags_read_right`` (precision), and ``hand_read_as_position``
    (1 when the truth has an arm over the board and the reading is a position)."""
    full = truth if isinstance(truth, TerraTruth) else None
    obs = full.observation if full is not None else truth
    true_heights: dict[int, int] = {}
    true_flags = []
    for p in obs.pieces:
        if p.cell is None:
            continue
        sq = p.cell[1] * SIZE + p.cell[0]
        if p.kind == "tower":
            true_heights[sq] = int(p.level or 0)
        elif p.kind == "flag":
            true_flags.append((str(p.get("colour")), sq))
    out = {k: 0 for k in ("squares", "squares_right", "hidden", "hidden_right", "towers",
                          "towers_right", "flags", "flags_right", "flags_read", "flags_read_right",
                          "hand_read_as_position", "unreadable")}
    hand_over = bool(full.hand_over_board) if full is not None else bool(obs.hand)
    if seen is None:
        out["unreadable"] = 1
    elif hand_over and not seen.hand:
        out["hand_read_as_position"] = 1
    if hand_over:
        return out
    read_heights, read_flags = _read_heights(seen) if seen is not None and not seen.hand else ({}, [])
    for sq in range(SIZE * SIZE):
        want = true_heights.get(sq, 0)
        got = read_heights.get(sq, 0)
        readable = full is None or full.visible[sq] >= MIN_VISIBLE
        key = "squares" if readable else "hidden"
        out[key] += 1
        out[f"{key}_right"] += int(got == want and seen is not None)
        if readable and want > 0:
            out["towers"] += 1
            out["towers_right"] += int(got == want and seen is not None)
    read_set = list(read_flags)
    for f in true_flags:
        out["flags"] += 1
        if f in read_set:
            out["flags_right"] += 1
    true_set = list(true_flags)
    for f in read_flags:
        out["flags_read"] += 1
        out["flags_read_right"] += int(f in true_set)
    return out
