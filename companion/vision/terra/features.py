"""What the picture says about each height a square's tower could have.

For a square and a hypothetical height ``h``, the View says exactly where the tower's top face
would be in the image (a 25 mm square at ``z = h × 25 mm``) and, for a tilted camera, where its
sides facing the camera and the seams between its blocks would be. Blocks are identical and
untextured, so the right height is the one whose predicted outline the image agrees with:

* inside the predicted top face the picture is flat (one painted surface, no edge across it);
* across each predicted top edge the picture changes: the top face, then the 2 mm crack to the
  next tower (a dark line) or the drop to a lower tower, its own side, the board;
* on the predicted sides, the seams between blocks fall every 25 mm, with flat paint between;
* an empty square (``h = 0``) is the printed board: its ink line lies on the square's border,
  1 mm outside where a block's top edge would be, and its paper has the printed tint;
* the top face and the sides have the blocks' colour (the frame's own, measured before any
  square is read), not the paper's;
* a flag's head seen where a flag on a tower of that height would stand.

Every cue is measured at fixed sample points around each hypothesis: a 3 × 3 grid inside the
top face, edge profiles across each of its four edges (five points from 4 mm inside to 1.5 mm
outside the square's border), and seam and mid-block points on each side that faces the camera.
All points of all squares and heights are projected and sampled once per frame (grey level and
gradient magnitude, bilinear); only *which* of them are visible changes while the reader decides
squares front to back (:mod:`companion.vision.terra.heights`), because a point hidden behind a
nearer tower tells nothing about this one.

:func:`features` turns the visible samples into one feature vector per (square, height); the
scorer is a linear function of it (:mod:`companion.vision.terra.model`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BLOCK_MM, MAX_HEIGHT, SIZE, SQUARE_MM, head_centre_z

#: heights considered for every square: 0 (empty) to MAX_HEIGHT blocks
HEIGHTS = np.arange(MAX_HEIGHT + 1)
NH = len(HEIGHTS)
NSQ = SIZE * SIZE
#: the interior grid (mm from the square's centre)
_INNER = np.array([(u, v) for v in (-7.0, 0.0, 7.0) for u in (-7.0, 0.0, 7.0)])
#: edge profiles: positions along each edge (mm) and offsets across it (mm, from the square's
#: border, outwards); a block's top edge lies at -1.0 (25 mm block on a 27 mm square)
_ALONG = np.array([-8.0, -2.7, 2.7, 8.0])
_ACROSS = np.array([-4.0, -2.2, -1.0, 0.0, 1.5])
EDGE_AT = 2    # index of the block's top edge in _ACROSS
BORDER_AT = 3  # index of the square's border (the printed line)
#: the four sides: outward normal and tangent (board frame)
_SIDES = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
_TANGENTS = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
#: points across a block's side: along the face (mm)
_FACE_ALONG = np.array([-7.0, 0.0, 7.0])
N_INNER = len(_INNER)
N_EDGE = 4 * len(_ALONG) * len(_ACROSS)
N_TOP = N_INNER + N_EDGE
N_FACE = len(_FACE_ALONG)
#: samples off the image or hidden count as this in the visibility mask
HIDDEN = 255
#: the top colour's candidates (:func:`estimate_top`): predicted top edges this many times
#: sharper than the interior, an interior this uniform, not clipped white (every channel at
#: least CLIPPED); at least TOP_MIN_CANDIDATES of them; alike within this chroma distance and
#: brightness ratio (log)
TOP_EDGE_RATIO = 5.0
TOP_MAX_SPREAD = 0.05
CLIPPED = 248.0
TOP_MIN_CANDIDATES = 5
TOP_GROUP_CHROMA = 0.4
TOP_GROUP_LUM = 0.35

FEATURE_NAMES = (
    "inner_grad", "inner_spread", "edge_grad", "border_grad", "gap_contrast", "gap_valley",
    "step", "edge_seen", "inner_seen", "seam_grad", "side_spread", "side_seen",
    "empty", "empty_inner_grad", "empty_inner_spread", "empty_border_grad", "empty_valley",
    "empty_edge_grad", "bias_height",
    "paper_chroma", "paper_lum", "empty_paper_chroma", "empty_paper_lum",
    "top_chroma", "top_lum", "empty_top_chroma", "empty_top_lum",
    "flag_fit", "side_top_chroma", "side_paper_chroma", "side_colour_seen",
)
NF = len(FEATURE_NAMES)


@dataclass
class Samples:
    """Every sample point of a frame: pixel positions (for the visibility mask) and values.

    ``top_px``: (100, NH, N_TOP, 2); ``top_g``/``top_m``: grey level and gradient there.
    ``side_px``: (100, NH, 4, 2, N_FACE, 2) for level k (rows), side, seam/mid; values alike.
    ``sides``: (100, 4) which sides face the camera. ``grad_scale``: the frame's typical
    gradient, so features do not depend on contrast or exposure.
    """

    top_px: np.ndarray
    top_bgr: np.ndarray
    top_g: np.ndarray
    top_m: np.ndarray
    side_px: np.ndarray
    side_g: np.ndarray
    side_m: np.ndarray
    side_bgr: np.ndarray     # (100, NH levels, 4, N_FACE, 3): colour half-way up each block's side
    sides: np.ndarray
    head_px: np.ndarray      # (100, NH, 2): where a flag's head on each hypothesis would be
    px_per_mm: float
    grad_scale: float
    origin: tuple[int, int]  # the crop's top-left pixel
    shape: tuple[int, int]   # the crop's (h, w)
    top_idx: np.ndarray      # the sample points' pixels (flat indices into the crop, -1 off it)
    side_idx: np.ndarray
    grey: np.ndarray         # the crop's smoothed grey level
    grad: np.ndarray         # its gradient magnitude
    bgr: np.ndarray          # the crop in colour (float32)


def _top_template() -> np.ndarray:
    """(N_TOP, 2) board-mm offsets from a square's centre: interior grid, then edge profiles
    side by side (side, along, across)."""
    pts = [_INNER]
    half = SQUARE_MM / 2
    for n, t in zip(_SIDES, _TANGENTS):
        for a in _ALONG:
            for o in _ACROSS:
                pts.append((n * (half + o) + t * a)[None, :])
    return np.concatenate(pts)


_TOP = _top_template()


def crop_box(geo: BoardGeometry, size: tuple[int, int], margin: int = 6) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) holding the board's squares up to the tallest tower."""
    w = SIZE * SQUARE_MM
    corners = np.array([[0, 0], [w, 0], [w, w], [0, w]], float)
    pts = np.concatenate([np.column_stack([corners, np.full(4, z)])
                          for z in (0.0, (MAX_HEIGHT + 1.5) * BLOCK_MM)])
    px = geo.project(pts)
    x0 = int(max(0, np.floor(px[:, 0].min()) - margin))
    y0 = int(max(0, np.floor(px[:, 1].min()) - margin))
    x1 = int(min(size[0], np.ceil(px[:, 0].max()) + margin))
    y1 = int(min(size[1], np.ceil(px[:, 1].max()) + margin))
    return x0, y0, x1, y1


