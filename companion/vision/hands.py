"""Is a hand or an arm over the play area?

An arm always comes from a player sitting outside the play area, so it must cross the band that
runs all round the play area just inside its edge (:meth:`Layout.band_loop`): a band of bare
table, clear of the markers and the played-card zone. The band is read round its whole length
and compared with itself: the table is what most of the band looks like (its colour, and a
brightness no higher than the lit table's, shade allowed); a sleeve or skin is a stretch of the
band that looks like none of it. A stretch of at least :data:`MIN_RUN_MM` that differs is an
arm.

When a picture of the band without hands is known (:meth:`HandDetector.learn`, from the last
still frame the referee accepted), each position of the band is also compared with itself in
that picture, which catches a sleeve the colour of the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.camera import View

#: an arm covers at least this much of the band (forearms are 60 mm and more)
MIN_RUN_MM = 21.0
#: anomaly (robust z-score) above which a band position differs from the table
THRESHOLD = 4.0
_SCALE = 20.0


@dataclass(frozen=True)
class HandCheck:
    """``hand``: an arm crosses the band. ``score``: the strongest stretch's mean anomaly ×
    length (mm). ``where``: table points (mm) at the middle of each stretch found."""

    hand: bool
    score: float
    where: tuple[tuple[float, float], ...] = ()


def _band_points(layout, step: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """Loop points (N×2) and, for each, 5 sample points across the band (N×5×2), mm."""
    loop = layout.band_loop(step)
    nxt = np.roll(loop, -1, axis=0)
    tangent = nxt - loop
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True) + 1e-12
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    half = layout.hand_band[1] / 2
    offs = np.linspace(-half * 0.8, half * 0.8, 5)
    across = loop[:, None, :] + offs[None, :, None] * normal[:, None, :]
    return loop, across


def band_features(image: np.ndarray, view: View, layout, hidden: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per band position: (chroma b, chroma r, brightness) in log units × 20 (median across the
    band), whether it is seen (in the frame and not behind something known to stand in front:
    ``hidden``, a frame-size mask, e.g. the mountain), and the loop points."""
    loop, across = _band_points(layout)
    pts = np.concatenate([across.reshape(-1, 2), np.zeros((across.shape[0] * across.shape[1], 1))], axis=1)
    px = view.project(pts).astype(np.float32)
    h, w = image.shape[:2]
    ok = (px[:, 0] >= 1) & (px[:, 0] < w - 2) & (px[:, 1] >= 1) & (px[:, 1] < h - 2)
    q = px.reshape(-1, 1, 2)
    bgr = cv2.remap(cv2.GaussianBlur(image, (0, 0), 1.0), q[..., 0], q[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float32)
    lg = np.log(bgr + 4.0)
    mean = lg.mean(axis=1, keepdims=True)
    f = np.concatenate([(lg[:, [0]] - mean), (lg[:, [2]] - mean), mean], axis=1) * _SCALE
    f = f.reshape(across.shape[0], across.shape[1], 3)
    if hidden is not None:
        qi = np.clip(np.round(px).astype(int), 0, [w - 1, h - 1])
        ok &= hidden[qi[:, 1], qi[:, 0]] == 0
    inside = ok.reshape(across.shape[0], across.shape[1]).all(axis=1)
    return np.median(f, axis=1), inside, loop


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True in a circular boolean array, as (start, length)."""
    n = len(flags)
    if flags.all():
        return [(0, n)]
    if not flags.any():
        return []
    start = int(np.argmin(flags))  # begin scanning at a False so runs do not wrap
    out = []
    i = 0
    while i < n:
        k = (start + i) % n
        if flags[k]:
            j = i
            while j < n and flags[(start + j) % n]:
                j += 1
            out.append(((start + i) % n, j - i))
            i = j
        else:
            i += 1
    return out


def anomaly(feats: np.ndarray, inside: np.ndarray, reference: np.ndarray | None = None,
            shade: tuple[float, float] | None = None) -> np.ndarray:
    """How unlike the table each band position is (robust z-score; 0 outside the frame).
    ``shade``: the chroma of the table in shadow, when known (the light of a shadow is the room's
    ambient light, often of another colour than the lamp's)."""
    f = feats[inside]
    if len(f) < 20:
        return np.zeros(len(feats))
    med = np.median(f, axis=0)
    mad = np.median(np.abs(f - med), axis=0) * 1.4826
    spread = np.maximum(mad, np.array([0.6, 0.6, 2.0]))
    z_chroma = np.hypot((feats[:, 0] - med[0]) / spread[0], (feats[:, 1] - med[1]) / spread[1])
    if shade is not None:
        darker = feats[:, 2] < med[2] - 4.0
        z_shade = np.hypot((feats[:, 0] - shade[0]) / (spread[0] + 0.6), (feats[:, 1] - shade[1]) / (spread[1] + 0.6))
        z_chroma = np.where(darker, np.minimum(z_chroma, z_shade), z_chroma)
    bright_hi = np.quantile(f[:, 2], 0.9)
    over = np.clip(feats[:, 2] - bright_hi, 0, None) / spread[2]
    # shade is allowed: a table in shadow is darker by up to 35 units (a factor of ~6)
    under = np.clip((med[2] - 35.0) - feats[:, 2], 0, None) / spread[2]
    z = np.maximum(z_chroma * 0.8, np.maximum(over, under))
    if reference is not None and reference.shape == feats.shape:
        d = feats - reference
        d[:, 2] -= np.median(d[inside, 2])  # a change of light is not a hand
        z_ref = np.hypot(np.hypot(d[:, 0] / 1.0, d[:, 1] / 1.0), d[:, 2] / 4.0)
        z = np.maximum(z, z_ref)
    z[~inside] = 0.0
    return z


def check(image: np.ndarray, view: View, layout, reference: np.ndarray | None = None,
          hidden: np.ndarray | None = None, shade: tuple[float, float] | None = None,
          step: float = 3.0) -> HandCheck:
    """Look for an arm crossing the band. ``hidden``: frame pixels known to show something
    standing in front of the band (the mountain found), which are not judged; ``shade``: the
    table's chroma in shadow, when known."""
    feats, inside, loop = band_features(image, view, layout, hidden)
    z = anomaly(feats, inside, reference, shade)
    flags = z > THRESHOLD
    need = int(np.ceil(MIN_RUN_MM / step))
    found = [(s, n) for s, n in _runs(flags) if n >= need]
    if not found:
        return HandCheck(False, float(z.max() if len(z) else 0.0))
    score = 0.0
    where = []
    for s, n in found:
        idx = (s + np.arange(n)) % len(z)
        score = max(score, float(z[idx].mean() * n * step))
        mid = loop[idx[n // 2]]
        where.append((float(mid[0]), float(mid[1])))
    return HandCheck(True, score, tuple(where))


@dataclass
class HandDetector:
    """Hand checks that remember the band of the last frame known to be free of hands."""

    layout: object
    reference: np.ndarray | None = field(default=None, repr=False)

    def learn(self, image: np.ndarray, view: View) -> None:
        """Remember the band of a frame with no hand (the still frame just read)."""
        feats, inside, _ = band_features(image, view, self.layout)
        self.reference = feats if inside.sum() > 20 else None

    def check(self, image: np.ndarray, view: View, hidden: np.ndarray | None = None,
              shade: tuple[float, float] | None = None) -> HandCheck:
        return check(image, view, self.layout, self.reference, hidden, shade)
