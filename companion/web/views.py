"""What the dashboard reads from the table, beyond ``Table.snapshot()``.

Everything here *reads*: the move log with which verdicts have a keyframe, the scores after each
effective move (for the chart), the places the last move changed (for the highlight), the camera's
last reading laid out by place (for correcting a misreading) and the moves a person may pick
instead of the one recorded. Nothing here changes the game; changes go through ``Table.act``.

Results are cached per game position (the game's id and the sequence number of its last event),
so fifty tablets reloading after a move cost one computation.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from companion.games import GameError
from companion.web.places import changed_places, piece_place, place_kind, what

log = logging.getLogger(__name__)

#: how many suggestions a search for the real move returns at most
SUGGESTIONS = 40


class PositionCache:
    """A small cache keyed by the game position; thread-safe."""

    def __init__(self, size: int = 16):
        self._size = size
        self._items: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple, compute):
        with self._lock:
            if key in self._items:
                return self._items[key]
        value = compute()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.pop(next(iter(self._items)))
        return value


def position_key(referee: Any, what_: str) -> tuple:
    session = referee.session
    return (what_, id(referee), session.game_id, session.last_seq)


class GameViews:
    """The dashboard's reads of one table."""

    def __init__(self, table: Any):
        self.table = table
        self._cache = PositionCache()

    # -- the move log -------------------------------------------------------------------------

    def keyframes(self, game_id: str) -> set[int]:
        folder = self.table.log.keyframe_path(game_id, 0).parent
        try:
            return {int(p.stem) for p in folder.glob("*.jpg") if p.stem.isdigit()}
        except OSError:
            return set()

    def history(self, *, after: int = 0) -> list[dict[str, Any]]:
        """The current game's record events, oldest first, each with ``keyframe``: whether the
        image it was judged from was kept."""
        entries = self.table.history(after=after)
        if not entries:
            return []
        frames = self.keyframes(entries[0]["game_id"])
        for entry in entries:
            entry["keyframe"] = entry["seq"] in frames
        return entries

    # -- the game ------------------------------------------------------------------------------

    def series(self) -> dict[str, Any] | None:
        """Each seat's score after every effective move, from the start."""
        referee = self.table.referee
        if referee is None:
            return None
        return self._cache.get(position_key(referee, "series"), lambda: self._series(referee))

    @staticmethod
    def _series(referee: Any) -> dict[str, Any]:
        session = referee.session
        game = referee.game
        entries = list(session.entries)
        points = [{"seq": None, "notation": "", "scores": game.scores(session.initial)}]
        for entry in entries:
            points.append({"seq": entry.seq, "notation": entry.notation,
                           "scores": game.scores(entry.after)})
        return {"players": list(session.players), "points": points}

    def highlight(self) -> dict[str, list[str]]:
        """Places changed by the last move, and by the illegal move waiting for a decision."""
        referee = self.table.referee
        if referee is None:
            return {"last": [], "illegal": [], "last_seq": None}
        return self._cache.get(position_key(referee, "highlight"), lambda: self._highlight(referee))

    @staticmethod
    def _highlight(referee: Any) -> dict[str, Any]:
        session = referee.session
        game = referee.game
        out: dict[str, Any] = {"last": [], "illegal": [], "last_seq": None}
        last = session.last
        if last is not None:
            out["last"] = changed_places(game.board_view(last.before), game.board_view(last.after))
            out["last_seq"] = last.seq
        pending = session.pending_illegal
        if pending is not None:
            try:
                after = game.apply(pending.before, pending.move)
                out["illegal"] = changed_places(game.board_view(pending.before),
                                                game.board_view(after))
            except GameError:
                log.debug("the pending illegal move cannot be drawn", exc_info=True)
        return out

    # -- corrections ---------------------------------------------------------------------------

    def reading(self) -> dict[str, Any] | None:
        """The camera's last reading by place, and the pieces a person may add at each kind of
        place (those seen in the reading or expected in the current position); ``levelled``
        lists the kinds of place whose pieces stack (a level is chosen when adding one)."""
        referee = self.table.referee
        if referee is None:
            return None
        last = referee.last_observation
        observation = last[0] if last else None
        pieces = [p.to_json() for p in observation.pieces] if observation else []
        templates: dict[str, dict[str, dict[str, Any]]] = {}
        levelled: set[str] = set()
        try:
            expected = [p.to_json() for p in referee.game.expected_observation(referee.state).pieces]
        except GameError:
            expected = []
        for piece in pieces + expected:
            kind = place_kind(piece_place(piece))
            if "level" in piece:
                levelled.add(kind)
            template = what(piece)
            key = json.dumps(template, sort_keys=True)
            templates.setdefault(kind, {})[key] = template
        return {
            "game": referee.game.name,
            "seen": observation is not None,
            "frame": observation.frame if observation else None,
            "pieces": [{"place": piece_place(p), "piece": p} for p in pieces],
            "levelled": sorted(levelled),
            "templates": {k: sorted(v.values(), key=lambda t: json.dumps(t, sort_keys=True))
                          for k, v in templates.items()},
        }

    def suggestions(self, query: str = "") -> dict[str, Any]:
        """Moves a person may pick as the real one, from the position the move to correct was
        made in (the illegal move waiting, or the last move), filtered by ``query``."""
        referee = self.table.referee
        if referee is None:
            return {"target": None, "moves": []}
        found = self._cache.get(position_key(referee, "moves"), lambda: self._moves(referee))
        words = query.lower().split()
        moves = [m for m in found["moves"] if all(w in m["notation"].lower() for w in words)]
        return {"target": found["target"], "moves": moves[:SUGGESTIONS],
                "more": max(0, len(moves) - SUGGESTIONS)}

    @staticmethod
    def _moves(referee: Any) -> dict[str, Any]:
        session = referee.session
        target = session.pending_illegal or session.last
        if target is None:
            return {"target": None, "moves": []}
        game = referee.game
        before = target.before
        seen: set[str] = set()
        legal_moves = game.legal_moves(before)
        legal_set = set(legal_moves)
        out = []
        for move in legal_moves + [m for m in game.physical_moves(before) if m not in legal_set]:
            try:
                notation = game.notation(before, move)
            except GameError:
                continue
            if notation in seen:
                continue
            seen.add(notation)
            out.append({"notation": notation, "legal": move in legal_set})
        return {"target": {"seq": target.seq, "notation": target.notation,
                           "illegal": target is session.pending_illegal},
                "moves": out}

    # -- everything at once ----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """``Table.snapshot()`` plus the move log, the score series and the highlight: what a
        page load or a resync needs.

        Its parts are read one after the other while the referee may be judging; when the game
        moved on meanwhile the parts are read again, so that the board, the log and the
        highlight describe the same position (a client that still gets a torn one after many
        tries reloads at the next event anyway)."""
        snap: dict[str, Any] = {}
        for _ in range(5):
            before = self._position()
            snap = self.table.snapshot()
            snap["history"] = self.history()
            snap["series"] = self.series()
            if snap.get("game") is not None:
                snap["game"]["highlight"] = self.highlight()
            if self._position() == before:
                break
        return snap

    def _position(self) -> tuple:
        referee = self.table.referee
        return (id(referee), referee.session.last_seq if referee is not None else None)
