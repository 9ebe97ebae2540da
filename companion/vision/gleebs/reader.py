"""The Gleeb's and Grues camera reader: a frame in, the pyramids on the board out.

``make_reader(calibration=..., colours=...)`` gives a reader whose ``read(frame)`` returns an
:class:`~companion.observation.Observation` in the format of
``docs/observation/gleebs-and-grues.md`` (a ``pyramid`` per visible pyramid: ``cell``, ``level``,
``colour``, ``size``, ``conf``), ``Observation(hand=True)`` when a hand or an arm is over the
board, or None when the board cannot be seen (none of its markers 4–7 in view, not a picture).

A reading, step by step (the modules beside this one):

1. the board's markers give the camera in the board frame (:mod:`.board`; kept while the camera
   and the board stay still);
2. the frame is resampled onto the board's plane and every pixel named: paper (lit or in
   shadow), a pyramid colour, or other (:mod:`.labels`), against the white of the board's own
   paper;
3. each square's stack is read from that picture (:mod:`.stacks`);
4. what the stacks do not explain, and grid lines gone missing, reveal a hand (:mod:`.hands`).

``annotate(image, observation)`` draws a reading over the frame for a person to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.boards import GLEEBS_BOARD, BoardSpec
from companion.errors import BadInput
from companion.observation import Observation, Piece
from companion.vision.camera import CameraModel, View
from companion.vision.colours import GAME_PALETTES, ColourModel, estimate_white
from companion.vision.gleebs import hands
from companion.vision.gleebs.board import BoardLocator, BoardView, Rectifier, camera_ppm, ink_mask, rectifier
from companion.vision.gleebs.geometry import SIZES
from companion.vision.gleebs.labels import Labeller
from companion.vision.gleebs.stacks import MAX_TOP_MM, StackReader, StackReading

GAME = "gleebs-and-grues"
KIND = "pyramid"


@dataclass
class _Plane:
    """What depends only on where the camera is: the resampling and the print mask."""

    board: BoardView
    rect: Rectifier
    ink: np.ndarray
    paper: np.ndarray  # plane pixels of blank page around the board (white reference)
    shade_sample: np.ndarray  # where paper's shadows are studied: along the lines, round the grid
    squares: dict = field(default_factory=dict)  # each square's window and zone on the plane


@dataclass(frozen=True)
class LastReading:
    """What the last frame gave: a ``message`` when it could not be read, and the ``view`` (the
    camera in the board frame) when the board was found."""

    message: str
    view: View | None


class GleebsReader:
    """Reads frames of one camera. Not thread-safe: one reader per camera loop."""

    def __init__(self, camera: CameraModel | None = None, colours: ColourModel | None = None,
                 spec: BoardSpec = GLEEBS_BOARD):
        self.spec = spec
        self.locator = BoardLocator(camera, spec)
        self.colours = colours or ColourModel.default(GAME_PALETTES[GAME])
        self.labeller = Labeller(self.colours)
        self._plane: _Plane | None = None
        #: the last reading's details (stacks, hand check), for the annotation and for tests
        self.last_stacks: list[StackReading] = []
        self.last_hand: hands.HandCheck | None = None
        self.last_labels: np.ndarray | None = None
        self.last_explained: np.ndarray | None = None
        #: why the last frame gave no reading, and the camera it was read with
        self.last = LastReading("", None)

    # ------------------------------------------------------------------------------ reading
    def read(self, frame: Any) -> Observation | None:
        """The observation of one frame (a :class:`~companion.vision.frames.Frame` or a BGR
        image), or None when the board cannot be seen in it."""
        image = getattr(frame, "image", frame)
        index = getattr(frame, "index", None)
        t = getattr(frame, "t", None)
        img = _check_image(image)
        board = self.locator.locate(img)
        if board is None:
            self.last = LastReading("none of the board's markers 4-7 can be seen: the printed board "
                                    "must be in view, flat, its four corner markers uncovered", None)
            return None
        plane = self._plane_for(board)
        picture = plane.rect.warp(img)
        smooth = cv2.blur(picture, (3, 3))
        white = _white(smooth, plane.paper)
        if white is None:
            self.last = LastReading("the board's paper cannot be seen round its squares", board.view)
            return None
        labels = self.labeller.label(smooth, white, sample=plane.shade_sample, paper=plane.paper)
        grey = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY).astype(np.float32)
        reader = StackReader(plane.rect, labels, plane.ink, self.spec, plane.squares, grey)
        stacks = reader.read_all()
        check = hands.check(plane.rect, labels, grey, plane.ink, reader.explained, self.spec)
        self.last_stacks, self.last_hand = stacks, check
        self.last_labels, self.last_explained = labels, reader.explained
        info = _board_info(board)
        self.last = LastReading("", board.view)
        if check.hand:
            return Observation(game=GAME, pieces=(), frame=index, t=t, hand=True, board=info)
        pieces = []
        for s in sorted(stacks, key=lambda s: (s.cell[1], s.cell[0])):
            for level, lv in enumerate(s.levels):
                pieces.append(Piece(kind=KIND, conf=lv.conf, cell=s.cell, level=level,
                                    attrs={"colour": lv.colour, "size": lv.size}))
        return Observation(game=GAME, pieces=tuple(pieces), frame=index, t=t, board=info)

    def annotate(self, image: np.ndarray, observation: Observation) -> np.ndarray:
        """``image`` with ``observation`` drawn over it (see :func:`annotate`)."""
        return annotate(image, observation)

    def _plane_for(self, board: BoardView) -> _Plane:
        if self._plane is not None and self._plane.board is board:
            return self._plane
        rect = rectifier(board.view, _region(board.view, self.spec))
        blur_mm = 1.0 + 1.2 / max(camera_ppm(board.view, self.spec), 0.3)
        ink = ink_mask(rect, blur_mm, self.spec)
        self._plane = _Plane(board, rect, ink, _paper_sample(rect, ink, self.spec),
                             _shade_sample(rect, ink, self.spec))
        return self._plane


def _check_image(image: Any) -> np.ndarray:
    img = np.asarray(image) if image is not None else None
    if img is None or img.ndim != 3 or img.shape[2] != 3 or img.shape[0] < 16 or img.shape[1] < 16:
        shape = None if img is None else img.shape
        raise BadInput(f"not a colour picture: an array of shape {shape}",
                       hint="give a BGR image from a camera or an image file")
    if img.dtype != np.uint8:
        img = cv2.convertScaleAbs(img)
    return img


def _region(view: View, spec: BoardSpec) -> tuple[float, float, float, float]:
    """The part of the board plane to look at: the squares with a ring for the hand check, and
    wherever the tallest stack on any square can lean to in this view."""
    pts = [np.array([[-hands.RING_MM - 4, -hands.RING_MM - 4],
                     [spec.width_mm + hands.RING_MM + 4, spec.height_mm + hands.RING_MM + 4]])]
    C = view.pose.camera_position
    s = C[2] / max(C[2] - MAX_TOP_MM, 1.0)
    reach = SIZES["large"].base
    for x in (0.0, spec.width_mm):
        for y in (0.0, spec.height_mm):
            q = np.array([x, y])
            pts.append((C[:2] + (q - C[:2]) * s)[None] + np.array([[-reach, -reach], [reach, reach]]) * 0.3)
    allp = np.concatenate(pts)
    x0, y0 = np.floor(allp.min(axis=0) / 5) * 5
    x1, y1 = np.ceil(allp.max(axis=0) / 5) * 5
    x0, y0 = max(x0, -70.0), max(y0, -70.0)
    x1, y1 = min(x1, spec.width_mm + 70.0), min(y1, spec.height_mm + 70.0)
    return float(x0), float(y0), float(x1), float(y1)


def _paper_sample(rect: Rectifier, ink: np.ndarray, spec: BoardSpec) -> np.ndarray:
    """Plane pixels (flat indices) of blank paper just outside the grid, between the markers:
    the white reference is read there."""
    mask = np.zeros((rect.height, rect.width), np.uint8)
    bands = [(-5.0, 45.0, -1.5, 135.0), (spec.width_mm + 1.5, 45.0, spec.width_mm + 5.0, 135.0),
             (0.0, -5.0, spec.width_mm, -1.5), (0.0, spec.height_mm + 1.5, spec.width_mm, spec.height_mm + 5.0)]
    for x0, y0, x1, y1 in bands:
        a = rect.to_px(np.array([[x0, y0], [x1, y1]]))
        u0, v0 = np.floor(a.min(axis=0)).astype(int)
        u1, v1 = np.ceil(a.max(axis=0)).astype(int)
        mask[max(v0, 0):max(v1, 0), max(u0, 0):max(u1, 0)] = 1
    mask[ink > 0] = 0
    return np.flatnonzero(mask)


def _shade_sample(rect: Rectifier, ink: np.ndarray, spec: BoardSpec) -> np.ndarray:
    """Plane pixels (0/1) where the paper's shadows are studied: along the grid lines and
    round the grid, where shadows fall across the paper but the pyramids, standing in the
    middle of their squares, seldom reach."""
    band = 8.0
    mask = np.zeros((rect.height, rect.width), np.uint8)
    s = spec.square_mm
    boxes = [(k * s - band, -band, k * s + band, spec.height_mm + band) for k in range(spec.cols + 1)]
    boxes += [(-band, k * s - band, spec.width_mm + band, k * s + band) for k in range(spec.rows + 1)]
    boxes += [(-22.0, -22.0, spec.width_mm + 22.0, 0.0), (-22.0, spec.height_mm, spec.width_mm + 22.0, spec.height_mm + 22.0),
              (-22.0, 0.0, 0.0, spec.height_mm), (spec.width_mm, 0.0, spec.width_mm + 22.0, spec.height_mm)]
    for x0, y0, x1, y1 in boxes:
        a = rect.to_px(np.array([[x0, y0], [x1, y1]]))
        u0, v0 = np.floor(a.min(axis=0)).astype(int)
        u1, v1 = np.ceil(a.max(axis=0)).astype(int)
        mask[max(v0, 0):max(v1, 0), max(u0, 0):max(u1, 0)] = 1
    mask[ink > 0] = 0
    return mask


def _white(picture: np.ndarray, paper: np.ndarray) -> tuple[float, float, float] | None:
    px = picture.reshape(-1, 3)[paper]
    if len(px) < 50:
        return None
    try:
        return estimate_white(px.astype(np.float32), top_fraction=0.3)
    except BadInput:
        return None


def _board_info(board: BoardView) -> dict[str, Any]:
    return {"markers": list(board.markers), "reprojection_px": round(board.rms_px, 3),
            "lens": "estimated from the board markers" if board.focal_estimated else "calibrated",
            "view": board.view.to_json()}


# ------------------------------------------------------------------------------ factory
def make_reader(*, calibration: Any = None, layout: Any = None, colours: ColourModel | None = None,
                camera: CameraModel | None = None, size: tuple[int, int] | None = None,
                game: str | None = None) -> GleebsReader:
    """The reader for a table, as the registry builds it (:mod:`companion.vision.readers`).
    ``calibration`` is what :func:`calibration.store.load_calibration` gives: its lens is used
    when there is one (scaled to the frames' ``size`` when given; otherwise the board's markers
    give an estimate), and the game's learned colours are read from beside it unless
    ``colours`` is given. ``layout`` (the table markers) is not needed: the board's own markers
    place everything. ``game`` is this reader's game when given."""
    if game is not None and game != GAME:
        raise BadInput(f"this is the {GAME} reader, not one for {game}")
    cam = camera
    if cam is None and calibration is not None:
        if size is not None and hasattr(calibration, "camera_for"):
            cam = calibration.camera_for(size)
        else:
            cam = getattr(calibration, "camera", None)
    if colours is None and calibration is not None and getattr(calibration, "path", None) is not None:
        from calibration.store import load_colours

        colours = load_colours(GAME, calibration.path)
    return GleebsReader(cam, colours)


