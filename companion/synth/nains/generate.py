"""Random but plausible La Ville des Nains tables and photographs, for corpora with exact truth.

Positions follow the box, not the rules: the 40 building stones (ten of each colour: 3 cubes,
3 long blocks, 2 cylinders, 2 roofs) are shared between the dwarves' buildings and the pool, a
roof only ever on top; 2 to 6 dwarves each have a few buildings on their first slots (one slot
left empty now and then, as a destroyed building leaves it), three stones high on the stone
side, up to seven on the beach side; the kobold's tower has 0 to 12 blue stones; the three
colour dice lie in the tray (or beside it before the first roll), and in a game with a kobold
player its die too. Pool stones lie where a hand dropped them: anywhere in the pool, turned any
way, touching now and then but never on top of each other. This is a generator of tables a
camera could see, not of game states.

Shots cover the table kit's range: a camera 60–100 cm above the table, from straight down to 35°
of tilt, at any yaw, with ordinary webcam lens distortion, seeing the whole play area (every
zone and the tallest tower) and framed on it (the play area fills most of the picture's width
or height, as a user sets a camera up); the lights, table tops, noise, blur and JPEG of the Haut les Cubes
generator (:mod:`companion.synth.generate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.synth.generate import SKIN_TONES, SLEEVES, lift_hand, random_light
from companion.synth.nains.scene import Building, Die, Loose, NainsScene
from companion.synth.scene import Hand, Shot
from companion.synth.textures import TABLE_KINDS
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.nains.kit import (
    COLOUR_FACES, DIE_MM, KOBOLD_DIE, MAX_TOWER, SEATS, SHAPES, STONE_COLOURS, STONE_MM,
)
from companion.vision.nains.solids import footprint
from companion.vision.nains.zones import DEFAULT_ZONES, ZoneLayout

#: the box's stones of each colour, per shape
STOCK = {"cube": 3, "long": 3, "cylinder": 2, "roof": 2}
#: dice mats: green or light grey felt (BGR albedo), colours no die face has (a blue or red mat
#: would hide the faces of its own colour, a black one the kobold die: the kit asks for a green
#: or grey mat)
MAT_COLOURS = ((0.16, 0.30, 0.12), (0.10, 0.22, 0.08), (0.42, 0.43, 0.42))


@dataclass(frozen=True)
class NainsRanges:
    """What the generators draw from. Defaults are the table kit's range."""

    size: tuple[int, int] = (1280, 720)
    tilt_deg: tuple[float, float] = (0.0, 35.0)
    height_mm: tuple[float, float] = (600.0, 1000.0)
    hfov_deg: tuple[float, float] = (60.0, 80.0)
    dwarves: tuple[int, int] = (2, 6)
    beach_probability: float = 0.25
    built_share: tuple[float, float] = (0.0, 0.7)
    tower: tuple[int, int] = (0, MAX_TOWER)
    kobold_player_probability: float = 0.4
    dice_in_tray_probability: float = 0.9
    noise: tuple[float, float] = (0.5, 5.0)
    blur: tuple[float, float] = (0.3, 1.3)
    jpeg_quality: tuple[int, int] = (55, 95)
    lossless_probability: float = 0.25
    #: the play area fills at least this share of the picture's width or height
    fill: float = 0.72


def _stock() -> list[tuple[str, str]]:
    return [(c, s) for c in STONE_COLOURS for s in SHAPES for _ in range(STOCK[s])]


def _take(rng: np.random.Generator, stock: list[tuple[str, str]], roof_ok: bool) -> tuple[str, str] | None:
    options = [i for i, (_, s) in enumerate(stock) if roof_ok or s != "roof"]
    if not options:
        return None
    return stock.pop(int(rng.choice(options)))


