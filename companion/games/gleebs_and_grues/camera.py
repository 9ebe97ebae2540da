"""What the camera sees of a state, and how badly a state explains what it saw.

Pyramids nest: a pyramid put on one of its size or smaller swallows it whole, while one put on a
larger pyramid sits on its upper part and leaves the larger one's sides in view. So on each
square the camera sees the top pyramid and, below it, each pyramid larger than everything above
it (a "tree" of large, medium, small shows all three; a large on a small shows only the large).
``level`` counts those visible pyramids from 0 at the board: it is what a camera can measure,
not the number of pyramids hidden inside.

Matching keys (for :mod:`companion.games.matching`): the top of a square is
``("top", cell, colour, size)`` and weighs :data:`~companion.games.matching.MISS` when missing;
a lower visible pyramid is ``("under", cell, colour, size)`` and weighs
:data:`~companion.games.matching.MISS_HIDDEN` (it shows less and is read with less confidence).
An observed square's top is its reported pyramid with the highest ``level`` (then the most
confident); its other pyramids are "under". Keys of different squares never match, so the cost
is a sum over squares: a move is scored by the squares it touches.
"""

from __future__ import annotations

from typing import Any, Hashable

from companion.games.gleebs_and_grues.pieces import CELLS, SIDE, Cell, Pyramid, index
from companion.games.gleebs_and_grues.state import Board, Stack
from companion.games.matching import MISS, MISS_HIDDEN, mismatch_cost, surprise
from companion.observation import Observation, Piece

GAME = "gleebs-and-grues"
KIND = "pyramid"


def visible(stack: Stack) -> list[Pyramid]:
    """The pyramids of ``stack`` the camera can see, bottom to top."""
    seen: list[Pyramid] = []
    largest_above = 0
    for pyramid in reversed(stack):
        if pyramid.size > largest_above:
            seen.append(pyramid)
            largest_above = pyramid.size
    seen.reverse()
    return seen


def pieces_of(cell: Cell, stack: Stack) -> list[Piece]:
    return [Piece(kind=KIND, conf=1.0, cell=cell, level=level,
                  attrs={"colour": p.colour, "size": p.size_name})
            for level, p in enumerate(visible(stack))]


def expected_observation(board: Board) -> Observation:
    pieces: list[Piece] = []
    for cell in CELLS:
        pieces.extend(pieces_of(cell, board[index(cell)]))
    return Observation(game=GAME, pieces=tuple(pieces))


def expected_keys(cell: Cell, stack: Stack) -> list[tuple[Hashable, float]]:
    seen = visible(stack)
    keys: list[tuple[Hashable, float]] = [
        (("under", cell, p.colour, p.size_name), MISS_HIDDEN) for p in seen[:-1]]
    if seen:
        top = seen[-1]
        keys.append((("top", cell, top.colour, top.size_name), MISS))
    return keys


class Reading:
    """An observation sorted by square, with each square's cost under a given stack memoised:
    the cost of a whole board is :meth:`cost`, and a move's cost only recomputes the squares it
    touches."""

    def __init__(self, observation: Observation):
        by_cell: dict[Cell, list[Piece]] = {}
        self.off_board = 0.0
        for piece in observation.of_kind(KIND):
            if piece.cell is None:
                continue  # a pyramid off the board (a hand, the eaten pile) is not judged
            cell = (piece.cell[0], piece.cell[1])
            if not (0 <= cell[0] < SIDE and 0 <= cell[1] < SIDE):
                self.off_board += surprise(piece.conf)
                continue
            by_cell.setdefault(cell, []).append(piece)
        self.observed: dict[Cell, list[tuple[Hashable, float]]] = {}
        for cell, pieces in by_cell.items():
            ordered = sorted(pieces, key=lambda p: (p.level or 0, p.conf))
            keys = []
            for n, piece in enumerate(ordered):
                role = "top" if n == len(ordered) - 1 else "under"
                keys.append(((role, cell, _attr(piece, "colour"), _attr(piece, "size")),
                             piece.conf))
            self.observed[cell] = keys
        self._memo: dict[tuple[Cell, Stack], float] = {}

    def cell_cost(self, cell: Cell, stack: Stack) -> float:
        key = (cell, stack)
        cost = self._memo.get(key)
        if cost is None:
            cost = mismatch_cost(expected_keys(cell, stack), self.observed.get(cell, ()))
            self._memo[key] = cost
        return cost

    def cost(self, board: Board) -> float:
        return self.off_board + sum(self.cell_cost(c, board[index(c)]) for c in CELLS)

    def changed_cost(self, board: Board, changes: dict[int, Stack]) -> float:
        """The cost of ``board`` with ``changes`` applied: only the changed squares are new to
        the memo, and the sum is taken afresh so equal boards cost exactly the same."""
        return self.off_board + sum(self.cell_cost(c, changes.get(i, board[i]))
                                    for i, c in enumerate(CELLS))

    def black_cells(self) -> set[Cell]:
        """Squares where any black pyramid was seen (the grues' squares at setup)."""
        return {cell for cell, keys in self.observed.items()
                if any(key[2] == "black" for key, _ in keys)}


def _attr(piece: Piece, name: str) -> Any:
    value = piece.get(name)
    return value if isinstance(value, (str, int, float, bool)) else repr(value)
