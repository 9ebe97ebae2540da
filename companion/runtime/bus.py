"""The event bus: every event the program emits, numbered, kept for catch-up.

The dashboard's push channel is one stream per tab carrying every kind of event. Each message has
an ``id`` (increasing, never reused while the process runs) so that a tablet that slept can send
the last id it saw and get everything after it. The bus keeps the latest messages in a ring;
a client further behind than that is told to ``resync`` (reload the whole state) rather than
silently missing events.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    id: int
    type: str
    data: dict[str, Any]
    ts: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.type, "ts": round(self.ts, 3), "data": self.data}


class EventBus:
    """Thread-safe publish / wait-for-newer, with a bounded history."""

    def __init__(self, keep: int = 5000):
        self._messages: deque[Message] = deque(maxlen=keep)
        self._next = 1
        self._cond = threading.Condition()
        self.epoch = f"{int(time.time() * 1000):x}"  # changes when the process restarts

    @property
    def last_id(self) -> int:
        with self._cond:
            return self._next - 1

    def publish(self, type: str, data: dict[str, Any]) -> Message:
        with self._cond:
            message = Message(self._next, type, data)
            self._next += 1
            self._messages.append(message)
            self._cond.notify_all()
            return message

    def since(self, last_id: int) -> list[Message] | None:
        """Messages after ``last_id``; None when some of them are no longer kept."""
        with self._cond:
            if last_id >= self._next - 1:
                return []
            if not self._messages or self._messages[0].id > last_id + 1:
                return None
            return [m for m in self._messages if m.id > last_id]

    def wait(self, last_id: int, timeout: float) -> list[Message] | None:
        """Block until there is a message after ``last_id`` or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._next - 1 <= last_id:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return []
                self._cond.wait(remaining)
        return self.since(last_id)
