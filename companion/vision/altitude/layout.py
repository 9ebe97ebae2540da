"""Where things lie on an Altitude table, in table millimetres.

Altitude has no printed board: the cards lie on the table itself, so the reader works in the
table frame that the markers 0–3 define (``docs/table-kit.md``), with a default layout of areas
that a settings file can change (:func:`load_layout`).

The default table (:data:`DEFAULT_LAYOUT`) has its four markers 800 mm apart (``companion
calibrate table --table 800x800``): four mountains of up to seven base cards and five étages need
that much room. Each seat has an area along its own edge, arranged like a pinwheel so that the
four fit around a free square in the middle::

        +----------------------------------+
        |  green  |          blue          |
        |  (west) +------------+-----------+
        |         |  deck  dis |           |
        +---------+  card      |  yellow   |
        |          red         |  (east)   |
        |        (south)       |           |
        +----------------------------------+

A seat's area has its own frame: ``u`` runs along the table edge to the player's right, ``v``
away from the player, towards the middle. Cards in a mountain lie upright for their player (the
card's top towards +v). The base (étage 1) lies nearest the player; a card of étage k+1 rests
across two cards of étage k, half a card higher up the area (:data:`RISE_MM`), so it covers the
upper halves of the two cards it rests on: the lower half of every card stays in view.

The middle holds the deck (face down) and the discard pile (face up), both upright for the red
seat. A player who shows the card just drawn turns it face up on the deck (zone ``drawn``). At the
end of the game the cards a player keeps are laid in a row in front of their mountain, between
the area and the table's edge (zone ``hand:<seat>``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from companion.errors import BadInput

GAME = "altitude"
SEATS = ("red", "yellow", "blue", "green")
#: card size (width, height) in millimetres, portrait
CARD_MM: tuple[float, float] = (59.0, 92.0)
#: centre-to-centre distance of two neighbouring cards of one étage (a small gap between them)
PITCH_MM = 61.0
#: how much higher up the area (v) each étage lies: half a card, so it covers half a card
RISE_MM = 46.0


@dataclass(frozen=True)
class SeatArea:
    """One seat's area: ``origin`` (table mm of the corner at the player's left, on the table
    edge side), ``angle_deg`` (direction of +u, counter-clockwise from the table's +x),
    ``size`` (length along the edge, depth towards the middle) and the depth of the strip in
    front of it where kept cards are laid at the end (``hand_depth``)."""

    seat: str
    origin: tuple[float, float]
    angle_deg: float
    size: tuple[float, float] = (450.0, 280.0)
    hand_depth: float = 100.0

    @property
    def rotation(self) -> np.ndarray:
        a = math.radians(self.angle_deg)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        """Seat-frame points (N×2, mm) to table points (N×2)."""
        return np.asarray(uv, float).reshape(-1, 2) @ self.rotation.T + np.asarray(self.origin)

    def to_seat(self, xy: np.ndarray) -> np.ndarray:
        """Table points (N×2) to seat-frame points (N×2)."""
        return (np.asarray(xy, float).reshape(-1, 2) - np.asarray(self.origin)) @ self.rotation

    def corners(self) -> np.ndarray:
        """The area's corners in table mm (counter-clockwise seen from above)."""
        w, d = self.size
        return self.to_table(np.array([[0, 0], [w, 0], [w, d], [0, d]], float))

    def hand_corners(self) -> np.ndarray:
        """The strip in front of the area where kept cards are laid at the end (table mm)."""
        w, _ = self.size
        return self.to_table(np.array([[0, -self.hand_depth], [w, -self.hand_depth], [w, -3.0],
                                       [0, -3.0]], float))

    def card_angle_deg(self) -> float:
        """Direction of a card's top edge normal (its 'up') for this seat, degrees from +y
        counter-clockwise: the card's own turn on the table when it lies upright."""
        return self.angle_deg

    def to_json(self) -> dict[str, Any]:
        return {"origin": list(self.origin), "angle_deg": self.angle_deg, "size": list(self.size),
                "hand_depth": self.hand_depth}


@dataclass(frozen=True)
class Spot:
    """A place for one card (or a pile): its centre (table mm) and its turn (degrees, the card
    upright when 0, counter-clockwise)."""

    centre: tuple[float, float]
    angle_deg: float = 0.0

    def card_corners(self, offset: tuple[float, float] = (0.0, 0.0), turn_deg: float = 0.0,
                     card_mm: tuple[float, float] = CARD_MM) -> np.ndarray:
        return card_corners((self.centre[0] + offset[0], self.centre[1] + offset[1]),
                            self.angle_deg + turn_deg, card_mm)

    def to_json(self) -> dict[str, Any]:
        return {"centre": list(self.centre), "angle_deg": self.angle_deg}


def card_corners(centre: tuple[float, float] | np.ndarray, angle_deg: float,
                 card_mm: tuple[float, float] = CARD_MM) -> np.ndarray:
    """The corners of a card lying at ``centre`` turned ``angle_deg`` (table mm, 4×2) in the
    order top-left, top-right, bottom-right, bottom-left of the card's face."""
    w, h = card_mm[0] / 2, card_mm[1] / 2
    local = np.array([[-w, h], [w, h], [w, -h], [-w, -h]])
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return local @ rot.T + np.asarray(centre, float)


@dataclass(frozen=True)
class AltitudeLayout:
    """The table's areas: ``table_mm`` (the distance between the markers' centres, as laid),
    one :class:`SeatArea` per seat, the deck's and the discard pile's spots, and the geometry of
    a mountain (card size, pitch, rise)."""

    table_mm: tuple[float, float] = (800.0, 800.0)
    seats: tuple[SeatArea, ...] = ()
    deck: Spot = Spot((367.0, 400.0))
    discard: Spot = Spot((433.0, 400.0))
    card_mm: tuple[float, float] = CARD_MM
    pitch_mm: float = PITCH_MM
    rise_mm: float = RISE_MM
    source: str = field(default="default", compare=False)

    def seat(self, name: str) -> SeatArea:
        for s in self.seats:
            if s.seat == name:
                return s
        raise KeyError(name)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(s.seat for s in self.seats)

    def slot_centre(self, base_left: tuple[float, float], etage: int, pos: int) -> tuple[float, float]:
        """Seat-frame centre of slot (étage, pos) when the leftmost base card's centre is at
        ``base_left`` (seat frame)."""
        return (base_left[0] + (pos + (etage - 1) / 2) * self.pitch_mm,
                base_left[1] + (etage - 1) * self.rise_mm)

    def table_markers(self):
        """The nominal table layout these areas assume (markers at the corners of
        :attr:`table_mm`)."""
        from calibration.boards import TableLayout

        return TableLayout.rectangle(*self.table_mm)

    def play_polygons(self) -> list[np.ndarray]:
        """Every area cards may lie in (seats, their strips, the middle), table mm."""
        out = [s.corners() for s in self.seats] + [s.hand_corners() for s in self.seats]
        for spot in (self.deck, self.discard):
            out.append(spot.card_corners(card_mm=(self.card_mm[0] + 30, self.card_mm[1] + 30)))
        return out

    def enrol_zone(self) -> np.ndarray:
        """Where a card is laid to be enrolled (the discard pile's spot, with room around it),
        as a polygon in table mm."""
        return self.discard.card_corners(card_mm=(self.card_mm[0] + 36, self.card_mm[1] + 36))

    def to_json(self) -> dict[str, Any]:
        return {"table_mm": list(self.table_mm), "card_mm": list(self.card_mm),
                "pitch_mm": self.pitch_mm, "rise_mm": self.rise_mm,
                "seats": {s.seat: s.to_json() for s in self.seats},
                "deck": self.deck.to_json(), "discard": self.discard.to_json()}


def default_layout() -> AltitudeLayout:
    """The pinwheel of the module docstring on an 800 × 800 mm table."""
    seats = (
        SeatArea("red", (35.0, 35.0), 0.0),
        SeatArea("yellow", (765.0, 35.0), 90.0),
        SeatArea("blue", (765.0, 765.0), 180.0),
        SeatArea("green", (35.0, 765.0), 270.0),
    )
    return AltitudeLayout(seats=seats)


DEFAULT_LAYOUT = default_layout()


# ------------------------------------------------------------------------------ settings file
def _pair(value: Any, what: str, where: str) -> tuple[float, float]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                       for v in value)):
        raise BadInput(f"{what} must be two numbers (mm), not {value!r}", where=where)
    return float(value[0]), float(value[1])


