"""The three kinds of move, their JSON form and their notation.

* :class:`SetGrues` — the table sets the three grues at random on three squares: the first move
  of every game (a chance fact the camera reads), ``grues Ks@a1 Km@c2 Kl@d4``.
* :class:`Place` — a gleeb placed on a square during the placement phase, ``Ys@b2``.
* :class:`Step` — whatever stands on a square moved to another square during the movement phase:
  the whole stack, or with ``split`` only its top pyramid (an illegal lift players make). Whether
  it is a gleeb step or a grue step is the state's stage. ``Ys b2xb4``: the small yellow on b2
  lands on what stands on b4 (``x``) or on an empty square (``-``); ``Ys b2xb4 split``.

JSON uses the camera's cells ``[col, row]``: ``{"type": "step", "from": [1, 1], "to": [1, 3]}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.base import MalformedMove
from companion.games.gleebs_and_grues.pieces import (
    BLACK,
    COLOURS,
    SIZE_BY_NAME,
    SIZE_NAMES,
    Cell,
    Pyramid,
    cell_from_name,
    cell_name,
    on_board,
    pyramid_from_code,
)


@dataclass(frozen=True)
class SetGrues:
    """Where the table set the small, medium and large grue."""

    small: Cell
    medium: Cell
    large: Cell

    def cells(self) -> tuple[Cell, Cell, Cell]:
        return (self.small, self.medium, self.large)


@dataclass(frozen=True)
class Place:
    """A gleeb placed on a square."""

    piece: Pyramid
    cell: Cell


@dataclass(frozen=True)
class Step:
    """The stack on ``frm`` (or only its top pyramid, with ``split``) moved to ``to``."""

    frm: Cell
    to: Cell
    split: bool = False


Move = SetGrues | Place | Step


# -- JSON ---------------------------------------------------------------------------------------


def _cell_json(cell: Cell) -> list[int]:
    return [int(cell[0]), int(cell[1])]


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, SetGrues):
        return {"type": "grues", "small": _cell_json(move.small),
                "medium": _cell_json(move.medium), "large": _cell_json(move.large)}
    if isinstance(move, Place):
        return {"type": "place", "colour": move.piece.colour, "size": move.piece.size_name,
                "cell": _cell_json(move.cell)}
    if isinstance(move, Step):
        out: dict[str, Any] = {"type": "step", "from": _cell_json(move.frm),
                               "to": _cell_json(move.to)}
        if move.split:
            out["split"] = True
        return out
    raise MalformedMove(f"not a Gleeb's and Grues move: {move!r}")


def _cell_from_json(data: Mapping[str, Any], key: str) -> Cell:
    value = data.get(key)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise MalformedMove(f"move.{key} must be a cell [col, row] of two integers, not {value!r}")
    cell = (value[0], value[1])
    if not on_board(cell):
        raise MalformedMove(f"move.{key} {value!r} is off the 4×4 board (col and row 0 to 3)")
    return cell


_KEYS = {"grues": {"type", "small", "medium", "large"},
         "place": {"type", "colour", "size", "cell"},
         "step": {"type", "from", "to", "split"}}


def move_from_json(data: Any) -> Move:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"a move must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in _KEYS:
        raise MalformedMove(f"move.type must be one of {', '.join(sorted(_KEYS))}, not {kind!r}")
    extra = sorted(set(data) - _KEYS[kind])
    if extra:
        raise MalformedMove(f"unknown field(s) in a {kind} move: {', '.join(extra)}; "
                            f"expected {', '.join(sorted(_KEYS[kind]))}")
    if kind == "grues":
        return SetGrues(_cell_from_json(data, "small"), _cell_from_json(data, "medium"),
                        _cell_from_json(data, "large"))
    if kind == "place":
        colour, size = data.get("colour"), data.get("size")
        if colour not in COLOURS or colour == BLACK:
            raise MalformedMove(f"move.colour must be red, yellow, green or blue, not {colour!r}")
        if size not in SIZE_BY_NAME:
            raise MalformedMove(f"move.size must be small, medium or large, not {size!r}")
        return Place(Pyramid(colour, SIZE_BY_NAME[size]), _cell_from_json(data, "cell"))
    split = data.get("split", False)
    if not isinstance(split, bool):
        raise MalformedMove(f"move.split must be true or false, not {split!r}")
    frm, to = _cell_from_json(data, "from"), _cell_from_json(data, "to")
    if frm == to:
        raise MalformedMove(f"a step must leave its square; from and to are both {list(frm)}")
    return Step(frm, to, split)


# -- notation -------------------------------------------------------------------------------------


def notation(move: Move, moving: Pyramid | None, lands_on_something: bool) -> str:
    """The notation of ``move``; ``moving`` is the top pyramid a step moves (from the state)."""
    if isinstance(move, SetGrues):
        return "grues " + " ".join(
            f"K{code}@{cell_name(cell)}" for code, cell in zip("sml", move.cells()))
    if isinstance(move, Place):
        return f"{move.piece.code}@{cell_name(move.cell)}"
    prefix = f"{moving.code} " if moving is not None else ""
    sep = "x" if lands_on_something else "-"
    suffix = " split" if move.split else ""
    return f"{prefix}{cell_name(move.frm)}{sep}{cell_name(move.to)}{suffix}"


_PLACE = re.compile(r"^([A-Za-z][a-zA-Z])\s*@\s*([a-dA-D][1-4])$")
_STEP = re.compile(r"^(?:([A-Za-z][a-zA-Z])\s+)?([a-dA-D][1-4])\s*([-x])\s*([a-dA-D][1-4])"
                   r"(\s+split)?$")
_GRUE_TOKEN = re.compile(r"^K([sml])@([a-d][1-4])$", re.IGNORECASE)


def parse(text: str) -> tuple[Move, Pyramid | None]:
    """The move ``text`` names and, for a step written with its piece, that piece (which the
    caller checks against the state). Raises :class:`MalformedMove` with the accepted forms."""
    if not isinstance(text, str):
        raise MalformedMove(f"a notation is a string, not {type(text).__name__}")
    text = " ".join(text.split())
    if text.lower().startswith("grues"):
        tokens = text.split()[1:]
        where: dict[str, Cell] = {}
        for token in tokens:
            m = _GRUE_TOKEN.match(token)
            if not m:
                raise MalformedMove(f"{token!r} is not a grue on a square (like Ks@a1) in {text!r}")
            code = m.group(1).lower()
            if code in where:
                raise MalformedMove(f"the {SIZE_NAMES['sml'.index(code) + 1]} grue is named "
                                    f"twice in {text!r}")
            where[code] = cell_from_name(m.group(2))
        if set(where) != set("sml"):
            raise MalformedMove(f"{text!r} must place the three grues: grues Ks@a1 Km@b2 Kl@c3")
        return SetGrues(where["s"], where["m"], where["l"]), None
    m = _PLACE.match(text)
    if m:
        piece = _piece(m.group(1), text)
        if piece.is_grue:
            raise MalformedMove(f"{text!r}: grues are set at the start (grues Ks@a1 Km@b2 "
                                f"Kl@c3), not placed like gleebs")
        return Place(piece, cell_from_name(m.group(2))), None
    m = _STEP.match(text)
    if m:
        piece = _piece(m.group(1), text) if m.group(1) else None
        frm, to = cell_from_name(m.group(2)), cell_from_name(m.group(4))
        if frm == to:
            raise MalformedMove(f"{text!r}: a step must leave its square")
        return Step(frm, to, bool(m.group(5))), piece
    raise MalformedMove(
        f"{text!r} is not a Gleeb's and Grues move; write a grue setting 'grues Ks@a1 Km@b2 "
        f"Kl@c3', a placement 'Ys@b2', or a step 'Ys b2xb4' (add 'split' for a top lifted alone)")


def _piece(code: str, text: str) -> Pyramid:
    try:
        return pyramid_from_code(code)
    except ValueError as exc:
        raise MalformedMove(f"{text!r}: {exc}") from None
