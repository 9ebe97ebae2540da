"""Ground truth of a rendered Terra Turrium frame: the observation an ideal reader makes, and
how much of each piece the camera can see.

The ideal observation is the engine's own format (``docs/observation/terra-turrium.md``): one
``tower`` per square with blocks (``level`` = its height), one ``flag`` per flag with its
colour and square. Each square also gets its *visible fraction*: the share of its top face (of
the printed square, when it is empty) that shows in the image, counted on the renderer's id map.
A square whose top is wholly hidden behind taller towers cannot be read from this picture
alone; the figures count those apart (:data:`MIN_VISIBLE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observation import Observation, Piece
from companion.synth.scene import Shot
from companion.synth.terra.render import (
    BOARD_ID, FLAG_ID, HAND_ID, POLE_ID, SIDE_ID, TOP_ID, RenderedTerra,
)
from companion.synth.terra.scene import TerraScene
from companion.vision.camera import TablePose, View
from companion.vision.terra.kit import (
    BLOCK_MM, BOARD, GAME, HEAD_DIAMETER, POLE_HEIGHT, SIZE, SQUARE_MM, head_centre_z,
)

#: a square is readable from one picture when at least this share of its top shows
MIN_VISIBLE = 0.25
#: a frame has a hand over the board when at least this many pixels of arm lie over the play
#: area as the camera sees it: the grid's squares and every tower (and flag) standing on them
MIN_HAND_PX = 150


@dataclass(frozen=True)
class TerraTruth:
    """Ground truth of one frame."""

    observation: Observation
    heights: tuple[int, ...]
    flags: tuple[tuple[str, tuple[int, int]], ...]
    visible: tuple[float, ...]        # per square, index y * 10 + x
    flag_visible: tuple[float, ...]   # per flag, in the scene's order
    hand: bool                        # an arm is in the scene
    hand_over_board: bool             # ... and shows over the grid
    hand_cover: tuple[float, ...]     # per square: the share of its top the arm covers
    view: View                        # the camera, table frame
    board_view: View                  # the camera, board frame (cells are read in it)
    #: per square: the share of the top of a block on its tower (where the top of a block lifted
    #: from it was) that nearer pieces leave in view (:func:`visible_above`)
    visible_above: tuple[float, ...] = ()

    def readable(self, square: int) -> bool:
        return self.visible[square] >= MIN_VISIBLE

    def to_json(self) -> dict[str, Any]:
        """Plain data for :class:`~companion.vision.frames.Frame.truth`."""
        return {"observation": self.observation.to_json(), "heights": list(self.heights),
                "flags": [[c, list(cell)] for c, cell in self.flags],
                "visible": [round(v, 3) for v in self.visible],
                "visible_above": [round(v, 3) for v in self.visible_above],
                "flag_visible": [round(v, 3) for v in self.flag_visible],
                "hand": self.hand, "hand_over_board": self.hand_over_board,
                "hand_cover": [round(v, 3) for v in self.hand_cover],
                "view": self.view.to_json(), "board_view": self.board_view.to_json()}


def board_view(scene: TerraScene, view: View) -> View:
    """The camera seen from the board's frame (board mm → camera)."""
    R2 = scene.rotation
    Rb = np.array([[R2[0, 0], R2[0, 1], 0.0], [R2[1, 0], R2[1, 1], 0.0], [0.0, 0.0, 1.0]])
    tb = np.array([scene.board_origin[0], scene.board_origin[1], 0.0])
    R, t = view.pose.R, view.pose.t
    return View(view.camera, TablePose.from_Rt(R @ Rb, R @ tb + t))


