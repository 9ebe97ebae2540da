"""A move's verdict and where it leads, in one place for ``check`` and the camera's candidates."""

from __future__ import annotations

from companion.games.altitude.judge import problem, validate
from companion.games.altitude.moves import DRAW, Move
from companion.games.altitude.scoring import scores
from companion.games.altitude.state import PHASE_END, PHASE_MAIN, AltitudeState
from companion.games.altitude.transitions import apply
from companion.games.base import Verdict


def judge_move(state: AltitudeState, move: Move) -> tuple[Verdict, AltitudeState]:
    """The verdict on ``move`` and the state after it (an illegal move applies too).
    :class:`~companion.games.base.MalformedMove` when it cannot be made at all."""
    validate(state, move)
    rule = problem(state, move)
    after = apply(state, move)
    notes = []
    if state.phase == PHASE_MAIN and after.phase != PHASE_MAIN:
        notes.append("la pioche est épuisée / the deck is out")
    if (state.phase == after.phase == PHASE_MAIN and move.kind != DRAW
            and after.active == state.active and after.turn_plays == 2
            and after.plays_left == 1):
        notes.append("deuxième coup (5 étages) / second play (5 étages)")
    if state.phase == PHASE_END and after.phase != PHASE_END:
        notes.append("partie terminée / game over")
    before_scores, after_scores = scores(state), scores(after)
    delta = {seat: after_scores[seat] - before_scores[seat] for seat in state.players
             if after_scores[seat] != before_scores[seat]}
    return Verdict(move=move, legal=rule is None, rule=rule, score_delta=delta,
                   notes=tuple(notes)), after
