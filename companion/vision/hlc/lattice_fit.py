"""Finding the lattice the cubes sit on, from the cubes themselves.

Every face of every cube carries lines on the lattice: the engraved 2×2 grid and the joints
between cubes are all 20 mm apart along the lattice's two axes. Seen from above on a plane of
the table, that is a grid of period 20 mm, whatever the height of the faces (a face higher up is
only magnified, up to 1.4 times for the tallest mountains), while the table's own texture (wood
grain, weave) has no such period.

* The **angle** is where the power of the image of the table plane concentrates on the ring of
  periods 19–29 mm, folded to a quarter turn (the lattice has a quarter-turn symmetry).
* The **position** of the lines along each axis is the phase of that period, measured on the
  planes of every cube height (a face at height h is exactly on the lattice in the view of the
  plane at height h) and summed, so the heights present dominate.

The lattice point nearest the mountain anchor becomes the corner of cell [0, 0]
(``docs/observation.md``).
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.hlc.lattice import Lattice, normalised

_RECT_MM = 340  # side of the rectified square, mm (1 px per mm)
#: the angle from edge directions is good to a degree or so (the search from it reaches 1.75°
#: away): within this of the last frame's angle, it confirms it
HINT_AGREES_DEG = 1.5


def edge_image(bgr: np.ndarray) -> np.ndarray:
    """Edge strength (gradient of log brightness) of a frame, float32."""
    g = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lg = cv2.GaussianBlur(np.log(g + 8.0), (0, 0), 0.8)
    return cv2.magnitude(cv2.Sobel(lg, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(lg, cv2.CV_32F, 0, 1, ksize=3))


@functools.lru_cache(maxsize=8)
def _fine_grid(size: int, coarse: int) -> tuple[np.ndarray, np.ndarray]:
    """The fine samples' positions on the coarse grid of :func:`_sample_plane` (the same for
    every plane and every angle: made once; read only)."""
    sx = np.arange(size, dtype=np.float32) / coarse
    gx, gy = np.meshgrid(sx, sx)
    gx.flags.writeable = False
    gy.flags.writeable = False
    return gx, gy


def _sample_plane(edges: np.ndarray, view: View, centre: tuple[float, float], ex: np.ndarray,
                  ey: np.ndarray, z: float, size: int, step: float = 1.0) -> np.ndarray:
    """The edge image resampled on a square of the plane at height ``z`` (mm), axes ``ex``,
    ``ey``, ``size`` samples a side ``step`` mm apart, centred on ``centre``."""
    coarse = 8
    n = size // coarse + 1
    t = (np.arange(n) * coarse - size / 2) * step
    uu, vv = np.meshgrid(t, t)
    pts = (np.array([centre[0], centre[1], z])[None, :] + uu.reshape(-1, 1) * np.array([ex[0], ex[1], 0.0])
           + vv.reshape(-1, 1) * np.array([ey[0], ey[1], 0.0]))
    px = view.project(pts).reshape(n, n, 2).astype(np.float32)
    # the fine sample positions interpolated from the coarse ones (fine k·coarse is coarse k)
    gx, gy = _fine_grid(size, coarse)
    fx = cv2.remap(px[..., 0], gx, gy, cv2.INTER_LINEAR)
    fy = cv2.remap(px[..., 1], gx, gy, cv2.INTER_LINEAR)
    return cv2.remap(edges, fx, fy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def find_angle(image: np.ndarray, view: View, region: np.ndarray, *, samples: int = 5000
               ) -> tuple[float, float]:
    """The lattice angle (degrees, in [−45, 45)) and how clearly the frame shows it (0–1).

    Each strong edge pixel inside ``region`` (a mask of the frame) is taken as a piece of a
    horizontal line of the table: the plane through the camera and the edge meets the table's
    horizontal in one direction, whatever the height of the line. Cube edges point along the
    lattice's two axes, a quarter turn apart; a wood table's grain or a cloth's weave points along
    one only, so the angle kept is the one whose direction *and* quarter-turned direction are both
    strong. Edges pointing at the camera's vertical vanishing point (the sides' vertical edges)
    are left out."""
    # only the region's bounding box (with a margin for the filters) is worked on: the pixels
    # inside it are the same as on the whole frame
    rows, cols = np.flatnonzero(region.any(axis=1)), np.flatnonzero(region.any(axis=0))
    if len(rows) == 0:
        return 0.0, 0.0
    m = 8
    y0, y1 = max(int(rows[0]) - m, 0), min(int(rows[-1]) + 1 + m, image.shape[0])
    x0, x1 = max(int(cols[0]) - m, 0), min(int(cols[-1]) + 1 + m, image.shape[1])
    g = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    lg = cv2.GaussianBlur(np.log(g + 8.0), (0, 0), 1.0)
    gx = cv2.Sobel(lg, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lg, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy) * region[y0:y1, x0:x1]
    flat = mag.ravel()
    n = min(samples, int((flat > 0).sum()))
    if n < 50:
        return 0.0, 0.0
    idx = np.argpartition(flat, -n)[-n:]
    ys, xs = np.divmod(idx, mag.shape[1])
    ys, xs = ys + y0, xs + x0
    w = flat[idx]
    tx, ty = -gy.ravel()[idx], gx.ravel()[idx]
    tn = np.hypot(tx, ty) + 1e-9
    tx, ty = tx / tn, ty / tn
    p = np.stack([xs, ys], 1).astype(np.float64)
    _, r1 = view.ray(p - 1.5 * np.stack([tx, ty], 1))
    _, r2 = view.ray(p + 1.5 * np.stack([tx, ty], 1))
    nrm = np.cross(r1, r2)
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True) + 1e-12
    d = np.cross(nrm, np.array([0.0, 0.0, 1.0]))
    dn = np.linalg.norm(d[:, :2], axis=1)
    # vertical edges: their image line runs through the vertical vanishing point
    vz = view.project(view.pose.camera_position[None, :] - np.array([[0.0, 0.0, 1e6]]))[0]
    to_v = vz[None, :] - p
    to_v /= np.linalg.norm(to_v, axis=1, keepdims=True) + 1e-9
    radial = np.abs(to_v[:, 0] * tx + to_v[:, 1] * ty) > 0.985
    keep = (dn > 1e-6) & ~radial
    ang = np.degrees(np.arctan2(d[keep, 1], d[keep, 0])) % 180.0
    w = w[keep]
    if len(ang) < 30:
        return 0.0, 0.0
    bins = np.arange(0.0, 180.01, 0.5)
    hist, _ = np.histogram(ang, bins=bins, weights=w)
    k = np.array([1, 2, 3, 2, 1], float)
    sm = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), k / k.sum(), mode="valid")
    both = np.minimum(sm, np.roll(sm, -180))[:180]  # direction and quarter turn (90° = 180 bins)
    best = int(np.argmax(both))
    centres = (bins[:-1] + bins[1:]) / 2
    # refine: power-weighted mean of both directions within ±1.5°
    num = den = 0.0
    for off in (0, 180):
        c = centres[(best + off) % 360]
        dd = (centres - c + 90.0) % 180.0 - 90.0
        near = np.abs(dd) <= 1.5
        num += float((dd[near] * hist[near]).sum())
        den += float(hist[near].sum())
    angle = centres[best] + num / max(den, 1e-12)
    angle = (angle + 45.0) % 90.0 - 45.0
    clarity = float(both[best] / max(np.mean(sm), 1e-12) / 6.0)
    return float(angle), min(1.0, clarity)


def grey_log_image(image: np.ndarray) -> np.ndarray:
    """The frame's log brightness, lightly blurred: what :func:`find_phase` aligns (float32)."""
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.GaussianBlur(np.log(g + 8.0), (0, 0), 0.7)


