"""Scoring how well a state explains an observation: the same arithmetic for every game.

A game describes what the camera *should* see if a state were true as a multiset of hashable
keys (``("cube", x, y, z)``, ``("giant", "red", x, y, z)``, ``("card", "moaveou")``), each with a
*miss weight* (how surprising its absence would be: lower for a piece that may be hidden behind
another). The observation gives what the camera *did* see as keys with confidences. The cost is

* for each observed piece the state does not explain: the reader's surprise ``-ln(1 - conf)``
  (a confident wrong reading weighs a lot, a hesitant one little), and
* for each expected piece the camera did not report: its miss weight.

Costs are additive and comparable between candidates of one observation. The referee settles on
the cheapest candidate when it is clearly cheaper than the next (:data:`CLEAR_MARGIN`) and cheap
in itself (:func:`unexplained_threshold`); otherwise it asks, or says nothing explains the table.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Hashable, Iterable

#: the cost of an expected piece the camera did not report, when nothing could hide it
MISS = 3.0
#: a piece that could be hidden (behind a taller stack, under a hand-sized shadow) costs this
MISS_HIDDEN = 0.5
#: confidences are clipped here so one reading never costs more than ~7
MAX_CONF = 0.999
#: the cheapest candidate must beat the next by this much to be settled without asking
CLEAR_MARGIN = 2.0


def surprise(conf: float) -> float:
    """Cost of an observed piece that the state does not explain."""
    return -math.log(1.0 - min(max(conf, 0.0), MAX_CONF))


def mismatch_cost(expected: Iterable[tuple[Hashable, float]],
                  observed: Iterable[tuple[Hashable, float]]) -> float:
    """Cost of explaining ``observed`` (key, confidence) by ``expected`` (key, miss weight)."""
    want: dict[Hashable, list[float]] = {}
    for key, weight in expected:
        want.setdefault(key, []).append(weight)
    cost = 0.0
    seen: Counter[Hashable] = Counter()
    # the most confident readings claim the expected pieces first
    for key, conf in sorted(observed, key=lambda kc: -kc[1]):
        if seen[key] < len(want.get(key, ())):
            seen[key] += 1
        else:
            cost += surprise(conf)
    for key, weights in want.items():
        missing = len(weights) - seen[key]
        if missing > 0:
            cost += sum(sorted(weights)[:missing])  # the likeliest-hidden ones are missing
    return cost


def unexplained_threshold(n_pieces: int) -> float:
    """Above this cost, nothing explains the observation (pieces knocked over, a change the
    rules cannot produce). Grows slowly with the number of pieces, since a big table has more
    room for a few hesitant readings."""
    return 2.0 * MISS + 0.05 * n_pieces
