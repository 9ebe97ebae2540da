"""La Ville des Nains on the synthetic table: engine states drawn as scenes, scripted games as
videos.

The demo layer is the one place that knows both the rules engine (its states) and the synthetic
table (its scenes), which never know each other.

* :func:`scene_for` draws a state: the pool's stones laid out by colour (a row per colour, each
  kind of stone in its own places, so a stone taken leaves its place empty and the others stay),
  each dwarf's buildings on their slots (a building's long blocks all lying one way, a roof
  along or across, the same way every time), the kobold's tower, the colour dice in the tray
  after a roll (each roll lands them elsewhere) or resting beside it before the first, the
  kobold die in the tray in game 2;
* :func:`demo_source` renders a scripted game (``companion.games.ville_des_nains.scripts``) as a
  video: an arm makes each step's change, then the table stands still. An illegal step is
  followed by the players putting the pieces back (the position before it, shown again). The
  game's hidden facts stay hidden: the construction cards are not on the table and a drawn blue
  stone's mark is underneath it, so the script's ``ask`` steps are asked;
* :func:`reader_for` gives the camera reader for such a video: its lens (as ``calibrate
  camera`` measures it) and the colours learned on the colour sheet under the video's light;
* :func:`gate_for` gives the stillness gate the table would use for such a video.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.games import get_game
from companion.games.script import Script
from companion.games.ville_des_nains.components import COLOURS, SHAPES, STONE_KINDS
from companion.synth.generate import random_light
from companion.synth.nains.colour_shot import learn_colours
from companion.synth.nains.generate import must_see
from companion.synth.nains.scene import Building, Die, Loose, NainsScene
from companion.synth.nains.sequence import NainsSequenceSource
from companion.synth.scene import Shot
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.nains.zones import DEFAULT_ZONES, ZoneLayout

#: the demo table: default zones, a green mat, its pieces' placement fixed
DEMO_TABLE = NainsScene(zones=DEFAULT_ZONES, placement_seed=23)
#: in a row of the pool, each kind's stones go in this order (long blocks between the others)
_ROW = ("long", "cube", "long", "cube", "long", "cube", "cylinder", "cylinder", "roof", "roof")
_WIDTH = {"long": 40.0, "cube": 20.0, "cylinder": 20.0, "roof": 20.0}


def _rng(*key: Any) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def pool_places(zones: ZoneLayout, stock: dict[str, int]) -> dict[tuple[str, str], list[tuple[float, float, float]]]:
    """Where each stone of the pool lies when all are there: a row per colour, a place per
    stone (x, y, turn): the kind's stones fill its places from the first."""
    order = [s for s in _ROW if stock.get(s, 0) > 0]
    counts = dict(stock)
    row: list[str] = []
    for s in order:
        if row.count(s) < counts[s]:
            row.append(s)
    for s in SHAPES:
        row += [s] * (counts.get(s, 0) - row.count(s))
    r = zones.pool
    gap = max(2.0, (r.x1 - r.x0 - sum(_WIDTH[s] for s in row)) / (len(row) + 1))
    pitch = (r.y1 - r.y0) / len(COLOURS)
    out: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for k, colour in enumerate(COLOURS):
        x = r.x0 + gap
        y = r.y0 + pitch * (k + 0.5)
        for n, shape in enumerate(row):
            g = _rng("pool", colour, n)
            yaw = float(g.uniform(-4.0, 4.0)) if shape == "long" else float(g.uniform(-10.0, 10.0))
            out.setdefault((colour, shape), []).append(
                (x + _WIDTH[shape] / 2 + float(g.uniform(-1.0, 1.0)), y + float(g.uniform(-3.0, 3.0)), yaw))
            x += _WIDTH[shape] + gap
    return out


