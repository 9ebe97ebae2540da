"""Random but plausible positions and photographs, for corpora with exact ground truth.

Mountains follow the game's physical rule (a cube rests on a full base: the four cells under it at
its level; a cube on the table touches the mountain) without any of its other rules: this is a
generator of things a camera could see, not of game states. Shots cover the table kit's range:
a camera 60–100 cm above the table, from straight down to 35° of tilt, at any yaw, with the lens
distortion of ordinary webcams; six kinds of light; three table tops; noise, blur and JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.synth.scene import Giant, Hand, Lattice, Light, Scene, Shot
from companion.synth.textures import TABLE_KINDS
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.hlc.layout import CARD_NAMES, DEFAULT_LAYOUT, GIANT_COLOURS, Layout

LIGHT_CONDITIONS = ("daylight", "warm-lamp", "cool-led", "low-sun", "dim", "overcast")
SKIN_TONES = ((0.66, 0.74, 0.92), (0.52, 0.64, 0.86), (0.40, 0.52, 0.74), (0.30, 0.44, 0.62),
              (0.20, 0.30, 0.46), (0.11, 0.17, 0.27))
SLEEVES = ((0.08, 0.08, 0.08), (0.85, 0.85, 0.85), (0.35, 0.20, 0.10), (0.15, 0.15, 0.60),
           (0.40, 0.40, 0.40), (0.25, 0.45, 0.60), (0.20, 0.45, 0.20), (0.55, 0.35, 0.45),
           (0.30, 0.50, 0.70), (0.60, 0.45, 0.25))


@dataclass(frozen=True)
class Ranges:
    """What the generators draw from. Defaults are the table kit's range."""

    size: tuple[int, int] = (1280, 720)
    tilt_deg: tuple[float, float] = (0.0, 35.0)
    height_mm: tuple[float, float] = (600.0, 1000.0)
    hfov_deg: tuple[float, float] = (60.0, 80.0)
    cubes: tuple[int, int] = (12, 24)
    max_levels: int = 6
    giants: tuple[int, int] = (0, 6)
    mountain_radius_cells: float = 5.0
    card_probability: float = 0.85
    noise: tuple[float, float] = (0.5, 5.0)
    blur: tuple[float, float] = (0.3, 1.3)
    jpeg_quality: tuple[int, int] = (55, 95)
    lossless_probability: float = 0.25


# ---------------------------------------------------------------------------------- positions

def random_lattice(rng: np.random.Generator, layout: Layout = DEFAULT_LAYOUT) -> Lattice:
    """A lattice near the mountain anchor at a random angle (kept 5° away from ±45°, where the
    two ways of naming the axes meet) and a random offset."""
    angle = float(rng.uniform(-40.0, 40.0))
    ax, ay = layout.anchor_xy
    a = math.radians(angle)
    du, dv = rng.uniform(-0.5, 0.5, size=2) * layout.pitch
    ox = ax + du * math.cos(a) - dv * math.sin(a)
    oy = ay + du * math.sin(a) + dv * math.cos(a)
    return Lattice((float(ox), float(oy)), angle, layout.pitch)


def _cells(i: int, j: int) -> tuple[tuple[int, int], ...]:
    return ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1))


def random_mountain(rng: np.random.Generator, n_cubes: int, max_levels: int = 6,
                    radius_cells: float = 5.5) -> tuple[tuple[int, int, int], ...]:
    """``n_cubes`` cubes stacked by the full-base rule, up to ``max_levels`` levels, their
    footprints' centres within ``radius_cells`` of the lattice point (0, 0). Higher placements
    are favoured, so piles grow into mountains with offset cubes and overhang-free slopes."""
    heights: dict[tuple[int, int], int] = {}
    cubes: list[tuple[int, int, int]] = []
    span = int(math.ceil(radius_cells)) + 1
    start = (int(rng.integers(-2, 1)), int(rng.integers(-2, 1)))
    climb = float(rng.uniform(1.2, 2.2))
    for _ in range(n_cubes):
        options, weights = [], []
        for i in range(-span - 1, span):
            for j in range(-span - 1, span):
                if math.hypot(i + 1, j + 1) > radius_cells:
                    continue
                if not cubes:
                    if (i, j) != start:
                        continue
                    options.append((i, j, 0))
                    weights.append(1.0)
                    continue
                hs = [heights.get(c, 0) for c in _cells(i, j)]
                z = hs[0]
                if any(h != z for h in hs) or z >= max_levels:
                    continue
                if z == 0:
                    ring = [(a, b) for a in range(i - 1, i + 3) for b in range(j - 1, j + 3)]
                    if not any(heights.get(c, 0) > 0 for c in ring):
                        continue
                options.append((i, j, z))
                weights.append(climb ** z)
        w = np.asarray(weights, float)
        pick = options[int(rng.choice(len(options), p=w / w.sum()))]
        cubes.append(pick)
        for c in _cells(pick[0], pick[1]):
            heights[c] = pick[2] + 1
    return tuple(cubes)


