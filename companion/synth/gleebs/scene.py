"""What the synthetic Gleeb's and Grues table shows.

A scene is geometry, not a game state (the synthetic table never imports the rules): stacks of
pyramids on the squares of the printed board, bottom first, each stack a little off its
square's centre and each pyramid turned its own way, the board lying somewhere on the table at
any angle, pyramids standing beside the board (eaten, not yet placed) and an arm reaching in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.boards import GLEEBS_BOARD, BoardSpec, TableLayout
from companion.synth.scene import Hand
from companion.vision.gleebs.geometry import SIZES, check_piece, seat_heights, visible_chain


@dataclass(frozen=True)
class Pyramid:
    """One pyramid of the set: ``colour`` and ``size`` (``small``, ``medium``, ``large``)."""

    colour: str
    size: str

    def __post_init__(self) -> None:
        check_piece(self.colour, self.size)


@dataclass(frozen=True)
class Stack:
    """Pyramids on the square ``cell`` (``[col, row]`` of the board), bottom first. ``offset``:
    where the stack's axis stands from the square's centre (board mm); ``yaws``: each pyramid's
    turn about its axis (degrees, board frame; missing ones are 0)."""

    cell: tuple[int, int]
    pyramids: tuple[Pyramid, ...]
    offset: tuple[float, float] = (0.0, 0.0)
    yaws: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not self.pyramids:
            raise ValueError(f"the stack on {self.cell} has no pyramid")

    def yaw(self, i: int) -> float:
        return self.yaws[i] if i < len(self.yaws) else 0.0

    def chain(self) -> list[int]:
        """Indices of the pyramids a camera can see, bottom to top."""
        return visible_chain([(p.colour, p.size) for p in self.pyramids])

    def seated(self) -> list[tuple[int, Pyramid, float, float]]:
        """The visible pyramids as (index in the stack, pyramid, base height mm, yaw)."""
        chain = self.chain()
        heights = seat_heights([self.pyramids[i].size for i in chain], [self.yaw(i) for i in chain])
        return [(i, self.pyramids[i], z, self.yaw(i)) for i, z in zip(chain, heights)]


@dataclass(frozen=True)
class Loose:
    """A pyramid standing on the table off the board, at table ``xy`` (mm), turned ``yaw``."""

    pyramid: Pyramid
    xy: tuple[float, float]
    yaw: float = 0.0


@dataclass(frozen=True)
class BoardPlacement:
    """Where the printed board lies: its frame's origin (the outer corner of square [0, 0]) at
    table ``origin`` (mm), its +x axis turned ``yaw_deg`` from the table's."""

    origin: tuple[float, float]
    yaw_deg: float = 0.0

    @classmethod
    def centred(cls, centre: tuple[float, float], yaw_deg: float,
                spec: BoardSpec = GLEEBS_BOARD) -> "BoardPlacement":
        """The board with the middle of its grid at table ``centre``."""
        a = math.radians(yaw_deg)
        cx, cy = spec.width_mm / 2, spec.height_mm / 2
        ox = centre[0] - (math.cos(a) * cx - math.sin(a) * cy)
        oy = centre[1] - (math.sin(a) * cx + math.cos(a) * cy)
        return cls((ox, oy), yaw_deg)

    @property
    def rotation(self) -> np.ndarray:
        a = math.radians(self.yaw_deg)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Board points (N×2 or N×3, mm) to table points (z kept)."""
        pts = np.asarray(points, float)
        xy = pts[:, :2] @ self.rotation.T + np.asarray(self.origin)
        return np.column_stack([xy, pts[:, 2:]]) if pts.shape[1] > 2 else xy

    def to_board(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, float)
        xy = (pts[:, :2] - np.asarray(self.origin)) @ self.rotation
        return np.column_stack([xy, pts[:, 2:]]) if pts.shape[1] > 2 else xy


DEFAULT_BOARD = BoardPlacement.centred((300.0, 300.0), 0.0)


@dataclass(frozen=True)
class GleebsScene:
    """A physical position of Gleeb's and Grues: the board page where it lies, the stacks on its
    squares, loose pyramids on the table, an arm, and the table markers of ``layout``."""

    board: BoardPlacement = DEFAULT_BOARD
    stacks: tuple[Stack, ...] = ()
    loose: tuple[Loose, ...] = ()
    hand: Hand | None = None
    layout: TableLayout = field(default_factory=TableLayout.rectangle)
    spec: BoardSpec = GLEEBS_BOARD
    #: False: the board page is not on the table (the colour sheet lies there instead)
    show_board: bool = True

    def __post_init__(self) -> None:
        cells = [s.cell for s in self.stacks]
        if len(set(cells)) != len(cells):
            raise ValueError("two stacks on one square: give each square one stack, bottom first")
        for s in self.stacks:
            if not (0 <= s.cell[0] < self.spec.cols and 0 <= s.cell[1] < self.spec.rows):
                raise ValueError(f"square {s.cell} is not on the {self.spec.cols}×{self.spec.rows} board")
        seen: set[Pyramid] = set()
        for p in [p for s in self.stacks for p in s.pyramids] + [l.pyramid for l in self.loose]:
            if p in seen:
                raise ValueError(f"the {p.size} {p.colour} pyramid is in the scene twice")
            seen.add(p)

    def with_hand(self, hand: Hand | None) -> "GleebsScene":
        return replace(self, hand=hand)

    def stack_at(self, cell: tuple[int, int]) -> Stack | None:
        for s in self.stacks:
            if s.cell == cell:
                return s
        return None

    def axis(self, stack: Stack) -> np.ndarray:
        """Table point (x, y) of a stack's axis."""
        cx, cy = self.spec.cell_centre(*stack.cell)
        return self.board.to_table(np.array([[cx + stack.offset[0], cy + stack.offset[1]]]))[0]

    def top_mm(self) -> float:
        """Height of the highest apex on the table (mm)."""
        top = 0.0
        for s in self.stacks:
            for _, p, z, _ in s.seated():
                top = max(top, z + SIZES[p.size].height)
        for l in self.loose:
            top = max(top, SIZES[l.pyramid.size].height)
        return top
