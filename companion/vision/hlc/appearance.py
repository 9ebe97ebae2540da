"""What the table and the faces of the cubes look like in this frame.

Colours are compared in a space where a shadow is a shift along one axis: the log of each
channel, split into *chroma* (the channels' deviation from their mean: the colour, nearly
unchanged in shadow) and *brightness* (their mean). The table is modelled from a ring of table
around the mountain by its chroma alone, at any brightness up to its lit brightness: a table in
the mountain's shadow is still table. Cube faces share the wood's chroma and differ by brightness
with their orientation (a top sees the whole sky, a side half of it and the lamp at another
angle); each orientation is a small Gaussian mixture fitted to the faces of the current
hypothesis, so the models follow the frame's light.

A shadow is a shift in chroma too when the room's ambient light has another colour than the
lamp or the sun (a low sun's shade is lit by the blue sky alone: the table in a tower's shadow is
bluer as well as darker). That shift is the same for every surface (each channel is scaled by
the same ambient over ambient-plus-direct ratio, whatever the surface's own colour), so it is
learned once per frame from the crop's pixels: :meth:`TableModel.learn_shadow`.
"""

from __future__ import annotations

import cv2
import numpy as np

_FEATURE_SCALE = 20.0


def features(bgr: np.ndarray) -> np.ndarray:
    """Per-pixel (chroma b−mean, chroma r−mean, brightness) in log units × 20, float32."""
    lg = cv2.GaussianBlur(bgr, (0, 0), 0.8).astype(np.float32)
    lg += np.float32(4.0)
    np.log(lg, out=lg)
    # the channels taken apart: a reduction over a last axis of three is numpy's slowest path
    # (the same sums in the same order, so the same values to the bit)
    b, g, r = lg[..., 0], lg[..., 1], lg[..., 2]
    mean = ((b + g) + r) / np.float32(3.0)
    out = np.empty(bgr.shape[:2] + (3,), np.float32)
    scale = np.float32(_FEATURE_SCALE)
    np.multiply(b - mean, scale, out=out[..., 0])
    np.multiply(r - mean, scale, out=out[..., 1])
    np.multiply(mean, scale, out=out[..., 2])
    return out