def giant_squares(cubes: tuple[tuple[int, int, int], ...]) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """Squares a giant may stand on: (tops of columns, table cells touching a cube), each as
    (i, j, level)."""
    heights: dict[tuple[int, int], int] = {}
    for i, j, k in cubes:
        for c in _cells(i, j):
            heights[c] = max(heights.get(c, 0), k + 1)
    tops = [(i, j, h) for (i, j), h in heights.items()]
    table = set()
    for (i, j) in heights:
        for a in (-1, 0, 1):
            for b in (-1, 0, 1):
                c = (i + a, j + b)
                if c not in heights:
                    table.add((c[0], c[1], 0))
    return sorted(tops), sorted(table)


def random_giants(rng: np.random.Generator, cubes: tuple[tuple[int, int, int], ...], count: int) -> tuple[Giant, ...]:
    tops, table = giant_squares(cubes)
    colours = list(rng.permutation(GIANT_COLOURS))[:count]
    used: set[tuple[int, int]] = set()
    out = []
    for colour in colours:
        pool = tops if (rng.random() < 0.5 and tops) else table
        free = [s for s in pool if (s[0], s[1]) not in used]
        if not free:
            free = [s for s in tops + table if (s[0], s[1]) not in used]
        i, j, lvl = free[int(rng.integers(0, len(free)))]
        used.add((i, j))
        out.append(Giant(str(colour), (i, j), lvl))
    return tuple(out)


def random_scene(rng: np.random.Generator, ranges: Ranges = Ranges(),
                 layout: Layout = DEFAULT_LAYOUT) -> Scene:
    lattice = random_lattice(rng, layout)
    n = int(rng.integers(ranges.cubes[0], ranges.cubes[1] + 1))
    cubes = random_mountain(rng, n, ranges.max_levels, ranges.mountain_radius_cells)
    giants = random_giants(rng, cubes, int(rng.integers(ranges.giants[0], ranges.giants[1] + 1)))
    card = None
    offset = (0.0, 0.0, 0.0)
    if rng.random() < ranges.card_probability:
        card = str(rng.choice(CARD_NAMES))
        offset = (float(rng.uniform(-4, 4)), float(rng.uniform(-4, 4)), float(rng.uniform(-5, 5)))
    return Scene(lattice, cubes, giants, card, offset, None)


def random_hand(rng: np.random.Generator, scene: Scene, layout: Layout = DEFAULT_LAYOUT,
                target: tuple[float, float] | None = None) -> Hand:
    """An arm reaching from a random side of the table to ``target`` (table mm; by default a
    random point over the play area, most often the mountain), held above every cube."""
    w, h = layout.play_area
    if target is None:
        r = rng.random()
        if r < 0.6:
            ax, ay = layout.anchor_xy
            target = (ax + float(rng.uniform(-110, 110)), ay + float(rng.uniform(-110, 110)))
        elif r < 0.8:
            target = layout.card_zone_centre
        else:
            target = (float(rng.uniform(60, w - 60)), float(rng.uniform(60, h - 60)))
    side = int(rng.integers(0, 4))
    along = float(rng.uniform(0.15, 0.85))
    out = float(rng.uniform(120, 260))
    elbow_xy = [(along * w, -out), (w + out, along * h), (along * w, h + out), (-out, along * h)][side]
    heights = scene.heights()
    top = (max(heights.values()) if heights else 0) * 2 * scene.lattice.pitch
    d = np.array([target[0] - elbow_xy[0], target[1] - elbow_xy[1]])
    d /= max(np.linalg.norm(d), 1e-9)
    wrist_xy = np.array(target) - d * 80.0  # the fingers reach the target, not the wrist
    skin = SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))]
    sleeve = SLEEVES[int(rng.integers(0, len(SLEEVES)))]
    spread = float(rng.uniform(0, 1))
    lift = float(rng.uniform(15, 160))
    hand = Hand((elbow_xy[0], elbow_xy[1], 0.0), (float(wrist_xy[0]), float(wrist_xy[1]), 0.0),
                tuple(float(c) * float(rng.uniform(0.92, 1.05)) for c in skin), sleeve,  # type: ignore[arg-type]
                float(rng.uniform(0.3, 1.0)), spread)
    return lift_hand(hand, top + lift, float(rng.uniform(40, 160)))


