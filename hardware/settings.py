"""The board's persistent state, as the protocol sets it, and the rules its commands obey.

The host keeps one :class:`BoardSettings` as what the board *should* show, updated the moment
the referee asks for a change, and sends it whole (one ``STATE`` line) after every
(re)connection. The emulated board keeps one as what it *does* show. Both apply commands with
:meth:`BoardSettings.apply`, which accepts and refuses exactly what the firmware does
(``firmware_docs/table_board/board.cpp``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hardware.colours import RGB, from_hex, to_hex
from hardware.protocol import Command

MAX_SEATS = 8
SCORE_MIN, SCORE_MAX = -32768, 32767

_INT = re.compile(r"-?[0-9]{1,6}")
_UINT = re.compile(r"[0-9]{1,6}")


def parse_int(text: str, lo: int, hi: int) -> int:
    """The firmware's strict integer: optional '-', 1 to 6 digits, in [lo, hi]."""
    if not _INT.fullmatch(text) or not lo <= int(text) <= hi:
        raise ValueError(f"{text!r} is not a number in {lo}..{hi}")
    return int(text)


def parse_uint(text: str, hi: int) -> int:
    if not _UINT.fullmatch(text) or int(text) > hi:
        raise ValueError(f"{text!r} is not a number in 0..{hi}")
    return int(text)


def _colour(text: str) -> RGB:
    if text.startswith("#"):
        raise ValueError(f"not a colour: {text!r}")
    return from_hex(text)


@dataclass(frozen=True)
class BoardSettings:
    """Seats (colour and score each, in play order), whose turn, what the display shows, the
    amber pulse and the brightness.

    ``view`` is the protocol's token: ``I`` idle (dashes), ``C`` cycle through the scores,
    ``S<n>`` seat n's number and score, ``W<n>`` seat n as the winner (blinking).
    """

    colours: tuple[RGB, ...] = ()
    scores: tuple[int, ...] = ()
    turn: int | None = None
    view: str = "I"
    pulse: bool = False
    brightness: int = 8

    @property
    def seats(self) -> int:
        return len(self.colours)

    @property
    def view_kind(self) -> str:
        return self.view[0]

    @property
    def view_seat(self) -> int | None:
        return int(self.view[1:]) if self.view[0] in "SW" else None

    # -- commands ---------------------------------------------------------------------------

    def state_command(self) -> Command:
        """The one line that sets all of this on a board."""
        turn = "-" if self.turn is None else str(self.turn)
        seats = tuple(f"{to_hex(c)}:{s}" for c, s in zip(self.colours, self.scores))
        return Command("STATE", (f"b={self.brightness}", f"t={turn}", f"v={self.view}",
                                 f"p={int(self.pulse)}") + seats)

    def apply(self, cmd: Command) -> BoardSettings:
        """These settings after ``cmd``; ValueError (the firmware's ``NO ARGS``) when the
        board would refuse it. Commands that set nothing lasting return the settings as they
        are."""
        a = cmd.args
        if cmd.verb == "STATE":
            return self._state(a)
        if cmd.verb == "SEATS":
            if len(a) > MAX_SEATS:
                raise ValueError(f"at most {MAX_SEATS} seats")
            colours = tuple(_colour(t) for t in a)
            n = len(colours)
            scores = self.scores[:n] + (0,) * (n - len(self.scores[:n]))
            turn = self.turn if self.turn is not None and self.turn < n else None
            view = self.view
            if self.view_seat is not None and self.view_seat >= n:
                view = "I"
            return replace(self, colours=colours, scores=scores, turn=turn, view=view)
        if cmd.verb == "TURN":
            self._arity(cmd, 1)
            return replace(self, turn=self._turn(a[0], self.seats))
        if cmd.verb == "SCORE":
            self._arity(cmd, 2)
            seat = parse_uint(a[0], MAX_SEATS - 1)
            if seat >= self.seats:
                raise ValueError(f"no seat {seat}: {self.seats} seats")
            scores = list(self.scores)
            scores[seat] = parse_int(a[1], SCORE_MIN, SCORE_MAX)
            return replace(self, scores=tuple(scores))
        if cmd.verb == "VIEW":
            self._arity(cmd, 1)
            return replace(self, view=self._view(a[0], self.seats))
        if cmd.verb == "PULSE":
            self._arity(cmd, 1)
            return replace(self, pulse=parse_uint(a[0], 1) == 1)
        if cmd.verb == "BRIGHT":
            self._arity(cmd, 1)
            return replace(self, brightness=parse_uint(a[0], 15))
        return self

    @staticmethod
    def _arity(cmd: Command, n: int) -> None:
        if len(cmd.args) != n:
            raise ValueError(f"{cmd.verb} takes {n} argument(s)")

    @staticmethod
    def _turn(text: str, seats: int) -> int | None:
        if text == "-":
            return None
        seat = parse_uint(text, MAX_SEATS - 1)
        if seat >= seats:
            raise ValueError(f"no seat {seat}: {seats} seats")
        return seat

    @staticmethod
    def _view(text: str, seats: int) -> str:
        if text in ("I", "C"):
            return text
        if text[:1] in ("S", "W"):
            seat = parse_uint(text[1:], MAX_SEATS - 1)
            if seat >= seats:
                raise ValueError(f"no seat {seat}: {seats} seats")
            return f"{text[0]}{seat}"
        raise ValueError(f"not a view: {text!r} (I, C, S<n> or W<n>)")

    def _state(self, a: tuple[str, ...]) -> BoardSettings:
        if not 4 <= len(a) <= 4 + MAX_SEATS:
            raise ValueError("STATE takes b= t= v= p= and up to 8 seats")
        colours, scores = [], []
        for token in a[4:]:
            colour, sep, score = token.partition(":")
            if not sep or len(colour) != 6:
                raise ValueError(f"not a seat: {token!r} (rrggbb:score)")
            colours.append(_colour(colour))
            scores.append(parse_int(score, SCORE_MIN, SCORE_MAX))
        keys = []
        for token, key in zip(a[:4], "btvp"):
            if not token.startswith(key + "="):
                raise ValueError(f"expected {key}=..., got {token!r}")
            keys.append(token[2:])
        n = len(colours)
        return BoardSettings(colours=tuple(colours), scores=tuple(scores),
                             turn=self._turn(keys[1], n), view=self._view(keys[2], n),
                             pulse=parse_uint(keys[3], 1) == 1,
                             brightness=parse_uint(keys[0], 15))
