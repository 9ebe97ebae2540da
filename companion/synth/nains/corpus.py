"""Corpora of rendered La Ville des Nains tables with ground truth, and how a reading is scored.

:func:`corpus` yields rendered frames (:class:`CorpusItem`) drawn by
:func:`companion.synth.nains.generate.corpus_item`: the same seed gives the same frames.
Keyword ranges narrow what is drawn (``tilt_deg=20`` or ``tilt_deg=(0, 10)``, ``light="dim"``,
``hand_probability=0.3``, any field of :class:`~companion.synth.nains.generate.NainsRanges`).

:func:`score` compares a reading with the truth, piece by piece and exactly (issue 8's figure):

* **dice**: each die in the tray read with its face (the colour dice as an unordered set);
* **pool**: each pool stone read with its colour and shape (as an unordered set: recall over
  the stones the camera can see, precision over the stones read);
* **buildings**: each stone of each building read at its level with its colour and shape;
  stones the camera cannot see from this one picture (:data:`~companion.synth.nains.truth.
  MIN_VISIBLE`) are counted apart (``hidden``), and stones read where there is none count
  against precision;
* **tower**: the kobold tower's height read exactly;
* a frame with an arm over the table read as a position (must not happen), a frame with none
  refused as one (its pieces then count as missed), and frames where the table was not found.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from companion.observation import Observation
from companion.synth.nains.generate import NainsRanges, corpus_item
from companion.synth.nains.photo import photograph
from companion.synth.nains.truth import NainsTruth
from companion.synth.corpora import CorpusItem as RenderedItem, rendered_corpus

KEYS = ("dice", "dice_right", "dice_read", "pool", "pool_right", "pool_read", "pool_read_right",
        "stones", "stones_right",
        "stones_read", "stones_read_right", "hidden", "hidden_right", "towers", "towers_right",
        "hand_read_as_position", "position_read_as_hand", "unreadable")


#: a rendered table of the corpus
CorpusItem = RenderedItem


def corpus(n: int, seed: int = 0, **ranges: Any) -> Iterator[CorpusItem]:
    """``n`` rendered tables of the corpus ``seed`` (see the module docstring)."""
    return rendered_corpus(n, seed, ranges, NainsRanges, corpus_item, photograph, CorpusItem)


def _dice(obs: Observation) -> Counter:
    return Counter((str(p.get("die")), str(p.get("face"))) for p in obs.pieces if p.kind == "die" and p.zone == "tray")


def _pool(obs: Observation) -> Counter:
    return Counter((str(p.get("colour")), str(p.get("shape"))) for p in obs.pieces if p.kind == "stone" and p.zone == "pool")


def _built(obs: Observation) -> dict[tuple, tuple[str, str]]:
    out = {}
    for p in obs.pieces:
        if p.kind == "stone" and (p.zone or "").startswith("player:") and p.level is not None:
            out[(p.zone, p.get("building"), p.level)] = (str(p.get("colour")), str(p.get("shape")))
    return out


def _tower(obs: Observation) -> int:
    return max([p.level + 1 for p in obs.pieces if p.zone == "kobold" and p.level is not None] + [0])


def score(truth: NainsTruth, seen: Observation | None) -> dict[str, int]:
    """Per-piece exact counts of a reading against the truth (see the module docstring)."""
    out = {k: 0 for k in KEYS}
    if seen is None:
        out["unreadable"] = 1
    elif truth.hand_over_table and not seen.hand:
        out["hand_read_as_position"] = 1
    elif not truth.hand_over_table and seen.hand:
        out["position_read_as_hand"] = 1
    if truth.hand_over_table:
        return out
    read = seen if (seen is not None and not seen.hand) else Observation(game=truth.observation.game)
    want_dice, got_dice = _dice(truth.observation), _dice(read)
    out["dice"] = sum(want_dice.values())
    out["dice_read"] = sum(got_dice.values())
    out["dice_right"] = sum((want_dice & got_dice).values())
    visible_pool = Observation(game=truth.observation.game,
                               pieces=tuple(p.piece for p in truth.pieces if p.piece.zone == "pool" and p.readable))
    want_pool, got_pool, all_pool = _pool(visible_pool), _pool(read), _pool(truth.observation)
    out["pool"] = sum(want_pool.values())
    out["pool_right"] = sum((want_pool & got_pool).values())
    out["pool_read"] = sum(got_pool.values())
    out["pool_read_right"] = sum((all_pool & got_pool).values())
    got = _built(read)
    want = {}
    for p in truth.pieces:
        q = p.piece
        if q.kind == "stone" and (q.zone or "").startswith("player:"):
            key = (q.zone, q.get("building"), q.level)
            want[key] = ((str(q.get("colour")), str(q.get("shape"))), p.readable)
            kind = "stones" if p.readable else "hidden"
            out[kind] += 1
            out[f"{kind}_right"] += int(got.get(key) == want[key][0])
    out["stones_read"] = len(got)
    out["stones_read_right"] = sum(1 for k, v in got.items() if k in want and want[k][0] == v)
    out["towers"] = 1
    out["towers_right"] = int(_tower(read) == truth.tower)
    return out