def _number(value: Any, what: str, where: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise BadInput(f"{what} must be a number from {lo:g} to {hi:g}, not {value!r}", where=where)
    return float(value)


def layout_from_json(data: Any, *, where: str = "layout") -> AltitudeLayout:
    """A layout from its JSON form (any key left out keeps the default)."""
    if not isinstance(data, Mapping):
        raise BadInput("an Altitude layout is a JSON object", where=where)
    unknown = sorted(set(data) - {"table_mm", "card_mm", "pitch_mm", "rise_mm", "seats", "deck",
                                  "discard"})
    if unknown:
        raise BadInput(f"unknown key(s) {', '.join(unknown)}; a layout has table_mm, card_mm, "
                       "pitch_mm, rise_mm, seats, deck, discard", where=where)
    base = DEFAULT_LAYOUT
    table = _pair(data.get("table_mm", base.table_mm), "table_mm", where)
    card = _pair(data.get("card_mm", base.card_mm), "card_mm", where)
    if not (20 <= card[0] <= 150 and 20 <= card[1] <= 200):
        raise BadInput(f"card_mm {card} is not a card's size in millimetres", where=where)
    pitch = _number(data.get("pitch_mm", base.pitch_mm), "pitch_mm", where, card[0], card[0] * 1.5)
    rise = _number(data.get("rise_mm", base.rise_mm), "rise_mm", where, card[1] * 0.2, card[1])
    seats = {s.seat: s for s in base.seats}
    raw_seats = data.get("seats", {})
    if not isinstance(raw_seats, Mapping):
        raise BadInput("seats must be an object: seat name -> its area", where=where)
    for name, spec in raw_seats.items():
        at = f"{where}: seats.{name}"
        if name not in SEATS:
            raise BadInput(f"unknown seat {name!r}; the seats are {', '.join(SEATS)}", where=where)
        if not isinstance(spec, Mapping):
            raise BadInput("a seat's area is an object with origin, angle_deg, size", where=at)
        old = seats[name]
        seats[name] = SeatArea(
            name, _pair(spec.get("origin", old.origin), "origin", at),
            _number(spec.get("angle_deg", old.angle_deg), "angle_deg", at, -360.0, 360.0),
            _pair(spec.get("size", old.size), "size", at),
            _number(spec.get("hand_depth", old.hand_depth), "hand_depth", at, 0.0, 400.0))
        if min(seats[name].size) < card[0]:
            raise BadInput(f"the area of {name} is smaller than a card", where=at)
    spots = {}
    for key in ("deck", "discard"):
        spec = data.get(key)
        old = getattr(base, key)
        if spec is None:
            spots[key] = old
            continue
        if not isinstance(spec, Mapping):
            raise BadInput(f"{key} must be an object with centre and angle_deg", where=where)
        spots[key] = Spot(_pair(spec.get("centre", old.centre), f"{key}.centre", where),
                          _number(spec.get("angle_deg", old.angle_deg), f"{key}.angle_deg", where,
                                  -360.0, 360.0))
    return AltitudeLayout(table, tuple(seats[s] for s in SEATS), spots["deck"], spots["discard"],
                          card, pitch, rise, source=where)


def load_layout(path: str | Path | None) -> AltitudeLayout:
    """The layout of a settings file (JSON, see :func:`layout_from_json`), or the default."""
    if path is None:
        return DEFAULT_LAYOUT
    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput("no such layout file", where=str(p),
                       hint="give the path of a JSON file, or leave it out for the default layout") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read the layout ({exc})", where=str(p)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"not JSON ({exc.msg} at line {exc.lineno})", where=str(p)) from None
    return layout_from_json(data, where=str(p))


def with_table(layout: AltitudeLayout, table_mm: tuple[float, float]) -> AltitudeLayout:
    return replace(layout, table_mm=table_mm)
