"""Naming every pixel of a zone: background (table, dice mat) or one of the pieces' colours.

The pieces' colours come from the learned :class:`~companion.vision.colours.ColourModel`
(``companion calibrate colours --game ville-des-nains``), divided by the white of the markers'
paper in the same frame. The background is not learned: a table is wood, cloth or laminate
under shadows of every size, so its colour is measured in each frame on the parts of the table
where no piece stands (:func:`background`), as a wide Gaussian in the same space.

Classifying pixel by pixel in L*a*b* would cost more than the whole reading, so the colours are
tabulated once per frame on a 32-level grid of BGR (:class:`FrameColours`): a pixel's class
log-likelihoods are then one table look-up.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colours import ColourModel, lab_features, mahalanobis2

#: BGR is quantised to this many levels per channel for the look-up tables
LEVELS = 32
_STEP = 256 // LEVELS
#: a background's spread is at least this (L*, a*, b*): shadows darken a table a lot
BG_SIGMA_FLOOR = (14.0, 4.0, 4.0)
#: "dark": black paint and deep shadow, too dark to have a colour (L*a*b* mean, covariance)
DARK = ((6.0, 0.0, 0.0), ((36.0, 0.0, 0.0), (0.0, 25.0, 0.0), (0.0, 0.0, 25.0)))
#: "white": the die's white face, whatever the calibration learned for it: under the table's
#: light it looks like the markers' paper, which is the white reference itself (a die shown on
#: the colour sheet shows its coloured sides too, which spoil a learned white)
WHITE = ((96.0, 0.0, 0.0), ((324.0, 0.0, 0.0), (0.0, 36.0, 0.0), (0.0, 0.0, 36.0)))
#: log-posteriors are clipped here, so one odd pixel never outweighs many good ones
LOG_FLOOR = -6.0


#: how much less likely a colour in deep shadow is than in the light (nats)
SHADE_PRIOR = 1.0


def _shaded(lab: np.ndarray, mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """Log-likelihood of a colour seen darker than it was learned: lightness from a fifth of
    its lit value up to it, chroma scaled with the lightness."""
    L1 = float(mean[0] + np.sqrt(cov[0, 0]))
    L = lab[:, 0]
    r = np.clip(L / max(L1, 1.0), 0.05, 1.2)
    sab = float(np.sqrt((cov[1, 1] + cov[2, 2]) / 2))
    tol = sab * (0.6 + 0.8 * r) + 3.0 * (1.0 - np.clip(r, 0.0, 1.0))
    da = lab[:, 1] - mean[1] * r * (L1 / max(mean[0], 1.0))
    db = lab[:, 2] - mean[2] * r * (L1 / max(mean[0], 1.0))
    inside = (r >= 0.2) & (r <= 1.05)
    ll = -0.5 * (da * da + db * db) / (tol * tol) - 2.0 * np.log(tol) - np.log(max(L1, 1.0))
    return np.where(inside, ll, -50.0)


def _grid() -> np.ndarray:
    v = (np.arange(LEVELS, dtype=np.float32) + 0.5) * _STEP
    b, g, r = np.meshgrid(v, v, v, indexing="ij")
    return np.column_stack([b.ravel(), g.ravel(), r.ravel()])


_GRID = _grid()


def lut_index(bgr: np.ndarray) -> np.ndarray:
    """The look-up index of uint8 BGR pixels (any shape ending in 3)."""
    q = (bgr // _STEP).astype(np.int32)
    return (q[..., 0] * LEVELS + q[..., 1]) * LEVELS + q[..., 2]


@dataclass(frozen=True)
class Gaussian:
    """A colour as a Gaussian in white-referenced L*a*b*."""

    mean: np.ndarray
    inv: np.ndarray
    logdet: float

    @classmethod
    def fit(cls, lab: np.ndarray, floor: tuple[float, float, float] = BG_SIGMA_FLOOR) -> "Gaussian":
        """A robust fit (median, and the spread of the middle of the samples)."""
        med = np.median(lab, axis=0)
        mad = np.median(np.abs(lab - med), axis=0) * 1.4826
        sigma = np.maximum(mad, np.asarray(floor))
        cov = np.diag(sigma ** 2)
        return cls(med, np.linalg.inv(cov), float(np.log(np.linalg.det(cov))))

    def loglik(self, lab: np.ndarray) -> np.ndarray:
        d = lab - self.mean
        return -0.5 * np.einsum("ni,ij,nj->n", d, self.inv, d) - 0.5 * self.logdet


class FrameColours:
    """The colour model under this frame's white: L*a*b* of every grid colour, and the
    log-likelihood of every grid colour under each named colour."""

    def __init__(self, model: ColourModel, white: tuple[float, float, float] | None,
                 names: tuple[str, ...]):
        self.names = names
        self.white = white if white is not None else model.white
        self.lab = lab_features(_GRID, self.white).astype(np.float64)
        fixed = {"dark": DARK, "white": WHITE}
        mu = np.asarray([fixed[n][0] if n in fixed else model.means[model.index(n)] for n in names], np.float64)
        covs = np.asarray([fixed[n][1] if n in fixed else model.covs[model.index(n)] for n in names], np.float64)
        inv = np.linalg.inv(covs)
        logdet = np.linalg.slogdet(covs)[1]
        diff = self.lab[:, None, :] - mu[None, :, :]
        d2 = mahalanobis2(diff, inv)
        plain = -0.5 * d2 - 0.5 * logdet[None, :]
        # the same colour in shadow: darker, its chroma shrunk with its lightness (as a
        # background's, :class:`Background`); a stone's face in another stone's shadow, or
        # turned from the light, is still its colour
        shaded = np.stack([_shaded(self.lab, mu[k], covs[k]) if n not in fixed else plain[:, k]
                           for k, n in enumerate(names)], axis=1)
        self.loglik = np.logaddexp(plain, shaded - SHADE_PRIOR).astype(np.float32)
        self._tables: dict = {}

    def lab_of(self, bgr: np.ndarray) -> np.ndarray:
        return self.lab[lut_index(bgr).ravel()]

    def classes(self, bgr: np.ndarray, background: "Background | None") -> np.ndarray:
        """Log-posteriors (pixels × classes, equal priors, clipped at :data:`LOG_FLOOR`) of
        ``background`` (column 0, when given) and the named colours, for uint8 BGR pixels."""
        idx = lut_index(bgr).ravel()
        return self.table(background)[idx]

    def table(self, background: "Background | None") -> np.ndarray:
        """The log-posteriors of :meth:`classes` for every colour of the look-up grid: a pixel's
        class depends on its grid colour alone, so a zone's pixels are named by one look-up
        (the grid has fewer colours than a zone has pixels)."""
        key = None if background is None else background.key()
        cached = self._tables.get(key)
        if cached is not None:
            return cached
        ll = self.loglik
        if background is not None:
            bg = background.loglik(self.lab).astype(np.float32)[:, None]
            ll = np.concatenate([bg, ll], axis=1)
        ll = ll - ll.max(axis=1, keepdims=True)
        lp = ll - np.log(np.exp(ll).sum(axis=1, keepdims=True))
        out = np.maximum(lp, LOG_FLOOR).astype(np.float32)
        if len(self._tables) > 16:
            self._tables.clear()
        self._tables[key] = out
        return out


@dataclass(frozen=True)
class Background:
    """A surface under light and shadow: lit, it shows L*a*b* ``(L0, a0, b0)``; darker, its
    chroma shrinks with its lightness (both scale alike in L*a*b*), so a pixel is compared with
    the background's colour at its own lightness. Darker than lit is likely (shadows), lighter
    only a little (the light's own unevenness). A shadow also takes the colour of the light
    that still reaches it (the sky's, often bluer than the lamp's): when the samples hold
    enough shadow, its colour is measured too (``shadow``: mean and spread of L*a*b*)."""

    L0: float
    a0: float
    b0: float
    sigma_ab: float
    shadow: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None

    @classmethod
    def fit(cls, lab: np.ndarray, around: np.ndarray | None = None) -> "Background":
        """A robust fit on pixels of the bare surface (some pixels of pieces among them do not
        move it): its lit lightness is the upper part of theirs, its shadow the darker part
        when there is enough of it (taken from ``around`` when given: the pixels of a zone,
        where pieces throw their shadows)."""
        lab = np.asarray(lab, np.float64).reshape(-1, 3)
        if len(lab) < 20:
            raise ValueError("too few pixels of bare table to measure its colour")
        L0 = max(float(np.percentile(lab[:, 0], 65)), 8.0)
        r = np.clip(lab[:, 0] / L0, 0.2, 1.5)
        lit = r > 0.8
        a0 = float(np.median(lab[lit, 1] / r[lit])) if lit.sum() >= 10 else float(np.median(lab[:, 1] / r))
        b0 = float(np.median(lab[lit, 2] / r[lit])) if lit.sum() >= 10 else float(np.median(lab[:, 2] / r))
        res = np.hypot(lab[lit, 1] - a0 * r[lit], lab[lit, 2] - b0 * r[lit]) if lit.sum() >= 10 else \
            np.hypot(lab[:, 1] - a0 * r, lab[:, 2] - b0 * r)
        sigma = max(float(np.median(res)) * 1.2, BG_SIGMA_FLOOR[1])
        shadow = None
        pool = lab if around is None else np.asarray(around, np.float64).reshape(-1, 3)
        if around is not None:  # the shadows of the table, not the pieces' own dark faces:
            # a shadow keeps the table's hue, a piece's face its own
            r2 = np.clip(pool[:, 0] / L0, 0.05, 1.5)
            off = np.hypot(pool[:, 1] - a0 * r2, pool[:, 2] - b0 * r2)
            pool = pool[off < 25.0]
        dim = (pool[:, 0] > 0.2 * L0) & (pool[:, 0] < 0.72 * L0)
        if dim.sum() >= max(30, 0.04 * len(pool)):
            d = pool[dim]
            med = np.median(d, axis=0)
            spread = np.maximum(np.median(np.abs(d - med), axis=0) * 1.4826, (6.0, 3.0, 3.0))
            shadow = (tuple(float(v) for v in med), tuple(float(v) for v in spread))
        return cls(L0, a0, b0, sigma, shadow)  # type: ignore[arg-type]

    @classmethod
    def fit_shadows(cls, lit: "Background", around: np.ndarray) -> "Background":
        """``lit``'s colour with the shadows measured on ``around`` (a zone's pixels)."""
        pool = np.asarray(around, np.float64).reshape(-1, 3)
        r = np.clip(pool[:, 0] / lit.L0, 0.05, 1.5)
        off = np.hypot(pool[:, 1] - lit.a0 * r, pool[:, 2] - lit.b0 * r)
        pool = pool[off < 25.0]
        dim = (pool[:, 0] > 0.2 * lit.L0) & (pool[:, 0] < 0.72 * lit.L0)
        shadow = lit.shadow
        if dim.sum() >= max(30, 0.04 * len(pool)):
            d = pool[dim]
            med = np.median(d, axis=0)
            spread = np.maximum(np.median(np.abs(d - med), axis=0) * 1.4826, (6.0, 3.0, 3.0))
            shadow = (tuple(float(v) for v in med), tuple(float(v) for v in spread))
        return cls(lit.L0, lit.a0, lit.b0, lit.sigma_ab, shadow)  # type: ignore[arg-type]

    def key(self) -> tuple:
        """What the background's log-likelihoods depend on (for caching tables of them)."""
        return (self.L0, self.a0, self.b0, self.sigma_ab, self.shadow)

    def loglik(self, lab: np.ndarray) -> np.ndarray:
        L = lab[:, 0]
        r = np.clip(L / self.L0, 0.05, 2.0)
        da = lab[:, 1] - self.a0 * r
        db = lab[:, 2] - self.b0 * r
        # chroma is noisy in the dark: the tolerance grows as the pixel darkens
        sab = self.sigma_ab * (1.0 + 1.5 * np.clip(1.0 - r, 0.0, 1.0))
        sL = np.where(L < self.L0, 0.45 * self.L0 + 4.0, 0.12 * self.L0 + 6.0)
        ll = (-0.5 * ((L - self.L0) / sL) ** 2 - 0.5 * (da * da + db * db) / (sab * sab)
              - np.log(sL) - 2.0 * np.log(sab))
        if self.shadow is not None:
            mu, sd = (np.asarray(v) for v in self.shadow)
            z = (lab - mu) / sd
            sh = -0.5 * (z * z).sum(axis=1) - float(np.log(sd).sum())
            ll = np.logaddexp(ll, sh)
        return ll


