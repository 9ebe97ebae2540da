"""The stones left in the pool: each stone's colour and shape.

Pool stones stand on the table, one deep, turned any way, touching now and then. The pool is
looked at in a top-down picture of the plane halfway up a stone (``z`` = 10 mm), where a stone's
whole silhouette (top and the sides the camera sees) lies around its true place. Each pixel is
named (:mod:`.pixels`): the table or one of the four building colours.

A stone is one colour all over, so each connected region of one colour is one stone, or several
of that colour touching. For each region the four shapes are fitted (:mod:`.fitting`: the place
and turn that explain the region best, the faces showing the colour and the table showing
around): a region that one stone explains well is that stone; a larger one is explained stone
by stone, the best fit first, its pixels then taken away. The roof's ridge (a line across its
top where the two slopes meet) tells a roof from a cube when the camera looks straight down on
it and their outlines agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.nains.fitting import Fitter
from companion.vision.nains.kit import LONG_MM, SHAPES, STONE_COLOURS, STONE_MM
from companion.vision.nains.pixels import Background, FrameColours
from companion.vision.nains.planes import plane_picture
from companion.vision.nains.solids import place
from companion.vision.nains.zones import Rect

PPM = 2.0
PLANE_Z = 10.0
#: a stone fitted worse than this (mean log-posterior) is not taken for a stone
MIN_SCORE = -1.6
#: how many stones one region may hold at most (ten of a colour in the box)
MAX_PER_REGION = 10


@dataclass(frozen=True)
class StoneReading:
    """A stone found in the pool: its colour and shape, the reader's confidence, its place."""

    colour: str
    shape: str
    conf: float
    centre: tuple[float, float]
    yaw_deg: float


def read_pool(image: np.ndarray, view: View, pool: Rect, colours: FrameColours,
              table: Background, memo: dict | None = None) -> tuple[list[StoneReading], np.ndarray]:
    """The stones in ``pool`` (see the module docstring), and the picture's pixels they explain
    (a mask over the pool's plane picture, for the hand check).

    ``memo`` (a dict kept by the caller while the camera's pose holds) remembers each region's
    stones: a region whose outline and picture have not changed since the last reading keeps
    its stones (a turn takes a few stones from the pool; the others need no fitting again)."""
    old_memo = dict(memo) if memo is not None else {}
    if memo is not None:
        memo.clear()
    plane = plane_picture(image, view, pool.grown(20.0), PLANE_Z, PPM)
    pic = plane.image
    h, w = pic.shape[:2]
    names = colours.names
    cols = [1 + names.index(c) for c in STONE_COLOURS]
    lp = colours.classes(pic.reshape(-1, 3), table).reshape(h, w, -1)
    fitter = Fitter(plane, lp, view.pose.camera_position, colours.lab_of(pic.reshape(-1, 3))[:, 0].reshape(h, w))
    cls = lp.argmax(axis=2)
    explained = np.zeros((h, w), bool)
    out: list[StoneReading] = []
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(plane.to_px(pool.grown(6.0).corners()) * 16).astype(np.int32), 1,
                       cv2.LINE_8, 4)
    for colour, c in zip(STONE_COLOURS, cols):
        mask = ((cls == c) & (lp[:, :, c] > np.log(0.5))).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for k in range(1, n):
            area = stats[k, cv2.CC_STAT_AREA]
            if area < 0.35 * (STONE_MM * PPM) ** 2:
                continue
            region = labels == k
            if not inside[region].any():
                continue
            x, y, w_, h_ = (int(v) for v in stats[k, :4])
            crop = region[y:y + h_, x:x + w_]
            sig = _region_signature(pic[y:y + h_, x:x + w_])
            found = _remembered(old_memo.get(colour, ()), (x, y, w_, h_), crop, sig)
            if found is None:
                found = list(_explain(fitter, plane, view, region, colour, c))
            if memo is not None:
                memo.setdefault(colour, []).append(((x, y, w_, h_), crop, sig, found))
            for reading, silhouette, alt in found:
                centre = np.array([reading.centre])
                if pool.contains(centre, margin=4.0)[0]:
                    out.append((reading, alt))
                explained |= silhouette
    nominal = {colour: float(colours.lab[int(np.argmax(colours.loglik[:, c - 1])), 0])
               for colour, c in zip(STONE_COLOURS, cols)}
    return _settle_cubes_and_roofs(fitter, out, nominal), explained


#: a region's picture that changed less than this (grey levels, in any 4-pixel block) is the
#: same region (the sensor's noise averages away over a block; a stone moved changes far more)
REGION_STILL = 6.0


