"""Gleeb's and Grues at the demo table: the engine's positions drawn by the synthetic table.

This layer knows both sides: the rules engine's state (:mod:`companion.games.gleebs_and_grues`)
and the synthetic table's scene (:mod:`companion.synth.gleebs`), which never know each other.

* :func:`scene_for` draws a state: its stacks on their squares (each pyramid turned and set a
  little off centre as a hand leaves it, the same way every time it is drawn), the pyramids not
  on the board standing in a row in front of it;
* :func:`demo_source` plays a script as a video: an arm makes each step, illegal steps are put
  right again by the players before the next, and every position stays still long enough for
  the referee to read it. Gleeb's and Grues hides nothing from the camera (what a stack holds
  is known from the history), so no frame needs anything hidden;
* :func:`reader_for` gives the camera reader for such a video, its colours learned as a user
  would (the colour sheet under the same light).
"""

from __future__ import annotations

import math
import zlib
from typing import Any

import numpy as np

from companion.games.gleebs_and_grues import GleebsAndGrues
from companion.games.gleebs_and_grues.moves import Place, SetGrues, Step
from companion.games.gleebs_and_grues.pieces import CELLS, RAINBOW, index
from companion.games.gleebs_and_grues.state import GGState
from companion.demo.video import VideoResult
from companion.games.script import Script
from companion.synth.gleebs.calibration_shot import learn_colours
from companion.synth.gleebs.generate import GleebsRanges, random_shot
from companion.synth.gleebs.scene import DEFAULT_BOARD, BoardPlacement, GleebsScene, Loose, Pyramid, Stack
from companion.synth.gleebs.sequence import Change, SequenceSource
from companion.synth.scene import Shot
from calibration.boards import GLEEBS_BOARD

#: the demo camera: an ordinary webcam a little tilted over the board, in daylight
DEMO_RANGES = GleebsRanges(tilt_deg=(14.0, 24.0), height_mm=(650.0, 800.0), hfov_deg=(62.0, 72.0),
                           noise=(1.0, 2.5), blur=(0.4, 0.8), jpeg_quality=(85, 92),
                           lossless_probability=0.0)


def _jitter(seed: int, cell: tuple[int, int], names: tuple[str, ...]) -> np.random.Generator:
    key = f"{seed}|{cell}|{'/'.join(names)}".encode()
    return np.random.default_rng(zlib.crc32(key))


def _stack(seed: int, cell: tuple[int, int], pyramids: tuple[Any, ...]) -> Stack:
    names = tuple(p.code for p in pyramids)
    rng = _jitter(seed, cell, names)
    r = 3.5 * math.sqrt(float(rng.random()))
    a = float(rng.uniform(0, 2 * math.pi))
    yaws = tuple(float(rng.normal(0.0, 7.0)) if rng.random() < 0.7 else float(rng.uniform(-45, 45))
                 for _ in pyramids)
    return Stack(cell, tuple(Pyramid(p.colour, p.size_name) for p in pyramids),
                 (r * math.cos(a), r * math.sin(a)), yaws)


def _slot(board: BoardPlacement, k: int) -> tuple[float, float]:
    """Where the k-th pyramid of the set waits off the board: two rows in front of the page."""
    row, col = divmod(k, 8)
    x = -25.0 + col * (GLEEBS_BOARD.width_mm + 50.0) / 7
    y = -100.0 - 32.0 * row
    pt = board.to_table(np.array([[x, y]]))[0]
    return float(pt[0]), float(pt[1])


def scene_for(state: GGState, *, board: BoardPlacement = DEFAULT_BOARD, seed: int = 0) -> GleebsScene:
    """The physical position of a game state: its stacks on the board, everything else in
    front of the board."""
    stacks = []
    on_board = set()
    for cell in CELLS:
        pyramids = state.board[index(cell)]
        if pyramids:
            stacks.append(_stack(seed, cell, pyramids))
            on_board.update(pyramids)
    loose = [Loose(Pyramid(p.colour, p.size_name), _slot(board, k), 10.0 * k)
             for k, p in enumerate(RAINBOW) if p not in on_board]
    return GleebsScene(board=board, stacks=tuple(stacks), loose=tuple(loose))


def _touched(move: Any) -> list[tuple[int, int]]:
    if isinstance(move, SetGrues):
        return list(move.cells())
    if isinstance(move, Place):
        return [move.cell]
    if isinstance(move, Step):
        return [move.frm, move.to]
    raise TypeError(f"not a Gleeb's and Grues move: {move!r}")


