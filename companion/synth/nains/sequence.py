"""Videos of a La Ville des Nains table: still positions, with an arm reaching in between them.

A sequence is a list of :class:`~companion.synth.nains.scene.NainsScene` positions photographed
by one camera under one light. Between two positions an arm comes in over the places that change
(the dice rolled in the tray, a stone taken from the pool and built, the kobold's tower), stays
while the change is made, and leaves: ``hand_frames`` frames, the first half showing the
position before, the rest the position after. Then the position stands still for
``still_frames`` frames, each with its own sensor noise. Frames come at ``fps`` frames a second.

Each position is drawn once (:func:`~companion.synth.nains.render.draw`) and exposed anew for
every frame; an arm's frames paint the arm and its shadow over the drawn position
(:func:`~companion.synth.nains.render.over_arm`), so a long scripted game renders in minutes.
:class:`NainsSequenceSource` serves such a video as a :class:`~companion.vision.frames.FrameSource`;
every frame carries its ground truth (``Frame.truth``: the truth's JSON plus ``step``, the index
of the position it shows or moves towards, and ``still``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from companion.synth.nains.generate import random_hand
from companion.synth.nains.render import Drawn, draw, expose, over_arm
from companion.synth.nains.scene import NainsScene, pieces
from companion.synth.nains.truth import make_truth
from companion.synth.scene import Hand, Shot
from companion.vision.frames import Frame, FrameSource, SourceError


@dataclass(frozen=True)
class Planned:
    """One frame to render: the position, the arm over it or None, which step it belongs to."""

    step: int
    hand: Hand | None
    shows: int  # the index of the position the frame shows


def changed_places(a: NainsScene, b: NainsScene) -> list[tuple[float, float]]:
    """Table points (mm) where two positions differ: pieces that came, went or moved."""
    def where(scene: NainsScene) -> set[tuple[str, int, int, str]]:
        out = set()
        for p in pieces(scene):
            x, y, z = p.solid.centre
            out.add((p.kind + p.colour + p.shape + p.face, int(round(x)), int(round(y)), f"{z:.0f}"))
        return out
    diff = where(a) ^ where(b)
    return sorted({(float(x), float(y)) for _, x, y, _ in diff})


def plan(scenes: Sequence[NainsScene], *, still_frames: int = 4, hand_frames: int = 3,
         seed: int = 0) -> list[Planned]:
    """The frames of a video of ``scenes`` (see the module docstring)."""
    out: list[Planned] = []
    for step, scene in enumerate(scenes):
        if step > 0 and hand_frames > 0:
            before = scenes[step - 1]
            places = changed_places(before, scene) or [scene.zones.pool.centre]
            target = tuple(np.mean(places, axis=0))
            rng = np.random.default_rng([seed, step, 5])
            taller = scene if scene.highest_mm() >= before.highest_mm() else before
            base = random_hand(rng, taller, (float(target[0]), float(target[1])))
            for k in range(hand_frames):
                phase = math.sin(math.pi * (k + 1) / (hand_frames + 1))
                wrist, elbow = np.array(base.wrist), np.array(base.elbow)
                pulled = elbow + (wrist - elbow) * (0.75 + 0.25 * phase)
                hand = replace(base, wrist=(float(pulled[0]), float(pulled[1]), float(wrist[2])))
                out.append(Planned(step, hand, step - 1 if k < hand_frames / 2 else step))
        for _ in range(still_frames):
            out.append(Planned(step, None, step))
    return out


class NainsSequenceSource(FrameSource):
    """A rendered video (see the module docstring), frame by frame; None after the last."""

    def __init__(self, scenes: Sequence[NainsScene], shot: Shot, *, fps: float = 30.0,
                 still_frames: int = 4, hand_frames: int = 3, seed: int = 0,
                 name: str = "synthetic La Ville des Nains table"):
        if not scenes:
            raise ValueError("a sequence needs at least one position")
        if still_frames < 1 or fps <= 0:
            raise ValueError("a sequence needs at least one still frame per position, at fps > 0")
        self.scenes = list(scenes)
        self.frames = plan(self.scenes, still_frames=still_frames, hand_frames=hand_frames, seed=seed)
        self.still_frames = int(still_frames)
        self.hand_frames = int(hand_frames)
        self.shot = shot
        self._fps = float(fps)
        self.name = name
        self._next = 0
        self._closed = False
        self._drawn: tuple[int, Drawn] | None = None

    @property
    def fps(self) -> float | None:
        return self._fps

    def __len__(self) -> int:
        return len(self.frames)

    def _picture(self, index: int) -> Drawn:
        if self._drawn is None or self._drawn[0] != index:
            self._drawn = (index, draw(self.scenes[index], self.shot))
        return self._drawn[1]

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        if self._next >= len(self.frames):
            return None
        index = self._next
        self._next += 1
        planned = self.frames[index]
        drawn = self._picture(planned.shows)
        scene = self.scenes[planned.shows]
        if planned.hand is not None:
            drawn = over_arm(drawn, planned.hand, self.shot)
            scene = scene.with_hand(planned.hand)
        shot = replace(self.shot, seed=(self.shot.seed * 7919 + index) % (2**31 - 1))
        rendered = expose(drawn, shot)
        truth = make_truth(scene, shot, rendered).to_json()
        truth["step"] = planned.step
        truth["still"] = planned.hand is None
        return Frame(rendered.image, index, index / self._fps, truth)

    def close(self) -> None:
        self._closed = True
