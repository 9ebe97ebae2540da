"""Moves of Haut les Cubes, their notation and their JSON form.

Three kinds of move:

* :class:`Place`: a giant's first placement on the ground, before the first round;
* :class:`Pile`: the card lying in the played-card zone moved onto the played pile (the table
  convention: the next player clears the zone before laying their card, so that even a card of
  the same design as the last one is seen arriving);
* :class:`Play`: a card laid and its action. The card is part of the move (the camera reads it in
  the played-card zone). The action's details are the fields that apply to the card: ``cube``
  for Napozla (the cube laid) and Nenlèvsa (the cube removed, with ``relocate``: where isolated
  giants were put back), ``to`` for a giant's destination, ``target`` for the giant pushed or
  shot. A card with no action (all details empty) was discarded without effect.

Notation: ``<seat>: <letter> <details>``, with the letters M (Moavéou), N (Napozla), R (retrait,
Nenlèvsa), P (Pousstoia), H (Hoplà), T (Tvavoartoa); cells are ``x,y`` and cubes ``x,y^z``::

    red: @-1,2          red's giant is placed on the table at cell (-1, 2)
    pile                the card in the played-card zone moved onto the pile
    red: N 2,0^1        Napozla: a cube laid at (2, 0), level 1
    red: N 2,0^1~       ... with its squares not lined up with the others' (not allowed)
    red: M 3,2          Moavéou to (3, 2)
    red: P blue>4,1     Pousstoia: blue pushed to (4, 1), red stays
    red: P blue>4,1 =   ... and red takes blue's place
    red: P blue>4,1 =2,2  ... and red went to (2, 2) instead (not allowed)
    red: P >3,2         pushed into the void: red steps to (3, 2)
    red: H 5,5          Hoplà to (5, 5)
    red: T blue>6,2     Tvavoartoa: blue shot to (6, 2)
    red: R 0,0^0 | green>-1,3   Nenlèvsa, and green, isolated, put back at (-1, 3)
    red: M -            Moavéou discarded without effect

Anything after ``(`` is a comment (the notation the engine writes adds the drop and the points:
``red: M 3,2 (↓2 +4)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.base import MalformedMove
from companion.games.haut_les_cubes.cards import BY_LETTER, CARDS, LETTER, NAPOZLA, NENLEVSA
from companion.games.haut_les_cubes.geometry import Cell, Cube, cell_name, cube_name
from companion.games.haut_les_cubes.state import SEATS


@dataclass(frozen=True)
class Place:
    """A giant placed on the ground before the first round."""

    seat: str
    cell: Cell


@dataclass(frozen=True)
class Pile:
    """The played card moved from the zone onto the played pile: a table move, by nobody's
    turn."""


@dataclass(frozen=True, slots=True)
class Play:
    """A card laid by ``seat`` and its action."""

    seat: str
    card: str
    cube: Cube | None = None
    to: Cell | None = None
    target: str | None = None
    take: bool = False
    relocate: tuple[tuple[str, Cell], ...] = ()
    #: where a pusher went when it neither stayed nor took its victim's place (illegal)
    pusher_to: Cell | None = None
    #: False when the cube was laid with its squares not lined up with the others (illegal)
    aligned: bool = True

    @property
    def is_null(self) -> bool:
        """The card was discarded without effect."""
        return self.cube is None and self.to is None and self.target is None


Move = Place | Pile | Play


# -- notation ---------------------------------------------------------------------------------

_CELL = r"(-?\d+),(-?\d+)"
_RE_PLACE = re.compile(rf"^@{_CELL}$")
_RE_CUBE = re.compile(rf"^{_CELL}(?:\^(\d+))?(~)?$")
_RE_CELL = re.compile(rf"^{_CELL}$")
_RE_TARGET = re.compile(rf"^([a-z]*)>{_CELL}$")


def notation(move: Move) -> str:
    """The move's notation, without comment."""
    if isinstance(move, Pile):
        return "pile"
    if isinstance(move, Place):
        return f"{move.seat}: @{cell_name(move.cell)}"
    letter = LETTER[move.card]
    if move.is_null:
        return f"{move.seat}: {letter} -"
    if move.card in (NAPOZLA, NENLEVSA):
        assert move.cube is not None
        text = f"{move.seat}: {letter} {cube_name(move.cube)}" + ("" if move.aligned else "~")
        for seat, cell in move.relocate:
            text += f" | {seat}>{cell_name(cell)}"
        return text
    assert move.to is not None
    if move.target is not None or move.card == "pousstoia":
        text = f"{move.seat}: {letter} {move.target or ''}>{cell_name(move.to)}"
        if move.pusher_to is not None:
            return text + f" ={cell_name(move.pusher_to)}"
        return text + (" =" if move.take else "")
    return f"{move.seat}: {letter} {cell_name(move.to)}"


