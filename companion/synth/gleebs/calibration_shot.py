"""The colour calibration a user makes before playing, on the synthetic table.

``companion calibrate colours --game gleebs-and-grues`` asks for the printed colour sheet with one
pyramid of each colour standing on its numbered spot (spot 1 red, 2 yellow, 3 green, 4 blue,
5 black: the game's palette order). This module draws that picture under a shot's own camera and
light, and learns the colour model from it with the very code the command uses
(:func:`calibration.colour_sheet.learn_from_sheet`), so tests and benchmarks read pyramids with
colours learned the way a user's are.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from calibration.boards import COLOUR_SHEET, GLEEBS_BOARD
from calibration.colour_sheet import RIM_BY_GAME, learn_from_sheet
from companion.synth.gleebs.render import draw, expose
from companion.synth.gleebs.scene import BoardPlacement, GleebsScene, Loose, Pyramid
from companion.synth.gleebs.sheets import colour_sheet_texture
from companion.synth.scene import Shot
from companion.vision.camera import View
from companion.vision.colours import GAME_PALETTES, ColourModel

PALETTE = GAME_PALETTES["gleebs-and-grues"]
#: the size of pyramid shown on each spot (a small one stays inside the spot, clear of the ring
#: of grey the command reads the spot's colour from)
SHOWN_SIZE = "small"


def _rigid(centre: np.ndarray, yaw_deg: float) -> np.ndarray:
    """Sheet mm -> table mm for the sheet's middle at ``centre`` turned ``yaw_deg``."""
    a = math.radians(yaw_deg)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    t = np.asarray(centre, float) - R @ np.array([COLOUR_SHEET.width_mm / 2, COLOUR_SHEET.height_mm / 2])
    return np.array([[R[0, 0], R[0, 1], t[0]], [R[1, 0], R[1, 1], t[1]], [0.0, 0.0, 1.0]])


def _in_view(view: View, M: np.ndarray) -> bool:
    pts = [m.corners()[:, :2] for m in COLOUR_SHEET.markers]
    r = COLOUR_SHEET.spot_mm / 2
    for sx, sy in COLOUR_SHEET.spots():
        pts.append(np.array([[sx - r, sy - r], [sx + r, sy + r], [sx - r, sy + r], [sx + r, sy - r]]))
    xy = np.concatenate(pts) @ M[:2, :2].T + M[:2, 2]
    px = view.project(np.column_stack([xy, np.full(len(xy), 30.0)]))
    w, h = view.camera.size
    return bool(np.all(px >= 8) and np.all(px[:, 0] <= w - 9) and np.all(px[:, 1] <= h - 9))


def sheet_placement(board: BoardPlacement, view: View) -> np.ndarray:
    """Where the user lays the colour sheet: where the board's grid is, square to the picture
    (as anyone lays a sheet under a camera), nudged until the camera sees all of it. A 3×3 map
    from sheet mm to table mm."""
    centre = board.to_table(np.array([[GLEEBS_BOARD.width_mm / 2, GLEEBS_BOARD.height_mm / 2]]))[0]
    w, h = view.camera.size
    ground = view.unproject_to_plane(np.array([[w / 2, h / 2], [w / 2 + 50, h / 2]]))
    along = ground[1, :2] - ground[0, :2]
    yaw = math.degrees(math.atan2(along[1], along[0]))
    image_centre = ground[0, :2]
    for k in range(11):
        c = centre + (image_centre - centre) * (k / 10)
        M = _rigid(c, yaw)
        if _in_view(view, M):
            return M
    return _rigid(image_centre, yaw)


def calibration_picture(board: BoardPlacement, shot: Shot) -> np.ndarray:
    """The linear picture (before the sensor) of the colour sheet with one pyramid on each
    spot, seen by ``shot``'s camera under its light."""
    M = sheet_placement(board, shot.view)
    loose = []
    for k, (sx, sy) in enumerate(COLOUR_SHEET.spots()[:len(PALETTE)]):
        xy = M @ np.array([sx, sy, 1.0])
        loose.append(Loose(Pyramid(PALETTE[k], SHOWN_SIZE), (float(xy[0]), float(xy[1])),
                           float(np.degrees(np.arctan2(M[1, 0], M[0, 0]))) + 8.0 * k))
    scene = GleebsScene(board=board, stacks=(), loose=tuple(loose), show_board=False)
    linear, _, _ = draw(scene, shot, extra_sheets=((colour_sheet_texture(), M),))
    return linear


def calibration_images(board: BoardPlacement, shot: Shot, frames: int = 2) -> list[np.ndarray]:
    """Frames the camera takes of that picture (each with its own sensor noise)."""
    linear = calibration_picture(board, shot)
    return [expose(linear, replace(shot, seed=shot.seed + 1000 + k)) for k in range(frames)]


def learn_colours(board: BoardPlacement, shot: Shot) -> ColourModel:
    """The colour model ``companion calibrate colours`` learns from two such frames."""
    model, _ = learn_from_sheet(calibration_images(board, shot), list(PALETTE),
                                rim_px=RIM_BY_GAME["gleebs-and-grues"])
    return model
