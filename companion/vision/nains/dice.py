"""The dice in the tray: each die's top face.

The tray is looked at in a top-down picture of the plane of the dice's tops (``z`` = 16 mm):
there a die's top face shows as a true 16 mm square, and its sides (seen at a slant) show
beyond it, towards the camera's foot. Every face of a colour die has its own colour, so each
face is a region of one colour; a region the size and shape of a die's face is a face, and it is
the *top* face when nothing of the die lies beyond it, away from the camera (beyond a side face
lies the top).

The top face is then read: a colour die's face is the colour most of its pixels take (yellow,
orange, red, violet, white or blue: the learned colours). The kobold die is ivory with black
marks: a white-looking top with dark marks is the kobold die, read by its marks (one small pip:
``1``, two: ``2``, one large mark: the kobold's head). Its blank face looks like a colour die's
white face; when four dice lie in the tray and none shows marks, one of the white faces is the
kobold die's blank (``0``).

Around a die the picture shows anything but its top's colour (the mat, or a die touching it);
a die fitted poorly must show its top's colour over most of its top (a side face seen at a
slant, or a shadow, fills it in part), and no two dice's footprints overlap. The kit has three
colour dice and the kobold die: the best fitted are kept, no more.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.nains.kit import COLOUR_FACES, DIE_MM
from companion.vision.nains.marks import marks
from companion.vision.nains.fitting import Fitter, samples
from companion.vision.nains.pixels import Background, FrameColours
from companion.vision.nains.planes import Plane, plane_picture, sweep
from companion.vision.nains.zones import Rect

PPM = 2.0
#: a mark is this much darker (L*) than the face around it
MARK_CONTRAST = 25.0
#: the kit's dice: three colour dice and the kobold die
COLOUR_DICE = 3
KOBOLD_DICE = 1


@dataclass(frozen=True)
class DieReading:
    """A die found in the tray: which die (``colour`` or ``kobold``), its top ``face``, the
    reader's confidence, and where its top lies (table mm, degrees)."""

    die: str
    face: str
    conf: float
    centre: tuple[float, float]
    yaw_deg: float


def read_tray(image: np.ndarray, view: View, tray: Rect, colours: FrameColours,
              mat: Background | None = None) -> list[DieReading]:
    """The dice lying in ``tray`` (see the module docstring); ``mat``: the mat's colour, or
    None to measure it on the tray itself."""
    plane = plane_picture(image, view, tray, DIE_MM, PPM)
    pic = plane.image
    h, w = pic.shape[:2]
    outside = ~_mat_mask(plane, view, tray)
    if mat is None:  # the mat measured on the whole tray: its shadows with it
        mat = Background.fit(colours.lab_of(pic[~outside]))
    lp = colours.classes(pic.reshape(-1, 3), mat).reshape(h, w, -1)  # mat, then colours.names
    lab = colours.lab_of(pic.reshape(-1, 3))
    lp[outside] = np.log(np.eye(lp.shape[2])[0] * (1 - 1e-3) + 1e-3 / lp.shape[2])
    names = colours.names
    white, dark = 1 + names.index("white"), 1 + names.index("dark")
    # one more class: the kobold die's face, ivory with black marks
    ivory = np.logaddexp(lp[:, :, white], lp[:, :, dark])
    inside = _within_light(lp[:, :, white] > np.log(0.5), DIE_MM * PPM) & ~outside
    ivory[inside] = np.maximum(ivory[inside], np.log(MARK_SEEN))
    lp = np.concatenate([lp, ivory[:, :, None]], axis=2)
    fitter = Fitter(plane, lp, view.pose.camera_position)
    tops = [1 + i for i, n in enumerate(names) if n in COLOUR_FACES and n != "white"] + [lp.shape[2] - 1]
    side = DIE_MM * PPM
    solid = ((lp[:, :, 0] < np.log(0.5)) & ~outside).astype(np.uint8)
    solid = cv2.morphologyEx(solid, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    solid[inside] = 1
    cands = _candidates(solid, plane, view, lp, tops, side)
    fitted: list[tuple[float, int, np.ndarray]] = []
    for xy, yaw in cands:
        score, c, pose = _fit_die(fitter, tops, xy, yaw, white)
        if score >= MIN_SCORE and (score >= SURE_SCORE or _top_fill(fitter, c, pose) >= MIN_FILL):
            fitted.append((score, c, pose))
    fitted.sort(key=lambda t: -t[0])
    out: list[DieReading] = []
    for score, c, pose in fitted:
        if any(_overlap(pose, o) > MAX_OVERLAP for o in out):
            continue
        die, face, conf = _read_face(lab, names, fitter, pose, (h, w), side)
        reading = DieReading(die, face, conf * _sure(score), (float(pose[0]), float(pose[1])),
                             float(pose[3] % 90.0))
        if _room_for(reading, out):
            out.append(reading)
    return _blank_kobold(out)


#: two dice's footprints overlapping more than this share of a face are one die read twice (a
#: side face, or a die's shadow, taken for another die's top)
MAX_OVERLAP = 0.1


def _overlap(pose: np.ndarray, other: DieReading) -> float:
    """How much of a die's footprint at ``pose`` the die ``other`` covers (share of a face)."""
    a = cv2.boxPoints(((float(pose[0]), float(pose[1])), (DIE_MM, DIE_MM), float(pose[3]))).astype(np.float32)
    b = cv2.boxPoints((other.centre, (DIE_MM, DIE_MM), other.yaw_deg)).astype(np.float32)
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area) / (DIE_MM * DIE_MM)