def _dice(state: Any, zones: ZoneLayout) -> tuple[Die, ...]:
    """The dice: the colour dice in the tray after a roll (where the roll number lands them),
    resting beside it before; the kobold die in the tray once it has been rolled."""
    t = zones.tray
    out = []
    spots = [(t.x0 + 25, t.y0 + 30), (t.x1 - 25, t.y0 + 35), (t.x0 + 30, t.y1 - 30), (t.x1 - 28, t.y1 - 28)]
    rest = [(zones.rest.x0 + 26, zones.rest.y0 + 25 + 28 * k) for k in range(4)]
    g = _rng("roll", state.rolls)
    order = list(g.permutation(4))
    for k, face in enumerate(state.colour_dice or ("yellow", "orange", "red")):
        x, y = spots[order[k]] if state.colour_dice else rest[k]
        out.append(Die("colour", face, x + float(g.uniform(-6, 6)), y + float(g.uniform(-6, 6)),
                       float(g.uniform(0, 90)), int(g.integers(0, 4))))
    if state.kobold_face is not None:
        x, y = spots[order[3]]
        out.append(Die("kobold", state.kobold_face, x + float(g.uniform(-6, 6)), y + float(g.uniform(-6, 6)),
                       float(g.uniform(0, 90)), int(g.integers(0, 4))))
    else:
        out.append(Die("kobold", "0", rest[3][0], rest[3][1], 20.0, 0))
    return tuple(out)


def _turn(shape: str, building: int, level: int) -> int:
    """How a stone lies on its building: a building's long blocks all lie the same way (along on
    even buildings, across on odd ones: a player squares a long block to the one under it), a
    roof's ridge along or across by level."""
    if shape == "long":
        return 90 if building % 2 else 0
    if shape == "roof":
        return 90 if (building + level) % 2 else 0
    return 0


def scene_for(state: Any, *, like: NainsScene = DEMO_TABLE) -> NainsScene:
    """The table showing ``state`` (a La Ville des Nains engine state) laid out as ``like``."""
    o = state.options
    stock = {"cube": o.cubes, "long": o.long_blocks, "cylinder": o.cylinders, "roof": o.roofs}
    places = pool_places(like.zones, stock)
    pool = []
    for (colour, shape), count in zip(STONE_KINDS, state.pool):
        for x, y, yaw in places[(colour, shape)][:count]:
            pool.append(Loose(colour, shape, x, y, yaw))
    buildings = []
    for seat, row in zip(state.players, state.buildings):
        for b, building in enumerate(row):
            if not building.stones:
                continue
            stones = tuple((colour, shape, _turn(shape, b, level))
                           for level, (colour, shape) in enumerate(building.stones))
            buildings.append(Building(seat, b, stones))
    return NainsScene(tuple(pool), tuple(buildings), int(state.tower), _dice(state, like.zones), None,
                      like.zones, like.placement_seed, like.mat)


@dataclass(frozen=True)
class DemoStep:
    """What a position of the demo video shows: the script step it follows (-1: the start),
    whether it is the pieces put back after an illegal step, and ``decides``: the step whose
    verdict the table may be asked about while it shows (see :func:`decided_step`)."""

    step: int
    put_back: bool = False
    decides: int | None = None

    @property
    def asks_for(self) -> int:
        return self.step if self.decides is None else self.decides


def decided_step(script: Script, number: int) -> int:
    """The step whose verdict is settled while the table shows step ``number``: a player's
    stones of one turn are judged when the dice are used up or, at the latest, when the next
    player rolls, so a roll right after a step the table answers for (a question, an illegal
    move it lets stand) is where that step's question comes: the people answer it then."""
    step = script.steps[number]
    if number > 0 and step.move.get("type") == "roll" \
            and script.steps[number - 1].kind in ("ask", "let_stand"):
        return number - 1
    return number


def demo_positions(script: Script, *, like: NainsScene = DEMO_TABLE) -> tuple[list[NainsScene], list[DemoStep]]:
    """The still positions of a scripted game, in order, and what each one is."""
    game = get_game(script.game)
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    scenes = [scene_for(state, like=like)]
    steps = [DemoStep(-1)]
    for number, step in enumerate(script.steps):
        after = game.apply(state, game.move_from_json(step.move))
        scenes.append(scene_for(after, like=like))
        steps.append(DemoStep(number, decides=decided_step(script, number)))
        if step.kind == "illegal":
            scenes.append(scene_for(state, like=like))  # the pieces go back
            steps.append(DemoStep(number, put_back=True))
        else:
            state = after
    return scenes, steps


