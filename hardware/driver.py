"""The referee's events, turned into what the table board shows.

The board follows the game's status after every event: one light per seat in the seat's colour
(the active player's brighter), the display showing the player who just scored, else the active
player, else cycling through everyone; and the winner at the end. On top of that, each kind of
event has its own reaction, all in :data:`REACTIONS`: a green or red flash for a verdict (with
``ILLEGAL`` on the display), the amber pulse while the referee waits for a person, a word on the
display.

:meth:`BoardDriver.handle` only queues commands on the link (which never blocks) and never
raises: a malformed status is logged and skipped, so the board can never stop the referee.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Mapping

from companion import events as ev
from hardware.colours import seat_colour
from hardware.settings import MAX_SEATS, SCORE_MAX, SCORE_MIN

log = logging.getLogger(__name__)

TEXT_MS = 2000


@dataclass(frozen=True)
class Reaction:
    """What one kind of event does besides following the status.

    ``flash``: ``"verdict"`` (green if ``data["legal"]``, else red and ILLEGAL on the display),
    ``"good"``, or None. ``text``: a word for the display, for TEXT_MS. ``pulse``: True / False
    switch the amber pulse; None lets it follow ``status["waiting"]`` (a question still open).
    ``winner``: show the winner (end of game)."""

    flash: str | None = None
    text: str | None = None
    pulse: bool | None = None
    winner: bool = False


#: the one table from events to board reactions
REACTIONS: dict[str, Reaction] = {
    ev.GAME_STARTED: Reaction(text="PLAY", pulse=False),
    ev.MOVE_JUDGED: Reaction(flash="verdict"),
    ev.MOVE_REVISED: Reaction(flash="verdict"),
    ev.MOVE_CORRECTED: Reaction(flash="verdict"),
    ev.MOVE_UNDONE: Reaction(text="UNDO"),
    ev.VERDICT_CONFIRMED: Reaction(),
    ev.VERDICT_OVERRIDDEN: Reaction(flash="good"),
    ev.ILLEGAL_RETRACTED: Reaction(),
    ev.QUESTION_ASKED: Reaction(pulse=True),
    ev.QUESTION_ANSWERED: Reaction(),
    ev.UNEXPLAINED: Reaction(text="CHECK", pulse=True),
    ev.GAME_ENDED: Reaction(winner=True, pulse=False),
}

#: events after which the display stops showing the last scorer (the position changed)
_MOVES = {ev.GAME_STARTED, ev.MOVE_JUDGED, ev.MOVE_REVISED, ev.MOVE_CORRECTED, ev.MOVE_UNDONE,
          ev.VERDICT_OVERRIDDEN, ev.ILLEGAL_RETRACTED}


class BoardDriver:
    """Drives a :class:`hardware.link.BoardLink` from the referee's events."""

    def __init__(self, link: Any):
        self.link = link
        self._scores: dict[str, int] = {}
        self._focus: str | None = None    # the seat that just scored

    def handle(self, event_type: str, data: Mapping[str, Any],
               status: Mapping[str, Any]) -> None:
        """One event of the referee, with the game's status after it. Non-blocking."""
        reaction = REACTIONS.get(event_type)
        if reaction is None:
            return
        try:
            self._react(event_type, reaction, data or {}, status or {})
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning("board: could not show %s (%s)", event_type, exc)

    # -- inside -----------------------------------------------------------------------------

    def _react(self, event_type: str, reaction: Reaction, data: Mapping[str, Any],
               status: Mapping[str, Any]) -> None:
        seats = [str(p) for p in status.get("players") or []]
        if len(seats) > MAX_SEATS:
            log.warning("board: %d players, the board shows the first %d", len(seats), MAX_SEATS)
            seats = seats[:MAX_SEATS]
        raw_scores = status.get("scores") or {}
        scores = {s: max(SCORE_MIN, min(SCORE_MAX, int(raw_scores.get(s, 0)))) for s in seats}
        active = status.get("active")
        turn = seats.index(active) if active in seats else None

        if event_type in _MOVES:
            changed = [s for s in seats if scores[s] != self._scores.get(s, scores[s])]
            if event_type == ev.GAME_STARTED:
                changed = []
            self._focus = max(changed, key=lambda s: abs(scores[s] - self._scores.get(s, 0)),
                              default=None)
        self._scores = scores

        desired = self.link.desired
        colours = tuple(seat_colour(s) for s in seats)
        if colours != desired.colours:
            self.link.send("SEATS", *("%02x%02x%02x" % c for c in colours))
            desired = self.link.desired
        for i, seat in enumerate(seats):
            if desired.scores[i] != scores[seat]:
                self.link.send("SCORE", i, scores[seat])
        if desired.turn != turn:
            self.link.send("TURN", "-" if turn is None else turn)

        view = self._view(reaction, data, status, seats, turn)
        if view != self.link.desired.view:
            self.link.send("VIEW", view)

        pulse = reaction.pulse if reaction.pulse is not None else bool(status.get("waiting"))
        if pulse != self.link.desired.pulse:
            self.link.send("PULSE", int(pulse))

        if reaction.flash == "verdict":
            legal = bool(data.get("legal", True))
            self.link.send("FLASH", "GOOD" if legal else "BAD")
            if not legal:
                self.link.send("TEXT", TEXT_MS, "ILLEGAL")
            elif isinstance(data.get("word"), str) and data["word"]:
                # the game's own word for the move (PUSH, JUMP ...), as far as segments allow
                self.link.send("TEXT", TEXT_MS, data["word"][:8].upper())
        elif reaction.flash == "good":
            self.link.send("FLASH", "GOOD")
        if reaction.text:
            self.link.send("TEXT", TEXT_MS, reaction.text)

    def _view(self, reaction: Reaction, data: Mapping[str, Any], status: Mapping[str, Any],
              seats: list[str], turn: int | None) -> str:
        if reaction.winner or status.get("outcome"):
            outcome = data.get("outcome") or status.get("outcome") or {}
            winners = [w for w in outcome.get("winners", ()) if w in seats]
            return f"W{seats.index(winners[0])}" if winners else ("C" if seats else "I")
        if self._focus in seats:
            return f"S{seats.index(self._focus)}"
        if turn is not None:
            return f"S{turn}"
        return "C" if seats else "I"