def _room_for(reading: DieReading, found: list[DieReading]) -> bool:
    """Whether the kit has a die left for ``reading`` beside the (better fitted) ``found``:
    three colour dice and the kobold die, whose blank face reads as a white face."""
    marked = sum(d.die == "kobold" for d in found)
    colour = sum(d.die == "colour" for d in found)
    if reading.die == "kobold":
        return marked < KOBOLD_DICE
    if reading.face == "white":
        return colour < COLOUR_DICE + KOBOLD_DICE - marked
    plain = sum(d.die == "colour" and d.face != "white" for d in found)
    return plain < COLOUR_DICE and colour < COLOUR_DICE + KOBOLD_DICE - marked


#: how likely a pixel that a light face closes round is the kobold die's face (its mark)
MARK_SEEN = 0.6


def _within_light(light: np.ndarray, side: float) -> np.ndarray:
    """What light pixels close round, a few millimetres across: the kobold die's marks on its
    ivory face (the kobold's head fills half the face, and blurred it can look as grey as a
    grey mat)."""
    k = int(round(0.75 * side)) | 1
    kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    m = light.astype(np.uint8)
    return (cv2.morphologyEx(m, cv2.MORPH_CLOSE, kern) > 0) & ~light


def _candidates(solid: np.ndarray, plane: Plane, view: View, lp: np.ndarray, tops: list[int],
                side: float) -> list[tuple[np.ndarray, float]]:
    """Where dice's tops may be (table mm) and how they are turned: each blob of what is not
    the mat, eroded back along its sweep (see the module docstring); where several dice touch
    and their tops stay joined, the places where a top's colour fills a die's face."""
    out = []
    n, labels, stats, cents = cv2.connectedComponentsWithStats(solid, connectivity=8)
    box = max(3, int(round(0.6 * side)))
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < 0.4 * side * side:
            continue
        blob = (labels == k).astype(np.uint8)
        centre = plane.to_table(cents[k][None, :])[0]
        d = sweep(view, (float(centre[0]), float(centre[1])), DIE_MM, 0.0) * PPM
        d[1] = -d[1]  # table y up, picture rows down
        kern, anchor = _line_kernel(d * 0.9)
        top = cv2.erode(blob, kern, anchor=anchor, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        m, tl, ts, tc = cv2.connectedComponentsWithStats(top, connectivity=8)
        for j in range(1, m):
            if ts[j, cv2.CC_STAT_AREA] < 0.3 * side * side:
                continue
            pts = np.column_stack(np.nonzero(tl == j)[::-1]).astype(np.float32)
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
            if max(rw, rh) <= 1.4 * side:
                out.append((plane.to_table(np.array([[cx, cy]]))[0], -float(ang)))
        # and wherever a top's colour fills a face-sized square (a die whose sides are in
        # shadow erodes to nothing; dice touching erode to joined tops)
        for c in tops:
            f = cv2.boxFilter(np.exp(lp[:, :, c]) * blob, -1, (box, box))
            peaks = (f >= 0.6) & (f == cv2.dilate(f, np.ones((15, 15), np.uint8)))
            for y, x in zip(*np.nonzero(peaks)):
                xy = plane.to_table(np.array([[x, y]]))[0]
                if all(np.hypot(*(xy - o[0])) > 0.5 * DIE_MM for o in out):
                    out.append((xy, None))
    return out


#: a die fitted worse than this (mean log-posterior) is not a die
MIN_SCORE = -1.2


#: a die fitted worse than this must show its top's colour over :data:`MIN_FILL` of its top (a
#: die's side face seen at a slant, or its shadow, fills a die's top only in part)
SURE_SCORE = -0.8
MIN_FILL = 0.6


def _top_fill(fitter: "Fitter", c: int, pose: np.ndarray) -> float:
    """The share of a die's top (its sample points) at ``pose`` that shows class ``c``."""
    S = samples("die")
    X = fitter._place(S.face_pts[S.face_top], pose[None, :])
    return float((fitter.values(X, c)[0] > np.log(0.5)).mean())


def _sure(score: float) -> float:
    """How far a fit's score is from a poor one, as a factor of the confidence."""
    return float(np.clip(0.8 + (score - MIN_SCORE) / 4.0, 0.8, 1.0))


def _fit_die(fitter: "Fitter", tops: list[int], xy: np.ndarray, yaw: float | None,
             white: int | None = None) -> tuple[float, int, np.ndarray]:
    """The best place, turn and top class of a die near ``xy`` (turned about ``yaw``): the top's
    class first (the one its middle shows best), then the place and turn for it."""
    pose = np.array([xy[0], xy[1], 0.0, 0.0 if yaw is None else yaw])
    start = np.tile(pose, (len(tops), 1))
    c = tops[int(np.argmax(fitter.score("die", start, np.array(tops), -2, ring=False)))]
    # a light face is placed by its light pixels alone: its marks are small, and the die's own
    # shadow beside it is as dark as they are
    placing = white if c == tops[-1] and white is not None else c
    best_score, best = -np.inf, pose
    rounds = [(3.0, 1.5, np.arange(-9.0, 9.1, 4.5))] if yaw is not None else \
        [(4.0, 2.0, np.arange(0.0, 90.0, 9.0))]
    rounds.append((1.0, 0.5, np.arange(-3.0, 3.1, 1.5)))
    for k, (span, step, dyaw) in enumerate(rounds):
        offs = np.arange(-span, span + 1e-9, step)
        yaws = dyaw if (yaw is None and k == 0) else best[3] + dyaw if k else pose[3] + dyaw
        gx, gy, gz = np.meshgrid(best[0] + offs, best[1] + offs, yaws, indexing="ij")
        poses = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size), gz.ravel()])
        scores = fitter.score("die", poses, placing, -2, ring_cls=-10 - placing)
        j = int(np.argmax(scores))
        if scores[j] > best_score:
            best_score, best = float(scores[j]), poses[j]
    if placing != c:
        best_score = float(fitter.score("die", best[None, :], c, -2, ring_cls=-10 - c)[0])
    return best_score, c, best


