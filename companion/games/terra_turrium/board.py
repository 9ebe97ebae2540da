"""The printed board of Terra Turrium: 10×10 squares, four 5×5 territories, start layouts.

A square is an index ``y * 10 + x``: ``x`` is the column (0 to 9, from the corner of board
marker 4 towards marker 5), ``y`` the row (0 to 9, towards marker 7); the camera reports the same
pair as ``cell: [x, y]``. Squares are named like a chessboard, column letter then row number:
``a1`` is ``[0, 0]``, ``j10`` is ``[9, 9]``.

Each territory belongs to a colour, whatever the number of players (the colour is printed on
the board): red ``a1–e5``, yellow ``f1–j5``, blue ``f6–j10``, green ``a6–e10``; seats go round
the board counter-clockwise seen from above. A territory whose colour nobody plays is neutral.
"""

from __future__ import annotations

from functools import lru_cache

SIZE = 10
SQUARES = SIZE * SIZE
COLUMNS = "abcdefghij"
SEATS = ("red", "yellow", "blue", "green")
#: the colour whose territory holds each quadrant: (x >= 5, y >= 5) -> colour
_QUADRANT = {(False, False): "red", (True, False): "yellow", (True, True): "blue",
             (False, True): "green"}
#: 116 identical blocks in the box (RULINGS, board)
BLOCKS_IN_BOX = 116
FLAGS_PER_PLAYER = 6
MOVEMENT_POINTS = 5
MAX_ATTACKS = 5
MAX_TAKES = 3


def square(x: int, y: int) -> int:
    return y * SIZE + x


def xy(sq: int) -> tuple[int, int]:
    return sq % SIZE, sq // SIZE


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def name(sq: int) -> str:
    x, y = xy(sq)
    return f"{COLUMNS[x]}{y + 1}"


def parse_square(text: str) -> int:
    """``"c3"`` -> its index; ValueError with a readable message otherwise."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a square (a column a–j and a row 1–10, like c3)")
    row = int(text[1:])
    if not 1 <= row <= SIZE:
        raise ValueError(f"{text!r} is not a square: rows go from 1 to 10")
    return square(COLUMNS.index(text[0]), row - 1)


def territory(sq: int) -> str:
    """The colour of the territory the square lies in."""
    x, y = xy(sq)
    return _QUADRANT[(x >= 5, y >= 5)]


@lru_cache(maxsize=None)
def territory_squares(colour: str) -> tuple[int, ...]:
    return tuple(sq for sq in range(SQUARES) if territory(sq) == colour)


def is_edge(sq: int) -> bool:
    x, y = xy(sq)
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)


@lru_cache(maxsize=None)
def neighbours(sq: int) -> tuple[int, ...]:
    """Orthogonal neighbours (a flag steps orthogonally)."""
    x, y = xy(sq)
    return tuple(square(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if on_board(x + dx, y + dy))


def adjacent(a: int, b: int) -> bool:
    return b in neighbours(a)


@lru_cache(maxsize=None)
def _lines_to_edge(sq: int) -> tuple[tuple[int, ...], ...]:
    """The squares strictly between ``sq`` and the edge, in each of the four directions."""
    x, y = xy(sq)
    lines = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        line = []
        cx, cy = x + dx, y + dy
        while on_board(cx, cy):
            line.append(square(cx, cy))
            cx, cy = cx + dx, cy + dy
        lines.append(tuple(line))
    return tuple(lines)


def is_exterior(heights: "tuple[int, ...] | list[int]", sq: int) -> bool:
    """RULINGS, exterior: one of the four straight lines from the square to the board edge
    crosses only empty squares. An edge square has an empty line (no square at all) on its
    outer side, so it is always exterior."""
    return any(all(heights[s] == 0 for s in line) for line in _lines_to_edge(sq))


def start_heights(n_players: int) -> tuple[int, ...]:
    """RULINGS, start: 4 players, every square at 1 and the central 4×4 at 2 (116 blocks);
    3 players, the outer ring empty, the inner 8×8 at 1 and the central 4×4 at 2 (80);
    2 players, the inner 8×8 at 1 (64)."""
    heights = []
    for sq in range(SQUARES):
        x, y = xy(sq)
        inner = 1 <= x <= 8 and 1 <= y <= 8
        centre = 3 <= x <= 6 and 3 <= y <= 6
        if n_players == 4:
            heights.append(2 if centre else 1)
        elif n_players == 3:
            heights.append(2 if centre else 1 if inner else 0)
        else:
            heights.append(1 if inner else 0)
    return tuple(heights)
