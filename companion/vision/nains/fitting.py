"""Fitting solids to a picture: how well a stone or a die, placed here and turned so, explains
what the camera saw.

A hypothesis is a solid (:mod:`.solids`) at a place and a turn. Its score is read off the
per-pixel class log-posteriors of a top-down plane picture (:mod:`.planes`, :mod:`.pixels`):

* points spread over each face the camera can see should show the face's class (the stone's
  colour; for a die's sides, "not the background");
* points just outside the solid, where the camera sees the table past it, should show the
  background: around its foot on the camera's side and across, and beyond its top on the far
  side and across (the near side of its top hides its own sides, so it proves nothing).

Points are projected through the camera's centre onto the picture's plane, so the parallax of
high and low points is exact; many hypotheses are scored at once (arrays of poses), which is
what makes searching over shapes, places and turns affordable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.vision.nains.planes import Plane
from companion.vision.nains.solids import shape

#: face points stay this far inside a face's edges (mm), this far apart; ring points lie
#: this far outside
INSET_MM = 1.6
FACE_STEP_MM = 5.0
#: the top face's edge points lie this far inside its edges
EDGE_IN_MM = 1.2
RING_MM = 2.0
#: a picture pixel outside the plane picture scores this
OUTSIDE = float(np.log(0.5))
#: background points weigh this much against face points
RING_WEIGHT = 0.8
#: a face that only needs to be "not background" costs at most this where it looks like the
#: background (a side in deep shadow looks like the table's shadow)
SOFT_FLOOR = float(np.log(0.4))
#: the shading term: an evenly lit face's points spread about this much in L* (noise, mottle)
SHADE_SIGMA = 6.0
SHADE_WEIGHT = 0.25


@dataclass(frozen=True)
class Samples:
    """A solid's sample points in its own frame: face points with their face's index, outward
    normal and kind, and ring points with their outward direction (horizontal) and level
    (0: around the foot, 1: around the top)."""

    face_pts: np.ndarray
    face_index: np.ndarray
    face_normal: np.ndarray
    face_top: np.ndarray  # bool: the face is the solid's top (or a roof's slope)
    face_group: np.ndarray  # the flat face each point lies on (a cylinder's side: quarters)
    ring_pts: np.ndarray
    ring_dir: np.ndarray
    ring_top: np.ndarray


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The z of the cross product of 2-D vectors (numpy's own is deprecated for 2-D)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _grid_on(pts: np.ndarray, step: float) -> np.ndarray:
    """Points spread over a convex planar polygon, kept INSET_MM inside its edges."""
    o = pts[0]
    a = pts[1] - pts[0]
    a = a / np.linalg.norm(a)
    n = np.cross(a, pts[-1] - pts[0])
    n = n / np.linalg.norm(n)
    b = np.cross(n, a)
    uv = np.column_stack([(pts - o) @ a, (pts - o) @ b])
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    nu = max(2, int(math.ceil((hi[0] - lo[0]) / step)))
    nv = max(2, int(math.ceil((hi[1] - lo[1]) / step)))
    us = np.linspace(lo[0], hi[0], nu + 1)[:-1] + (hi[0] - lo[0]) / nu / 2
    vs = np.linspace(lo[1], hi[1], nv + 1)[:-1] + (hi[1] - lo[1]) / nv / 2
    g = np.array([[u, v] for u in us for v in vs])
    keep = np.ones(len(g), bool)
    m = len(uv)
    cw = np.sign(_cross2(uv[1] - uv[0], uv[2] - uv[1]))
    for k in range(m):
        p, q = uv[k], uv[(k + 1) % m]
        e = q - p
        d = _cross2(e, g - p) * cw / max(np.linalg.norm(e), 1e-9)
        keep &= d >= INSET_MM
    g = g[keep]
    return o + g[:, :1] * a + g[:, 1:] * b


def _edge_band(pts: np.ndarray, inset: float, step: float) -> np.ndarray:
    """Points just inside a flat polygon's edges (its outline, ``inset`` mm in), ``step`` apart:
    where a face's exact place shows best."""
    c = pts.mean(axis=0)
    out = []
    m = len(pts)
    for k in range(m):
        p, q = pts[k], pts[(k + 1) % m]
        e = q - p
        L = float(np.linalg.norm(e))
        if L < 1e-6:
            continue
        for t in np.arange(step / 2, L, step) / L:
            x = p + e * t
            d = c - x
            d[2] = 0.0
            n = np.linalg.norm(d)
            out.append(x + d / max(n, 1e-9) * inset)
    return np.array(out).reshape(-1, 3)


