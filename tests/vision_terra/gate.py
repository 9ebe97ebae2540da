"""The simplest stillness gate, for the end-to-end test until the shared one
(``companion/vision/stillness.py``) lands: a frame is *settled* when the last ``frames`` frames
differ from each other by less than ``level`` grey levels on average (on a small copy, so that
sensor noise averages out), and it is reported once per still period."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GateReport:
    settled: bool
    delay: float = 0.0


class StillGate:
    def __init__(self, frames: int = 2, level: float = 1.5):
        self.frames = frames
        self.level = level
        self._last: np.ndarray | None = None
        self._still = 0
        self._since: float | None = None

    def update(self, image: np.ndarray, t: float) -> GateReport:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (160, 90), interpolation=cv2.INTER_AREA).astype(np.float32)
        moved = self._last is None or float(np.mean(np.abs(small - self._last))) > self.level
        self._last = small
        if moved:
            self._still = 0
            self._since = t
            return GateReport(False)
        self._still += 1
        if self._still == self.frames:
            return GateReport(True, t - (self._since or t))
        return GateReport(False)
