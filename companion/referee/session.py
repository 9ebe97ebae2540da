"""A game in progress as the fold of its events.

The session never changes the game except by folding an event, and the same fold runs live and
on replay: ``GameSession.replay(events)`` after a crash gives exactly the state the live session
had. The fold keeps the effective moves as a stack of entries (move, state before, state after),
so undo pops, a correction or revision replaces the top entry, and nothing ever branches.

What the fold understands (payloads in ``docs/events.md``):

* ``game.started``: the parameters; the state is ``setup``.
* ``move.judged`` / ``question.answered``: a move; applied when legal, otherwise held as the
  pending illegal move (the table may put the pieces back, or let it stand).
* ``move.revised`` / ``move.corrected``: the top move replaced by another (a later adjustment
  in the same turn, or a person correcting a misreading).
* ``move.undone``: the top move taken back.
* ``verdict.overridden``: the pending illegal move applied (the table let it stand).
* ``illegal.retracted``: the pending illegal move dropped (the pieces were put back).
* ``question.asked``: the referee waits for an answer; ``observation.unexplained`` and
  ``verdict.confirmed`` change nothing but are recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from companion import events as ev
from companion.errors import BadInput
from companion.games import Game, GameError, Verdict, get_game
from companion.games.base import RuleRef
from companion.store.log import Event


@dataclass(frozen=True)
class Entry:
    """One effective move of the game."""

    seq: int             # the event that made it (judged, answered, overridden ...)
    move: Any
    notation: str
    verdict: Verdict
    before: Any
    after: Any
    actor: str
    overridden: bool = False


@dataclass
class Question:
    seq: int
    choices: list[dict[str, Any]]   # each: move (JSON), notation, legal, rule, cost
    reason: str


class ReplayError(BadInput):
    """An event the fold cannot apply (a corrupt or hand-edited log)."""


@dataclass
class GameSession:
    game: Game
    game_id: str
    players: tuple[str, ...]
    options: Any
    seed: int
    initial: Any
    entries: list[Entry] = field(default_factory=list)
    pending_illegal: Entry | None = None
    question: Question | None = None
    ended: bool = False
    last_seq: int = 0

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_started(cls, event: Event) -> "GameSession":
        if event.type != ev.GAME_STARTED:
            raise ReplayError(f"a game's first event is {ev.GAME_STARTED}, not {event.type}",
                              where=f"event {event.seq}")
        data = event.data
        try:
            game = get_game(data["game"])
            options = game.options_from_json(data.get("options") or {})
            players = tuple(data["players"])
            seed = int(data.get("seed", 0))
            initial = game.setup(players, options, seed=seed)
        except (KeyError, TypeError, ValueError, GameError) as exc:
            raise ReplayError(f"cannot start the game: {exc}", where=f"event {event.seq}") from None
        return cls(game, event.game_id, players, options, seed, initial, last_seq=event.seq)

    @classmethod
    def replay(cls, events: Iterable[Event]) -> "GameSession":
        it = iter(events)
        try:
            first = next(it)
        except StopIteration:
            raise ReplayError("the game has no events") from None
        session = cls.from_started(first)
        for event in it:
            session.fold(event)
        return session

    # -- the current state --------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.entries[-1].after if self.entries else self.initial

    @property
    def last(self) -> Entry | None:
        return self.entries[-1] if self.entries else None

    def status(self) -> dict[str, Any]:
        status = dict(self.game.status(self.state))
        status["waiting"] = self.question is not None
        status["pending_illegal"] = self.pending_illegal is not None
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            status["outcome"] = outcome.to_json()
        return status

    # -- the fold -----------------------------------------------------------------------------

    def decode_move(self, data: Any, seq: int) -> Any:
        try:
            return self.game.move_from_json(data)
        except GameError as exc:
            raise ReplayError(f"unreadable move: {exc}", where=f"event {seq}") from None

    def fold(self, event: Event) -> None:
        """Apply one event to the session. Unknown event types are ignored (status events)."""
        if event.game_id != self.game_id:
            raise ReplayError(f"event of game {event.game_id} in game {self.game_id}",
                              where=f"event {event.seq}")
        self.last_seq = event.seq
        kind, data = event.type, event.data
        if kind in (ev.MOVE_JUDGED, ev.QUESTION_ANSWERED):
            if kind == ev.QUESTION_ANSWERED:
                self.question = None
                if data.get("withdrawn"):
                    return
            self._play(event, self.decode_move(data["move"], event.seq), data)
        elif kind in (ev.MOVE_REVISED, ev.MOVE_CORRECTED):
            self._replace_top(event, self.decode_move(data["move"], event.seq), data)
        elif kind == ev.MOVE_UNDONE:
            if data.get("target") == "illegal":
                self.pending_illegal = None
            elif self.entries:
                self.entries.pop()
            else:
                raise ReplayError("undo with no move to take back", where=f"event {event.seq}")
        elif kind == ev.VERDICT_OVERRIDDEN:
            if self.pending_illegal is None:
                raise ReplayError("let stand with no illegal move pending", where=f"event {event.seq}")
            entry = self.pending_illegal
            self.pending_illegal = None
            after = self._apply(entry.move, event.seq)
            self.entries.append(Entry(event.seq, entry.move, entry.notation, entry.verdict,
                                      self.state, after, event.actor, overridden=True))
        elif kind == ev.ILLEGAL_RETRACTED:
            self.pending_illegal = None
        elif kind == ev.QUESTION_ASKED:
            self.question = Question(event.seq, list(data.get("choices", [])), data.get("reason", ""))
        elif kind == ev.GAME_ENDED:
            self.ended = True

    def _apply(self, move: Any, seq: int) -> Any:
        try:
            return self.game.apply(self.state, move)
        except GameError as exc:
            raise ReplayError(f"the move cannot be made from this position: {exc}",
                              where=f"event {seq}") from None

    def _verdict(self, move: Any, data: dict[str, Any]) -> Verdict:
        rule = data.get("rule")
        return Verdict(move=move, legal=bool(data.get("legal", True)),
                       rule=RuleRef.from_json(rule) if rule else None,
                       score_delta=dict(data.get("score_delta") or {}),
                       notes=tuple(data.get("notes") or ()))

    def _play(self, event: Event, move: Any, data: dict[str, Any]) -> None:
        verdict = self._verdict(move, data)
        notation = data.get("notation") or self.game.notation(self.state, move)
        if verdict.legal:
            after = self._apply(move, event.seq)
            self.entries.append(Entry(event.seq, move, notation, verdict, self.state, after,
                                      event.actor))
            self.pending_illegal = None
        else:
            self.pending_illegal = Entry(event.seq, move, notation, verdict, self.state,
                                         self.state, event.actor)

    def _replace_top(self, event: Event, move: Any, data: dict[str, Any]) -> None:
        if data.get("target") == "illegal" or (not self.entries and self.pending_illegal):
            self.pending_illegal = None
            self._play(event, move, data)
            return
        if not self.entries:
            raise ReplayError("nothing to replace", where=f"event {event.seq}")
        top = self.entries.pop()
        verdict = self._verdict(move, data)
        notation = data.get("notation") or self.game.notation(top.before, move)
        if verdict.legal or data.get("let_stand"):
            after = self._apply(move, event.seq)
            self.entries.append(Entry(event.seq, move, notation, verdict, top.before, after,
                                      event.actor, overridden=not verdict.legal))
        else:
            self.pending_illegal = Entry(event.seq, move, notation, verdict, top.before,
                                         top.before, event.actor)
