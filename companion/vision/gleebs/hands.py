"""Is a hand or an arm over the board? Then nothing in the frame is read as a position.

Two signs, either enough:

* **something unexplained**: after the stacks are read, pixels over the squares (and a ring
  around them) that are neither paper nor print nor any read stack's picture. A hand, a sleeve,
  fingers round a pyramid leave a large patch; a stack's shadow is paper, and a piece's own
  fringe is a thin rim that the stack's picture, widened a little, covers. A small patch that
  lies wholly beside a read stack (a pyramid's outline fitted a little turned or short, a
  shadow's coloured edge) is that stack's residue, not a hand: a hand reaching for a pyramid
  is joined to its arm and runs far beyond it;
* **print gone missing**: the grid's lines must show wherever no stack stands on them. An arm
  in a white sleeve or a pale hand can look like paper in colour, but it hides the lines. Each
  line is sampled every millimetre; its contrast with the paper beside it is compared with what
  the same kind of line shows elsewhere in the frame (so blur, noise and light do not matter),
  and a long stretch of missing line is a hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.boards import GLEEBS_BOARD, BoardSpec
from companion.vision.gleebs.board import Rectifier
from companion.vision.gleebs.labels import OTHER, PAPER

#: an unexplained patch larger than this (mm²) is a hand
PATCH_MM2 = 100.0
#: a patch mostly (OTHER_SHARE) of no piece's colour, skin or a sleeve, counts from this size
#: (mm²): the edge of an arm passing over a corner of the board
FOREIGN_MM2 = 40.0
OTHER_SHARE = 0.6
#: unexplained patches this large in all (mm²; specks below SPECK_MM2 not counted) are a hand
#: whose outline alone shows (a pale hand in an overexposed frame)
SPREAD_MM2 = 400.0
SPECK_MM2 = 3.0
#: an unexplained patch smaller than FRINGE_MM2 (mm²) lying wholly within NEAR_MM of a read
#: stack's picture is that stack's residue (its outline fitted a little off): no hand
NEAR_MM = 12.0
FRINGE_MM2 = 250.0
#: the ring around the squares that counts as over the board (mm)
RING_MM = 15.0
#: a stretch of grid line this long (mm) hidden where no stack stands is a hand; or this much
#: in all
RUN_MM = 10.0
TOTAL_MM = 24.0
#: a line sample is missing when its contrast is below this share of the typical contrast
MISSING_SHARE = 0.35
#: paper beside a line at least this share of the lit sheet's brightness is uncovered
LIT_SHARE = 0.93
#: contrast noise is never taken below this (JPEG and the 8-bit scale leave at least this much)
NOISE_FLOOR = 0.006
#: a line is judged only when its contrast stands this many noise deviations above blank paper
MIN_SIGNAL = 8.0


@dataclass(frozen=True)
class HandCheck:
    """What the hand check found: ``hand`` and why (the largest unexplained patch in mm², the
    longest and total stretch of hidden grid line in mm, all unexplained patches in mm²)."""

    hand: bool
    patch_mm2: float
    run_mm: float
    hidden_mm: float
    spread_mm2: float = 0.0


def _play_area(rect: Rectifier, spec: BoardSpec) -> tuple[int, int, int, int]:
    r = RING_MM
    a = rect.to_px(np.array([[-r, -r], [spec.width_mm + r, spec.height_mm + r]]))
    x0, y0 = max(int(np.floor(a[:, 0].min())), 0), max(int(np.floor(a[:, 1].min())), 0)
    x1 = min(int(np.ceil(a[:, 0].max())) + 1, rect.width)
    y1 = min(int(np.ceil(a[:, 1].max())) + 1, rect.height)
    return x0, y0, x1, y1


def unexplained(rect: Rectifier, labels: np.ndarray, ink: np.ndarray, explained: np.ndarray,
                spec: BoardSpec = GLEEBS_BOARD, near: np.ndarray | None = None,
                ) -> tuple[float, float, float]:
    """Over the play area, what is not paper, print or a read stack: the largest patch (mm²),
    all patches together (mm²; specks left out), and the largest patch of mostly no piece's
    colour (skin, a sleeve's shading; mm²). ``near``: where a small patch lying wholly inside
    is a read stack's residue and not counted."""
    x0, y0, x1, y1 = _play_area(rect, spec)
    lab = labels[y0:y1, x0:x1]
    fg = ((lab != PAPER) & (ink[y0:y1, x0:x1] == 0) & (explained[y0:y1, x0:x1] == 0)).astype(np.uint8)
    # thin fringes round the stacks (blur, a shadow's edge) are not a hand: only what is at
    # least a millimetre or two thick counts
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    n, comp, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if n <= 1:
        return 0.0, 0.0, 0.0
    mm2 = rect.ppm ** 2
    areas = stats[1:, cv2.CC_STAT_AREA].astype(float)
    counted = np.ones(n - 1, bool)
    if near is not None:
        beyond = np.bincount(comp[near[y0:y1, x0:x1] == 0], minlength=n)[1:]
        counted = (beyond > 0) | (areas >= FRINGE_MM2 * mm2)
    if not counted.any():
        return 0.0, 0.0, 0.0
    others = np.bincount(comp[lab == OTHER], minlength=n)[1:].astype(float)[counted]
    areas = areas[counted]
    foreign = areas[others >= OTHER_SHARE * areas]
    speck = SPECK_MM2 * mm2
    return (float(areas.max()) / mm2, float(areas[areas >= speck].sum()) / mm2,
            float(foreign.max()) / mm2 if len(foreign) else 0.0)


def _contrast(rect: Rectifier, grey: np.ndarray, explained: np.ndarray, spec: BoardSpec,
              shift: float) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each grid line's contrast every millimetre (lines × samples), read ``shift`` mm beside
    where the line is printed (0: on it; elsewhere: blank paper, how much contrast noise alone
    makes), which samples can be judged (in the picture, no stack standing there), how bright
    the paper beside the line is, and how bright its lighter side is."""
    s = spec.square_mm
    ts = np.arange(3.0, spec.width_mm - 2.9, 1.0)  # clear of the crossing border lines
    across = np.array([-3.0, -2.5, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0])
    near = np.abs(across) <= 1.0
    far = np.abs(across) >= 2.0
    kinds, pts = [], []
    for vertical, count in ((True, spec.cols), (False, spec.rows)):
        for k in range(count + 1):
            # lines are compared within their group: their print and how the camera's tilt
            # thins them are alike
            kinds.append(("x-" if vertical else "y-") + ("border" if k in (0, count) else "inner"))
            pos = k * s + (shift if k == 0 else -shift)
            if vertical:
                pts.append(np.stack(np.broadcast_arrays(pos + across[None, :], ts[:, None]), axis=-1))
            else:
                pts.append(np.stack(np.broadcast_arrays(ts[:, None], pos + across[None, :]), axis=-1))
    allxy = np.stack(pts)                                   # (lines, samples, across, 2)
    px = rect.to_px(allxy.reshape(-1, 2)).astype(np.float32).reshape(allxy.shape)
    h, w = grey.shape
    n = len(kinds)
    vals = cv2.remap(grey, px[..., 0].reshape(n, -1), px[..., 1].reshape(n, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0).reshape(allxy.shape[:3])
    inside = np.all(vals >= 0, axis=2)
    ix = np.clip(np.round(px[..., 0]).astype(int), 0, w - 1)
    iy = np.clip(np.round(px[..., 1]).astype(int), 0, h - 1)
    covered = np.any(explained[iy, ix] > 0, axis=2)
    line = vals[:, :, near].min(axis=2)
    paper = np.maximum(np.median(vals[:, :, far], axis=2), 1.0)
    lighter = np.maximum(np.median(vals[:, :, far & (across < 0)], axis=2),
                         np.median(vals[:, :, far & (across > 0)], axis=2))
    contrast = (paper - line) / paper
    kernel = np.ones(5) / 5
    contrast = np.stack([np.convolve(c, kernel, mode="same") for c in contrast])
    return kinds, contrast, inside & ~covered, paper, lighter


def hidden_lines(rect: Rectifier, grey: np.ndarray, explained: np.ndarray,
                 spec: BoardSpec = GLEEBS_BOARD) -> tuple[float, float]:
    """The longest and the total stretch (mm) of grid line that does not show where no stack
    stands on it.

    Every millimetre of every line, the plane is read across the line (from 3 mm on one side
    to 3 mm on the other): the line's darkness is the darkest reading within 1 mm of where it
    is printed, the paper's the middle of the readings beyond 2 mm. The same reading on blank
    paper beside each line says how much of that is noise; lines too faint to stand well above
    it in this frame (a far camera, heavy blur) are not judged."""
    kinds, contrast, usable, paper, lighter = _contrast(rect, grey, explained, spec, 0.0)
    _, null, null_ok, _, _ = _contrast(rect, grey, explained, spec, spec.square_mm / 4)
    # where the paper beside a line is as bright as the lit sheet, nothing covers the line: a
    # faint line lost in an overexposed sheet is not a hand (a hand, a sleeve or its shadow
    # never reads as bright as lit paper). One side is enough: a hand over a line covers the
    # paper on both sides of it, while a stack's dark foot or a shadow's edge beside a line
    # darkens one side and dims its contrast (two hand-free frames of the bench read a hand)
    lit = float(np.percentile(paper[usable], 90)) if usable.any() else 255.0
    darkened = usable & (lighter < LIT_SHARE * lit)
    pooled_null = null[null_ok]
    if len(pooled_null) < 20:
        return 0.0, 0.0
    med = float(np.median(pooled_null))
    noise = max(1.4826 * float(np.median(np.abs(pooled_null - med))), NOISE_FLOOR)
    runs: list[float] = [0.0]
    total = 0.0
    for group in sorted(set(kinds)):
        rows = [i for i, k in enumerate(kinds) if k == group]
        pooled = contrast[rows][usable[rows]]
        if len(pooled) < 20:
            continue
        typical = float(np.percentile(pooled, 75))
        if typical - med < MIN_SIGNAL * noise:
            continue  # these lines are too faint in this frame to tell a hidden one from noise
        for i in rows:
            c, u = contrast[i], usable[i]
            # each line against its own contrast, never less than a share of its group's (a
            # line a hand hides for most of its length must not set its own standard)
            own = float(np.median(c[u])) if u.sum() >= 30 else typical
            reference = max(own, 0.5 * typical)
            missing = darkened[i] & (c < med + MISSING_SHARE * (reference - med))
            total += float(missing.sum())
            run = 0
            for m in missing:
                run = run + 1 if m else 0
                runs.append(float(run))
    return max(runs), total


def check(rect: Rectifier, labels: np.ndarray, grey: np.ndarray, ink: np.ndarray,
          explained: np.ndarray, spec: BoardSpec = GLEEBS_BOARD) -> HandCheck:
    wide = cv2.dilate(explained, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    r = max(1, int(round(NEAR_MM * rect.ppm)))
    near = cv2.dilate(explained, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    patch, spread, foreign = unexplained(rect, labels, ink, wide, spec, near)
    run, total = hidden_lines(rect, grey, wide, spec)
    hand = (patch > PATCH_MM2 or foreign > FOREIGN_MM2 or spread > SPREAD_MM2 or run >= RUN_MM
            or total >= TOTAL_MM)
    return HandCheck(hand, patch, run, total, spread)
