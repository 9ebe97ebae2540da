"""Random but plausible Terra Turrium positions and photographs, for corpora with exact truth.

Positions start from one of the game's start layouts (every square at 1 and the centre at 2
for four players; the inner 8 × 8 for two or three) and play a random number of turns of the
game's physical moves without its other rules: blocks are taken from squares without a flag and
put down elsewhere, favouring towers that grow (so mid-game towers of 5 to 8 blocks appear), the
blocks of the box are conserved, and each player's six flags stand on tower tops of their
territory or, later in the game, anywhere. This is a generator of tables a camera could see,
not of game states.

Shots cover the table kit's range for a printed board lying anywhere on the table at any
angle: a camera 60–100 cm above the table, from straight down to 35° of tilt, at any yaw, with
ordinary webcam lens distortion, seeing the whole board and its markers; the lights, table tops,
noise, blur and JPEG of the Haut les Cubes generator (:mod:`companion.synth.generate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from calibration.boards import TableLayout
from companion.synth.generate import (
    SKIN_TONES, SLEEVES, lift_hand, shot_through, webcam_view,
)
from companion.synth.scene import Hand, Shot
from companion.synth.terra.scene import BLOCK_KITS, Flag, TerraScene
from companion.vision.camera import View
from companion.vision.terra.kit import BLOCK_MM, BOARD, FLAG_COLOURS, POLE_HEIGHT, SIZE, SQUARE_MM

#: where the board's centre lies on the default 600 × 600 table (mm)
TABLE_CENTRE = (300.0, 300.0)
TERRITORY_OF = {"red": (0, 0), "yellow": (1, 0), "blue": (1, 1), "green": (0, 1)}


@dataclass(frozen=True)
class TerraRanges:
    """What the generators draw from. Defaults are the table kit's range."""

    size: tuple[int, int] = (1280, 720)
    tilt_deg: tuple[float, float] = (0.0, 35.0)
    height_mm: tuple[float, float] = (600.0, 1000.0)
    hfov_deg: tuple[float, float] = (60.0, 80.0)
    players: tuple[int, ...] = (2, 3, 4)
    turns: tuple[int, int] = (0, 40)
    max_height: int = 8
    flags_per_player: int = 6
    board_shift_mm: float = 40.0
    noise: tuple[float, float] = (0.5, 5.0)
    blur: tuple[float, float] = (0.3, 1.3)
    jpeg_quality: tuple[int, int] = (55, 95)
    lossless_probability: float = 0.25


def table_layout() -> TableLayout:
    """Where the synthetic table's markers lie, as ``companion calibrate table`` measures them
    (the default 600 × 600 mm play area, exactly)."""
    return TableLayout(TableLayout.rectangle(600.0, 600.0).markers, measured=True)


def start_heights(players: int) -> list[int]:
    """The start layouts (four players: all squares at 1, the central 4 × 4 at 2; three: the
    outer ring empty, the inner 8 × 8 at 1, the centre at 2; two: the inner 8 × 8 at 1)."""
    out = []
    for y in range(SIZE):
        for x in range(SIZE):
            inner = 1 <= x <= 8 and 1 <= y <= 8
            centre = 3 <= x <= 6 and 3 <= y <= 6
            if players == 4:
                out.append(2 if centre else 1)
            elif players == 3:
                out.append(2 if centre else 1 if inner else 0)
            else:
                out.append(1 if inner else 0)
    return out


def _territory(colour: str) -> list[int]:
    tx, ty = TERRITORY_OF[colour]
    return [y * SIZE + x for y in range(ty * 5, ty * 5 + 5) for x in range(tx * 5, tx * 5 + 5)]


