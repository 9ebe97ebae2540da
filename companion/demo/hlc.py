"""Haut les Cubes at the demo table: the engine's positions drawn by the synthetic table.

This layer knows both sides, the rules engine's state (:mod:`companion.games.haut_les_cubes`) and
the synthetic table's scene (:mod:`companion.synth`), which never know each other.

* :func:`scene_for` draws a state: its cubes on a lattice laid around the mountain anchor (so the
  engine's cells are the reader's cells), the giants on their squares, the card in the played-card
  zone (or none, when the script says the card cannot be read);
* :func:`demo_source` plays a script as a video: an arm makes each step, an illegal step is made,
  held still for the referee to flag, and put right by the next step; every position is held
  long enough for the stillness gate;
* :func:`reader_for` gives the camera reader for such a video: the lens of the demo camera and
  the six cards enrolled once, as a user would with ``companion calibrate cards``;
* :func:`blind_steps` says which steps take a giant where the camera cannot see it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.games.haut_les_cubes import HautLesCubes
from companion.games.haut_les_cubes.moves import Move
from companion.games.haut_les_cubes.state import HlcState
from companion.demo.video import VideoResult, play_video
from companion.games.script import Script
from companion.synth.generate import Ranges, random_shot
from companion.synth.scene import Giant, Scene, Shot
from companion.synth.sequence import Keyframe, Sequence, SyntheticSource
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.layout import DEFAULT_LAYOUT, Layout

GAME = HautLesCubes()
#: the demo's lattice is turned a little, as a mountain built by hand is
DEMO_ANGLE_DEG = 8.0
#: the demo camera: a webcam tilted over the table, in daylight
DEMO_RANGES = Ranges(tilt_deg=(12.0, 26.0), height_mm=(620.0, 680.0), hfov_deg=(66.0, 70.0),
                     noise=(1.0, 2.0), blur=(0.4, 0.7), jpeg_quality=(88, 92),
                     lossless_probability=0.0)
#: the demo's light and table top (a laminate top, whose colour no giant has)
DEMO_LIGHT = "overcast"
DEMO_TABLE = "laminate"


def demo_lattice(layout: Layout = DEFAULT_LAYOUT) -> Lattice:
    """The lattice of the demo table: cell (0, 0)'s corner at the mountain anchor."""
    return Lattice(layout.anchor_xy, DEMO_ANGLE_DEG, layout.pitch)


def scene_for(state: HlcState, *, lattice: Lattice | None = None, card: bool = True) -> Scene:
    """The physical position of ``state``. ``card=False``: the played card cannot be read."""
    lattice = lattice or demo_lattice()
    giants = tuple(Giant(seat, pos, state.height(pos))
                   for seat, pos in zip(state.players, state.giants) if pos is not None)
    return Scene(lattice=lattice, cubes=tuple(sorted(state.cubes)), giants=giants,
                 card=state.last_card if card else None)


@dataclass(frozen=True)
class DemoStep:
    """Which script step a keyframe shows (-1: the start)."""

    step: int
    kind: str


class DemoSource(SyntheticSource):
    """The video of a script; ``steps[k]`` says which script step keyframe ``k`` shows, and
    :meth:`step_of` which step a frame belongs to."""

    def __init__(self, sequence: Sequence, steps: list[DemoStep], shot: Shot):
        super().__init__(sequence, name="synthetic table (demo)")
        self.steps = steps
        self.shot = shot

    def step_of(self, frame: Any) -> int:
        truth = getattr(frame, "truth", None) or {}
        k = truth.get("keyframe", 0)
        return self.steps[k].step if 0 <= k < len(self.steps) else -1


def demo_shot(seed: int = 0, layout: Layout = DEFAULT_LAYOUT, *, tilt_deg: float | None = None,
              light: str = DEMO_LIGHT, table: str = DEMO_TABLE) -> Shot:
    """The demo camera of video ``seed``; ``tilt_deg``, ``light`` and ``table`` place it
    otherwise (the camera's height, lens, noise and blur stay in the demo's range)."""
    rng = np.random.default_rng([seed, 2024])
    shot = random_shot(rng, DEMO_RANGES, layout, light=light, tilt_deg=tilt_deg, seed=seed + 1)
    return replace(shot, table=table)


def keyframes(script: Script, *, lattice: Lattice | None = None, hold_s: float = 0.8,
              ) -> tuple[list[Keyframe], list[DemoStep]]:
    """The positions a script goes through, with the script step each one shows."""
    lattice = lattice or demo_lattice()
    state = GAME.setup(script.players, GAME.options_from_json(dict(script.options)),
                       seed=script.seed)
    frames = [Keyframe(scene_for(state, lattice=lattice), 1.2)]
    steps = [DemoStep(-1, "start")]
    for number, step in enumerate(script.steps):
        move: Move = GAME.move_from_json(step.move)
        after = GAME.apply(state, move)
        frames.append(Keyframe(scene_for(after, lattice=lattice, card=step.kind != "ask"),
                               hold_s))
        steps.append(DemoStep(number, step.kind))
        if step.kind != "illegal":  # an illegal move is put right by the next step
            state = after
    return frames, steps


