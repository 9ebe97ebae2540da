"""Random but plausible Gleeb's and Grues positions and photographs, for corpora with exact ground
truth.

Positions are physical, not games (the synthetic table never imports the rules): some of the
fifteen pyramids of the set stand in stacks on some squares of the board, in an order play can
build (a large one swallows what it is put on, a smaller one seats on a larger one; nothing is
put straight onto its own colour), each stack a few
millimetres off its square's centre and each pyramid turned as a hand left it (most of them
roughly square to the board, some any way); others stand beside the board (eaten, not yet
placed). Shots cover the table kit's range as the Haut les Cubes corpus does: a camera 60–100 cm
above the table, from straight down to 35° of tilt, at any yaw, with ordinary webcam lenses; the
six kinds of light of :func:`companion.synth.generate.random_light`; three table tops; noise,
blur and JPEG. Arms reach over the board from any side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.boards import GLEEBS_BOARD
from companion.synth.generate import LIGHT_CONDITIONS, SKIN_TONES, SLEEVES, lift_hand, random_light
from companion.synth.gleebs.scene import BoardPlacement, GleebsScene, Loose, Pyramid, Stack
from companion.synth.scene import Hand, Shot
from companion.synth.textures import TABLE_KINDS
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.gleebs.geometry import COLOURS, SIZE_NAMES

__all__ = ["GleebsRanges", "LIGHT_CONDITIONS", "random_scene", "random_view", "random_shot",
           "random_hand", "must_see"]

#: the whole set: five colours in three sizes
RAINBOW = tuple(Pyramid(c, s) for c in COLOURS for s in SIZE_NAMES)
#: where the board lies by default (the middle of its grid, table mm)
BOARD_CENTRE = (300.0, 300.0)
#: highest a stack can reach (three pyramids turned against each other), mm
MAX_TOP_MM = 62.0


@dataclass(frozen=True)
class GleebsRanges:
    """What the generators draw from. Defaults are the table kit's range."""

    size: tuple[int, int] = (1280, 720)
    tilt_deg: tuple[float, float] = (0.0, 35.0)
    height_mm: tuple[float, float] = (600.0, 1000.0)
    hfov_deg: tuple[float, float] = (60.0, 80.0)
    on_board: tuple[int, int] = (4, 15)
    loose_probability: float = 0.5
    aligned_probability: float = 0.65
    offset_mm: float = 4.0
    stack_probability: float = 0.3
    noise: tuple[float, float] = (0.5, 5.0)
    blur: tuple[float, float] = (0.3, 1.3)
    jpeg_quality: tuple[int, int] = (55, 95)
    lossless_probability: float = 0.25


# ---------------------------------------------------------------------------------- positions

def random_yaw(rng: np.random.Generator, ranges: GleebsRanges = GleebsRanges()) -> float:
    """A pyramid's turn on the board: mostly near square to it, sometimes any way."""
    if rng.random() < ranges.aligned_probability:
        return float(rng.normal(0.0, 6.0))
    return float(rng.uniform(-45.0, 45.0))


def random_stack(rng: np.random.Generator, cell: tuple[int, int], pyramids: list[Pyramid],
                 ranges: GleebsRanges = GleebsRanges()) -> Stack:
    r = ranges.offset_mm * math.sqrt(float(rng.random()))
    a = float(rng.uniform(0, 2 * math.pi))
    return Stack(cell, tuple(pyramids), (r * math.cos(a), r * math.sin(a)),
                 tuple(random_yaw(rng, ranges) for _ in pyramids))


def _playable(order: list[Pyramid]) -> bool:
    """Whether a stack (bottom first) could have been built in play: nothing is ever put
    straight onto a pyramid of its own colour (a gleeb never moves onto its own colour, and a
    grue never onto a grue)."""
    return all(a.colour != b.colour for a, b in zip(order, order[1:]))


