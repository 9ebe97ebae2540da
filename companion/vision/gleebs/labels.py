"""Naming every pixel of the board's picture: paper, one of the five pyramid colours, or
something else (a hand, a sleeve, the table).

The colours are the learned :class:`~companion.vision.colours.ColourModel` (``companion calibrate
colours``: the pyramids under the table's own light), each a Gaussian in L*a*b* of
white-referenced pixels. Paper joins them as one more class: neutral, and of any lightness from
the lit sheet down to the shadow a pyramid casts, so shadows never read as pieces. A pixel far
from every class is "other".

Classifying a whole picture pixel by pixel in L*a*b* is too slow for a frame's budget, so the
classes are tabulated once per model over white-referenced BGR (32 levels a channel on a square
root scale, fine where dark colours need it) and a frame is labelled by two table look-ups.
"""

from __future__ import annotations

import numpy as np

from companion.vision.colours import NOMINAL_REFLECTANCE, ColourModel, lab_features
from companion.vision.gleebs.geometry import COLOURS

PAPER = 0
#: label of COLOURS[k] is k + 1
OTHER = len(COLOURS) + 1
#: paper in L*a*b* (white-referenced): lit near L* 100, in a pyramid's shadow down to ~40, and
#: tinted a little by the light's colour in shadow
PAPER_MEAN = (78.0, 0.0, 0.0)
PAPER_SIGMA = (22.0, 8.0, 8.0)
#: a pixel whose nearest class is farther than this (Mahalanobis) is "other"
OTHER_DISTANCE = 4.5
LEVELS = 32


def label_of(colour: str) -> int:
    return COLOURS.index(colour) + 1


def _bin_centres() -> np.ndarray:
    q = (np.arange(LEVELS, dtype=np.float64) / (LEVELS - 1)) ** 2
    b, g, r = np.meshgrid(q, q, q, indexing="ij")
    return np.column_stack([b.ravel(), g.ravel(), r.ravel()])


class Labeller:
    """Labels rectified pictures of the board for one colour model."""

    def __init__(self, model: ColourModel):
        self.model = model
        names = list(model.names)
        means, covs = [PAPER_MEAN], [np.diag(np.square(PAPER_SIGMA))]
        nominal = ColourModel.default({c: NOMINAL_REFLECTANCE[c] for c in COLOURS})
        for colour in COLOURS:
            src = model if colour in names else nominal
            k = src.names.index(colour)
            means.append(src.means[k])
            covs.append(np.asarray(src.covs[k], dtype=np.float64))
        mu = np.asarray(means, dtype=np.float64)
        inv = np.stack([np.linalg.inv(c) for c in covs])
        logdet = np.array([np.linalg.slogdet(c)[1] for c in covs])
        rel = _bin_centres()
        lab = lab_features((rel * 255.0).astype(np.float32), (255.0, 255.0, 255.0)).astype(np.float64)
        table = np.empty(len(lab), np.uint8)
        for start in range(0, len(lab), 8192):  # in chunks: N×K×3 at once is large
            f = lab[start:start + 8192]
            diff = f[:, None, :] - mu[None, :, :]
            d2 = np.einsum("nki,kij,nkj->nk", diff, inv, diff)
            score = -0.5 * d2 - 0.5 * logdet[None, :]
            best = np.argmax(score, axis=1)
            far = d2[np.arange(len(best)), best] > OTHER_DISTANCE ** 2
            out = best.astype(np.uint8)
            out[far] = OTHER
            table[start:start + 8192] = out
        self.table = table

    def label(self, image: np.ndarray, white: tuple[float, float, float]) -> np.ndarray:
        """Labels (uint8, H×W) of a BGR picture whose white paper reads ``white``."""
        v = np.arange(256, dtype=np.float64)
        tables = []
        for c in range(3):
            x = np.clip(v / max(float(white[c]), 1.0), 0.0, 1.0)
            tables.append(np.round((LEVELS - 1) * np.sqrt(x)).astype(np.int32))
        q0 = tables[0][image[:, :, 0]]
        q1 = tables[1][image[:, :, 1]]
        q2 = tables[2][image[:, :, 2]]
        return self.table[(q0 << 10) | (q1 << 5) | q2]
