"""Moves of La Ville des Nains, their notation and their JSON form.

A move is what happened at the table between two still moments:

* :class:`Roll`: a player rolls (the three colour dice, or in game 2 the kobold die).
* :class:`Build`: stones taken from the table and built (``take``), blue stones drawn for blue
  faces (``draws``, game 1), and cards taken (``cards``), by the dwarf whose dice they use
  (``seat``). ``roll`` is set when the roll that starts the turn is part of the same still
  moment (a quick player, or a re-roll showing the same faces, which the tray cannot show).
* :class:`KoboldPlay`: game 2, the kobold player adds blue stones to the tower (``add``) and/or
  destroys a building (``destroy``), with the same optional ``roll``.

Within one move, stones are taken first (the roller's own, then those given, each building's
from the bottom), then blue stones are drawn, then any card still to take is taken; a stone on a
new building takes that building's card at that moment. A move of several stones is the same as
its stones taken one by one, so :meth:`legal_moves` lists single actions and the camera proposes
whatever was done in between.

Notation (``<building>`` is the building's index in front of its player, from 0; a stone or a
destruction in another player's area names the seat, ``pink:1``)::

    green roll red,orange,white                   the roll
    green take red-cube@0,violet-roof@1           two stones built, on buildings 0 and 1
    green take orange-long@pink:0                 a stone given to pink (no card left to green)
    green draw plain                              a blue stone drawn, no kobold symbol
    green draw marked>1                           a marked one: green's building 1 is destroyed
    green draw marked                             a marked one with nothing to destroy
    green take yellow-roof@0 card 7               building 0 finished, card 7 taken
    green take red-cube@2 card 7                  ... card 7 taken and started at once
    green take red-cube@1 card beach              beach side: every card is alike
    green roll red,blue,white take red-cube@0     the roll seen together with its stones
    blue roll 2                                   game 2: the kobold rolls
    blue add 2                                    ... and adds two blue stones
    blue roll kobold destroy green:1              ... or destroys green's building 1
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Union

from companion.games.base import MalformedMove
from companion.games.ville_des_nains.components import (
    COLOUR_FACES, COLOURS, KOBOLD_FACE, KOBOLD_NUMBERS, SEATS, SHAPES, sort_faces,
)

KOBOLD_DIE_FACES = KOBOLD_NUMBERS + (KOBOLD_FACE,)
ALL_FACES = COLOUR_FACES + KOBOLD_DIE_FACES


@dataclass(frozen=True)
class Target:
    """A building: its owner's seat and its index in front of them."""

    seat: str
    building: int

    def text(self, me: str) -> str:
        return str(self.building) if self.seat == me else f"{self.seat}:{self.building}"


@dataclass(frozen=True)
class Take:
    """A stone taken from the table and built on ``seat``'s building ``building``."""

    seat: str
    building: int
    colour: str
    shape: str

    @property
    def stone(self) -> tuple[str, str]:
        return (self.colour, self.shape)

    @property
    def target(self) -> Target:
        return Target(self.seat, self.building)


@dataclass(frozen=True)
class Draw:
    """A blue stone drawn blind for a blue face: ``marked`` if it carries the kobold symbol;
    ``destroy`` the building it destroyed."""

    marked: bool
    destroy: Target | None = None


@dataclass(frozen=True)
class CardTake:
    """A card taken from the talon by ``seat``: its id on the stone side, None on the beach side
    (every beach side is the same free tower of seven)."""

    seat: str
    card: int | None


@dataclass(frozen=True)
class Roll:
    seat: str
    faces: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", sort_faces(tuple(self.faces)))


def _draw_key(d: Draw) -> tuple:
    return (d.destroy is None, not d.marked,
            (d.destroy.seat, d.destroy.building) if d.destroy else ("", 0))


