"""The table: one process owning the game, the camera, the LED board and the dashboard's feeds.

Everything that happens goes through here on its way out: the referee's events are published on
the :class:`EventBus` (for the dashboard) and handed to the board driver (for the LEDs and the
display); camera and board status changes become status events on the same bus. People act on
the game through :meth:`Table.act`, which turns a request into a referee call with the person as
its actor, so that the dashboard never changes game state itself.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from companion import events as ev
from companion.errors import UserError
from companion.games import GAMES, get_game
from companion.referee import Referee, RefereeError
from companion.runtime.bus import EventBus
from companion.runtime.feed import FrameFeed
from companion.store import EventLog
from companion.store.log import Event

log = logging.getLogger(__name__)

#: what a person may ask of the referee through the dashboard (or the command line)
ACTIONS = ("answer", "undo", "correct", "correct_reading", "let_stand", "confirm")

#: record events shown in the move log
LOG_EVENTS = (ev.MOVE_JUDGED, ev.MOVE_REVISED, ev.MOVE_CORRECTED, ev.MOVE_UNDONE,
              ev.VERDICT_CONFIRMED, ev.VERDICT_OVERRIDDEN, ev.ILLEGAL_RETRACTED,
              ev.QUESTION_ASKED, ev.QUESTION_ANSWERED, ev.UNEXPLAINED, ev.GAME_ENDED,
              ev.GAME_STARTED)


@dataclass
class DeviceState:
    """What the dashboard shows of a source or the board: connected, reconnecting, lost..."""

    status: str = "absent"
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "detail": self.detail, **self.extra}


class Table:
    """The running table. Thread-safe.

    ``board`` is a :class:`hardware.driver.BoardDriver` (or None: no board), ``board_view`` a
    callable returning what the board shows now (the emulated board's snapshot) for the
    dashboard.
    """

    def __init__(self, data_dir: str | Path, *, board: Any = None,
                 board_view: Callable[[], dict[str, Any]] | None = None,
                 feed: FrameFeed | None = None):
        self.data_dir = Path(data_dir)
        self.log = EventLog.in_dir(self.data_dir)
        self.bus = EventBus()
        self.feed = feed or FrameFeed()
        self.board = board
        self.board_view = board_view
        self.referee: Referee | None = None
        self.camera = DeviceState("absent", "no camera")
        self.device = DeviceState("absent" if board is None else "connecting")
        self.calibration: dict[str, Any] = {"camera": None, "table": None, "colours": None,
                                            "cards": None}
        self.overlay = True
        self._latest_frame: Any = None
        self._listeners: list[Callable[[Event, dict], None]] = []
        self._lock = threading.RLock()

    # -- games --------------------------------------------------------------------------------

    def start_game(self, game: str, players: list[str], options: Mapping[str, Any] | None = None,
                   *, seed: int = 0, actor: str = "referee",
                   source: Mapping[str, Any] | None = None) -> Referee:
        """Start a new game (the previous one stays in the log, unfinished or not)."""
        with self._lock:
            referee = Referee.start(self.log, game, players, options, seed=seed, actor=actor,
                                    source=source)
            self._attach(referee)
            first = self.log.events(referee.session.game_id)[0]
            for listener in [self._on_event, *self._listeners]:
                listener(first, referee.status())
            return referee

    def resume_game(self, game_id: str | None = None, *, game: str | None = None) -> Referee:
        with self._lock:
            referee = Referee.resume(self.log, game_id, game=game)
            self._attach(referee)
            self.bus.publish("game.resumed", {"game_id": referee.session.game_id,
                                             "status": referee.status()})
            if self.board is not None:
                self.board.handle(ev.GAME_STARTED, {}, referee.status())
            return referee

    def add_listener(self, listener: Callable[[Event, dict], None]) -> None:
        """Also hand every referee event to ``listener`` (for every game this table plays)."""
        with self._lock:
            self._listeners.append(listener)
            if self.referee is not None:
                self.referee.subscribe(listener)

    def _attach(self, referee: Referee) -> None:
        if self.referee is not None:
            self.referee.unsubscribe(self._on_event)
            for listener in self._listeners:
                self.referee.unsubscribe(listener)
        self.referee = referee
        referee.subscribe(self._on_event)
        for listener in self._listeners:
            referee.subscribe(listener)

    def _on_event(self, event: Event, status: dict[str, Any]) -> None:
        self.bus.publish(event.type, {"seq": event.seq, "game_id": event.game_id,
                                      "actor": event.actor, "event": event.data,
                                      "status": status})
        if self.board is not None:
            try:
                self.board.handle(event.type, event.data, status)
            except Exception:  # the board must never stop the referee
                log.exception("board driver failed on %s", event.type)

    def require_game(self) -> Referee:
        if self.referee is None:
            raise RefereeError("no game is being played: start one first")
        return self.referee

    # -- people -------------------------------------------------------------------------------

    def act(self, action: str, payload: Mapping[str, Any] | None = None, *,
            actor: str = "referee") -> list[Event]:
        """Carry out a person's request; RefereeError when it cannot be done now."""
        referee = self.require_game()
        payload = dict(payload or {})
        if action == "answer":
            if "choice" not in payload:
                raise RefereeError("an answer gives 'choice': a number or a move")
            return referee.answer(payload["choice"], actor=actor)
        if action == "undo":
            return referee.undo(actor=actor)
        if action == "correct":
            if "move" not in payload:
                raise RefereeError("a correction gives 'move': the notation or JSON of the move")
            return referee.correct(payload["move"], actor=actor)
        if action == "correct_reading":
            return referee.correct_reading(payload, actor=actor)
        if action == "let_stand":
            return referee.let_stand(actor=actor)
        if action == "confirm":
            return referee.confirm(actor=actor)
        raise RefereeError(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")

    # -- status from the camera and the board ---------------------------------------------------

    def set_camera(self, status: str, detail: str = "", **extra: Any) -> None:
        with self._lock:
            changed = (status, detail) != (self.camera.status, self.camera.detail)
            self.camera = DeviceState(status, detail, extra)
        if changed:
            self.bus.publish(ev.CAMERA_STATUS, self.camera.to_json())

    def set_device(self, status: str, detail: str = "") -> None:
        with self._lock:
            changed = (status, detail) != (self.device.status, self.device.detail)
            self.device = DeviceState(status, detail)
        if changed:
            self.bus.publish(ev.BOARD_STATUS, self.device.to_json())

    def set_overlay(self, on: bool) -> None:
        """Show or hide the reader's drawings on the camera view (every tablet follows)."""
        with self._lock:
            self.overlay = bool(on)
        self.bus.publish(ev.OVERLAY_STATUS, {"overlay": self.overlay})

    def set_latest_frame(self, frame: Any) -> None:
        """The newest raw camera frame (full size, no drawings), kept for calibration."""
        self._latest_frame = frame

    def latest_frame(self) -> Any:
        """The newest raw camera frame (a :class:`companion.vision.frames.Frame`), or None."""
        return self._latest_frame

    def set_calibration(self, **parts: Any) -> None:
        with self._lock:
            self.calibration.update(parts)
        self.bus.publish(ev.CALIBRATION_STATUS, dict(self.calibration))

    # -- what the dashboard reads ---------------------------------------------------------------

    def history(self, *, after: int = 0) -> list[dict[str, Any]]:
        """The current game's record events (move log), oldest first."""
        referee = self.referee
        if referee is None:
            return []
        return [e.to_json() for e in self.log.events(referee.session.game_id, after=after)
                if e.type in LOG_EVENTS]

    def snapshot(self) -> dict[str, Any]:
        """Everything the dashboard shows, at once (for a page load or a resync)."""
        with self._lock:
            referee = self.referee
            game: dict[str, Any] | None = None
            if referee is not None:
                state = referee.state
                game = {
                    "id": referee.session.game_id,
                    "name": referee.game.name,
                    "title": referee.game.title,
                    "status": referee.status(),
                    "board": referee.game.board_view(state),
                    "question": ({"seq": referee.session.question.seq,
                                  "reason": referee.session.question.reason,
                                  "choices": referee.session.question.choices}
                                 if referee.session.question else None),
                    "pending_illegal": (
                        {"seq": referee.session.pending_illegal.seq,
                         "notation": referee.session.pending_illegal.notation,
                         "rule": referee.session.pending_illegal.verdict.rule.to_json()
                         if referee.session.pending_illegal.verdict.rule else None}
                        if referee.session.pending_illegal else None),
                }
            return {
                "bus": {"last_id": self.bus.last_id, "epoch": self.bus.epoch},
                "game": game,
                "camera": self.camera.to_json(),
                "device": {**self.device.to_json(),
                           "shows": self.board_view() if self.board_view else None},
                "calibration": dict(self.calibration),
                "overlay": self.overlay,
            }

    def keyframe(self, seq: int) -> Path | None:
        referee = self.referee
        if referee is None:
            return None
        path = self.log.keyframe_path(referee.session.game_id, seq)
        return path if path.exists() else None

    @staticmethod
    def games() -> list[dict[str, Any]]:
        """The games a new game can be started with: name, title, seats, players, options."""
        out = []
        for name in GAMES:
            try:
                game = get_game(name)
            except UserError:
                continue
            defaults = game.options_to_json(game.default_options())
            out.append({"name": name, "title": game.title, "seats": list(game.seats),
                        "min_players": game.min_players, "max_players": game.max_players,
                        "options": [{"name": k, "default": v, "doc": game.option_docs().get(k, "")}
                                    for k, v in defaults.items()]})
        return out

    def close(self) -> None:
        with self._lock:
            if self.referee is not None:
                self.referee.unsubscribe(self._on_event)
            self.log.close()