def _points(board: BoardPlacement, cells: list[tuple[int, int]]) -> tuple[tuple[float, float], ...]:
    out = []
    for c in cells:
        pt = board.to_table(np.array([GLEEBS_BOARD.cell_centre(*c)]))[0]
        out.append((float(pt[0]), float(pt[1])))
    return tuple(out)


def demo_shot(seed: int = 0, board: BoardPlacement = DEFAULT_BOARD) -> Shot:
    rng = np.random.default_rng([seed, 5150])
    return random_shot(rng, board, DEMO_RANGES, light="daylight")


class DemoSource(SequenceSource):
    """A scripted game's video, which also says which script step each frame shows."""

    def __init__(self, *args: Any, steps: list[int], **kwargs: Any):
        super().__init__(*args, **kwargs)
        #: the script step of each position (-1: the start)
        self.steps = steps

    def step_of(self, frame: Any) -> int:
        """The script step a frame shows or leads to (-1: the start)."""
        return self.steps[int(frame.truth["position"])]


def demo_source(script: Script, seed: int = 0, *, shot: Shot | None = None,
                board: BoardPlacement = DEFAULT_BOARD, hand_frames: int = 3,
                still_frames: int = 4) -> DemoSource:
    """The video of a scripted game: the starting position, then each step made by a hand (an
    illegal step is made, then undone by the players before the next), every position held
    still for ``still_frames`` frames."""
    game = GleebsAndGrues()
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    start = scene_for(state, board=board, seed=seed)
    changes = []
    steps = [-1]
    for k, step in enumerate(script.steps):
        move = game.move_from_json(step.move)
        after = game.apply(state, move)
        cells = _touched(move)
        changes.append(Change(scene_for(after, board=board, seed=seed), _points(board, cells)))
        steps.append(k)
        if step.kind == "illegal":
            changes.append(Change(scene_for(state, board=board, seed=seed), _points(board, cells[::-1])))
            steps.append(k)
        else:
            state = after
    return DemoSource(start, changes, shot or demo_shot(seed, board), hand_frames=hand_frames,
                      still_frames=still_frames, seed=seed, steps=steps,
                      name=f"synthetic Gleeb's and Grues table: {script.title or 'scripted game'}")


def reader_for(source: SequenceSource) -> Any:
    """The camera reader for a synthetic table's video: its lens (as `calibrate camera` would
    measure it) and the colours learned on the colour sheet under the video's light."""
    from companion.vision.gleebs.reader import make_reader

    colours = learn_colours(source.start.board, source.shot)
    return make_reader(camera=source.shot.view.camera, colours=colours)


# ------------------------------------------------------------------------- refereeing a video
def video_gate(source: SequenceSource) -> Any:
    """The table's stillness gate, set to wait for the stillness a video gives each
    position (all but one of its still frames)."""
    from companion.vision.stillness import StillnessGate

    fps = source.fps or 30.0
    return StillnessGate(still_s=(source.still_frames - 1.5) / fps)


#: the demo contract's name for the video's gate (see :mod:`companion.demo.video`)
gate_for = video_gate


def referee_video(script: Script, seed: int = 0, *, data_dir: str | None = None,
                  hand_frames: int = 3, still_frames: int = 4, gate: Any = None) -> VideoResult:
    """Render ``script`` as a video, referee it through :class:`RefereeLoop` with the camera
    reader and the table's stillness gate (:func:`video_gate` unless ``gate`` is given), and
    compare what the referee recorded with the script."""
    import tempfile

    from companion.referee.scripted import compare
    from companion.runtime.loop import RefereeLoop
    from companion.runtime.table import Table

    game = GleebsAndGrues()
    source = demo_source(script, seed, hand_frames=hand_frames, still_frames=still_frames)
    reader = reader_for(source)
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(data_dir or tmp)
        try:
            table.start_game(script.game, list(script.players), dict(script.options),
                             seed=script.seed, actor="script", source={"video": source.name})
            loop = RefereeLoop(table, source, reader, gate or video_gate(source), keyframes=False)
            loop.run()
            referee = table.require_game()
            events = table.log.events(referee.session.game_id)
            return VideoResult(compare(game, script, events), loop.stats, events)
        finally:
            table.close()