def parse(text: str, default_level: "callable[[int, int], int] | None" = None) -> Move:
    """The move a notation names. ``default_level(x, y)`` gives a cube's level when the notation
    leaves it out (``N 2,0``). Raises :class:`MalformedMove` with what is wrong."""
    body = text.split("(", 1)[0].strip()
    if body == "pile":
        return Pile()
    if ":" not in body:
        raise MalformedMove(f"{text!r}: a move starts with the seat, as in 'red: M 3,2'")
    seat, rest = (part.strip() for part in body.split(":", 1))
    if seat not in SEATS:
        raise MalformedMove(f"{text!r}: unknown seat {seat!r}; seats are {', '.join(SEATS)}")
    if not rest:
        raise MalformedMove(f"{text!r}: nothing after the seat")
    m = _RE_PLACE.match(rest)
    if m:
        return Place(seat, (int(m[1]), int(m[2])))
    letter, _, details = rest.partition(" ")
    card = BY_LETTER.get(letter)
    if card is None:
        raise MalformedMove(f"{text!r}: unknown card letter {letter!r}; letters are "
                            + ", ".join(f"{v} ({k})" for k, v in LETTER.items()))
    details = details.strip()
    if details == "-":
        return Play(seat, card)
    if card in (NAPOZLA, NENLEVSA):
        parts = [p.strip() for p in details.split("|")]
        m = _RE_CUBE.match(parts[0])
        if not m:
            raise MalformedMove(f"{text!r}: expected a cube as x,y^z after {letter}")
        x, y = int(m[1]), int(m[2])
        if m[3] is not None:
            z = int(m[3])
        elif default_level is not None:
            z = default_level(x, y)
        else:
            raise MalformedMove(f"{text!r}: give the cube's level as x,y^z")
        relocate = []
        for part in parts[1:]:
            r = _RE_TARGET.match(part)
            if not r or not r[1]:
                raise MalformedMove(f"{text!r}: a relocation reads 'seat>x,y', not {part!r}")
            relocate.append((r[1], (int(r[2]), int(r[3]))))
        if relocate and card != NENLEVSA:
            raise MalformedMove(f"{text!r}: only Nenlèvsa relocates isolated giants")
        if m[4] and card != NAPOZLA:
            raise MalformedMove(f"{text!r}: '~' (not lined up) is said of a cube laid")
        return Play(seat, card, cube=(x, y, z), relocate=tuple(relocate), aligned=not m[4])
    take, pusher_to = False, None
    eq = re.search(rf"\s=(?:{_CELL})?$", details)
    if eq:
        if eq[1] is not None:
            pusher_to = (int(eq[1]), int(eq[2]))
        else:
            take = True
        details = details[:eq.start()].strip()
    r = _RE_TARGET.match(details)
    if r:
        if card not in ("pousstoia", "tvavoartoa"):
            raise MalformedMove(f"{text!r}: only P and T name a target giant")
        target = r[1] or None
        if card == "tvavoartoa" and target is None:
            raise MalformedMove(f"{text!r}: Tvavoartoa names the giant shot: 'T blue>6,2'")
        if (take or pusher_to) and (target is None or card != "pousstoia"):
            raise MalformedMove(f"{text!r}: '=' (where the pusher went) needs a pushed victim")
        return Play(seat, card, to=(int(r[2]), int(r[3])), target=target, take=take,
                    pusher_to=pusher_to)
    m = _RE_CELL.match(details)
    if m and not take and pusher_to is None:
        if card == "tvavoartoa":
            raise MalformedMove(f"{text!r}: Tvavoartoa names the giant shot: 'T blue>6,2'")
        return Play(seat, card, to=(int(m[1]), int(m[2])))
    raise MalformedMove(f"{text!r}: cannot read {details!r} after {letter}")


