"""Random but plausible Altitude tables and photographs, for corpora with exact ground truth.

Tables are mid-game positions of one to four players: each player's mountain a brick pyramid of
one to seven base cards and up to five étages (the upper étages thinner, as games make them),
every card laid by hand a little off and a little turned; the deck in the middle, sometimes with
the drawn card shown on it; a discard pile of a few askew cards; now and then the end of a game
(the deck gone, kept cards laid in front of a mountain, some face down). Cards are drawn from a
deck without repeats. This is a generator of tables a camera could see, not of game states: the
value rule is not followed.

Shots cover the table kit's range: a camera 60–100 cm above the table, from straight down to 35°
of tilt, at any yaw, with ordinary webcam lens distortion; the lights, table tops, noise, blur
and JPEG of the Haut les Cubes generator (:mod:`companion.synth.generate`). A camera is kept only
when it sees every card and at least two table markers whole, so tables with four players
need a camera high above them (as they do at a real table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from calibration.boards import TableLayout
from companion.synth.altitude.deck import CardSpec, load_deck
from companion.synth.altitude.scene import (
    AltitudeScene, Mountain, MountainCard, PileCard, jitter,
)
from companion.synth.generate import SKIN_TONES, SLEEVES, lift_hand, random_light
from companion.synth.scene import Hand, Shot
from companion.synth.textures import TABLE_KINDS
from companion.vision.altitude.layout import (
    DEFAULT_LAYOUT, SEATS, AltitudeLayout, card_corners,
)
from companion.vision.camera import CameraModel, TablePose, View

MARKER_PAPER_MM = 60.0


@dataclass(frozen=True)
class AltitudeRanges:
    """What the generators draw from. Defaults are the table kit's range."""

    size: tuple[int, int] = (1280, 720)
    tilt_deg: tuple[float, float] = (0.0, 35.0)
    height_mm: tuple[float, float] = (600.0, 1000.0)
    hfov_deg: tuple[float, float] = (60.0, 80.0)
    players: tuple[int, ...] = (1, 2, 2, 3, 3, 4)
    base: tuple[int, int] = (1, 7)
    etages: int = 5
    discard: tuple[int, int] = (0, 8)
    deck_probability: float = 0.85
    drawn_probability: float = 0.3
    end_probability: float = 0.12
    noise: tuple[float, float] = (0.5, 5.0)
    blur: tuple[float, float] = (0.3, 1.3)
    jpeg_quality: tuple[int, int] = (55, 95)
    lossless_probability: float = 0.25
    deck: str = "demo"


def table_layout(layout: AltitudeLayout = DEFAULT_LAYOUT) -> TableLayout:
    """Where the synthetic table's markers lie, as ``companion calibrate table`` measures them."""
    return TableLayout(TableLayout.rectangle(*layout.table_mm).markers, measured=True)


# ------------------------------------------------------------------------------- positions
def random_mountain_slots(rng: np.random.Generator, n_base: int, etages: int) -> list[tuple[int, int]]:
    """Slots of a plausible pyramid: ``n_base`` base cards, then each étage's slots filled with
    a falling probability where both cards under them are down."""
    slots = [(1, p) for p in range(n_base)]
    keep = float(rng.uniform(0.45, 0.9))
    for k in range(2, etages + 1):
        below = {p for kk, p in slots if kk == k - 1}
        row = [p for p in sorted(below) if p + 1 in below and rng.random() < keep * (0.92 ** (k - 2))]
        if not row:
            break
        slots += [(k, p) for p in row]
    return slots


def random_mountain(rng: np.random.Generator, seat: str, pool: list[str], ranges: AltitudeRanges,
                    layout: AltitudeLayout = DEFAULT_LAYOUT) -> Mountain:
    area = layout.seat(seat)
    n_base = int(rng.integers(ranges.base[0], ranges.base[1] + 1))
    slots = random_mountain_slots(rng, n_base, ranges.etages)
    w = layout.card_mm[0]
    span = (n_base - 1) * layout.pitch_mm
    lo, hi = w / 2 + 4.0, area.size[0] - w / 2 - 4.0 - span
    u = float(rng.uniform(lo, max(lo, hi)))
    v = layout.card_mm[1] / 2 + float(rng.uniform(4.0, 16.0))
    cards = []
    for k, p in slots:
        if not pool:
            break
        card = pool.pop(int(rng.integers(0, len(pool))))
        cards.append(MountainCard(k, p, card, jitter(rng)))
    return Mountain(seat, (u, v), tuple(cards))


