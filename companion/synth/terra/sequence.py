"""Videos of a Terra Turrium table: still positions, with an arm reaching in between them.

A sequence is a list of :class:`TerraScene` positions photographed by one camera under one
light. Between two positions an arm comes in over the squares that change (blocks taken or put
down, flags moved), stays while the change is made, and leaves: ``hand_frames`` frames, the
first half showing the position before, the second the position after. Then the position stands
still for ``still_frames`` frames (the sensor's noise differs from frame to frame, as a real
camera's does). Frames come at ``fps`` frames a second.

:class:`TerraSequenceSource` serves such a video as a :class:`~companion.vision.frames.
FrameSource`, rendering each frame when it is read; every frame carries its ground truth
(``Frame.truth``: the truth's JSON plus ``step``, the index of the position it shows or moves
towards, and ``still``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.synth.generate import arm_pass
from companion.synth.scene import Shot
from companion.synth.terra.generate import random_hand
from companion.synth.terra.photo import photograph
from companion.synth.terra.scene import TerraScene
from companion.vision.frames import Frame, FrameSource, SourceError
from companion.vision.terra.kit import SIZE, SQUARE_MM


@dataclass(frozen=True)
class Planned:
    """One frame to render: the position, with or without an arm, which step it belongs to."""

    scene: TerraScene
    step: int
    still: bool


def changed_squares(a: TerraScene, b: TerraScene) -> list[tuple[int, int]]:
    """Squares whose height or flag differs between two positions."""
    out = {(sq % SIZE, sq // SIZE) for sq in range(SIZE * SIZE) if a.heights[sq] != b.heights[sq]}
    flags_a = {(f.cell, f.colour) for f in a.flags}
    flags_b = {(f.cell, f.colour) for f in b.flags}
    out |= {cell for cell, _ in flags_a ^ flags_b}
    return sorted(out)


def plan(scenes: Sequence[TerraScene], *, still_frames: int = 4, hand_frames: int = 3,
         seed: int = 0) -> list[Planned]:
    """The frames of a video of ``scenes`` (see the module docstring)."""
    out: list[Planned] = []
    for step, scene in enumerate(scenes):
        if step > 0 and hand_frames > 0:
            before = scenes[step - 1]
            cells = changed_squares(before, scene) or [(SIZE // 2, SIZE // 2)]
            rng = np.random.default_rng([seed, step, 3])
            centre = np.mean([[(x + 0.5) * SQUARE_MM, (y + 0.5) * SQUARE_MM] for x, y in cells], axis=0)
            target = scene.to_table(centre[None, :])[0]
            base = random_hand(rng, scene if max(scene.heights) >= max(before.heights) else before,
                               (float(target[0]), float(target[1])))
            for k, hand in enumerate(arm_pass(base, hand_frames)):
                shown = before if k < hand_frames / 2 else scene
                out.append(Planned(shown.with_hand(hand), step, False))
        for _ in range(still_frames):
            out.append(Planned(scene.with_hand(None), step, True))
    return out


class TerraSequenceSource(FrameSource):
    """A rendered video (see the module docstring), frame by frame; None after the last."""

    def __init__(self, scenes: Sequence[TerraScene], shot: Shot, *, fps: float = 30.0,
                 still_frames: int = 4, hand_frames: int = 3, seed: int = 0,
                 name: str = "synthetic Terra Turrium table"):
        if not scenes:
            raise ValueError("a sequence needs at least one position")
        self.frames = plan(scenes, still_frames=still_frames, hand_frames=hand_frames, seed=seed)
        self.shot = shot
        self._fps = float(fps)
        self.name = name
        self._next = 0
        self._closed = False
        #: the frame last read (what it shows) and its ground truth, None before the first
        self.last: Planned | None = None
        self.last_truth: dict | None = None

    @property
    def fps(self) -> float | None:
        return self._fps

    def __len__(self) -> int:
        return len(self.frames)

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        if self._next >= len(self.frames):
            return None
        index = self._next
        self._next += 1
        planned = self.frames[index]
        self.last = planned
        photo = photograph(planned.scene, self.shot, frame=index)
        truth = photo.truth.to_json()
        truth["step"] = planned.step
        truth["still"] = planned.still
        self.last_truth = truth
        return Frame(photo.image, index, index / self._fps, truth)

    def close(self) -> None:
        self._closed = True
