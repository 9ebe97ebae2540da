"""The append-only event log: SQLite in WAL mode, one file in the user's data directory.

A game *is* its events: the state is recomputed by replaying them, so a crash loses nothing
(every event is committed before it is acted on), undo and corrections are further events, and
the audit trail is the log itself. Nothing is ever updated or deleted.

Keyframes (the JPEG each verdict was made from) are files beside the log,
``keyframes/<game id>/<seq>.jpg``, named by the event that refers to them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from companion.errors import BadInput, UserError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    ts REAL NOT NULL,
    type TEXT NOT NULL,
    actor TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, seq);
"""


class LogError(UserError):
    """The log file cannot be used (corrupt, from a newer version, locked)."""


@dataclass(frozen=True)
class Event:
    """One line of a game's record. ``actor`` says who made it: ``camera``, ``file``,
    ``referee`` (the person with the PIN), ``cli``, ``script`` or ``system``."""

    seq: int
    game_id: str
    ts: float
    type: str
    actor: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "game_id": self.game_id, "ts": self.ts, "type": self.type,
                "actor": self.actor, "data": self.data}

    @classmethod
    def from_json(cls, obj: Any, *, where: str = "event") -> "Event":
        try:
            if not isinstance(obj["data"], dict):
                raise TypeError("data is not an object")
            return cls(int(obj["seq"]), str(obj["game_id"]), float(obj["ts"]), str(obj["type"]),
                       str(obj["actor"]), obj["data"])
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"not an event ({exc})", where=where) from None


class EventLog:
    """An append-only event log in one SQLite file. Safe to share between threads."""

    FILENAME = "referee.sqlite3"

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(str(self.path), check_same_thread=False,
                                       isolation_level=None, timeout=10.0)
            self._prepare()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not a usable event log ({exc})",
                           hint="move the file away or choose another --data-dir; "
                                "nothing was changed") from None

    def _prepare(self, attempts: int = 100) -> None:
        """The tables and the schema's version, made once whoever opens the file first.

        Another process (the dashboard, a second command, a person looking at the file) may
        open the log at the same moment as it is created: switching a new file to WAL answers
        "database is locked" at once, without waiting, while another connection holds it, so
        the opening is tried again for up to about two seconds; and the version row is written
        only if nobody wrote it yet (both openings may have found none)."""
        for attempt in range(attempts):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(_SCHEMA)
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc) or attempt == attempts - 1:
                    raise
                time.sleep(0.02)
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is not None and int(row[0]) > SCHEMA_VERSION:
            raise LogError(f"{self.path} was written by a newer version (schema {row[0]})",
                           hint="upgrade the program, or use --data-dir for a new log")

    @classmethod
    def in_dir(cls, data_dir: str | Path) -> "EventLog":
        return cls(Path(data_dir) / cls.FILENAME)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "EventLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------------------

    def new_game(self, game: str, data: dict[str, Any], *, actor: str = "system") -> Event:
        """Start a game record; ``data`` (players, options, seed) becomes its first event."""
        from companion.events import GAME_STARTED

        game_id = time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO games VALUES (?, ?, ?)", (game_id, game, time.time()))
                event = self._insert(game_id, GAME_STARTED, actor, {"game": game, **data})
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return event

    def append(self, game_id: str, type: str, data: dict[str, Any], *, actor: str) -> Event:
        """Append one event; it is on disk when this returns."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if self._db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
                    raise LogError(f"no game {game_id!r} in {self.path}")
                event = self._insert(game_id, type, actor, data)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return event

    def _insert(self, game_id: str, type: str, actor: str, data: dict[str, Any]) -> Event:
        ts = time.time()
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        cur = self._db.execute(
            "INSERT INTO events (game_id, ts, type, actor, data) VALUES (?, ?, ?, ?, ?)",
            (game_id, ts, type, actor, text))
        return Event(int(cur.lastrowid), game_id, ts, type, actor, json.loads(text))

    # -- reading ------------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, newest last: id, game name, created, event count."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.created, COUNT(e.seq), MAX(e.type = 'game.ended') "
                "FROM games g LEFT JOIN events e ON e.game_id = g.id "
                "GROUP BY g.id ORDER BY g.created, g.rowid").fetchall()
        return [{"id": r[0], "game": r[1], "created": r[2], "events": r[3], "ended": bool(r[4])}
                for r in rows]

    def latest_game(self, game: str | None = None, *, unfinished: bool = False) -> str | None:
        for info in reversed(self.games()):
            if (game is None or info["game"] == game) and not (unfinished and info["ended"]):
                return info["id"]
        return None

    def events(self, game_id: str, *, after: int = 0) -> list[Event]:
        """A game's events in order (those with ``seq > after``)."""
        return list(self.iter_events(game_id, after=after))

    def iter_events(self, game_id: str | None = None, *, after: int = 0) -> Iterator[Event]:
        with self._lock:
            if game_id is None:
                rows = self._db.execute(
                    "SELECT seq, game_id, ts, type, actor, data FROM events WHERE seq > ? "
                    "ORDER BY seq", (after,)).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT seq, game_id, ts, type, actor, data FROM events "
                    "WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after)).fetchall()
        for seq, gid, ts, type_, actor, data in rows:
            try:
                payload = json.loads(data)
            except json.JSONDecodeError as exc:
                raise LogError(f"{self.path}: event {seq} is corrupt ({exc.msg})",
                               hint="export what can be read with `companion log export`") from None
            yield Event(seq, gid, ts, type_, actor, payload)

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(seq) FROM events").fetchone()
        return int(row[0] or 0)

    # -- keyframes ----------------------------------------------------------------------------

    def keyframe_path(self, game_id: str, seq: int) -> Path:
        return self.path.parent / "keyframes" / game_id / f"{seq}.jpg"

    def save_keyframe(self, game_id: str, seq: int, jpeg: bytes) -> Path:
        """Store the image an event was judged from (written atomically)."""
        path = self.keyframe_path(game_id, seq)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(jpeg)
        tmp.replace(path)
        return path
