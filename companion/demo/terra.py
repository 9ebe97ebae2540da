"""Terra Turrium on the synthetic table: engine states drawn as scenes, scripted games as videos.

The demo layer is the one place that knows both the rules engine (its states) and the synthetic
table (its scenes). :func:`scene_for` draws a state; :func:`demo_source` renders a scripted
game (``companion.games.terra_turrium.scripts``) as a video: an arm makes each step's change,
then the table stands still. An illegal step is followed by the players putting the pieces back
(the position before it, shown again); a step the camera cannot settle alone (``ask``: whether
the turn is over) looks like any other, and the referee asks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.games import get_game
from companion.games.script import Script
from companion.games.terra_turrium import board
from companion.synth.generate import random_light
from companion.synth.scene import Shot
from companion.synth.terra.colour_shot import learn_colours
from companion.synth.terra.generate import TerraRanges, random_view, table_layout
from companion.synth.terra.scene import Flag, TerraScene
from companion.synth.terra.sequence import TerraSequenceSource

#: where the demo board lies on the table (its centre near the table's), its kit
DEMO_BOARD = TerraScene(tuple([0] * 100), (), (170.0, 150.0), 8.0, "natural", 17)


def scene_for(state, *, like: TerraScene = DEMO_BOARD) -> TerraScene:
    """The table showing ``state`` (a Terra Turrium engine state): its height map and flags on
    the board ``like`` lies (place, angle, block colour)."""
    flags = tuple(Flag(colour, board.xy(sq)) for sq, colour in state.flags)
    return replace(like, heights=tuple(int(h) for h in state.heights), flags=flags, hand=None)


@dataclass(frozen=True)
class DemoStep:
    """What a position of the demo video shows: the script step it follows (-1: the start),
    and whether it is the pieces put back after an illegal step."""

    step: int
    put_back: bool = False


def demo_positions(script: Script, *, like: TerraScene = DEMO_BOARD) -> tuple[list[TerraScene], list[DemoStep]]:
    """The still positions of a scripted game, in order, and what each one is."""
    game = get_game(script.game)
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    scenes = [scene_for(state, like=like)]
    steps = [DemoStep(-1)]
    for number, step in enumerate(script.steps):
        after = game.apply(state, game.move_from_json(step.move))
        scenes.append(scene_for(after, like=like))
        steps.append(DemoStep(number))
        if step.kind == "illegal":
            scenes.append(scene_for(state, like=like))  # the pieces go back
            steps.append(DemoStep(number, put_back=True))
        else:
            state = after
    return scenes, steps


def demo_shot(seed: int = 0, *, tilt_deg: float = 28.0, light: str = "daylight",
              like: TerraScene = DEMO_BOARD) -> Shot:
    """The demo's camera: tilted (heights read best), seeing the whole board, a lossless
    frame with a webcam's noise."""
    rng = np.random.default_rng([seed, 41])
    ranges = TerraRanges(height_mm=(650.0, 750.0), hfov_deg=(62.0, 68.0))
    scene = replace(like, heights=tuple([7] * 100))
    view = random_view(rng, scene, ranges, tilt_deg)
    return Shot(view=view, light=random_light(rng, light), table="wood", table_variant=1,
                noise=1.5, blur=0.6, jpeg=92, exposure=0.45, seed=seed)


class DemoSource(TerraSequenceSource):
    """A scripted game as a video (:func:`demo_source`); ``positions`` says what each still
    position is (``Frame.truth["step"]`` indexes it)."""

    def __init__(self, script: Script, shot: Shot, *, seed: int = 0, still_frames: int = 4,
                 hand_frames: int = 3, like: TerraScene = DEMO_BOARD):
        scenes, positions = demo_positions(script, like=like)
        super().__init__(scenes, shot, still_frames=still_frames, hand_frames=hand_frames, seed=seed,
                         name=f"synthetic table: {script.title or script.game}")
        self.positions = positions
        self.script = script
        self.still_frames = still_frames

    def step_of(self, frame: Any) -> int:
        """The script step a frame of this video shows or leads to (-1: the start)."""
        return self.positions[int(frame.truth["step"])].step


def reader_for(source: DemoSource) -> Any:
    """The camera reader a user would have at this table: the lens as ``calibrate camera``
    measures it, the table's layout as ``calibrate table`` measures it, and the flags' colours
    learned under the video's light (``calibrate colours``)."""
    from companion.vision.terra.reader import make_reader

    return make_reader(camera=source.shot.view.camera, layout=table_layout(),
                       colours=learn_colours(DEMO_BOARD, source.shot))


