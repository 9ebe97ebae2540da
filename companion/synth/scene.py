"""What the synthetic table shows, and how it is seen.

A :class:`Scene` is the physical position: cubes on a lattice, giants, the card in the played-card
zone, an arm reaching in. It is deliberately *not* a game state (vision and the synthetic table
never import the rules): a scene is geometry. A :class:`Shot` is how the scene is photographed:
the camera (the shared :class:`~companion.vision.camera.View`), the light, the table top and the
imperfections of a real camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from companion.vision.camera import View
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.layout import CARD_NAMES, GIANT_COLOURS


@dataclass(frozen=True)
class Giant:
    """A giant pawn standing on the square ``cell`` on top of ``level`` cubes (0: the table)."""

    colour: str
    cell: tuple[int, int]
    level: int

    def __post_init__(self) -> None:
        if self.colour not in GIANT_COLOURS:
            raise ValueError(f"giant colour {self.colour!r} is not one of {', '.join(GIANT_COLOURS)}")


@dataclass(frozen=True)
class Hand:
    """An arm reaching over the table.

    The forearm runs from ``elbow`` (table mm, outside the play area) to ``wrist``; the hand
    continues in the same direction, ``spread`` from a pinch (0) to an open hand (1). ``skin``
    and ``sleeve`` are BGR albedos in [0, 1]; ``sleeve_to`` is how far along the forearm
    (0 = elbow, 1 = wrist) the sleeve reaches.
    """

    elbow: tuple[float, float, float]
    wrist: tuple[float, float, float]
    skin: tuple[float, float, float] = (0.45, 0.60, 0.80)
    sleeve: tuple[float, float, float] = (0.35, 0.25, 0.20)
    sleeve_to: float = 0.8
    spread: float = 0.5

    def moved(self, wrist: tuple[float, float, float]) -> "Hand":
        return replace(self, wrist=wrist)


@dataclass(frozen=True)
class Scene:
    """A physical position: cubes as lattice (i, j, level) triples (a cube covers cells i..i+1,
    j..j+1), giants, the card lying in the played-card zone (``card_offset`` = dx, dy mm and a
    turn in degrees from its ideal place), and an arm or none."""

    lattice: Lattice
    cubes: tuple[tuple[int, int, int], ...] = ()
    giants: tuple[Giant, ...] = ()
    card: str | None = None
    card_offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    hand: Hand | None = None

    def __post_init__(self) -> None:
        if self.card is not None and self.card not in CARD_NAMES:
            raise ValueError(f"card {self.card!r} is not one of {', '.join(CARD_NAMES)}")

    def heights(self) -> dict[tuple[int, int], int]:
        """Column height (cubes) of every covered cell."""
        out: dict[tuple[int, int], int] = {}
        for i, j, k in self.cubes:
            for c in ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)):
                out[c] = max(out.get(c, 0), k + 1)
        return out

    def with_hand(self, hand: Hand | None) -> "Scene":
        return replace(self, hand=hand)


@dataclass(frozen=True)
class Light:
    """Directional light (``azimuth_deg`` in the table plane, ``elevation_deg`` above it) of BGR
    ``colour`` (its strength included), plus ambient light of BGR ``ambient``. ``name`` is the
    lighting condition the benchmark reports by."""

    azimuth_deg: float = 30.0
    elevation_deg: float = 55.0
    colour: tuple[float, float, float] = (0.8, 0.8, 0.8)
    ambient: tuple[float, float, float] = (0.35, 0.35, 0.35)
    name: str = "daylight"

    @property
    def direction(self) -> np.ndarray:
        """Unit vector the light travels along (from the light down to the table)."""
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return -np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


@dataclass(frozen=True)
class Shot:
    """How a scene is photographed.

    ``view`` is the camera and its pose (what the readers are given, or find from the markers);
    ``table`` one of ``wood``, ``cloth``, ``laminate`` with a texture ``table_variant``,
    ``table_tint`` (BGR factors) and ``table_shift`` (mm, where the texture lies); ``noise`` the
    sensor's noise in grey levels at unit gain, ``blur`` the optics' blur (Gaussian sigma, pixels),
    ``jpeg`` the JPEG quality or None for a lossless frame; ``exposure`` the median grey level
    (0–1) the camera's automatic exposure aims for; ``seed`` drives every random detail (wood
    cuts, noise), so a shot renders the same image every time.
    """

    view: View
    light: Light = field(default_factory=Light)
    table: str = "wood"
    table_variant: int = 0
    table_tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    table_shift: tuple[float, float] = (0.0, 0.0)
    noise: float = 2.0
    blur: float = 0.6
    jpeg: int | None = 90
    exposure: float = 0.45
    seed: int = 0