@dataclass(frozen=True)
class Build:
    seat: str
    take: tuple[Take, ...] = ()
    draws: tuple[Draw, ...] = ()
    cards: tuple[CardTake, ...] = ()
    roll: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # one canonical order, so that equal moves compare equal: the roller's own stones
        # first, then by building (the order within a building is its bottom-to-top order);
        # destructions before plain draws
        object.__setattr__(self, "take", tuple(sorted(
            self.take, key=lambda t: (t.seat != self.seat, t.seat, t.building))))
        object.__setattr__(self, "draws", tuple(sorted(self.draws, key=_draw_key)))
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda c: c.seat)))
        if self.roll is not None:
            object.__setattr__(self, "roll", sort_faces(tuple(self.roll)))


@dataclass(frozen=True)
class KoboldPlay:
    seat: str
    add: int = 0
    destroy: Target | None = None
    roll: str | None = None


Move = Union[Roll, Build, KoboldPlay]


# --------------------------------------------------------------------------------------------
# Notation


def notation(move: Move) -> str:
    if isinstance(move, Roll):
        return f"{move.seat} roll {','.join(move.faces)}"
    if isinstance(move, KoboldPlay):
        parts = [move.seat]
        if move.roll is not None:
            parts += ["roll", move.roll]
        if move.add:
            parts += ["add", str(move.add)]
        if move.destroy is not None:
            parts += ["destroy", f"{move.destroy.seat}:{move.destroy.building}"]
        return " ".join(parts)
    if not isinstance(move, Build):
        raise MalformedMove(f"not a Ville des Nains move: {move!r}")
    me = move.seat
    parts = [me]
    if move.roll is not None:
        parts += ["roll", ",".join(move.roll)]
    if move.take:
        parts += ["take", ",".join(f"{t.colour}-{t.shape}@{t.target.text(me)}" for t in move.take)]
    if move.draws:
        parts += ["draw", ",".join(
            ("marked" if d.marked else "plain") + (f">{d.destroy.text(me)}" if d.destroy else "")
            for d in move.draws)]
    if move.cards:
        def card_text(c: CardTake) -> str:
            name = "beach" if c.card is None else str(c.card)
            return name if c.seat == me else f"{c.seat}:{name}"
        parts += ["card", ",".join(card_text(c) for c in move.cards)]
    return " ".join(parts)


_KEYWORDS = ("roll", "take", "draw", "card", "add", "destroy")


def _target(text: str, me: str, what: str) -> Target:
    seat, _, index = text.rpartition(":")
    if not re.fullmatch(r"\d+", index):
        raise MalformedMove(f"{what} {text!r}: a building is its index (0, 1, ...) or "
                            f"seat:index (pink:1)")
    seat = seat or me
    _seat(seat)
    return Target(seat, int(index))


def _seat(seat: str) -> str:
    if seat not in SEATS:
        raise MalformedMove(f"unknown seat {seat!r}; seats are {', '.join(SEATS)}")
    return seat


def _faces(text: str) -> tuple[str, ...]:
    faces = tuple(f for f in text.split(",") if f)
    bad = [f for f in faces if f not in ALL_FACES]
    if not faces or bad:
        raise MalformedMove(f"unknown die face(s) {', '.join(bad) or repr(text)}; colour dice show "
                            f"{', '.join(COLOUR_FACES)}, the kobold die "
                            f"{', '.join(KOBOLD_NUMBERS)} or kobold")
    return faces


