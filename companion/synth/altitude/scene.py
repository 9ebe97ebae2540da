"""What the synthetic Altitude table shows.

A scene is geometry, not a game state (the synthetic table never imports the rules): the cards
of each seat's mountain in their slots, each laid by hand a little off its ideal place and a
little turned; the deck face down in the middle, perhaps with the drawn card turned face up on
it; the discard pile beside it, its cards fallen a little askew; the cards a player keeps at the
end, laid in front of their mountain; an arm reaching in. :meth:`AltitudeScene.laid` lists every
card with its place on the table, bottom first, which is the order the renderer paints them in.

The photograph is the Haut les Cubes renderer's :class:`~companion.synth.scene.Shot` (camera,
light, table top, sensor), so the lights, optics and arms are the same as for every game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from companion.synth.altitude.deck import CardSpec
from companion.synth.scene import Hand
from companion.vision.altitude.layout import DEFAULT_LAYOUT, AltitudeLayout, SeatArea

#: a card's thickness (mm): a card resting on others lies this much higher per card under it
CARD_THICK_MM = 0.3
#: how far a card laid by hand sits off its ideal place (mm) and how far it turns (degrees)
LAY_SHIFT_MM = 2.5
LAY_TURN_DEG = 3.0


@dataclass(frozen=True)
class MountainCard:
    """A card of a mountain in slot (``etage``, ``pos``), ``jitter`` = (du, dv mm in the seat's
    frame, turn in degrees) from its ideal place."""

    etage: int
    pos: int
    card: str
    jitter: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Mountain:
    """A seat's mountain: ``base_left`` is where the centre of the leftmost base card would lie
    (seat frame, mm) with no jitter; positions count from that card (``pos`` 0)."""

    seat: str
    base_left: tuple[float, float]
    cards: tuple[MountainCard, ...] = ()

    def slots(self) -> dict[tuple[int, int], MountainCard]:
        return {(c.etage, c.pos): c for c in self.cards}

    def covered(self, etage: int, pos: int) -> bool:
        """Another card rests on (even half of) this slot's card."""
        s = self.slots()
        return (etage + 1, pos - 1) in s or (etage + 1, pos) in s


@dataclass(frozen=True)
class PileCard:
    """A card in a pile or laid alone: ``card`` is its id (None: face down), ``offset`` (mm) and
    ``turn`` (degrees) from the spot's ideal place."""

    card: str | None
    offset: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0


@dataclass(frozen=True)
class Laid:
    """One card on the table as the renderer draws it: its face (``card`` id, None for a back),
    centre (table mm), turn (degrees, upright for the red seat at 0), height of its face (mm)
    and what it is: ``role`` (``mountain``, ``deck``, ``drawn``, ``discard``, ``kept``),
    ``seat``, ``slot`` (étage, pos) for mountain cards."""

    card: str | None
    centre: tuple[float, float]
    angle_deg: float
    z: float
    role: str
    seat: str | None = None
    slot: tuple[int, int] | None = None
    index: int = 0


