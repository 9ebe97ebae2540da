"""Is an arm over the board? A frame with one is never read as a position.

Two things a board of towers never shows and an arm does:

* **a large smooth patch over the grid.** Towers are a tight grid of 25 mm faces with dark
  cracks between them; an empty square is printed paper with its ink border. So within a
  square's width of any point of the grid there is an edge. A forearm or a palm (70–90 mm
  wide) is smooth over several squares. Edges are measured relative to the local grey level
  (a shadow keeps its edges, only darker). This runs before the heights are read.
* **a change since the last still frame that no move explains.** A reader watching a table
  keeps the last still frame it read with no arm. A move changes the picture where the squares
  it changed stand (their towers, what they hide, their shadows); an arm changes a large region
  reaching out past the board, where no tower stands. So the change between the two frames,
  outside the neighbourhood of the squares read differently, is measured; and more squares
  read differently than one still moment can hold is an arm too (the heights read under an
  arm are whatever its surface looks like).

* **a stretch of the table round the board that is not table.** An arm reaching the board
  comes from a player outside it and crosses the table beside the paper, where nothing of the
  game stands (:func:`table_crossing`, run once the heights are read so that towers leaning
  over the band are left out): unlike it in colour or brightness, or smooth where the table is
  grained (an arm as orange as the wood under a warm lamp).
* **a body on the table reaching from the board out towards the player.** The same comparison
  with the table, over the table from the paper's edge to 220 mm out (:func:`reaching_body`):
  a region unlike the table at least 20 mm wide, from the paper out 150 mm or to the frame's
  edge, over 7000 mm². It sees the arms whose crossing of the band breaks into short stretches
  (skin nearly the table's colour, a hand at the band's corner, the band hidden by what is
  read under the arm): unlike the table by little, but all the way out.

Any one is enough. The first needs no history (a single photograph), but only sees a palm or a
forearm lying over the grid; the second needs the table seen still once before, and sees any
arm. Both are cheap (a box filter and a difference on the board's crop).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import hands as band
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.kit import BLOCK_MM, BOARD, SIZE, SQUARE_MM

#: relative gradient (|∇g| / (g + 12)) above which a pixel is an edge
EDGE_LEVEL = 0.12
#: ... and above this multiple of the crop's median gradient: most of the crop is flat, so its
#: median is the sensor's noise, which on a dark sleeve or a palm in shadow reaches the relative
#: level alone
NOISE_EDGE = 2.5
#: a window of one square with fewer edge pixels than this share is smooth
SMOOTH_SHARE = 0.03
#: a smooth patch this many squares large (in area, at the board) is an arm
MIN_SMOOTH_SQUARES = 2.0


@dataclass(frozen=True)
class HandCheck:
    """Why a frame was (or was not) taken for a hand frame: the largest smooth patch over the
    grid (squares) and the largest change since the last still frame no tower read explains
    (squares), the longest stretch of the table round the board that is not table (mm), and the
    largest body unlike the table reaching from the board out across it (mm²)."""

    smooth_squares: float
    changed_squares: float = 0.0
    #: the longest stretch of the table round the board unlike the table (mm, :func:`table_crossing`)
    table_run_mm: float = 0.0
    #: the largest body unlike the table reaching from the board out across it (mm²,
    #: :func:`reaching_body`)
    body_mm2: float = 0.0

    @property
    def hand(self) -> bool:
        return (self.smooth_squares >= MIN_SMOOTH_SQUARES or self.changed_squares >= MIN_CHANGE_SQUARES
                or self.table_run_mm >= MIN_ARM_RUN_MM or self.body_mm2 >= MIN_BODY_MM2)


def _poly_mask(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask


def smooth_patch(grey: np.ndarray, grad: np.ndarray, geo: BoardGeometry, origin: tuple[int, int]) -> float:
    """The largest smooth patch over the grid, in squares (see the module docstring)."""
    org = np.asarray(origin, float)
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    w = SIZE * SQUARE_MM
    grid = np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, w, 0.0], [0.0, w, 0.0]])
    inner = _poly_mask(grey.shape, geo.project(grid) - org)
    floor = NOISE_EDGE * float(median(grad))
    edges = ((grad > EDGE_LEVEL * (grey + 12.0)) & (grad > floor)).astype(np.float32)
    k = max(3, int(round(1.3 * SQUARE_MM * ppm)) | 1)
    density = cv2.boxFilter(edges, -1, (k, k), normalize=True, borderType=cv2.BORDER_REPLICATE)
    smooth = ((density < SMOOTH_SHARE) & (inner > 0)).astype(np.uint8)
    if not cv2.countNonZero(smooth):
        return 0.0  # the usual case: edges everywhere over the grid
    n, _, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=8)
    square_px = (SQUARE_MM * ppm) ** 2
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / square_px if n > 1 else 0.0


def median(values: np.ndarray, sample: int = 4096) -> float:
    """``np.median`` of ``values``, the same number, found faster on a large array: the middle
    is bracketed by the quantiles of a strided sample, and only the values between the two
    brackets are sorted out (the whole array when the bracket misses the middle)."""
    flat = values.ravel()
    n = flat.size
    if n <= 4 * sample:
        return float(np.median(flat))
    probe = np.sort(flat[:: n // sample])
    m = len(probe)
    lo, hi = probe[max(0, m // 2 - m // 40)], probe[min(m - 1, m // 2 + m // 40)]
    below = int(np.count_nonzero(flat < lo))
    between = flat[(flat >= lo) & (flat <= hi)]
    k1, k2 = (n - 1) // 2 - below, n // 2 - below
    if k1 < 0 or k2 >= len(between):
        return float(np.median(flat))
    part = np.partition(between, (k1, k2))
    return float(np.median(part[[k1, k2]]))


#: a pixel changed since the reference frame when its grey level moved by more than this ...
CHANGE_LEVEL = 14.0
#: ... plus this share of its level
CHANGE_SHARE = 0.12
#: a change this many squares large (in area at the board) that no tower read explains is an arm
MIN_CHANGE_SQUARES = 1.5
#: more squares than this read differently from the reference frame is not one still moment
#: after a move (three blocks taken and three put down, flags moved, or two such moves)
MAX_CHANGED_SQUARES = 12


def unexplained_change(grey: np.ndarray, reference: np.ndarray, geo: BoardGeometry,
                       origin: tuple[int, int], before: np.ndarray, after: np.ndarray) -> float:
    """The largest change (in squares) between the reference frame (the last still frame read
    with no arm, same camera and board) and this one that the towers read do not explain: a
    change is explained where a square read differently stands (its tower's silhouette at both
    heights, and the squares around it, which its shadow and what it hides reach). An arm
    reaching in changes a large region, out past the board where no tower stands."""
    if reference.shape != grey.shape:
        return 0.0
    diff = cv2.absdiff(grey, reference)
    changed = (diff > CHANGE_LEVEL + CHANGE_SHARE * reference).astype(np.uint8)
    changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    moved = np.nonzero(before != after)[0]
    if len(moved) > MAX_CHANGED_SQUARES:
        return float("inf")
    ppm = geo.px_per_mm(BLOCK_MM * 2)
    explained = np.zeros(grey.shape, np.uint8)
    org = np.asarray(origin, float)
    for sq in moved:
        x, y = sq % SIZE, sq // SIZE
        tall = max(int(before[sq]), int(after[sq]), 1) + 2
        c = np.array([[x - 1, y - 1], [x + 2, y - 1], [x + 2, y + 2], [x - 1, y + 2]], float) * SQUARE_MM
        box = np.concatenate([np.column_stack([c, np.zeros(4)]), np.column_stack([c, np.full(4, tall * BLOCK_MM)])])
        hull = cv2.convexHull(np.round((geo.project(box) - org) * 16).astype(np.int32))
        cv2.fillConvexPoly(explained, hull, 1, cv2.LINE_8, 4)
    r = max(1, int(round(SQUARE_MM * ppm)))
    explained = cv2.dilate(explained, np.ones((r, r), np.uint8))
    changed &= 1 - explained
    n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    if n <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / (SQUARE_MM * ppm) ** 2


# ------------------------------------------------------------------ the table round the board
#: white paper the board sheet leaves round what is printed (mm; the printed sheet's margin)
PAPER_MARGIN_MM = 12.0
#: the band on the table round the board: its middle this far beyond the paper's edge, and its
#: width (mm): 15–45 mm out, clear of the paper however it was cut and close enough that towers
#: rarely lean over it
TABLE_BAND_MM = (30.0, 30.0)
#: an arm crosses the band over at least this much of its length (a wrist is 50 mm wide)
MIN_ARM_RUN_MM = 36.0
#: a position of the band this unlike the rest of it (robust z-score, :func:`companion.vision.
#: hands.anomaly`) is not table. Below the shared bands' 4: where an arm crosses, the anomaly
#: dips under 4 along part of the crossing and breaks it into stretches shorter than
#: MIN_ARM_RUN_MM (two arms of the arms benchmark: 33 and 21 mm at 4, 78 and 111 mm at 3.5);
#: on 100 corpus frames without an arm (seeds 8 and 9, every light, 30 of them daylight) and
#: the 72 still frames of the demo videos of seeds 5 and 9000 no stretch this unlike reaches
#: MIN_ARM_RUN_MM
TABLE_ANOMALY = 3.5
#: a position darker than the table by more than the anomaly allows, of the table's colour within
#: this (log-chroma units × 20), is the table in a tower's shadow
SHADOW_CHROMA = 4.0
#: ... or bluer than the table by up to this (the ambient light's colour)
SHADOW_BLUE = 9.0
#: on a grained table (its median texture above 1), a stretch where every position within
#: SMOOTH_WINDOW positions (15 mm at 3 mm a step) is less textured than this share of the
#: table's median texture is smooth: skin or a sleeve, whatever its colour (grain comes and goes
#: along the band, never away for 15 mm at a time). On the arms benchmark (corpus seed 31), the
#: two arms as orange as the wood under a warm lamp are smooth over 51 and 81 mm; on 110 corpus
#: frames without an arm (the first 40 of seeds 8 and 9, every light, and 30 daylight frames of
#: seed 8) and the 72 still frames of the demo videos of seeds 5 and 9000 the longest smooth
#: stretch is 6 mm
SMOOTH_GRAIN = 0.3
SMOOTH_WINDOW = 5


class TableBand:
    """The band of table round the board paper, as :mod:`companion.vision.hands` reads a band:
    a loop (board mm, z = 0) sampled every ``step`` mm, :attr:`hand_band` wide."""

    hand_band = (TABLE_BAND_MM[0], TABLE_BAND_MM[1])

    def band_loop(self, step: float = 3.0, outside: bool = False) -> np.ndarray:
        x0, y0, x1, y1 = BOARD.extent_mm
        d = PAPER_MARGIN_MM + TABLE_BAND_MM[0]
        corners = np.array([[x0 - d, y0 - d], [x1 + d, y0 - d], [x1 + d, y1 + d], [x0 - d, y1 + d]])
        out = []
        for a, b in zip(corners, np.roll(corners, -1, axis=0)):
            n = max(1, int(np.linalg.norm(b - a) // step))
            t = np.arange(n)[:, None] / n
            out.append(a + (b - a) * t)
        return np.concatenate(out)


@dataclass(frozen=True)
class TableCheck:
    """The longest stretch of the table band (mm) unlike the table, and its mean anomaly; of it,
    the longest stretch smooth on a grained table (mm, :data:`SMOOTH_GRAIN`)."""

    run_mm: float
    score: float = 0.0
    smooth_mm: float = 0.0

    @property
    def hand(self) -> bool:
        return self.run_mm >= MIN_ARM_RUN_MM


def table_crossing(image: np.ndarray, geo: BoardGeometry, hidden: np.ndarray | None = None,
                   step: float = 3.0) -> TableCheck:
    """Does an arm cross the table round the board? An arm reaching the board comes from a
    player outside it, so it crosses the table band (:class:`TableBand`) on its way, where
    nothing of the game stands. The band is compared with itself
    (:func:`companion.vision.hands.anomaly`); ``hidden`` (frame-size mask): what towers read
    lean over the band, which is not judged. A stretch darker than the table but of its colour
    (and, on a grained top, as grained) is a tower's shadow, allowed to be much darker."""
    layout = TableBand()
    feats, inside, _ = band.band_features(image, geo.view, layout, hidden)
    ok = inside
    if ok.sum() < 20:
        return TableCheck(0.0)
    med = np.median(feats[ok, :4], axis=0)
    chroma_off = np.hypot(feats[:, 0] - med[0], feats[:, 1] - med[1])
    darker = feats[:, 2] < med[2] - 6.0
    grained = feats[:, 3] > 0.5 * med[3] if med[3] > 1.0 else np.ones(len(feats), bool)
    feats = feats.copy()
    # the light in a shadow is the room's ambient light, often bluer than the lamp or the sun:
    # a shadow may lean towards blue (blue chroma up, red down by as much), never towards red
    d0, d1 = feats[:, 0] - med[0], feats[:, 1] - med[1]
    bluer = (d0 > 0) & (d1 < 0) & (chroma_off < SHADOW_BLUE) & (np.abs(d0 + d1) < 0.5 * chroma_off)
    feats[:, 4] = (darker & ((chroma_off < SHADOW_CHROMA) | bluer) & grained).astype(np.float32)
    z = band.anomaly(feats, ok)
    best, score = 0, 0.0
    for s, n in band._runs(z > TABLE_ANOMALY):
        if n > best:
            idx = (s + np.arange(n)) % len(z)
            best, score = n, float(z[idx].mean())
    smooth = smooth_run(feats[:, 3], ok, float(med[3])) * step
    return TableCheck(max(best * step, smooth), score, smooth)


