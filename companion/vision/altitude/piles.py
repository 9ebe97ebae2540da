"""Single cards and piles: the discard pile's top card, the card shown on the deck, the cards a
player keeps at the end.

A pile's cards are thrown, not laid: the top card may lie several millimetres off its spot and
turned by ten degrees, over cards whose borders show around it. So a card is first *found*: the
pose (place and turn) at which all four sides of a card's white border show, brighter than
the colour field just inside them
(:func:`find_card`; the top card of a pile is the only one whose four sides all show), then
*read* from its whole face (:mod:`.faces`), cut out square-on at that pose.

A card's back is enrolled with the faces (under the name :data:`BACK`), so a back is read like
any face: on the deck's spot it is the deck itself (not reported: the deck says nothing), in
front of a mountain at the end a card kept face down (``card_back``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.vision.altitude.faces import ALIGN_SHIFT_MM, BACK, CANON_PPM, CardMatcher, FaceMatch  # noqa: F401
from companion.vision.altitude.layout import AltitudeLayout, SeatArea, Spot
from companion.vision.altitude.mountain import BORDER_MID_MM, STEP_MM, steps
from companion.vision.altitude.rectify import Frame2, PatchSpec, rectify
from companion.vision.camera import View

#: resolution of the search for a card (pixels a millimetre)
SEARCH_PPM = 1.0
#: how far a thrown card may lie from its spot (mm) and how far it may turn (degrees)
SPOT_REACH_MM = 12.0
SPOT_TURN_DEG = 12.0
#: a card's four border sides must step down into its field by at least this (share of white)
CARD_STEP_MIN = 0.04
#: the turns (degrees) at which a pile's top card is read at the spot itself when no pose its
#: borders gave holds a card (each reading aligns the card within 3 degrees of it)
SPOT_FALLBACK_TURNS = (-6.0, 0.0, 6.0)
#: the height at which the deck's top is looked for (mm): a deck of about twenty cards; the
#: search's reach covers higher and lower decks (their top's image shifts a little)
DECK_TOP_MM = 6.0


@dataclass(frozen=True)
class FoundCard:
    """A card found lying somewhere: its centre (table mm), turn (degrees, table frame, 0 when
    upright for the red seat), how clearly its outline shows, and its reading (None until read,
    or when no enrolled face fits: a back)."""

    centre: tuple[float, float]
    angle_deg: float
    outline: float
    match: FaceMatch | None = None

    @property
    def card(self) -> str | None:
        return self.match.name if self.match is not None else None


def _outline_points(card_mm: tuple[float, float], step_mm: float = 3.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along the middle of a card's white border (card frame, mm), the points
    :data:`~companion.vision.altitude.mountain.STEP_MM` further in (the colour field), and
    which side each belongs to (0 top, 1 bottom, 2 left, 3 right); corners left out."""
    w, h = card_mm[0] / 2 - BORDER_MID_MM, card_mm[1] / 2 - BORDER_MID_MM
    xs = np.arange(-w + 6, w - 6 + 1e-6, step_mm)
    ys = np.arange(-h + 6, h - 6 + 1e-6, step_mm)
    border, field, side = [], [], []
    for k, (pts, inward) in enumerate((
            (np.column_stack([xs, np.full(len(xs), h)]), (0.0, -1.0)),
            (np.column_stack([xs, np.full(len(xs), -h)]), (0.0, 1.0)),
            (np.column_stack([np.full(len(ys), -w), ys]), (1.0, 0.0)),
            (np.column_stack([np.full(len(ys), w), ys]), (-1.0, 0.0)))):
        border.append(pts)
        field.append(pts + np.array(inward) * STEP_MM)
        side.append(np.full(len(pts), k))
    return np.concatenate(border), np.concatenate(field), np.concatenate(side)


def _sample(grey: np.ndarray, spec: PatchSpec, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    x = ((u - spec.u0) * spec.ppm - 0.5).astype(np.float32)
    y = ((spec.v1 - v) * spec.ppm - 0.5).astype(np.float32)
    return cv2.remap(grey, np.ascontiguousarray(x), np.ascontiguousarray(y), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))


