"""What the synthetic table shows for Terra Turrium: a printed board with towers and flags.

A :class:`TerraScene` is geometry, not a game state (vision and the synthetic table never
import the rules): where the board lies on the table, how many blocks stand on each square,
which flags stand where, the colour of the kit's blocks, and an arm over the table or none.
Blocks are put down by hand, so each sits a little off its square's centre and a little
turned; :meth:`TerraScene.block_offsets` gives every block its own small offset, the same
every time the scene is drawn (a video's frames do not jitter), drawn from ``placement_seed``.

The photograph is the Haut les Cubes renderer's :class:`~companion.synth.scene.Shot` (camera,
light, table top, sensor) with the same lights, hands and optics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from companion.synth.scene import Hand
from companion.vision.terra.kit import FLAG_COLOURS, SIZE, SQUARE_MM

#: block colours of the kits (BGR albedo, 0–1): a kit's blocks are all one of these
BLOCK_KITS: dict[str, tuple[float, float, float]] = {
    "natural": (0.50, 0.66, 0.80),
    "white": (0.82, 0.83, 0.82),
    "grey": (0.42, 0.43, 0.45),
    "walnut": (0.22, 0.32, 0.45),
}
#: flag head albedos (BGR, 0–1): painted wood
FLAG_ALBEDO: dict[str, tuple[float, float, float]] = {
    "red": (0.10, 0.10, 0.72), "yellow": (0.08, 0.72, 0.88),
    "blue": (0.66, 0.30, 0.06), "green": (0.18, 0.55, 0.12),
}
POLE_ALBEDO = (0.55, 0.68, 0.78)
#: how far a block put down by hand sits off its square's centre (mm) and how far it turns (°)
PLACE_SHIFT_MM = 0.8
PLACE_TURN_DEG = 2.5


@dataclass(frozen=True)
class Flag:
    """A flag of ``colour`` standing on the square ``cell`` (on top of its tower)."""

    colour: str
    cell: tuple[int, int]

    def __post_init__(self) -> None:
        if self.colour not in FLAG_COLOURS:
            raise ValueError(f"flag colour {self.colour!r} is not one of {', '.join(FLAG_COLOURS)}")
        if not (0 <= self.cell[0] < SIZE and 0 <= self.cell[1] < SIZE):
            raise ValueError(f"flag square {self.cell} is not on the board")


@dataclass(frozen=True)
class TerraScene:
    """The board at ``board_origin`` (table mm of the board frame's origin, the outer corner of
    square [0, 0]) turned ``board_yaw_deg`` about z; ``heights`` the number of blocks on each
    square, index ``y * 10 + x``; ``flags``; the kit's ``blocks`` colour (a key of
    :data:`BLOCK_KITS`); ``hand`` an arm over the table or None."""

    heights: tuple[int, ...]
    flags: tuple[Flag, ...] = ()
    board_origin: tuple[float, float] = (165.0, 165.0)
    board_yaw_deg: float = 0.0
    blocks: str = "natural"
    placement_seed: int = 0
    hand: Hand | None = None

    def __post_init__(self) -> None:
        if len(self.heights) != SIZE * SIZE or any(h < 0 for h in self.heights):
            raise ValueError(f"a Terra Turrium scene needs {SIZE * SIZE} heights ≥ 0")
        if self.blocks not in BLOCK_KITS:
            raise ValueError(f"block kit {self.blocks!r} is not one of {', '.join(BLOCK_KITS)}")
        cells = [f.cell for f in self.flags]
        if len(set(cells)) != len(cells):
            raise ValueError("two flags on one square")

    def height(self, x: int, y: int) -> int:
        return self.heights[y * SIZE + x]

    def with_hand(self, hand: Hand | None) -> "TerraScene":
        return replace(self, hand=hand)

    # -- board frame <-> table frame ------------------------------------------------------------

    @property
    def rotation(self) -> np.ndarray:
        a = math.radians(self.board_yaw_deg)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def to_table(self, pts_board: np.ndarray) -> np.ndarray:
        """Board points (N×2 or N×3, mm) to table points (z unchanged)."""
        pts = np.asarray(pts_board, dtype=np.float64)
        xy = pts[..., :2] @ self.rotation.T + np.asarray(self.board_origin)
        return np.concatenate([xy, pts[..., 2:]], axis=-1) if pts.shape[-1] == 3 else xy

    def to_board(self, pts_table: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts_table, dtype=np.float64)
        xy = (pts[..., :2] - np.asarray(self.board_origin)) @ self.rotation
        return np.concatenate([xy, pts[..., 2:]], axis=-1) if pts.shape[-1] == 3 else xy

    def board_centre(self) -> np.ndarray:
        return self.to_table(np.array([[SIZE * SQUARE_MM / 2, SIZE * SQUARE_MM / 2]]))[0]

    # -- where each block really sits ------------------------------------------------------------

    def block_offsets(self, x: int, y: int) -> np.ndarray:
        """(dx, dy, turn°) of each block of the tower on [x, y], bottom first: the same blocks
        always sit the same way (a block's place depends on its square, its level and the
        scene's placement seed)."""
        h = self.height(x, y)
        out = np.zeros((h, 3))
        for k in range(h):
            rng = np.random.default_rng([self.placement_seed, x, y, k])
            out[k] = (rng.uniform(-PLACE_SHIFT_MM, PLACE_SHIFT_MM),
                      rng.uniform(-PLACE_SHIFT_MM, PLACE_SHIFT_MM),
                      rng.uniform(-PLACE_TURN_DEG, PLACE_TURN_DEG))
        return out