# -- JSON -------------------------------------------------------------------------------------

def to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Pile):
        return {"pile": True}
    if isinstance(move, Place):
        return {"seat": move.seat, "place": list(move.cell)}
    out: dict[str, Any] = {"seat": move.seat, "card": move.card}
    if move.cube is not None:
        out["cube"] = list(move.cube)
    if move.to is not None:
        out["to"] = list(move.to)
    if move.target is not None:
        out["target"] = move.target
    if move.take:
        out["take"] = True
    if move.relocate:
        out["relocate"] = [[seat, list(cell)] for seat, cell in move.relocate]
    if move.pusher_to is not None:
        out["pusher_to"] = list(move.pusher_to)
    if not move.aligned:
        out["aligned"] = False
    return out


def _ints(value: Any, n: int, what: str) -> tuple[int, ...]:
    if (not isinstance(value, (list, tuple)) or len(value) != n
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise MalformedMove(f"{what} must be {n} integers, not {value!r}")
    return tuple(value)


def _seat(value: Any, what: str) -> str:
    if value not in SEATS:
        raise MalformedMove(f"{what} must be one of {', '.join(SEATS)}, not {value!r}")
    return value


def from_json(data: Mapping[str, Any]) -> Move:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"a move is a JSON object, not {type(data).__name__}")
    if dict(data) == {"pile": True}:
        return Pile()
    known = {"seat", "place", "card", "cube", "to", "target", "take", "relocate", "pusher_to",
             "aligned"}
    extra = sorted(set(data) - known)
    if extra:
        raise MalformedMove(f"unknown field(s) in move: {', '.join(extra)}")
    seat = _seat(data.get("seat"), "seat")
    if "place" in data:
        if len(data) != 2:
            raise MalformedMove("a placement has only 'seat' and 'place'")
        x, y = _ints(data["place"], 2, "place")
        return Place(seat, (x, y))
    card = data.get("card")
    if card not in CARDS:
        raise MalformedMove(f"card must be one of {', '.join(CARDS)}, not {card!r}")
    cube = None if data.get("cube") is None else _ints(data["cube"], 3, "cube")
    to = None if data.get("to") is None else _ints(data["to"], 2, "to")
    target = None if data.get("target") is None else _seat(data["target"], "target")
    take = data.get("take", False)
    if not isinstance(take, bool):
        raise MalformedMove("take must be true or false")
    relocate = []
    for item in data.get("relocate", []) or []:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise MalformedMove(f"relocate items are [seat, [x, y]], not {item!r}")
        relocate.append((_seat(item[0], "relocated seat"), _ints(item[1], 2, "relocation")))
    if cube is not None and (to is not None or target is not None):
        raise MalformedMove("a move lays or removes a cube, or moves giants, not both")
    if cube is not None and card not in (NAPOZLA, NENLEVSA):
        raise MalformedMove(f"{card} does not lay or remove a cube")
    if cube is None and card in (NAPOZLA, NENLEVSA) and (to is not None or target is not None):
        raise MalformedMove(f"{card} lays or removes a cube; it moves no giant")
    if relocate and card != NENLEVSA:
        raise MalformedMove("only Nenlèvsa relocates isolated giants")
    if target is not None and to is None:
        raise MalformedMove("a target giant needs its landing square 'to'")
    pusher_to = None if data.get("pusher_to") is None else _ints(data["pusher_to"], 2, "pusher_to")
    if (take or pusher_to is not None) and (target is None or card != "pousstoia"):
        raise MalformedMove("'take' / 'pusher_to' (where the pusher went) need a pushed target")
    if take and pusher_to is not None:
        raise MalformedMove("'take' and 'pusher_to' exclude each other")
    aligned = data.get("aligned", True)
    if not isinstance(aligned, bool):
        raise MalformedMove("aligned must be true or false")
    if not aligned and (card != NAPOZLA or cube is None):
        raise MalformedMove("'aligned' is said of a cube laid with Napozla")
    return Play(seat, card, cube=cube, to=to, target=target, take=take,  # type: ignore[arg-type]
                relocate=tuple(relocate), pusher_to=pusher_to,  # type: ignore[arg-type]
                aligned=aligned)
