"""What the camera reports: the pieces it sees, where, with what attributes and how sure.

This module is the one meeting point of *see* and *judge*: vision produces observations, games
consume them, and neither imports the other. The JSON form is documented in
``docs/observation.md``; keep the two in step.

A piece is placed in whichever frame fits it (several may be given):

* ``cell`` + ``level``: integer grid coordinates on a lattice or printed board, and the stack
  level (0 = standing on the table or board);
* ``xyz``: table coordinates in millimetres (z up, origin at table marker 0);
* ``zone``: a named area of the table (``played``, ``tray``, ``pool``, ``player:red``, ...).

Everything else a reader knows about a piece (colour, size, face, shape, card, slot) is an
attribute. ``conf`` is the reader's probability that this reading is right.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

from companion.errors import BadInput

#: keys of a piece's JSON object that are not attributes
_PIECE_FIELDS = ("kind", "conf", "cell", "level", "xyz", "zone")


class ObservationError(BadInput):
    """An observation that cannot be read; says which field and why."""


@dataclass(frozen=True)
class Piece:
    """One piece as read by the camera."""

    kind: str
    conf: float = 1.0
    cell: tuple[int, int] | None = None
    level: int | None = None
    xyz: tuple[float, float, float] | None = None
    zone: str | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.cell is not None:
            out["cell"] = [int(self.cell[0]), int(self.cell[1])]
        if self.level is not None:
            out["level"] = int(self.level)
        if self.xyz is not None:
            out["xyz"] = [round(float(v), 2) for v in self.xyz]
        if self.zone is not None:
            out["zone"] = self.zone
        for key in sorted(self.attrs):
            out[key] = self.attrs[key]
        out["conf"] = round(float(self.conf), 4)
        return out

    @classmethod
    def from_json(cls, data: Any, *, where: str = "piece") -> "Piece":
        if not isinstance(data, Mapping):
            raise ObservationError(f"{where} must be a JSON object, not {type(data).__name__}")
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ObservationError(f"{where} has no \"kind\" (a non-empty string)")
        conf = data.get("conf", 1.0)
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0.0 <= conf <= 1.0 \
                or math.isnan(conf):
            raise ObservationError(f"{where}.conf must be a number from 0 to 1, not {conf!r}")
        cell = data.get("cell")
        if cell is not None:
            if (not isinstance(cell, list) or len(cell) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
                raise ObservationError(f"{where}.cell must be two integers [x, y], not {cell!r}")
            cell = (cell[0], cell[1])
        level = data.get("level")
        if level is not None and (isinstance(level, bool) or not isinstance(level, int) or level < 0):
            raise ObservationError(f"{where}.level must be an integer ≥ 0, not {level!r}")
        xyz = data.get("xyz")
        if xyz is not None:
            if (not isinstance(xyz, list) or len(xyz) != 3
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                               and math.isfinite(v) for v in xyz)):
                raise ObservationError(f"{where}.xyz must be three numbers (mm), not {xyz!r}")
            xyz = (float(xyz[0]), float(xyz[1]), float(xyz[2]))
        zone = data.get("zone")
        if zone is not None and not isinstance(zone, str):
            raise ObservationError(f"{where}.zone must be a string, not {zone!r}")
        attrs = {k: v for k, v in data.items() if k not in _PIECE_FIELDS}
        return cls(kind=kind, conf=float(conf), cell=cell, level=level, xyz=xyz, zone=zone,
                   attrs=attrs)


@dataclass(frozen=True)
class Observation:
    """One still moment of the table, as read by the camera.

    ``hand`` is True when a hand or arm was over the play area: such an observation is never
    judged. ``board`` carries how the reader registered the play area (lattice origin and angle,
    board pose), for diagnostics and for the next reading. ``frame`` and ``t`` locate it in the
    video (frame index, seconds).
    """

    game: str
    pieces: tuple[Piece, ...] = ()
    frame: int | None = None
    t: float | None = None
    hand: bool = False
    board: Mapping[str, Any] = field(default_factory=dict)

    def of_kind(self, kind: str) -> Iterator[Piece]:
        return (p for p in self.pieces if p.kind == kind)

    def in_zone(self, zone: str) -> Iterator[Piece]:
        return (p for p in self.pieces if p.zone == zone)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game}
        if self.frame is not None:
            out["frame"] = self.frame
        if self.t is not None:
            out["t"] = round(self.t, 3)
        if self.hand:
            out["hand"] = True
        if self.board:
            out["board"] = dict(self.board)
        out["pieces"] = [p.to_json() for p in self.pieces]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any, *, where: str = "observation") -> "Observation":
        if not isinstance(data, Mapping):
            raise ObservationError(f"{where} must be a JSON object, not {type(data).__name__}")
        game = data.get("game")
        if not isinstance(game, str) or not game:
            raise ObservationError(f"{where} has no \"game\" (the game's name)")
        pieces = data.get("pieces", [])
        if not isinstance(pieces, list):
            raise ObservationError(f"{where}.pieces must be a list")
        parsed = tuple(Piece.from_json(p, where=f"{where}.pieces[{i}]") for i, p in enumerate(pieces))
        frame = data.get("frame")
        if frame is not None and (isinstance(frame, bool) or not isinstance(frame, int)):
            raise ObservationError(f"{where}.frame must be an integer")
        t = data.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float))):
            raise ObservationError(f"{where}.t must be a number (seconds)")
        hand = data.get("hand", False)
        if not isinstance(hand, bool):
            raise ObservationError(f"{where}.hand must be true or false")
        board = data.get("board", {})
        if not isinstance(board, Mapping):
            raise ObservationError(f"{where}.board must be an object")
        return cls(game=game, pieces=parsed, frame=frame, t=None if t is None else float(t),
                   hand=hand, board=dict(board))

    @classmethod
    def loads(cls, text: str, *, where: str = "observation") -> "Observation":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ObservationError(f"not JSON ({exc.msg} at column {exc.colno})", where=where) from None
        return cls.from_json(data, where=where)


def read_jsonl(lines: Iterable[str], *, source: str = "<input>") -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, parsed JSON)`` for each non-blank line; a line that is not JSON
    raises :class:`ObservationError` naming the file and line."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError as exc:
            raise ObservationError(f"not JSON ({exc.msg} at column {exc.colno})",
                                   where=f"{source}:{number}") from None