def parse(text: str) -> Move:
    """The move a notation names (no state needed); :class:`MalformedMove` with what is wrong."""
    if not isinstance(text, str):
        raise MalformedMove("a move's notation is a string")
    words = text.split("(")[0].split()
    if not words:
        raise MalformedMove("empty notation; e.g. 'green roll red,orange,white'")
    me = _seat(words[0])
    sections: dict[str, str] = {}
    rest = words[1:]
    while rest:
        key = rest[0]
        if key not in _KEYWORDS:
            raise MalformedMove(f"expected one of {', '.join(_KEYWORDS)} in {text!r}, "
                                f"not {key!r}")
        if key in sections:
            raise MalformedMove(f"{key!r} given twice in {text!r}")
        if len(rest) < 2:
            raise MalformedMove(f"{key!r} needs a value in {text!r}")
        sections[key] = rest[1]
        rest = rest[2:]
    if not sections:
        raise MalformedMove(f"{text!r} says nothing happened; e.g. '{me} roll red,orange,white'")
    if {"add", "destroy"} & set(sections):
        if {"take", "draw", "card"} & set(sections):
            raise MalformedMove("the kobold adds or destroys; stones, draws and cards are a "
                                "dwarf's")
        roll = None
        if "roll" in sections:
            faces = _faces(sections["roll"])
            if len(faces) != 1 or faces[0] not in KOBOLD_DIE_FACES:
                raise MalformedMove(f"the kobold rolls one die, showing one of "
                                    f"{', '.join(KOBOLD_DIE_FACES)}")
            roll = faces[0]
        add = 0
        if "add" in sections:
            if not re.fullmatch(r"\d+", sections["add"]):
                raise MalformedMove(f"add takes a number of blue stones, not {sections['add']!r}")
            add = int(sections["add"])
        destroy = _target(sections["destroy"], me, "destroy") if "destroy" in sections else None
        if destroy is not None and ":" not in sections["destroy"]:
            raise MalformedMove("the kobold destroys another player's building: seat:index")
        return KoboldPlay(seat=me, add=add, destroy=destroy, roll=roll)
    roll_faces = _faces(sections["roll"]) if "roll" in sections else None
    if set(sections) == {"roll"}:
        assert roll_faces is not None
        return Roll(seat=me, faces=roll_faces)
    takes = []
    for item in sections.get("take", "").split(",") if "take" in sections else ():
        m = re.fullmatch(r"([a-z]+)-([a-z]+)@(.+)", item)
        if not m:
            raise MalformedMove(f"a stone is colour-shape@building (red-cube@0), not {item!r}")
        colour, shape, where = m.groups()
        if colour not in COLOURS:
            raise MalformedMove(f"unknown stone colour {colour!r}; one of {', '.join(COLOURS)}")
        if shape not in SHAPES:
            raise MalformedMove(f"unknown shape {shape!r}; one of {', '.join(SHAPES)}")
        t = _target(where, me, "stone")
        takes.append(Take(t.seat, t.building, colour, shape))
    draws = []
    for item in sections.get("draw", "").split(",") if "draw" in sections else ():
        kind, _, where = item.partition(">")
        if kind not in ("plain", "marked"):
            raise MalformedMove(f"a blue stone drawn is 'plain', 'marked' or 'marked>building', "
                                f"not {item!r}")
        draws.append(Draw(kind == "marked", _target(where, me, "destruction") if where else None))
    cards = []
    for item in sections.get("card", "").split(",") if "card" in sections else ():
        seat, _, name = item.rpartition(":")
        seat = _seat(seat) if seat else me
        if name == "beach":
            cards.append(CardTake(seat, None))
        elif re.fullmatch(r"\d+", name):
            cards.append(CardTake(seat, int(name)))
        else:
            raise MalformedMove(f"a card is its number (7), or 'beach' on the beach side, "
                                f"not {item!r}")
    return Build(seat=me, take=tuple(takes), draws=tuple(draws), cards=tuple(cards),
                 roll=roll_faces)


# --------------------------------------------------------------------------------------------
# JSON


def _target_json(t: Target | None) -> dict[str, Any] | None:
    return None if t is None else {"seat": t.seat, "building": t.building}


def to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Roll):
        return {"type": "roll", "seat": move.seat, "faces": list(move.faces)}
    if isinstance(move, KoboldPlay):
        return {"type": "kobold", "seat": move.seat, "roll": move.roll, "add": move.add,
                "destroy": _target_json(move.destroy)}
    if isinstance(move, Build):
        return {"type": "build", "seat": move.seat,
                "roll": None if move.roll is None else list(move.roll),
                "take": [{"seat": t.seat, "building": t.building, "colour": t.colour,
                          "shape": t.shape} for t in move.take],
                "draw": [{"marked": d.marked, "destroy": _target_json(d.destroy)}
                         for d in move.draws],
                "cards": [{"seat": c.seat, "card": c.card} for c in move.cards]}
    raise MalformedMove(f"not a Ville des Nains move: {move!r}")


