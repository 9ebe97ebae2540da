"""Naming the colour of a piece from its pixels, under the table's own light.

A camera does not see "red": it sees red plastic under a warm bulb, a cold window or a yellow
lamp, through an auto-exposure that changes with what is in the frame. So colours are never
hard-coded thresholds alone:

* every pixel is first divided by a **white reference** (the BGR of something neutral under the
  same light: the white paper around the table markers, a printed sheet). That one division
  removes most of a colour cast and of a brightness change (a von Kries adaptation; dividing
  gamma-encoded values is the same as dividing linear ones, up to a power);
* the result goes to CIE L*a*b*, where hue and saturation live in (a*, b*) and brightness in L*.
  Each colour is a Gaussian there: its mean and covariance. Brightness varies more than hue
  between the lit top and the shaded side of one piece, so the nominal models allow L* to spread
  wider than (a*, b*);
* :meth:`ColourModel.learn` fits those Gaussians to pixels of the real pieces seen under the real
  light (``companion calibrate colours``). A learned model also remembers the white it was
  learned with, so it keeps working without one; with a fresh white it follows a light that
  changes during the game.

``classify`` returns, for each pixel, the most likely colour and a confidence: the posterior
probability among the known colours, lowered when the pixel is far from every colour (a colour
that is not in the palette is never reported with high confidence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from companion.errors import BadInput

#: Nominal colours of the kit's pieces as BGR reflectance relative to white paper (paper = 1.0).
#: Only the starting point before calibration; ``ColourModel.learn`` replaces them.
NOMINAL_REFLECTANCE: dict[str, tuple[float, float, float]] = {
    "red": (0.16, 0.16, 0.78),
    "orange": (0.10, 0.45, 0.92),
    "yellow": (0.15, 0.80, 0.92),
    "green": (0.25, 0.58, 0.14),
    "blue": (0.68, 0.32, 0.10),
    "violet": (0.60, 0.22, 0.45),
    "pink": (0.70, 0.45, 0.92),
    "brown": (0.12, 0.22, 0.40),
    "wood": (0.42, 0.62, 0.80),
    "white": (0.90, 0.90, 0.88),
    "grey": (0.45, 0.45, 0.45),
    "black": (0.08, 0.08, 0.08),
}

#: The colours each game's pieces come in (table-kit.md). Vision knows pieces, not rules; this
#: is only which colour names a calibration run asks the user to show.
GAME_PALETTES: dict[str, tuple[str, ...]] = {
    "haut-les-cubes": ("red", "yellow", "blue", "green", "white", "black"),
    "terra-turrium": ("red", "yellow", "blue", "green"),
    "gleebs-and-grues": ("red", "yellow", "green", "blue", "black"),
    "ville-des-nains": ("red", "orange", "yellow", "violet", "blue", "white"),
}

#: What a camera exposing white paper correctly reads for it, when no white was measured.
NOMINAL_WHITE: tuple[float, float, float] = (235.0, 235.0, 235.0)

#: Spread of the nominal colours in (L*, a*, b*): brightness varies most (shading).
_NOMINAL_SIGMA = (16.0, 9.0, 9.0)
#: Floor added to learned covariances, so a tight sample does not make the model brittle.
_SIGMA_FLOOR = (4.0, 2.5, 2.5)
#: Mahalanobis distance beyond which a pixel starts to count as "none of these colours".
_OUTLIER_START = 3.0


def _as_pixels(bgr: np.ndarray, what: str) -> np.ndarray:
    arr = np.asarray(bgr)
    if arr.ndim == 1 and arr.shape[0] == 3:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise BadInput(f"{what} must be N×3 BGR pixels, got an array of shape {arr.shape}")
    return arr.astype(np.float32)


def _as_white(white: Sequence[float] | np.ndarray) -> np.ndarray:
    w = np.asarray(white, dtype=np.float32).reshape(-1)
    if w.shape != (3,) or not np.all(np.isfinite(w)) or np.any(w <= 1.0):
        raise BadInput(f"a white reference is three positive BGR values, got {white!r}",
                       hint="measure it on white paper under the table's light")
    return w


def lab_features(bgr: np.ndarray, white: Sequence[float] | np.ndarray) -> np.ndarray:
    """(L*, a*, b*) of N×3 BGR pixels after dividing by the white reference (N×3 float32)."""
    import cv2

    px = _as_pixels(bgr, "pixels")
    rel = np.clip(px / _as_white(white), 0.0, 1.0).astype(np.float32)
    lab = cv2.cvtColor(rel.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab)
    return lab.reshape(-1, 3)


def mahalanobis2(diff: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Each squared Mahalanobis distance ``diff[n, k] · inv[k] · diff[n, k]`` (``diff``: N×K×3,
    ``inv``: K×3×3), written out term by term: for three channels this is several times faster
    than the general product (a reader judges thousands of points against every colour
    variant each frame), and equal to it but for rounding in the last bits of a double."""
    d0, d1, d2 = diff[..., 0], diff[..., 1], diff[..., 2]
    return (inv[:, 0, 0] * d0 * d0 + inv[:, 1, 1] * d1 * d1 + inv[:, 2, 2] * d2 * d2
            + (inv[:, 0, 1] + inv[:, 1, 0]) * d0 * d1 + (inv[:, 0, 2] + inv[:, 2, 0]) * d0 * d2
            + (inv[:, 1, 2] + inv[:, 2, 1]) * d1 * d2)


