"""The Terra Turrium kit as the camera knows it: the printed board, the blocks and the flags.

One place for the physical numbers, shared by the reader (which looks for these things) and the
synthetic table (which draws them), so the two can never disagree. The board's geometry comes
from :mod:`calibration.boards` (what is printed); the pieces' sizes are the table kit's
defaults (``docs/table-kit.md``):

* a block is a 25 mm opaque cube; all blocks of a kit are one colour; a tower of height ``h`` is
  ``h`` blocks stacked on one 27 mm square, so its top face is the plane ``z = h × 25 mm``;
* a flag is a 6 mm pole 30 mm tall standing on a tower top, carrying a coloured head: here a
  12 mm cylinder over the pole's top 10 mm (seen from above it is a coloured disc; from the
  side a coloured drum).

Cells follow ``docs/observation/terra-turrium.md``: ``[x, y]`` with ``[0, 0]`` the square at
board marker 4, ``x`` towards marker 5, ``y`` towards marker 7 (the board frame of
:mod:`calibration.boards`).
"""

from __future__ import annotations

from calibration.boards import TERRA_TURRIUM_BOARD, BoardSpec

GAME = "terra-turrium"
BOARD: BoardSpec = TERRA_TURRIUM_BOARD
SIZE = BOARD.cols
SQUARE_MM = BOARD.square_mm
BLOCK_MM = 25.0
#: flag geometry (mm): the pole, and the coloured head at its top
POLE_DIAMETER = 6.0
POLE_HEIGHT = 30.0
HEAD_DIAMETER = 12.0
HEAD_HEIGHT = 10.0
FLAG_COLOURS = ("red", "yellow", "blue", "green")
#: the tallest tower the reader considers (the box holds 116 blocks; real towers stay far lower)
MAX_HEIGHT = 12


def cell_centre(x: int, y: int) -> tuple[float, float]:
    """Board millimetres of a square's centre."""
    return ((x + 0.5) * SQUARE_MM, (y + 0.5) * SQUARE_MM)


def top_z(height: int) -> float:
    """Height (mm) of the top face of a tower of ``height`` blocks."""
    return height * BLOCK_MM


def head_centre_z(height: int) -> float:
    """Height (mm) of the middle of a flag's head standing on a tower of ``height`` blocks."""
    return top_z(height) + POLE_HEIGHT - HEAD_HEIGHT / 2