def smooth_run(texture: np.ndarray, seen: np.ndarray, grain: float) -> int:
    """The longest stretch of band positions (a count) smooth on a grained table: where no
    position seen within :data:`SMOOTH_WINDOW` is as textured as :data:`SMOOTH_GRAIN` of the
    table's median texture ``grain``. Skin and sleeves are smooth; wood, even of their colour,
    is not for long (its grain shows every few mm). 0 on a plain table."""
    if grain <= 1.0 or len(texture) < SMOOTH_WINDOW:
        return 0
    t = np.where(seen, texture, np.inf)
    half = SMOOTH_WINDOW // 2
    idx = (np.arange(len(t))[:, None] + np.arange(-half, half + 1)[None, :]) % len(t)
    flat = (t[idx].max(axis=1) < SMOOTH_GRAIN * grain) & seen
    return max((n for _, n in band._runs(flat)), default=0)


def towers_mask(shape: tuple[int, int], geo: BoardGeometry, heights: np.ndarray, pad_px: int = 3) -> np.ndarray:
    """Frame pixels (frame-size mask) the towers read cover, each as its box from the board to
    its top plus a flag's height (the band is not judged where a tower leans over it)."""
    from companion.vision.terra.kit import POLE_HEIGHT

    mask = np.zeros(shape, np.uint8)
    tall = np.nonzero(np.asarray(heights) > 0)[0]
    if len(tall):
        boxes = geo.towers_corners(tall, np.asarray(heights)[tall])
        boxes[:, 4:, 2] += POLE_HEIGHT
        px = np.round(geo.project(boxes) * 16).astype(np.int32)   # one projection for all
        for box in px:
            cv2.fillConvexPoly(mask, cv2.convexHull(box), 1, cv2.LINE_8, 4)
    if pad_px > 0:
        mask = cv2.dilate(mask, np.ones((2 * pad_px + 1, 2 * pad_px + 1), np.uint8))
    return mask


