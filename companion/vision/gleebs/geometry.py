"""What the pyramids of Gleeb's and Grues physically are: their sizes, how they nest, where they
sit. Vision and the synthetic table both draw on this one description, so the renderer puts a
pyramid exactly where the reader expects it.

The pyramids are hollow square pyramids of nearly the same slope (table-kit.md). Put on a
pyramid of its size or smaller, a pyramid swallows it whole and stands on what is below; put on
a larger one, it seats on the larger one's upper part and leaves its sides in view. So only the
*visible chain* of a stack matters to a camera: the top pyramid and, below it, each pyramid
larger than everything above it. Along that chain the sizes strictly decrease upwards, and
every pyramid's apex stands :data:`NEST_LIFT_MM` above the apex of the one it seats on (the
plastic's thickness and the slack of the fit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

COLOURS = ("red", "yellow", "green", "blue", "black")
SIZE_NAMES = ("small", "medium", "large")


@dataclass(frozen=True)
class Size:
    """A pyramid size: the side of its square base and its height, millimetres."""

    name: str
    base: float
    height: float

    @property
    def rank(self) -> int:
        return SIZE_NAMES.index(self.name)


SIZES: dict[str, Size] = {
    "small": Size("small", 14.3, 25.4),
    "medium": Size("medium", 19.8, 34.9),
    "large": Size("large", 25.4, 44.5),
}

#: how much higher a pyramid's apex stands than the apex of the larger one it seats on
NEST_LIFT_MM = 2.5


def check_piece(colour: str, size: str) -> None:
    if colour not in COLOURS:
        raise ValueError(f"pyramid colour {colour!r} is not one of {', '.join(COLOURS)}")
    if size not in SIZES:
        raise ValueError(f"pyramid size {size!r} is not one of {', '.join(SIZE_NAMES)}")


def visible_chain(stack: Sequence[tuple[str, str]]) -> list[int]:
    """Indices (bottom to top) of the pyramids of ``stack`` (``(colour, size)`` pairs, bottom
    first) that a camera can see: the top one and each one larger than all above it."""
    seen: list[int] = []
    largest_above = -1
    for i in range(len(stack) - 1, -1, -1):
        rank = SIZES[stack[i][1]].rank
        if rank > largest_above:
            seen.append(i)
            largest_above = rank
    seen.reverse()
    return seen


def seat_heights(sizes: Sequence[str], yaws: Sequence[float] | None = None) -> list[float]:
    """Base heights (mm above the board) of a visible chain's pyramids, bottom to top, each
    turned ``yaws[k]`` degrees (0 when not given). The chain is strictly decreasing in size.

    A pyramid seats where its inside first touches the one below: its apex at least
    :data:`NEST_LIFT_MM` above the lower apex, and its base rim wide enough to pass round the
    lower one's section there. Turned against the lower one, its square rim meets the lower
    one's edges higher up (a square turned by φ needs a rim cos φ + sin φ times wider)."""
    out: list[float] = []
    yaws = list(yaws) if yaws is not None else [0.0] * len(sizes)
    apex = 0.0
    for k, name in enumerate(sizes):
        size = SIZES[name]
        if k == 0:
            z0 = 0.0
        else:
            below = SIZES[sizes[k - 1]]
            if size.rank >= below.rank:
                raise ValueError(f"a {name} pyramid cannot be seen seated on a {sizes[k - 1]} one")
            phi = math.radians(abs(yaws[k] - yaws[k - 1]) % 90.0)
            spread = math.cos(phi) + math.sin(phi)
            # the lower section's half-side r(z) = (base/2)(apex - z)/height must fit the rim
            rim_fit = apex - (size.base / 2) / spread * below.height / (below.base / 2)
            z0 = max(apex + NEST_LIFT_MM - size.height, rim_fit)
        out.append(z0)
        apex = z0 + size.height
    return out


def pyramid_points(centre: Sequence[float], z0: float, size: str, yaw_deg: float) -> np.ndarray:
    """The four base corners (counter-clockwise seen from above) and the apex, 5×3, of a
    pyramid standing at ``z0`` over ``centre`` (x, y), turned ``yaw_deg`` about z."""
    spec = SIZES[size]
    h = spec.base / 2
    a = math.radians(yaw_deg)
    c, s = math.cos(a), math.sin(a)
    local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    xy = local @ np.array([[c, s], [-s, c]]) + np.asarray(centre[:2], float)
    base = np.column_stack([xy, np.full(4, z0)])
    apex = np.array([[centre[0], centre[1], z0 + spec.height]])
    return np.vstack([base, apex])


#: chains of sizes a square can show, bottom to top (sizes strictly decreasing upwards)
CHAINS: tuple[tuple[str, ...], ...] = (
    ("small",), ("medium",), ("large",),
    ("medium", "small"), ("large", "medium"), ("large", "small"),
    ("large", "medium", "small"),
)
