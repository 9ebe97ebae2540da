"""Where everything printed is: the table markers, the game boards, the calibration targets.

One data module, imported by the sheet generator (which prints these things) and by the readers
(which look for them), so the two can never disagree.

Conventions (see ``shared/table-kit.md``):

* ArUco dictionary ``DICT_4X4_50``; a marker's size includes its black border; a marker is
  printed *upright*: its top edge points along +y of the frame it belongs to.
* A frame is right-handed, millimetres, z up out of the paper, seen from above with x to the
  right and y away from the viewer (up the page).
* Table markers 0–3 lie counter-clockwise: 0 at the origin, 1 along +x, 2 opposite 0, 3 along +y.
* A printed board's markers 4–7 lie the same way around its squares. The board frame has its
  origin at the outer corner of square (0, 0), next to marker 4; x runs along the row toward
  marker 5, y toward marker 7. Square (col, row) spans ``[col·s, (col+1)·s] × [row·s, (row+1)·s]``.
  Each marker sits beside a corner of the grid, outside it, aligned with the first or last row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np

from companion.errors import BadInput

#: The ArUco dictionary of the table and board markers.
ARUCO_DICT = "DICT_4X4_50"
#: A marker's width including its black border; 6 cells of 6.67 mm (4 data + 2 border).
MARKER_MM = 40.0
#: Cells across a marker of :data:`ARUCO_DICT`, border included.
MARKER_CELLS = 6
TABLE_MARKER_IDS = (0, 1, 2, 3)
BOARD_MARKER_IDS = (4, 5, 6, 7)
#: The colour sheet (``companion calibrate colours``) carries these at its corners.
COLOUR_SHEET_MARKER_IDS = (8, 9, 10, 11)
#: White paper a detector needs around a marker (one cell is the minimum; two is safe).
QUIET_ZONE_MM = 2 * MARKER_MM / MARKER_CELLS

#: Default play area: distance between the table markers' centres along x and y.
DEFAULT_TABLE_MM = (600.0, 600.0)


@dataclass(frozen=True)
class MarkerPlacement:
    """One marker lying in a frame: its centre, its rotation about z (counter-clockwise from
    upright, degrees) and its size."""

    id: int
    centre: tuple[float, float]
    yaw_deg: float = 0.0
    size_mm: float = MARKER_MM

    def corners(self) -> np.ndarray:
        """Its four corners (4×3, z = 0) in ArUco's order: top-left, top-right, bottom-right,
        bottom-left of the printed marker ("top" = +y when upright)."""
        h = self.size_mm / 2
        local = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
        a = math.radians(self.yaw_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        xy = local @ rot.T + np.array(self.centre)
        return np.hstack([xy, np.zeros((4, 1))])

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "centre": [round(self.centre[0], 3), round(self.centre[1], 3)],
                "yaw_deg": round(self.yaw_deg, 4), "size_mm": self.size_mm}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "MarkerPlacement":
        try:
            return cls(int(data["id"]), (float(data["centre"][0]), float(data["centre"][1])),
                       float(data.get("yaw_deg", 0.0)), float(data.get("size_mm", MARKER_MM)))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BadInput(f"not a marker placement ({exc!r})") from None


@dataclass(frozen=True)
class TableLayout:
    """Where the table markers lie, in table millimetres. The default is a rectangle of the
    configured size; ``companion calibrate table`` measures the real positions (a marker a few
    millimetres off, or turned a little, no longer costs accuracy)."""

    markers: tuple[MarkerPlacement, ...]
    measured: bool = False

    @classmethod
    def rectangle(cls, width_mm: float = DEFAULT_TABLE_MM[0], depth_mm: float = DEFAULT_TABLE_MM[1],
                  size_mm: float = MARKER_MM) -> "TableLayout":
        if not (50.0 <= width_mm <= 5000.0 and 50.0 <= depth_mm <= 5000.0):
            raise BadInput(f"a play area of {width_mm:g} × {depth_mm:g} mm is out of range",
                           hint="give the distance between marker centres, 50 to 5000 mm")
        pos = {0: (0.0, 0.0), 1: (width_mm, 0.0), 2: (width_mm, depth_mm), 3: (0.0, depth_mm)}
        return cls(tuple(MarkerPlacement(i, pos[i], 0.0, size_mm) for i in TABLE_MARKER_IDS))

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.markers)

    def marker(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    @property
    def extent_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the marker centres: the play area."""
        xy = np.array([m.centre for m in self.markers])
        return (float(xy[:, 0].min()), float(xy[:, 1].min()), float(xy[:, 0].max()), float(xy[:, 1].max()))

    def to_json(self) -> dict[str, Any]:
        return {"measured": self.measured, "markers": [m.to_json() for m in self.markers]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "TableLayout":
        try:
            markers = tuple(MarkerPlacement.from_json(m) for m in data["markers"])
        except (KeyError, TypeError) as exc:
            raise BadInput(f"not a table layout ({exc!r})") from None
        if not markers or len({m.id for m in markers}) != len(markers):
            raise BadInput("a table layout lists each of its markers once")
        return cls(markers, bool(data.get("measured", False)))


@dataclass(frozen=True)
class BoardSpec:
    """A printed game board: ``cols`` × ``rows`` squares of ``square_mm``, markers 4–7 beside its
    corners (see the module docstring for the frame)."""

    name: str
    title: str
    cols: int
    rows: int
    square_mm: float
    marker_mm: float = MARKER_MM
    marker_gap_mm: float = 6.0
    #: squares per territory side, for boards divided into territories (Terra Turrium: 5)
    territory: int | None = None
    markers: tuple[MarkerPlacement, ...] = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.width_mm, self.height_mm
        dx = self.marker_gap_mm + self.marker_mm / 2
        half = self.marker_mm / 2
        centres = {4: (-dx, half), 5: (w + dx, half), 6: (w + dx, h - half), 7: (-dx, h - half)}
        object.__setattr__(self, "markers", tuple(
            MarkerPlacement(i, centres[i], 0.0, self.marker_mm) for i in BOARD_MARKER_IDS))

    @property
    def width_mm(self) -> float:
        return self.cols * self.square_mm

    @property
    def height_mm(self) -> float:
        return self.rows * self.square_mm

    @property
    def extent_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of everything printed (squares and markers), board frame."""
        dx = self.marker_gap_mm + self.marker_mm
        return (-dx, 0.0, self.width_mm + dx, self.height_mm)

    def marker(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    def marker_centres(self) -> dict[int, tuple[float, float]]:
        return {m.id: m.centre for m in self.markers}

    def cell_centre(self, col: int, row: int) -> tuple[float, float]:
        self._check_cell(col, row)
        return ((col + 0.5) * self.square_mm, (row + 0.5) * self.square_mm)

    def cell_corners(self, col: int, row: int) -> np.ndarray:
        """4×2 corners of a square, counter-clockwise from its (x0, y0) corner."""
        self._check_cell(col, row)
        s = self.square_mm
        x0, y0 = col * s, row * s
        return np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]])

    def cell_at(self, x_mm: float, y_mm: float) -> tuple[int, int] | None:
        """The square under a board point, or None off the grid."""
        col, row = math.floor(x_mm / self.square_mm), math.floor(y_mm / self.square_mm)
        return (col, row) if 0 <= col < self.cols and 0 <= row < self.rows else None

    def territory_of(self, col: int, row: int) -> int | None:
        """Territory index of a square (0 at the origin, counting along x first), if any."""
        if self.territory is None:
            return None
        self._check_cell(col, row)
        per_row = math.ceil(self.cols / self.territory)
        return (row // self.territory) * per_row + col // self.territory

    def _check_cell(self, col: int, row: int) -> None:
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise BadInput(f"square ({col}, {row}) is not on the {self.title} board "
                           f"({self.cols} × {self.rows})")


GLEEBS_BOARD = BoardSpec("gleebs-and-grues", "Gleeb's and Grues", 4, 4, 45.0)
TERRA_TURRIUM_BOARD = BoardSpec("terra-turrium", "Terra Turrium", 10, 10, 27.0, territory=5)
#: Printed boards by game name.
BOARDS: dict[str, BoardSpec] = {b.name: b for b in (GLEEBS_BOARD, TERRA_TURRIUM_BOARD)}


def board_for(game: str) -> BoardSpec:
    try:
        return BOARDS[game]
    except KeyError:
        raise BadInput(f"no printed board for {game!r}", hint=f"boards: {', '.join(BOARDS)}") from None


@dataclass(frozen=True)
class CharucoSpec:
    """The ChArUco calibration board: a chessboard with ArUco markers in its white squares, so
    every corner is identified even when the board is partly out of view. It uses its own
    dictionary, so it is never mistaken for the table markers."""

    squares_x: int = 8
    squares_y: int = 5
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_100"

    @property
    def width_mm(self) -> float:
        return self.squares_x * self.square_mm

    @property
    def height_mm(self) -> float:
        return self.squares_y * self.square_mm

    def board(self):
        """The OpenCV board object (imports OpenCV)."""
        import cv2

        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm,
                                      self.marker_mm, dictionary)


CHARUCO = CharucoSpec()


@dataclass(frozen=True)
class ChessboardSpec:
    """A plain chessboard: ``cols`` × ``rows`` *inner* corners, squares of ``square_mm``."""

    cols: int = 9
    rows: int = 6
    square_mm: float = 25.0

    def object_points(self) -> np.ndarray:
        """Inner corners in board millimetres (N×3, z = 0), row by row, as OpenCV finds them."""
        grid = np.mgrid[0:self.cols, 0:self.rows].T.reshape(-1, 2) * self.square_mm
        return np.hstack([grid, np.zeros((len(grid), 1))]).astype(np.float32)


CHESSBOARD = ChessboardSpec()


@dataclass(frozen=True)
class ColourSheetSpec:
    """The colour sheet: numbered grey spots where the user lays one piece of each colour, the
    sheet's white paper serving as the white reference, markers 8–11 at its corners (in the
    board-frame convention: 8 at the origin, 9 along +x, 10 opposite, 11 along +y)."""

    width_mm: float = 275.0
    height_mm: float = 190.0
    spot_mm: float = 40.0
    cols: int = 3
    rows: int = 2
    marker_mm: float = MARKER_MM

    @property
    def markers(self) -> tuple[MarkerPlacement, ...]:
        h = self.marker_mm / 2 + 8.0  # inset: white paper all round, even on a dark table
        w, d = self.width_mm, self.height_mm
        pos = {8: (h, h), 9: (w - h, h), 10: (w - h, d - h), 11: (h, d - h)}
        return tuple(MarkerPlacement(i, pos[i], 0.0, self.marker_mm) for i in COLOUR_SHEET_MARKER_IDS)

    def spots(self) -> list[tuple[float, float]]:
        """Spot centres (sheet mm), numbered 1.. in reading order of the printed sheet (top
        row first, left to right)."""
        pitch = self.spot_mm + 15.0
        xs = self.width_mm / 2 + (np.arange(self.cols) - (self.cols - 1) / 2) * pitch
        ys = self.height_mm / 2 + 8.0 - (np.arange(self.rows) - (self.rows - 1) / 2) * pitch
        return [(float(x), float(y)) for y in ys for x in xs]


COLOUR_SHEET = ColourSheetSpec()


def marker_object_points(placements: Iterable[MarkerPlacement]) -> dict[int, np.ndarray]:
    """Corner coordinates (4×3) of each placement by id."""
    return {m.id: m.corners() for m in placements}
