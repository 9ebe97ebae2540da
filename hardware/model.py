"""The table board's behaviour in Python: the firmware's state machine and what it shows.

This mirrors ``firmware_docs/table_board/board.cpp`` and ``protocol.cpp`` rule for rule (the
tests run the same command sequences through both and compare what a player sees), so the
emulated board answers and lights up as the real one does. Time is given in milliseconds by the
caller, as the firmware's ``millis()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware import segments
from hardware.colours import RGB
from hardware.protocol import MAX_LINE, MAX_SEQ, PROTO_VERSION, Command, crc16, seal
from hardware.settings import BoardSettings, parse_uint

FW_VERSION = "1.0.0"
NUM_LEDS = 8
NUM_DIGITS = 8

SELFTEST_STEP_MS = 150
FLASH_ON_MS, FLASH_OFF_MS, FLASH_BLINKS = 150, 100, 3
PULSE_PERIOD_MS = 1000
CYCLE_MS = 2000
WIN_ON_MS, WIN_OFF_MS = 700, 300
LEVEL_ACTIVE, LEVEL_WAITING, LEVEL_NO_TURN = 255, 48, 128

GREEN: RGB = (0, 255, 0)
RED: RGB = (255, 0, 0)
AMBER: RGB = (255, 140, 0)
BLUE: RGB = (0, 0, 255)
BLACK: RGB = (0, 0, 0)
SELFTEST_SEATS: tuple[RGB, ...] = (
    (255, 0, 0), (255, 200, 0), (0, 0, 255), (0, 255, 0),
    (255, 255, 255), (40, 40, 40), (255, 100, 0), (150, 0, 255),
)
CAPS = ("fw=" + FW_VERSION + " leds=8 digits=8 seats=8"
        " caps=STATE,SEATS,TURN,SCORE,VIEW,TEXT,FLASH,PULSE,BRIGHT,TEST,PING")

REFUSAL_TEXT = {
    "BADSUM": "checksum missing or wrong",
    "TOOLONG": "line over 160 characters",
    "GARBAGE": "byte outside printable ASCII",
    "SYNTAX": "expected: seq VERB args*CRC",
    "UNKNOWN": "no such command",
    "ARGS": "bad arguments, see PROTOCOL.md",
    "PROTO": "board speaks protocol 1",
    "HELLO": "send HELLO first",
}


@dataclass(frozen=True)
class Shown:
    """What a player sees at one instant."""

    leds: tuple[RGB, ...]
    digits: bytes       # glyphs, leftmost first
    brightness: int


class LineReader:
    """Bytes into lines, as the firmware's LineReader: CR or LF ends a line, empty lines are
    ignored, an over-long line or one with a non-printable byte is reported once at its end."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.overflow = False
        self.garbage = False

    def feed(self, byte: int) -> tuple[str, bytes] | None:
        """None, or (event, line) with event ``line``, ``toolong`` or ``garbage``."""
        if byte in (10, 13):
            event = ("toolong" if self.overflow else "garbage" if self.garbage
                     else "line" if self.buf else None)
            line = bytes(self.buf)
            self.buf.clear()
            self.overflow = self.garbage = False
            return (event, line) if event else None
        if byte < 0x20 or byte > 0x7E:
            self.garbage = True
        if len(self.buf) >= MAX_LINE:
            self.overflow = True
        else:
            self.buf.append(byte)
        return None


def _score_glyphs(settings: BoardSettings, seat: int) -> bytes:
    text = f"P{seat + 1}" + f"{settings.scores[seat]:>6}"
    return segments.render(text[:NUM_DIGITS])