# ------------------------------------------------------------------------------ drawing
_BGR = {"red": (40, 40, 230), "yellow": (0, 215, 255), "green": (40, 170, 40), "blue": (230, 110, 20),
        "black": (30, 30, 30)}
_CODE = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K"}


def annotate(image: np.ndarray, observation: Observation) -> np.ndarray:
    """A copy of ``image`` with the reading drawn on it: the board's squares, and on each square
    its visible pyramids bottom to top (``Rl/Gs``: a small green on a large red), a ring per
    pyramid in its colour, its confidence; or a warning when a hand was over the board."""
    out = _check_image(image).copy()
    view = None
    data = observation.board.get("view") if observation.board else None
    if isinstance(data, dict):
        try:
            view = View.from_json(data)
        except (BadInput, KeyError, TypeError):
            view = None
    if view is None:
        board = BoardLocator().locate(out)
        view = board.view if board is not None else None
    if view is None:
        cv2.putText(out, "board not found", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2, cv2.LINE_AA)
        return out
    spec = GLEEBS_BOARD
    s = spec.square_mm
    for k in range(spec.cols + 1):
        a = view.project(np.array([[k * s, 0, 0], [k * s, spec.height_mm, 0]]))
        cv2.line(out, tuple(np.round(a[0]).astype(int)), tuple(np.round(a[1]).astype(int)), (0, 200, 255), 1, cv2.LINE_AA)
    for k in range(spec.rows + 1):
        a = view.project(np.array([[0, k * s, 0], [spec.width_mm, k * s, 0]]))
        cv2.line(out, tuple(np.round(a[0]).astype(int)), tuple(np.round(a[1]).astype(int)), (0, 200, 255), 1, cv2.LINE_AA)
    if observation.hand:
        c = view.project(np.array([[spec.width_mm / 2, spec.height_mm / 2, 0]]))[0]
        cv2.putText(out, "HAND - not read", (int(c[0]) - 120, int(c[1])), cv2.FONT_HERSHEY_SIMPLEX,
                    1.0, (0, 0, 255), 3, cv2.LINE_AA)
        return out
    by_cell: dict[tuple[int, int], list[Piece]] = {}
    for p in observation.of_kind(KIND):
        if p.cell is not None:
            by_cell.setdefault((p.cell[0], p.cell[1]), []).append(p)
    for cell, pieces in by_cell.items():
        pieces.sort(key=lambda p: p.level or 0)
        if not (0 <= cell[0] < spec.cols and 0 <= cell[1] < spec.rows):
            continue
        cx, cy = spec.cell_centre(*cell)
        centre = view.project(np.array([[cx, cy, 0.0]]))[0]
        edge = view.project(np.array([[cx + s * 0.3, cy, 0.0]]))[0]
        radius = float(np.linalg.norm(edge - centre))
        for k, p in enumerate(pieces):
            colour = _BGR.get(str(p.get("colour")), (255, 0, 255))
            r = max(3, int(radius * (1.0 - 0.22 * k)))
            cv2.circle(out, tuple(np.round(centre).astype(int)), r, (255, 255, 255), 4, cv2.LINE_AA)
            cv2.circle(out, tuple(np.round(centre).astype(int)), r, colour, 2, cv2.LINE_AA)
        text = "/".join(_CODE.get(str(p.get("colour")), "?") + str(p.get("size", "?"))[:1] for p in pieces)
        conf = min(p.conf for p in pieces)
        org = (int(centre[0] - radius), int(centre[1] + radius + 16))
        for colour, thick in (((255, 255, 255), 4), ((20, 20, 20), 1)):
            cv2.putText(out, f"{text} {conf:.2f}", org, cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, thick, cv2.LINE_AA)
    return out
