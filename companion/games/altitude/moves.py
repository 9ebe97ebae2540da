"""Altitude moves: one value per thing the camera (or a person) can see a player do.

A turn is "draw, then one option"; the draw itself is hidden unless the player shows the card,
so a move is the option, carrying the card it used (the hidden fact the camera reads when the
card lands in a mountain or on the discard):

==========  ===============================================================================
kind        what the player did
==========  ===============================================================================
draw        showed the drawn card (zone ``drawn``): the first stage of a turn, optional
build       laid a card in their own mountain: the drawn card, or a hand card after taking the
            drawn one into hand (the rules allow both and the table cannot tell them apart)
give        laid the drawn card in an opponent's (``target``) mountain
discard     threw the drawn card on the discard pile
replace     laid the drawn card on an uncovered slot of their mountain, the old card discarded
rescue      removed the avalanche in ``slot`` with the Saint-Bernard ``card`` (drawn, or from
            hand after taking the drawn card into hand); both discarded, the avalanche on top
hold        took the drawn card into hand and laid nothing (illegal: the hand is always 4)
pass        did not draw (illegal)
lay         after the deck is out: laid hand cards in their own mountain (``lays``, in order)
            and, with ``shows``, showed the cards left in hand, ``shows`` of them Saint-Bernards,
            which ends their pass
==========  ===============================================================================

``source`` says where the card came from when that matters to the rules: ``drawn`` (the
default), ``hand`` (a hand card where only the drawn card is allowed, or after the drawn card
was shown) or ``discard`` (taken back from the discard pile, illegal).

Slots are ``(étage, pos)`` in the numbering of the state *before* the move (``mountain``):
``-1`` is left of the base. ``target`` names another player's mountain (give, and illegal
replacements and rescues there); it is None for one's own.

Notation (round-trips through :func:`parse`)::

    red draws m07a              red builds m07a 1:0         red gives m07a blue 1:2
    red discards m07a           red replaces 1:0 with m07a  red rescues 2:1 with stb1
    red holds                   red passes
    red lays m07a 1:0, m09b 2:0
    red lays m07a 1:0; shows 2 cards 1 saint-bernard        red shows 0 cards 0 saint-bernard
    red discards m07a from hand red builds m07a 1:0 from discard
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from companion.games.base import MalformedMove

DRAW = "draw"
BUILD = "build"
GIVE = "give"
DISCARD = "discard"
REPLACE = "replace"
RESCUE = "rescue"
HOLD = "hold"
PASS = "pass"
LAY = "lay"
KINDS = (DRAW, BUILD, GIVE, DISCARD, REPLACE, RESCUE, HOLD, PASS, LAY)
#: kinds that use one card
CARD_KINDS = (DRAW, BUILD, GIVE, DISCARD, REPLACE, RESCUE)
#: kinds that lay a card in a slot
SLOT_KINDS = (BUILD, GIVE, REPLACE, RESCUE)

DRAWN = "drawn"
HAND = "hand"
FROM_DISCARD = "discard"
SOURCES = (DRAWN, HAND, FROM_DISCARD)

Slot = tuple[int, int]


@dataclass(frozen=True)
class Move:
    kind: str
    seat: str
    card: str | None = None
    slot: Slot | None = None
    target: str | None = None
    source: str = DRAWN
    lays: tuple[tuple[str, Slot], ...] = ()
    shows: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise MalformedMove(f"unknown move kind {self.kind!r}; one of {', '.join(KINDS)}")
        if not isinstance(self.seat, str) or not self.seat:
            raise MalformedMove("a move names the seat that made it")
        if self.source not in SOURCES:
            raise MalformedMove(f"source {self.source!r} is not one of {', '.join(SOURCES)}")
        needs_card = self.kind in CARD_KINDS
        if needs_card != (self.card is not None):
            raise MalformedMove(f"a {self.kind} move {'names' if needs_card else 'has no'} card")
        needs_slot = self.kind in SLOT_KINDS
        if needs_slot != (self.slot is not None):
            raise MalformedMove(f"a {self.kind} move {'names' if needs_slot else 'has no'} slot")
        if self.kind == GIVE and self.target is None:
            raise MalformedMove("a give names the opponent whose mountain gets the card")
        if self.target is not None and self.kind not in (GIVE, REPLACE, RESCUE):
            raise MalformedMove(f"a {self.kind} move has no target mountain")
        if self.target == self.seat:
            if self.kind == GIVE:
                raise MalformedMove("a card laid in one's own mountain is a build, not a give")
            object.__setattr__(self, "target", None)
        if self.kind == LAY:
            if not self.lays and self.shows is None:
                raise MalformedMove("a lay move lays cards, shows the hand, or both")
            if self.shows is not None and self.shows < 0:
                raise MalformedMove("the number of Saint-Bernards shown is ≥ 0")
        elif self.lays or self.shows is not None:
            raise MalformedMove(f"a {self.kind} move has no lays or shows")
        if self.kind in (DRAW, HOLD, PASS, LAY) and self.source != DRAWN:
            raise MalformedMove(f"a {self.kind} move has no source")


# -- JSON -------------------------------------------------------------------------------------

def to_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": move.kind, "seat": move.seat}
    if move.card is not None:
        out["card"] = move.card
    if move.slot is not None:
        out["slot"] = [move.slot[0], move.slot[1]]
    if move.target is not None:
        out["target"] = move.target
    if move.source != DRAWN:
        out["source"] = move.source
    if move.kind == LAY:
        out["lays"] = [[card, [slot[0], slot[1]]] for card, slot in move.lays]
        if move.shows is not None:
            out["shows"] = move.shows
    return out


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"{what} must be an integer, not {value!r}")
    return value


def _slot(value: Any, what: str = "slot") -> Slot:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise MalformedMove(f"{what} must be [étage, pos], not {value!r}")
    return (_int(value[0], f"{what} étage"), _int(value[1], f"{what} pos"))


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise MalformedMove(f"{what} must be a non-empty string, not {value!r}")
    return value


def from_json(data: Mapping[str, Any]) -> Move:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"a move is a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - {"kind", "seat", "card", "slot", "target", "source", "lays",
                                  "shows"})
    if unknown:
        raise MalformedMove(f"unknown field(s) in an Altitude move: {', '.join(unknown)}")
    kind = _str(data.get("kind"), "kind")
    seat = _str(data.get("seat"), "seat")
    card = data.get("card")
    if card is not None:
        card = _str(card, "card")
    slot = data.get("slot")
    if slot is not None:
        slot = _slot(slot)
    target = data.get("target")
    if target is not None:
        target = _str(target, "target")
    source = _str(data.get("source", DRAWN), "source")
    raw_lays = data.get("lays", [])
    if not isinstance(raw_lays, list):
        raise MalformedMove("lays must be a list of [card, [étage, pos]]")
    lays = []
    for i, entry in enumerate(raw_lays):
        if not isinstance(entry, list) or len(entry) != 2:
            raise MalformedMove(f"lays[{i}] must be [card, [étage, pos]], not {entry!r}")
        lays.append((_str(entry[0], f"lays[{i}] card"), _slot(entry[1], f"lays[{i}] slot")))
    shows = data.get("shows")
    if shows is not None:
        shows = _int(shows, "shows")
    return Move(kind=kind, seat=seat, card=card, slot=slot, target=target, source=source,
                lays=tuple(lays), shows=shows)


# -- notation ---------------------------------------------------------------------------------

def slot_text(slot: Slot) -> str:
    return f"{slot[0]}:{slot[1]}"


def notation(move: Move, shown_cards: int | None = None) -> str:
    """The move in words. ``shown_cards`` is the number of cards a ``lay`` move shows (derived
    from the state: the hand left), printed for the reader."""
    s, c = move.seat, move.card
    if move.kind == DRAW:
        text = f"{s} draws {c}"
    elif move.kind == BUILD:
        text = f"{s} builds {c} {slot_text(move.slot)}"
    elif move.kind == GIVE:
        text = f"{s} gives {c} {move.target} {slot_text(move.slot)}"
    elif move.kind == DISCARD:
        text = f"{s} discards {c}"
    elif move.kind == REPLACE:
        where = f"{move.target} " if move.target else ""
        text = f"{s} replaces {where}{slot_text(move.slot)} with {c}"
    elif move.kind == RESCUE:
        where = f"{move.target} " if move.target else ""
        text = f"{s} rescues {where}{slot_text(move.slot)} with {c}"
    elif move.kind == HOLD:
        text = f"{s} holds"
    elif move.kind == PASS:
        text = f"{s} passes"
    else:
        parts = []
        if move.lays:
            parts.append("lays " + ", ".join(f"{card} {slot_text(slot)}"
                                             for card, slot in move.lays))
        if move.shows is not None:
            n = "?" if shown_cards is None else str(shown_cards)
            parts.append(f"shows {n} cards {move.shows} saint-bernard")
        return f"{s} " + "; ".join(parts)
    if move.source == HAND:
        text += " from hand"
    elif move.source == FROM_DISCARD:
        text += " from discard"
    return text


_SLOT = r"(-?\d+):(-?\d+)"
_WORD = r"([a-z0-9][a-z0-9_-]*)"
_PATTERNS = [
    (DRAW, re.compile(rf"^{_WORD} draws {_WORD}$")),
    (BUILD, re.compile(rf"^{_WORD} builds {_WORD} {_SLOT}$")),
    (GIVE, re.compile(rf"^{_WORD} gives {_WORD} {_WORD} {_SLOT}$")),
    (DISCARD, re.compile(rf"^{_WORD} discards {_WORD}$")),
    (REPLACE, re.compile(rf"^{_WORD} replaces (?:{_WORD} )?{_SLOT} with {_WORD}$")),
    (RESCUE, re.compile(rf"^{_WORD} rescues (?:{_WORD} )?{_SLOT} with {_WORD}$")),
    (HOLD, re.compile(rf"^{_WORD} holds$")),
    (PASS, re.compile(rf"^{_WORD} passes$")),
]
_LAY = re.compile(rf"^{_WORD} (.+)$")
_LAY_ONE = re.compile(rf"^{_WORD} {_SLOT}$")
_SHOWS = re.compile(r"^shows (?:(\d+|\?) cards? )?(\d+) saint-bernards?$")

SYNTAX = ("<seat> draws <card> | builds <card> <é>:<p> | gives <card> <seat> <é>:<p> | "
          "discards <card> | replaces [<seat>] <é>:<p> with <card> | rescues [<seat>] <é>:<p> "
          "with <card> | holds | passes | lays <card> <é>:<p>, ... [; shows <n> cards <s> "
          "saint-bernard], optionally followed by 'from hand' or 'from discard'")


def parse(text: str) -> tuple[Move, int | None]:
    """The move ``text`` names, and the number of cards a ``shows`` clause states (None when not
    stated), for the caller to check against the state. :class:`MalformedMove` otherwise."""
    if not isinstance(text, str):
        raise MalformedMove("a notation is a string")
    words = " ".join(text.strip().lower().split())
    source = DRAWN
    for suffix, src in ((" from hand", HAND), (" from discard", FROM_DISCARD)):
        if words.endswith(suffix):
            words, source = words[: -len(suffix)], src
            break
    for kind, pattern in _PATTERNS:
        m = pattern.match(words)
        if not m:
            continue
        g = m.groups()
        if kind in (DRAW, DISCARD):
            return Move(kind, g[0], card=g[1], source=source), None
        if kind == BUILD:
            return Move(kind, g[0], card=g[1], slot=(int(g[2]), int(g[3])), source=source), None
        if kind == GIVE:
            return Move(kind, g[0], card=g[1], target=g[2], slot=(int(g[3]), int(g[4])),
                        source=source), None
        if kind in (REPLACE, RESCUE):
            return Move(kind, g[0], card=g[4], target=g[1], slot=(int(g[2]), int(g[3])),
                        source=source), None
        return Move(kind, g[0], source=source), None
    m = _LAY.match(words)
    if m and source == DRAWN:
        seat, rest = m.groups()
        lays: list[tuple[str, Slot]] = []
        shows = None
        stated = None
        for clause in (c.strip() for c in rest.split(";")):
            if clause.startswith("lays "):
                if lays:
                    raise MalformedMove(f"{text!r}: one 'lays' clause per move")
                for item in clause[5:].split(","):
                    one = _LAY_ONE.match(item.strip())
                    if not one:
                        raise MalformedMove(f"{text!r}: {item.strip()!r} is not '<card> <é>:<p>'")
                    lays.append((one.group(1), (int(one.group(2)), int(one.group(3)))))
            elif _SHOWS.match(clause):
                sm = _SHOWS.match(clause)
                assert sm is not None
                shows = int(sm.group(2))
                stated = None if sm.group(1) in (None, "?") else int(sm.group(1))
            else:
                break
        else:
            if lays or shows is not None:
                return Move(LAY, seat, lays=tuple(lays), shows=shows), stated
    raise MalformedMove(f"cannot read {text!r} as an Altitude move; the forms are: {SYNTAX}")
