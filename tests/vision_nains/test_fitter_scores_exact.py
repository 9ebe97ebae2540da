"""The fitter's scores are worked out without building the placed points (a speed-up of the
Nains reader): they must equal, bit for bit, the straightforward sums over the placed points
(each solid's points turned and moved, projected, read off the flat table), so that no reading
changes. Seeded random pictures and poses; exact equality is asserted."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.nains.fitting import RING_WEIGHT, Fitter, facing_posed, samples
from companion.vision.nains.planes import Plane
from companion.vision.nains.zones import Rect


def _fitter(seed: int) -> Fitter:
    rng = np.random.default_rng(seed)
    h, w, k = 90, 120, 5
    p = rng.random((h, w, k)) + 0.05
    lp = np.log(p / p.sum(axis=2, keepdims=True)).astype(np.float32)
    plane = Plane(rect=Rect(100.0, 200.0, 220.0, 290.0), z=0.0, ppm=1.0,
                  image=np.zeros((h, w, 3), np.uint8))
    return Fitter(plane, lp, np.array([160.0, -300.0, 700.0]),
                  rng.random((h, w)) * 100.0, dark=k - 1)


def _poses(seed: int, n: int = 40) -> np.ndarray:
    rng = np.random.default_rng(seed + 1)
    return np.column_stack([rng.uniform(105, 215, n), rng.uniform(205, 285, n),
                            rng.choice([0.0, 12.0, 24.0], n), rng.uniform(-90, 90, n)])


def _rings(f: Fitter, S, poses: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rings' placed points, how far each ring direction runs from the camera, and which
    ring points count, as first written."""
    H = len(poses)
    Xr = f._place(S.ring_pts, poses)
    D = f._place(S.ring_dir, np.column_stack([np.zeros((H, 3)), poses[:, 3]]))
    u = poses[:, :2] - f.C[:2]
    u = u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-9)
    along = D[..., 0] * u[:, None, 0] + D[..., 1] * u[:, None, 1]
    keep = np.where(S.ring_top[None, :], along > -0.3, along < 0.3)
    return Xr, along, keep


def _reference(f: Fitter, name: str, poses: np.ndarray, top: int, side: int, ring_cls: int,
               shading: bool) -> np.ndarray:
    """The score as first written: placed points (H × N × 3), then projected."""
    S = samples(name)
    X = f._place(S.face_pts, poses)
    visible = facing_posed(S, poses, f.C)
    cls = np.where(S.face_top[None, :], top, side) if top != side else top
    idx = f._index(X, cls)
    v = np.take(f.table, idx)
    faces = (v * visible).sum(axis=1) / np.maximum(visible.sum(axis=1), 1)
    if shading:
        faces = faces - 0.25 * f._unevenness(idx, visible, S)
    Xr, along, keep = _rings(f, S, poses)
    vr = np.take(f.table, f._index(Xr, ring_cls))
    rings = (vr * keep).sum(axis=1) / np.maximum(keep.sum(axis=1), 1)
    return faces + RING_WEIGHT * rings


@pytest.mark.parametrize("name", ["cube", "long", "cylinder", "roof"])
def test_score_equals_the_sums_over_placed_points(name):
    """Fitter.score (fused placing and projecting) equals the placed-points sums exactly."""
    f = _fitter(3)
    poses = _poses(3)
    for top, side, ring_cls, shading in ((1, 1, 0, False), (2, -1, 0, True), (3, 3, -11, True)):
        got = f.score(name, poses, top, side, ring_cls=ring_cls, shading=shading)
        want = _reference(f, name, poses, top, side, ring_cls, shading)
        assert np.array_equal(got, want)