def random_buildings(rng: np.random.Generator, stock: list[tuple[str, str]], seats: tuple[str, ...],
                     beach: bool, share: float, zones: ZoneLayout) -> tuple[Building, ...]:
    """Buildings using about ``share`` of the stones, spread over the seats' first slots."""
    target = int(round(share * len(stock)))
    slots = len(zones.area(seats[0]).slots)
    per_seat = {s: int(rng.integers(1, slots + 1)) if target else 0 for s in seats}
    stones: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    tall = 7 if beach else 3
    placed = 0
    order = [(s, k) for s in seats for k in range(per_seat[s])]
    empty = {o for o in order if rng.random() < 0.1}  # a destroyed building's empty slot
    open_slots = [o for o in order if o not in empty]
    while placed < target and open_slots:
        key = open_slots[int(rng.integers(0, len(open_slots)))]
        have = stones.setdefault(key, [])
        last = len(have) + 1 >= tall or rng.random() < 0.25
        got = _take(rng, stock, roof_ok=last)
        if got is None:
            break
        colour, shape = got
        turn = int(rng.choice((0, 90))) if shape in ("long", "roof") else 0
        have.append((colour, shape, turn))
        placed += 1
        if shape == "roof" or len(have) >= tall:
            open_slots.remove(key)
    return tuple(Building(s, k, tuple(v)) for (s, k), v in sorted(stones.items(), key=lambda kv: (SEATS.index(kv[0][0]), kv[0][1])) if v)


def _overlaps(poly: np.ndarray, others: list[np.ndarray], gap: float) -> bool:
    c = poly.mean(axis=0)
    grown = c + (poly - c) * (1.0 + gap / max(float(np.linalg.norm(poly - c, axis=1).max()), 1e-6))
    import cv2
    a = grown.astype(np.float32)
    for o in others:
        if np.linalg.norm(o.mean(axis=0) - c) > 60.0:
            continue
        area, _ = cv2.intersectConvexConvex(a, o.astype(np.float32))
        if area > 0.5:
            return True
    return False


def random_pool(rng: np.random.Generator, stones: list[tuple[str, str]], zones: ZoneLayout,
                gap_mm: float = 3.0) -> tuple[Loose, ...]:
    """The stones spread in the pool: random places and turns, a few millimetres apart (the kit
    asks players to spread the pool: stones of one colour touching side by side look like one
    long block); a stone that finds no room is tried touching the others, then left out of the
    picture (it is in the box)."""
    r = zones.pool
    out: list[Loose] = []
    polys: list[np.ndarray] = []
    for colour, shape in stones:
        for attempt in range(400):
            gap = gap_mm if attempt < 300 else 0.5
            margin = 22.0 if shape == "long" else 12.0
            x = float(rng.uniform(r.x0 + margin, r.x1 - margin))
            y = float(rng.uniform(r.y0 + margin, r.y1 - margin))
            yaw = float(rng.uniform(0, 180))
            poly = footprint(shape, x, y, yaw)
            if not _overlaps(poly, polys, gap):
                out.append(Loose(colour, shape, x, y, yaw))
                polys.append(poly)
                break
    return tuple(out)


def random_dice(rng: np.random.Generator, zones: ZoneLayout, kobold: bool, in_tray: bool) -> tuple[Die, ...]:
    """Three colour dice (and the kobold die): in the tray after a roll, or resting beside it."""
    kinds = ["colour"] * 3 + ["kobold"]
    out: list[Die] = []
    polys: list[np.ndarray] = []
    for kind in kinds:
        place_in = zones.tray if ((kind == "colour" and in_tray) or (kind == "kobold" and kobold and in_tray)) else zones.rest
        face = str(rng.choice(COLOUR_FACES)) if kind == "colour" else str(rng.choice(KOBOLD_DIE))
        for _ in range(300):
            m = DIE_MM * 0.75 + 3.0
            x = float(rng.uniform(place_in.x0 + m, place_in.x1 - m))
            y = float(rng.uniform(place_in.y0 + m, place_in.y1 - m))
            yaw = float(rng.uniform(0, 90))
            poly = footprint("die", x, y, yaw)
            if not _overlaps(poly, polys, 3.0):
                out.append(Die(kind, face, x, y, yaw, int(rng.integers(0, 4))))
                polys.append(poly)
                break
    return tuple(out)


