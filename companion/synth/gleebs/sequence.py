"""Videos of a Gleeb's and Grues table: positions one after another, hands moving the pieces
between them, as frames with ground truth.

A :class:`Change` is the next still position and the table points a hand visits to make it (the
square a piece is lifted from, the square it is put on). For each change the video shows the
arm reaching in over the first point with the position as it was, over the last point with the
position as it becomes, and leaving; then the still position for a few frames, each with its own
sensor noise (a still camera's frames are never quite identical). The first position is shown
still before any change. :class:`SequenceSource` serves the frames as a
:class:`~companion.vision.frames.FrameSource`, at ``fps`` frames a second, each frame carrying
its truth (``Frame.truth``: :meth:`GleebsTruth.to_json`, plus ``"position"``: the index of the
change it shows or leads to, and ``"still"``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import numpy as np

from companion.synth.gleebs.generate import random_hand
from companion.synth.gleebs.render import draw, expose
from companion.synth.gleebs.scene import GleebsScene
from companion.synth.gleebs.truth import make_truth
from companion.synth.scene import Shot
from companion.vision.frames import Frame, FrameSource, SourceError


@dataclass(frozen=True)
class Change:
    """The position after a change, and the table points (mm) a hand visits to make it."""

    scene: GleebsScene
    reach: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class _Shot:
    """One frame to make: the scene, and whether it is still (its picture can be reused)."""

    scene: GleebsScene
    position: int
    still: bool


class SequenceSource(FrameSource):
    """The frames of a sequence of changes seen by one camera (``shot``), rendered as they are
    read. ``hand_frames`` per change (at least 2: reaching in, and leaving) and ``still_frames``
    per position."""

    def __init__(self, start: GleebsScene, changes: Sequence[Change], shot: Shot, *,
                 hand_frames: int = 3, still_frames: int = 4, fps: float = 30.0, seed: int = 0,
                 name: str = "synthetic Gleeb's and Grues table"):
        if hand_frames < 2 or still_frames < 1 or fps <= 0:
            raise ValueError("a change needs at least 2 hand frames and 1 still frame, at fps > 0")
        self.start = start
        self.changes = list(changes)
        self.shot = shot
        self.name = name
        self._fps = float(fps)
        self.hand_frames = hand_frames
        self.still_frames = still_frames
        self.seed = seed
        self._plan = iter(self._frames())
        self._index = 0
        self._closed = False
        self._still_cache: tuple[int, np.ndarray, dict] | None = None

    @property
    def fps(self) -> float | None:
        return self._fps

    def __len__(self) -> int:
        return self.still_frames * (1 + len(self.changes)) + self.hand_frames * len(self.changes)

    def _frames(self) -> Iterator[_Shot]:
        for _ in range(self.still_frames):
            yield _Shot(self.start, 0, True)
        before = self.start
        for k, change in enumerate(self.changes, start=1):
            rng = np.random.default_rng([self.seed, k, 31])
            reach = list(change.reach) or [tuple(change.scene.board.to_table(np.array([[90.0, 90.0]]))[0])]
            tallest = before if before.top_mm() >= change.scene.top_mm() else change.scene
            arm = random_hand(rng, tallest, target=reach[0])
            last = reach[-1]
            away = np.array(arm.elbow[:2]) - np.array(last)
            away /= max(float(np.linalg.norm(away)), 1e-9)
            for f in range(self.hand_frames):
                if f == self.hand_frames - 1:
                    # leaving: the fingers still over the board's edge, the arm going back
                    target = np.array(last) + away * 120.0
                    scene = change.scene
                elif f < (self.hand_frames - 1) / 2:
                    target, scene = np.array(reach[0]), before
                else:
                    target, scene = np.array(last), change.scene
                shift = target - np.array(reach[0])
                hand = replace(arm, wrist=(arm.wrist[0] + shift[0], arm.wrist[1] + shift[1], arm.wrist[2]))
                yield _Shot(scene.with_hand(hand), k, False)
            for _ in range(self.still_frames):
                yield _Shot(change.scene, k, True)
            before = change.scene

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        plan = next(self._plan, None)
        if plan is None:
            return None
        noise_seed = int(np.random.default_rng([self.seed, self._index, 47]).integers(0, 2**31 - 1))
        shot = replace(self.shot, seed=noise_seed)
        if plan.still and self._still_cache is not None and self._still_cache[0] == plan.position:
            linear, truth = self._still_cache[1], self._still_cache[2]
        else:
            linear, ids, solids = draw(plan.scene, self.shot)
            truth = make_truth(plan.scene, self.shot, solids, ids).to_json()
            if plan.still:
                self._still_cache = (plan.position, linear, truth)
        image = expose(linear, shot)
        frame = Frame(image, self._index, self._index / self._fps,
                      truth={**truth, "position": plan.position, "still": plan.still})
        self._index += 1
        return frame

    def close(self) -> None:
        self._closed = True
