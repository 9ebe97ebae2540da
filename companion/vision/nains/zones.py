"""Where things lie on a La Ville des Nains table: the zones, in table millimetres.

There is no printed board. The table markers 0–3 lie at the corners of the play area
(``width`` × ``depth`` mm between their centres, 600 × 480 by default: ``companion calibrate
table --table 600x480``) and the zones are laid out from marker 0 (``docs/observation/
ville-des-nains.md`` draws the default):

* the **tray**, where the dice are rolled (a felt dice mat on the left of the middle band);
* the **pool**, the stones not yet built, loose in the middle of the table;
* the **kobold** spot, where the kobold's blue tower stands (right of the pool);
* the dice **rest** on the left edge, where dice wait outside the tray (never read);
* one **area** per dwarf seat, three along the near edge (green, white, pink from left to right)
  and three along the far edge (cyan, brown, grey, right to left as those players see it). An
  area has six building places, ``slots``, in two rows of three, numbered as the player sees
  them: the near row left to right, then the row behind it. Building ``k`` (the ``k``-th card's
  building) stands on slot ``k``, within :attr:`ZoneLayout.slot_tolerance_mm` of it; a destroyed
  building keeps its slot, empty.

The user can move any of this: a JSON object of the form :meth:`ZoneLayout.to_json` gives in a
settings file (``make_reader(zones=PATH)``) or in the calibration file's ``extra`` under
``zones.ville-des-nains`` replaces the whole layout or only the parts it names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from calibration.boards import TableLayout
from companion.errors import BadInput
from companion.vision.nains.kit import SEATS

DEFAULT_TABLE_MM = (600.0, 480.0)
#: building places in an area: columns across, rows deep, their pitch, the back row's offset
SLOT_COLS, SLOT_ROWS = 3, 2
SLOT_PITCH_MM = 55.0
ROW_PITCH_MM = 60.0
ROW_SHIFT_MM = 14.0


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle of the table (mm)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if not (self.x1 > self.x0 and self.y1 > self.y0):
            raise BadInput(f"a zone's rectangle needs x0 < x1 and y0 < y1, not {self.to_json()}")

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def corners(self) -> np.ndarray:
        return np.array([[self.x0, self.y0], [self.x1, self.y0], [self.x1, self.y1], [self.x0, self.y1]])

    def contains(self, xy: np.ndarray, margin: float = 0.0) -> np.ndarray:
        p = np.asarray(xy, float).reshape(-1, 2)
        return ((p[:, 0] >= self.x0 - margin) & (p[:, 0] <= self.x1 + margin)
                & (p[:, 1] >= self.y0 - margin) & (p[:, 1] <= self.y1 + margin))

    def grown(self, mm: float) -> "Rect":
        return Rect(self.x0 - mm, self.y0 - mm, self.x1 + mm, self.y1 + mm)

    def to_json(self) -> list[float]:
        return [round(self.x0, 2), round(self.y0, 2), round(self.x1, 2), round(self.y1, 2)]

    @classmethod
    def from_json(cls, data: Any, what: str) -> "Rect":
        if (not isinstance(data, (list, tuple)) or len(data) != 4
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in data)):
            raise BadInput(f"zones: {what} must be [x0, y0, x1, y1] in table mm, not {data!r}")
        return cls(*(float(v) for v in data))


@dataclass(frozen=True)
class Area:
    """A dwarf's area: ``rect`` and the places of its buildings, ``slots`` (table mm); the
    buildings' stones are squared to ``yaw_deg`` (the direction of the player's right hand)."""

    seat: str
    rect: Rect
    slots: tuple[tuple[float, float], ...]
    yaw_deg: float = 0.0

    @property
    def zone(self) -> str:
        return f"player:{self.seat}"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "rect": self.rect.to_json(),
                "slots": [[round(x, 2), round(y, 2)] for x, y in self.slots],
                "yaw_deg": self.yaw_deg}

    @classmethod
    def from_json(cls, data: Any) -> "Area":
        if not isinstance(data, Mapping) or not isinstance(data.get("seat"), str):
            raise BadInput(f"zones: an area is {{\"seat\": ..., \"rect\": [...], \"slots\": [[x, y], ...]}}, "
                           f"not {data!r}")
        seat = data["seat"]
        if seat not in SEATS:
            raise BadInput(f"zones: unknown seat {seat!r}; seats are {', '.join(SEATS)}")
        slots = data.get("slots")
        if (not isinstance(slots, list) or not slots
                or not all(isinstance(s, (list, tuple)) and len(s) == 2 for s in slots)):
            raise BadInput(f"zones: area {seat}: slots must be a list of [x, y] places (table mm)")
        yaw = data.get("yaw_deg", 0.0)
        if isinstance(yaw, bool) or not isinstance(yaw, (int, float)):
            raise BadInput(f"zones: area {seat}: yaw_deg must be a number of degrees")
        return cls(seat, Rect.from_json(data.get("rect"), f"area {seat}'s rect"),
                   tuple((float(x), float(y)) for x, y in slots), float(yaw))


def _default_areas(width: float, depth: float) -> tuple[Area, ...]:
    x0, x1 = 40.0, width - 40.0
    span = (x1 - x0) / 3
    out = []
    for i, seat in enumerate(SEATS[:3]):  # the near edge, left to right
        a = x0 + i * span
        slots = tuple((a + 25.0 + SLOT_PITCH_MM * c + ROW_SHIFT_MM * r, 60.0 + ROW_PITCH_MM * r)
                      for r in range(SLOT_ROWS) for c in range(SLOT_COLS))
        out.append(Area(seat, Rect(a, 30.0, a + span, 150.0), slots, 0.0))
    for i, seat in enumerate(SEATS[3:]):  # the far edge, right to left
        b = x1 - i * span
        slots = tuple((b - 25.0 - SLOT_PITCH_MM * c - ROW_SHIFT_MM * r,
                       depth - 60.0 - ROW_PITCH_MM * r)
                      for r in range(SLOT_ROWS) for c in range(SLOT_COLS))
        out.append(Area(seat, Rect(b - span, depth - 150.0, b, depth - 30.0), slots, 180.0))
    return tuple(out)


@dataclass(frozen=True)
class ZoneLayout:
    """The zones of a table (see the module docstring)."""

    width_mm: float = DEFAULT_TABLE_MM[0]
    depth_mm: float = DEFAULT_TABLE_MM[1]
    tray: Rect = Rect(40.0, 175.0, 150.0, 305.0)
    pool: Rect = Rect(165.0, 162.0, 495.0, 318.0)
    kobold: tuple[float, float] = (545.0, 240.0)
    rest: Rect = Rect(-22.0, 170.0, 30.0, 310.0)
    areas: tuple[Area, ...] = field(default_factory=lambda: _default_areas(*DEFAULT_TABLE_MM))
    slot_tolerance_mm: float = 12.0

    def __post_init__(self) -> None:
        seats = [a.seat for a in self.areas]
        if len(set(seats)) != len(seats):
            raise BadInput(f"zones: each seat has one area, not {seats}")
        unknown = [s for s in seats if s not in SEATS]
        if unknown:
            raise BadInput(f"zones: unknown seat(s) {', '.join(unknown)}; seats are {', '.join(SEATS)}")

    def area(self, seat: str) -> Area:
        for a in self.areas:
            if a.seat == seat:
                return a
        raise BadInput(f"no area for seat {seat!r} in this table's zones")

    @property
    def kobold_rect(self) -> Rect:
        x, y = self.kobold
        return Rect(x - 30.0, y - 30.0, x + 30.0, y + 30.0)

    def table_layout(self) -> TableLayout:
        """Where the table markers lie when nothing was measured: the corners of the play area."""
        return TableLayout.rectangle(self.width_mm, self.depth_mm)

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"table_mm": [self.width_mm, self.depth_mm], "tray": self.tray.to_json(),
                "pool": self.pool.to_json(), "kobold": [self.kobold[0], self.kobold[1]],
                "rest": self.rest.to_json(), "areas": [a.to_json() for a in self.areas],
                "slot_tolerance_mm": self.slot_tolerance_mm}

    @classmethod
    def from_json(cls, data: Any, base: "ZoneLayout | None" = None) -> "ZoneLayout":
        """A layout from JSON; keys left out keep ``base``'s value (the default layout's when
        None). An area given replaces that seat's area; ``"areas"`` given as a whole list
        replaces them all when ``"replace_areas": true``."""
        if not isinstance(data, Mapping):
            raise BadInput(f"zones must be a JSON object (see docs/observation/ville-des-nains.md), "
                           f"not {type(data).__name__}")
        known = {"table_mm", "tray", "pool", "kobold", "rest", "areas", "slot_tolerance_mm",
                 "replace_areas"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BadInput(f"zones: unknown key(s) {', '.join(unknown)}",
                           hint=f"keys are {', '.join(sorted(known))}")
        out = base or cls()
        changes: dict[str, Any] = {}
        if "table_mm" in data:
            t = data["table_mm"]
            if (not isinstance(t, (list, tuple)) or len(t) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 50 <= v <= 5000 for v in t)):
                raise BadInput(f"zones: table_mm must be [width, depth] (mm, 50 to 5000), not {t!r}")
            changes["width_mm"], changes["depth_mm"] = float(t[0]), float(t[1])
        for key in ("tray", "pool", "rest"):
            if key in data:
                changes[key] = Rect.from_json(data[key], key)
        if "kobold" in data:
            k = data["kobold"]
            if (not isinstance(k, (list, tuple)) or len(k) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in k)):
                raise BadInput(f"zones: kobold must be [x, y] (table mm), not {k!r}")
            changes["kobold"] = (float(k[0]), float(k[1]))
        if "slot_tolerance_mm" in data:
            tol = data["slot_tolerance_mm"]
            if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 2 <= tol <= 40:
                raise BadInput(f"zones: slot_tolerance_mm must be 2 to 40 mm, not {tol!r}")
            changes["slot_tolerance_mm"] = float(tol)
        if "areas" in data:
            if not isinstance(data["areas"], list):
                raise BadInput("zones: areas must be a list of areas")
            given = [Area.from_json(a) for a in data["areas"]]
            if data.get("replace_areas"):
                changes["areas"] = tuple(given)
            else:
                by_seat = {a.seat: a for a in out.areas}
                by_seat.update({a.seat: a for a in given})
                changes["areas"] = tuple(by_seat[s] for s in SEATS if s in by_seat)
        return replace(out, **changes)

    @classmethod
    def load(cls, source: "str | Path | Mapping[str, Any] | ZoneLayout | None",
             calibration_extra: Mapping[str, Any] | None = None) -> "ZoneLayout":
        """The table's layout: the default, then what the calibration recorded
        (``extra["zones"]["ville-des-nains"]``), then ``source`` (a layout, its JSON, or a
        settings file holding it, alone or under ``"zones"``)."""
        out = cls()
        recorded = ((calibration_extra or {}).get("zones") or {}).get("ville-des-nains")
        if recorded is not None:
            out = cls.from_json(recorded, out)
        if source is None:
            return out
        if isinstance(source, ZoneLayout):
            return source
        if isinstance(source, Mapping):
            return cls.from_json(source, out)
        path = Path(source).expanduser()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BadInput(f"no such zones file: {path}") from None
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadInput(f"{path} is not a readable zones file ({exc})",
                           hint="it holds JSON as in docs/observation/ville-des-nains.md") from None
        if isinstance(data, Mapping) and "zones" in data and isinstance(data["zones"], Mapping):
            data = data["zones"]
        return cls.from_json(data, out)


DEFAULT_ZONES = ZoneLayout()
