"""Playing a scripted game as a video through the referee loop, with the table's people played
by the script: they answer the referee's questions as the script says, and let an illegal move
stand where the script says the table agreed.

The per-game demo modules (``companion/demo/<game>.py``) provide ``demo_source(script, seed)``
(a frame source that also says which script step each frame shows: ``step_of(frame)``) and
``reader_for(source)`` (the camera reader a user would have at that table), and may provide
``gate_for(source)`` (the stillness gate set for the video's still moments; the table's default
gate otherwise).
"""

from __future__ import annotations

import importlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from companion.errors import UserError
from companion.games import get_game
from companion.games.script import Script
from companion.runtime.loop import RefereeLoop
from companion.runtime.table import Table

log = logging.getLogger(__name__)

#: the demo module of each game (the package names the vision and synth packages use)
DEMO_MODULES = {
    "haut-les-cubes": "companion.demo.hlc",
    "gleebs-and-grues": "companion.demo.gleebs",
    "terra-turrium": "companion.demo.terra",
    "ville-des-nains": "companion.demo.nains",
    "altitude": "companion.demo.altitude",
}


@dataclass
class VideoResult:
    """A rendered game refereed through the live loop: the comparison with the script, the
    loop's figures and the events recorded (what each demo module's ``referee_video``
    returns)."""

    comparison: Any
    stats: Any
    events: list[Any]


def demo_module(game: str) -> Any:
    return importlib.import_module(DEMO_MODULES[game])


@dataclass
class ScriptedTable:
    """The people at the table, as the script has them."""

    script: Script
    answered: set[int] = field(default_factory=set)
    stood: set[int] = field(default_factory=set)

    def act(self, table: Table, step: int) -> None:
        referee = table.referee
        if referee is None or step < 0:
            return
        kind = self.script.steps[step].kind
        try:
            if referee.session.question is not None and step not in self.answered:
                self.answered.add(step)
                table.act("answer", {"choice": dict(self.script.steps[step].move)}, actor="script")
            if kind == "let_stand" and referee.session.pending_illegal is not None \
                    and step not in self.stood:
                self.stood.add(step)
                table.act("let_stand", actor="script")
        except UserError as exc:
            # the referee asked something the script did not expect (the camera misread an
            # earlier position): the players' scripted answer does not fit, so the question
            # stays open for a person, as at a real table
            log.warning("step %d: the script's answer does not fit the referee's question: %s",
                        step, exc)


def play_video(table: Table, script: Script, *, seed: int = 0, realtime: bool = False,
               gate: Any = None, source: Any = None, reader: Any = None,
               read_early: bool = False) -> RefereeLoop:
    """Start the script's game on ``table`` and play its video through the referee loop to the
    end (``realtime``: frames paced at the video's rate, for people watching; ``read_early``:
    see :class:`RefereeLoop`)."""
    from companion.vision.stillness import StillnessGate

    module = demo_module(script.game)
    source = source or module.demo_source(script, seed)
    reader = reader or module.reader_for(source)
    table.start_game(script.game, list(script.players), dict(script.options), seed=script.seed,
                     actor="script", source={"demo": script.title or script.game})
    if gate is None:
        gate = module.gate_for(source) if hasattr(module, "gate_for") else StillnessGate()
    loop = RefereeLoop(table, source, reader, gate, overlay=overlay_for(reader),
                       read_early=read_early)
    people = ScriptedTable(script)
    fps = source.fps or 15.0
    t0 = time.monotonic()
    while loop.step():
        frame = loop.last_frame
        if frame is not None:
            people.act(table, source.step_of(frame))
            if realtime:
                ahead = frame.t - (time.monotonic() - t0)
                if ahead > 0:
                    loop._stop.wait(ahead)  # pacing playback to the video's clock
        if table.referee is not None and table.referee.session.ended:
            break
    return loop


def overlay_for(reader: Any) -> Any:
    """The reader's drawing of what it found over a full-size frame, for the camera view."""
    own = getattr(reader, "annotate", None)
    if callable(own):
        return own
    if reader.__class__.__name__ == "HlcReader":
        from companion.vision.hlc.annotate import annotate

        def draw(image: Any, observation: Any) -> Any:
            view = getattr(reader.last, "view", None)
            return image if view is None else annotate(image, view, observation)
        return draw
    return None
