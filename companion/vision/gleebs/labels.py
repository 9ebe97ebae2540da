"""Naming every pixel of the board's picture: paper, one of the five pyramid colours, or
something else (a hand, a sleeve, the table).

The colours are the learned :class:`~companion.vision.colours.ColourModel` (``companion calibrate
colours``: the pyramids under the table's own light), each a Gaussian in L*a*b* of
white-referenced pixels. Paper joins them as one more class: neutral, and of any lightness from
the lit sheet down to the shadow a pyramid casts, so shadows never read as pieces. A pixel far
from every class is "other".

Classifying a whole picture pixel by pixel in L*a*b* is too slow for a frame's budget, so the
classes are tabulated once per model over white-referenced BGR (64 levels a channel on a square
root scale: fine where dark colours need it, and steps of 3 % at white) and a frame is labelled by two table look-ups.
"""

from __future__ import annotations

import math

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
#: the fixed paper class takes paper at least this light; darker paper (shadows) is recognised
#: frame by frame along the frame's own shadow line (:meth:`Labeller.shade`)
LIGHT_PAPER_L = 70.0
PAPER_CHROMA = 8.0
DEFAULT_SHADOW_L = 40.0
#: the darkest a shadow on paper is taken to be (L*): far lighter than black plastic, whose
#: faces reflect a twentieth of what paper does
SHADOW_MIN_L = 16.0
SHADE_MIN_PIXELS = 150
#: overexposed paper: two channels clipped, the third at least this share of white (a pale hand,
#: clipped the same way, is yellower)
CLIPPED_MIN = 0.85
#: the most a shadow's tint may grow per unit of lightness lost (a low sun under a blue sky)
MAX_TINT = 0.8
#: a pixel whose nearest class is farther than this (Mahalanobis) is "other"
OTHER_DISTANCE = 4.5
LEVELS = 64
#: the white reference at least this high in every channel: the lit paper clips in the camera
CLIPPED_WHITE = 250.0
#: how far (white-referenced, per channel: a floor and a share of the pixel's brightest channel)
#: a pixel may lie from the blend of a clipped sheet and its shadows and still be that paper
CLIP_BLEND_TOL = (0.02, 0.03)
#: two white references within this ratio (log) in every channel are the same light
SAME_LIGHT = 0.1