@dataclass(frozen=True)
class AltitudeScene:
    """Everything on the table (see the module docstring). ``cards`` holds the faces of the
    deck in use (by id); ``deck_size`` is how many cards are left in the deck (0: no deck);
    ``kept`` pairs a seat with the cards it shows at the end, in a row in front of its
    mountain."""

    cards: tuple[CardSpec, ...]
    mountains: tuple[Mountain, ...] = ()
    discard: tuple[PileCard, ...] = ()
    deck_size: int = 0
    deck_jitter: tuple[float, float, float] = (0.0, 0.0, 0.0)
    drawn: PileCard | None = None
    kept: tuple[tuple[str, tuple[PileCard, ...]], ...] = ()
    layout: AltitudeLayout = field(default=DEFAULT_LAYOUT, compare=False)
    hand: Hand | None = None

    def __post_init__(self) -> None:
        known = {c.id for c in self.cards}
        used = [c.card for m in self.mountains for c in m.cards]
        used += [p.card for p in self.discard if p.card is not None]
        used += [p.card for _, row in self.kept for p in row if p.card is not None]
        if self.drawn is not None and self.drawn.card is not None:
            used.append(self.drawn.card)
        unknown = sorted(set(used) - known)
        if unknown:
            raise ValueError(f"cards {', '.join(unknown)} are not in the deck's faces")
        seats = [m.seat for m in self.mountains]
        if len(set(seats)) != len(seats):
            raise ValueError("two mountains for one seat")
        if self.drawn is not None and self.deck_size == 0:
            raise ValueError("a drawn card is shown on the deck: the deck cannot be empty")

    def spec(self, card_id: str) -> CardSpec:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def with_hand(self, hand: Hand | None) -> "AltitudeScene":
        return replace(self, hand=hand)

    def mountain(self, seat: str) -> Mountain | None:
        for m in self.mountains:
            if m.seat == seat:
                return m
        return None

    # -- where every card lies ------------------------------------------------------------------

    def laid(self) -> list[Laid]:
        """Every card on the table, bottom first (see the module docstring)."""
        lay = self.layout
        out: list[Laid] = []
        for m in self.mountains:
            area = lay.seat(m.seat)
            for c in sorted(m.cards, key=lambda c: (c.etage, c.pos)):
                u, v = lay.slot_centre(m.base_left, c.etage, c.pos)
                xy = area.to_table(np.array([[u + c.jitter[0], v + c.jitter[1]]]))[0]
                out.append(Laid(c.card, (float(xy[0]), float(xy[1])), area.angle_deg + c.jitter[2],
                                (c.etage - 1) * CARD_THICK_MM, "mountain", m.seat, (c.etage, c.pos)))
        if self.deck_size > 0:
            dx, dy, turn = self.deck_jitter
            top = self.deck_size * CARD_THICK_MM
            c = lay.deck.centre
            out.append(Laid(None, (c[0] + dx, c[1] + dy), lay.deck.angle_deg + turn, top, "deck"))
            if self.drawn is not None:
                d = self.drawn
                out.append(Laid(d.card, (c[0] + dx + d.offset[0], c[1] + dy + d.offset[1]),
                                lay.deck.angle_deg + turn + d.turn, top + CARD_THICK_MM, "drawn"))
        c = lay.discard.centre
        for n, p in enumerate(self.discard):
            out.append(Laid(p.card, (c[0] + p.offset[0], c[1] + p.offset[1]),
                            lay.discard.angle_deg + p.turn, (n + 1) * CARD_THICK_MM, "discard",
                            index=n))
        for seat, row in self.kept:
            area = lay.seat(seat)
            for n, p in enumerate(row):
                u, v = kept_place(lay, area, n)
                xy = area.to_table(np.array([[u + p.offset[0], v + p.offset[1]]]))[0]
                out.append(Laid(p.card, (float(xy[0]), float(xy[1])), area.angle_deg + p.turn,
                                CARD_THICK_MM, "kept", seat, index=n))
        return out

    def deck_top_z(self) -> float:
        return self.deck_size * CARD_THICK_MM

    def top_mm(self) -> float:
        """The highest thing on the table (the deck's top)."""
        tops = [self.deck_size * CARD_THICK_MM + 2 * CARD_THICK_MM, len(self.discard) * CARD_THICK_MM]
        tops += [max((c.etage for c in m.cards), default=0) * CARD_THICK_MM for m in self.mountains]
        return max(tops)


def kept_place(layout: AltitudeLayout, area: SeatArea, n: int) -> tuple[float, float]:
    """Seat-frame centre of the n-th card a player keeps, in a row in front of the mountain."""
    return (45.0 + n * (layout.card_mm[0] + 12.0), -area.hand_depth / 2 - 1.5)


def jitter(rng: np.random.Generator) -> tuple[float, float, float]:
    """How a hand lays a card: a little off, a little turned."""
    return (float(rng.uniform(-LAY_SHIFT_MM, LAY_SHIFT_MM)),
            float(rng.uniform(-LAY_SHIFT_MM, LAY_SHIFT_MM)),
            float(rng.uniform(-LAY_TURN_DEG, LAY_TURN_DEG)))


def stable_jitter(*key: object) -> tuple[float, float, float]:
    """A card's jitter drawn from ``key`` (seat, card, slot...), the same every time: a card
    does not move between the frames of a video or the positions of a game."""
    return jitter(np.random.default_rng(_digest(key)))


def _digest(key: tuple[object, ...]) -> list[int]:
    import hashlib

    h = hashlib.sha256("|".join(str(k) for k in key).encode("utf-8")).digest()
    return [int.from_bytes(h[i:i + 4], "little") for i in range(0, 16, 4)]
