"""Videos of an Altitude table: still positions, with an arm reaching in between them.

A sequence is a list of :class:`~companion.synth.altitude.scene.AltitudeScene` positions
photographed by one camera under one light. Between two positions an arm comes in over the
cards that change (a card laid, thrown, shown, taken away), stays while the change is made, and
leaves: ``hand_frames`` frames, the first half showing the position before, the second the
position after. Then the position stands still for ``still_frames`` frames (the sensor's noise
differs from frame to frame, as a real camera's does). Frames come at ``fps`` frames a second.

:class:`AltitudeSequenceSource` serves such a video as a :class:`~companion.vision.frames.
FrameSource`, rendering each frame when it is read; every frame carries its ground truth
(``Frame.truth``: the truth's JSON plus ``position``, the index of the position it shows or
moves towards, ``step``, what that position follows, and ``still``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from companion.synth.altitude.generate import random_hand
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.scene import AltitudeScene
from companion.synth.generate import arm_pass
from companion.synth.scene import Shot
from companion.vision.frames import Frame, FrameSource, SourceError


@dataclass(frozen=True)
class Planned:
    """One frame to render: the position (with or without an arm), which position it shows
    or moves towards, and whether the table is still."""

    scene: AltitudeScene
    position: int
    still: bool


def changed_places(a: AltitudeScene, b: AltitudeScene) -> list[tuple[float, float]]:
    """Where the cards that differ between two positions lie (table mm)."""
    def places(s: AltitudeScene) -> set[tuple]:
        return {(c.card, c.role, c.seat, c.slot, round(c.centre[0], 1), round(c.centre[1], 1))
                for c in s.laid()}

    pa, pb = places(a), places(b)
    return [(p[4], p[5]) for p in pa ^ pb]


def plan(scenes: Sequence[AltitudeScene], *, still_frames: int = 4, hand_frames: int = 3,
         seed: int = 0) -> list[Planned]:
    """The frames of a video of ``scenes`` (see the module docstring)."""
    out: list[Planned] = []
    for n, scene in enumerate(scenes):
        if n > 0 and hand_frames > 0:
            before = scenes[n - 1]
            places = changed_places(before, scene)
            rng = np.random.default_rng([seed, n, 3])
            if places:
                target = tuple(float(v) for v in np.mean(np.array(places), axis=0))
            else:
                tw, td = scene.layout.table_mm
                target = (tw / 2, td / 2)
            base = random_hand(rng, scene, target)  # type: ignore[arg-type]
            for k, hand in enumerate(arm_pass(base, hand_frames)):
                shown = before if k < hand_frames / 2 else scene
                out.append(Planned(shown.with_hand(hand), n, False))
        for _ in range(still_frames):
            out.append(Planned(scene.with_hand(None), n, True))
    return out


class AltitudeSequenceSource(FrameSource):
    """A rendered video (see the module docstring), frame by frame; None after the last.
    ``steps`` gives, for each position, the script step it follows (-1 for none)."""

    def __init__(self, scenes: Sequence[AltitudeScene], shot: Shot, *, fps: float = 30.0,
                 still_frames: int = 4, hand_frames: int = 3, seed: int = 0,
                 steps: Sequence[int] | None = None, name: str = "synthetic Altitude table"):
        if not scenes:
            raise ValueError("a sequence needs at least one position")
        self.scenes = list(scenes)
        self.frames = plan(scenes, still_frames=still_frames, hand_frames=hand_frames, seed=seed)
        self.shot = shot
        self.still_frames = still_frames
        self.hand_frames = hand_frames
        self.steps = list(steps) if steps is not None else [n - 1 for n in range(len(scenes))]
        self._fps = float(fps)
        self.name = name
        self._next = 0
        self._closed = False
        self.last_frame: Frame | None = None

    @property
    def fps(self) -> float | None:
        return self._fps

    @property
    def start(self) -> AltitudeScene:
        return self.scenes[0]

    def __len__(self) -> int:
        return len(self.frames)

    def step_of(self, frame: Frame) -> int:
        """The script step the position a frame shows (or moves towards) follows."""
        truth = frame.truth or {}
        return int(truth.get("step", -1))

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        if self._next >= len(self.frames):
            return None
        index = self._next
        self._next += 1
        planned = self.frames[index]
        shot = replace(self.shot, seed=(self.shot.seed * 7919 + index) % (2**31 - 1))
        photo = photograph(planned.scene, shot)
        truth = photo.truth.to_json()
        truth["position"] = planned.position
        truth["step"] = self.steps[planned.position]
        truth["still"] = planned.still
        frame = Frame(photo.image, index, index / self._fps, truth)
        self.last_frame = frame
        return frame

    def close(self) -> None:
        self._closed = True