@lru_cache(maxsize=None)
def samples(name: str) -> Samples:
    """The sample points of the solid ``name`` (see :class:`Samples`)."""
    sh = shape(name, 12)
    fp, fi, fn, ft, fg = [], [], [], [], []
    for k, f in enumerate(sh.faces):
        if f.kind == "bottom":
            continue
        pts = sh.points[list(f.index)]
        if f.kind == "side" and len(sh.faces) > 10:  # a cylinder's strip: a column of points
            g = np.array([pts.mean(axis=0) + np.array([0, 0, dz]) for dz in (-6.0, 0.0, 6.0)])
        else:
            g = _grid_on(pts, FACE_STEP_MM)
            if f.kind == "top":
                g = np.vstack([g, _edge_band(pts, EDGE_IN_MM, 4.0)])
        fp.append(g)
        cyl_side = f.kind == "side" and len(sh.faces) > 10
        group = len(sh.faces) + int(np.floor((np.arctan2(f.normal[1], f.normal[0]) + np.pi) / (np.pi / 2))) % 4 \
            if cyl_side else k
        fg += [group] * len(g)
        fi += [k] * len(g)
        fn += [f.normal] * len(g)
        ft += [f.kind in ("top", "slope")] * len(g)
    base = sh.points[sh.points[:, 2] < 1e-6]
    top = sh.points[np.isclose(sh.points[:, 2], sh.points[:, 2].max())]
    rp, rd, rt = [], [], []
    rings = [(0, base)] + ([(1, top)] if len(top) > 2 else [])
    for level, ring in rings:
        c = ring.mean(axis=0)
        ang = np.arctan2(ring[:, 1] - c[1], ring[:, 0] - c[0])
        poly = ring[np.argsort(ang)]
        for k in range(len(poly)):
            p, q = poly[k], poly[(k + 1) % len(poly)]
            e = q - p
            L = float(np.hypot(e[0], e[1]))
            out = np.array([e[1], -e[0], 0.0]) / max(L, 1e-9)
            if out[:2] @ (((p + q) / 2)[:2] - c[:2]) < 0:
                out = -out
            for t in np.linspace(0.15, 0.85, max(2, int(L // 6))):
                rp.append(p + e * t + out * RING_MM)
                rd.append(out)
                rt.append(level == 1)
    if len(top) == 2:  # a roof: past the ends of its ridge, just under it
        for end in top:
            out = np.array([np.sign(end[0]), 0.0, 0.0])
            for dy in (-3.0, 0.0, 3.0):
                rp.append(end + out * RING_MM + np.array([0.0, dy, -2.0]))
                rd.append(out)
                rt.append(True)
    return Samples(np.concatenate(fp), np.array(fi), np.array(fn, float), np.array(ft), np.array(fg),
                   np.array(rp), np.array(rd), np.array(rt))


def facing(normals: np.ndarray, to_camera: np.ndarray) -> np.ndarray:
    """How much each point counts: 1 on a face turned towards the camera, less on one seen at a
    grazing angle (a sliver of a few pixels, where blur mixes it with what lies beside it), 0 on
    a face turned away."""
    t0, t1, t2 = to_camera[..., 0], to_camera[..., 1], to_camera[..., 2]
    dot = normals[..., 0] * t0 + normals[..., 1] * t1 + normals[..., 2] * t2
    cos = dot / np.maximum(np.sqrt(t0 * t0 + t1 * t1 + t2 * t2), 1e-9)
    return np.clip((cos - 0.05) / 0.3, 0.0, 1.0)


def facing_posed(S: "Samples", poses: np.ndarray, camera: np.ndarray) -> np.ndarray:
    """:func:`facing` of a solid's face points at many poses (H × P), worked out in the solid's
    own frame: the camera seen from each pose is one point there, so each pose costs two
    small products instead of turning every normal and point."""
    a = np.radians(poses[:, 3])
    c, s = np.cos(a), np.sin(a)
    dx, dy = camera[0] - poses[:, 0], camera[1] - poses[:, 1]
    q = np.column_stack([c * dx + s * dy, -s * dx + c * dy, camera[2] - poses[:, 2]])  # H × 3
    p, n = S.face_pts, S.face_normal
    np_, pp = _face_terms(S)
    dot = q @ n.T - np_[None, :]
    d2 = np.maximum((q * q).sum(axis=1)[:, None] - 2.0 * (q @ p.T) + pp[None, :], 0.0)
    cos = dot / np.maximum(np.sqrt(d2), 1e-9)
    return np.clip((cos - 0.05) / 0.3, 0.0, 1.0)


_FACE_TERMS: dict = {}


def _face_terms(S: "Samples") -> tuple[np.ndarray, np.ndarray]:
    """Each face point's normal · point and squared length in its solid's frame (the pose-free
    terms of :func:`facing_posed`), kept per solid's samples (they are kept themselves)."""
    hit = _FACE_TERMS.get(id(S))
    if hit is None or hit[0] is not S:
        p, n = S.face_pts, S.face_normal
        hit = (S, np.einsum("ij,ij->i", n, p), (p * p).sum(axis=1))
        _FACE_TERMS[id(S)] = hit
    return hit[1], hit[2]


def rotations(yaws_deg: np.ndarray) -> np.ndarray:
    a = np.radians(np.asarray(yaws_deg, float))
    c, s = np.cos(a), np.sin(a)
    R = np.zeros((len(a), 3, 3))
    R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1], R[:, 2, 2] = c, -s, s, c, 1.0
    return R


class Fitter:
    """Scores hypotheses against a plane picture's class log-posteriors ``lp`` (h × w × K,
    class 0 the background) seen from the camera at ``camera`` (table mm)."""

    def __init__(self, plane: Plane, lp: np.ndarray, camera: np.ndarray,
                 lightness: np.ndarray | None = None, dark: int | None = None):
        self.plane = plane
        #: the class of pixels too dark to show a colour (None: not named)
        self.dark = dark
        #: the picture's lightness (L*, h × w), for the shading term; None: no shading term
        if lightness is None:
            self.L = None
        else:
            self.L = np.empty(lightness.size + 1, np.float32)
            self.L[:-1] = lightness.reshape(-1)
            self.L[-1] = 50.0
        h, w, k = lp.shape
        self.h, self.w, self.k = h, w, k
        # log(clip(1 - exp(lp), 1e-3, 1)), worked in one buffer
        nots = np.exp(lp)
        np.subtract(1.0, nots, out=nots)
        np.clip(nots, 1e-3, 1.0, out=nots)
        with np.errstate(divide="ignore"):
            np.log(nots, out=nots)
        nots = nots.astype(np.float32)
        soft = np.maximum(nots[:, :, :1], np.float32(SOFT_FLOOR))
        # the table or a deep shadow on it (class -3): the shadow a stack casts on the camera's
        # side of its foot is too dark to show the table's colour (``dark``: the class of such
        # pixels; without it, the background alone)
        ground = lp[:, :, :1] if dark is None else np.logaddexp(lp[:, :, :1], lp[:, :, dark:dark + 1])
        # one flat table: the K classes, "not class k" for each (class -1 is "not background",
        # -10 - k "not class k"), "not background, or a face in shadow" (class -2: never much
        # against), the ground (class -3), then the value off the picture
        self.stride = 2 * k + 2
        # then the value off the picture: a whole row of it, so that a point off the picture
        # can read any column there (its last entry is the one :meth:`_index` points to); the
        # flat table is filled in place (joining, then appending, copied the whole picture twice)
        self.table = np.empty((h * w + 1) * self.stride, np.float32)
        flat = self.table[:h * w * self.stride].reshape(h, w, self.stride)
        flat[:, :, :k] = lp
        flat[:, :, k:2 * k] = nots
        flat[:, :, 2 * k:2 * k + 1] = soft
        flat[:, :, 2 * k + 1:] = ground
        self.table[h * w * self.stride:] = np.float32(OUTSIDE)
        #: where a row of the flat table off the picture starts
        self.outside_row = len(self.table) - self.stride
        self.lp = lp
        self.C = np.asarray(camera, float)

    def to_px(self, X: np.ndarray) -> np.ndarray:
        """Table points (… × 3) to plane-picture pixels (… × 2), through the camera's centre."""
        C, pl = self.C, self.plane
        t = (C[2] - pl.z) / np.maximum(C[2] - X[..., 2], 1e-6)
        Y = C[:2] + (X[..., :2] - C[:2]) * t[..., None]
        return np.stack([(Y[..., 0] - pl.rect.x0) * pl.ppm - 0.5, (pl.rect.y1 - Y[..., 1]) * pl.ppm - 0.5], axis=-1)

    def _index(self, X: np.ndarray, cls: np.ndarray) -> np.ndarray:
        pix, inside = self._pixels(X)
        return np.where(inside, pix + self._column(cls), len(self.table) - 1)

    def _pixels(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where table points (… × 3) fall in the flat table (the first column of their
        picture pixel's row), and whether they fall in the picture at all."""
        C, pl = self.C, self.plane
        t = (C[2] - pl.z) / np.maximum(C[2] - X[..., 2], 1e-6)
        ix = np.rint((C[0] + (X[..., 0] - C[0]) * t - pl.rect.x0) * pl.ppm - 0.5).astype(np.int64)
        iy = np.rint((pl.rect.y1 - C[1] - (X[..., 1] - C[1]) * t) * pl.ppm - 0.5).astype(np.int64)
        inside = (ix >= 0) & (ix < self.w) & (iy >= 0) & (iy < self.h)
        return (iy * self.w + ix) * self.stride, inside

    def _posed_pixels(self, pts: np.ndarray, c: np.ndarray, s: np.ndarray, poses: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_pixels` of :meth:`_place` (``pts`` at ``poses``, ``c``, ``s`` the cosine
        and sine of their turns, H × 1), the same sums worked a coordinate at a time: no
        H × N × 3 array of points is made, only read back a strided coordinate at a time."""
        C, pl = self.C, self.plane
        px, py = pts[None, :, 0], pts[None, :, 1]
        X0 = c * px - s * py + poses[:, None, 0]
        X1 = s * px + c * py + poses[:, None, 1]
        X2 = pts[None, :, 2] + poses[:, None, 2]
        t = (C[2] - pl.z) / np.maximum(C[2] - X2, 1e-6)
        ix = np.rint((C[0] + (X0 - C[0]) * t - pl.rect.x0) * pl.ppm - 0.5).astype(np.int64)
        iy = np.rint((pl.rect.y1 - C[1] - (X1 - C[1]) * t) * pl.ppm - 0.5).astype(np.int64)
        inside = (ix >= 0) & (ix < self.w) & (iy >= 0) & (iy < self.h)
        return (iy * self.w + ix) * self.stride, inside

    def _along(self, S: "Samples", c: np.ndarray, s: np.ndarray, poses: np.ndarray) -> np.ndarray:
        """How far each ring point's outward direction, turned as each pose, runs away from
        the camera (H × N)."""
        u = poses[:, :2] - self.C[:2]
        u = u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-9)
        dx, dy = S.ring_dir[None, :, 0], S.ring_dir[None, :, 1]
        return (c * dx - s * dy) * u[:, None, 0] + (s * dx + c * dy) * u[:, None, 1]

    def _column(self, cls: np.ndarray | int) -> np.ndarray | int:
        """The column of the flat table a class code reads (see :meth:`__init__`)."""
        k = self.k
        if np.ndim(cls) == 0:
            c = int(cls)
            return c if c >= 0 else k if c == -1 else 2 * k if c == -2 else 2 * k + 1 if c == -3 else k - 10 - c
        cls = np.asarray(cls)
        return np.where(cls >= 0, cls, np.where(cls == -1, k, np.where(cls == -2, 2 * k,
                        np.where(cls == -3, 2 * k + 1, k - 10 - cls))))

    def values(self, X: np.ndarray, cls: np.ndarray | int) -> np.ndarray:
        """Log-posterior of class ``cls`` (an index, -1 for "not background"; one per point or
        one for all) at table points ``X``."""
        return np.take(self.table, self._index(X, cls))

    def score_colours(self, name: str, poses: np.ndarray, classes: list[int]) -> np.ndarray:
        """Scores (H × len(classes)) of the solid ``name`` at ``poses``, all its faces of each
        class in turn and the ring anything but that class: a stone of each colour at once."""
        S = samples(name)
        poses = np.asarray(poses, float).reshape(-1, 4)
        H = len(poses)
        a = np.radians(poses[:, 3])[:, None]
        c, s = np.cos(a), np.sin(a)
        visible = facing_posed(S, poses, self.C)
        pix, inside = self._posed_pixels(S.face_pts, c, s, poses)
        base = np.where(inside, pix, self.outside_row)
        along = self._along(S, c, s, poses)
        keep = np.where(S.ring_top[None, :], along > -0.3, along < 0.3)
        if name == "roof":  # its top is a ridge: past its far eave shows what lies beyond it
            eaves = ~S.ring_top & (np.abs(S.ring_dir[:, 1]) > 0.5)
            keep = keep | (eaves[None, :] & (along > 0.3))
        pix, inside = self._posed_pixels(S.ring_pts, c, s, poses)
        rbase = np.where(inside, pix, self.outside_row) + self.k
        wsum = np.maximum(visible.sum(axis=1), 1e-9)
        ksum = np.maximum(keep.sum(axis=1), 1)
        out = np.empty((H, len(classes)))
        for j, c in enumerate(classes):
            # a point off the picture reads the row off it (every column there: OUTSIDE)
            v = np.take(self.table, base + c)
            vr = np.take(self.table, rbase + c)
            out[:, j] = (v * visible).sum(axis=1) / wsum + RING_WEIGHT * (vr * keep).sum(axis=1) / ksum
        return out

    def _unevenness(self, idx: np.ndarray, visible: np.ndarray, S: Samples) -> np.ndarray:
        """Mean squared spread (relative to :data:`SHADE_SIGMA`) of the lightness of each flat
        face's visible points about their face's mean, per hypothesis."""
        kk = self.stride
        pix = np.where(idx == len(self.table) - 1, len(self.L) - 1, idx // kk)
        L = self.L[pix]
        groups = S.face_group
        ng = int(groups.max()) + 1
        H = len(idx)
        gid = (np.arange(H)[:, None] * ng + groups[None, :]).ravel()
        w = visible.ravel().astype(np.float64)
        cnt = np.bincount(gid, w, minlength=H * ng)
        s1 = np.bincount(gid, w * L.ravel(), minlength=H * ng)
        s2 = np.bincount(gid, w * L.ravel() ** 2, minlength=H * ng)
        mean = s1 / np.maximum(cnt, 1)
        var = np.maximum(s2 / np.maximum(cnt, 1) - mean * mean, 0.0)
        var = (var * (cnt >= 3)).reshape(H, ng)
        cnt = (cnt * (cnt >= 3)).reshape(H, ng)
        return (var * cnt).sum(axis=1) / np.maximum(cnt.sum(axis=1), 1) / SHADE_SIGMA ** 2

    @staticmethod
    def _place(pts: np.ndarray, poses: np.ndarray) -> np.ndarray:
        a = np.radians(poses[:, 3])[:, None]
        c, s = np.cos(a), np.sin(a)
        px, py = pts[None, :, 0], pts[None, :, 1]
        out = np.empty((len(poses), len(pts), 3))
        out[..., 0] = c * px - s * py + poses[:, None, 0]
        out[..., 1] = s * px + c * py + poses[:, None, 1]
        out[..., 2] = pts[None, :, 2] + poses[:, None, 2]
        return out

    def score(self, name: str, poses: np.ndarray, top_cls: np.ndarray | int,
              side_cls: np.ndarray | int, *, ring: bool = True, ring_cls: int = 0,
              shading: bool = False) -> np.ndarray:
        """Scores of the solid ``name`` at ``poses`` (H × 4: x, y, z0, yaw°): the mean face
        log-posterior (top faces of class ``top_cls``, the other faces ``side_cls``, each one
        per pose or one for all) plus :data:`RING_WEIGHT` times the mean log-posterior of class
        ``ring_cls`` (the background; ``-10 - k``: anything but class k) at the ring points
        that show what lies past the solid. ``shading``: minus :data:`SHADE_WEIGHT` times how
        unevenly lit the hypothesis's flat faces look (a flat face is evenly lit: a wrong shape
        puts an edge, or a ridge, inside one of its faces)."""
        S = samples(name)
        poses = np.asarray(poses, float).reshape(-1, 4)
        H = len(poses)
        a = np.radians(poses[:, 3])[:, None]
        c, s = np.cos(a), np.sin(a)
        visible = facing_posed(S, poses, self.C)
        if np.ndim(top_cls) == 0 and np.ndim(side_cls) == 0 and int(top_cls) == int(side_cls):
            cls: np.ndarray | int = int(top_cls)
        else:
            tc = np.broadcast_to(np.asarray(top_cls).reshape(-1, 1), (H, 1))
            sc = np.broadcast_to(np.asarray(side_cls).reshape(-1, 1), (H, 1))
            cls = np.where(S.face_top[None, :], tc, sc)
        pix, inside = self._posed_pixels(S.face_pts, c, s, poses)
        idx = np.where(inside, pix + self._column(cls), len(self.table) - 1)
        v = np.take(self.table, idx)
        faces = (v * visible).sum(axis=1) / np.maximum(visible.sum(axis=1), 1)
        if self.L is not None and shading:
            faces = faces - SHADE_WEIGHT * self._unevenness(idx, visible, S)
        if not ring:
            return faces
        along = self._along(S, c, s, poses)
        keep = np.where(S.ring_top[None, :], along > -0.3, along < 0.3)
        pix, inside = self._posed_pixels(S.ring_pts, c, s, poses)
        vr = np.take(self.table, np.where(inside, pix + self._column(ring_cls), len(self.table) - 1))
        rings = (vr * keep).sum(axis=1) / np.maximum(keep.sum(axis=1), 1)
        return faces + RING_WEIGHT * rings