def _region_signature(pic: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(np.ascontiguousarray(pic), cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.resize(grey, (max(1, grey.shape[1] // 4), max(1, grey.shape[0] // 4)),
                      interpolation=cv2.INTER_AREA)


def _remembered(entries, box: tuple[int, int, int, int], crop: np.ndarray, sig: np.ndarray):
    """The stones remembered for a region with this outline and picture, or None."""
    for old_box, old_crop, old_sig, found in entries:
        if old_box != box or old_crop.shape != crop.shape or old_sig.shape != sig.shape:
            continue
        if np.count_nonzero(old_crop ^ crop) > 0.03 * max(1, int(crop.sum())):
            continue
        if float(np.abs(old_sig - sig).max()) < REGION_STILL:
            return found
    return None


def _explain(fitter: Fitter, plane, view: View, region: np.ndarray, colour: str, c: int):
    """The stones that explain one region of one colour, best fit first."""
    left = region.copy()
    found = []
    single = (STONE_MM * PPM) ** 2
    for _ in range(MAX_PER_REGION):
        if left.sum() < 0.35 * single:
            break
        best = _best_stone(fitter, plane, left, c)
        if best is None or best[0] < MIN_SCORE:
            break
        score, shape, pose, conf, per_shape = best
        sil = _silhouette(plane, view, shape, pose, left.shape)
        taken = sil & left
        if taken.sum() < 0.3 * single:
            break
        left &= ~cv2.dilate(sil.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        sure = float(np.clip(0.75 + (score - MIN_SCORE) / 5.0, 0.5, 0.995)) * conf
        alt = (score, conf, per_shape) if shape in ("cube", "roof") else None
        found.append((StoneReading(colour, shape, sure, (float(pose[0]), float(pose[1])), float(pose[3])), sil, alt))
    return found


def _starts(plane, region: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Where to start fitting in a region: its middle and turn when it is one stone's size,
    else the middles of its thickest parts (distance-transform peaks)."""
    ys, xs = np.nonzero(region)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
    out = [(plane.to_table(np.array([[cx, cy]]))[0], -float(ang))]
    if len(pts) > 1.6 * (LONG_MM * STONE_MM * PPM * PPM):
        dist = cv2.distanceTransform(region.astype(np.uint8), cv2.DIST_L2, 5)
        peaks = (dist >= 0.35 * STONE_MM * PPM) & (dist == cv2.dilate(dist, np.ones((11, 11), np.uint8)))
        for y, x in zip(*np.nonzero(peaks)):
            out.append((plane.to_table(np.array([[x, y]]))[0], None))
    return out[:8]


def _best_stone(fitter: Fitter, plane, region: np.ndarray, c: int):
    """The stone (shape, place, turn) that explains the region best, with its score and how
    much better it is than the best other shape (as a confidence)."""
    per_shape = {}
    starts = _starts(plane, region)
    fits = {shape: _fit_all(fitter, shape, c, starts) for shape in SHAPES}
    for k in range(len(starts)):
        for shape in SHAPES:
            score, pose = fits[shape][k]
            if shape not in per_shape or score > per_shape[shape][0]:
                per_shape[shape] = (score, pose)
    if not per_shape:
        return None
    ranked = sorted(per_shape.items(), key=lambda kv: -kv[1][0])
    (shape, (score, pose)), (_, (second, _)) = ranked[0], ranked[1]
    if shape in ("cube", "roof"):
        shape, score, pose = _cube_or_roof(fitter, c, per_shape)
        second = max(v[0] for k, v in per_shape.items() if k != shape)
    conf = float(1.0 / (1.0 + np.exp(-8.0 * (score - second))))
    return score, shape, pose, conf, per_shape


def _fit_all(fitter, shape: str, c: int, starts: list[tuple[np.ndarray, float | None]]
             ) -> list[tuple[float, np.ndarray]]:
    """The best place and turn of a stone of ``shape`` and class ``c`` near each of ``starts``
    (a place and a turn, or None: any), the hypotheses of every start scored in one batch at
    each step."""
    period = 180.0 if shape in ("long", "roof") else 90.0
    firsts, bests = [], []
    for xy, yaw in starts:
        if shape == "cylinder":
            yaws0 = np.array([0.0])
        elif yaw is None:
            yaws0 = np.arange(0.0, period, 9.0)
        else:
            near = yaw + np.arange(-8.0, 8.1, 4.0)
            yaws0 = np.concatenate([near, near + 90.0]) if period == 180.0 else near
        firsts.append(yaws0)
        bests.append((-np.inf, np.array([xy[0], xy[1], 0.0, yaws0[0]])))
    for span, step, first in ((3.0, 1.5, True), (1.0, 0.5, False)):
        offs = np.arange(-span, span + 1e-9, step)
        grids = []
        for yaws0, (_, best) in zip(firsts, bests):
            if first:
                yaws = yaws0
            else:
                yaws = np.array([best[3]]) if shape == "cylinder" else best[3] + np.array([-2.0, 0.0, 2.0])
            gx, gy, gz = np.meshgrid(best[0] + offs, best[1] + offs, yaws, indexing="ij")
            grids.append(np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size), gz.ravel()]))
        every = np.concatenate([fitter.score(shape, np.vstack(batch), c, c, ring_cls=-10 - c, shading=True)
                                for batch in _batches(grids)])
        at = 0
        for i, poses in enumerate(grids):
            scores = every[at:at + len(poses)]
            at += len(poses)
            k = int(np.argmax(scores))
            if scores[k] > bests[i][0]:
                bests[i] = (float(scores[k]), poses[k])
    return bests


#: about how many hypotheses are scored in one batch (its arrays stay in the processor's cache)
BATCH = 256


def _batches(grids: list[np.ndarray]) -> list[list[np.ndarray]]:
    """The grids in order, in batches of about :data:`BATCH` hypotheses (a larger grid alone)."""
    out: list[list[np.ndarray]] = []
    size = BATCH
    for g in grids:
        if size + len(g) > BATCH:
            out.append([])
            size = 0
        out[-1].append(g)
        size += len(g)
    return out


def _cube_or_roof(fitter: Fitter, c: int, per_shape: dict) -> tuple[str, float, np.ndarray]:
    """Between a cube and a roof that fit alike: the roof when its ridge shows (a dark line
    along the middle of its top, the slopes on either side lit differently)."""
    cube, roof = per_shape["cube"], per_shape["roof"]
    if abs(cube[0] - roof[0]) > 0.25:
        return ("cube", *cube) if cube[0] > roof[0] else ("roof", *roof)
    ridge = _ridge(fitter, roof[1])
    if ridge > RIDGE_LEVEL:
        return "roof", roof[0], roof[1]
    return ("cube", *cube) if cube[0] >= roof[0] else ("roof", *roof)


#: a cube's top is one flat face, evenly lit: its two halves (either way across) differing by
#: more than this (L*), and by more than thrice their own spread, are a roof's two slopes
SPLIT_L = 6.0
#: a top this much darker than the flat tops of the long blocks and cylinders of its colour in
#: the pool (relative, median L*) is a roof's slopes (steep, 56° from level: under a light from
#: high above, or along the ridge, both slopes are lit alike, and darker than a flat top)
FLAT_RATIO = 0.93
#: how sharp the flat-top comparison is (relative lightness), and the least it is trusted
FLAT_SPREAD = 0.015
FLAT_MIN_CONF = 0.6
#: an unsure lightness decision (at :data:`FLAT_MIN_CONF`) does not overrule a fit this much
#: better (score) for the shape it first chose: a top a little darker than its colour's flat
#: tops, on a stone whose outline fits a cube clearly better than a roof, is a cube in shade
FIT_OVERRULE = 0.5


def _top_lightness(fitter: Fitter, pose, half: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The picture's lightness over the middle of a stone's flat top (``half`` mm either way
    of its centre, in the stone's own frame, 1 mm apart), with the points' own coordinates."""
    t = np.arange(-half + 0.5, half, 1.0)
    gx, gy = np.meshgrid(t, t)
    a = np.radians(pose[3])
    X = np.stack([pose[0] + np.cos(a) * gx - np.sin(a) * gy, pose[1] + np.sin(a) * gx + np.cos(a) * gy,
                  np.full(gx.shape, STONE_MM)], axis=-1)
    px = fitter.to_px(X)
    ix = np.clip(np.rint(px[..., 0]).astype(int), 0, fitter.w - 1)
    iy = np.clip(np.rint(px[..., 1]).astype(int), 0, fitter.h - 1)
    return fitter.L[iy * fitter.w + ix], gx, gy


def _settle_cubes_and_roofs(fitter: Fitter, found: list, nominal: dict[str, float]) -> list[StoneReading]:
    """The pool's readings, each cube or roof decided again by its top's lightness: a cube's top
    is flat and evenly lit, as bright as the flat tops (long blocks, cylinders) of its colour in
    the same light; a roof's two steep slopes are lit unlike each other, or alike and darker.
    Their outlines from above are the same square, which the fit alone cannot tell apart.
    ``found``: (reading, what the fit found for a cube and a roof, or None); ``nominal``: each
    colour's learned lightness (L*)."""
    if fitter.L is None:
        return [r for r, _ in found]
    flat: dict[str, list[float]] = {}
    for r, alt in found:
        if r.shape in ("long", "cylinder") and r.conf >= 0.7:
            L, _, _ = _top_lightness(fitter, (r.centre[0], r.centre[1], 0.0, r.yaw_deg), 6.0)
            flat.setdefault(r.colour, []).append(float(np.median(L)))
    # a colour with no flat top in the pool: the flat tops of the colour learned the most alike
    # in lightness, scaled by the two colours' learned lightness (the same light on every top)
    known = [k for k in flat if nominal.get(k, 0.0) > 1.0]
    out = []
    for r, alt in found:
        if alt is None:
            out.append(r)
            continue
        _, _, per_shape = alt
        like = flat.get(r.colour)
        if not like and known and nominal.get(r.colour, 0.0) > 1.0:
            k = min(known, key=lambda k: abs(nominal[k] - nominal[r.colour]))
            like = [float(np.median(flat[k])) * nominal[r.colour] / nominal[k]]
        decided = _flat_or_ridged(fitter, per_shape["cube"][1], like)
        if decided is None:
            out.append(r)
            continue
        shape, conf = decided
        if shape == "cube":  # not a roof: the best of the other shapes
            shape = max((k for k in per_shape if k != "roof"), key=lambda k: per_shape[k][0])
        score, pose = per_shape[shape]
        if shape != r.shape and conf <= FLAT_MIN_CONF and per_shape[r.shape][0] - score > FIT_OVERRULE:
            out.append(r)
            continue
        other = max(v[0] for k, v in per_shape.items() if k not in ("roof", shape) and (shape != "roof" or k != "cube"))
        conf = min(conf, float(1.0 / (1.0 + np.exp(-8.0 * (score - other)))))
        sure = float(np.clip(0.75 + (score - MIN_SCORE) / 5.0, 0.5, 0.995)) * conf
        out.append(StoneReading(r.colour, shape, sure, (float(pose[0]), float(pose[1])), float(pose[3])))
    return out


def _flat_or_ridged(fitter: Fitter, cube_pose: np.ndarray, flat: list[float] | None
                    ) -> tuple[str, float] | None:
    """``cube`` or ``roof`` and how sure, from the top's lightness at the cube's place (see
    :func:`_settle_cubes_and_roofs`); None when it cannot tell (no flat top to compare with)."""
    L, gx, gy = _top_lightness(fitter, cube_pose, 7.0)
    split, within = 0.0, 0.0
    for g in (gx, gy):
        a, b = L[g < -2.0], L[g > 2.0]
        d = abs(float(a.mean()) - float(b.mean()))
        if d > split:
            split, within = d, float(np.sqrt((a.var() + b.var()) / 2))
    if split >= SPLIT_L and split >= 3.0 * within:
        return "roof", 0.97
    if not flat:
        return None
    rel = float(np.median(L)) / max(float(np.median(flat)), 1.0)
    p_cube = float(1.0 / (1.0 + np.exp(-(rel - FLAT_RATIO) / FLAT_SPREAD)))
    return ("cube", max(p_cube, FLAT_MIN_CONF)) if p_cube >= 0.5 else ("roof", max(1.0 - p_cube, FLAT_MIN_CONF))


#: the ridge's evidence (relative darkening of the middle line, plus the slopes' difference)
#: beyond which a stone is a roof
RIDGE_LEVEL = 0.06


def _ridge(fitter: Fitter, pose: np.ndarray) -> float:
    """How much a roof's top at ``pose`` looks like a ridge: the middle line darker than the
    slopes beside it, and the two slopes unequally lit."""
    plane = fitter.plane
    grey = plane.image.mean(axis=2) if plane.image.ndim == 3 else plane.image
    a = np.radians(pose[3])
    along = np.array([np.cos(a), np.sin(a)])
    across = np.array([-np.sin(a), np.cos(a)])

    def at(offset: float, z: float) -> float:
        ts = np.linspace(-6.0, 6.0, 7)
        xy = pose[:2] + ts[:, None] * along + offset * across
        X = np.column_stack([xy, np.full(len(xy), z)])
        px = fitter.to_px(X)
        ix = np.clip(np.round(px[:, 0]).astype(int), 0, grey.shape[1] - 1)
        iy = np.clip(np.round(px[:, 1]).astype(int), 0, grey.shape[0] - 1)
        return float(np.mean(grey[iy, ix]))

    mid = at(0.0, 15.0)
    left, right = at(-5.0, 7.5), at(5.0, 7.5)
    side = max((left + right) / 2, 1.0)
    return float((side - mid) / side + abs(left - right) / side)


def _silhouette(plane, view: View, shape: str, pose: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The picture's pixels a stone covers (its corners projected onto the picture's plane)."""
    solid = place(shape, pose[0], pose[1], 0.0, pose[3], sides=16)
    C = view.pose.camera_position
    X = solid.points
    t = (C[2] - plane.z) / np.maximum(C[2] - X[:, 2], 1e-6)
    Y = C[:2] + (X[:, :2] - C[:2]) * t[:, None]
    px = plane.to_px(Y)
    mask = np.zeros(size, np.uint8)
    hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
    return mask > 0
