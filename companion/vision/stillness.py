"""The stillness gate: a frame is worth reading only when the table has stopped moving.

Each frame is shrunk to a small grey image (160 × 90 by area averaging, which also averages the
sensor's noise away) and compared with the frame before. When too many of its pixels changed by
more than the noise, something moved; the scene is *still* once no frame has moved for
``still_s`` seconds, and the gate says *settled* once, on the frame where that happens, so each
still moment is read exactly once. Any motion starts the wait again.

The comparison is also made against the first frame of the still stretch, so a slow drift (a
card sliding, a hand creeping in) is caught even when no two consecutive frames differ much.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import BadInput

SMALL = (160, 90)


@dataclass(frozen=True)
class GateReport:
    """``moving``: this frame differs from the last; ``still``: nothing has moved for
    ``still_for`` seconds, at least the gate's time; ``settled``: this is the frame where the
    scene just became still (true once per still moment); ``delay``: seconds from the first
    still frame to this one; ``motion``: the share of the small image that changed."""

    moving: bool
    still: bool
    settled: bool
    still_for: float
    delay: float
    motion: float


class StillnessGate:
    """``still_s``: how long the scene must stay still; ``level``: the grey-level change (0–255)
    a pixel of the small image must exceed to count as changed; ``share``: the share of changed
    pixels that means motion."""

    def __init__(self, still_s: float = 0.4, *, level: float = 8.0, share: float = 0.003,
                 drift_share: float = 0.01):
        if not still_s >= 0:
            raise BadInput(f"the stillness time must be a number of seconds ≥ 0, not {still_s!r}")
        self.still_s = float(still_s)
        self.level = float(level)
        self.share = float(share)
        self.drift_share = float(drift_share)
        self.reset()

    def reset(self) -> None:
        """Forget everything: the next frame starts a new wait."""
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._since: float | None = None
        self._announced = False

    @staticmethod
    def shrink(image: np.ndarray) -> np.ndarray:
        if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
            raise BadInput("the stillness gate needs an image (H×W or H×W×3 array)")
        small = cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return small

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        diff = cv2.absdiff(a, b)
        return float(np.count_nonzero(diff > self.level)) / diff.size

    def update(self, image: np.ndarray, t: float) -> GateReport:
        """Feed one frame taken at ``t`` seconds."""
        small = self.shrink(image)
        if self._prev is None or self._prev.shape != small.shape:
            self._prev, self._anchor, self._since, self._announced = small, small, t, False
            return GateReport(True, False, False, 0.0, 0.0, 1.0)
        motion = self._changed(small, self._prev)
        drift = self._changed(small, self._anchor) if self._anchor is not None else 0.0
        self._prev = small
        if motion > self.share or drift > self.drift_share:
            self._anchor, self._since, self._announced = small, t, False
            return GateReport(True, False, False, 0.0, 0.0, motion)
        still_for = t - (self._since if self._since is not None else t)
        still = still_for >= self.still_s
        settled = still and not self._announced
        if settled:
            self._announced = True
        return GateReport(False, still, settled, still_for, still_for if settled else 0.0, motion)