# ------------------------------------------------------------------ the arm's body on the table
#: the table round the board looked at for an arm's body: from this far beyond the printed board
#: (mm; the paper's margin and 6 mm more) ...
BODY_FROM_MM = PAPER_MARGIN_MM + 6.0
#: ... to this far beyond it (mm)
BODY_TO_MM = 220.0
#: a table pixel this unlike the table (the band's anomaly, at a quarter of the frame's
#: resolution, blurred 3×3) may be part of an arm's body. Low: skin over a table of nearly its
#: colour differs by 2–3 along most of its length (a wrist over blurred grain, arms benchmark
#: seed 33 frame 7, by under 2 in places); what keeps the table out is the body's shape. On 190
#: corpus frames without an arm (the first 40 of seeds 8–11, 30 daylight frames of seed 8) the
#: bodies this unlike the table cover up to 6000 mm² out on the table, or 2900 mm² at the
#: paper's edge, never both, down to 1.2
BODY_ANOMALY = 1.8
#: thinner than this (mm) is not an arm (an opening with a disc this wide): wood grain, a
#: tower's thin shadow, the outline of the paper
BODY_WIDTH_MM = 20.0
#: an arm's body reaches within this (mm) of the board's paper (it is over the board) ...
BODY_NEAR_MM = 15.0
#: ... and this far out (mm) from it, or the frame's edge: a player reaches in from outside
BODY_REACH_MM = 150.0
#: and covers at least this much table (mm²; a forearm 60 mm wide over 150 mm is 9000). On the
#: arms benchmark (seeds 31, 33, 35, 37) the bodies of the arms the other checks missed cover
#: 9600–44000 mm²
MIN_BODY_MM2 = 7000.0