def _scaled(c: RGB, level: int) -> RGB:
    return (c[0] * level // 255, c[1] * level // 255, c[2] * level // 255)


class BoardModel:
    """The board's state machine: settings, link state, resend detection, and the moments
    (flash, text, self-test) that come and go."""

    def __init__(self, now: int = 0):
        self.begin(now)

    def begin(self, now: int) -> None:
        """Power-on: default settings, self-test running, no host linked."""
        self.settings = BoardSettings()
        self.linked = False
        self.last: tuple[int, int] | None = None
        self.flash: str | None = None
        self.flash_start = now
        self.text = bytes(NUM_DIGITS)
        self.text_start = now
        self.text_ms = 0
        self.test_start = now
        self.view_since = now
        self.executed: list[str] = []   # every command carried out, for tests: "12 SCORE 0 5"

    def ready_banner(self) -> bytes:
        return seal(f"READY proto={PROTO_VERSION} fw={FW_VERSION}", end="\r\n")

    def self_testing(self, now: int) -> bool:
        return now - self.test_start < 4 * SELFTEST_STEP_MS

    # -- lines in, replies out ----------------------------------------------------------------

    def on_event(self, event: str, line: bytes, now: int) -> bytes:
        """One event of the LineReader -> the sealed reply."""
        if event == "toolong":
            return self._refuse(None, "TOOLONG")
        if event == "garbage":
            return self._refuse(None, "GARBAGE")
        return self._on_line(line, now)

    def _on_line(self, line: bytes, now: int) -> bytes:
        if (len(line) < 5 or line[-5:-4] != b"*"
                or not all(c in b"0123456789abcdefABCDEF" for c in line[-4:])):
            return self._refuse(None, "BADSUM")
        sent = int(line[-4:].decode("ascii"), 16)
        body = line[:-5]
        if crc16(body) != sent:
            return self._refuse(None, "BADSUM")
        tokens = [t for t in body.decode("ascii").split(" ") if t]
        for i, token in enumerate(tokens):   # in the firmware's order: first problem wins
            if i == 14:
                return self._refuse(None, "ARGS")
            if "*" in token:
                return self._refuse(None, "SYNTAX")
        try:
            if not tokens or len(tokens[0]) > 4:
                raise ValueError
            seq = parse_uint(tokens[0], MAX_SEQ)
            if seq == 0:
                raise ValueError
        except ValueError:
            return self._refuse(None, "SYNTAX")
        if len(tokens) < 2:
            return self._refuse(seq, "SYNTAX")
        verb, args = tokens[1], tuple(tokens[2:])
        try:
            cmd = Command(verb, args)
        except ValueError:
            return self._refuse(seq, "UNKNOWN")
        if self.last == (seq, sent):
            return seal(f"OK {seq} DUP", end="\r\n")
        reason, extra = self._execute(cmd, now)
        if reason:
            return self._refuse(seq, reason)
        self.last = (seq, sent)
        self.executed.append(f"{seq} {cmd}")
        return seal(f"OK {seq}{extra}", end="\r\n")

    @staticmethod
    def _refuse(seq: int | None, reason: str) -> bytes:
        return seal(f"NO {seq if seq else '-'} {reason} {REFUSAL_TEXT[reason]}", end="\r\n")

    def _execute(self, cmd: Command, now: int) -> tuple[str | None, str]:
        v, a = cmd.verb, cmd.args
        if not self.linked and v not in ("HELLO", "PING", "TEST"):
            return "HELLO", ""
        try:
            if v == "HELLO":
                if len(a) != 1:
                    raise ValueError
                if parse_uint(a[0], 99) != PROTO_VERSION:
                    return "PROTO", ""
                self.linked = True
                return None, f" proto={PROTO_VERSION} {CAPS}"
            if v == "PING":
                if a:
                    raise ValueError
            elif v == "TEST":
                if a:
                    raise ValueError
                self.test_start = now
            elif v == "TEXT":
                if not a:
                    raise ValueError
                ms = parse_uint(a[0], 60000)
                self.text = segments.render(" ".join(a[1:]), NUM_DIGITS)
                self.text_start, self.text_ms = now, ms
            elif v == "FLASH":
                if len(a) != 1 or a[0] not in ("GOOD", "BAD", "OFF"):
                    raise ValueError
                self.flash = None if a[0] == "OFF" else a[0]
                self.flash_start = now
            else:
                new = self.settings.apply(cmd)
                if new.view != self.settings.view:
                    self.view_since = now
                self.settings = new
        except ValueError:
            return "ARGS", ""
        return None, ""

    # -- what the players see -----------------------------------------------------------------

    def render(self, now: int) -> Shown:
        s = self.settings
        used = s.seats or NUM_LEDS
        leds: list[RGB] = [BLACK] * NUM_LEDS
        if self.self_testing(now):
            step = (now - self.test_start) // SELFTEST_STEP_MS
            leds = [(RED, GREEN, BLUE)[step] if step < 3 else SELFTEST_SEATS[i]
                    for i in range(NUM_LEDS)]
            digits = bytes([0xFF] * NUM_DIGITS) if step < 2 else segments.render("12345678")
        else:
            win_on = (now - self.view_since) % (WIN_ON_MS + WIN_OFF_MS) < WIN_ON_MS
            kind, seat = s.view_kind, s.view_seat
            if now - self.text_start < self.text_ms:
                digits = self.text
            elif kind == "S":
                digits = _score_glyphs(s, seat)
            elif kind == "C" and s.seats:
                digits = _score_glyphs(s, (now - self.view_since) // CYCLE_MS % s.seats)
            elif kind == "W":
                digits = _score_glyphs(s, seat) if win_on else bytes(NUM_DIGITS)
            else:
                digits = segments.render("--------")
            if kind == "W":
                if win_on:
                    leds[seat] = s.colours[seat]
            else:
                for i in range(s.seats):
                    level = (LEVEL_NO_TURN if s.turn is None
                             else LEVEL_ACTIVE if i == s.turn else LEVEL_WAITING)
                    leds[i] = _scaled(s.colours[i], level)
                if s.pulse:
                    t = now % PULSE_PERIOD_MS
                    half = PULSE_PERIOD_MS // 2
                    tri = t if t < half else PULSE_PERIOD_MS - t
                    level = 26 + tri * 229 // half
                    for i in range(used):
                        leds[i] = _scaled(AMBER, level)
            since = now - self.flash_start
            if self.flash and since < FLASH_BLINKS * (FLASH_ON_MS + FLASH_OFF_MS):
                on = since % (FLASH_ON_MS + FLASH_OFF_MS) < FLASH_ON_MS
                colour = (GREEN if self.flash == "GOOD" else RED) if on else BLACK
                for i in range(used):
                    leds[i] = colour
        b = s.brightness + 1
        leds = [(r * b // 16, g * b // 16, bl * b // 16) for r, g, bl in leds]
        return Shown(tuple(leds), bytes(digits), s.brightness)