def random_pile(rng: np.random.Generator, pool: list[str], n: int, shift: float = 6.0,
                turn: float = 9.0) -> tuple[PileCard, ...]:
    out = []
    for _ in range(n):
        if not pool:
            break
        card = pool.pop(int(rng.integers(0, len(pool))))
        out.append(PileCard(card, (float(rng.uniform(-shift, shift)), float(rng.uniform(-shift, shift))),
                            float(rng.uniform(-turn, turn))))
    return tuple(out)


def random_scene(rng: np.random.Generator, ranges: AltitudeRanges = AltitudeRanges(),
                 layout: AltitudeLayout = DEFAULT_LAYOUT,
                 cards: tuple[CardSpec, ...] | None = None) -> AltitudeScene:
    deck = cards if cards is not None else load_deck(ranges.deck)
    pool = [c.id for c in deck]
    n_players = int(rng.choice(ranges.players))
    seats = sorted(rng.choice(len(SEATS), size=n_players, replace=False))
    players = [SEATS[int(i)] for i in seats]
    end = rng.random() < ranges.end_probability
    mountains = tuple(random_mountain(rng, s, pool, ranges, layout) for s in players)
    discard = random_pile(rng, pool, int(rng.integers(ranges.discard[0], ranges.discard[1] + 1)))
    deck_size, drawn, kept = 0, None, ()
    deck_jitter = (float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3)), float(rng.uniform(-4, 4)))
    if end:
        rows = []
        for seat in players:
            if rng.random() < 0.6 and pool:
                n = int(rng.integers(1, 5))
                row = []
                for pc in random_pile(rng, pool, n, 2.5, 3.0):
                    row.append(pc if rng.random() < 0.55 else replace(pc, card=None))
                rows.append((seat, tuple(row)))
        kept = tuple(rows)
    elif rng.random() < ranges.deck_probability:
        deck_size = int(rng.integers(3, 40))
        if rng.random() < ranges.drawn_probability and pool:
            drawn = random_pile(rng, pool, 1, 3.0, 6.0)[0]
    return AltitudeScene(deck, mountains, discard, deck_size, deck_jitter, drawn, kept, layout)


def random_hand(rng: np.random.Generator, scene: AltitudeScene,
                target: tuple[float, float] | None = None) -> Hand:
    """An arm reaching from beyond the table's edge to ``target`` (table mm; by default a card
    of a random mountain or the middle), held above everything on the table."""
    lay = scene.layout
    tw, td = lay.table_mm
    centre = np.array([tw / 2, td / 2])
    if target is None:
        laid = [c for c in scene.laid()]
        if laid and rng.random() < 0.85:
            c = laid[int(rng.integers(0, len(laid)))]
            target = (c.centre[0] + float(rng.uniform(-30, 30)), c.centre[1] + float(rng.uniform(-30, 30)))
        else:
            target = (float(centre[0] + rng.uniform(-80, 80)), float(centre[1] + rng.uniform(-80, 80)))
    out = np.array(target, float) - centre
    if np.linalg.norm(out) < 1e-6:
        out = np.array([0.0, -1.0])
    a = math.atan2(out[1], out[0]) + float(rng.uniform(-0.9, 0.9))
    reach = float(rng.uniform(380.0, 560.0))
    elbow_xy = (target[0] + reach * math.cos(a), target[1] + reach * math.sin(a))
    d = np.array([target[0] - elbow_xy[0], target[1] - elbow_xy[1]])
    d /= max(float(np.linalg.norm(d)), 1e-9)
    wrist_xy = np.array(target) - d * 80.0
    skin = SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))]
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    hand = Hand((elbow_xy[0], elbow_xy[1], 0.0), (float(wrist_xy[0]), float(wrist_xy[1]), 0.0),
                tuple(float(c) * float(rng.uniform(0.92, 1.05)) for c in skin), sleeve,  # type: ignore[arg-type]
                float(rng.uniform(0.3, 1.0)), float(rng.uniform(0, 1)))
    return lift_hand(hand, scene.top_mm() + float(rng.uniform(15, 160)), float(rng.uniform(40, 160)))


# ---------------------------------------------------------------------------------- shots
def must_see(scene: AltitudeScene, margin: float = 8.0) -> np.ndarray:
    """Table points (N×3) a camera must see: every card's corners, a little outside."""
    pts = []
    w, h = scene.layout.card_mm
    for c in scene.laid():
        pts.append(card_corners(c.centre, c.angle_deg, (w + 2 * margin, h + 2 * margin)))
    if not pts:
        tw, td = scene.layout.table_mm
        pts.append(np.array([[tw * 0.4, td * 0.4], [tw * 0.6, td * 0.6]]))
    xy = np.concatenate(pts)
    return np.column_stack([xy, np.zeros(len(xy))])