def prepare(image: np.ndarray, geo: BoardGeometry
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The crop of the board: colour, smoothed grey level and gradient magnitude (float32)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = crop_box(geo, (w, h))
    crop = image[y0:y1, x0:x1]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 0.7)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    m = cv2.magnitude(gx, gy)
    return crop.astype(np.float32), g, m, (x0, y0)


def _sample(img: np.ndarray, px: np.ndarray) -> np.ndarray:
    """Bilinear values of ``img`` (H×W or H×W×C) at pixel positions ``px`` (…×2): one
    :func:`cv2.remap` with the points laid out as a 2-D map (a map may not be longer than
    32767 along either side)."""
    flat = np.asarray(px, np.float32).reshape(-1, 2)
    n = len(flat)
    ch = img.shape[2] if img.ndim == 3 else 1
    cols = 1024
    rows = -(-n // cols)
    grid = np.zeros((rows * cols, 2), np.float32)
    grid[:n] = flat
    grid = grid.reshape(rows, cols, 2)
    out = cv2.remap(img, grid, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = out.reshape(rows * cols, ch)[:n]
    return out.reshape(px.shape[:-1] + ((ch,) if ch > 1 else ()))


def sample(image: np.ndarray, geo: BoardGeometry) -> Samples:
    """Project and sample every point of every hypothesis (see the module docstring)."""
    bgr, g, m, (x0, y0) = prepare(image, geo)
    xs = (np.arange(NSQ) % SIZE + 0.5) * SQUARE_MM
    ys = (np.arange(NSQ) // SIZE + 0.5) * SQUARE_MM
    centres = np.stack([xs, ys], axis=1)
    org = np.array([x0, y0], np.float32)
    # tops: (100, NH, N_TOP, 2)
    xy = centres[:, None, :] + _TOP[None, :, :]
    top_px = geo.project_layers(xy, HEIGHTS * BLOCK_MM).transpose(1, 0, 2, 3) - org
    # sides: (100, NH levels, 4 sides, 2 (seam at the level's bottom, mid-block), N_FACE, 2)
    half = BLOCK_MM / 2 + 0.3
    face = (_SIDES[:, None, :] * half + _TANGENTS[:, None, :] * _FACE_ALONG[None, :, None])  # 4×F×2
    fxy = centres[:, None, None, :] + face[None, :, :, :]                     # 100×4×F×2
    levels = HEIGHTS * BLOCK_MM
    fz = np.stack([levels, levels + BLOCK_MM / 2], axis=1).ravel()             # (NH·2,)
    side_px = geo.project_layers(fxy, fz).reshape(NH, 2, NSQ, 4, N_FACE, 2)
    side_px = side_px.transpose(2, 0, 3, 1, 4, 5) - org
    gm = cv2.merge([g, m])
    top_gm = _sample(gm, top_px)
    top_vals, top_m = top_gm[..., 0], top_gm[..., 1]
    side_gm = _sample(gm, side_px)
    side_g, side_m = side_gm[..., 0], side_gm[..., 1]
    side_bgr = _sample(bgr, side_px[:, :, :, 1])
    scale = float(np.median(top_m[:, :, N_INNER::7])) + 1.0
    top_bgr = _sample(bgr, top_px[:, :, :N_INNER])
    head_z = np.array([head_centre_z(int(h)) for h in HEIGHTS])
    head_px = geo.project_layers(centres, head_z).transpose(1, 0, 2) - org
    return Samples(top_px, top_bgr, top_vals, top_m, side_px, side_g, side_m, side_bgr, geo.visible_sides(),
                   head_px, geo.px_per_mm(3 * BLOCK_MM), scale, (x0, y0), g.shape,
                   pixel_index(top_px, g.shape), pixel_index(side_px, g.shape), g, m, bgr)


def pixel_index(px: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The flat index of the pixel nearest each point (…×2) in an image of ``shape``; -1 for
    points off the image."""
    h, w = shape
    xi = (px[..., 0] + 0.5).astype(np.int32)
    yi = (px[..., 1] + 0.5).astype(np.int32)
    inside = (px[..., 0] >= -0.5) & (xi < w) & (px[..., 1] >= -0.5) & (yi < h)
    return np.where(inside, yi * w + xi, -1)


def visible(depth: np.ndarray, px: np.ndarray, limit: np.ndarray | int = 1, *,
            index: np.ndarray | None = None) -> np.ndarray:
    """Whether each sample point is in the crop and not hidden. ``depth`` is the occlusion
    image of :func:`occlusion`; a point of a square in wavefront ``w`` is hidden where the
    nearest thing painted is nearer than it: a value below ``limit = w + 1`` (given per square,
    the first axis of ``px``). ``index``: the points' :func:`pixel_index`, when known."""
    idx = pixel_index(px, depth.shape) if index is None else index
    vals = depth.ravel()[np.maximum(idx, 0)]
    lim = np.asarray(limit).reshape((-1,) + (1,) * (idx.ndim - 1)) if np.ndim(limit) else limit
    return (idx >= 0) & (vals >= lim)


def occlusion(geo: BoardGeometry, heights: np.ndarray, shape: tuple[int, int], origin: tuple[int, int],
              hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The occlusion image for a height map, and each square's limit for :func:`visible`:
    every pixel holds 1 + the wavefront of the nearest tower covering it (255: none; 0 where
    ``hidden``, the flags' heads, which hide whatever is behind them). Towers are painted
    farthest first, so the nearest one stays."""
    depth = np.full(shape, HIDDEN, np.uint8)
    waves = geo.wavefronts()
    limit = np.zeros(NSQ, np.int64)
    for w, wave in enumerate(waves):
        limit[wave] = w + 1
    tall = np.nonzero(np.asarray(heights) > 0)[0]
    if len(tall):
        corners = geo.towers_corners(tall, np.asarray(heights)[tall])
        px = np.round((geo.project(corners) - np.array(origin, float)) * 16).astype(np.int32)
        hulls = {int(s): cv2.convexHull(px[k]) for k, s in enumerate(tall)}
        for w in range(len(waves) - 1, -1, -1):
            for s in waves[w]:
                if s in hulls:
                    cv2.fillConvexPoly(depth, hulls[s], int(w + 1), cv2.LINE_8, 4)
    if hidden is not None:
        depth[hidden] = 0
    return depth, limit


def visibility(smp: Samples, depth: np.ndarray, limit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which top points (100 × NH × N_TOP) and side points (100 × NH × 4 × 2 × N_FACE) of every
    square show under an occlusion image (:func:`visible`)."""
    return (visible(depth, smp.top_px, limit, index=smp.top_idx),
            visible(depth, smp.side_px, limit, index=smp.side_idx))


def _mean(v: np.ndarray, ok: np.ndarray, axis) -> tuple[np.ndarray, np.ndarray]:
    n = ok.sum(axis=axis)
    s = np.where(ok, v, 0.0).sum(axis=axis)
    return s / np.maximum(n, 1), n


@dataclass(frozen=True)
class Palette:
    """Colours the features compare against: ``paper`` the printed board's colour on each
    square under this light (100 × 3 BGR: the white reference times the printed tint), and
    ``top`` the blocks' top faces as this frame shows them (None before it is known)."""

    paper: np.ndarray
    top: np.ndarray | None = None
    heads: np.ndarray | None = None  # K × 2 crop pixels of the flags' heads seen


def _chroma(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = bgr.sum(axis=-1) + 6.0
    return bgr / total[..., None], total


def interior_level(smp: Samples, squares: np.ndarray, depth: np.ndarray, limit: np.ndarray,
                   shown: tuple[np.ndarray, np.ndarray] | None = None) -> float:
    """The mean grey level of the visible top interiors of ``squares``' hypotheses: what
    normalises the edge contrasts of a hypothesis whose own interior is hidden (128 when no
    interior shows)."""
    sq = np.asarray(squares)
    ok = shown[0][sq][:, :, :N_INNER] if shown is not None else \
        visible(depth, smp.top_px[sq][:, :, :N_INNER], limit[sq], index=smp.top_idx[sq][:, :, :N_INNER])
    g, n = _mean(smp.top_g[sq][:, :, :N_INNER], ok, 2)
    return float(g[n > 0].mean()) if (n > 0).any() else 128.0


def features(smp: Samples, squares: np.ndarray, depth: np.ndarray, limit: np.ndarray,
             palette: Palette, *, seen: np.ndarray | None = None, level: float | None = None,
             shown: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Feature vectors (len(squares), NH, NF) of the given squares under the occlusion image
    (``limit``: each square's, see :func:`visible`). ``seen`` (len(squares) × NH), when given,
    receives the visible share of every height's top interior, the board's square for height 0
    included (the feature ``inner_seen`` is 0 there, the scorer reads an empty square by
    other cues). ``shown``: which top and side points of every square this occlusion leaves
    visible (:func:`visibility`), when already known. ``level``: :func:`interior_level` of
    every square under this occlusion, when
    only some squares are read again (it is computed from ``squares`` otherwise)."""
    sq = np.asarray(squares)
    lim = limit[sq]
    scale = smp.grad_scale
    top_px = smp.top_px[sq]
    ok = shown[0][sq] if shown is not None else \
        visible(depth, top_px, lim, index=smp.top_idx[sq])                       # S×NH×N_TOP
    g = smp.top_g[sq]
    m = smp.top_m[sq] / scale
    S = len(sq)
    F = np.zeros((S, NH, NF))
    # interior
    ok_i, g_i, m_i = ok[:, :, :N_INNER], g[:, :, :N_INNER], m[:, :, :N_INNER]
    inner_m, n_i = _mean(m_i, ok_i, 2)
    inner_g, _ = _mean(g_i, ok_i, 2)
    inner_sq, _ = _mean(g_i * g_i, ok_i, 2)
    spread = np.sqrt(np.maximum(inner_sq - inner_g ** 2, 0.0)) / (inner_g + 8.0)
    # edges: S×NH×(4·along)×across; a profile counts when all its points are visible
    across = ok[:, :, N_INNER:].reshape(S, NH, -1, len(_ACROSS))
    ok_e = across[..., 0].copy()
    for k in range(1, len(_ACROSS)):   # faster than .all over so short an axis
        ok_e &= across[..., k]
    g_e = g[:, :, N_INNER:].reshape(S, NH, -1, len(_ACROSS))
    m_e = m[:, :, N_INNER:].reshape(S, NH, -1, len(_ACROSS))
    ref = np.where(n_i > 0, inner_g, np.nan)
    if level is None:
        level = float(np.nanmean(ref)) if np.isfinite(ref).any() else 128.0
    norm = np.nan_to_num(ref, nan=level)[:, :, None] + 8.0
    edge_grad, n_e = _mean(m_e[..., EDGE_AT], ok_e, 2)
    border_grad, _ = _mean(m_e[..., BORDER_AT], ok_e, 2)
    gap_contrast, _ = _mean((g_e[..., 1] - g_e[..., BORDER_AT]) / norm, ok_e, 2)
    valley, _ = _mean((g_e[..., BORDER_AT] - 0.5 * (g_e[..., 1] + g_e[..., 4])) / norm, ok_e, 2)
    step, _ = _mean(np.abs(g_e[..., 0] - g_e[..., 4]) / norm, ok_e, 2)
    edge_seen = n_e / ok_e.shape[2]
    inner_seen = n_i / N_INNER
    if seen is not None:
        seen[...] = inner_seen
    # sides: levels below h on the faces looking at the camera
    side_ok = (shown[1][sq] if shown is not None else visible(depth, smp.side_px[sq], lim, index=smp.side_idx[sq])) \
        & smp.sides[sq][:, None, :, None, None]
    sm = smp.side_m[sq] / scale
    sg = smp.side_g[sq]
    below = (HEIGHTS[None, :] < HEIGHTS[:, None])  # [h, k]: level k is part of a tower of height h
    seam_level = below & (HEIGHTS[None, :] >= 1)
    ok_seam = side_ok[:, :, :, 0, :]  # S×K×4×F (K = level)
    ok_mid = side_ok[:, :, :, 1, :]
    seam_sum = np.einsum("hk,skf->sh", seam_level.astype(float), (np.where(ok_seam, sm[:, :, :, 0, :], 0)).reshape(S, NH, -1))
    seam_n = np.einsum("hk,skf->sh", seam_level.astype(float), ok_seam.reshape(S, NH, -1).astype(float))
    mid_sum = np.einsum("hk,skf->sh", below.astype(float), (np.where(ok_mid, sm[:, :, :, 1, :], 0)).reshape(S, NH, -1))
    mid_n = np.einsum("hk,skf->sh", below.astype(float), ok_mid.reshape(S, NH, -1).astype(float))
    mid_g = np.where(ok_mid, sg[:, :, :, 1, :], 0).reshape(S, NH, -1)
    mid_g2 = mid_g * mid_g
    gs = np.einsum("hk,skf->sh", below.astype(float), mid_g)
    gs2 = np.einsum("hk,skf->sh", below.astype(float), mid_g2)
    mean_g = gs / np.maximum(mid_n, 1)
    side_spread = np.sqrt(np.maximum(gs2 / np.maximum(mid_n, 1) - mean_g ** 2, 0.0)) / (mean_g + 8.0)
    seam_grad = seam_sum / np.maximum(seam_n, 1) - mid_sum / np.maximum(mid_n, 1)
    seam_grad = np.where((seam_n > 0) & (mid_n > 0), seam_grad, 0.0)
    side_seen = np.minimum(mid_n / (2 * N_FACE), 4.0) / 4.0
    empty = (HEIGHTS == 0).astype(float)[None, :]
    full = 1.0 - empty
    F[..., 0] = inner_m * full
    F[..., 1] = spread * full
    F[..., 2] = edge_grad * full
    F[..., 3] = border_grad * full
    F[..., 4] = gap_contrast * full
    F[..., 5] = valley * full
    F[..., 6] = step * full
    F[..., 7] = edge_seen * full
    F[..., 8] = inner_seen * full
    F[..., 9] = seam_grad
    F[..., 10] = side_spread
    F[..., 11] = side_seen
    F[..., 12] = empty
    F[..., 13] = inner_m * empty
    F[..., 14] = spread * empty
    F[..., 15] = border_grad * empty
    F[..., 16] = valley * empty
    F[..., 17] = edge_grad * empty
    F[..., 18] = HEIGHTS[None, :] / MAX_HEIGHT
    # colour of the interior: the printed paper's, or the blocks'?
    col = (np.where(ok_i[..., None], smp.top_bgr[sq], 0.0).sum(axis=2)
           / np.maximum(n_i, 1)[..., None])                                     # S×NH×3
    c, lum = _chroma(col)
    pc, plum = _chroma(palette.paper[sq])
    paper_chroma = np.abs(c - pc[:, None, :]).sum(axis=-1) * 10.0
    paper_lum = np.abs(np.log(lum / plum[:, None]))
    has = n_i > 0
    F[..., 19] = np.where(has, paper_chroma, 0.0) * full
    F[..., 20] = np.where(has, paper_lum, 0.0) * full
    F[..., 21] = np.where(has, paper_chroma, 0.0) * empty
    F[..., 22] = np.where(has, paper_lum, 0.0) * empty
    if palette.top is not None:
        tc, tlum = _chroma(np.asarray(palette.top, float))
        top_chroma = np.abs(c - tc).sum(axis=-1) * 10.0
        top_lum = np.abs(np.log(lum / tlum))
        F[..., 23] = np.where(has, top_chroma, 0.0) * full
        F[..., 24] = np.where(has, top_lum, 0.0) * full
        F[..., 25] = np.where(has, top_chroma, 0.0) * empty
        F[..., 26] = np.where(has, top_lum, 0.0) * empty
    if palette.heads is not None and len(palette.heads):
        hp, heads = smp.head_px[sq], np.asarray(palette.heads)
        dx = hp[:, :, 0, None] - heads[None, None, :, 0]
        dy = hp[:, :, 1, None] - heads[None, None, :, 1]
        d = np.sqrt((dx * dx + dy * dy).min(axis=2))
        F[..., 27] = np.exp(-0.5 * (d / (3.0 * smp.px_per_mm)) ** 2)
    # colour of the sides a tower of each height would show: the blocks' paint, not the board
    ok_c = ok_mid[..., None]                                                    # S×K×4×F×1
    cols = np.where(ok_c, smp.side_bgr[sq], 0.0).reshape(S, NH, -1, 3)
    cnt = ok_mid.reshape(S, NH, -1).sum(axis=2).astype(float)                   # S×K
    col_sum = np.einsum("hk,skc->shc", below.astype(float), cols.sum(axis=2))
    col_n = below.astype(float) @ cnt.T                                         # H×S
    side_col = col_sum / np.maximum(col_n.T, 1)[..., None]
    sc, _ = _chroma(side_col)
    has_side = col_n.T > 0
    pc2, _ = _chroma(palette.paper[sq])
    F[..., 29] = np.where(has_side, np.abs(sc - pc2[:, None, :]).sum(axis=-1) * 10.0, 0.0)
    if palette.top is not None:
        tc2, _ = _chroma(np.asarray(palette.top, float))
        F[..., 28] = np.where(has_side, np.abs(sc - tc2).sum(axis=-1) * 10.0, 0.0)
    F[..., 30] = has_side.astype(float)
    return F


def silhouette(geo: BoardGeometry, square: int, height: int, origin: tuple[int, int]) -> np.ndarray | None:
    """The pixels (crop coordinates) a tower of ``height`` on ``square`` covers: the convex hull
    of its box (None for an empty square)."""
    if height <= 0:
        return None
    px = geo.project(geo.tower_corners(square, height)) - np.array(origin)
    return cv2.convexHull(np.round(px * 16).astype(np.int32))


# ------------------------------------------------------------------------------------ colours
def paper_colours(white: np.ndarray) -> np.ndarray:
    """The printed board's colour on each square (100 × 3 BGR) under a light whose white
    paper reads ``white``: the sheet's territory tints (:data:`calibration.targets.
    TERRITORY_TINTS`, the printed ones) times the white."""
    from calibration.targets import TERRITORY_TINTS
    from companion.vision.terra.kit import BOARD

    out = np.zeros((NSQ, 3))
    for sq in range(NSQ):
        terr = BOARD.territory_of(sq % SIZE, sq // SIZE)
        tint = np.asarray(TERRITORY_TINTS[terr % len(TERRITORY_TINTS)], float) / 255.0
        out[sq] = np.asarray(white, float) * tint
    return out


def white_reference(image: np.ndarray, detections) -> np.ndarray:
    """The white paper's colour in this frame: read off the paper around the markers seen
    (:func:`calibration.markers.marker_white`), or the brightest of the image when no marker
    offers enough paper."""
    from calibration.markers import marker_white

    white = marker_white(image, list(detections)) if detections else None
    if white is not None:
        return np.asarray(white, float)
    px = image.reshape(-1, 3)[::17].astype(float)
    lum = px.sum(axis=1)
    top = px[lum >= np.quantile(lum, 0.97)]
    return np.median(top, axis=0) if len(top) else np.array([235.0, 235.0, 235.0])


def estimate_top(smp: Samples) -> np.ndarray | None:
    """The blocks' top colour in this frame, before any square is read.

    A top face is one painted surface bounded by edges: the crack to the next tower or the
    drop to its own side. So for each square, among the heights of one block and more (an
    empty square's printed paper is left out that way), the candidates are the hypotheses
    whose interior is uniform and whose four predicted top edges are much sharper than their
    interior (:data:`TOP_EDGE_RATIO`); paper clipped white by the exposure is uniform too, and
    its edges are nothing but noise, so a clipped interior is no candidate (a block's top
    clipped in every channel is paper-white anyway). Each square keeps its most uniform
    candidate; the top colour is that of the largest group of alike colours (chroma and
    brightness, :data:`TOP_GROUP_CHROMA`, :data:`TOP_GROUP_LUM`), the median of its brighter
    half (a top in another tower's shadow is darker). Paper far from the towers can pass the
    test where a hypothesis's edges fall on printed lines; such candidates differ from one
    another (tints, lines) while the tops are alike, hence the largest group. With fewer than
    :data:`TOP_MIN_CANDIDATES` candidates, the most uniform interiors decide alone.

    The edge test matters under bright light: the paper is then the most uniform thing in the
    frame, and a top colour taken from it makes every feature that compares a square with the
    blocks' colour say the opposite of the truth."""
    g = smp.top_g[:, 1:, :N_INNER]
    mean = g.mean(axis=2)
    spread = g.std(axis=2) / (mean + 8.0)
    rows = np.arange(NSQ)
    colours = smp.top_bgr[:, 1:].mean(axis=2)                                 # 100 × (NH-1) × 3
    edges = smp.top_m[:, 1:, N_INNER:].reshape(NSQ, NH - 1, -1, len(_ACROSS))[..., EDGE_AT]
    edge = edges.mean(axis=2) / smp.grad_scale
    inner = smp.top_m[:, 1:, :N_INNER].mean(axis=2) / smp.grad_scale
    good = ((edge >= TOP_EDGE_RATIO * (inner + 0.15)) & (spread < TOP_MAX_SPREAD)
            & (colours.min(axis=2) < CLIPPED))
    ranked = np.where(good, spread, np.inf)
    best = np.argmin(ranked, axis=1)
    ok = np.isfinite(ranked[rows, best])
    if ok.sum() >= TOP_MIN_CANDIDATES:
        chosen = colours[rows, best][ok]
        chroma, total = _chroma(chosen)
        apart = np.abs(chroma[:, None, :] - chroma[None, :, :]).sum(axis=2) * 10.0
        alike = (apart < TOP_GROUP_CHROMA) & (np.abs(np.log(total[:, None] / total[None, :])) < TOP_GROUP_LUM)
        sharp = edge[rows, best][ok]
        group = chosen[alike[np.argmax(alike.astype(float) @ sharp)]]
        lum = group.sum(axis=1)
        return np.median(group[lum >= np.median(lum)], axis=0)
    best = np.argmin(spread, axis=1)
    best_spread = spread[rows, best]
    chosen = colours[rows, best]
    keep = best_spread <= np.quantile(best_spread, 0.5)
    if keep.sum() < 5:
        return None
    chosen = chosen[keep]
    lum = chosen.sum(axis=1)
    return np.median(chosen[lum >= np.median(lum)], axis=0)
