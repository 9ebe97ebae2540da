"""The table board's line protocol, host side: framing, checksums, commands and replies.

Every line, both ways, is ``<payload>*<CRC>`` where CRC is the CRC-16/CCITT-FALSE of the payload
bytes in 4 hex digits. The host sends ``<seq> <VERB> [args...]``; the board answers
``OK <seq> [info...]`` or ``NO <seq|-> <REASON> <text>``, and announces ``READY ...`` after
every boot. The whole protocol is described in ``firmware_docs/PROTOCOL.md``; the firmware's
side is ``firmware_docs/table_board/protocol.cpp``.

``python -m hardware.protocol SCORE 0 12`` prints a framed line ready to paste into a serial
monitor (sequence number 1 unless ``--seq N``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

BAUD = 57600
PROTO_VERSION = 1
MAX_LINE = 160          # characters in a line, end of line excluded (the firmware's buffer)
MAX_SEQ = 9999
#: Commands whose effect is a moment, not a state: never replayed after a reconnection.
TRANSIENT_VERBS = frozenset({"FLASH", "TEXT", "TEST"})
VERBS = frozenset({"HELLO", "PING", "STATE", "SEATS", "TURN", "SCORE", "VIEW", "TEXT", "FLASH",
                   "PULSE", "BRIGHT", "TEST"})
REASONS = ("BADSUM", "TOOLONG", "GARBAGE", "SYNTAX", "UNKNOWN", "ARGS", "PROTO", "HELLO")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def seal(payload: str, *, end: str = "\n") -> bytes:
    """The payload with its checksum and an end of line, as bytes for the wire."""
    raw = payload.encode("ascii")
    return raw + b"*%04X" % crc16(raw) + end.encode("ascii")


def unseal(line: bytes) -> str | None:
    """The payload of a checked line (end of line already removed), or None when the line is
    not printable ASCII or its checksum is missing or wrong."""
    if len(line) < 5 or line[-5:-4] != b"*":
        return None
    if any(b < 0x20 or b > 0x7E for b in line):
        return None
    try:
        sent = int(line[-4:].decode("ascii"), 16)
    except ValueError:
        return None
    if crc16(line[:-5]) != sent:
        return None
    return line[:-5].decode("ascii")


@dataclass(frozen=True)
class Command:
    """One command for the board, before it gets its sequence number."""

    verb: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise ValueError(f"unknown board command {self.verb!r}")
        for arg in self.args:
            if not arg or " " in arg or "*" in arg or not arg.isascii() or not arg.isprintable():
                raise ValueError(f"bad argument {arg!r} for {self.verb}")

    @property
    def transient(self) -> bool:
        return self.verb in TRANSIENT_VERBS

    def payload(self, seq: int) -> str:
        return " ".join((str(seq), self.verb) + self.args)

    def line(self, seq: int) -> bytes:
        data = seal(self.payload(seq))
        if len(data) - 1 > MAX_LINE:
            raise ValueError(f"{self.verb} line is {len(data) - 1} characters, over {MAX_LINE}")
        return data

    def __str__(self) -> str:
        return " ".join((self.verb,) + self.args)


@dataclass(frozen=True)
class Reply:
    """A checked line from the board.

    ``kind`` is ``OK``, ``NO`` or ``READY``; ``seq`` the command it answers (None for READY and
    for refusals of lines whose number could not be trusted); ``reason`` the refusal's word;
    ``words`` the rest (``DUP``, ``proto=1``, the refusal's text...).
    """

    kind: str
    seq: int | None
    reason: str = ""
    words: tuple[str, ...] = ()
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def duplicate(self) -> bool:
        return self.kind == "OK" and "DUP" in self.words

    @property
    def text(self) -> str:
        return " ".join(self.words)


def parse_reply(line: bytes) -> Reply | None:
    """A board line (without its end of line) as a Reply, or None for anything that is not a
    well-formed, correctly checksummed reply: noise is dropped here, never acted on."""
    payload = unseal(line)
    if payload is None:
        return None
    words = payload.split()
    if not words:
        return None
    kind = words[0]
    fields = {k: v for k, _, v in (w.partition("=") for w in words[1:] if "=" in w)}
    if kind == "READY":
        return Reply("READY", None, words=tuple(words[1:]), fields=fields)
    if kind not in ("OK", "NO") or len(words) < 2:
        return None
    seq: int | None
    if words[1] == "-" and kind == "NO":
        seq = None
    elif words[1].isdigit() and 1 <= int(words[1]) <= MAX_SEQ:
        seq = int(words[1])
    else:
        return None
    if kind == "OK":
        return Reply("OK", seq, words=tuple(words[2:]), fields=fields)
    if len(words) < 3 or words[2] not in REASONS:
        return None
    return Reply("NO", seq, reason=words[2], words=tuple(words[3:]))


class LineSplitter:
    """Cuts a byte stream into lines at CR or LF. A line longer than ``limit`` is dropped whole
    (it cannot be a reply), and so are empty lines."""

    def __init__(self, limit: int = 2 * MAX_LINE):
        self.limit = limit
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        for byte in data:
            if byte in (10, 13):
                if self._buf and not self._overflow:
                    lines.append(bytes(self._buf))
                self._buf.clear()
                self._overflow = False
            elif len(self._buf) >= self.limit:
                self._overflow = True
            else:
                self._buf.append(byte)
        return lines

    def clear(self) -> None:
        self._buf.clear()
        self._overflow = False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.protocol",
        description="Print a framed command line to type or paste into a serial monitor.")
    parser.add_argument("--seq", type=int, default=1, help="sequence number (1..9999)")
    parser.add_argument("verb", help="command, e.g. HELLO, STATE, SCORE")
    parser.add_argument("args", nargs="*", help="its arguments")
    ns = parser.parse_args(argv)
    try:
        if not 1 <= ns.seq <= MAX_SEQ:
            raise ValueError("the sequence number must be between 1 and 9999")
        sys.stdout.write(Command(ns.verb.upper(), tuple(ns.args)).line(ns.seq).decode("ascii"))
    except ValueError as exc:
        print(f"python -m hardware.protocol: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