def marker_points(layout: AltitudeLayout) -> list[np.ndarray]:
    tw, td = layout.table_mm
    half = MARKER_PAPER_MM / 2
    out = []
    for cx, cy in ((0.0, 0.0), (tw, 0.0), (tw, td), (0.0, td)):
        sq = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                       [cx - half, cy + half]])
        out.append(np.column_stack([sq, np.zeros(4)]))
    return out


def in_frame(view: View, pts: np.ndarray, margin: float) -> bool:
    px = view.project(pts)
    w, h = view.camera.size
    cam = pts @ view.pose.R.T + view.pose.t
    return bool(np.all(cam[:, 2] > 1.0) and np.all(px[:, 0] >= margin) and np.all(px[:, 0] <= w - 1 - margin)
                and np.all(px[:, 1] >= margin) and np.all(px[:, 1] <= h - 1 - margin))


def random_camera(rng: np.random.Generator, ranges: AltitudeRanges, hfov: float) -> CameraModel:
    w, h = ranges.size
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    return CameraModel(f, f, (w - 1) / 2 + float(rng.uniform(-15, 15)),
                       (h - 1) / 2 + float(rng.uniform(-12, 12)), (w, h),
                       (float(rng.uniform(-0.30, 0.05)), float(rng.uniform(-0.05, 0.12)),
                        float(rng.uniform(-0.002, 0.002)), float(rng.uniform(-0.002, 0.002)), 0.0),
                       source="synthetic")


def random_view(rng: np.random.Generator, scene: AltitudeScene,
                ranges: AltitudeRanges = AltitudeRanges(), tilt_deg: float | None = None,
                tries: int = 600) -> View | None:
    """A webcam in the kit's range that sees every card and two table markers whole (None when
    no draw does)."""
    need = must_see(scene)
    markers = marker_points(scene.layout)
    lo, hi = need[:, :2].min(axis=0), need[:, :2].max(axis=0)
    cx, cy = (lo + hi) / 2
    for _ in range(tries):
        tilt = float(rng.uniform(*ranges.tilt_deg)) if tilt_deg is None else float(tilt_deg)
        height = float(rng.uniform(*ranges.height_mm))
        cam = random_camera(rng, ranges, float(rng.uniform(*ranges.hfov_deg)))
        az = float(rng.uniform(0, 2 * math.pi))
        roll = math.radians(float(rng.uniform(-8, 8)))
        target = (cx + float(rng.uniform(-40, 40)), cy + float(rng.uniform(-40, 40)), 0.0)
        back = height * math.tan(math.radians(tilt))
        eye = (target[0] - math.cos(az) * back, target[1] - math.sin(az) * back, height)
        up = (math.cos(az + roll), math.sin(az + roll), 0.0)
        view = View(cam, TablePose.look_at(eye, target, up))
        if not in_frame(view, need, 10.0):
            continue
        if sum(in_frame(view, m, 4.0) for m in markers) >= 2:
            return view
    return None


def random_shot(rng: np.random.Generator, view: View, ranges: AltitudeRanges = AltitudeRanges(), *,
                light: str | None = None) -> Shot:
    lossless = rng.random() < ranges.lossless_probability
    return Shot(view=view, light=random_light(rng, light), table=str(rng.choice(TABLE_KINDS)),
                table_variant=int(rng.integers(0, 3)),
                table_tint=tuple(float(v) for v in rng.uniform(0.92, 1.08, size=3)),  # type: ignore[arg-type]
                table_shift=(float(rng.uniform(-500, 0)), float(rng.uniform(-500, 0))),
                noise=float(rng.uniform(*ranges.noise)), blur=float(rng.uniform(*ranges.blur)),
                jpeg=None if lossless else int(rng.integers(ranges.jpeg_quality[0], ranges.jpeg_quality[1] + 1)),
                exposure=float(rng.uniform(0.35, 0.55)), seed=int(rng.integers(0, 2**31 - 1)))


def corpus_item(seed: int, index: int, ranges: AltitudeRanges = AltitudeRanges(), *,
                hand_probability: float = 0.0, light: str | None = None,
                tilt_deg: float | None = None,
                layout: AltitudeLayout = DEFAULT_LAYOUT) -> tuple[AltitudeScene, Shot]:
    """Position ``index`` of the corpus ``seed``: the same pair every time. A table no camera
    of the range sees whole is drawn again."""
    rng = np.random.default_rng([seed, index, 8])
    for _ in range(50):
        scene = random_scene(rng, ranges, layout)
        view = random_view(rng, scene, ranges, tilt_deg)
        if view is not None:
            break
    else:
        raise RuntimeError("no camera in the asked range sees a whole table; widen the ranges")
    shot = random_shot(rng, view, ranges, light=light)
    if rng.random() < hand_probability:
        scene = scene.with_hand(random_hand(rng, scene))
    return scene, shot
