"""Videos of the synthetic table: positions held still, and hands moving pieces between them.

A :class:`Sequence` is a list of :class:`Keyframe` (a position and how long it stays still)
photographed by one :class:`~companion.synth.scene.Shot`. Between two keyframes an arm comes in
from a side of the table towards what changes, hovers there while the pieces change under it,
and goes away; then the new position holds still. Frames come at ``fps`` with their ground
truth: the position on the table, whether an arm is in view, whether anything is moving.

Still stretches are drawn once and only re-exposed for each frame (fresh sensor noise), so a
long video costs little more than its moving parts. :class:`SyntheticSource` serves a sequence
through the :class:`~companion.vision.frames.FrameSource` interface, for the demo and the
referee loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator

import numpy as np

from companion.synth.generate import random_hand
from companion.synth.render import expose, render_linear
from companion.synth.scene import Hand, Scene, Shot
from companion.vision.frames import Frame, FrameSource, SourceError
from companion.vision.hlc.layout import DEFAULT_LAYOUT, Layout

#: seconds an arm takes to come in, hover over the change, and leave
ENTER_S, HOVER_S, LEAVE_S = 0.6, 0.6, 0.6
#: how far (mm) the arm starts and ends outside its hover point, along itself
REACH_MM = 420.0


@dataclass(frozen=True)
class Keyframe:
    """A position, held still for ``hold_s`` seconds once the hands have left."""

    scene: Scene
    hold_s: float = 1.5


@dataclass(frozen=True)
class Moment:
    """What is in front of the camera at one instant: the scene (with the arm, if any) and the
    keyframe it belongs to."""

    scene: Scene
    keyframe: int
    moving: bool


def change_point(a: Scene, b: Scene, layout: Layout = DEFAULT_LAYOUT) -> tuple[float, float]:
    """Where on the table (mm) ``b`` differs from ``a``: the centre of the cubes added or
    removed, else of the giants moved, else the card zone."""
    lat = b.lattice
    diff = set(a.cubes) ^ set(b.cubes)
    if diff:
        pts = lat.to_table(np.array([[i + 1.0, j + 1.0] for i, j, _ in diff]))
        c = pts.mean(axis=0)
        return float(c[0]), float(c[1])
    moved = set(a.giants) ^ set(b.giants)
    if moved:
        pts = lat.to_table(np.array([[g.cell[0] + 0.5, g.cell[1] + 0.5] for g in moved]))
        c = pts.mean(axis=0)
        return float(c[0]), float(c[1])
    return layout.card_zone_centre


def _withdrawn(hand: Hand, distance: float) -> Hand:
    """The arm pulled back along itself by ``distance`` mm (and raised a little)."""
    e, w = np.array(hand.elbow), np.array(hand.wrist)
    d = w - e
    d[2] = 0.0
    n = float(np.linalg.norm(d))
    d = d / n if n > 1e-9 else np.array([1.0, 0.0, 0.0])
    lift = np.array([0.0, 0.0, 0.25 * distance])
    return replace(hand, elbow=tuple(e - d * distance + lift), wrist=tuple(w - d * distance + lift))


class Sequence:
    """A video of keyframes with hands moving the pieces between them."""

    def __init__(self, keyframes: list[Keyframe], shot: Shot, *, fps: float = 30.0,
                 layout: Layout = DEFAULT_LAYOUT, seed: int = 0, start_hold_s: float | None = None):
        if not keyframes:
            raise ValueError("a sequence needs at least one keyframe")
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.keyframes, self.shot, self.fps, self.layout = keyframes, shot, float(fps), layout
        self.seed = seed
        self._segments: list[tuple[float, float, int, str]] = []  # (start, end, keyframe, kind)
        t = 0.0
        first_hold = keyframes[0].hold_s if start_hold_s is None else start_hold_s
        self._segments.append((t, t + first_hold, 0, "still"))
        t = self._segments[-1][1]
        self._hands: dict[int, Hand] = {}
        rng = np.random.default_rng([seed, 17])
        for k in range(1, len(keyframes)):
            a, b = keyframes[k - 1].scene, keyframes[k].scene
            target = change_point(a, b, layout)
            # the arm must clear the taller of the two positions
            taller = a if max(a.heights().values(), default=0) >= max(b.heights().values(), default=0) else b
            self._hands[k] = random_hand(rng, taller, layout, target=target)
            # each segment starts exactly where the last ended (``t + a + b + c`` and
            # ``t += a + b + c`` round differently: a frame falling in the gap between them was
            # drawn as the last position of the video)
            end = t + (ENTER_S + HOVER_S + LEAVE_S)
            self._segments.append((t, end, k, "hand"))
            t = end
            end = t + keyframes[k].hold_s
            self._segments.append((t, end, k, "still"))
            t = end
        self.duration = t
        self._linear_cache: dict[int, tuple[np.ndarray, object]] = {}

    def __len__(self) -> int:
        return int(math.floor(self.duration * self.fps + 1e-9))

    def moment(self, t: float) -> Moment:
        for start, end, k, kind in self._segments:
            if start <= t < end or (end >= self.duration and t <= end):
                if kind == "still":
                    return Moment(self.keyframes[k].scene, k, False)
                u = t - start
                before, after = self.keyframes[k - 1].scene, self.keyframes[k].scene
                hand = self._hands[k]
                if u < ENTER_S:
                    scene, arm = before, _withdrawn(hand, REACH_MM * (1 - u / ENTER_S))
                elif u < ENTER_S + HOVER_S:
                    scene = before if u < ENTER_S + HOVER_S / 2 else after
                    # a hand held over the table is never quite still
                    w = 3.0 * math.sin(2 * math.pi * 3.0 * u)
                    arm = replace(hand, wrist=(hand.wrist[0] + w, hand.wrist[1] - w, hand.wrist[2]))
                else:
                    scene = after
                    arm = _withdrawn(hand, REACH_MM * (u - ENTER_S - HOVER_S) / LEAVE_S)
                return Moment(scene.with_hand(arm), k, True)
        return Moment(self.keyframes[-1].scene, len(self.keyframes) - 1, False)

    def frame(self, index: int) -> Frame:
        """Frame ``index`` (0-based) and its truth."""
        t = index / self.fps
        m = self.moment(t)
        if not m.moving and m.scene.hand is None:
            cached = self._linear_cache.get(m.keyframe)
            if cached is None:
                cached = render_linear(m.scene, self.shot, self.layout)
                self._linear_cache = {m.keyframe: cached}  # one still stretch at a time
            linear, truth = cached
        else:
            linear, truth = render_linear(m.scene, self.shot, self.layout)
        image = expose(linear, self.shot, frame_seed=index + 1)
        data = truth.to_json()
        data.update({"keyframe": m.keyframe, "moving": m.moving, "hand": m.scene.hand is not None})
        return Frame(image=image, index=index, t=t, truth=data)

    def frames(self) -> Iterator[Frame]:
        for i in range(len(self)):
            yield self.frame(i)


class SyntheticSource(FrameSource):
    """A :class:`Sequence` as a frame source: ``read`` gives its frames in order, then None."""

    def __init__(self, sequence: Sequence, name: str = "synthetic table"):
        self.sequence = sequence
        self.name = name
        self._next = 0
        self._closed = False

    def read(self) -> Frame | None:
        if self._closed:
            raise SourceError(f"{self.name} is closed")
        if self._next >= len(self.sequence):
            return None
        frame = self.sequence.frame(self._next)
        self._next += 1
        return frame

    def close(self) -> None:
        self._closed = True

    @property
    def fps(self) -> float | None:
        return self.sequence.fps