def ideal_observation(scene: TerraScene, *, hand: bool = False) -> Observation:
    """What a perfect reader reports for ``scene`` (documented format)."""
    if hand:
        return Observation(game=GAME, hand=True)
    pieces = [Piece("tower", cell=(sq % SIZE, sq // SIZE), level=h)
              for sq, h in enumerate(scene.heights) if h > 0]
    pieces += [Piece("flag", cell=f.cell, level=scene.height(*f.cell), attrs={"colour": f.colour})
               for f in scene.flags]
    return Observation(game=GAME, pieces=tuple(pieces))


def _share(ids: np.ndarray, quad_px: np.ndarray, ident: int) -> float:
    """Share of the polygon ``quad_px`` whose pixels show ``ident``."""
    h, w = ids.shape
    x0, y0 = np.floor(quad_px.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int) + 1
    if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h or not np.all(np.isfinite(quad_px)):
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad_px - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    area = int(mask.sum())
    if area == 0:
        return 0.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    sub = ids[cy0:cy1, cx0:cx1] == ident
    m = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    return float((sub & (m > 0)).sum()) / area


def make_truth(scene: TerraScene, shot: Shot, rendered: RenderedTerra) -> TerraTruth:
    view = shot.view
    bview = board_view(scene, view)
    ids = rendered.ids
    visible = []
    cover = []
    for sq, h in enumerate(scene.heights):
        x, y = sq % SIZE, sq // SIZE
        if h > 0:
            offs = scene.block_offsets(x, y)[-1]
            cx, cy = (x + 0.5) * SQUARE_MM + offs[0], (y + 0.5) * SQUARE_MM + offs[1]
            half = BLOCK_MM / 2 * 0.97
            corners = np.array([[cx - half, cy - half], [cx + half, cy - half],
                                [cx + half, cy + half], [cx - half, cy + half]])
            pts = np.column_stack([corners, np.full(4, h * BLOCK_MM)])
            visible.append(_share(ids, bview.project(pts), TOP_ID + sq))
        else:
            corners = BOARD.cell_corners(x, y)
            pts = np.column_stack([corners, np.zeros(4)])
            visible.append(_share(ids, bview.project(pts), BOARD_ID))
        cover.append(_share(ids, bview.project(pts), HAND_ID) if scene.hand is not None else 0.0)
    counts = np.bincount(ids.ravel().astype(np.int64), minlength=HAND_ID + 1)
    flag_vis = []
    ang = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    for n, f in enumerate(scene.flags):
        cx, cy = (f.cell[0] + 0.5) * SQUARE_MM, (f.cell[1] + 0.5) * SQUARE_MM
        z = head_centre_z(scene.height(*f.cell))
        ring = np.column_stack([cx + HEAD_DIAMETER / 2 * np.cos(ang), cy + HEAD_DIAMETER / 2 * np.sin(ang)])
        pts = np.concatenate([np.column_stack([ring, np.full(12, z - 5.0)]), np.column_stack([ring, np.full(12, z + 5.0)])])
        px = bview.project(pts).astype(np.float32)
        area = cv2.contourArea(cv2.convexHull(px))
        seen = float(counts[FLAG_ID + n])
        flag_vis.append(min(1.0, seen / area) if area > 0 else 0.0)
    hand_over = False
    if scene.hand is not None and counts[HAND_ID] > 0:
        # the arm over the play area: over the grid's squares or in front of a tower or flag
        w = SIZE * SQUARE_MM
        mask = np.zeros(ids.shape, np.uint8)
        grid = np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, w, 0.0], [0.0, w, 0.0]])
        cv2.fillConvexPoly(mask, np.round(bview.project(grid)).astype(np.int32), 1)
        for sq, h in enumerate(scene.heights):
            if h == 0:
                continue
            x, y = sq % SIZE, sq // SIZE
            c = np.array([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]], float) * SQUARE_MM
            top = h * BLOCK_MM + (POLE_HEIGHT if any(f.cell == (x, y) for f in scene.flags) else 0.0)
            box = np.concatenate([np.column_stack([c, np.zeros(4)]), np.column_stack([c, np.full(4, top)])])
            hull = cv2.convexHull(bview.project(box).astype(np.float32))
            cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 1)
        hand_over = int(((ids == HAND_ID) & (mask > 0)).sum()) >= MIN_HAND_PX
    obs = ideal_observation(scene)
    return TerraTruth(obs, scene.heights, tuple((f.colour, f.cell) for f in scene.flags),
                      tuple(visible), tuple(flag_vis), scene.hand is not None, hand_over,
                      tuple(cover), view, bview, visible_above(scene, bview, ids))


def visible_above(scene: TerraScene, bview: View, ids: np.ndarray) -> tuple[float, ...]:
    """Per square, the share of the top of a block laid on its tower (one block high on an
    empty square) that nothing nearer the camera would hide: where the top of a block lifted
    from the square was. The block is not drawn, so a pixel of its top is hidden where the id
    map shows a piece (top, side, flag) of a square nearer the camera than this one, or the
    arm."""
    eye = bview.pose.camera_position[:2]
    centres = (np.stack([np.arange(SIZE * SIZE) % SIZE, np.arange(SIZE * SIZE) // SIZE], axis=1) + 0.5) * SQUARE_MM
    dist = np.linalg.norm(centres - eye, axis=1)
    # what each id belongs to: the square of a top or side, the square of a flag's head or pole
    owner = np.full(HAND_ID + 1, -1, np.int64)
    owner[TOP_ID:TOP_ID + SIZE * SIZE] = np.arange(SIZE * SIZE)
    owner[SIDE_ID:SIDE_ID + SIZE * SIZE] = np.arange(SIZE * SIZE)
    for n, f in enumerate(scene.flags):
        owner[FLAG_ID + n] = owner[POLE_ID + n] = f.cell[1] * SIZE + f.cell[0]
    h, w = ids.shape
    out = []
    half = BLOCK_MM / 2 * 0.97
    for sq, height in enumerate(scene.heights):
        cx, cy = centres[sq]
        corners = np.array([[cx - half, cy - half], [cx + half, cy - half],
                            [cx + half, cy + half], [cx - half, cy + half]])
        quad = bview.project(np.column_stack([corners, np.full(4, (height + 1) * BLOCK_MM)]))
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            out.append(0.0)
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        area = int(mask.sum())
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] > 0
        shown = ids[cy0:cy1, cx0:cx1][inside].astype(np.int64)
        who = np.where(shown <= HAND_ID, owner[np.minimum(shown, HAND_ID)], -1)
        hidden = (shown == HAND_ID) | ((who >= 0) & (who != sq) & (dist[np.maximum(who, 0)] < dist[sq]))
        out.append(float((~hidden).sum()) / area if area else 0.0)
    return tuple(out)
