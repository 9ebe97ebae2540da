"""The colour calibration a user makes before playing, on the synthetic table.

``companion calibrate colours --game ville-des-nains`` asks for the printed colour sheet with one
piece of each colour of the game's palette on its numbered spot (spot 1 red, 2 orange, 3 yellow,
4 violet, 5 blue, 6 white: ``GAME_PALETTES["ville-des-nains"]``): a cube stone of each colour,
and a colour die showing its white face. This module draws that picture under a shot's own
camera and light, on the same table, and learns the colour model from it with the very code the
command uses (:func:`calibration.colour_sheet.learn_from_sheet`), so tests and benchmarks read
pieces with colours learned the way a user's are.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from calibration.boards import COLOUR_SHEET
from calibration.colour_sheet import learn_from_sheet
from companion.synth.gleebs.sheets import colour_sheet_texture
from companion.errors import UserError
from companion.synth.nains.render import PIECE_ID, SHEET_ID, draw, expose
from companion.synth.nains.scene import Die, Loose, NainsScene, pieces
from companion.synth.scene import Shot
from companion.vision.colours import GAME_PALETTES, ColourModel
from companion.vision.camera import View

PALETTE = GAME_PALETTES["ville-des-nains"]


def _placement(view: View, centre: np.ndarray) -> np.ndarray:
    """Sheet mm -> table mm (3×3) for the sheet's middle at ``centre``, square to the picture
    (as anyone lays a sheet under a camera), nudged towards the picture's middle until the
    camera sees all of it."""
    w, h = view.camera.size
    ground = view.unproject_to_plane(np.array([[w / 2, h / 2], [w / 2 + 50, h / 2]]))
    along = ground[1, :2] - ground[0, :2]
    yaw = math.atan2(along[1], along[0])
    R = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])

    def at(c: np.ndarray) -> np.ndarray:
        t = c - R @ np.array([COLOUR_SHEET.width_mm / 2, COLOUR_SHEET.height_mm / 2])
        return np.array([[R[0, 0], R[0, 1], t[0]], [R[1, 0], R[1, 1], t[1]], [0.0, 0.0, 1.0]])

    for k in range(11):
        c = centre + (ground[0, :2] - centre) * (k / 10)
        M = at(c)
        corners = np.array([[0, 0, 1], [COLOUR_SHEET.width_mm, 0, 1], [COLOUR_SHEET.width_mm, COLOUR_SHEET.height_mm, 1],
                            [0, COLOUR_SHEET.height_mm, 1]], float) @ M.T
        px = view.project(np.column_stack([corners[:, :2], np.full(4, 25.0)]))
        if np.all(px >= 8) and np.all(px[:, 0] <= w - 9) and np.all(px[:, 1] <= h - 9):
            return M
    return at(ground[0, :2])


def calibration_scene(like: NainsScene, M: np.ndarray) -> NainsScene:
    """The table cleared, the sheet laid, one piece on each spot."""
    stones, dice = [], []
    yaw = math.degrees(math.atan2(M[1, 0], M[0, 0]))
    for k, (sx, sy) in enumerate(COLOUR_SHEET.spots()[:len(PALETTE)]):
        x, y, _ = M @ np.array([sx, sy, 1.0])
        name = PALETTE[k]
        if name == "white":
            dice.append(Die("colour", "white", float(x), float(y), yaw + 7.0 * k, 0))
        else:
            stones.append((name, float(x), float(y), yaw + 7.0 * k))
    pool = tuple(Loose(c, "cube", x, y, a) for c, x, y, a in stones if c != "blue")
    scene = replace(like, pool=pool, buildings=(), tower=0, dice=tuple(dice), hand=None)
    blue = [(x, y) for c, x, y, _ in stones if c == "blue"]
    if blue:  # the kobold's blue stone: a tower of one, moved onto its spot
        zones = replace(scene.zones, kobold=blue[0])
        scene = replace(scene, zones=zones, tower=1)
    return scene


def _calibration(like: NainsScene, shot: Shot, frames: int):
    centre = np.array([like.zones.width_mm / 2, like.zones.depth_mm / 2])
    M = _placement(shot.view, centre)
    sheet = colour_sheet_texture()
    px_to_table = M @ sheet.px_to_frame()
    scene = calibration_scene(like, M)
    drawn = draw(scene, shot, sheets=((sheet.albedo, px_to_table, SHEET_ID),))
    shots = [expose(drawn, replace(shot, seed=shot.seed + 1000 + k)) for k in range(frames)]
    return scene, shots


def calibration_images(like: NainsScene, shot: Shot, frames: int = 2) -> list[np.ndarray]:
    """Frames of the colour calibration under ``shot``'s camera and light."""
    return [r.image for r in _calibration(like, shot, frames)[1]]


def learn_colours(like: NainsScene, shot: Shot) -> ColourModel:
    """The colour model ``companion calibrate colours`` learns from two such frames.

    A low sun throws the pieces' long shadows across the spots' grey rings, and the command
    then refuses the sheet (it cannot tell a piece from its shadow: at a real table the user
    moves the lamp). The synthetic calibration then learns from the same pictures what the
    command would have: each piece's own pixels (known exactly here), with the paper's white."""
    scene, shots = _calibration(like, shot, 2)
    try:
        model, _ = learn_from_sheet([r.image for r in shots], list(PALETTE))
        return model
    except UserError:
        pass
    from calibration.markers import detect_markers, marker_white

    kinds = {p.colour if p.kind == "stone" else "white": n for n, p in enumerate(pieces(scene))}
    samples = {}
    for name in PALETTE:
        n = kinds[name]
        px = []
        for r in shots:
            mask = cv2.erode((r.ids == PIECE_ID + n).astype(np.uint8), np.ones((3, 3), np.uint8))
            px.append(r.image[mask > 0])
        samples[name] = np.concatenate(px)
    white = marker_white(shots[0].image, detect_markers(shots[0].image, refine=False))
    return ColourModel.learn(samples, white)
