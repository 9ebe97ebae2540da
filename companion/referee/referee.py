"""The referee: observations and people in, events out.

One :class:`Referee` runs one game. It owns the :class:`GameSession` (the fold of the log) and
the decisions that are not yet in the log (a move the player has started, the last reading).
Everything it decides becomes an event: appended to the log first (so a crash loses nothing),
then folded into the session, then handed to the listeners (the dashboard's push channel, the
LED board). People act through the same door: answering a question, undoing, correcting,
letting an illegal move stand and confirming are events with the person as their actor.

Thread-safe: the camera thread, the web server's threads and the command line may all call in.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from companion import events as ev
from companion.errors import UserError
from companion.games import Candidate, Game, GameError, get_game
from companion.observation import Observation, ObservationError, Piece
from companion.games.matching import CLEAR_MARGIN
from companion.referee.decide import Decision, Option, decide
from companion.referee.session import Entry, GameSession
from companion.store.log import Event, EventLog

log = logging.getLogger(__name__)

Listener = Callable[[Event, dict], None]

#: actors whose moves the camera may still revise within the same turn
REVISABLE_ACTORS = ("camera", "file")


class RefereeError(UserError):
    """A request the referee cannot carry out now (nothing to undo, no question pending)."""


@dataclass
class Tentative:
    """A move started but not complete (a card laid, its action not done yet)."""

    options: list[Option]

    @property
    def single(self) -> Candidate | None:
        return self.options[0].candidate if len(self.options) == 1 else None


class Referee:
    def __init__(self, log_: EventLog, session: GameSession):
        self.log = log_
        self.session = session
        self.game: Game = session.game
        self.tentative: Tentative | None = None
        self.last_observation: tuple[Observation, bytes | None, str, dict] | None = None
        #: an observation that arrived while a question was pending, judged once it is answered
        self._held: tuple[Observation, bytes | None, str, dict] | None = None
        self._unexplained_key: tuple | None = None
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def start(cls, log_: EventLog, game: str, players: list[str] | tuple[str, ...],
              options: Mapping[str, Any] | None = None, *, seed: int = 0,
              actor: str = "cli", source: Mapping[str, Any] | None = None) -> "Referee":
        """Start a new game (recorded as its first event)."""
        engine = get_game(game)
        try:
            opts = engine.options_from_json(options or {})
            engine.setup(tuple(players), opts, seed=seed)  # refuse bad parameters before logging
        except GameError as exc:
            raise UserError(str(exc)) from None
        event = log_.new_game(game, {"players": list(players),
                                     "options": engine.options_to_json(opts), "seed": seed,
                                     **({"source": dict(source)} if source else {})}, actor=actor)
        return cls(log_, GameSession.from_started(event))

    @classmethod
    def resume(cls, log_: EventLog, game_id: str | None = None, *,
               game: str | None = None) -> "Referee":
        """Continue a game from its log (the latest unfinished one of ``game`` by default)."""
        if game_id is None:
            game_id = log_.latest_game(game, unfinished=True)
            if game_id is None:
                what = f"{game} game" if game else "game"
                raise UserError(f"no unfinished {what} to resume in {log_.path}",
                                hint="start one without --resume")
        events = log_.events(game_id)
        return cls(log_, GameSession.replay(events))

    # -- listeners ----------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # -- reading the game ---------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.session.state

    def status(self) -> dict[str, Any]:
        with self._lock:
            status = self.session.status()
            status["game_id"] = self.session.game_id
            status["game"] = self.game.name
            if self.tentative is not None:
                status["tentative"] = [self._choice(o) for o in self.tentative.options]
            return status

    # -- the camera ---------------------------------------------------------------------------

    def observe(self, observation: Observation, *, image_jpeg: bytes | None = None,
                actor: str = "camera", source: Mapping[str, Any] | None = None) -> list[Event]:
        """Judge one still observation. Returns the events it caused (often none)."""
        if observation.game != self.game.name:
            raise ObservationError(f"an observation of {observation.game} in a game of "
                                   f"{self.game.name}")
        with self._lock:
            if observation.hand or self.session.ended:
                return []
            self.last_observation = (observation, image_jpeg, actor, dict(source or {}))
            if self.session.question is not None:
                self._held = self.last_observation  # the game waits for the answer
                return []
            return self._judge(observation, image_jpeg, actor, dict(source or {}))

    def _revisable(self) -> tuple[Any, Any] | None:
        last = self.session.last
        if last is None or self.tentative is not None or last.actor not in REVISABLE_ACTORS \
                or last.overridden:
            return None
        return (last.before, last.move)

    def _judge(self, obs: Observation, image: bytes | None, actor: str,
               source: dict) -> list[Event]:
        out: list[Event] = []
        tentative = self.tentative.single if self.tentative else None
        decision = decide(self.game, self.state, obs, revisable=self._revisable(),
                          tentative=tentative)
        if decision.kind != "unexplained":
            self._unexplained_key = None
        pending = self.session.pending_illegal
        if pending is not None and not self._same_illegal(decision, pending):
            out += self._emit(ev.ILLEGAL_RETRACTED, {"target": pending.seq,
                                                     "notation": pending.notation}, actor, source)
        if decision.kind == "nothing":
            return out
        if decision.kind == "withdrawn":
            self.tentative = None
            return out
        if decision.kind == "unexplained":
            return out + self._unexplained(decision, image, actor, source)
        if decision.kind == "ask":
            if any(o.base == "after_tentative" for o in decision.options):
                flushed = self._flush_tentative(image, actor, source)
                out += flushed
                if self.session.question is not None:
                    return out
                return out + self._judge(obs, image, actor, source)
            return out + self._ask(decision.options, decision.reason, image, actor, source)
        chosen = decision.chosen
        if decision.kind == "chain":
            assert chosen is not None
            self.tentative = None
            out += self._move(ev.MOVE_JUDGED, chosen.candidate, image, actor, source,
                              before=self.state)
            if self.session.ended:
                return out
            return out + self._judge(obs, image, actor, source)
        if decision.kind == "tentative":
            if chosen is not None and chosen.base == "revision":
                last = self.session.last
                assert last is not None
                out += self._emit(ev.MOVE_UNDONE, {"target": last.seq, "notation": last.notation,
                                                   "reason": "taken back"}, actor, source)
            elif chosen is not None and chosen.base == "after_tentative":
                out += self._flush_tentative(image, actor, source)
                if self.session.question is not None:
                    return out
            self.tentative = Tentative([chosen] if chosen else decision.options)
            return out
        assert chosen is not None
        if chosen.base == "after_tentative":
            out += self._flush_tentative(image, actor, source)
            if self.session.question is not None:
                return out
            return out + self._judge(obs, image, actor, source)
        self.tentative = None
        if decision.kind == "revise":
            last = self.session.last
            assert last is not None
            out += self._move(ev.MOVE_REVISED, chosen.candidate, image, actor, source,
                              before=last.before, extra={"target": last.seq})
            return out
        if pending is not None and self._same_illegal(decision, pending):
            return out
        out += self._move(ev.MOVE_JUDGED, chosen.candidate, image, actor, source, before=self.state)
        if (chosen.candidate.verdict.legal and chosen.candidate.cost >= CLEAR_MARGIN
                and not self.session.ended):
            # part of the picture is still unexplained: perhaps the next move began too (each
            # further move must clear the margin again, so this ends)
            out += self._judge(obs, image, actor, source)
        return out

    def _same_illegal(self, decision: Decision, pending: Entry) -> bool:
        return (decision.chosen is not None and decision.chosen.base == "current"
                and decision.chosen.candidate.move == pending.move)

    def _flush_tentative(self, image: bytes | None, actor: str, source: dict) -> list[Event]:
        """The next move has begun, so the tentative one is over: settle it as it stood."""
        tentative, self.tentative = self.tentative, None
        if tentative is None:
            return []
        if tentative.single is None:
            return self._ask(tentative.options, "which card was laid cannot be read",
                             image, actor, source)
        out = self._move(ev.MOVE_JUDGED, tentative.single, image, actor, source, before=self.state)
        if self.session.pending_illegal is not None:
            # its turn has passed: the table played on, so it stands, and the log says so
            out += self._emit(ev.VERDICT_OVERRIDDEN, {
                "target": self.session.pending_illegal.seq, "reason": "play went on"},
                "system", source)
            out += self._maybe_end(actor, source)
        return out

    # -- events -------------------------------------------------------------------------------

    def _verdict_data(self, candidate_move: Any, verdict: Any, before: Any,
                      after: Any | None) -> dict[str, Any]:
        scores = self.game.scores(after if (after is not None and verdict.legal) else before)
        word = self.game.display_word(before, candidate_move) if verdict.legal else None
        return {
            "move": self.game.move_to_json(candidate_move),
            "notation": self.game.notation(before, candidate_move),
            "legal": verdict.legal,
            "rule": verdict.rule.to_json() if verdict.rule else None,
            "score_delta": dict(verdict.score_delta),
            "notes": list(verdict.notes),
            "scores": scores,
            **({"word": word} if word else {}),
        }

    def _move(self, kind: str, cand: Candidate, image: bytes | None, actor: str, source: dict,
              *, before: Any, extra: dict | None = None) -> list[Event]:
        data = self._verdict_data(cand.move, cand.verdict, before, cand.state)
        data["cost"] = round(cand.cost, 3)
        data.update(extra or {})
        out = self._emit(kind, data, actor, source, image)
        return out + self._maybe_end(actor, source)

    def _maybe_end(self, actor: str, source: dict) -> list[Event]:
        outcome = self.game.outcome(self.state)
        if outcome is None or self.session.ended:
            return []
        self.tentative = None
        return self._emit(ev.GAME_ENDED, {"outcome": outcome.to_json()}, "system", source)

    def _choice(self, option: Option) -> dict[str, Any]:
        before = self._base_state(option.base)
        cand = option.candidate
        data = self._verdict_data(cand.move, cand.verdict, before, cand.state)
        data["base"] = option.base
        data["cost"] = round(cand.cost, 3)
        return data

    def _base_state(self, base: str) -> Any:
        if base == "revision" and self.session.last is not None:
            return self.session.last.before
        if base == "after_tentative" and self.tentative and self.tentative.single:
            return self.tentative.single.state
        return self.state

    def _ask(self, options: list[Option], reason: str, image: bytes | None, actor: str,
             source: dict) -> list[Event]:
        choices = [self._choice(o) for o in options]
        self.tentative = None
        return self._emit(ev.QUESTION_ASKED, {"choices": choices, "reason": reason}, actor,
                          source, image)

    def _unexplained(self, decision: Decision, image: bytes | None, actor: str,
                     source: dict) -> list[Event]:
        nearest = [self._choice(o) for o in decision.options]
        key = (decision.reason, tuple(c["notation"] for c in nearest))
        if key == self._unexplained_key:
            return []
        self._unexplained_key = key
        return self._emit(ev.UNEXPLAINED, {"reason": decision.reason, "nearest": nearest}, actor,
                          source, image)

    def _emit(self, kind: str, data: dict[str, Any], actor: str, source: dict | None = None,
              image: bytes | None = None) -> list[Event]:
        if source:
            data = {**data, "source": source}
        event = self.log.append(self.session.game_id, kind, data, actor=actor)
        if image is not None:
            self.log.save_keyframe(self.session.game_id, event.seq, image)
        self.session.fold(event)
        status = self.status()
        for listener in list(self._listeners):
            try:
                listener(event, status)
            except Exception:  # a broken listener must never stop the referee
                log.exception("event listener failed on %s", event.type)
        return [event]

    # -- people -------------------------------------------------------------------------------

    def answer(self, choice: int | str | Mapping[str, Any], *, actor: str = "referee",
               source: Mapping[str, Any] | None = None) -> list[Event]:
        """Answer the pending question with a choice index, a move's notation or its JSON."""
        with self._lock:
            question = self.session.question
            if question is None:
                raise RefereeError("no question is waiting for an answer")
            chosen = self._pick(question.choices, choice)
            base = chosen.get("base", "current") if chosen else "current"
            move = self._parse_move(chosen["move"] if chosen else choice, base)
            before = self._base_state(base)
            verdict = self._check(before, move)
            data = self._verdict_data(move, verdict, before, None)
            data["question"] = question.seq
            out: list[Event] = []
            src = dict(source or {})
            if base == "revision":
                out += self._emit(ev.QUESTION_ANSWERED, {"question": question.seq,
                                                         "withdrawn": True}, actor, src)
                last = self.session.last
                assert last is not None
                data["target"] = last.seq
                out += self._emit(ev.MOVE_REVISED, data, actor, src)
            else:
                out += self._emit(ev.QUESTION_ANSWERED, data, actor, src)
            out += self._maybe_end(actor, src)
            out += self._rejudge()
            return out

    def _pick(self, choices: list[dict[str, Any]], choice: Any) -> dict[str, Any] | None:
        if isinstance(choice, bool):
            raise RefereeError("an answer is a choice number or a move")
        if isinstance(choice, int):
            if not 0 <= choice < len(choices):
                raise RefereeError(f"choice {choice} does not exist: choose 0 to {len(choices) - 1}")
            return choices[choice]
        if isinstance(choice, str):
            for c in choices:
                if c["notation"].split(" (")[0] == choice.split(" (")[0]:
                    return c
        return None

    def _parse_move(self, spec: Any, base: str = "current") -> Any:
        before = self._base_state(base)
        try:
            if isinstance(spec, str):
                return self.game.parse_notation(before, spec)
            if isinstance(spec, Mapping):
                return self.game.move_from_json(spec)
        except GameError as exc:
            raise RefereeError(f"not a move of {self.game.title}: {exc}") from None
        raise RefereeError(f"not a move: {spec!r}")

    def _check(self, state: Any, move: Any):
        try:
            verdict = self.game.check(state, move)
            self.game.apply(state, move)
        except GameError as exc:
            raise RefereeError(f"that move cannot be made here: {exc}") from None
        return verdict

    def _rejudge(self) -> list[Event]:
        """After an answer, judge what the camera saw while the game waited."""
        held, self._held = self._held, None
        if held is None or self.session.question is not None:
            return []
        obs, image, actor, source = held
        return self._judge(obs, image, actor, source)

    def undo(self, *, actor: str = "referee",
             source: Mapping[str, Any] | None = None) -> list[Event]:
        """Take back the last move (or dismiss a pending illegal move or question)."""
        with self._lock:
            self.tentative = None
            if self.session.question is not None:
                return self._emit(ev.QUESTION_ANSWERED, {"question": self.session.question.seq,
                                                         "withdrawn": True}, actor, dict(source or {}))
            if self.session.pending_illegal is not None:
                entry = self.session.pending_illegal
                return self._emit(ev.MOVE_UNDONE, {"target": "illegal", "notation": entry.notation},
                                  actor, dict(source or {}))
            last = self.session.last
            if last is None:
                raise RefereeError("there is no move to undo")
            self.last_observation = None
            return self._emit(ev.MOVE_UNDONE, {"target": last.seq, "notation": last.notation},
                              actor, dict(source or {}))

    def correct(self, move: Any, *, actor: str = "referee",
                source: Mapping[str, Any] | None = None) -> list[Event]:
        """Replace the last move (or the pending illegal one) with ``move`` (notation or JSON):
        the camera misread it. The record is corrected in place, not branched."""
        with self._lock:
            self.tentative = None
            target = self.session.pending_illegal or self.session.last
            if target is None:
                raise RefereeError("there is no move to correct")
            base = "current" if target is self.session.pending_illegal else "revision"
            parsed = self._parse_move(move, base)
            before = target.before
            verdict = self._check(before, parsed)
            data = self._verdict_data(parsed, verdict, before, None)
            data["target"] = "illegal" if base == "current" else target.seq
            out = self._emit(ev.MOVE_CORRECTED, data, actor, dict(source or {}))
            return out + self._maybe_end(actor, dict(source or {}))

    def correct_reading(self, edits: Mapping[str, Any], *, actor: str = "referee") -> list[Event]:
        """Correct what the camera read (pieces added or removed by a person tapping the board)
        and judge the last move again from the corrected reading."""
        with self._lock:
            if self.last_observation is None:
                raise RefereeError("there is no reading to correct yet")
            obs, image, _, source = self.last_observation
            fixed = apply_edits(obs, edits)
            self.last_observation = (fixed, image, actor, source)
            last = self.session.last
            if last is not None and last.actor in REVISABLE_ACTORS:
                decision = decide(self.game, last.before, fixed)
                if decision.kind in ("settle", "revise") and decision.chosen is not None:
                    cand = decision.chosen.candidate
                    if cand.move == last.move:
                        return []
                    data = self._verdict_data(cand.move, cand.verdict, last.before, cand.state)
                    data["target"] = last.seq
                    data["corrected_reading"] = dict(edits)
                    return self._emit(ev.MOVE_CORRECTED, data, actor, source, image) + \
                        self._maybe_end(actor, source)
            return self._judge(fixed, image, actor, source)

    def let_stand(self, *, actor: str = "referee",
             source: Mapping[str, Any] | None = None) -> list[Event]:
        """The table agrees to keep the illegal move just flagged."""
        with self._lock:
            pending = self.session.pending_illegal
            if pending is None:
                raise RefereeError("no illegal move is waiting for a decision")
            out = self._emit(ev.VERDICT_OVERRIDDEN, {"target": pending.seq,
                                                     "notation": pending.notation}, actor, dict(source or {}))
            return out + self._maybe_end(actor, dict(source or {}))

    def confirm(self, *, actor: str = "referee",
             source: Mapping[str, Any] | None = None) -> list[Event]:
        """Confirm the last verdict (a disputed one, for the record)."""
        with self._lock:
            target = self.session.pending_illegal or self.session.last
            if target is None:
                raise RefereeError("there is no verdict to confirm")
            return self._emit(ev.VERDICT_CONFIRMED, {"target": target.seq,
                                                     "notation": target.notation}, actor, dict(source or {}))


def apply_edits(obs: Observation, edits: Mapping[str, Any]) -> Observation:
    """An observation with pieces removed (``remove``: list of piece JSON to match by kind,
    cell, level, zone and attributes) and added (``add``: list of piece JSON)."""
    try:
        remove = [Piece.from_json(p, where="remove") for p in edits.get("remove", [])]
        add = [Piece.from_json(p, where="add") for p in edits.get("add", [])]
    except ObservationError:
        raise
    except (TypeError, AttributeError) as exc:
        raise ObservationError(f"a reading correction has 'add' and 'remove' lists ({exc})") from None

    def same(a: Piece, b: Piece) -> bool:
        return (a.kind == b.kind and a.cell == b.cell and a.zone == b.zone
                and (b.level is None or a.level == b.level)
                and all(a.attrs.get(k) == v for k, v in b.attrs.items()))

    kept = [p for p in obs.pieces if not any(same(p, r) for r in remove)]
    return replace(obs, pieces=tuple(kept) + tuple(add))
