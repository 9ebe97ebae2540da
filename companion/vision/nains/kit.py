"""The La Ville des Nains kit as the camera knows it: stones, dice, their sizes and colours.

One place for the physical numbers (``docs/table-kit.md``), shared by the reader (which looks for
these things) and the synthetic table (which draws them), so the two cannot disagree:

* stones of four building colours (and blue for the kobold's tower), in four shapes: the cube
  (20 mm), the long block (40 × 20 × 20, lying flat), the cylinder (20 mm across, 20 tall) and
  the roof (a prism on a 20 × 20 base, 15 tall, its ridge along one side). Every stone but the
  roof is 20 mm tall, and a roof only ever goes on top, so a building's level ``k`` starts at
  ``z = 20 k``;
* 16 mm dice: the colour dice carry one colour on each face; the kobold die is ivory with black
  marks: blank, one pip (twice), two pips (twice) and the kobold's head. Its blank face looks
  like a colour die's white face, which costs nothing: a die with marks is the kobold die, and
  among four dice with no marks one white face is the kobold die's blank.

Vision knows pieces, never rules: these names are what the camera can tell apart.
"""

from __future__ import annotations

GAME = "ville-des-nains"

#: building colours, and the kobold's
STONE_COLOURS = ("red", "orange", "yellow", "violet")
KOBOLD_COLOUR = "blue"
#: every colour a stone or a colour die's face can have, and the white of the die's joker face:
#: the palette a colour calibration learns (``GAME_PALETTES["ville-des-nains"]``)
PALETTE = ("red", "orange", "yellow", "violet", "blue", "white")
SHAPES = ("cube", "long", "cylinder", "roof")
#: faces of a colour die and of the kobold die, as the observation names them
COLOUR_FACES = ("yellow", "orange", "red", "violet", "white", "blue")
KOBOLD_FACES = ("0", "1", "2", "kobold")
#: the kobold die's six faces (the box's default: blank, 1, 1, 2, 2, kobold)
KOBOLD_DIE = ("0", "1", "1", "2", "2", "kobold")
#: the seats of the dwarves, each with an area of its own on the table
SEATS = ("green", "white", "pink", "cyan", "brown", "grey")

STONE_MM = 20.0
LONG_MM = 40.0
ROOF_MM = 15.0
DIE_MM = 16.0
#: the kobold's blue stones are cubes
KOBOLD_SHAPE = "cube"
#: the tallest building (beach side: towers of seven) and kobold tower the reader considers
MAX_LEVELS = 8
MAX_TOWER = 12


def stone_height(shape: str) -> float:
    """Height (mm) of a stone standing on its base."""
    return ROOF_MM if shape == "roof" else STONE_MM


def level_z(level: int) -> float:
    """Height (mm) of the base of a building's stone at ``level``."""
    return level * STONE_MM