def random_scene(rng: np.random.Generator, ranges: NainsRanges = NainsRanges(),
                 zones: ZoneLayout = DEFAULT_ZONES) -> NainsScene:
    n = int(rng.integers(ranges.dwarves[0], ranges.dwarves[1] + 1))
    seats = tuple(SEATS[:n]) if rng.random() < 0.5 else tuple(sorted(rng.choice(SEATS, size=n, replace=False), key=SEATS.index))
    beach = bool(rng.random() < ranges.beach_probability)
    stock = _stock()
    share = float(rng.uniform(*ranges.built_share))
    buildings = random_buildings(rng, stock, seats, beach, share, zones)
    pool = random_pool(rng, stock, zones)
    tower = int(rng.integers(ranges.tower[0], ranges.tower[1] + 1))
    kobold = bool(rng.random() < ranges.kobold_player_probability)
    dice = random_dice(rng, zones, kobold, bool(rng.random() < ranges.dice_in_tray_probability))
    mat = MAT_COLOURS[int(rng.integers(0, len(MAT_COLOURS)))]
    return NainsScene(pool, buildings, tower, dice, None, zones, int(rng.integers(0, 2**31 - 1)), mat)


def must_see(scene: NainsScene) -> np.ndarray:
    """Table points every generated camera sees: the markers' paper, every zone, and the top of
    the tallest building and of the kobold's tower."""
    z = scene.zones
    pts = []
    for cx, cy in ((0.0, 0.0), (z.width_mm, 0.0), (z.width_mm, z.depth_mm), (0.0, z.depth_mm)):
        pts += [(cx + dx, cy + dy, 0.0) for dx in (-25.0, 25.0) for dy in (-25.0, 25.0)]
    for r in [z.tray, z.pool] + [a.rect for a in z.areas]:
        pts += [(x, y, 0.0) for x, y in r.corners()]
    tall = max([len(b.stones) for b in scene.buildings] + [3]) * STONE_MM
    for a in z.areas:
        pts += [(x, y, tall) for x, y in a.rect.corners()]
    kx, ky = z.kobold
    pts += [(kx + dx, ky + dy, max(scene.tower, 4) * STONE_MM) for dx in (-15, 15) for dy in (-15, 15)]
    return np.array(pts, float)


def _in_frame(view: View, pts: np.ndarray, margin: float) -> bool:
    px = view.project(pts)
    w, h = view.camera.size
    cam = pts @ view.pose.R.T + view.pose.t
    return bool(np.all(cam[:, 2] > 1.0) and np.all(px[:, 0] >= margin) and np.all(px[:, 0] <= w - 1 - margin)
                and np.all(px[:, 1] >= margin) and np.all(px[:, 1] <= h - 1 - margin))


def _fills(view: View, scene: NainsScene, share: float) -> bool:
    """Whether the play area fills at least ``share`` of the picture across or down (a user
    frames the table, not the room)."""
    z = scene.zones
    px = view.project(np.array([[0.0, 0.0, 0.0], [z.width_mm, 0.0, 0.0], [z.width_mm, z.depth_mm, 0.0],
                                [0.0, z.depth_mm, 0.0]]))
    w, h = view.camera.size
    span = px.max(axis=0) - px.min(axis=0)
    return bool(span[0] >= share * w or span[1] >= share * h)


def random_view(rng: np.random.Generator, scene: NainsScene, ranges: NainsRanges = NainsRanges(),
                tilt_deg: float | None = None) -> View:
    """A webcam in the kit's range that sees the whole play area (drawn again until it does)."""
    w, h = ranges.size
    need = must_see(scene)
    cx, cy = scene.zones.width_mm / 2, scene.zones.depth_mm / 2
    for _ in range(2000):
        tilt = float(rng.uniform(*ranges.tilt_deg)) if tilt_deg is None else float(tilt_deg)
        height = float(rng.uniform(*ranges.height_mm))
        hfov = float(rng.uniform(*ranges.hfov_deg))
        # a camera squares its picture to the table now and then, more often not quite
        az = float(rng.choice([0.0, 0.5, 1.0, 1.5]) * math.pi + rng.normal(0.0, 0.35))
        roll = math.radians(float(rng.uniform(-8, 8)))
        f = (w / 2) / math.tan(math.radians(hfov) / 2)
        cam = CameraModel(f, f, (w - 1) / 2 + float(rng.uniform(-15, 15)),
                          (h - 1) / 2 + float(rng.uniform(-12, 12)), (w, h),
                          (float(rng.uniform(-0.30, 0.05)), float(rng.uniform(-0.05, 0.12)),
                           float(rng.uniform(-0.002, 0.002)), float(rng.uniform(-0.002, 0.002)), 0.0),
                          source="synthetic")
        target = (cx + float(rng.uniform(-40, 40)), cy + float(rng.uniform(-30, 30)), 0.0)
        horiz = np.array([math.cos(az), math.sin(az), 0.0])
        back = height * math.tan(math.radians(tilt))
        eye = (target[0] - horiz[0] * back, target[1] - horiz[1] * back, height)
        up = (math.cos(az + roll), math.sin(az + roll), 0.0)
        view = View(cam, TablePose.look_at(eye, target, up))
        if _in_frame(view, need, 8.0) and _fills(view, scene, ranges.fill):
            return view
    raise RuntimeError("no camera in the asked range sees the whole play area; widen the ranges")


