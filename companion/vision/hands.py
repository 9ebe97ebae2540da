"""Is a hand or an arm over the play area?

An arm always comes from a player sitting outside the play area, so it must cross the band that
runs all round the play area just inside its edge (:meth:`Layout.band_loop`): a band of bare
table, clear of the markers and the played-card zone. The band is read round its whole length
and compared with itself: the table is what most of the band looks like (its colour, and a
brightness no higher than the lit table's, shade allowed); a sleeve or skin is a stretch of the
band that looks like none of it. A stretch of at least :data:`MIN_RUN_MM` that differs is an
arm. Where the mountain's shadow falls the table may be much darker, and its colour may move
only as a shadow's can (:func:`shade_chroma_z`): a green sleeve or bright skin is no shadow.

When a picture of the band without hands is known (:meth:`HandDetector.learn`, from the last
still frame the referee accepted), each position of the band is also compared with itself in
that picture, which catches a sleeve the colour of the table.

Where the bands cannot judge an arm (it passes in front of them over something read as standing
there, or it is held so high that its picture lies outside them), the table all round the
outer band is looked at as well (:func:`reach_check`): a body unlike the table crossing that
ring from outside towards the play area is an arm reaching in, or its shadow.
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


def _band_points(layout, step: float = 3.0, outside: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Loop points (N×2) and, for each, 5 sample points across the band (N×5×2), mm."""
    loop = layout.band_loop(step, outside)
    nxt = np.roll(loop, -1, axis=0)
    tangent = nxt - loop
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True) + 1e-12
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    half = layout.hand_band[1] / 2
    offs = np.linspace(-half * 0.8, half * 0.8, 5)
    across = loop[:, None, :] + offs[None, :, None] * normal[:, None, :]
    return loop, across


