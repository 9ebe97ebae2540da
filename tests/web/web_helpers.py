"""Helpers for the dashboard's tests: a Haut les Cubes game fed with the observations an ideal
camera would report, and a small client for the event stream over a real socket."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import replace
from typing import Any, Iterator

from companion.games import get_game
from companion.observation import Observation

HLC = get_game("haut-les-cubes")
PLAYERS = ["red", "blue", "green"]
PIN = "2468"

#: round 1 of the referee tests' game: red lays a step and climbs it (then round 2 begins)
ROUND_ONE = ("red: N -5,1^0", "blue: M -4,-2", "green: M 3,0", "red: M -4,1",
             "blue: M -4,-1", "green: M 3,1", "blue: M -4,-2", "green: M 3,0")


def place_giants(referee: Any) -> None:
    """The three giants placed, as the camera sees them."""
    for seat, cell in (("red", (-4, 0)), ("blue", (-4, -1)), ("green", (3, 1))):
        state = referee.state
        after = HLC.apply(state, HLC.parse_notation(state, f"{seat}: @{cell[0]},{cell[1]}"))
        referee.observe(HLC.expected_observation(after), actor="camera")


def seen_after(state: Any, notation: str, *, card: bool = True) -> Observation:
    """What the camera reads after ``notation`` is played from ``state`` (without the card in the
    played zone when ``card`` is False: the referee must then ask which card it was)."""
    after = HLC.apply(state, HLC.parse_notation(state, notation))
    obs = HLC.expected_observation(after)
    if not card:
        obs = replace(obs, pieces=tuple(p for p in obs.pieces if p.kind != "card"))
    return obs


def play(referee: Any, notation: str, *, card: bool = True, image: bytes | None = None) -> list:
    """The active player clears the played card (when one lies there) and makes a move."""
    if referee.state.last_card is not None:
        referee.observe(seen_after(referee.state, "pile"), image_jpeg=image)
    return referee.observe(seen_after(referee.state, notation, card=card), image_jpeg=image)


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02, what: str = "condition"):
    """Wait until ``predicate()`` is truthy (returns it) or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


class EventStream:
    """One event-stream client over a real socket: ``next()`` gives the next message as
    ``(event id or None, parsed data)``."""

    def __init__(self, port: int, *, last: str | None = None, query: str = "",
                 timeout: float = 10.0):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if last is not None:
            headers["Last-Event-ID"] = last
        self.conn.request("GET", "/api/events" + query, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def body(self) -> dict[str, Any]:
        return json.loads(self.response.read().decode())

    def messages(self) -> Iterator[tuple[str | None, dict[str, Any]]]:
        event_id: str | None = None
        data: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                return
            line = raw.decode().rstrip("\r\n")
            if line == "":
                if data:
                    yield event_id, json.loads("\n".join(data))
                event_id, data = None, []
            elif line.startswith(":"):
                continue
            elif line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("data: "):
                data.append(line[6:])

    def close(self) -> None:
        try:
            self.response.close()
        finally:
            self.conn.close()
