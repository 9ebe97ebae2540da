"""What lies on a synthetic La Ville des Nains table.

A :class:`NainsScene` is geometry, not a game state (vision and the synthetic table never import
the rules): stones loose in the pool, each dwarf's buildings stone by stone on their slots, the
kobold's blue tower, the dice (in the tray or resting beside it) and an arm over the table or
none. Pieces put down by hand sit a little off their place and a little turned:
:func:`solids` gives every piece its own small offsets, drawn from ``placement_seed`` and the
piece's place, the same every time the scene is drawn (a video's frames do not jitter, and a
building keeps its lower stones where they were when a stone is added on top).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import numpy as np

from companion.synth.scene import Hand
from companion.vision.nains.kit import (
    COLOUR_FACES, DIE_MM, KOBOLD_COLOUR, KOBOLD_FACES, KOBOLD_SHAPE, SEATS, SHAPES, STONE_COLOURS,
    STONE_MM,
)
from companion.vision.nains.solids import Placed, place
from companion.vision.nains.zones import DEFAULT_ZONES, ZoneLayout

#: how far a building sits off its slot (mm), and turns from the area's square (degrees)
BUILDING_SHIFT_MM = 5.0
BUILDING_TURN_DEG = 6.0
#: how far each stone of a building sits off the one below, and turns
STONE_SHIFT_MM = 1.0
STONE_TURN_DEG = 3.0

#: the colour die's faces along its own axes (opposite faces: yellow/violet, orange/blue,
#: red/white) and the kobold die's (blank/kobold, 1/2, 1/2)
COLOUR_DIE_NET = {"+z": "yellow", "-z": "violet", "+x": "orange", "-x": "blue", "+y": "red", "-y": "white"}
KOBOLD_DIE_NET = {"+z": "0", "-z": "kobold", "+x": "1", "-x": "2", "+y": "1", "-y": "2"}
_DIRS = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0), "+z": (0, 0, 1), "-z": (0, 0, -1)}


def _cube_rotations() -> list[np.ndarray]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            M = np.zeros((3, 3))
            for i, j in enumerate(perm):
                M[i, j] = signs[i]
            if round(np.linalg.det(M)) == 1:
                out.append(M)
    return out


_ROTATIONS = _cube_rotations()


@dataclass(frozen=True)
class Loose:
    """A stone lying in the pool: its colour, shape, base centre (table mm) and turn."""

    colour: str
    shape: str
    x: float
    y: float
    yaw_deg: float = 0.0

    def __post_init__(self) -> None:
        if self.colour not in STONE_COLOURS or self.shape not in SHAPES:
            raise ValueError(f"a pool stone is one of {STONE_COLOURS} and {SHAPES}, "
                             f"not {self.colour} {self.shape}")


@dataclass(frozen=True)
class Building:
    """The building on slot ``index`` of ``seat``'s area: its stones bottom first, each
    ``(colour, shape, turn)`` with ``turn`` 0 or 90 (a long block or a roof's ridge along the
    player's right hand, or across)."""

    seat: str
    index: int
    stones: tuple[tuple[str, str, int], ...]

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise ValueError(f"seat {self.seat!r} is not one of {', '.join(SEATS)}")
        for k, (colour, shape, turn) in enumerate(self.stones):
            if colour not in STONE_COLOURS or shape not in SHAPES or turn not in (0, 90):
                raise ValueError(f"stone {k} of {self.seat}:{self.index}: {colour} {shape} turned {turn}")
            if shape == "roof" and k != len(self.stones) - 1:
                raise ValueError(f"{self.seat}:{self.index}: a roof only goes on top")


@dataclass(frozen=True)
class Die:
    """A die lying at ``(x, y)`` turned ``yaw_deg``, ``face`` up; ``spin`` (0–3) says which way
    round the faces around it lie."""

    kind: str
    face: str
    x: float
    y: float
    yaw_deg: float = 0.0
    spin: int = 0

    def __post_init__(self) -> None:
        faces = COLOUR_FACES if self.kind == "colour" else KOBOLD_FACES if self.kind == "kobold" else ()
        if self.face not in faces:
            raise ValueError(f"a {self.kind} die has no face {self.face!r}")

    def net(self) -> dict[str, str]:
        return COLOUR_DIE_NET if self.kind == "colour" else KOBOLD_DIE_NET

    def rotation(self) -> np.ndarray:
        """The die's own axes turned so that ``face`` is up (before the yaw)."""
        net = self.net()
        local = next(d for d, label in net.items() if label == self.face)
        up = np.array(_DIRS[local], float)
        options = [M for M in _ROTATIONS if np.allclose(M @ up, (0, 0, 1))]
        return options[self.spin % len(options)]

    def labels(self) -> dict[str, str]:
        """Which label shows on each face of the placed die (its faces tagged ``+z``, ``-x``, ...
        in the die's yawed frame)."""
        M = self.rotation()
        net = self.net()
        out = {}
        for tag, d in _DIRS.items():
            local = M.T @ np.array(d, float)
            key = next(k for k, v in _DIRS.items() if np.allclose(v, local))
            out[tag] = net[key]
        return out


@dataclass(frozen=True)
class NainsScene:
    """A La Ville des Nains table (see the module docstring). ``tower`` is the number of blue
    stones on the kobold's spot; ``mat`` the dice tray's felt colour (BGR albedo)."""

    pool: tuple[Loose, ...] = ()
    buildings: tuple[Building, ...] = ()
    tower: int = 0
    dice: tuple[Die, ...] = ()
    hand: Hand | None = None
    zones: ZoneLayout = DEFAULT_ZONES
    placement_seed: int = 0
    mat: tuple[float, float, float] = (0.16, 0.30, 0.12)

    def __post_init__(self) -> None:
        slots = [(b.seat, b.index) for b in self.buildings]
        if len(set(slots)) != len(slots):
            raise ValueError("two buildings on one slot")
        for b in self.buildings:
            if not 0 <= b.index < len(self.zones.area(b.seat).slots):
                raise ValueError(f"{b.seat} has no slot {b.index}")
        if self.tower < 0:
            raise ValueError("the kobold's tower has no negative height")

    def with_hand(self, hand: Hand | None) -> "NainsScene":
        return replace(self, hand=hand)

    def highest_mm(self) -> float:
        """The top of the tallest thing on the table (mm)."""
        tops = [len(b.stones) * STONE_MM for b in self.buildings] + [self.tower * STONE_MM, DIE_MM]
        return max(tops)


@dataclass(frozen=True)
class Piece:
    """One solid of the scene with what it is: ``kind`` (``stone`` or ``die``), ``zone``
    (``pool``, ``player:<seat>``, ``kobold``, ``tray``, ``rest``), ``building`` and ``level``
    for built stones, ``colour`` and ``shape`` of a stone, ``die`` and ``face`` of a die (and
    ``labels``, the label on each face)."""

    solid: Placed
    kind: str
    zone: str
    colour: str = ""
    shape: str = ""
    building: int | None = None
    level: int | None = None
    die: str = ""
    face: str = ""
    labels: tuple[tuple[str, str], ...] = ()


def _jitter(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng([seed, *key])


def building_solids(scene: NainsScene, b: Building) -> list[Placed]:
    """The stones of a building as placed, bottom first (see the module docstring)."""
    area = scene.zones.area(b.seat)
    sx, sy = area.slots[b.index]
    rng = _jitter(scene.placement_seed, 11, SEATS.index(b.seat), b.index)
    ox, oy = rng.uniform(-BUILDING_SHIFT_MM, BUILDING_SHIFT_MM, size=2)
    base_yaw = area.yaw_deg + float(rng.uniform(-BUILDING_TURN_DEG, BUILDING_TURN_DEG))
    out = []
    x, y = sx + ox, sy + oy
    for k, (colour, shape, turn) in enumerate(b.stones):
        r = _jitter(scene.placement_seed, 12, SEATS.index(b.seat), b.index, k)
        dx, dy = r.uniform(-STONE_SHIFT_MM, STONE_SHIFT_MM, size=2) if k else (0.0, 0.0)
        yaw = base_yaw + turn + float(r.uniform(-STONE_TURN_DEG, STONE_TURN_DEG))
        out.append(place(shape, x + dx, y + dy, k * STONE_MM, yaw))
    return out


def tower_solids(scene: NainsScene) -> list[Placed]:
    kx, ky = scene.zones.kobold
    rng = _jitter(scene.placement_seed, 13)
    ox, oy = rng.uniform(-4.0, 4.0, size=2)
    yaw0 = float(rng.uniform(0, 90))
    out = []
    for k in range(scene.tower):
        r = _jitter(scene.placement_seed, 14, k)
        dx, dy = r.uniform(-STONE_SHIFT_MM, STONE_SHIFT_MM, size=2) if k else (0.0, 0.0)
        out.append(place(KOBOLD_SHAPE, kx + ox + dx, ky + oy + dy, k * STONE_MM,
                         yaw0 + float(r.uniform(-STONE_TURN_DEG, STONE_TURN_DEG))))
    return out


def pieces(scene: NainsScene) -> list[Piece]:
    """Every solid of the scene with what it is (the hand apart)."""
    out: list[Piece] = []
    for s in scene.pool:
        out.append(Piece(place(s.shape, s.x, s.y, 0.0, s.yaw_deg), "stone", "pool", s.colour, s.shape))
    for b in scene.buildings:
        for k, solid in enumerate(building_solids(scene, b)):
            colour, shape, _ = b.stones[k]
            out.append(Piece(solid, "stone", f"player:{b.seat}", colour, shape, b.index, k))
    for k, solid in enumerate(tower_solids(scene)):
        out.append(Piece(solid, "stone", "kobold", KOBOLD_COLOUR, KOBOLD_SHAPE, None, k))
    for d in scene.dice:
        zone = "tray" if scene.zones.tray.contains(np.array([[d.x, d.y]]))[0] else "rest"
        out.append(Piece(place("die", d.x, d.y, 0.0, d.yaw_deg), "die", zone, die=d.kind,
                         face=d.face, labels=tuple(sorted(d.labels().items()))))
    return out


def die_yaw_square(yaw: float) -> float:
    """A die's turn folded into [0, 90) (a cube looks the same turned a quarter)."""
    return math.fmod(math.fmod(yaw, 90.0) + 90.0, 90.0)