def _get(data: Mapping[str, Any], key: str, kind: type | tuple, where: str,
         default: Any = ...) -> Any:
    if key not in data or data[key] is None:
        if default is ...:
            raise MalformedMove(f"{where} needs {key!r}")
        return default
    value = data[key]
    if isinstance(value, bool) and kind is not bool:
        raise MalformedMove(f"{where}.{key} has the wrong type: {value!r}")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise MalformedMove(f"{where}.{key} must be a {names}, not {value!r}")
    return value


def _obj(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"{where} must be a JSON object, not {type(data).__name__}")
    return data


def _target_from(data: Any, where: str, me: str) -> Target | None:
    if data is None:
        return None
    data = _obj(data, where)
    seat = _seat(_get(data, "seat", str, where, me))
    building = _get(data, "building", int, where)
    if building < 0:
        raise MalformedMove(f"{where}.building must be 0 or more")
    return Target(seat, building)


def from_json(data: Any) -> Move:
    data = _obj(data, "move")
    kind = data.get("type")
    if kind not in ("roll", "build", "kobold"):
        raise MalformedMove(f"move.type must be 'roll', 'build' or 'kobold', not {kind!r}")
    me = _seat(_get(data, "seat", str, "move"))
    known = {"roll": {"type", "seat", "faces"},
             "kobold": {"type", "seat", "roll", "add", "destroy"},
             "build": {"type", "seat", "roll", "take", "draw", "cards"}}[kind]
    extra = sorted(set(data) - known)
    if extra:
        raise MalformedMove(f"unknown key(s) for a {kind} move: {', '.join(extra)}")
    if kind == "roll":
        faces = _get(data, "faces", list, "move")
        if not all(isinstance(f, str) for f in faces):
            raise MalformedMove("move.faces must be a list of face names")
        return Roll(seat=me, faces=_faces(",".join(faces)))
    if kind == "kobold":
        roll = _get(data, "roll", str, "move", None)
        if roll is not None and roll not in KOBOLD_DIE_FACES:
            raise MalformedMove(f"move.roll is one kobold-die face "
                                f"({', '.join(KOBOLD_DIE_FACES)}), not {roll!r}")
        add = _get(data, "add", int, "move", 0)
        if add < 0:
            raise MalformedMove("move.add must be 0 or more")
        return KoboldPlay(seat=me, add=add, destroy=_target_from(data.get("destroy"),
                                                                 "move.destroy", me), roll=roll)
    roll_list = _get(data, "roll", list, "move", None)
    roll_faces = None
    if roll_list is not None:
        if not all(isinstance(f, str) for f in roll_list):
            raise MalformedMove("move.roll must be a list of face names")
        roll_faces = _faces(",".join(roll_list))
    takes = []
    for i, item in enumerate(_get(data, "take", list, "move", [])):
        where = f"move.take[{i}]"
        item = _obj(item, where)
        target = _target_from(item, where, me)
        assert target is not None
        colour = _get(item, "colour", str, where)
        shape = _get(item, "shape", str, where)
        if colour not in COLOURS:
            raise MalformedMove(f"{where}.colour must be one of {', '.join(COLOURS)}")
        if shape not in SHAPES:
            raise MalformedMove(f"{where}.shape must be one of {', '.join(SHAPES)}")
        takes.append(Take(target.seat, target.building, colour, shape))
    draws = []
    for i, item in enumerate(_get(data, "draw", list, "move", [])):
        where = f"move.draw[{i}]"
        item = _obj(item, where)
        draws.append(Draw(_get(item, "marked", bool, where),
                          _target_from(item.get("destroy"), f"{where}.destroy", me)))
    cards = []
    for i, item in enumerate(_get(data, "cards", list, "move", [])):
        where = f"move.cards[{i}]"
        item = _obj(item, where)
        cards.append(CardTake(_seat(_get(item, "seat", str, where, me)),
                              _get(item, "card", int, where, None)))
    return Build(seat=me, take=tuple(takes), draws=tuple(draws), cards=tuple(cards),
                 roll=roll_faces)
