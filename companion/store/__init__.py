"""Tell, first: the append-only record of every game."""

from companion.store.log import Event, EventLog, LogError  # noqa: F401
