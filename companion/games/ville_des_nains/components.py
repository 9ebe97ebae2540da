"""The pieces of La Ville des Nains: stones, dice, construction cards and seats.

Counts the text states are facts (40 stones in red, orange, yellow and violet, 12 blue kobold
stones of which 3 are marked, 3 colour dice and the kobold die, 12 construction cards). What it
does not state is a default of ``docs/rulings.md`` that a table can change through the options:
the shapes of the stones, the kobold die's faces, and the stone side of each card (the shipped
deck, ``cards.json``, is made up until the real box's cards are enrolled).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

#: the four building colours (the text's « rouge, orange, jaune et violet »)
COLOURS = ("red", "orange", "yellow", "violet")
#: the stone shapes: cube, long block, cylinder, roof (a prism that only fits on top)
SHAPES = ("cube", "long", "cylinder", "roof")
#: faces of a colour die, in the order the text lists them, then the joker and the kobold
COLOUR_FACES = ("yellow", "orange", "red", "violet", "white", "blue")
WHITE = "white"
BLUE = "blue"
#: the kobold die's face with the kobold symbol (game 2: destroy a building)
KOBOLD_FACE = "kobold"
#: the number faces the kobold die may carry
KOBOLD_NUMBERS = ("0", "1", "2", "3")

#: stones of each colour
STONES_PER_COLOUR = 10
#: blue kobold stones, of which MARKED carry the kobold symbol underneath
BLUE_STONES = 12
MARKED_STONES = 3
#: colour dice rolled by a dwarf
COLOUR_DICE = 3
#: construction cards in the box; each player is dealt DEALT at the start
CARD_COUNT = 12
DEALT = 2
#: a beach-side tower is finished at this many stones, and can no longer be destroyed
BEACH_TOWER = 7

#: seats of the dwarves (colours no stone uses, so the LED strip never confuses them with
#: the dice), and the seat of the kobold player in game 2 (blue, the kobold's colour)
DWARF_SEATS = ("green", "white", "pink", "cyan", "brown", "grey")
KOBOLD_SEAT = "blue"
SEATS = DWARF_SEATS + (KOBOLD_SEAT,)
MIN_DWARVES = 2
MAX_DWARVES = 6

#: a stone is (colour, shape)
Stone = tuple[str, str]
#: every stone kind, in the order the pool's counts follow
STONE_KINDS: tuple[Stone, ...] = tuple((c, s) for c in COLOURS for s in SHAPES)
STONE_INDEX = {kind: i for i, kind in enumerate(STONE_KINDS)}


@dataclass(frozen=True)
class Card:
    """A construction card: ``shapes`` is its stone side, bottom to top. Its beach side is the
    same on every card (a free tower of seven), so it needs no data."""

    id: int
    shapes: tuple[str, ...]
    name_fr: str = ""
    name_en: str = ""

    def label(self) -> str:
        return "-".join(self.shapes)


def stock(cubes: int, long_blocks: int, cylinders: int, roofs: int) -> tuple[int, ...]:
    """The stones in the box, counted per kind (STONE_KINDS order)."""
    per_shape = dict(zip(SHAPES, (cubes, long_blocks, cylinders, roofs)))
    return tuple(per_shape[shape] for _colour, shape in STONE_KINDS)


@lru_cache(maxsize=None)
def default_deck() -> tuple[Card, ...]:
    """The shipped deck (``cards.json``): a made-up but buildable set of twelve stone sides,
    to be replaced by the real box's cards (option ``cards``)."""
    raw = json.loads(resources.files(__package__).joinpath("cards.json").read_text("utf-8"))
    return tuple(Card(id=int(c["id"]), shapes=tuple(c["stone"]), name_fr=c.get("fr", ""),
                      name_en=c.get("en", "")) for c in raw["cards"])


def parse_deck(text: str) -> tuple[Card, ...]:
    """Cards from the option's form: stone sides separated by commas, shapes of one card by
    ``-`` bottom to top (``cube-cube-roof, long-cylinder-roof, ...``); ids are 1, 2, ... in
    that order. Raises ValueError with a message saying what is wrong."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != CARD_COUNT:
        raise ValueError(f"the box has {CARD_COUNT} construction cards; {len(parts)} given")
    cards = []
    for number, part in enumerate(parts, start=1):
        shapes = tuple(s.strip() for s in part.split("-"))
        bad = [s for s in shapes if s not in SHAPES]
        if not part or bad:
            raise ValueError(f"card {number} ({part!r}): shapes are {', '.join(SHAPES)}, "
                             f"joined by '-' bottom to top")
        if "roof" in shapes[:-1]:
            raise ValueError(f"card {number} ({part}): a roof only fits on top")
        cards.append(Card(id=number, shapes=shapes))
    return tuple(cards)


@lru_cache(maxsize=None)
def deck_for(text: str) -> tuple[Card, ...]:
    return default_deck() if not text.strip() else parse_deck(text)


def parse_kobold_die(text: str) -> tuple[str, ...]:
    """The kobold die's six faces from ``0,1,1,2,2,kobold``; ValueError if not six valid faces."""
    faces = tuple(f.strip() for f in text.split(","))
    if len(faces) != 6 or any(f not in KOBOLD_NUMBERS + (KOBOLD_FACE,) for f in faces):
        raise ValueError(f"the kobold die has six faces, each one of "
                         f"{', '.join(KOBOLD_NUMBERS + (KOBOLD_FACE,))}; got {text!r}")
    return faces


def face_value(face: str) -> int:
    """Blue stones a kobold-die face lets the kobold add (0 on the kobold face)."""
    return 0 if face == KOBOLD_FACE else int(face)


def sort_faces(faces: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A roll as the camera sees it: an unordered set of faces, kept in one canonical order."""
    order = {f: i for i, f in enumerate(COLOUR_FACES + KOBOLD_NUMBERS + (KOBOLD_FACE,))}
    return tuple(sorted(faces, key=lambda f: (order.get(f, 99), f)))
