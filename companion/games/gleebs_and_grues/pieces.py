"""The Rainbow set, the 4×4 board and the two seats: the vocabulary every other module uses.

A pyramid is a colour and a size (1, 2 or 3 pips: small, medium, large). The board's squares are
cells ``(col, row)`` from ``(0, 0)`` to ``(3, 3)``, the same ``[col, row]`` the camera reports;
the notation names them like a chess board (``a1`` is ``(0, 0)``, ``d4`` is ``(3, 3)``).

The two players are named for the colours they control, so a seat name is also what the
dashboard shows and what the LED board lights: ``blue-yellow`` (player A of the rulings) and
``green-red`` (player B).
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("red", "yellow", "green", "blue", "black")
BLACK = "black"
GLEEB_COLOURS = ("red", "yellow", "green", "blue")
SIZES = (1, 2, 3)
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}
SIZE_BY_NAME = {name: size for size, name in SIZE_NAMES.items()}

COLOUR_CODES = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}
COLOUR_BY_CODE = {code: colour for colour, code in COLOUR_CODES.items()}
SIZE_CODES = {1: "s", 2: "m", 3: "l"}
SIZE_BY_CODE = {code: size for size, code in SIZE_CODES.items()}

#: seats in the order the dashboard offers them; each seat controls two colours
SEATS = ("blue-yellow", "green-red")
SEAT_COLOURS = {"blue-yellow": ("blue", "yellow"), "green-red": ("green", "red")}
SEAT_OF_COLOUR = {colour: seat for seat, colours in SEAT_COLOURS.items() for colour in colours}
#: the winner named when nobody wins on the table: a tie, or every gleeb eaten or pinned
GRUES = "grues"
#: how the LED board lights a seat: two RGB colours (a one-colour light uses the first)
SEAT_LED = {"blue-yellow": ("#1f5fff", "#ffd400"), "green-red": ("#10b040", "#e01010")}

SIDE = 4
CELLS: tuple[tuple[int, int], ...] = tuple((c, r) for r in range(SIDE) for c in range(SIDE))

Cell = tuple[int, int]


@dataclass(frozen=True, order=True)
class Pyramid:
    """One pyramid of the set. Gleebs are the coloured ones, grues the three black ones."""

    colour: str
    size: int

    @property
    def is_grue(self) -> bool:
        return self.colour == BLACK

    @property
    def code(self) -> str:
        """``Ys`` for the small yellow, ``Kl`` for the large grue."""
        return COLOUR_CODES[self.colour] + SIZE_CODES[self.size]

    @property
    def size_name(self) -> str:
        return SIZE_NAMES[self.size]

    def describe(self, lang: str = "en") -> str:
        if lang == "fr":
            taille = {1: "petit", 2: "moyen", 3: "grand"}[self.size]
            if self.is_grue:
                return {1: "petite", 2: "moyenne", 3: "grande"}[self.size] + " grue"
            couleur = {"red": "rouge", "yellow": "jaune", "green": "vert", "blue": "bleu"}
            return f"{taille} blaireau {couleur[self.colour]}"
        kind = "grue" if self.is_grue else f"{self.colour} gleeb"
        return f"{self.size_name} {kind}"

    def to_json(self) -> dict[str, str]:
        return {"colour": self.colour, "size": self.size_name}


#: the whole Rainbow set: four colours of gleebs and the three grues
RAINBOW: tuple[Pyramid, ...] = tuple(Pyramid(c, s) for c in COLOURS for s in SIZES)
GLEEBS: tuple[Pyramid, ...] = tuple(p for p in RAINBOW if not p.is_grue)
GRUE_PIECES: tuple[Pyramid, ...] = tuple(p for p in RAINBOW if p.is_grue)


def pyramid_from_code(code: str) -> Pyramid:
    """``Ys`` -> small yellow; raises ValueError for anything else."""
    if len(code) != 2 or code[0].upper() not in COLOUR_BY_CODE or code[1].lower() not in SIZE_BY_CODE:
        raise ValueError(f"{code!r} is not a pyramid code (colour R Y G B K, size s m l: 'Ys')")
    return Pyramid(COLOUR_BY_CODE[code[0].upper()], SIZE_BY_CODE[code[1].lower()])


def index(cell: Cell) -> int:
    return cell[1] * SIDE + cell[0]


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < SIDE and 0 <= cell[1] < SIDE


def cell_name(cell: Cell) -> str:
    """``(0, 0)`` -> ``a1``: the column is the letter, the row the number."""
    return "abcd"[cell[0]] + str(cell[1] + 1)


def cell_from_name(name: str) -> Cell:
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in "abcd" or name[1] not in "1234":
        raise ValueError(f"{name!r} is not a square of the 4×4 board (a1 to d4)")
    return ("abcd".index(name[0]), int(name[1]) - 1)


def in_line(a: Cell, b: Cell) -> bool:
    """Same row or same column, and not the same square: the only way anything moves."""
    return a != b and (a[0] == b[0] or a[1] == b[1])


def on_diagonal(a: Cell, b: Cell) -> bool:
    return a != b and abs(a[0] - b[0]) == abs(a[1] - b[1])


def line_cells(cell: Cell) -> tuple[Cell, ...]:
    """The six squares in line with ``cell`` (any distance: pieces jump whatever is between)."""
    return tuple(c for c in CELLS if in_line(cell, c))
