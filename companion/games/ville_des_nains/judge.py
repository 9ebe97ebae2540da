"""The verdict on a move: legal or the rule it breaks, the notes worth showing, the points."""

from __future__ import annotations

from companion.games.base import Verdict
from companion.games.ville_des_nains.moves import Move
from companion.games.ville_des_nains.resolve import Result, resolve
from companion.games.ville_des_nains.state import VdnState
from companion.games.ville_des_nains.views import scores


def verdict_of(state: VdnState, move: Move, result: Result) -> Verdict:
    before, after = scores(state), scores(result.state)
    delta = {seat: after[seat] - before[seat] for seat in after if after[seat] != before[seat]}
    return Verdict(move=move, legal=result.rule is None, rule=result.rule, score_delta=delta,
                   notes=result.notes)


def check(state: VdnState, move: Move) -> Verdict:
    return verdict_of(state, move, resolve(state, move))