def random_shot(rng: np.random.Generator, scene: NainsScene, ranges: NainsRanges = NainsRanges(), *,
                light: str | None = None, tilt_deg: float | None = None) -> Shot:
    view = random_view(rng, scene, ranges, tilt_deg)
    lossless = rng.random() < ranges.lossless_probability
    return Shot(view=view, light=random_light(rng, light), table=str(rng.choice(TABLE_KINDS)),
                table_variant=int(rng.integers(0, 3)),
                table_tint=tuple(float(v) for v in rng.uniform(0.92, 1.08, size=3)),  # type: ignore[arg-type]
                table_shift=(float(rng.uniform(-500, 0)), float(rng.uniform(-500, 0))),
                noise=float(rng.uniform(*ranges.noise)), blur=float(rng.uniform(*ranges.blur)),
                jpeg=None if lossless else int(rng.integers(ranges.jpeg_quality[0], ranges.jpeg_quality[1] + 1)),
                exposure=float(rng.uniform(0.35, 0.55)), seed=int(rng.integers(0, 2**31 - 1)))


def random_hand(rng: np.random.Generator, scene: NainsScene,
                target: tuple[float, float] | None = None) -> Hand:
    """An arm reaching from outside the table to ``target`` (table mm; by default the pool, the
    tray, an area or anywhere over the table), held above every piece."""
    z = scene.zones
    if target is None:
        r = rng.random()
        if r < 0.35:
            target = (float(rng.uniform(z.pool.x0, z.pool.x1)), float(rng.uniform(z.pool.y0, z.pool.y1)))
        elif r < 0.5:
            target = z.tray.centre
        elif r < 0.85:
            a = z.areas[int(rng.integers(0, len(z.areas)))]
            target = (float(rng.uniform(a.rect.x0, a.rect.x1)), float(rng.uniform(a.rect.y0, a.rect.y1)))
        else:
            target = (float(rng.uniform(40, z.width_mm - 40)), float(rng.uniform(40, z.depth_mm - 40)))
    cx, cy = z.width_mm / 2, z.depth_mm / 2
    away = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(380, 560))
    elbow_xy = (cx + reach * math.cos(away), cy + reach * 0.8 * math.sin(away))
    d = np.array([target[0] - elbow_xy[0], target[1] - elbow_xy[1]])
    d /= max(np.linalg.norm(d), 1e-9)
    wrist_xy = np.array(target) - d * 80.0
    skin = SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))]
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    hand = Hand((elbow_xy[0], elbow_xy[1], 0.0), (float(wrist_xy[0]), float(wrist_xy[1]), 0.0),
                tuple(float(c) * float(rng.uniform(0.92, 1.05)) for c in skin), sleeve,  # type: ignore[arg-type]
                float(rng.uniform(0.3, 1.0)), float(rng.uniform(0, 1)))
    return lift_hand(hand, scene.highest_mm() + float(rng.uniform(15, 160)), float(rng.uniform(40, 160)))


def corpus_item(seed: int, index: int, ranges: NainsRanges = NainsRanges(), *,
                hand_probability: float = 0.0, light: str | None = None,
                tilt_deg: float | None = None, zones: ZoneLayout = DEFAULT_ZONES) -> tuple[NainsScene, Shot]:
    """Position ``index`` of the corpus ``seed``: the same pair every time."""
    rng = np.random.default_rng([seed, index, 9])
    scene = random_scene(rng, ranges, zones)
    shot = random_shot(rng, scene, ranges, light=light, tilt_deg=tilt_deg)
    if rng.random() < hand_probability:
        scene = scene.with_hand(random_hand(rng, scene))
    return scene, shot