def random_stacks(rng: np.random.Generator, pieces: list[Pyramid],
                  ranges: GleebsRanges = GleebsRanges()) -> tuple[Stack, ...]:
    """The pieces spread over random squares, a share of them (``stack_probability``) climbing
    onto a stack already there, each square's stack in a random order that play could have
    built (see :func:`_playable`; the same colour can still show twice when a pyramid
    swallowed the one between)."""
    n = len(pieces)
    if n == 0:
        return ()
    # each piece goes onto a stack already there now and then (pieces climb onto each other in
    # play), most often onto a square of its own
    order = [int(c) for c in rng.permutation(16)]
    cells: list[tuple[int, int]] = []
    groups: list[list[Pyramid]] = []
    for p in pieces:
        if groups and (len(groups) == 16 or rng.random() < ranges.stack_probability):
            groups[int(rng.integers(0, len(groups)))].append(p)
        else:
            c = order[len(groups)]
            cells.append((c % 4, c // 4))
            groups.append([p])
    stacks = []
    for cell, group in zip(cells, groups):
        order = [group[i] for i in rng.permutation(len(group))]
        for _ in range(20):
            if _playable(order):
                break
            order = [group[i] for i in rng.permutation(len(group))]
        stacks.append(random_stack(rng, cell, order, ranges))
    return tuple(stacks)


def loose_places(board: BoardPlacement, count: int, rng: np.random.Generator) -> list[tuple[float, float]]:
    """Table points in front of the board, on its page below the caption, 40 mm apart."""
    out: list[tuple[float, float]] = []
    xs = np.linspace(-20.0, GLEEBS_BOARD.width_mm + 20.0, 7)
    order = rng.permutation(len(xs))[:count]
    for k in order:
        pt = np.array([[xs[k] + float(rng.uniform(-5, 5)), float(rng.uniform(-120.0, -95.0))]])
        out.append(tuple(board.to_table(pt)[0]))  # type: ignore[arg-type]
    return out


def random_board(rng: np.random.Generator) -> BoardPlacement:
    """The board laid near the middle of the table, turned any way."""
    centre = (BOARD_CENTRE[0] + float(rng.uniform(-40, 40)), BOARD_CENTRE[1] + float(rng.uniform(-40, 40)))
    return BoardPlacement.centred(centre, float(rng.uniform(0.0, 360.0)))


def random_scene(rng: np.random.Generator, ranges: GleebsRanges = GleebsRanges(),
                 board: BoardPlacement | None = None) -> GleebsScene:
    """A position on ``board`` (a random board placement when None)."""
    board = board if board is not None else random_board(rng)
    order = [RAINBOW[i] for i in rng.permutation(len(RAINBOW))]
    n = int(rng.integers(ranges.on_board[0], ranges.on_board[1] + 1))
    stacks = random_stacks(rng, order[:n], ranges)
    loose: list[Loose] = []
    rest = order[n:]
    if rest and rng.random() < ranges.loose_probability:
        count = int(rng.integers(1, min(4, len(rest)) + 1))
        for p, xy in zip(rest[:count], loose_places(board, count, rng)):
            loose.append(Loose(p, xy, float(rng.uniform(0, 90))))
    return GleebsScene(board=board, stacks=stacks, loose=tuple(loose))


# ---------------------------------------------------------------------------------- shots

def must_see(board: BoardPlacement) -> np.ndarray:
    """Table points every generated camera sees: the board's markers (with their white margin)
    and its squares up to the highest stack."""
    spec = GLEEBS_BOARD
    pts = []
    for m in spec.markers:
        c = np.asarray(m.centre)
        corners = (m.corners()[:, :2] - c) * 1.25 + c
        pts.append(np.column_stack([board.to_table(corners), np.zeros(4)]))
    grid = np.array([[0, 0], [spec.width_mm, 0], [spec.width_mm, spec.height_mm], [0, spec.height_mm]])
    g = board.to_table(grid)
    for z in (0.0, MAX_TOP_MM):
        pts.append(np.column_stack([g, np.full(4, z)]))
    return np.concatenate(pts)


def _in_frame(view: View, pts: np.ndarray, margin: float) -> bool:
    cam = pts @ view.pose.R.T + view.pose.t
    if not np.all(cam[:, 2] > 1.0):
        return False
    px = view.project(pts)
    w, h = view.camera.size
    return bool(np.all(px[:, 0] >= margin) and np.all(px[:, 0] <= w - 1 - margin)
                and np.all(px[:, 1] >= margin) and np.all(px[:, 1] <= h - 1 - margin))


def random_camera(rng: np.random.Generator, ranges: GleebsRanges = GleebsRanges(),
                  hfov: float | None = None) -> CameraModel:
    """A webcam's lens: focal length from the field of view, a principal point a little off
    centre, ordinary barrel distortion."""
    w, h = ranges.size
    hfov = float(rng.uniform(*ranges.hfov_deg)) if hfov is None else hfov
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    return CameraModel(f, f, (w - 1) / 2 + float(rng.uniform(-15, 15)),
                       (h - 1) / 2 + float(rng.uniform(-12, 12)), (w, h),
                       (float(rng.uniform(-0.30, 0.05)), float(rng.uniform(-0.05, 0.12)),
                        float(rng.uniform(-0.002, 0.002)), float(rng.uniform(-0.002, 0.002)), 0.0),
                       source="synthetic")


def random_view(rng: np.random.Generator, board: BoardPlacement,
                ranges: GleebsRanges = GleebsRanges(), tilt_deg: float | None = None) -> View:
    """A webcam in the kit's range that sees the whole board (drawn again until it does)."""
    need = must_see(board)
    centre = board.to_table(np.array([[GLEEBS_BOARD.width_mm / 2, GLEEBS_BOARD.height_mm / 2]]))[0]
    for _ in range(500):
        tilt = float(rng.uniform(*ranges.tilt_deg)) if tilt_deg is None else float(tilt_deg)
        height = float(rng.uniform(*ranges.height_mm))
        cam = random_camera(rng, ranges)
        az = float(rng.uniform(0, 2 * math.pi))
        roll = math.radians(float(rng.uniform(-8, 8)))
        target = (centre[0] + float(rng.uniform(-40, 40)), centre[1] + float(rng.uniform(-30, 30)), 0.0)
        back = height * math.tan(math.radians(tilt))
        eye = (target[0] - math.cos(az) * back, target[1] - math.sin(az) * back, height)
        up = (math.cos(az + roll), math.sin(az + roll), 0.0)
        view = View(cam, TablePose.look_at(eye, target, up))
        if _in_frame(view, need, 12.0):
            return view
    raise RuntimeError("no camera in the asked range sees the whole board; widen the ranges")


def random_shot(rng: np.random.Generator, board: BoardPlacement,
                ranges: GleebsRanges = GleebsRanges(), *, light: str | None = None,
                tilt_deg: float | None = None) -> Shot:
    view = random_view(rng, board, ranges, tilt_deg)
    lossless = rng.random() < ranges.lossless_probability
    return Shot(view=view, light=random_light(rng, light), table=str(rng.choice(TABLE_KINDS)),
                table_variant=int(rng.integers(0, 3)),
                table_tint=tuple(float(v) for v in rng.uniform(0.92, 1.08, size=3)),  # type: ignore[arg-type]
                table_shift=(float(rng.uniform(-500, 0)), float(rng.uniform(-500, 0))),
                noise=float(rng.uniform(*ranges.noise)), blur=float(rng.uniform(*ranges.blur)),
                jpeg=None if lossless else int(rng.integers(ranges.jpeg_quality[0], ranges.jpeg_quality[1] + 1)),
                exposure=float(rng.uniform(0.35, 0.55)),
                seed=int(rng.integers(0, 2**31 - 1)))


# ---------------------------------------------------------------------------------- arms

def random_hand(rng: np.random.Generator, scene: GleebsScene,
                target: tuple[float, float] | None = None, *, over_board: bool = True) -> Hand:
    """An arm reaching from a random side to ``target`` (table mm): by default a random square
    of the board (``over_board``) or a place on the table well away from it, held above every
    pyramid."""
    board = scene.board
    if target is None:
        if over_board:
            bx = float(rng.uniform(0.0, GLEEBS_BOARD.width_mm))
            by = float(rng.uniform(0.0, GLEEBS_BOARD.height_mm))
            target = tuple(board.to_table(np.array([[bx, by]]))[0])  # type: ignore[assignment]
        else:
            centre = board.to_table(np.array([[GLEEBS_BOARD.width_mm / 2, GLEEBS_BOARD.height_mm / 2]]))[0]
            a = float(rng.uniform(0, 2 * math.pi))
            d = float(rng.uniform(260.0, 320.0))
            target = (centre[0] + d * math.cos(a), centre[1] + d * math.sin(a))
    assert target is not None
    a = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(380.0, 560.0))
    elbow_xy = (target[0] + reach * math.cos(a), target[1] + reach * math.sin(a))
    d = np.array([target[0] - elbow_xy[0], target[1] - elbow_xy[1]])
    d /= max(float(np.linalg.norm(d)), 1e-9)
    wrist_xy = np.array(target) - d * 80.0  # the fingers reach the target, not the wrist
    skin = SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))]
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    hand = Hand((elbow_xy[0], elbow_xy[1], 0.0), (float(wrist_xy[0]), float(wrist_xy[1]), 0.0),
                tuple(float(c) * float(rng.uniform(0.92, 1.05)) for c in skin), sleeve,  # type: ignore[arg-type]
                float(rng.uniform(0.3, 1.0)), float(rng.uniform(0, 1)))
    return lift_hand(hand, scene.top_mm() + float(rng.uniform(15, 160)), float(rng.uniform(40, 160)))