def gate_for(source: DemoSource) -> Any:
    """The table's stillness gate set for the video's still moments: it waits for all but one
    and a half of a position's still frames, so each position is read once, after the arm has
    left, and never while it moves."""
    from companion.vision.stillness import StillnessGate

    fps = source.fps or 30.0
    return StillnessGate(still_s=max(0.0, (source.still_frames - 1.5) / fps))


#: a block lifted where less than this share of its top shows afterwards is lifted out of sight.
#: Below the share at which a top is read (``MIN_VISIBLE``, 0.25): the reader sees a block gone
#: from the edge of its old top, the new picture of the pixels that showed it (in the demo video
#: of seed 5, a block lifted from g7 at step 4 with 0.23 of its old top in view is seen lifted;
#: at seed 9000, with 0.17 in view, it is not, and the referee asks)
LIFT_VISIBLE = 0.2


def with_hidden_puts_asked(script: Script, visible: dict[int, tuple[float, ...]],
                           above: dict[int, tuple[float, ...]] | None = None) -> Script:
    """The script as this camera must referee it (``visible``: the share of each square's top
    that shows, for each still position, by the position's index in :func:`demo_positions`;
    ``above``: likewise, the share of a top one block higher, where a block lifted from the
    square stood: ``visible_above`` of the synthetic table's truth; without it, lifts are not
    judged).
    Two kinds of step cannot be settled from the picture, so the referee asks and the step
    counts as a question:

    * a block laid on a square whose top the camera cannot see: the picture cannot tell it
      from a block still in hand;
    * a block lifted from a square where the camera cannot see, after the step, where the
      block's top was (less than :data:`LIFT_VISIBLE` of it shows), while another square whose
      top it cannot see holds a block that could have been lifted instead (the same move with
      that square, legal): the picture cannot show which of them lost a block."""
    from companion.synth.terra.truth import MIN_VISIBLE

    game = get_game(script.game)
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    _scenes, positions = demo_positions(script)
    after = {p.step: k for k, p in enumerate(positions) if not p.put_back}
    steps = []
    for number, step in enumerate(script.steps):
        move = game.move_from_json(step.move)
        shown = visible.get(after.get(number, -1))
        lifted = (above or {}).get(after.get(number, -1))
        if shown is not None and step.kind == "play" and (
                _hidden_put(move, shown, MIN_VISIBLE)
                or (lifted is not None and _hidden_take(game, state, move, shown, lifted, MIN_VISIBLE))):
            step = replace(step, kind="ask")
        steps.append(step)
        if step.kind != "illegal":
            state = game.apply(state, move)
    return replace(script, steps=tuple(steps))


def _hidden_put(move: Any, shown: tuple[float, ...], least: float) -> bool:
    return any(shown[a.squares[0]] < least for a in move.actions if a.kind == "put")


def _hidden_take(game: Any, state: Any, move: Any, shown: tuple[float, ...],
                 lifted: tuple[float, ...], least: float) -> bool:
    """Whether a block the move lifts where the camera cannot see it gone could as well have
    come off another square whose top is hidden (the move with that square instead is legal)."""
    hidden = [sq for sq in range(len(shown)) if shown[sq] < least]
    for k, action in enumerate(move.actions):
        if action.kind != "take" or lifted[action.squares[0]] >= LIFT_VISIBLE:
            continue
        for other in hidden:
            if other == action.squares[0] or state.heights[other] <= 0:
                continue
            swapped = replace(action, squares=(other,))
            alt = replace(move, actions=move.actions[:k] + (swapped,) + move.actions[k + 1:])
            if game.check(state, alt).legal:
                return True
    return False


def expected_script(script: Script, truths: list[dict[str, Any]]) -> Script:
    """:func:`with_hidden_puts_asked` from the truths of the frames the camera read (each
    carries its position's index, ``step``, and every square's ``visible`` and
    ``visible_above`` shares)."""
    visible = {int(t["step"]): tuple(t["visible"]) for t in truths if "visible" in t and "step" in t}
    above = {int(t["step"]): tuple(t["visible_above"]) for t in truths
             if "visible_above" in t and "step" in t}
    return with_hidden_puts_asked(script, visible, above)


def demo_source(script: Script, seed: int = 0, *, still_frames: int = 4, hand_frames: int = 3,
                tilt_deg: float = 28.0) -> DemoSource:
    """A rendered video of ``script`` (see the module docstring)."""
    return DemoSource(script, demo_shot(seed, tilt_deg=tilt_deg), seed=seed,
                      still_frames=still_frames, hand_frames=hand_frames)