def _line_kernel(d: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """A structuring element holding the segment from its anchor to ``d`` (pixels)."""
    dx, dy = int(round(d[0])), int(round(d[1]))
    w, h = abs(dx) + 1, abs(dy) + 1
    k = np.zeros((h, w), np.uint8)
    ax, ay = (0 if dx >= 0 else w - 1), (0 if dy >= 0 else h - 1)
    cv2.line(k, (ax, ay), (ax + dx, ay + dy), 1, 1)
    return k, (ax, ay)


def _blank_kobold(dice: list[DieReading]) -> list[DieReading]:
    """Four dice and no marks: one white face is the kobold die's blank (the least sure one)."""
    if len(dice) != 4 or any(d.die == "kobold" for d in dice):
        return dice
    whites = [i for i, d in enumerate(dice) if d.face == "white"]
    if not whites:
        return dice
    k = min(whites, key=lambda i: dice[i].conf)
    out = list(dice)
    out[k] = replace(dice[k], die="kobold", face="0")
    return out


def _mat_mask(plane: Plane, view: View, tray: Rect) -> np.ndarray:
    """Where the mat lies in the picture of the plane of the dice's tops (the mat lies lower, so
    it shows shifted towards the camera), a little inside its edge."""
    h, w = plane.image.shape[:2]
    corners = tray.grown(-2.0).corners()
    px = view.project(np.column_stack([corners, np.zeros(4)]))
    # the mat's corners as seen, brought to the plane of the dice's tops
    seen = view.unproject_to_plane(px, DIE_MM)[:, :2]
    poly = plane.to_px(seen)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask > 0


def _face_pixels(shape: tuple[int, int], centre: tuple[float, float], ang: float, half: float) -> np.ndarray:
    box = cv2.boxPoints(((centre[0], centre[1]), (2 * half, 2 * half), ang))
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(box * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask.ravel() > 0


def _read_face(lab: np.ndarray, names: tuple[str, ...], fitter: "Fitter",
               pose: np.ndarray, shape: tuple[int, int], side: float) -> tuple[str, str, float]:
    """The top face's colour (the colour whose posterior its points have most), or the kobold
    die's marks on a white-looking face."""
    keep = [1 + i for i, n in enumerate(names) if n in COLOUR_FACES]
    scores = np.array([fitter.score("die", pose[None, :], c, -2, ring=False)[0] for c in keep])
    p = np.exp(4.0 * (scores - scores.max()))
    best = int(np.argmax(scores))
    conf = float(p[best] / p.sum())
    face = names[keep[best] - 1]
    if face == "white":
        label, sure = _marks(lab[:, 0].reshape(shape), fitter.plane, pose)
        if label != "0":
            return "kobold", label, sure
        return "colour", "white", min(conf, 0.99)
    return "colour", face, min(conf, 0.995)


#: the face patch compared with the marks: its resolution and the blur of a webcam's picture
PATCH_PPM = 2.0
PATCH_BLUR_MM = 0.9


def _patch(L: np.ndarray, plane: Plane, pose: np.ndarray) -> np.ndarray:
    """The top face's lightness, squared to the die (rows from its +y edge down)."""
    n = int(round(DIE_MM * PATCH_PPM))
    t = (np.arange(n) + 0.5) / PATCH_PPM - DIE_MM / 2
    gx, gy = np.meshgrid(t, -t)
    a = np.radians(pose[3])
    x = pose[0] + np.cos(a) * gx - np.sin(a) * gy
    y = pose[1] + np.sin(a) * gx + np.cos(a) * gy
    px = plane.to_px(np.column_stack([x.ravel(), y.ravel()])).astype(np.float32)
    return cv2.remap(L.astype(np.float32), px[:, 0].reshape(n, n), px[:, 1].reshape(n, n),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=8)
def _templates() -> dict[str, list[np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {}
    for label in ("1", "2", "kobold"):
        m = cv2.GaussianBlur(marks(label, PATCH_PPM), (0, 0), PATCH_BLUR_MM * PATCH_PPM)
        out[label] = [np.rot90(m, k).copy() for k in range(4)]
    return out


def _marks(L: np.ndarray, plane: Plane, pose: np.ndarray) -> tuple[str, float]:
    """The kobold die's marks on a light face (``0`` when bare), by comparing the face's
    darkness with each face's marks at each quarter turn."""
    patch = _patch(L, plane, pose)
    n = patch.shape[0]
    b = max(1, int(round(1.2 * PATCH_PPM)))
    inner = np.zeros_like(patch, bool)
    inner[b:n - b, b:n - b] = True
    ref = float(np.percentile(patch[inner], 80))
    low = float(np.percentile(patch[inner], 3))
    if ref - low < MARK_CONTRAST:
        return "0", 0.9
    dark = np.clip((ref - patch) / (ref - low), 0.0, 1.0)
    errors = {"0": float((dark[inner] ** 2).mean())}
    for label, rots in _templates().items():
        errors[label] = min(float(((dark - t)[inner] ** 2).mean()) for t in rots)
    ranked = sorted(errors.items(), key=lambda kv: kv[1])
    best, second = ranked[0], ranked[1]
    sure = float(np.clip(0.5 + (second[1] - best[1]) / max(second[1], 1e-6), 0.5, 0.97))
    return best[0], sure
