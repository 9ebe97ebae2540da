"""Finding a seat's mountain: its cards, their slots, and which card lies in each.

A mountain is a brick pyramid: the cards of an étage lie side by side one pitch apart
(:data:`~companion.vision.altitude.layout.PITCH_MM`), and each étage lies half a card higher up
the seat's area and half a pitch to the side. Every card of a mountain therefore sits near a
point of one lattice, whatever the mountain's shape, and the lattice has only two free numbers
(where it starts along and across the area). So the reader:

1. looks at the seat's area from straight above, one pixel a millimetre (:mod:`.rectify`);
2. scores, at every point, how well a card's lower half would fit there: a card's white border
   shows brighter than the colour field just inside it along its bottom edge and up its two
   sides, and those three steps
   must all be there (:func:`outline_scores`; box filters, so it costs a few operations a pixel);
3. finds the lattice offsets that put the most card outlines on lattice points (the scores
   folded modulo the pitch: a few hundred additions), which no single card decides, and keeps
   the few best (a card's face may hold an edge that looks like a card's bottom);
4. reads every lattice point that looks like a card, from the top étage down, so that each card
   is compared only on the part of its face the cards above leave in view (:mod:`.faces`), on
   each of those lattices, and keeps the lattice whose cards the enrolled faces explain best;
5. numbers what it found: étage 1 is the lowest row holding a card, position 0 its leftmost
   card (``docs/observation/altitude.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.vision.altitude.faces import ALIGN_SHIFT_MM, BACK, CANON_PPM, CardMatcher, FaceMatch
from companion.vision.altitude.layout import AltitudeLayout, SeatArea
from companion.vision.altitude.rectify import Frame2, LazyPatch, PatchSpec, rectify
from companion.vision.camera import View

#: resolution of the area's overview (pixels a millimetre)
OVERVIEW_PPM = 1.0
#: how far around the area cards are looked for (mm): along, in front, behind
MARGIN_MM = (20.0, 8.0, 15.0)
#: where a card's white border runs (mm inside its edge) and how far inside it the colour
#: field is looked at
BORDER_MID_MM = 1.5
STEP_MM = 2.5
#: how far below a card's bottom border what the card lies on is looked at (mm)
OUTSIDE_MM = 3.5
#: an outline scoring below this (share of white) is not a card's
OUTLINE_MIN = 0.012
#: outlines weaker than this share of the clearest one are left out of the lattice search
LATTICE_SHARE = 0.15
#: a lattice point is read when its outline scores at least this
CANDIDATE_MIN = 0.008
#: ... and read only when the best outline within a hand-laid card's jitter of it scores at
#: least this: on the rendered corpus every card read there scored 0.023 or more, while most
#: of the points refused (bare table, wood grain) scored less, and each costs a comparison
#: with the faces (cards resting under cards found are read whatever their outline)
PLACE_MIN = 0.015
#: how far (overview pixels) from a lattice point a hand-laid card's outline is looked for
PLACE_JITTER_PX = 4
#: a card another lattice offset found is added to the best lattice's reading when its centre
#: lies this close (mm) to a free slot of that lattice (hand-laid cards wander about 3 mm)
SLOT_TOLERANCE_MM = 9.0


@dataclass(frozen=True)
class CardReading:
    """One card found in a mountain: its slot (``etage``, ``pos``), the reading (``card``
    None when no enrolled face fits), where it lies (seat frame: centre mm, turn degrees),
    and whether cards of the étage above lie on it (``covered``: 0, 1 or 2 cards)."""

    etage: int
    pos: int
    card: str | None
    conf: float
    centre: tuple[float, float]
    angle_deg: float
    covered: int
    match: FaceMatch


@dataclass(frozen=True)
class MountainReading:
    """A seat's mountain as read, with the area's overview it was found on (``patch`` BGR at
    ``spec``, ``inside`` where the camera sees), which the hand check uses again."""

    seat: str
    cards: tuple[CardReading, ...]
    lattice: tuple[float, float] | None = None  # seat-frame centre of a lattice point
    patch: np.ndarray | None = field(default=None, repr=False, compare=False)
    inside: np.ndarray | None = field(default=None, repr=False, compare=False)
    spec: PatchSpec | None = None
    #: every patch of the table the reading looked at (the overview and the cards' patches):
    #: while none of their pixels change, the reading holds (see :mod:`.warm`)
    looked_at: tuple[PatchSpec, ...] = field(default=(), compare=False)

    def unsupported(self) -> int:
        """Cards above the base with a card missing under them (they cannot float: the cards
        under them are hidden, by a hand)."""
        slots = {(c.etage, c.pos) for c in self.cards}
        return sum(1 for k, p in slots if k > 1 and not ((k - 1, p) in slots and (k - 1, p + 1) in slots))


def overview_spec(area: SeatArea, ppm: float = OVERVIEW_PPM) -> PatchSpec:
    a, b, c = MARGIN_MM
    return PatchSpec(Frame2(area.origin, area.angle_deg), -a, -b, area.size[0] + a,
                     area.size[1] + c, ppm)


def _shift(a: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """out[y, x] = a[y + dy, x + dx] (zeros outside)."""
    h, w = a.shape
    out = np.zeros_like(a)
    ys, ye = max(0, -dy), min(h, h - dy)
    xs, xe = max(0, -dx), min(w, w - dx)
    if ye > ys and xe > xs:
        out[ys:ye, xs:xe] = a[ys + dy:ye + dy, xs + dx:xe + dx]
    return out


def steps(grey: np.ndarray, ppm: float = OVERVIEW_PPM) -> dict[str, np.ndarray]:
    """How much brighter each pixel is than the pixel :data:`STEP_MM` further in a direction
    (clipped at 0): a card's white border against the colour field just inside it, which every
    card shows whatever lies around it (another card's white border, a white table). Keys: the
    side of a card the step belongs to, ``bottom`` (field above), ``top`` (field below),
    ``left`` (field to the right), ``right`` (field to the left); ``below``: brighter than
    what lies :data:`OUTSIDE_MM` below; ``outside_left``, ``outside_right``: brighter than what
    lies :data:`OUTSIDE_MM` to the left, to the right; image directions."""
    d = max(1, int(round(STEP_MM * ppm)))
    g = grey
    far = max(1, int(round(OUTSIDE_MM * ppm)))
    out = {"bottom": g - _shift(g, 0, -d), "top": g - _shift(g, 0, d),
           "left": g - _shift(g, d, 0), "right": g - _shift(g, -d, 0),
           "below": g - _shift(g, 0, far),
           "outside_left": g - _shift(g, -far, 0), "outside_right": g - _shift(g, far, 0)}
    for a in out.values():
        np.maximum(a, 0, out=a)
    return out


def outline_scores(grey: np.ndarray, layout: AltitudeLayout, ppm: float = OVERVIEW_PPM,
                   below: bool = True, silhouette: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel taken as a card's centre: the mean and the weakest of the steps along
    three sides of its lower half (bottom, left, right), in shares of white. ``below``: the
    bottom border must also be brighter than what lies below the card. ``silhouette``: a side
    is also an edge where the border is brighter than what lies outside the card (a card whose
    field is as white as its border, an avalanche, on a darker table), and the weakest is that
    of the bottom and the stronger side (of two such cards side by side, each shows one side)."""
    st = steps(grey, ppm)
    w_mm, h_mm = layout.card_mm
    half_w = w_mm / 2 - BORDER_MID_MM
    bottom = int(round((h_mm / 2 - BORDER_MID_MM) * ppm))
    side = int(round(half_w * ppm))
    # the bottom border is brighter than the field above it and than what lies below the card
    # (which a lighter band across a card's face, taken for a bottom edge, is not)
    edge = np.minimum(st["bottom"], st["below"]) if below else st["bottom"]
    sl, sr = st["left"], st["right"]
    if silhouette:
        edge = np.maximum(edge, st["below"])
        sl, sr = np.maximum(sl, st["outside_left"]), np.maximum(sr, st["outside_right"])
    hb = cv2.boxFilter(edge, -1, (int((w_mm - 8) * ppm) | 1, 3), borderType=cv2.BORDER_CONSTANT)
    vl = cv2.boxFilter(sl, -1, (3, int((h_mm / 2 - 10) * ppm) | 1), borderType=cv2.BORDER_CONSTANT)
    vr = cv2.boxFilter(sr, -1, (3, int((h_mm / 2 - 10) * ppm) | 1), borderType=cv2.BORDER_CONSTANT)
    mid = int(round(h_mm / 4 * ppm))
    b = _shift(hb, 0, bottom)
    left = _shift(vl, -side, mid)
    right = _shift(vr, side, mid)
    mean = (b + left + right) / 3.0
    weakest = np.minimum(b, np.maximum(left, right)) if silhouette else np.minimum(np.minimum(b, left), right)
    return mean, weakest


def find_lattices(score: np.ndarray, spec: PatchSpec, layout: AltitudeLayout,
                  count: int = 3) -> list[tuple[float, float, float]]:
    """Lattice offsets (seat-frame u, v of one lattice point, and their total score) that put
    the most card outlines on lattice points, best first, at most ``count`` of them and at
    least a few millimetres apart: a card's face can hold outline-like edges (a light band
    across it) that a single best offset may follow; reading the cards decides."""
    ppm = spec.ppm
    pitch = int(round(layout.pitch_mm * ppm))
    rise = layout.rise_mm * ppm
    h, w = score.shape
    # each card is one peak; a table's grain makes many small ones, kept out by a floor that
    # follows the clearest card
    floor = max(OUTLINE_MIN, LATTICE_SHARE * float(score.max()))
    peaks = (score >= cv2.dilate(score, np.ones((9, 9), np.uint8))) & (score > floor)
    t = cv2.dilate(np.where(peaks, score, 0.0).astype(np.float32), np.ones((5, 5), np.uint8))
    cols = -(-w // pitch) * pitch
    padded = np.zeros((h, cols), np.float32)
    padded[:, :w] = t
    folded = padded.reshape(h, cols // pitch, pitch).sum(axis=1)  # h × pitch
    n_rise = int(math.ceil(h / rise)) + 1
    n_y = int(math.ceil(rise))
    totals = np.zeros((n_y, pitch), np.float32)
    for y0 in range(n_y):
        for k in range(n_rise):
            y = int(round(y0 + k * rise))
            if y >= h:
                break
            # lattice row k lies half a pitch further along per row (rows counted upwards)
            totals[y0] += np.roll(folded[y], int(round(k * pitch / 2)) % pitch)
    out: list[tuple[float, float, float]] = []
    taken: list[tuple[int, int]] = []
    for i in np.argsort(-totals, axis=None):
        y0, x = divmod(int(i), pitch)
        if totals[y0, x] <= 0 or len(out) >= count:
            break
        near = any(min(abs(y0 - a), n_y - abs(y0 - a)) < 6 * ppm and
                   min(abs(x - b), pitch - abs(x - b)) < 8 * ppm for a, b in taken)
        if near:
            continue
        taken.append((y0, x))
        uv = spec.uv_of(np.array([[x + 0.5, y0 + 0.5]]))[0]
        out.append((float(uv[0]), float(uv[1]), float(totals[y0, x])))
    return out


def lattice_points(spec: PatchSpec, area: SeatArea, layout: AltitudeLayout,
                   anchor: tuple[float, float]) -> list[tuple[int, int, float, float]]:
    """Lattice points (m, k, u, v) over the area: row k is ``k`` rises above the anchor's row
    (negative below), m counts pitches along."""
    p, r = layout.pitch_mm, layout.rise_mm
    out = []
    lo_v, hi_v = -layout.card_mm[1] * 0.2, area.size[1] + MARGIN_MM[2] - layout.card_mm[1] * 0.3
    for k in range(int(math.floor((lo_v - anchor[1]) / r)) - 1, int(math.ceil((hi_v - anchor[1]) / r)) + 1):
        v = anchor[1] + k * r
        if not lo_v <= v <= hi_v:
            continue
        base_u = anchor[0] + k * p / 2
        for m in range(int(math.floor((spec.u0 - base_u) / p)) - 1, int(math.ceil((spec.u1 - base_u) / p)) + 1):
            u = base_u + m * p
            if -MARGIN_MM[0] / 2 <= u <= area.size[0] + MARGIN_MM[0] / 2:
                out.append((m, k, u, v))
    return out


def camera_ppm(view: View, area: SeatArea) -> float:
    """How many image pixels a millimetre of the area covers, at its middle."""
    c = area.to_table(np.array([[area.size[0] / 2, area.size[1] / 2]]))[0]
    pts = np.array([[c[0], c[1], 0.0], [c[0] + 10.0, c[1], 0.0], [c[0], c[1] + 10.0, 0.0]])
    px = view.project(pts)
    return float((np.linalg.norm(px[1] - px[0]) + np.linalg.norm(px[2] - px[0])) / 20.0)


def _covering_mask(size: tuple[int, int], centre: tuple[float, float],
                   covers: list[tuple[tuple[float, float], float]], card_mm: tuple[float, float],
                   grow_mm: float = 1.5) -> np.ndarray:
    """The visible pixels (card-sized canonical mask, upright, at :data:`CANON_PPM`) of a card at
    ``centre`` (seat frame), with cards lying on it at ``covers`` (centre, turn)."""
    w, h = size
    vis = np.ones((h, w), np.uint8)
    cw, ch = card_mm[0] / 2 + grow_mm, card_mm[1] / 2 + grow_mm
    for (cu, cv_), ang in covers:
        a = math.radians(ang)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        corners = np.array([[-cw, ch], [cw, ch], [cw, -ch], [-cw, -ch]]) @ rot.T + np.array([cu, cv_])
        px = np.column_stack([(corners[:, 0] - centre[0] + card_mm[0] / 2) * CANON_PPM,
                              (centre[1] + card_mm[1] / 2 - corners[:, 1]) * CANON_PPM])
        cv2.fillConvexPoly(vis, np.round(px * 16).astype(np.int32), 0, cv2.LINE_8, 4)
    return vis.astype(bool)


def read_mountain(image: np.ndarray, view: View, area: SeatArea, layout: AltitudeLayout,
                  matcher: CardMatcher, memo: Any = None) -> MountainReading:
    """The cards of one seat's mountain (see the module docstring). ``memo``: the card readings
    of the last still moment (a :class:`~companion.vision.altitude.warm.MatchMemo`), for a
    warm reading."""
    spec = overview_spec(area)
    patch, inside = rectify(image, view, spec)
    grey = patch.min(axis=2).astype(np.float32)  # whiteness: see piles.grey_patch
    white = float(np.percentile(grey[inside], 99.5)) if inside.any() else 255.0
    grey /= max(white, 1.0)
    mean, weakest = outline_scores(grey, layout)
    # what lies outside the image (its edge repeated) is no card
    seen = cv2.erode(inside.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    mean[~seen] = 0.0
    weakest[~seen] = 0.0
    empty = MountainReading(area.seat, (), None, patch, inside, spec, (spec,))
    ppm = camera_ppm(view, area)
    pooled = cv2.dilate(mean, np.ones((7, 7), np.uint8))
    best: MountainReading = empty
    best_score = 0.0
    readings = []
    cut: list[_FinePatch] = []

    def fine() -> _FinePatch:
        """The cards' patch (:func:`fine_spec`), rectified the first time a lattice needs it."""
        if not cut:
            cut.append(_fine_patch(image, view, area, layout))
        return cut[0]

    def try_lattices(mean: np.ndarray, weakest: np.ndarray, pooled: np.ndarray) -> None:
        """Read the cards on each lattice these outline scores lead to, keeping the best."""
        nonlocal best, best_score
        for lu, lv, _ in find_lattices(weakest, spec, layout):
            reading = _read_lattice(image, view, area, layout, matcher, spec, mean, pooled, (lu, lv), ppm,
                                    patch, inside, memo, fine)
            readings.append(reading)
            score = sum(c.match.explained for c in reading.cards)
            if score > best_score + 1e-9:
                best, best_score = reading, score

    if float(weakest.max()) >= OUTLINE_MIN:
        try_lattices(mean, weakest, pooled)
    if not best.cards:
        # no lattice's outlines led to a card: on a table as pale as the cards' border, the
        # border hardly stands out from what lies below it, and the lattices followed the
        # light band across the cards' faces; the outlines are looked for again without
        # asking the bottom border to stand out from what lies below
        for kind in ({"below": False}, {"silhouette": True}):
            if best.cards:
                break
            # ... and then, still nothing read, as a silhouette: cards whose field is as white
            # as their border (avalanches) show no step inside their border, only against
            # the table around them where it is darker
            mean, weakest = outline_scores(grey, layout, **kind)
            mean[~seen] = 0.0
            weakest[~seen] = 0.0
            pooled = cv2.dilate(mean, np.ones((7, 7), np.uint8))
            if float(weakest.max()) >= OUTLINE_MIN:
                try_lattices(mean, weakest, pooled)
    looked = (spec,) + tuple(x for r in readings for x in r.looked_at)
    return replace(merge_lattices(best, [r for r in readings if r is not best], layout), looked_at=looked)


def merge_lattices(best: MountainReading, others: list[MountainReading],
                   layout: AltitudeLayout) -> MountainReading:
    """The best lattice's cards, completed by the cards other lattices found in slots the best
    one left empty. Hand-laid cards wander a few millimetres each way, so two lattice offsets
    a few millimetres apart may each catch every card but one (a card's outline found just
    outside the window one offset searches); a card the enrolled faces explain is a card
    whichever offset found it, and its centre says which slot of the best lattice it lies in
    (it is kept only when it lies within :data:`SLOT_TOLERANCE_MM` of that slot)."""
    if best.lattice is None or not others:
        return best
    lu, lv = best.lattice
    p, r = layout.pitch_mm, layout.rise_mm

    def slot(c: CardReading) -> tuple[int, int, float]:
        k = int(round((c.centre[1] - lv) / r))
        m = int(round((c.centre[0] - lu - k * p / 2) / p))
        du = c.centre[0] - (lu + k * p / 2 + m * p)
        dv = c.centre[1] - (lv + k * r)
        return k, m, math.hypot(du, dv)

    cards: dict[tuple[int, int], CardReading] = {}
    for c in best.cards:
        k, m, _ = slot(c)
        cards.setdefault((k, m), c)
    added = False
    for other in others:
        for c in other.cards:
            k, m, off = slot(c)
            if (k, m) not in cards and off <= SLOT_TOLERANCE_MM:
                cards[(k, m)] = c
                added = True
    if not added:
        return best
    base_k = min(k for k, _ in cards)
    base_m = min(m for k, m in cards if k == base_k)
    out = []
    for (k, m), c in sorted(cards.items()):
        n_cov = sum(1 for s in ((k + 1, m - 1), (k + 1, m)) if s in cards)
        out.append(CardReading(k - base_k + 1, m - base_m, c.card, c.conf, c.centre, c.angle_deg,
                               n_cov, c.match))
    return replace(best, cards=tuple(out))


def own_place(win: np.ndarray, centre: tuple[int, int]) -> tuple[tuple[int, int], float]:
    """Where (row, column) in ``win``, the outline scores around a lattice point (at
    ``centre``), the card there lies, and the outline score that says something lies there:
    the strongest outline that peaks inside the window. The window's largest score may lie on
    its rim, on the flank of a stronger outline beyond it (a neighbouring card's edge, several
    millimetres off): a card cut out there lies too far from its place for the alignment to
    find it, so a pale card whose own outline is faint (an avalanche) was never read, and the
    cards under it were compared on pixels it hides. When no outline of at least
    :data:`PLACE_MIN` peaks inside, the card (if any) is cut out at the lattice point itself,
    admitted by the rim's score (the alignment finds it there)."""
    j = np.unravel_index(int(np.argmax(win)), win.shape)
    h, w = win.shape
    top = float(win[j])
    if 0 < j[0] < h - 1 and 0 < j[1] < w - 1:
        return (int(j[0]), int(j[1])), top
    if h < 3 or w < 3:
        return (int(j[0]), int(j[1])), top
    peak = win >= cv2.dilate(win, np.ones((3, 3), np.uint8))
    inner = np.where(peak[1:-1, 1:-1], win[1:-1, 1:-1], -np.inf)
    k = np.unravel_index(int(np.argmax(inner)), inner.shape)
    if float(inner[k]) >= PLACE_MIN:
        return (int(k[0]) + 1, int(k[1]) + 1), float(inner[k])
    return (int(centre[0]), int(centre[1])), top


def _read_lattice(image: np.ndarray, view: View, area: SeatArea, layout: AltitudeLayout,
                  matcher: CardMatcher, spec: PatchSpec, mean: np.ndarray, pooled: np.ndarray,
                  anchor: tuple[float, float], ppm: float, patch: np.ndarray,
                  inside: np.ndarray, memo: Any = None, fine: Any = None) -> MountainReading:
    """The cards on one lattice (see :func:`read_mountain`)."""
    lu, lv = anchor
    empty = MountainReading(area.seat, (), anchor, patch, inside, spec)
    points = lattice_points(spec, area, layout, (lu, lv))
    cands = []
    for m, k, u, v in points:
        x, y = spec.px_of(np.array([[u, v]]))[0]
        xi, yi = int(round(x - 0.5)), int(round(y - 0.5))
        if not (0 <= xi < mean.shape[1] and 0 <= yi < mean.shape[0]) or pooled[yi, xi] < CANDIDATE_MIN:
            continue
        # the card's own place: the best outline within the jitter of a hand-laid card
        r = PLACE_JITTER_PX
        y0, x0 = max(yi - r, 0), max(xi - r, 0)
        j, outline = own_place(mean[y0:yi + r + 1, x0:xi + r + 1], (yi - y0, xi - x0))
        cx, cy = x0 + j[1], y0 + j[0]
        if outline < PLACE_MIN:
            continue
        cu, cv_ = spec.uv_of(np.array([[cx + 0.5, cy + 0.5]]))[0]
        cands.append((k, m, float(cu), float(cv_)))
    if not cands:
        return empty
    # every card above the base rests on two cards: their slots are read even where no
    # outline shows (a pale face's frame hardly does), with a lenient match, since a card
    # must lie there; what still explains nothing there is hidden (by a hand)
    p, r = layout.pitch_mm, layout.rise_mm
    by_slot = {(k, m): (k, m, cu, cv_, False) for k, m, cu, cv_ in cands}
    rows = sorted({k for k, _, _, _ in cands}, reverse=True)
    fine = _fine_patch(image, view, area, layout) if fine is None else fine() if callable(fine) else fine
    found: dict[tuple[int, int], tuple[FaceMatch, tuple[float, float], float]] = {}
    cw, ch = matcher.size
    mpx = int(round(ALIGN_SHIFT_MM * CANON_PPM))
    k = rows[0] if rows else 0
    lowest = rows[-1] if rows else 0
    crops: list[PatchSpec] = []
    half_u, half_v = (cw / 2 + mpx) / CANON_PPM, (ch / 2 + mpx) / CANON_PPM
    while k >= lowest - 1:
        row = [c for (kk, _), c in by_slot.items() if kk == k]
        for m in sorted({m for kk, m in found if kk == k + 1}):
            for sm in (m, m + 1):
                if (k, sm) not in by_slot:
                    su, sv = lu + k * p / 2 + sm * p, lv + k * r
                    row.append((k, sm, su, sv, True))
        for kk, m, cu, cv_, support in sorted(row, key=lambda c: c[1]):
            # the cards of the étage above that rest on this one: row k+1's column m lies half
            # a pitch right of row k's column m, so columns m-1 and m of row k+1 cover it
            covers = [(found[s][1], found[s][2]) for s in ((k + 1, m - 1), (k + 1, m)) if s in found]
            vis = _covering_mask((cw, ch), (cu, cv_), covers, layout.card_mm)
            if not fine.holds((cu, cv_), (cw + 2 * mpx, ch + 2 * mpx)):
                continue
            must = support or any(s in found for s in ((k + 1, m - 1), (k + 1, m)))
            cut = PatchSpec(spec.frame, cu - half_u, cv_ - half_v, cu + half_u, cv_ + half_v, CANON_PPM)
            crops.append(cut)
            read = fine.reader(matcher, (cu, cv_), (cw + 2 * mpx, ch + 2 * mpx), vis, ppm, must)
            match = read() if memo is None else memo.match((cu, cv_), (must,), cut, vis, read)
            if match.name is None or match.name == BACK:
                continue
            centre = (cu + match.shift[0], cv_ - match.shift[1])
            found[(k, m)] = (match, centre, -match.turn)
        k -= 1
    if not found:
        return replace(empty, looked_at=tuple(crops))
    base_k = min(k for k, _ in found)
    base_m = min(m for k, m in found if k == base_k)
    cards = []
    for (k, m), (match, centre, ang) in sorted(found.items()):
        n_cov = sum(1 for s in ((k + 1, m - 1), (k + 1, m)) if s in found)
        cards.append(CardReading(k - base_k + 1, m - base_m, match.name, match.conf, centre, ang,
                                 n_cov, match))
    return MountainReading(area.seat, tuple(cards), (lu, lv), patch, inside, spec, tuple(crops))


@dataclass
class _FinePatch:
    """The area around the candidates at :data:`CANON_PPM`, cut into card-sized crops (sampled
    from the camera image only where a crop is cut: most of the area is bare table)."""

    patch: LazyPatch
    spec: PatchSpec
    #: the cards read on it: (cut-out's corner, visible pixels, must hold) → reading. Lattices a
    #: few millimetres apart often lead to the same cut-out of a card: it is compared once
    readings: dict = field(default_factory=dict)

    def _corner(self, centre: tuple[float, float], size: tuple[int, int]) -> tuple[int, int] | None:
        w, h = size
        x, y = self.spec.px_of(np.array([centre]))[0]
        x0, y0 = int(round(x - w / 2)), int(round(y - h / 2))
        if x0 < 0 or y0 < 0 or x0 + w > self.patch.shape[1] or y0 + h > self.patch.shape[0]:
            return None
        return x0, y0

    def holds(self, centre: tuple[float, float], size: tuple[int, int]) -> bool:
        """Whether the cut-out at ``centre`` lies on the patch."""
        return self._corner(centre, size) is not None

    def crop(self, centre: tuple[float, float], size: tuple[int, int]) -> np.ndarray | None:
        corner = self._corner(centre, size)
        if corner is None:
            return None
        x0, y0 = corner
        return self.patch.region(x0, y0, size[0], size[1])

    def reader(self, matcher: CardMatcher, centre: tuple[float, float], size: tuple[int, int],
               vis: np.ndarray, ppm: float, must: bool) -> Any:
        """``read()``: the reading of the card cut out at ``centre`` (which must lie on the
        patch, see :meth:`crop`), compared with the faces only the first time."""
        corner = self._corner(centre, size)
        key = (corner, size, np.packbits(vis).tobytes(), bool(must), float(ppm))

        def read() -> Any:
            got = self.readings.get(key)
            if got is None:
                got = self.readings[key] = matcher.match(self.crop(centre, size), vis, ppm, must_hold=must)
            return got
        return read


def fine_spec(area: SeatArea, layout: AltitudeLayout) -> PatchSpec:
    """The seat's area at :data:`CANON_PPM`, wide enough for the cut-out of every card a
    mountain's reading may look at (every lattice point :func:`lattice_points` gives, moved by a
    hand-laid card's jitter, and the slots under them): one patch whatever the lattice, so that
    a card's cut-out is the same pixels whichever lattice found it."""
    p, r = layout.pitch_mm, layout.rise_mm
    w, h = layout.card_mm
    pad_u = w / 2 + ALIGN_SHIFT_MM + 3.0 + 5.0
    pad_v = h / 2 + ALIGN_SHIFT_MM + 3.0 + 5.0
    lo_v, hi_v = -h * 0.2 - r, area.size[1] + MARGIN_MM[2] - h * 0.3
    lo_u, hi_u = -MARGIN_MM[0] / 2 - p / 2, area.size[0] + MARGIN_MM[0] / 2 + p / 2
    return PatchSpec(Frame2(area.origin, area.angle_deg), math.floor(lo_u - pad_u), math.floor(lo_v - pad_v),
                     math.ceil(hi_u + pad_u), math.ceil(hi_v + pad_v), CANON_PPM)


def _fine_patch(image: np.ndarray, view: View, area: SeatArea, layout: AltitudeLayout) -> _FinePatch:
    spec = fine_spec(area, layout)
    return _FinePatch(LazyPatch(image, view, spec), spec)