def demo_view(tilt_deg: float = 30.0, *, height_mm: float = 700.0, hfov_deg: float = 66.0,
              like: NainsScene = DEMO_TABLE) -> View:
    """The demo's camera: beyond the near seats, tilted across the table far enough that its
    foot lies off the table (every building is then seen from its side, never straight down),
    an ordinary webcam's lens."""
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    cam = CameraModel(f, f, (w - 1) / 2, (h - 1) / 2, (w, h), (-0.08, 0.02, 0.0, 0.0, 0.0), source="synthetic")
    z = like.zones
    cx, cy = z.width_mm / 2, z.depth_mm / 2 + 15.0
    back = height_mm * math.tan(math.radians(tilt_deg))
    eye = (cx, cy - back, height_mm)
    return View(cam, TablePose.look_at(eye, (cx, cy, 0.0), (0.0, 1.0, 0.0)))


def demo_shot(seed: int = 0, *, tilt_deg: float = 30.0, light: str = "daylight",
              like: NainsScene = DEMO_TABLE) -> Shot:
    rng = np.random.default_rng([seed, 43])
    return Shot(view=demo_view(tilt_deg, like=like), light=random_light(rng, light), table="wood",
                table_variant=1, noise=1.5, blur=0.6, jpeg=92, exposure=0.45, seed=seed)


class DemoSource(NainsSequenceSource):
    """A scripted game as a video (:func:`demo_source`); ``positions`` says what each still
    position is (``Frame.truth["step"]`` indexes it)."""

    def __init__(self, script: Script, shot: Shot, *, seed: int = 0, still_frames: int = 4,
                 hand_frames: int = 3, like: NainsScene = DEMO_TABLE):
        scenes, positions = demo_positions(script, like=like)
        super().__init__(scenes, shot, still_frames=still_frames, hand_frames=hand_frames, seed=seed,
                         name=f"synthetic table: {script.title or script.game}")
        self.positions = positions
        self.script = script

    def step_of(self, frame: Any) -> int:
        """The script step a frame of this video answers for (-1: the start): the step it shows
        or leads to, or the step before it when that one's verdict comes with this roll
        (:func:`decided_step`)."""
        return self.positions[int(frame.truth["step"])].asks_for


def demo_source(script: Script, seed: int = 0, *, still_frames: int = 4, hand_frames: int = 3,
                tilt_deg: float = 30.0) -> DemoSource:
    """A rendered video of ``script`` (see the module docstring)."""
    return DemoSource(script, demo_shot(seed, tilt_deg=tilt_deg), seed=seed,
                      still_frames=still_frames, hand_frames=hand_frames)


def reader_for(source: NainsSequenceSource) -> Any:
    """The camera reader for a synthetic table's video: its lens (as ``calibrate camera`` would
    measure it), the table's layout as ``calibrate table`` measures it, and the colours learned
    on the colour sheet under the video's light."""
    from calibration.boards import TableLayout
    from companion.vision.nains.reader import make_reader

    zones = source.scenes[0].zones
    layout = TableLayout(zones.table_layout().markers, measured=True)
    return make_reader(camera=source.shot.view.camera, layout=layout, zones=zones,
                       colours=learn_colours(source.scenes[0], source.shot))


def gate_for(source: NainsSequenceSource) -> Any:
    """The table's stillness gate set for the video's still moments: it waits for all but one
    of a position's still frames (with ``still_frames`` of 4 at 30 fps, 83 ms), so each
    position is read once, after the arm has left, and never while it moves."""
    from companion.vision.stillness import StillnessGate

    fps = source.fps or 30.0
    return StillnessGate(still_s=max(0.0, (source.still_frames - 1.5) / fps))


def in_view(shot: Shot, scene: NainsScene) -> bool:
    """Whether the demo camera sees the whole play area of ``scene`` (every zone, the tallest
    tower)."""
    pts = must_see(scene)
    px = shot.view.project(pts)
    w, h = shot.view.camera.size
    return bool(np.all(px >= 4) and np.all(px[:, 0] <= w - 5) and np.all(px[:, 1] <= h - 5))