def _same_light(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return all(abs(math.log(max(x, 1.0) / max(y, 1.0))) <= SAME_LIGHT for x, y in zip(a, b))


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
        for start in range(0, len(lab), 16384):  # in chunks: N×K×3 at once is large
            f = lab[start:start + 16384]
            diff = f[:, None, :] - mu[None, :, :]
            d2 = np.einsum("nki,kij,nkj->nk", diff, inv, diff)
            score = -0.5 * d2 - 0.5 * logdet[None, :]
            # the fixed paper class only takes light, neutral paper (white-referenced paper is
            # grey whatever the light); paper in shadow is decided per frame
            score[f[:, 0] < LIGHT_PAPER_L, 0] = -np.inf
            best = np.argmax(score, axis=1)
            far = d2[np.arange(len(best)), best] > OTHER_DISTANCE ** 2
            out = best.astype(np.uint8)
            out[far] = OTHER
            table[start:start + 16384] = out
        self.table = table
        self.lab = lab.astype(np.float32)
        # bins at the top of two channels (paper whose light clips in the camera) and not dark
        # in the third: overexposed paper, however tinted its one unclipped channel makes it
        top = rel >= 0.999
        self.clipped_paper = (top.sum(axis=1) >= 2) & (rel.min(axis=1) >= CLIPPED_MIN)
        self._tables: dict[tuple, np.ndarray] = {}
        self.chroma = np.hypot(self.lab[:, 1], self.lab[:, 2])
        self.rel = rel.astype(np.float32)
        self._channels = [np.ascontiguousarray(self.rel[:, c]) for c in range(3)]
        self._blend_tol = (CLIP_BLEND_TOL[0] + CLIP_BLEND_TOL[1] * self.rel.max(axis=1)).astype(np.float32)
        #: the last frame whose shadows could be studied: its white, tint and clipped shadow
        self._seen_shade: tuple | None = None

    def _bins(self, image: np.ndarray, white: tuple[float, float, float]) -> np.ndarray:
        v = np.arange(256, dtype=np.float64)
        tables = []
        for c in range(3):
            x = np.clip(v / max(float(white[c]), 1.0), 0.0, 1.0)
            tables.append(np.round((LEVELS - 1) * np.sqrt(x)).astype(np.int32))
        return (tables[0][image[:, :, 0]] << 12) | (tables[1][image[:, :, 1]] << 6) | tables[2][image[:, :, 2]]

    def shade(self, bins: np.ndarray) -> tuple[float, float, float]:
        """How paper looks in shadow in this frame: the tint of its shadows (a*, b* gained per
        unit of lightness lost) and the darkest it gets in them (L*), read off the paper itself.
        A sky-lit shadow under a low warm sun is bluish; under a lamp it is grey."""
        lab = self.lab[bins]
        L, a, b = lab[:, 0], lab[:, 1], lab[:, 2]
        cand = (L >= SHADOW_MIN_L) & (L <= 85.0) & (self.chroma[bins] <= 28.0)
        if int(np.count_nonzero(cand)) < SHADE_MIN_PIXELS:
            return 0.0, 0.0, DEFAULT_SHADOW_L
        depth = 100.0 - L[cand]
        ta = float(np.median(a[cand] / depth))
        tb = float(np.median(b[cand] / depth))
        norm = math.hypot(ta, tb)
        if norm > MAX_TINT:
            ta, tb = ta * MAX_TINT / norm, tb * MAX_TINT / norm
        # the shadows' cores: most of what is darker than lit paper and grey is shadow (the
        # pieces' dark faces are few, and darker still)
        core = float(np.clip(np.percentile(L[cand], 20) - 6.0, SHADOW_MIN_L + 2.0, 75.0))
        return ta, tb, core

    def _enough_shade(self, bins: np.ndarray) -> bool:
        lab = self.lab[bins]
        cand = (lab[:, 0] >= SHADOW_MIN_L) & (lab[:, 0] <= 85.0) & (self.chroma[bins] <= 28.0)
        return int(np.count_nonzero(cand)) >= SHADE_MIN_PIXELS

    def shadow_colour(self, bins: np.ndarray) -> tuple[float, float, float] | None:
        """The colour of paper in the shadows' cores (white-referenced camera values, scaled so
        its brightest channel is 1), for a frame whose lit paper clips (:meth:`table_for`); None
        when too little shadow shows."""
        lab = self.lab[bins]
        cand = (lab[:, 0] >= SHADOW_MIN_L) & (lab[:, 0] <= 85.0) & (self.chroma[bins] <= 28.0)
        if int(np.count_nonzero(cand)) < SHADE_MIN_PIXELS:
            return None
        L = lab[cand, 0]
        rel = self.rel[bins[cand]]
        core = rel[L <= np.percentile(L, 30)]
        colour = np.median(core / np.maximum(core.max(axis=1, keepdims=True), 1e-3), axis=0)
        return float(colour[0]), float(colour[1]), float(colour[2])

    def paper_tone(self, bins: np.ndarray) -> tuple[float, float, float]:
        """How lit paper reads in this frame: its (a*, b*) (not quite grey when a channel is
        clipped or the light varies across the board) and how far from that it may stray."""
        lab = self.lab[bins]
        lit = lab[lab[:, 0] >= 85.0]
        if len(lit) < 30:
            return 0.0, 0.0, PAPER_CHROMA
        a, b = float(np.median(lit[:, 1])), float(np.median(lit[:, 2]))
        spread = 1.4826 * float(np.median(np.hypot(lit[:, 1] - a, lit[:, 2] - b)))
        return a, b, float(np.clip(3.5 * spread + 3.0, PAPER_CHROMA, 16.0))

    def table_for(self, tint: tuple[float, float, float],
                  tone: tuple[float, float, float] = (0.0, 0.0, PAPER_CHROMA),
                  clipped_shadow: tuple[float, float, float] | None = None) -> np.ndarray:
        """The frame's table: the fixed classes, with every bin lying along this frame's
        paper line made paper: from lit paper (as the frame's own paper reads, ``tone``) down
        to its shadows' cores along their tint (``tint``). ``clipped_shadow``: the shadows'
        colour (:meth:`shadow_colour`) when the lit paper clips in the camera; then the blends
        of the clipped sheet with its shadows are paper too (:meth:`clipped_blend`)."""
        ta, tb, core = tint
        pa, pb, radius = tone
        L, a, b = self.lab[:, 0], self.lab[:, 1], self.lab[:, 2]
        lit = (L >= LIGHT_PAPER_L) & (np.hypot(a - pa, b - pb) <= radius)
        depth = np.maximum(100.0 - L, 0.0)
        off = np.hypot(a - pa - ta * depth, b - pb - tb * depth)
        shade = (L >= core) & (off <= 9.0 + 0.15 * depth)
        table = np.where(self.table == PAPER, np.uint8(OTHER), self.table)
        paper = lit | shade | self.clipped_paper
        if clipped_shadow is not None:
            paper |= self.clipped_blend(clipped_shadow, core) & (L >= core)
        return np.where(paper, np.uint8(PAPER), table)

    def clipped_blend(self, shadow: tuple[float, float, float], core: float) -> np.ndarray:
        """Bins (bool) that are paper at a shadow's edge when the lit paper clips.

        The camera records lit paper brighter than it can: clipped white, its true colour lost.
        Where a shadow's edge blurs the lit sheet into the shadow, the sheet's light falls
        channel by channel below the clip, the channel the light has least of first: under a warm
        lamp, whose shadows are warm too, the blue channel drops while green and red stay
        clipped, so the edge reads a pale yellow and then a tan that is no paper the fixed
        classes know, and the learned colours, wide under such a light, take it for a pyramid
        (a blue large read under a red medium: its shadow's rim). Those blends lie in the
        tetrahedron of the shadow's colour at its core, that colour brightened until its
        brightest channel clips, then its second, and clipped white."""
        s = np.clip(np.asarray(shadow, np.float64), 1e-3, 1.0)
        s = s / s.max()
        # the core's colour: the shadow's, as dark as the frame's shadow cores
        scale = np.linspace(0.02, 1.0, 50)
        L = lab_features((scale[:, None] * s[None] * 255.0).astype(np.float32), (255.0, 255.0, 255.0))[:, 0]
        c0 = float(scale[min(int(np.searchsorted(L, core)), len(scale) - 1)])
        vertices = np.array([c0 * s, s, np.clip(s / np.sort(s)[1], 0.0, 1.0), np.ones(3)])
        out = np.zeros(len(self.rel), bool)
        M = (vertices[:3] - vertices[3]).T
        if abs(np.linalg.det(M)) < 1e-6:
            return out
        # every blend is at least as bright as the darkest corner in each channel, and keeps the
        # shadow's order of channels: only the bins that do are weighed (a few thousand)
        ch, tol = self._channels, self._blend_tol
        lo, mid, hi = np.argsort(s)
        floor = vertices[0] - CLIP_BLEND_TOL[0]
        near = (ch[0] >= floor[0]) & (ch[1] >= floor[1]) & (ch[2] >= floor[2])
        near &= (ch[lo] <= ch[mid] + tol) & (ch[mid] <= ch[hi] + tol)
        idx = np.flatnonzero(near)
        x = self.rel[idx].astype(np.float64)
        lam = (x - vertices[3]) @ np.linalg.inv(M).T
        lam = np.clip(np.concatenate([lam, 1.0 - lam.sum(axis=1, keepdims=True)], axis=1), 0.0, None)
        lam /= np.maximum(lam.sum(axis=1, keepdims=True), 1e-9)
        out[idx] = np.abs(x - lam @ vertices).max(axis=1) <= tol[idx]
        return out

    def label(self, image: np.ndarray, white: tuple[float, float, float],
              sample: np.ndarray | None = None, paper: np.ndarray | None = None) -> np.ndarray:
        """Labels (uint8, H×W) of a BGR picture whose white paper reads ``white``. ``sample``
        (a mask) says where paper's shadows may be studied (the board, not its print); ``paper``
        (flat pixel indices) where blank paper surely is."""
        bins = self._bins(image, white)
        region = (bins[::2, ::2] if sample is None else bins[::2, ::2][sample[::2, ::2] > 0]).ravel()
        tone = self.paper_tone(bins.ravel()[paper]) if paper is not None else (0.0, 0.0, PAPER_CHROMA)
        clipped = None
        if self._enough_shade(region):
            tint = self.shade(region)
            if min(white) >= CLIPPED_WHITE:
                colour = self.shadow_colour(region)
                if colour is not None:
                    clipped = tuple(round(c * 50) / 50 for c in colour)
            self._seen_shade = (white, tint, clipped)
        elif self._seen_shade is not None and _same_light(self._seen_shade[0], white):
            # too little shadow along the lines this time (the pyramids' shadows fall inside
            # their squares): the light is the one whose shadows were last seen, and so are they
            _, tint, clipped = self._seen_shade
        else:
            tint = self.shade(region)
        # a still scene under a steady light keeps its paper: tables are kept for the last few
        # looks of it (rounded well inside what the tests of table_for tell apart)
        key = (round(tint[0], 2), round(tint[1], 2), round(tint[2]), round(tone[0] * 2) / 2,
               round(tone[1] * 2) / 2, round(tone[2]), clipped)
        table = self._tables.get(key)
        if table is None:
            table = self.table_for(key[:3], key[3:6], clipped)
            if len(self._tables) >= 8:
                self._tables.pop(next(iter(self._tables)))
            self._tables[key] = table
        return table[bins]