def _reference_colours(f: Fitter, name: str, poses: np.ndarray, classes: list[int]) -> np.ndarray:
    """score_colours as first written: placed points (H × N × 3), then projected."""
    S = samples(name)
    H = len(poses)
    X = f._place(S.face_pts, poses)
    visible = facing_posed(S, poses, f.C)
    pix, inside = f._pixels(X)
    base = np.where(inside, pix, f.outside_row)
    Xr, along, keep = _rings(f, S, poses)
    if name == "roof":
        eaves = ~S.ring_top & (np.abs(S.ring_dir[:, 1]) > 0.5)
        keep = keep | (eaves[None, :] & (along > 0.3))
    pix, inside = f._pixels(Xr)
    rbase = np.where(inside, pix, f.outside_row) + f.k
    wsum = np.maximum(visible.sum(axis=1), 1e-9)
    ksum = np.maximum(keep.sum(axis=1), 1)
    out = np.empty((H, len(classes)))
    for j, c in enumerate(classes):
        v = np.take(f.table, base + c)
        vr = np.take(f.table, rbase + c)
        out[:, j] = (v * visible).sum(axis=1) / wsum + RING_WEIGHT * (vr * keep).sum(axis=1) / ksum
    return out


@pytest.mark.parametrize("name", ["cube", "long", "cylinder", "roof"])
def test_score_colours_equals_the_sums_over_placed_points(name):
    """Fitter.score_colours (a stone of each colour at once, fused placing and projecting)
    equals the placed-points sums exactly."""
    f = _fitter(5)
    poses = _poses(5)
    assert np.array_equal(f.score_colours(name, poses, [1, 2, 3]), _reference_colours(f, name, poses, [1, 2, 3]))


def test_flat_table_holds_each_class_and_the_row_off_the_picture():
    """The flat table filled in place holds the log-posteriors, "not class k", the soft and
    ground columns, then a row of OUTSIDE (as the joined and appended table did)."""
    f = _fitter(7)
    lp = f.lp
    h, w, k = lp.shape
    with np.errstate(divide="ignore"):
        nots = np.log(np.clip(1.0 - np.exp(lp), 1e-3, 1.0)).astype(np.float32)
    soft = np.maximum(nots[:, :, :1], np.float32(np.log(0.4)))
    ground = np.logaddexp(lp[:, :, :1], lp[:, :, k - 1:k])
    want = np.concatenate([lp.astype(np.float32), nots, soft, ground.astype(np.float32)], axis=2).reshape(-1)
    want = np.append(want, np.full(2 * k + 2, np.log(0.5), np.float32))
    assert f.table.dtype == np.float32 and np.array_equal(f.table, want)
    assert f.L[-1] == np.float32(50.0) and len(f.L) == h * w + 1


@pytest.mark.parametrize("shape", ["cube", "long", "cylinder", "roof"])
def test_behind_equals_the_sums_over_points_and_sight_lines(shape):
    """What an upper stone hides (worked a coordinate at a time) equals the sums over the
    points' sight lines as first written (… × 2 arrays), for every point."""
    from companion.vision.nains.stacks import HALF, Stone, _behind
    from companion.vision.nains.kit import stone_height

    rng = np.random.default_rng(11)
    C = np.array([160.0, -300.0, 700.0])
    X = np.column_stack([rng.uniform(130, 190, 400), rng.uniform(220, 280, 400), rng.uniform(0, 40, 400)])
    hidden = 0
    for k in range(6):
        up = Stone(shape, float(rng.uniform(150, 170)), float(rng.uniform(240, 260)), float(rng.uniform(-90, 90)))
        lo, margin = 12.0 * (k % 3), 1.5 * (k % 2)
        hi = lo + stone_height(up.shape)
        z = np.array([lo + 0.5, (lo + hi) / 2, hi])[:, None]
        t = (z - X[:, 2]) / np.maximum(C[2] - X[:, 2], 1e-6)
        xy = X[:, :2] + (C[:2] - X[:, :2]) * t[..., None]
        a = np.radians(up.yaw)
        c, s = np.cos(a), np.sin(a)
        d = xy - np.array([up.x, up.y])
        u = d[..., 0] * c + d[..., 1] * s
        v = -d[..., 0] * s + d[..., 1] * c
        if shape == "cylinder":
            inside = u * u + v * v <= (10.0 + margin) ** 2
        else:
            hx, hy = HALF[shape]
            inside = (np.abs(u) <= hx + margin) & (np.abs(v) <= hy + margin)
        want = ((X[:, 2] < z - 0.5) & inside).any(axis=0)
        got = _behind(C, X, up, lo, margin)
        assert np.array_equal(got, want)
        hidden += int(want.sum())
    assert 0 < hidden < 6 * len(X)  # the check saw points hidden and points in view