def _rect_loop(d: float, n: int = 24) -> np.ndarray:
    """The rectangle ``d`` mm beyond the printed board (board mm, z = 0), ``n`` points a side
    (the lens bends its sides)."""
    x0, y0, x1, y1 = BOARD.extent_mm
    c = np.array([[x0 - d, y0 - d], [x1 + d, y0 - d], [x1 + d, y1 + d], [x0 - d, y1 + d]])
    t = np.arange(n)[:, None] / n
    pts = np.concatenate([a + (b - a) * t for a, b in zip(c, np.roll(c, -1, axis=0))])
    return np.column_stack([pts, np.zeros(len(pts))])


#: the four loops :func:`reaching_body` draws (the paper's edge, the near zone's, the reach's,
#: the outer edge), stacked for one projection
_BODY_LOOPS = np.stack([_rect_loop(d) for d in (BODY_FROM_MM, BODY_FROM_MM + BODY_NEAR_MM,
                                                BODY_FROM_MM + BODY_REACH_MM, BODY_TO_MM)])


def reaching_body(image: np.ndarray, geo: BoardGeometry, markers: tuple = (),
                  leaning: np.ndarray | None = None, scale: int = 4) -> float:
    """The table covered (mm²) by the largest body unlike the table that reaches from the
    board's paper out across the table (:data:`BODY_NEAR_MM`, :data:`BODY_REACH_MM`): an arm
    over the board, seen on the table between the board and the player, where the table band
    alone misses it (skin of nearly the table's colour breaks its crossing into short
    stretches; a hand at the band's corner; the band hidden by what is read under the arm).

    Each table pixel (a quarter of the frame's resolution) is compared with the table round the
    board as the band is (colour, brightness, grain; darker and of the table's colour or bluer
    is the table in a shadow, allowed). ``markers``: detections whose paper is left out;
    ``leaning``: frame pixels towers read cover (not table)."""
    h, w = image.shape[:2]
    loops = geo.project(_BODY_LOOPS)
    if not np.isfinite(loops).all():
        return 0.0
    lo = np.clip(np.floor(loops[3].min(axis=0)), 0, [w, h]).astype(int) // scale * scale
    hi = np.clip(np.ceil(loops[3].max(axis=0)), 0, [w, h]).astype(int) // scale * scale
    if hi[0] - lo[0] < 16 * scale or hi[1] - lo[1] < 16 * scale:
        return 0.0
    sw, sh = (hi[0] - lo[0]) // scale, (hi[1] - lo[1]) // scale
    # the mean of each scale × scale block: halvings by bilinear interpolation, each the mean
    # of 2 × 2 pixels (INTER_AREA's result to rounding, in a third of its time)
    small = image[lo[1]:hi[1], lo[0]:hi[0]]
    f = scale
    while f > 1 and f % 2 == 0:
        f //= 2
        small = cv2.resize(small, (sw * f, sh * f), interpolation=cv2.INTER_LINEAR)
    if f > 1:
        small = cv2.resize(small, (sw, sh), interpolation=cv2.INTER_AREA)
    org = lo.astype(float)

    def fill(p: np.ndarray) -> np.ndarray:
        m = np.zeros((sh, sw), np.uint8)
        cv2.fillPoly(m, [np.round((p - org) / scale * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
        return m

    inner, near, reach, outer = (fill(p) for p in loops)
    sel = outer & (1 - inner)
    for d in markers:
        c = np.asarray(d.corners, float)
        cc = c.mean(axis=0)
        q = (cc + (c - cc) * 1.6 - org) / scale
        cv2.fillConvexPoly(sel, np.round(q).astype(np.int32), 0)
    if leaning is not None:  # every scale-th pixel: the towers' boxes are padded already
        lean = leaning[lo[1]:hi[1]:scale, lo[0]:hi[0]:scale][:sh, :sw]
        sel &= 1 - lean
        # what towers read on the board's edge rows cover is not judged, so a body reaching
        # the board under them (an arm's own surface read as towers) touches their boxes
        near = near | cv2.dilate(lean & outer, np.ones((3, 3), np.uint8), iterations=2)
    on = sel > 0
    if np.count_nonzero(on) < 200:
        return 0.0
    lg = cv2.log(small.astype(np.float32) + 4.0)
    bl, gl, rl = cv2.split(lg)
    b = (bl + gl + rl) * (band._SCALE / 3.0)
    f0 = bl * band._SCALE - b
    f1 = rl * band._SCALE - b
    local = cv2.blur(b, (3, 3))
    tex = cv2.sqrt(np.maximum(cv2.blur(b * b, (3, 3)) - local * local, 0.0))
    # the table's look from about 2000 of its pixels, evenly spread
    pick = np.flatnonzero(on)
    pick = pick[::max(1, len(pick) // 2000)]
    stats = np.stack([f0.ravel()[pick], f1.ravel()[pick], b.ravel()[pick], tex.ravel()[pick]], axis=1)
    med = np.median(stats, axis=0)
    spread = np.maximum(np.median(np.abs(stats - med), axis=0) * 1.4826, [0.6, 0.6, 2.0, 0.4])
    d0, d1 = f0 - np.float32(med[0]), f1 - np.float32(med[1])
    off = cv2.magnitude(d0, d1)
    z_chroma = cv2.magnitude(d0 * np.float32(0.8 / spread[0]), d1 * np.float32(0.8 / spread[1]))
    bright_hi = float(np.quantile(stats[:, 2], 0.97))
    lit = np.maximum(b - np.float32(bright_hi), np.float32(med[2] - 10.0) - b)  # too bright or dark
    z = np.maximum(z_chroma, lit * np.float32(1.0 / spread[2]))
    if med[3] > 1.0:  # a smooth stretch of a grained table
        z = np.maximum(z, (np.float32(med[3]) - tex) * np.float32(0.8 / spread[3]))
    # the table in a shadow: darker, of its colour or bluer (the room's ambient light); there
    # only the colour off the table's-to-blue line counts, and much darkness
    bluer = (d0 > 0) & (d1 < 0) & (off < SHADOW_BLUE) & (np.abs(d0 + d1) < 0.5 * off)
    shadow = (b < med[2] - 6.0) & ((off < SHADOW_CHROMA) | bluer)
    if med[3] > 1.0:
        shadow &= tex > 0.5 * med[3]
    off_line = np.abs(d0 + d1) * np.float32(0.8 / np.sqrt(2.0) / spread[0])
    z_shadow = np.maximum(np.where(bluer, off_line, z_chroma / 3.0),
                          (np.float32(med[2] - 45.0) - b) * np.float32(1.0 / spread[2]))
    z = cv2.blur(np.where(shadow, z_shadow, z).astype(np.float32), (3, 3))
    ppm = geo.px_per_mm(0.0) / scale
    body = ((z > BODY_ANOMALY) & on).astype(np.uint8)
    k = max(1, int(round(BODY_WIDTH_MM * ppm)))
    if k > 1:
        body = cv2.morphologyEx(body, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if not cv2.countNonZero(body & near):
        return 0.0  # the usual case: nothing unlike the table at the paper's edge
    n, lab, st, _ = cv2.connectedComponentsWithStats(body, connectivity=8)
    close = np.bincount(lab[near > 0], minlength=n) > 0
    far = np.bincount(lab[reach == 0], minlength=n) > 0
    for side, at in ((lab[:, 0], lo[0] <= 0), (lab[:, -1], hi[0] >= w - scale),
                     (lab[0, :], lo[1] <= 0), (lab[-1, :], hi[1] >= h - scale)):
        if at:  # the frame's edge: the arm comes from beyond it
            far[side] = True
    out = np.flatnonzero(close & far)
    out = out[out > 0]
    if not len(out):
        return 0.0
    return float(st[out, cv2.CC_STAT_AREA].max()) / ppm ** 2