def arm_pass(base: Hand, frames: int) -> list[Hand]:
    """An arm making a move in ``frames`` video frames: it comes in to ``base``, works, and draws
    back a little (the wrist pulled towards the elbow, most in the middle frames)."""
    out = []
    for k in range(frames):
        phase = math.sin(math.pi * (k + 1) / (frames + 1))
        wrist = np.array(base.wrist)
        elbow = np.array(base.elbow)
        pulled = elbow + (wrist - elbow) * (0.75 + 0.25 * phase)
        out.append(replace(base, wrist=(float(pulled[0]), float(pulled[1]), float(wrist[2]))))
    return out


def lift_hand(hand: Hand, lowest_mm: float, elbow_rise: float = 80.0) -> Hand:
    """The same arm raised so that its lowest point is ``lowest_mm`` above the table, the elbow
    ``elbow_rise`` higher than the wrist."""
    from companion.synth.bodies import hand_capsules

    probe = replace(hand, wrist=(hand.wrist[0], hand.wrist[1], 0.0),
                    elbow=(hand.elbow[0], hand.elbow[1], elbow_rise))
    low = min(float(c.points()[:, 2].min()) for c in hand_capsules(probe))
    dz = lowest_mm - low
    return replace(probe, wrist=(probe.wrist[0], probe.wrist[1], dz),
                   elbow=(probe.elbow[0], probe.elbow[1], elbow_rise + dz))


# ---------------------------------------------------------------------------------- shots

def random_light(rng: np.random.Generator, name: str | None = None) -> Light:
    """A light of one of :data:`LIGHT_CONDITIONS` (random when ``name`` is None)."""
    name = name or str(rng.choice(LIGHT_CONDITIONS))
    az = float(rng.uniform(0, 360))
    u = rng.uniform
    if name == "daylight":
        s = u(0.7, 0.95)
        return Light(az, u(45, 75), (s * 1.02, s, s * 0.97), (0.36, 0.34, 0.32), name)
    if name == "warm-lamp":
        s = u(0.75, 1.0)
        return Light(az, u(50, 85), (s * 0.50, s * 0.72, s * 0.95), (0.10, 0.15, 0.22), name)
    if name == "cool-led":
        s = u(0.7, 0.95)
        return Light(az, u(60, 90), (s * 1.0, s * 0.93, s * 0.82), (0.28, 0.26, 0.24), name)
    if name == "low-sun":
        s = u(0.8, 1.0)
        return Light(az, u(25, 38), (s * 0.62, s * 0.78, s * 0.95), (0.32, 0.26, 0.20), name)
    if name == "dim":
        s = u(0.20, 0.32)
        return Light(az, u(40, 80), (s * 0.8, s * 0.9, s), (0.07, 0.08, 0.09), name)
    if name == "overcast":
        s = u(0.15, 0.3)
        return Light(az, u(60, 90), (s, s, s), (0.62, 0.64, 0.66), name)
    raise ValueError(f"unknown light condition {name!r}; choose one of {', '.join(LIGHT_CONDITIONS)}")


def _in_frame(view: View, pts: np.ndarray, margin: float) -> bool:
    px = view.project(pts)
    w, h = view.camera.size
    # points behind the camera project to nonsense: check depth too
    cam = pts @ view.pose.R.T + view.pose.t
    return bool(np.all(cam[:, 2] > 1.0) and np.all(px[:, 0] >= margin) and np.all(px[:, 0] <= w - 1 - margin)
                and np.all(px[:, 1] >= margin) and np.all(px[:, 1] <= h - 1 - margin))


def must_see(layout: Layout = DEFAULT_LAYOUT, levels: int = 6) -> np.ndarray:
    """Table points every generated camera sees: the markers' paper, the card zone, and the
    mountain's reach up to ``levels`` cubes high."""
    pts = [np.column_stack([layout.marker_corners(m)[:, :2] * 1.0, np.zeros(4)]) for m in range(4)]
    pts.append(np.column_stack([layout.card_zone_corners(), np.zeros(4)]))
    ax, ay = layout.anchor_xy
    ang = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    r = 130.0
    ring = np.column_stack([ax + r * np.cos(ang), ay + r * np.sin(ang)])
    for z in (0.0, levels * layout.cube):
        pts.append(np.column_stack([ring, np.full(len(ring), z)]))
    return np.concatenate(pts)