def _pose_scores(grey: np.ndarray, spec: PatchSpec, card_mm: tuple[float, float],
                 U: np.ndarray, V: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The weakest side's mean step for each pose (U, V, T: column vectors)."""
    border, field, side = _outline_points(card_mm)
    c, s = np.cos(np.radians(T)), np.sin(np.radians(T))
    vals = []
    for pts in (border, field):
        pu = U + c * pts[None, :, 0] - s * pts[None, :, 1]
        pv = V + s * pts[None, :, 0] + c * pts[None, :, 1]
        vals.append(_sample(grey, spec, pu, pv))
    step_v = np.nan_to_num(np.clip(vals[0] - vals[1], 0.0, None), nan=0.0)
    return np.minimum.reduce([step_v[:, side == k].mean(axis=1) for k in range(4)])


def find_cards(grey: np.ndarray, spec: PatchSpec, card_mm: tuple[float, float],
               centre: tuple[float, float], reach: float, turn: float,
               along: tuple[float, float] | None = None,
               count: int = 3) -> list[tuple[float, float, float, float]]:
    """Poses (u, v, turn, score) in ``spec``'s frame where all four sides of a card's border
    show, best first: up to ``count`` poses at least 4 mm or 3 degrees apart, within ``reach``
    mm (``along``: a different reach in u and v) and ``turn`` degrees of ``centre``. A side
    shows where the white border is brighter than the colour field just inside it; the score
    is the weakest side's mean step (share of white). ``grey`` holds NaN where the image has
    nothing. In a pile, the borders of the cards under the top one can line up into a second
    pose nearly as good: the caller reads each."""
    ru, rv = along if along is not None else (reach, reach)
    us = centre[0] + np.arange(-ru, ru + 1e-6, 1.0)
    vs = centre[1] + np.arange(-rv, rv + 1e-6, 1.0)
    ts = np.arange(-turn, turn + 1e-6, 2.0)
    U, V, T = (a.ravel()[:, None] for a in np.meshgrid(us, vs, ts, indexing="ij"))
    score = _pose_scores(grey, spec, card_mm, U, V, T)
    out: list[tuple[float, float, float, float]] = []
    for i in np.argsort(-score):
        if score[i] <= 0 or len(out) >= count:
            break
        u, v, t = float(U[i, 0]), float(V[i, 0]), float(T[i, 0])
        if any(abs(u - a) < 4 and abs(v - b) < 4 and abs(t - c) < 3 for a, b, c, _ in out):
            continue
        fu, fv, ft = (a.ravel()[:, None] for a in np.meshgrid(
            u + np.arange(-1.0, 1.01, 0.5), v + np.arange(-1.0, 1.01, 0.5),
            t + np.arange(-1.5, 1.51, 0.5), indexing="ij"))
        fine = _pose_scores(grey, spec, card_mm, fu, fv, ft)
        j = int(np.argmax(fine))
        out.append((float(fu[j, 0]), float(fv[j, 0]), float(ft[j, 0]), float(fine[j])))
    return out


def grey_patch(image: np.ndarray, view: View, spec: PatchSpec) -> np.ndarray:
    """The patch's *whiteness* (its darkest channel: white paper is bright in all three, a
    colour field, however light or over-exposed, is dark in one), in shares of its white, NaN
    where the image has nothing."""
    patch, inside = rectify(image, view, spec)
    grey = patch.min(axis=2).astype(np.float32)
    white = float(np.percentile(grey[inside], 99.5)) if inside.any() else 255.0
    grey /= max(white, 1.0)
    grey[~inside] = np.nan
    return grey


def read_at(image: np.ndarray, view: View, centre: tuple[float, float], angle_deg: float,
            matcher: CardMatcher, camera_ppm: float, z: float = 0.0,
            visible: np.ndarray | None = None, memo: Any = None, must_hold: bool = False) -> FaceMatch:
    """Read the card lying at ``centre`` (table mm) turned ``angle_deg``, at height ``z``
    (``memo``: the readings of the last still moment, see :mod:`.warm`; ``must_hold``: a card
    is known to lie there, see :meth:`~.faces.CardMatcher.match`)."""
    w, h = matcher.size
    m = ALIGN_SHIFT_MM
    cw, ch = w / CANON_PPM / 2 + m, h / CANON_PPM / 2 + m
    spec = PatchSpec(Frame2(centre, angle_deg), -cw, -ch, cw, ch, CANON_PPM, z)
    crop, _ = rectify(image, view, spec)
    vis = np.ones((h, w), bool) if visible is None else visible
    if memo is None:
        return matcher.match(crop, vis, camera_ppm, must_hold=must_hold)
    return memo.match(centre, (round(angle_deg, 2), z, must_hold), spec, vis,
                      lambda: matcher.match(crop, vis, camera_ppm, must_hold=must_hold))


def ppm_at(view: View, xy: tuple[float, float], z: float = 0.0) -> float:
    pts = np.array([[xy[0], xy[1], z], [xy[0] + 10.0, xy[1], z], [xy[0], xy[1] + 10.0, z]])
    px = view.project(pts)
    return float((np.linalg.norm(px[1] - px[0]) + np.linalg.norm(px[2] - px[0])) / 20.0)


def spot_spec(spot: Spot, layout: AltitudeLayout, z: float = 0.0) -> PatchSpec:
    """Where a spot's card is looked for (its reading's crops lie inside)."""
    w, h = layout.card_mm
    r = SPOT_REACH_MM + 6.0
    return PatchSpec(Frame2(spot.centre, spot.angle_deg), -w / 2 - r, -h / 2 - r, w / 2 + r, h / 2 + r,
                     SEARCH_PPM, z)


def kept_spec(area: SeatArea) -> PatchSpec:
    """Where the cards kept in front of a seat are looked for."""
    return PatchSpec(Frame2(area.origin, area.angle_deg), -10.0, -area.hand_depth - 12.0,
                     area.size[0] + 10.0, 8.0, SEARCH_PPM)


def read_spot(image: np.ndarray, view: View, spot: Spot, layout: AltitudeLayout,
              matcher: CardMatcher, z: float = 0.0, memo: Any = None) -> FoundCard | None:
    """The card on top at a spot (the discard pile, the deck), read; None when no card's
    outline shows there."""
    frame = Frame2(spot.centre, spot.angle_deg)
    spec = spot_spec(spot, layout, z)
    grey = grey_patch(image, view, spec)
    best: FoundCard | None = None
    for u, v, t, score in find_cards(grey, spec, layout.card_mm, (0.0, 0.0), SPOT_REACH_MM, SPOT_TURN_DEG):
        if score < CARD_STEP_MIN:
            break
        centre = tuple(float(c) for c in frame.to_table(np.array([[u, v]]))[0])
        angle = spot.angle_deg + t
        match = read_at(image, view, centre, angle, matcher, ppm_at(view, centre, z), z,  # type: ignore[arg-type]
                        memo=memo)
        found = FoundCard(centre, angle, score, match)  # type: ignore[arg-type]
        if best is None or _better(found, best):
            best = found
    if best is not None and best.card is None:
        # card borders show, but no pose they give holds a card a face fits: the top card's
        # border hardly steps into a field as pale as an avalanche's while the borders of the
        # cards under it show clearly, and those poses are theirs. A thrown card lies within
        # the alignment's reach of its spot: it is read there (a card being known to lie
        # there), turned as a thrown card may be
        centre = tuple(float(c) for c in frame.to_table(np.array([[0.0, 0.0]]))[0])
        outline = best.outline
        for turn in SPOT_FALLBACK_TURNS:
            angle = spot.angle_deg + turn
            match = read_at(image, view, centre, angle, matcher, ppm_at(view, centre, z), z,  # type: ignore[arg-type]
                            memo=memo, must_hold=True)
            found = FoundCard(centre, angle, outline, match)  # type: ignore[arg-type]
            if match.name is not None and _better(found, best):
                best = found
    return best


def _better(a: FoundCard, b: FoundCard) -> bool:
    """Which of two poses of a card is the card: the one a face explains best (a pose off by
    a few millimetres explains less), else the clearer outline."""
    ea = a.match.explained if a.match is not None else 0.0
    eb = b.match.explained if b.match is not None else 0.0
    if abs(ea - eb) > 0.02:
        return ea > eb
    return a.outline > b.outline


def read_kept(image: np.ndarray, view: View, area: SeatArea, layout: AltitudeLayout,
              matcher: CardMatcher, memo: Any = None) -> list[FoundCard]:
    """The cards laid in a row in front of a seat's area (at the end of the game), left to
    right; a card whose face fits no enrolled card is a back."""
    frame = Frame2(area.origin, area.angle_deg)
    w, h = layout.card_mm
    depth = area.hand_depth
    spec = kept_spec(area)
    grey = grey_patch(image, view, spec)
    st = steps(np.nan_to_num(grey, nan=0.0), spec.ppm)
    # candidates along the row: both long sides of a card's border one card width apart
    v_mid = -depth / 2 - 1.5
    y0 = int(round((spec.v1 - (v_mid + h / 2 - 20)) * spec.ppm))
    y1 = int(round((spec.v1 - (v_mid - h / 2 + 20)) * spec.ppm))
    left = st["left"][max(y0, 0):max(y1, 1)].mean(axis=0)
    right = st["right"][max(y0, 0):max(y1, 1)].mean(axis=0)
    half = int(round((w / 2 - BORDER_MID_MM) * spec.ppm))
    pair = np.minimum(np.roll(left, half), np.roll(right, -half))
    pair[:half] = 0
    pair[-half:] = 0
    found: list[FoundCard] = []
    peaks = [x for x in range(1, len(pair) - 1)
             if pair[x] >= CARD_STEP_MIN * 0.5 and pair[x] >= pair[x - 1] and pair[x] >= pair[x + 1]]
    for x in sorted(peaks, key=lambda x: -pair[x]):
        u0 = spec.u0 + (x + 0.5) / spec.ppm
        if any(abs(frame.to_local(np.array([f.centre]))[0][0] - u0) < w * 0.8 for f in found):
            continue
        for u, v, t, score in find_cards(grey, spec, layout.card_mm, (u0, v_mid), 5.0, 6.0,
                                         along=(5.0, 8.0), count=2):
            if score < CARD_STEP_MIN:
                break
            centre = tuple(float(c) for c in frame.to_table(np.array([[u, v]]))[0])
            angle = area.angle_deg + t
            match = read_at(image, view, centre, angle, matcher, ppm_at(view, centre),  # type: ignore[arg-type]
                            memo=memo)
            if match.name is not None:
                found.append(FoundCard(centre, angle, score, match))  # type: ignore[arg-type]
                break
    order = np.argsort([frame.to_local(np.array([f.centre]))[0][0] for f in found])
    return [found[i] for i in order]