def band_features(image: np.ndarray, view: View, layout, hidden: np.ndarray | None = None,
                  outside: bool = False, shadow: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per band position: (chroma b, chroma r, brightness) in log units × 20 (median across the
    band), whether it is seen (in the frame and not behind something known to stand in front:
    ``hidden``, a frame-size mask, e.g. the mountain), and the loop points."""
    loop, across = _band_points(layout, outside=outside)
    pts = np.concatenate([across.reshape(-1, 2), np.zeros((across.shape[0] * across.shape[1], 1))], axis=1)
    px = view.project(pts).astype(np.float32)
    h, w = image.shape[:2]
    ok = (px[:, 0] >= 1) & (px[:, 0] < w - 2) & (px[:, 1] >= 1) & (px[:, 1] < h - 2)
    # the blur only round the band (a quarter of a frame): 8 px beyond its points leave every
    # value read the same as with the whole frame blurred
    x0, y0, x1, y1 = 0, 0, w, h
    if np.isfinite(px).all():
        a = np.clip(np.floor(px.min(axis=0)) - 8, 0, [w, h]).astype(int)
        b = np.clip(np.ceil(px.max(axis=0)) + 9, 0, [w, h]).astype(int)
        if b[0] - a[0] > 16 and b[1] - a[1] > 16:
            x0, y0, x1, y1 = int(a[0]), int(a[1]), int(b[0]), int(b[1])
    q = (px - np.array([x0, y0], np.float32)).reshape(-1, 1, 2)
    bgr = cv2.remap(cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), 1.0), q[..., 0], q[..., 1],
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float32)
    lg = np.log(bgr + 4.0)
    mean = lg.mean(axis=1, keepdims=True)
    f = np.concatenate([(lg[:, [0]] - mean), (lg[:, [2]] - mean), mean], axis=1) * _SCALE
    f = f.reshape(across.shape[0], across.shape[1], 3)
    qi = np.clip(np.round(px).astype(int), 0, [w - 1, h - 1])
    if hidden is not None:
        ok &= hidden[qi[:, 1], qi[:, 0]] == 0
    inside = ok.reshape(across.shape[0], across.shape[1]).all(axis=1)
    in_shadow = np.zeros(across.shape[0], bool)
    if shadow is not None:
        in_shadow = (shadow[qi[:, 1], qi[:, 0]] > 0).reshape(across.shape[0], across.shape[1]).mean(axis=1) > 0.5
    med = np.median(f, axis=1)
    # texture: how much the brightness varies across the band and along it (wood grain, a
    # weave; a sleeve or skin is smooth)
    b = f[:, :, 2]
    tex = b.std(axis=1) + 0.5 * np.abs(np.diff(np.concatenate([b[-1:, 2], b[:, 2]])))
    return np.concatenate([med, tex[:, None], in_shadow[:, None].astype(np.float32)], axis=1), inside, loop


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


#: how the table's chroma may move in a shadow (log units × 20, :func:`shade_chroma_z`): along
#: the bluer diagonal, up to ``SHADE_BLUER`` of how much darker it is (a low sun's shade lit by
#: the sky: about 0.4), towards the redder one up to ``SHADE_REDDER`` of it (a warm lamp in a
#: room lit warmer still: under 0.1), and across the diagonal up to ``SHADE_ACROSS`` of it; each
#: with ``SHADE_SLACK`` more for the noise of a darker picture
SHADE_BLUER, SHADE_REDDER, SHADE_ACROSS, SHADE_SLACK = 0.6, 0.15, 0.1, 1.5


def shade_chroma_z(d_b: np.ndarray, d_r: np.ndarray, depth: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """How unlike the table in a shadow a colour is: its chroma's shift from the lit table's
    (``d_b``, ``d_r``), beyond what a shadow ``depth`` units darker can give, over the table's
    chroma ``spread``. A shadow is lit by the room's ambient light alone, whose colour differs
    from the lamp's or the sun's along the daylight locus (bluer or redder, green nearly at
    their mean): a shadow's chroma moves along that diagonal, by a share of its depth. A green
    sleeve moves across it; skin brighter than the table is in no shadow. Judged loosely on
    colour, as a shadow once was (a third of the lit table's z-score), a green sleeve passed for
    the shade of towers read on the arm under a light found along it (seed 2024 arm frame 296
    of `companion bench vision`)."""
    depth = np.clip(depth, 0.0, None)
    along = (d_b - d_r) / np.sqrt(2.0)
    across = (d_b + d_r) / np.sqrt(2.0)
    out_along = np.maximum(np.maximum(along - (SHADE_SLACK + SHADE_BLUER * depth),
                                      -along - (SHADE_SLACK + SHADE_REDDER * depth)), 0.0)
    out_across = np.clip(np.abs(across) - (SHADE_SLACK + SHADE_ACROSS * depth), 0.0, None)
    return np.hypot(out_along, out_across) / float(np.mean(spread))


def anomaly(feats: np.ndarray, inside: np.ndarray, reference: np.ndarray | None = None) -> np.ndarray:
    """How unlike the table each band position is (robust z-score; 0 outside the frame).

    A position may be a little darker than the table, not much, unless it lies in a shadow the
    mountain casts (column 4 of ``feats``, from :func:`attached_shadows`): there it may be much
    darker, and its colour may move as a shadow's does (the light of a shadow is the room's
    ambient light, often of another colour than the lamp's: :func:`shade_chroma_z`)."""
    f = feats[inside & (feats[:, 4] < 0.5)]
    if len(f) < 20:
        f = feats[inside]
    if len(f) < 20:
        return np.zeros(len(feats))
    med = np.median(f[:, :4], axis=0)
    mad = np.median(np.abs(f[:, :4] - med), axis=0) * 1.4826
    spread = np.maximum(mad, np.array([0.6, 0.6, 2.0, 0.4]))
    in_shadow = feats[:, 4] > 0.5
    z_chroma = np.hypot((feats[:, 0] - med[0]) / spread[0], (feats[:, 1] - med[1]) / spread[1])
    z_shade = shade_chroma_z(feats[:, 0] - med[0], feats[:, 1] - med[1], med[2] - feats[:, 2], spread[:2])
    z_chroma = np.where(in_shadow, z_shade, z_chroma)
    floor = np.where(in_shadow, med[2] - 45.0, med[2] - 10.0)
    bright_hi = np.quantile(f[:, 2], 0.95)
    over = np.clip(feats[:, 2] - bright_hi, 0, None) / spread[2]
    under = np.clip(floor - feats[:, 2], 0, None) / spread[2]
    # a smooth stretch of a textured table (a sleeve over wood grain)
    smooth = np.clip(med[3] - feats[:, 3], 0, None) / spread[3] * (med[3] > 1.0)
    z = np.maximum(np.maximum(z_chroma * 0.8, np.maximum(over, under)), smooth * 0.8)
    if reference is not None and reference.shape == feats.shape:
        d = (feats - reference)[:, :3].copy()
        d[:, 2] -= np.median(d[inside, 2])  # a change of light is not a hand
        z_ref = np.hypot(np.hypot(d[:, 0] / 1.0, d[:, 1] / 1.0), d[:, 2] / 4.0)
        z = np.maximum(z, z_ref)
    z[~inside] = 0.0
    return z


def attached_shadows(image: np.ndarray, mountain: np.ndarray, table_chroma: tuple[float, float],
                     table_bright: float, texture: float) -> np.ndarray:
    """Frame pixels that are the table in a shadow the mountain casts: darker than the lit
    table, of nearly the table's colour, as textured as the table, and joined to the mountain
    (``mountain``: its silhouette) through such pixels. An arm, even a dark one over a table of
    its colour, is not joined to the mountain's shadow through textured table."""
    small = cv2.resize(image, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA)
    lg = np.log(small.astype(np.float32) + 4.0)
    mean = lg.mean(axis=2)
    f0 = (lg[..., 0] - mean) * _SCALE
    f1 = (lg[..., 2] - mean) * _SCALE
    b = mean * _SCALE
    local = cv2.blur(b, (3, 3))
    tex = np.sqrt(np.clip(cv2.blur(b * b, (3, 3)) - local * local, 0, None))
    dark = (b < table_bright - 4.0) & (np.hypot(f0 - table_chroma[0], f1 - table_chroma[1]) < 4.0)
    if texture > 1.0:
        dark &= tex > 0.4 * texture
    m = cv2.resize(mountain, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    m = cv2.dilate(m.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    n, lab = cv2.connectedComponents((dark | m).astype(np.uint8), connectivity=8)
    touching = np.unique(lab[m])
    keep = np.isin(lab, touching[touching > 0]) & dark
    return cv2.resize(keep.astype(np.uint8), (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)


def check(image: np.ndarray, view: View, layout, reference: np.ndarray | None = None,
          hidden: np.ndarray | None = None, shadow: np.ndarray | None = None,
          step: float = 3.0) -> HandCheck:
    """Look for an arm crossing the band inside the play area or the band round the outside of
    the markers (a hand held high near the edge can hide no part of the inner band in the image
    and still be over the table). ``hidden``: frame pixels known to show something standing in
    front of the band (the mountain found), which are not judged; ``shadow``: where the
    mountain's shadow falls (:func:`estimate_shadows`), allowed darker and of another colour;
    ``reference``: the inner band's features in a frame with no hand."""
    found: list[tuple[float, tuple[float, float]]] = []
    best = 0.0
    need = int(np.ceil(MIN_RUN_MM / step))
    for outside in (False, True):
        feats, inside, loop = band_features(image, view, layout, hidden, outside, shadow)
        z = anomaly(feats, inside, None if outside else reference)
        best = max(best, float(z.max()) if len(z) else 0.0)
        for s, n in _runs(z > THRESHOLD):
            if n < need:
                continue
            idx = (s + np.arange(n)) % len(z)
            mid = loop[idx[n // 2]]
            found.append((float(z[idx].mean() * n * step), (float(mid[0]), float(mid[1]))))
    if not found:
        return HandCheck(False, best)
    return HandCheck(True, max(f[0] for f in found), tuple(f[1] for f in found))


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
              shadow: np.ndarray | None = None) -> HandCheck:
        return check(image, view, self.layout, self.reference, hidden, shadow)


@dataclass
class _AnomalyMap:
    """Every pixel of the frame (at a quarter of its resolution) compared with the table's own
    look round the play area (:func:`anomaly_map`)."""

    z: np.ndarray  #: how unlike the table each pixel is (robust z-score, blurred 3×3)
    loop: np.ndarray  #: inside the outer band's loop (bool)
    paper: np.ndarray  #: the markers' paper and the card zone, with a margin (bool)
    hidden: np.ndarray  #: behind something known to stand in front (bool)
    px_area: float  #: small pixels per mm² of table near the play area's centre
    valid: bool  #: enough table was seen to learn its look


def anomaly_map(image: np.ndarray, view: View, layout, hidden: np.ndarray | None,
                 shadow: np.ndarray | None) -> _AnomalyMap | None:
    """The table's look (colour, brightness, texture: median and spread) learned inside the
    outer band's loop, less what the mountain hides, the markers and the card zone; then each
    pixel's anomaly against it, as on the band (in the mountain's shadow, allowed darker and its
    colour judged as a shadow's, :func:`shade_chroma_z`; a shadow keeps the table's texture, so a
    smooth stretch of a textured top is judged there too). None when the play area cannot be
    drawn."""
    h, w = image.shape[:2]
    sw, sh = w // 4, h // 4
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    lg = np.log(small.astype(np.float32) + 4.0)
    mean = lg.mean(axis=2)
    f0 = (lg[..., 0] - mean) * _SCALE
    f1 = (lg[..., 2] - mean) * _SCALE
    b = cv2.blur(mean * _SCALE, (2, 2))
    local = cv2.blur(b, (3, 3))
    tex = np.sqrt(np.clip(cv2.blur(b * b, (3, 3)) - local * local, 0, None))
    # where to learn the table: inside the outer band's loop, outside the markers' paper and
    # the card zone
    loop_mask = np.zeros((sh, sw), np.uint8)
    loop = layout.band_loop(6.0, outside=True)
    px = view.project(np.column_stack([loop, np.zeros(len(loop))])) / 4.0
    if not np.all(np.isfinite(px)):
        return None
    cv2.fillPoly(loop_mask, [np.round(px).astype(np.int32)], 1)
    paper = np.zeros((sh, sw), np.uint8)
    for poly in layout.paper_polygons(1.9):
        q = view.project(poly) / 4.0
        if np.all(np.isfinite(q)):
            cv2.fillConvexPoly(paper, np.round(q).astype(np.int32), 1)
    hid = np.zeros((sh, sw), bool) if hidden is None \
        else cv2.resize(hidden, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
    # table area per small pixel near the play area's centre (mm² per pixel)
    ax, ay = layout.anchor_xy
    q = view.project(np.array([[ax, ay, 0.0], [ax + 10.0, ay, 0.0], [ax, ay + 10.0, 0.0]])) / 4.0
    a, c = q[1] - q[0], q[2] - q[0]
    px_area = abs(float(a[0] * c[1] - a[1] * c[0])) / 100.0  # small pixels per mm²
    sel = (loop_mask > 0) & (paper == 0) & ~hid
    out = _AnomalyMap(np.zeros((sh, sw), np.float32), loop_mask > 0, paper > 0, hid, px_area, False)
    if sel.sum() < 200:
        return out
    stats = np.stack([f0[sel], f1[sel], b[sel], tex[sel]], axis=1)
    med = np.median(stats, axis=0)
    mad = np.median(np.abs(stats - med), axis=0) * 1.4826
    spread = np.maximum(mad, np.array([0.6, 0.6, 2.0, 0.4]))
    z_chroma = np.hypot((f0 - med[0]) / spread[0], (f1 - med[1]) / spread[1]) * 0.8
    over = np.clip(b - np.quantile(stats[:, 2], 0.97), 0, None) / spread[2]
    under = np.clip((med[2] - 10.0) - b, 0, None) / spread[2]
    smooth = (np.clip(med[3] - tex, 0, None) / spread[3] * 0.8) if med[3] > 1.0 else np.zeros_like(tex)
    zmap = np.maximum(np.maximum(z_chroma, smooth), np.maximum(over, under))
    if shadow is not None:
        sh_small = cv2.resize(shadow, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
        z_shade = shade_chroma_z(f0 - med[0], f1 - med[1], med[2] - b, spread[:2]) * 0.8
        zmap = np.where(sh_small, np.maximum(np.maximum(z_shade, smooth), np.clip((med[2] - 45.0) - b, 0, None) / spread[2]), zmap)
    out.z = cv2.blur(zmap.astype(np.float32), (3, 3))
    out.valid = True
    return out


def area_check(image: np.ndarray, view: View, layout, hidden: np.ndarray | None = None,
               shadow: np.ndarray | None = None, *, min_area_mm2: float = 2500.0,
               threshold: float = THRESHOLD, amap: _AnomalyMap | None = None) -> HandCheck:
    """Look for an arm anywhere over the table round the markers: every pixel of the table (at a
    quarter of the frame's resolution) is compared with the table's own look, as on the band;
    what the mountain hides (``hidden``), the shadows it casts, the markers and the card zone
    are left out; a blob of unlike pixels larger than ``min_area_mm2`` of table is an arm.
    ``amap``: :func:`anomaly_map` of the same arguments, when already made (a reader that runs
    this check and :func:`reach_check` on one frame makes it once)."""
    if amap is None:
        amap = anomaly_map(image, view, layout, hidden, shadow)
    if amap is None or not amap.valid:
        return HandCheck(False, 0.0)
    zmap = amap.z
    sel = amap.loop & ~amap.paper & ~amap.hidden
    bad = ((zmap > threshold) & sel).astype(np.uint8)
    n, lab, st, cen = cv2.connectedComponentsWithStats(bad, connectivity=8)
    if n <= 1:
        return HandCheck(False, float(zmap[sel].max()))
    areas = st[1:, cv2.CC_STAT_AREA] / max(amap.px_area, 1e-9)
    k = int(np.argmax(areas))
    if areas[k] < min_area_mm2:
        return HandCheck(False, float(areas[k]))
    where = view.unproject_to_plane(cen[1 + k][None, :] * 4.0)[0]
    return HandCheck(True, float(areas[k]), ((float(where[0]), float(where[1])),))


#: how far round the outer band :func:`reach_check` looks (mm)
REACH_RING_MM = 150.0


def reach_check(image: np.ndarray, view: View, layout, hidden: np.ndarray | None = None,
                shadow: np.ndarray | None = None, *, ring_mm: float = REACH_RING_MM,
                near_mm: float = 80.0, min_area_mm2: float = 1200.0, seed_mm2: float = 200.0,
                threshold: float = THRESHOLD, weak: float = 3.0, faint: float = 1.0,
                faint_area_mm2: float = 4000.0, amap: _AnomalyMap | None = None) -> HandCheck:
    """Look for an arm reaching in from outside: in a ring of table ``ring_mm`` wide round the
    outer band's loop, a body unlike the table (the same anomaly as :func:`area_check`) that
    crosses the ring, from its outer edge (or the frame's edge) to within ``near_mm`` of the
    loop, and covers at least ``min_area_mm2``, is an arm or its shadow. The body is what
    differs from the table by more than ``weak`` joined to at least ``seed_mm2`` that differs
    by more than ``threshold`` (a dark arm over a table of nearly its colour differs little
    along most of its length, and much where its sleeve, its outline or its shadow is). A body
    of at least ``faint_area_mm2`` crossing the ring needs no such part: there it is what differs
    by more than ``faint`` and by more than twice what the ring's table differs by at its 90th
    percentile (an arm of the table's colour, a little redder or darker all along, over a top
    that differs from itself much less).

    This sees the arm where the band checks cannot judge it: where the arm passes in front of
    the band over the mountain (the mountain read under it hides the band there), or where it
    is held high enough that its picture lies outside the loop. Something lying beside the play
    area (a box, a cup) does not cross the ring and is not taken for an arm. ``amap``: as for
    :func:`area_check`."""
    if amap is None:
        amap = anomaly_map(image, view, layout, hidden, shadow)
    if amap is None or not amap.valid:
        return HandCheck(False, 0.0)
    sh, sw = amap.z.shape
    loop = layout.band_loop(6.0, outside=True)
    lo, hi = loop.min(axis=0) - ring_mm, loop.max(axis=0) + ring_mm
    corners = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]], [lo[0], lo[1]]])
    edge = np.concatenate([a + (np.arange(40) / 40.0)[:, None] * (b - a) for a, b in zip(corners[:-1], corners[1:])])
    px = view.project(np.column_stack([edge, np.zeros(len(edge))])) / 4.0
    if not np.all(np.isfinite(px)):
        return HandCheck(False, 0.0)
    outer = np.zeros((sh, sw), np.uint8)
    cv2.fillPoly(outer, [np.round(px).astype(np.int32)], 1)
    ring = (outer > 0) & ~amap.loop
    judged = ring & ~amap.paper & ~amap.hidden
    strong = (amap.z > threshold) & judged
    if not judged.any():
        return HandCheck(False, 0.0)
    mm = 1.0 / np.sqrt(max(amap.px_area, 1e-9))  # mm per small pixel (near the play area's centre)
    from_loop = cv2.distanceTransform((~amap.loop).astype(np.uint8), cv2.DIST_L2, 3) * mm
    inner = outer.copy()  # the frame's edge is an outer edge too: an arm comes in from it
    inner[0, :] = inner[-1, :] = inner[:, 0] = inner[:, -1] = 0
    from_edge = cv2.distanceTransform(inner, cv2.DIST_L2, 3)  # small pixels
    found, best = [], 0.0
    faint_level = max(faint, 2.0 * float(np.quantile(amap.z[judged], 0.9)))
    # a body joined to a part that differs much, then a large body that differs faintly
    for level, least, seed in ((min(weak, threshold), min_area_mm2, seed_mm2), (faint_level, faint_area_mm2, 0.0)):
        bad = (amap.z > level) & judged
        n, lab, st, cen = cv2.connectedComponentsWithStats(bad.astype(np.uint8), connectivity=8)
        for k in range(1, n):
            area = st[k, cv2.CC_STAT_AREA] * mm * mm
            if area < least:
                best = max(best, float(area) / least)
                continue
            comp = lab == k
            if seed > 0 and float(strong[comp].sum()) * mm * mm < seed:
                continue
            if float(from_edge[comp].min()) > 3.0 or float(from_loop[comp].min()) > near_mm:
                continue
            where = view.unproject_to_plane(cen[k][None, :] * 4.0)[0]
            found.append((float(area), (float(where[0]), float(where[1]))))
        if found:
            break
    if not found:
        return HandCheck(False, best)
    return HandCheck(True, max(f[0] for f in found), tuple(f[1] for f in found))


def _shadow_polys(columns: list[tuple[np.ndarray, float]], light: np.ndarray) -> list[np.ndarray]:
    """Table polygons (mm) shaded by columns (4 base corners, height mm) under a light going
    along ``light`` (unit vector, downwards)."""
    t = np.array([light[0], light[1]]) / max(-light[2], 1e-3)
    out = []
    for base, height in columns:
        tip = base + t * height
        out.append(np.concatenate([base, tip]))
    return out


def _light(elevation: float, azimuth: float) -> np.ndarray:
    """The unit vector of a light going down from ``elevation`` above the table at ``azimuth``
    (radians): the directions the shadow search casts shadows along."""
    return -np.array([np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth),
                      np.sin(elevation)])


#: the light directions the shadow search tries (elevations 20–75°, every 15° round)
SHADOW_LIGHTS = [_light(e, a) for e in np.radians((20, 27, 35, 45, 58, 75))
                 for a in np.radians(np.arange(0, 360, 15))]


def estimate_shadows(image: np.ndarray, view: View, columns: list[tuple[np.ndarray, float]],
                     hidden: np.ndarray, *, scale: int = 4) -> np.ndarray | None:
    """Where the mountain's shadow lies on the table (frame-size mask), the light's direction
    found by trying directions and keeping the one whose predicted shadow is darkest against
    the lit table around it. None when the mountain casts no visible shadow."""
    return find_shadow(image, view, columns, hidden, scale=scale)[0]


def _elevation_azimuth(light: np.ndarray) -> tuple[float, float]:
    """The inverse of :func:`_light`."""
    return float(np.arcsin(-light[2])), float(np.arctan2(-light[1], -light[0]))


def _darkest_shadow(view: View, columns: list[tuple[np.ndarray, float]], lights: list[np.ndarray],
                    dark: np.ndarray, sel: np.ndarray, scale: int
                    ) -> tuple[float, np.ndarray | None, int]:
    """Of the shadows the columns cast under each of ``lights``, the one darkest against the
    lit table round it (``dark``: how much darker than the lit table each small pixel is;
    ``sel``: the table judged): its score, its mask (small pixels) and its index."""
    sh, sw = dark.shape
    best, best_mask, best_k = 0.0, None, -1
    # every shadow polygon of every light direction projected in one call (the projection is
    # per point, so the pixels are those of one call per polygon)
    polys = np.stack([np.stack(_shadow_polys(columns, light)) for light in lights])  # [light, column, 8, 2]
    flat = polys.reshape(-1, 2)
    proj = (view.project(np.column_stack([flat, np.zeros(len(flat))])) / scale).reshape(polys.shape)
    finite = np.isfinite(proj).all(axis=(2, 3))
    ipoly = np.round(np.where(np.isfinite(proj), proj, 0.0)).astype(np.int32)
    for li in range(len(lights)):
        mask = np.zeros((sh, sw), np.uint8)
        for p, ok in zip(ipoly[li], finite[li]):
            if ok:
                cv2.fillConvexPoly(mask, cv2.convexHull(p), 1)
        m = (mask > 0) & sel
        if m.sum() < 10:
            continue
        inside = float(dark[m].mean())
        outside = float(dark[sel & ~m].mean()) if (sel & ~m).any() else 0.0
        score = (inside - outside) * np.sqrt(m.sum())
        if score > best:
            best, best_mask, best_k = score, mask, li
    return best, best_mask, best_k


def find_shadow(image: np.ndarray, view: View, columns: list[tuple[np.ndarray, float]],
                hidden: np.ndarray, *, scale: int = 4, around: tuple[float, float] | None = None
                ) -> tuple[np.ndarray | None, tuple[float, float] | None]:
    """:func:`estimate_shadows`, and the light direction found (elevation, azimuth in
    radians, as :func:`_light` takes them). ``around``: the direction found at the last still
    moment (a warm reading: the room's light seldom moves), tried with its neighbours only;
    otherwise every direction of :data:`SHADOW_LIGHTS` is tried and the best refined."""
    if not columns:
        return None, None
    h, w = image.shape[:2]
    sw, sh = w // scale, h // scale
    grey = cv2.cvtColor(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    lb = np.log(grey.astype(np.float32) + 4.0) * _SCALE
    hid = cv2.resize(hidden, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
    # the table near the mountain (within 300 mm of its columns), less the mountain itself
    near = np.zeros((sh, sw), np.uint8)
    allbase = np.concatenate([c[0] for c in columns])
    centre = allbase.mean(axis=0)
    ang = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    ring = np.column_stack([centre[0] + 320 * np.cos(ang), centre[1] + 320 * np.sin(ang), np.zeros(40)])
    q = view.project(ring) / scale
    if not np.all(np.isfinite(q)):
        return None, None
    cv2.fillConvexPoly(near, np.round(q).astype(np.int32), 1)
    sel = (near > 0) & ~hid
    if sel.sum() < 100:
        return None, None
    lit = np.quantile(lb[sel], 0.7)
    dark = np.clip(lit - lb, 0, None) * sel
    if around is None:
        best, best_mask, at = _darkest_shadow(view, columns, SHADOW_LIGHTS, dark, sel, scale)
        if best_mask is None or best <= 0:
            return None, None
        # the directions tried lie 7–13° of elevation and 15° of azimuth apart: under a low sun
        # a tall tower's shadow, cast along the nearest of them, ends short of its tip or beside
        # it, and the band checks took what it left out for an arm (seed 2024 positions 287 and
        # 308 of `companion bench vision`); the direction is refined round the one found, in two
        # rounds of halved steps
        direction = _elevation_azimuth(SHADOW_LIGHTS[at])
        steps = [(4.0, 7.5), (2.0, 3.75)]
    else:
        best, best_mask, direction = 0.0, None, around
        steps = [(2.5, 5.0), (2.5, 5.0)]  # the second round only if the first one moved
    for d_el, d_az in steps:
        el, az = direction
        d_el, d_az = np.radians(d_el), np.radians(d_az)
        tried = [(el + a * d_el, az + b * d_az) for a in (-1, 0, 1) for b in (-1, 0, 1)
                 if (a or b or best_mask is None) and np.radians(12.0) <= el + a * d_el <= np.radians(85.0)]
        score, mask, at = _darkest_shadow(view, columns, [_light(e, z) for e, z in tried], dark, sel, scale)
        if mask is not None and score > best:
            best, best_mask, direction = score, mask, tried[at]
        if direction == around:  # a warm reading whose light has not moved
            break
    if best_mask is None or best <= 0:
        return None, None
    grown = cv2.dilate(best_mask, np.ones((5, 5), np.uint8))
    return cv2.resize(grown, (w, h), interpolation=cv2.INTER_NEAREST), direction