def webcam_view(rng: np.random.Generator, ranges: Any, centre: tuple[float, float],
                need: np.ndarray, *, jitter: tuple[float, float] = (40.0, 30.0), tries: int = 500,
                tilt_deg: float | None = None) -> View | None:
    """A webcam drawn in ``ranges`` (tilt, height, field of view, any yaw, a little roll, a lens
    with some distortion) aimed near ``centre`` (table mm, give or take ``jitter``), drawn again
    until it sees every point of ``need`` with a margin; None when ``tries`` draws all failed.
    Every game's synthetic table draws its cameras this way."""
    w, h = ranges.size
    for _ in range(tries):
        tilt = float(rng.uniform(*ranges.tilt_deg)) if tilt_deg is None else float(tilt_deg)
        height = float(rng.uniform(*ranges.height_mm))
        hfov = float(rng.uniform(*ranges.hfov_deg))
        az = float(rng.uniform(0, 2 * math.pi))
        roll = math.radians(float(rng.uniform(-8, 8)))
        f = (w / 2) / math.tan(math.radians(hfov) / 2)
        cam = CameraModel(f, f, (w - 1) / 2 + float(rng.uniform(-15, 15)),
                          (h - 1) / 2 + float(rng.uniform(-12, 12)), (w, h),
                          (float(rng.uniform(-0.30, 0.05)), float(rng.uniform(-0.05, 0.12)),
                           float(rng.uniform(-0.002, 0.002)), float(rng.uniform(-0.002, 0.002)), 0.0),
                          source="synthetic")
        target = (centre[0] + float(rng.uniform(-jitter[0], jitter[0])),
                  centre[1] + float(rng.uniform(-jitter[1], jitter[1])), 0.0)
        horiz = np.array([math.cos(az), math.sin(az), 0.0])
        back = height * math.tan(math.radians(tilt))
        eye = (target[0] - horiz[0] * back, target[1] - horiz[1] * back, height)
        up = (math.cos(az + roll), math.sin(az + roll), 0.0)
        view = View(cam, TablePose.look_at(eye, target, up))
        if _in_frame(view, need, 12.0):
            return view
    return None


def random_view(rng: np.random.Generator, ranges: Ranges = Ranges(), layout: Layout = DEFAULT_LAYOUT,
                tilt_deg: float | None = None) -> View:
    """A webcam somewhere in the kit's range that sees the whole play area (drawn again until
    it does)."""
    view = webcam_view(rng, ranges, layout.anchor_xy, must_see(layout, ranges.max_levels),
                       tilt_deg=tilt_deg)
    if view is None:
        raise RuntimeError("no camera in the asked range sees the whole play area; widen the ranges")
    return view


def shot_through(rng: np.random.Generator, view: View, ranges: Any, *, light: str | None = None,
                 seed: int | None = None) -> Shot:
    """A photograph through ``view``: a random light (or the one named), table top, sensor noise,
    blur, JPEG quality and exposure in ``ranges``, and the seed of its textures and noise."""
    lossless = rng.random() < ranges.lossless_probability
    return Shot(view=view, light=random_light(rng, light), table=str(rng.choice(TABLE_KINDS)),
                table_variant=int(rng.integers(0, 3)),
                table_tint=tuple(float(v) for v in rng.uniform(0.92, 1.08, size=3)),  # type: ignore[arg-type]
                table_shift=(float(rng.uniform(-500, 0)), float(rng.uniform(-500, 0))),
                noise=float(rng.uniform(*ranges.noise)), blur=float(rng.uniform(*ranges.blur)),
                jpeg=None if lossless else int(rng.integers(ranges.jpeg_quality[0], ranges.jpeg_quality[1] + 1)),
                exposure=float(rng.uniform(0.35, 0.55)),
                seed=int(rng.integers(0, 2**31 - 1)) if seed is None else seed)


def random_shot(rng: np.random.Generator, ranges: Ranges = Ranges(), layout: Layout = DEFAULT_LAYOUT,
                *, light: str | None = None, tilt_deg: float | None = None, seed: int | None = None) -> Shot:
    return shot_through(rng, random_view(rng, ranges, layout, tilt_deg), ranges, light=light,
                        seed=seed)


def corpus_item(seed: int, index: int, ranges: Ranges = Ranges(), layout: Layout = DEFAULT_LAYOUT,
                *, hand_probability: float = 0.0) -> tuple[Scene, Shot]:
    """Position ``index`` of the corpus ``seed``: the same pair every time."""
    rng = np.random.default_rng([seed, index])
    scene = random_scene(rng, ranges, layout)
    shot = random_shot(rng, ranges, layout)
    if rng.random() < hand_probability:
        scene = scene.with_hand(random_hand(rng, scene, layout))
    return scene, shot