def random_position(rng: np.random.Generator, ranges: TerraRanges = TerraRanges()
                    ) -> tuple[tuple[int, ...], tuple[Flag, ...]]:
    """Heights and flags of a plausible position (see the module docstring)."""
    players = int(rng.choice(ranges.players))
    colours = list(FLAG_COLOURS)[:players] if players < 4 else list(FLAG_COLOURS)
    if players == 2:
        colours = ["red", "blue"]
    heights = start_heights(players)
    flags: dict[int, str] = {}
    for colour in colours:  # the layout: six flags on free constructions of the territory
        free = [s for s in _territory(colour) if heights[s] > 0 and s not in flags]
        for s in rng.choice(free, size=min(ranges.flags_per_player, len(free)), replace=False):
            flags[int(s)] = colour
    turns = int(rng.integers(ranges.turns[0], ranges.turns[1] + 1))
    for _ in range(turns):
        takes = int(rng.integers(1, 4))
        for _ in range(takes):
            source = [s for s in range(SIZE * SIZE) if heights[s] > 0 and s not in flags]
            if not source:
                break
            s = int(rng.choice(source))
            heights[s] -= 1
            # put it on a neighbour of a growing tower, or anywhere
            weights = np.array([(1.0 + heights[t]) ** 2.2 if heights[t] < ranges.max_height
                                and t not in flags else 0.0 for t in range(SIZE * SIZE)])
            if weights.sum() <= 0:
                heights[s] += 1
                break
            t = int(rng.choice(SIZE * SIZE, p=weights / weights.sum()))
            heights[t] += 1
        if flags and rng.random() < 0.5:  # a flag steps to a neighbouring construction
            s = int(rng.choice(list(flags)))
            x, y = s % SIZE, s // SIZE
            options = [(x + dx) + (y + dy) * SIZE for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE]
            options = [t for t in options if heights[t] > 0 and t not in flags]
            if options:
                t = int(rng.choice(options))
                flags[t] = flags.pop(s)
    out_flags = tuple(Flag(c, (s % SIZE, s // SIZE)) for s, c in sorted(flags.items()))
    return tuple(heights), out_flags


def random_scene(rng: np.random.Generator, ranges: TerraRanges = TerraRanges()) -> TerraScene:
    heights, flags = random_position(rng, ranges)
    a = rng.uniform(0, 2 * math.pi)
    r = rng.uniform(0, ranges.board_shift_mm)
    centre = (TABLE_CENTRE[0] + r * math.cos(a), TABLE_CENTRE[1] + r * math.sin(a))
    yaw = float(rng.uniform(-180, 180))
    scene = TerraScene(heights, flags, (0.0, 0.0), yaw, str(rng.choice(list(BLOCK_KITS))),
                       int(rng.integers(0, 2**31 - 1)))
    half = SIZE * SQUARE_MM / 2
    offset = scene.to_table(np.array([[half, half]]))[0]
    return replace(scene, board_origin=(centre[0] - offset[0], centre[1] - offset[1]))


def must_see(scene: TerraScene, levels: int) -> np.ndarray:
    """Table points every generated camera sees: the board's markers, and its grid up to
    ``levels`` blocks high with a flag on top."""
    pts = [np.column_stack([scene.to_table(m.corners()[:, :2]), np.zeros(4)]) for m in BOARD.markers]
    w = SIZE * SQUARE_MM
    grid = scene.to_table(np.array([[0.0, 0.0], [w, 0.0], [w, w], [0.0, w]]))
    for z in (0.0, levels * BLOCK_MM + POLE_HEIGHT):
        pts.append(np.column_stack([grid, np.full(4, z)]))
    return np.concatenate(pts)


def random_view(rng: np.random.Generator, scene: TerraScene, ranges: TerraRanges = TerraRanges(),
                tilt_deg: float | None = None) -> View:
    """A webcam in the kit's range that sees the whole board (drawn again until it does)."""
    levels = max(max(scene.heights), 4)
    view = webcam_view(rng, ranges, scene.board_centre(), must_see(scene, levels),
                       jitter=(40.0, 40.0), tries=800, tilt_deg=tilt_deg)
    if view is None:
        raise RuntimeError("no camera in the asked range sees the whole board; widen the ranges")
    return view


def random_shot(rng: np.random.Generator, scene: TerraScene, ranges: TerraRanges = TerraRanges(), *,
                light: str | None = None, tilt_deg: float | None = None) -> Shot:
    return shot_through(rng, random_view(rng, scene, ranges, tilt_deg), ranges, light=light)


def random_hand(rng: np.random.Generator, scene: TerraScene,
                target: tuple[float, float] | None = None) -> Hand:
    """An arm reaching from outside the board to ``target`` (table mm; by default a random
    square of the board), held above every tower and flag."""
    if target is None:
        sq = (float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE)))
        t = scene.to_table(np.array([[sq[0] * SQUARE_MM, sq[1] * SQUARE_MM]]))[0]
        target = (float(t[0]), float(t[1]))
    centre = scene.board_centre()
    away = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(330, 480))
    elbow_xy = (centre[0] + reach * math.cos(away), centre[1] + reach * math.sin(away))
    d = np.array([target[0] - elbow_xy[0], target[1] - elbow_xy[1]])
    d /= max(np.linalg.norm(d), 1e-9)
    wrist_xy = np.array(target) - d * 80.0
    top = max(scene.heights) * BLOCK_MM + (POLE_HEIGHT if scene.flags else 0.0)
    skin = SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))]
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    hand = Hand((elbow_xy[0], elbow_xy[1], 0.0), (float(wrist_xy[0]), float(wrist_xy[1]), 0.0),
                tuple(float(c) * float(rng.uniform(0.92, 1.05)) for c in skin), sleeve,  # type: ignore[arg-type]
                float(rng.uniform(0.3, 1.0)), float(rng.uniform(0, 1)))
    return lift_hand(hand, top + float(rng.uniform(15, 160)), float(rng.uniform(40, 160)))


def corpus_item(seed: int, index: int, ranges: TerraRanges = TerraRanges(), *,
                hand_probability: float = 0.0, light: str | None = None,
                tilt_deg: float | None = None) -> tuple[TerraScene, Shot]:
    """Position ``index`` of the corpus ``seed``: the same pair every time."""
    rng = np.random.default_rng([seed, index, 8])
    scene = random_scene(rng, ranges)
    shot = random_shot(rng, scene, ranges, light=light, tilt_deg=tilt_deg)
    if rng.random() < hand_probability:
        scene = scene.with_hand(random_hand(rng, scene))
    return scene, shot