def find_phase(grey_log: np.ndarray, view: View, anchor: tuple[float, float], angle_deg: float,
               pitch: float, levels: int, radius: float = 140.0) -> tuple[float, float, float, float]:
    """Where the lattice lines lie along each axis, as offsets (mm, in [−pitch/2, pitch/2)) from
    the anchor, how clearly (0–1), and the alignment total (to compare angles).

    For every candidate offset (1 mm steps) each cell of the search area is tried at every cube
    height: at its true height a top's four edges lie exactly on the lattice lines of that
    height's plane, and the lines through the middle of the cell do not. A cell keeps its best
    height (by the weaker of its two directions: a top is lined both ways, a side one way); the
    offset that makes the cells line up best wins."""
    a = math.radians(angle_deg)
    ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    size = int(2 * (radius + 2 * pitch))
    half = size // 2
    p = int(round(pitch))
    # cumulative sums along each line direction, so any segment's sum is two lookups
    cu = np.zeros((levels + 1, size + 1, size), np.float32)  # [h, v+1, u]
    cv_ = np.zeros((levels + 1, size, size + 1), np.float32)  # [h, v, u+1]
    for h in range(0, levels + 1):
        img = _sample_plane(grey_log, view, anchor, ex, ey, h * 2 * pitch, size)
        du = np.abs(cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3))
        dv = np.abs(cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3))
        # down the rows one row at a time: the same float32 sums in the same order as a
        # cumulative sum along axis 0, which numpy makes column by column, far slower
        row = cu[h]
        for k in range(size):
            np.add(row[k], du[k], out=row[k + 1])
        np.cumsum(dv, axis=1, out=cv_[h, :, 1:])
    n = int(radius // pitch)
    # the cells' lower-left corners for every offset lie on one regular grid of the plane:
    # u0 = base + I·p + a (I: the cell, a: the offset), so the sums over all offsets and cells
    # are slices of whole-plane arrays, reshaped, with no gathering
    base = half - p // 2 - n * p
    span = 2 * n * p
    # su[h, v0, u]: the sum of du along v over [v0, v0 + p), for the rows v0 and columns u the
    # cells use (u from base on); sv likewise of dv along u (rows v from base on)
    cols = slice(base, base + span + p)
    su = cu[:, base + p:base + span + p, cols] - cu[:, base:base + span, cols]
    sv = cv_[:, cols, base + p:base + span + p] - cv_[:, cols, base:base + span]
    e_u = su[:, :, 0:span] + su[:, :, p:p + span] - 2 * su[:, :, p // 2:p // 2 + span]
    e_v = sv[:, 0:span, :] + sv[:, p:p + span, :] - 2 * sv[:, p // 2:p // 2 + span, :]
    # a top shows the lattice's lines both ways; a tower's side shows its joints one way only
    # (its other lines run towards the vertical vanishing point), and a tall side's many
    # joints, regular too, must not pull the phase: a cell counts by the geometric mean of
    # its two directions
    both = (2.0 * np.sqrt(np.clip(e_u, 0, None) * np.clip(e_v, 0, None))).max(axis=0)
    both = both.reshape(2 * n, p, 2 * n, p)  # [J, a_v, I, a_u]
    cells = np.arange(-n, n)
    keep = (np.hypot(cells[:, None] + 0.5, cells[None, :] + 0.5) * pitch <= radius).astype(np.float32)  # [I, J]
    totals = np.einsum("jbia,ij->ab", both, keep)  # [a_u, a_v]
    offs = np.arange(p) - p // 2
    a_i, b_i = np.unravel_index(int(np.argmax(totals)), totals.shape)
    best_total = float(totals[a_i, b_i])

    def refine(vals: np.ndarray, k: int) -> float:
        l, c, r = vals[(k - 1) % p], vals[k], vals[(k + 1) % p]
        den = l - 2 * c + r
        return 0.0 if den >= 0 else float(np.clip(0.5 * (l - r) / den, -0.5, 0.5))
    ou = float(offs[a_i]) + refine(totals[:, b_i], a_i)
    ov = float(offs[b_i]) + refine(totals[a_i, :], b_i)
    clarity = float((best_total - np.median(totals)) / max(best_total, 1e-9))
    return ou, ov, clarity, best_total


def refit_phase(image: np.ndarray, view: View, lattice: Lattice, anchor: tuple[float, float], *,
                levels: int) -> tuple[Lattice, float]:
    """``lattice`` moved to where this frame's lines lie, at its own angle and pitch (only its
    offset is found again, :func:`find_phase`), and how far it moved (mm). The cells keep
    their numbers: the offset moves by less than half a pitch either way."""
    ou, ov, _, _ = find_phase(grey_log_image(image), view, anchor, lattice.angle_deg, lattice.pitch, levels)
    ex, ey = lattice.axes
    d = np.asarray(lattice.origin, float) - np.asarray(anchor, float)
    half = lattice.pitch / 2
    du = (ou - float(d @ ex) + half) % lattice.pitch - half
    dv = (ov - float(d @ ey) + half) % lattice.pitch - half
    origin = np.asarray(lattice.origin, float) + du * ex + dv * ey
    return Lattice((float(origin[0]), float(origin[1])), lattice.angle_deg, lattice.pitch), math.hypot(du, dv)


def find_lattice(image: np.ndarray, view: View, anchor: tuple[float, float], *, pitch: float = 20.0,
                 levels: int = 6, region: np.ndarray | None = None,
                 hint_deg: float | None = None) -> tuple[Lattice, float]:
    """The lattice of the cubes in ``image`` and a strength (0 when no grid is seen).
    ``hint_deg``: the angle found in an earlier frame of the same table, tried as well (the
    cubes are rarely turned between two frames, and the angle from edge directions alone can
    start the refinement too far from it)."""
    angle, _ = find_angle(image, view, region if region is not None else np.ones(image.shape[:2], np.float32))
    grey_log = grey_log_image(image)
    # the angle from edge directions is good to about a degree; the cells' alignment settles it
    results = {}
    def at(a: float):
        key = round(a, 3)
        if key not in results:
            results[key] = find_phase(grey_log, view, anchor, a, pitch, levels)
        return results[key]
    best = None
    if hint_deg is not None:
        hint = (hint_deg + 45.0) % 90.0 - 45.0
        # a video's next frame: the last frame's angle, climbed by quarter degrees to the best
        # aligned of its neighbours; where the edges agree with it, the search is done (three
        # or four alignments instead of the nine or ten of a search from the edges alone)
        local = hint
        for _ in range(4):
            step_to = max([local - 0.25, local, local + 0.25], key=lambda a: at(a)[3])
            if step_to == local:
                break
            local = step_to
        else:
            local = None
        if local is not None and abs(((angle - local) + 45.0) % 90.0 - 45.0) <= HINT_AGREES_DEG:
            best = local
    if best is None:
        step = 1.0
        best = angle
        for _ in range(3):
            cands = [best - step, best, best + step]
            best = max(cands, key=lambda a: at(a)[3])
            step /= 2
        if hint_deg is not None:
            best = max([best, hint, hint - 0.25, hint + 0.25], key=lambda a: at(a)[3])
    angle = best
    ou, ov, strength, _ = at(angle)
    a = math.radians(angle)
    ex, ey = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    origin = np.asarray(anchor, float) + ou * ex + ov * ey
    return normalised(Lattice((float(origin[0]), float(origin[1])), angle, pitch), anchor), strength