def demo_source(script: Script, seed: int = 0, *, fps: float = 10.0, hold_s: float = 0.8,
                shot: Shot | None = None, layout: Layout = DEFAULT_LAYOUT) -> DemoSource:
    """The script as a video from the demo camera."""
    shot = shot or demo_shot(seed, layout)
    frames, steps = keyframes(script, lattice=demo_lattice(layout), hold_s=hold_s)
    sequence = Sequence(frames, shot, fps=fps, layout=layout, seed=seed)
    return DemoSource(sequence, steps, shot)


def reader_for(source: DemoSource) -> Any:
    """The reader a user would have: the demo camera's lens and the six cards enrolled."""
    from companion.bench.vision import enrol_cards
    from companion.vision.hlc.reader import HlcReader

    return HlcReader(camera=source.shot.view.camera, cards=enrol_cards(source.sequence.layout))


def gate_for(source: DemoSource) -> Any:
    """The stillness gate the table would use for this video: it waits long enough for the
    arm's last frames to have passed (half of the shortest still hold), and opens early enough
    that every still position is read before the next arm comes in."""
    from companion.vision.stillness import StillnessGate

    fps = source.fps or 15.0
    hold = min(k.hold_s for k in source.sequence.keyframes)
    still_frames = max(2, int(hold * fps) // 2)
    return StillnessGate(still_s=still_frames / fps)


def blind_steps(script: Script, shot: Shot, layout: Layout = DEFAULT_LAYOUT) -> set[int]:
    """The steps of ``script`` that take a giant to a square this camera sees too little of to
    find a giant there (behind a tower, from where it stands), or lay a cube (a Napozla) where
    the camera sees too little of it: the picture cannot say where the piece went, so the
    referee may have to ask (when more than one such place would do) where the script has no
    question. Judged as the referee judges it (:class:`Sight` of
    :mod:`companion.games.haut_les_cubes.camera`), from the camera's true place."""
    from companion.games.haut_les_cubes.camera import SEEN_HIGH, Sight
    from companion.games.haut_les_cubes.cards import NAPOZLA
    from companion.games.haut_les_cubes.geometry import heights_of
    from companion.games.haut_les_cubes.moves import Place, Play

    lattice = demo_lattice(layout)
    cam = np.asarray(shot.view.pose.camera_position, float)
    u, v = lattice.to_cells(cam[None, :2])[0]
    eye = (float(u), float(v), float(cam[2]) / lattice.pitch)
    state = GAME.setup(script.players, GAME.options_from_json(dict(script.options)), seed=script.seed)
    blind = set()
    for number, step in enumerate(script.steps):
        move = GAME.move_from_json(step.move)
        to = move.cell if isinstance(move, Place) else move.to if isinstance(move, Play) else None
        standing = [(pos, state.height(pos)) for pos in state.giants if pos is not None]
        if to is not None:
            sight = Sight(eye, heights_of(state.cubes), standing)
            points = Sight.giant_points(to, state.height(to))
            if float(sight.seen(points, giants=True).mean()) < SEEN_HIGH:
                blind.add(number)
        elif isinstance(move, Play) and move.card == NAPOZLA and move.cube is not None:
            sight = Sight(eye, heights_of(state.cubes | {move.cube}), standing)
            share = sight.cube_seen(move.cube)
            if share is None or share < SEEN_HIGH:
                blind.add(number)
        if step.kind != "illegal":
            state = GAME.apply(state, move)
    return blind


# ------------------------------------------------------------------------- refereeing a video
def referee_video(script: Script, seed: int = 0, *, data_dir: str | None = None,
                  fps: float = 10.0, hold_s: float = 0.8, shot: Shot | None = None) -> VideoResult:
    """Render ``script`` as a video and referee it as ``companion demo`` does
    (:func:`companion.demo.video.play_video`: the live loop, the reader, the gate of
    :func:`gate_for`, the script's people answering), then compare what the referee recorded
    with the script. ``shot``: another camera, light and table than the demo's."""
    import tempfile

    from companion.referee.scripted import compare
    from companion.runtime.table import Table

    source = demo_source(script, seed, fps=fps, hold_s=hold_s, shot=shot)
    reader = reader_for(source)
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(data_dir or tmp)
        try:
            loop = play_video(table, script, seed=seed, source=source, reader=reader,
                              gate=gate_for(source))
            referee = table.require_game()
            events = table.log.events(referee.session.game_id)
            return VideoResult(compare(GAME, script, events), loop.stats, events)
        finally:
            table.close()
