"""What the table and the faces of the cubes look like in this frame.

Colours are compared in a space where a shadow is a shift along one axis: the log of each
channel, split into *chroma* (the channels' deviation from their mean: the colour, nearly
unchanged in shadow) and *brightness* (their mean). The table is modelled from a ring of table
around the mountain by its chroma alone, at any brightness up to its lit brightness: a table in
the mountain's shadow is still table. Cube faces share the wood's chroma and differ by brightness
with their orientation (a top sees the whole sky, a side half of it and the lamp at another
angle); each orientation is a small Gaussian mixture fitted to the faces of the current
hypothesis, so the models follow the frame's light.
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


class TableModel:
    """The table: its chroma, at any brightness from deep shadow up to its lit brightness."""

    def __init__(self, samples: np.ndarray):
        s = np.asarray(samples, dtype=np.float32).reshape(-1, 3)
        self.chroma = Gaussians(s[:, :2], k=3, floor=0.5)
        self.chroma_loose = Gaussians(s[:, :2], k=1, floor=0.5)
        self.chroma_loose.var = self.chroma_loose.var * 25.0 + 4.0
        self.bright_max = float(np.quantile(s[:, 2], 0.98)) if len(s) else 200.0
        self.bright_lit = float(np.median(s[:, 2])) if len(s) else 100.0
        #: below this log-density a pixel is not table-like (5 % of the table's own pixels are)
        self.typical = float(np.quantile(self.logp(s), 0.05)) if len(s) else -20.0

    def logp(self, f: np.ndarray) -> np.ndarray:
        over = np.clip(f[..., 2] - self.bright_max, 0.0, None)
        # brightness is free below the lit table (shadows), a constant density over ~60 units;
        # in deep shade the colour is the room's ambient light's, so it is judged loosely there
        lit = self.chroma.logp(f[..., :2])
        shaded = self.chroma_loose.logp(f[..., :2]) - 1.0
        deep = np.clip((self.bright_lit - 10.0 - f[..., 2]) / 10.0, 0.0, 1.0)
        return np.maximum(lit, np.where(deep > 0, shaded + np.log(deep + 1e-6), -1e9)) \
            - 0.5 * over * over / 4.0 - 4.1
