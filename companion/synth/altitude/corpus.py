"""Corpora of rendered Altitude tables with ground truth, and how a reading is scored.

:func:`corpus` yields rendered frames (:class:`CorpusItem`) drawn by
:func:`companion.synth.altitude.generate.corpus_item`: the same seed gives the same frames.
Keyword ranges narrow what is drawn (``tilt_deg=20`` or ``tilt_deg=(0, 10)``, ``light="dim"``,
``hand_probability=0.3``, any field of :class:`~companion.synth.altitude.generate.AltitudeRanges`).

:func:`score` compares a reading with the truth card by card, exactly (issue 8's figure: a card's
identity in its slot): a mountain card is right when the card read in the same zone and slot
(étage and position) is the same card; the discard's top, the shown drawn card and each kept
card (face up: its identity; face down: a back) likewise. Mountain cards are counted apart by
how much of them shows: ``full`` (nothing rests on them), ``quarter`` (one card rests on half of
their upper half), ``half`` (two cards cover their upper half). A reading of a card where the
truth has none is counted too (``extra``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from companion.observation import Observation
from companion.synth.altitude.generate import AltitudeRanges, corpus_item
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.truth import MIN_VISIBLE, AltitudeTruth
from companion.synth.corpora import CorpusItem as RenderedItem, rendered_corpus

#: the kinds of cards counted apart
KINDS = ("full", "quarter", "half", "discard", "drawn", "kept")


class CorpusItem(RenderedItem):
    """A rendered table of the corpus (see :class:`companion.synth.corpora.CorpusItem`)."""

    @property
    def px_per_mm(self) -> float:
        """How many pixels a millimetre of the table's middle covers in this frame."""
        import numpy as np

        tw, td = self.scene.layout.table_mm
        c = np.array([[tw / 2, td / 2, 0.0], [tw / 2 + 10.0, td / 2, 0.0]])
        px = self.shot.view.project(c)
        return float(np.linalg.norm(px[1] - px[0]) / 10.0)


def corpus(n: int, seed: int = 0, **ranges: Any) -> Iterator[CorpusItem]:
    """``n`` rendered tables of the corpus ``seed`` (see the module docstring)."""
    return rendered_corpus(n, seed, ranges, AltitudeRanges, corpus_item, photograph, CorpusItem)


def _key(p) -> tuple:
    zone = p.zone or ""
    if zone.startswith("player:"):
        return (zone, p.get("etage"), p.get("pos"))
    return (zone,)


def score(truth: AltitudeTruth | Observation, seen: Observation | None) -> dict[str, int]:
    """Per-card exact counts of a reading against the truth (see the module docstring):
    ``<kind>`` and ``<kind>_right`` for each of :data:`KINDS`, ``cards``/``cards_right`` (all),
    ``extra`` (cards read where there is none), ``hand_read_as_position`` (1 when an arm is over
    the table and the reading is a position) and ``unreadable`` (the table was not found)."""
    full = truth if isinstance(truth, AltitudeTruth) else None
    out: Counter[str] = Counter({k: 0 for k in ("cards", "cards_right", "extra",
                                                "hand_read_as_position", "unreadable")})
    for k in KINDS:
        out[k] = out[f"{k}_right"] = 0
    hand_over = bool(full.hand_over_table) if full is not None else bool(truth.hand)  # type: ignore[union-attr]
    if seen is None:
        out["unreadable"] = 1
    elif hand_over and not seen.hand:
        out["hand_read_as_position"] = 1
    if hand_over:
        return dict(out)
    read: dict[tuple, list] = {}
    if seen is not None and not seen.hand:
        for p in seen.pieces:
            read.setdefault(_key(p), []).append(p)
    expected = []
    if full is not None:
        for c in full.cards:
            if c.piece is None or c.visible < MIN_VISIBLE:
                continue
            kind = c.role
            if c.role == "mountain":
                kind = "full"
                if c.covered:
                    kind = "half" if _covers(full, c) == 2 else "quarter"
            expected.append((kind, c.piece))
    else:
        for p in truth.pieces:  # type: ignore[union-attr]
            zone = p.zone or ""
            kind = "full" if zone.startswith("player:") else zone.split(":")[0]
            expected.append((kind if kind in KINDS else "kept", p))
    used: Counter[tuple] = Counter()
    for kind, p in expected:
        key = _key(p)
        out[kind] += 1
        out["cards"] += 1
        cands = read.get(key, [])
        want = (p.kind, p.get("card"))
        right = False
        if key[0].startswith("hand:"):
            for q in cands:
                if (q.kind, q.get("card")) == want and used[(key, id(q))] == 0:
                    used[(key, id(q))] += 1
                    right = True
                    break
        else:
            right = any((q.kind, q.get("card")) == want for q in cands)
        out[f"{kind}_right"] += int(right)
        out["cards_right"] += int(right)
    truth_keys = Counter(_key(p) for _, p in expected)
    for key, ps in read.items():
        out["extra"] += max(0, len(ps) - truth_keys.get(key, 0))
    return dict(out)


def _covers(truth: AltitudeTruth, card) -> int:
    """How many cards of the étage above rest on a mountain card (from the truth's pieces)."""
    p = card.piece
    k, pos, zone = p.get("etage"), p.get("pos"), p.zone
    slots = {(c.piece.get("etage"), c.piece.get("pos")) for c in truth.cards
             if c.piece is not None and c.piece.zone == zone and c.role == "mountain"}
    return sum(1 for s in ((k + 1, pos - 1), (k + 1, pos)) if s in slots)