class Gaussians:
    """A small diagonal Gaussian mixture (k-means started)."""

    def __init__(self, samples: np.ndarray, k: int = 3, floor: float = 1.0):
        x = np.asarray(samples, dtype=np.float32)
        d = x.shape[1] if x.ndim == 2 else 3
        if len(x) < 12:
            self.mu = np.zeros((1, d))
            self.var = np.full((1, d), 400.0)
            self.logw = np.zeros(1)
            return
        k = max(1, min(k, len(x) // 20))
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 15, 0.05)
        cv2.setRNGSeed(7)
        _, lab, centres = cv2.kmeans(x, k, None, crit, 1, cv2.KMEANS_PP_CENTERS)
        lab = lab.ravel()
        mus, vars_, ws = [], [], []
        for i in range(k):
            xi = x[lab == i]
            if len(xi) < 3:
                continue
            mus.append(xi.mean(axis=0))
            vars_.append(xi.var(axis=0) + floor)
            ws.append(len(xi) / len(x))
        self.mu = np.array(mus, dtype=np.float64)
        self.var = np.array(vars_, dtype=np.float64)
        self.logw = np.log(np.array(ws, dtype=np.float64))

    def logp(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        out = None
        chans = [x[..., c] for c in range(x.shape[-1])]
        for mu, var, lw in zip(self.mu, self.var, self.logw):
            m, v = mu.astype(np.float32), var.astype(np.float32)
            # summed channel by channel in order (as ``sum(axis=-1)`` does, many times faster)
            d = (chans[0] - m[0]) ** 2 / v[0]
            for c in range(1, len(chans)):
                d = d + (chans[c] - m[c]) ** 2 / v[c]
            ll = (-0.5 * d - 0.5 * float(np.log(2 * np.pi * var).sum()) + lw).astype(np.float32)
            out = ll if out is None else np.logaddexp(out, ll)
        return out


#: a shadow's chroma shift is learned when at least this many pixels of the full-resolution
#: frame share it, and it moves the table's chroma by at least this much (log units × 20) along
#: the bluer diagonal (+b, −r); a smaller shift is within what the loosely judged deep shade
#: already allows, and below it the peak is as often the cubes' shaded sides as the table's shade
SHADOW_MIN_PIXELS = 1500
SHADOW_MIN_SHIFT = 4.0
#: a shade of another colour changes colour by a good share of how much it darkens (a shade lit
#: by the sky alone under a low sun: about 0.4 of it); the shaded sides of cubes of a paler wood
#: than the table differ in colour by the woods' difference, whatever their depth (0.15-0.25)
_SHADOW_HUE = 0.3
#: daylight, skylight, the sun and lamps differ in colour along the blue-to-red axis, green
#: nearly at their mean (the daylight locus): the shade of one lit by another is bluer along
#: that diagonal, within this share of its shift across it (the shaded sides of cubes paler
#: than a wooden table stray further: their shift is the woods' difference as well)
_SHADOW_ACROSS = 0.15
#: the shade's pixels vary in brightness at most this many times as much as the lit table's do
#: (the table's texture, darkened: the shaded sides of wooden cubes vary much more)
_SHADOW_SPREAD = 2.0


#: the least variance of the table's chroma model (log units × 20, squared). The table's
#: samples vary in chroma by 0.05–0.1 of it, so ``LOOSE_FLOOR`` is what judges the table: on a
#: wooden top whose chroma lies 1–2 units from the cubes' wood it explained most of the cubes'
#: pixels too (seed 2024 position 7: 2 of 20 cubes found). ``TIGHT_FLOOR`` judges the table by
#: its own spread; it is used where no shade of another colour was learned (the shade's learning
#: and its penumbra were judged against the loose model) and where what it leaves unexplained
#: lies, at its median, within ``WOOD_NEAR`` units of the table's chroma (the cubes on other
#: tops lie 5 and more away, and their faces are learned off the loose model well enough), with
#: at least ``WOOD_MIN_PIXELS`` such pixels in the full-resolution frame
LOOSE_FLOOR, TIGHT_FLOOR = 0.5, 0.2
WOOD_NEAR = 3.0
WOOD_MIN_PIXELS = 400


class TableModel:
    """The table: its chroma, at any brightness from deep shadow up to its lit brightness.
    ``floor``: the least variance of its chroma (:data:`LOOSE_FLOOR`, :data:`TIGHT_FLOOR`)."""

    def __init__(self, samples: np.ndarray, floor: float = LOOSE_FLOOR):
        s = np.asarray(samples, dtype=np.float32).reshape(-1, 3)
        #: the shadow's chroma (a mixture fitted to the table in full shade), its chroma shift
        #: from the lit table and how much darker it is (:meth:`learn_shadow`); None when no
        #: shadow of another colour was found
        self.shadow: Gaussians | None = None
        self.shadow_shift = np.zeros(2, np.float32)
        self.shadow_depth = 0.0
        q = np.quantile(s[:, 2], [0.25, 0.75]) if len(s) else np.zeros(2)
        self._bright_iqr = float(q[1] - q[0])
        self.chroma = Gaussians(s[:, :2], k=3, floor=floor)
        self.chroma_loose = Gaussians(s[:, :2], k=1, floor=0.5)
        self.chroma_loose.var = self.chroma_loose.var * 25.0 + 4.0
        self.bright_max = float(np.quantile(s[:, 2], 0.98)) if len(s) else 200.0
        self.bright_lit = float(np.median(s[:, 2])) if len(s) else 100.0
        #: below this log-density a pixel is not table-like (5 % of the table's own pixels are)
        self.typical = float(np.quantile(self.logp(s), 0.05)) if len(s) else -20.0

    def centre(self) -> np.ndarray:
        """The table's mean chroma."""
        w = np.exp(self.chroma.logw)
        return (self.chroma.mu * w[:, None]).sum(axis=0).astype(np.float32)

    def wood_near(self, feats: np.ndarray, care: np.ndarray, scale: float = 1.0) -> bool:
        """Whether what this model does not explain among a crop's judged pixels (``feats``,
        ``care``; ``scale``: the crop's resolution over the frame's) lies, at its median, within
        :data:`WOOD_NEAR` of the table's chroma: pieces of nearly the table's colour."""
        f = feats[care > 0]
        if len(f) == 0:
            return False
        out = f[self.logp(f) < self.typical - 1.0]
        if len(out) < WOOD_MIN_PIXELS * scale * scale:
            return False
        d = np.hypot(*(out[:, :2] - self.centre()).T)
        return float(np.median(d)) < WOOD_NEAR

    def logp(self, f: np.ndarray) -> np.ndarray:
        over = np.clip(f[..., 2] - self.bright_max, 0.0, None)
        # brightness is free below the lit table (shadows), a constant density over ~60 units;
        # in deep shade the colour is the room's ambient light's, so it is judged loosely there
        lit = self.chroma.logp(f[..., :2])
        shaded = self.chroma_loose.logp(f[..., :2]) - 1.0
        deep = np.clip((self.bright_lit - 10.0 - f[..., 2]) / 10.0, 0.0, 1.0)
        best = np.maximum(lit, np.where(deep > 0, shaded + np.log(deep + 1e-6), -1e9))
        if self.shadow is not None:
            best = np.maximum(best, self._shade(f))
        return best - 0.5 * over * over / 4.0 - 4.1

    def _shade(self, f: np.ndarray) -> np.ndarray:
        """The learned shade's log-density of each pixel's chroma, reached along the shift as
        the pixel darkens (a shadow's soft edge is part lit, part shade)."""
        t = np.clip((self.bright_lit - f[..., 2]) / self.shadow_depth, 0.0, 1.0)
        back = (1.0 - t)[..., None] * self.shadow_shift
        return self.shadow.logp(f[..., :2] + back)

    def in_shade(self, f: np.ndarray) -> np.ndarray:
        """Which pixels (features ``f``) look like the table in the learned shade, darker than
        the lit table (all False when no shade was learned)."""
        if self.shadow is None:
            return np.zeros(f.shape[:-1], bool)
        return (f[..., 2] < self.bright_lit - 4.0) & (self._shade(f) - 4.1 > self.typical - 1.0)

    def learn_shadow(self, feats: np.ndarray, care: np.ndarray, scale: float = 1.0) -> bool:
        """Learn the table's shade from a crop's features (``care``: the pixels judged; ``scale``:
        the crop's resolution over the frame's). The pixels darker than the lit table and unlike
        it are gathered by their chroma's shift from the table's; a shadow of another colour
        than the light's is the largest group of them along the bluer diagonal, whose
        brightness varies like the table's. Returns whether a shadow was learned."""
        f = feats[care > 0]
        if len(f) == 0 or self.shadow is not None:
            return False
        ll = self.logp(f)
        d = f[:, :2] - self.centre()
        bluer = (d[:, 0] - d[:, 1]) / np.sqrt(2.0)
        cand = (f[:, 2] < self.bright_lit - 6.0) & (ll < self.typical - 1.0) & (bluer > SHADOW_MIN_SHIFT / 2)
        need = SHADOW_MIN_PIXELS * scale * scale
        if cand.sum() < need:
            return False
        dc = d[cand]
        hist, xe, ye = np.histogram2d(dc[:, 0], dc[:, 1], bins=60, range=[[-15.0, 15.0], [-15.0, 15.0]])
        hist = cv2.GaussianBlur(hist.astype(np.float32), (0, 0), 1.5)
        a, b = np.unravel_index(int(np.argmax(hist)), hist.shape)
        peak = np.array([(xe[a] + xe[a + 1]) / 2, (ye[b] + ye[b + 1]) / 2], np.float32)
        near = np.hypot(dc[:, 0] - peak[0], dc[:, 1] - peak[1]) < 2.0
        if near.sum() < need:
            return False
        shift = dc[near].mean(axis=0)
        bright = f[cand][near][:, 2]
        depth = max(float(self.bright_lit - np.median(bright)), 4.0)
        along, across = (shift[0] - shift[1]) / np.sqrt(2.0), (shift[0] + shift[1]) / np.sqrt(2.0)
        if along < max(SHADOW_MIN_SHIFT, _SHADOW_HUE * depth) or abs(across) > _SHADOW_ACROSS * along:
            return False
        q = np.quantile(bright, [0.25, 0.75])
        if q[1] - q[0] > _SHADOW_SPREAD * max(self._bright_iqr, 0.5):
            return False
        self.shadow = Gaussians(f[cand][near][:, :2], k=2, floor=0.5)
        self.shadow_shift = shift.astype(np.float32)
        self.shadow_depth = depth
        return True