def estimate_white(bgr: np.ndarray, *, top_fraction: float = 0.3) -> tuple[float, float, float]:
    """A white reference from pixels of something mostly neutral and light (the paper around a
    marker, a printed sheet): the per-channel median of its brightest ``top_fraction``, so a
    few dark pixels (print, a shadow edge) do not pull it down."""
    px = _as_pixels(bgr, "white sample")
    if len(px) < 8:
        raise BadInput(f"a white reference needs at least 8 pixels, got {len(px)}")
    lum = px.sum(axis=1)
    k = max(8, int(len(px) * top_fraction))
    top = px[np.argsort(lum)[-k:]]
    white = np.median(top, axis=0)
    if np.any(white < 8.0):
        raise BadInput("the white reference is nearly black: the sample is not white paper "
                       "or the scene is far too dark", hint="add light or point at white paper")
    return (float(white[0]), float(white[1]), float(white[2]))


@dataclass(frozen=True)
class ColourModel:
    """Named colours as Gaussians in (L*, a*, b*) of white-referenced pixels."""

    names: tuple[str, ...]
    means: tuple[tuple[float, float, float], ...]
    covs: tuple[tuple[tuple[float, float, float], ...], ...]
    white: tuple[float, float, float] = NOMINAL_WHITE
    source: str = "nominal"  # "nominal" or "learned"

    def __post_init__(self) -> None:
        if not self.names:
            raise BadInput("a colour model needs at least one colour")
        if len(set(self.names)) != len(self.names):
            raise BadInput(f"colour names repeat: {list(self.names)}")
        if len(self.means) != len(self.names) or len(self.covs) != len(self.names):
            raise BadInput("a colour model needs one mean and one covariance per colour")
        inv, logdet = [], []
        for name, cov in zip(self.names, self.covs):
            c = np.asarray(cov, dtype=np.float64)
            if c.shape != (3, 3) or not np.all(np.isfinite(c)):
                raise BadInput(f"colour {name!r}: the covariance is not a 3×3 matrix")
            sign, ld = np.linalg.slogdet(c)
            if sign <= 0:
                raise BadInput(f"colour {name!r}: the covariance is not positive definite")
            inv.append(np.linalg.inv(c))
            logdet.append(ld)
        object.__setattr__(self, "_inv", np.stack(inv))
        object.__setattr__(self, "_logdet", np.array(logdet))
        object.__setattr__(self, "_mu", np.asarray(self.means, dtype=np.float64))
        self._set_whitening()

    def _set_whitening(self) -> None:
        """The Mahalanobis distances of many pixels to every colour at once: with each inverse
        covariance split as L·Lᵀ, the distance to colour k is |(x − μₖ)·Lₖ|², so one product of
        the pixels with the K factors side by side (3 × 3K) gives them all."""
        chol = [np.linalg.cholesky(0.5 * (a + a.T)) for a in self._inv]  # type: ignore[attr-defined]
        object.__setattr__(self, "_whiten", np.concatenate(chol, axis=1))
        object.__setattr__(self, "_whiten_mu", np.concatenate(
            [m @ c for m, c in zip(self._mu, chol)]))  # type: ignore[attr-defined]

    def __setstate__(self, state: dict) -> None:
        # a model unpickled from an older version has no whitening yet
        self.__dict__.update(state)
        if "_whiten" not in state:
            self._set_whitening()

    # ----------------------------------------------------------------------------- building
    @classmethod
    def default(cls, palette: Sequence[str] | Mapping[str, Sequence[float]]) -> "ColourModel":
        """Nominal colours, before any calibration. ``palette`` is a list of known names (see
        :data:`NOMINAL_REFLECTANCE`) or a mapping name → BGR reflectance (0–1, paper = 1) or
        BGR pixel values (0–255, as seen with a white paper at :data:`NOMINAL_WHITE`)."""
        if isinstance(palette, Mapping):
            items = []
            for name, value in palette.items():
                v = np.asarray(value, dtype=np.float64).reshape(-1)
                if v.shape != (3,):
                    raise BadInput(f"colour {name!r}: expected three BGR values, got {value!r}")
                items.append((str(name), v if v.max() <= 1.0 else v / np.array(NOMINAL_WHITE)))
        else:
            unknown = [n for n in palette if n not in NOMINAL_REFLECTANCE]
            if unknown:
                raise BadInput(f"no nominal colour for {unknown}",
                               hint=f"known: {', '.join(NOMINAL_REFLECTANCE)}")
            items = [(n, np.array(NOMINAL_REFLECTANCE[n])) for n in palette]
        white = np.array(NOMINAL_WHITE)
        names = tuple(n for n, _ in items)
        pixels = np.stack([np.clip(v, 0, 1) * white for _, v in items])
        means = lab_features(pixels, white).astype(np.float64)
        cov = np.diag(np.square(_NOMINAL_SIGMA))
        return cls(names, tuple(tuple(map(float, m)) for m in means),
                   tuple(_cov_tuple(cov) for _ in names), tuple(map(float, white)), "nominal")

    @classmethod
    def learn(cls, samples: Mapping[str, np.ndarray],
              white: Sequence[float] | np.ndarray | None = None) -> "ColourModel":
        """Fit each colour to N×3 BGR pixel samples of its pieces seen by the camera under the
        table's light. ``white``: the BGR of white paper under the same light (recommended: the
        model then follows later light changes); without it, raw pixel values are used and the
        model assumes the light stays as it was."""
        if not samples:
            raise BadInput("no colour samples to learn from",
                           hint="show each colour's piece to the camera")
        w = _as_white(white) if white is not None else np.array(NOMINAL_WHITE, np.float32)
        names, means, covs = [], [], []
        floor = np.diag(np.square(_SIGMA_FLOOR))
        for name, px in samples.items():
            feats = lab_features(_as_pixels(px, f"samples of {name!r}"), w).astype(np.float64)
            if len(feats) < 10:
                raise BadInput(f"only {len(feats)} pixels of {name!r}; at least 10 are needed",
                               hint="show a bigger part of the piece to the camera")
            # a trimmed fit: the 10 % of pixels farthest from the median (edges, glints,
            # a bit of background) do not widen the colour
            med = np.median(feats, axis=0)
            dist = np.linalg.norm((feats - med) / np.array(_NOMINAL_SIGMA), axis=1)
            keep = feats[dist <= np.quantile(dist, 0.9)]
            mu = keep.mean(axis=0)
            cov = np.cov(keep, rowvar=False) + floor
            names.append(str(name))
            means.append(tuple(float(v) for v in mu))
            covs.append(_cov_tuple(cov))
        return cls(tuple(names), tuple(means), tuple(covs), tuple(float(v) for v in w), "learned")

    # -------------------------------------------------------------------------- classifying
    def classify(self, bgr: np.ndarray, white: Sequence[float] | np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
        """For N×3 BGR pixels: (indices into :attr:`names`, confidences in 0–1). ``white`` is
        the white reference measured in the same frame; without it, the model's own."""
        feats = lab_features(bgr, self.white if white is None else white).astype(np.float64)
        if len(feats) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        y = feats @ self._whiten - self._whiten_mu                    # N×3K
        d2 = np.square(y).reshape(len(feats), -1, 3).sum(axis=2)      # squared Mahalanobis, N×K
        loglik = -0.5 * d2 - 0.5 * self._logdet[None, :]
        loglik -= loglik.max(axis=1, keepdims=True)
        post = np.exp(loglik)
        post /= post.sum(axis=1, keepdims=True)
        idx = np.argmax(post, axis=1)
        rows = np.arange(len(idx))
        d = np.sqrt(d2[rows, idx])
        far = np.clip(d - _OUTLIER_START, 0.0, None)
        conf = post[rows, idx] * np.exp(-0.5 * far * far)
        return idx.astype(np.int64), conf

    def classify_region(self, bgr: np.ndarray, white: Sequence[float] | np.ndarray | None = None
                        ) -> tuple[int, float]:
        """One colour for the pixels of one piece: each pixel votes with its confidence; the
        confidence returned is the winner's share of the votes times its mean confidence."""
        idx, conf = self.classify(bgr, white)
        if len(idx) == 0:
            raise BadInput("no pixels to classify")
        votes = np.bincount(idx, weights=conf, minlength=len(self.names))
        best = int(np.argmax(votes))
        total = float(votes.sum())
        if total <= 0.0:
            return best, 0.0
        share = float(votes[best]) / total
        mean_conf = float(conf[idx == best].mean()) if np.any(idx == best) else 0.0
        return best, share * mean_conf

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise BadInput(f"no colour {name!r} in this model", hint=f"known: {', '.join(self.names)}") from None

    # ------------------------------------------------------------------------------- storing
    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "means": [list(m) for m in self.means],
                "covs": [[list(r) for r in c] for c in self.covs], "white": list(self.white),
                "source": self.source}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ColourModel":
        try:
            names = tuple(str(n) for n in data["names"])
            means = tuple(tuple(float(v) for v in m) for m in data["means"])
            covs = tuple(tuple(tuple(float(v) for v in r) for r in c) for c in data["covs"])
            white = tuple(float(v) for v in data.get("white", NOMINAL_WHITE))
            source = str(data.get("source", "learned"))
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"not a colour model ({exc!r})",
                           hint="run `companion calibrate colours` again") from None
        if any(len(m) != 3 for m in means) or len(white) != 3:
            raise BadInput("not a colour model (means and white are three values each)",
                           hint="run `companion calibrate colours` again")
        return cls(names, means, covs, white, source)  # type: ignore[arg-type]


def _cov_tuple(cov: np.ndarray) -> tuple[tuple[float, float, float], ...]:
    c = 0.5 * (np.asarray(cov) + np.asarray(cov).T)
    return tuple(tuple(float(v) for v in row) for row in c)  # type: ignore[return-value]


def colour_distance(model: ColourModel, a: str, b: str) -> float:
    """Mahalanobis separation of two colours of a model (for warning that two learned colours
    are too alike to tell apart: below about 3, they will be confused)."""
    i, j = model.index(a), model.index(b)
    mu = np.asarray(model.means, dtype=np.float64)
    cov = 0.5 * (np.asarray(model.covs[i]) + np.asarray(model.covs[j]))
    diff = mu[i] - mu[j]
    return float(math.sqrt(diff @ np.linalg.inv(cov) @ diff))