def background(colours: FrameColours, bgr: np.ndarray) -> Background:
    """The background's colour from pixels of bare table or mat (uint8 BGR, N×3)."""
    return Background.fit(colours.lab_of(np.asarray(bgr, np.uint8).reshape(-1, 3)))


def crop_remap(view, rect_px: tuple[int, int, int, int]):
    """Maps (for :func:`cv2.remap`) from an undistorted pinhole crop ``(x0, y0, x1, y1)`` of
    the camera's picture to the distorted frame: readers fit silhouettes with a plain pinhole
    projection on such crops."""
    cam = view.camera
    x0, y0, x1, y1 = rect_px
    xs = np.arange(x0, x1, dtype=np.float64)
    ys = np.arange(y0, y1, dtype=np.float64)
    gx, gy = np.meshgrid(xs, ys)
    norm = np.stack([(gx - cam.cx) / cam.fx, (gy - cam.cy) / cam.fy, np.ones_like(gx)], axis=-1)
    pts = norm.reshape(-1, 3)
    img, _ = cv2.projectPoints(pts, np.zeros(3), np.zeros(3), cam.K, cam.D)
    img = img.reshape(len(ys), len(xs), 2).astype(np.float32)
    return img[..., 0].copy(), img[..., 1].copy()


def paper_white(image: np.ndarray, detections) -> tuple[float, float, float] | None:
    """The white reference: the paper around the markers, taken from the most brightly lit
    marker (a tall tower's shadow across one marker only makes its paper darker, never
    brighter), or None when no marker shows enough paper."""
    from calibration.markers import marker_white

    best = None
    for det in detections:
        white = marker_white(image, [det])
        if white is not None and (best is None or sum(white) > sum(best)):
            best = white
    return best
