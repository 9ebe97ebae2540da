"""The height scorer: a small neural network over each hypothesis's features.

For one square, each hypothetical height gets a feature vector
(:mod:`companion.vision.terra.features`); the scorer turns it into a score, and the softmax of
the scores over the heights is the reader's probability of each. The scorer is a one-hidden-layer
network with a linear shortcut: ``score = u·x + v·tanh(W x + b)`` on standardised features.
Its weights are fitted on rendered frames with exact ground truth by
:mod:`companion.synth.terra.tuning` (``python -m companion.synth.terra.tuning``), which writes
``weights.npz`` beside this module; the file records which features it was fitted on, so a
reader never runs a scorer on features it was not made for.

"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.errors import UserError

WEIGHTS_FILE = Path(__file__).with_name("weights.npz")


@dataclass(frozen=True)
class Scorer:
    """``score(x) = u·z + v·tanh(W z + b)`` with ``z = (x − mean) / std``."""

    mean: np.ndarray
    std: np.ndarray
    u: np.ndarray
    W: np.ndarray
    b: np.ndarray
    v: np.ndarray

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """Scores for features ``X`` (… × F)."""
        z = (X - self.mean) / self.std
        return z @ self.u + np.tanh(z @ self.W.T + self.b) @ self.v

    @classmethod
    def linear(cls, weights: np.ndarray) -> "Scorer":
        """A scorer that is only the linear part (for a first fit)."""
        n = len(weights)
        return cls(np.zeros(n), np.ones(n), np.asarray(weights, float), np.zeros((1, n)),
                   np.zeros(1), np.zeros(1))

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}_{k}": getattr(self, k) for k in ("mean", "std", "u", "W", "b", "v")}

    @classmethod
    def from_arrays(cls, data, prefix: str) -> "Scorer":
        return cls(*(np.asarray(data[f"{prefix}_{k}"], float) for k in ("mean", "std", "u", "W", "b", "v")))


@dataclass(frozen=True)
class HeightModel:
    """The scorer and the feature names it was fitted on."""

    scorer: Scorer
    names: tuple[str, ...]

    def save(self, path: str | Path = WEIGHTS_FILE) -> Path:
        path = Path(path)
        np.savez(path, names=np.array(self.names), **self.scorer.arrays("scorer"))
        return path

    @classmethod
    def load(cls, path: str | Path = WEIGHTS_FILE, *, names: tuple[str, ...]) -> "HeightModel":
        path = Path(path)
        try:
            data = np.load(path)
            saved = tuple(str(n) for n in data["names"])
            scorer = Scorer.from_arrays(data, "scorer")
        except (OSError, ValueError, KeyError) as exc:
            raise UserError(f"the Terra Turrium height scorer cannot be read from {path} ({exc})",
                            hint="reinstall the program, or refit it: python -m companion.synth.terra.tuning") from None
        if saved != tuple(names):
            raise UserError(f"the height scorer in {path} was fitted on other features than this "
                            "version computes", hint="refit it: python -m companion.synth.terra.tuning")
        return cls(scorer, saved)
