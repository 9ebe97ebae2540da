"""The stacks on the table: each dwarf's buildings on their slots, and the kobold's tower.

Each area is looked at in one top-down picture (the plane 30 mm up, which keeps both the foot and
the top of a tall tower near their places), its pixels named as the table or a building colour,
and each slot's stack is read (:func:`~companion.vision.nains.stacks.fit_stack`). The kobold's
tower is read the same way on its spot, blue cubes turned any way.

When the camera looks almost straight down on a stack, its height cannot be measured (each level
shifts its top by under a couple of pixels): the stones are then still reported, their
confidence capped at :data:`UNSURE_HEIGHT`, and the referee keeps the levels it knows from the
history.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.nains.fitting import Fitter
from companion.vision.nains.kit import KOBOLD_COLOUR, MAX_LEVELS, MAX_TOWER, STONE_COLOURS, STONE_MM
from companion.vision.nains.pixels import Background, FrameColours
from companion.vision.nains.planes import plane_picture
from companion.vision.nains.stacks import StackReading, fit_stack
from companion.vision.nains.zones import Area, Rect, ZoneLayout

PPM = 1.5
PLANE_Z = 30.0
#: the picture of an area reaches this far past it (a tall tower leans out in the picture)
MARGIN_MM = 45.0
#: a level's shift in the picture (px) below which a stack's height counts as unmeasurable
MIN_SHIFT_PX = 2.5
UNSURE_HEIGHT = 0.5


@dataclass(frozen=True)
class BuildingReading:
    """A building read: its seat and slot, and its stones bottom first as (colour, shape,
    confidence)."""

    seat: str
    index: int
    stones: tuple[tuple[str, str, float], ...]
    stack: StackReading


def reach(view: View, rect: Rect, top_mm: float, margin: float = MARGIN_MM) -> Rect:
    """The part of the plane picture where stacks standing in ``rect`` show, up to ``top_mm``
    high: ``rect`` grown by ``margin``, and stretched away from the camera's foot as far as a
    top that high leans out in the picture (a tall tower at the far side of the table leans
    out by far more than the margin)."""
    C = view.pose.camera_position
    corners = rect.corners()
    s = (C[2] - PLANE_Z) / max(C[2] - top_mm, 1.0)
    leaned = C[:2] + (corners - C[:2]) * s
    pts = np.vstack([corners, leaned])
    lo, hi = pts.min(axis=0) - margin, pts.max(axis=0) + margin
    return Rect(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def _fitter(image: np.ndarray, view: View, rect: Rect, colours: FrameColours, table: Background,
            names: tuple[str, ...]) -> tuple[Fitter, list[int]]:
    plane = plane_picture(image, view, rect, PLANE_Z, PPM)
    h, w = plane.image.shape[:2]
    lab = colours.lab_of(plane.image.reshape(-1, 3))
    bg = Background.fit_shadows(table, lab[::4])  # a quarter of the pixels measure the shadow as well
    lp = colours.classes(plane.image.reshape(-1, 3), bg).reshape(h, w, -1)
    dark = 1 + colours.names.index("dark") if "dark" in colours.names else None
    fitter = Fitter(plane, lp, view.pose.camera_position, lab[:, 0].reshape(h, w), dark=dark)
    return fitter, [1 + colours.names.index(n) for n in names]


def height_shift_px(view: View, xy: tuple[float, float]) -> float:
    """How far (px) one level moves a stack's top in the camera's picture at ``xy``."""
    pts = np.array([[xy[0], xy[1], 40.0], [xy[0], xy[1], 40.0 + STONE_MM]])
    px = view.project(pts)
    return float(np.linalg.norm(px[1] - px[0]))


def read_area(image: np.ndarray, view: View, area: Area, colours: FrameColours, table: Background,
              tolerance_mm: float, memo: dict | None = None) -> list[BuildingReading]:
    """The buildings on ``area``'s slots. ``memo`` (kept by the caller from one still moment to
    the next while the camera's pose holds) keeps each slot's last reading with its picture: a
    slot whose picture has not changed (:func:`slot_signature`, up to :data:`TURN_LEVELS` above
    its stack: any stone put on it or taken shows there) keeps its reading, so a turn's new stones cost the search of the slots they went
    on, not of the whole area."""
    fitter, cls = _fitter(image, view, reach(view, area.rect, MAX_LEVELS * STONE_MM), colours, table,
                          STONE_COLOURS)
    names = colours.names
    out = []
    for k, slot in enumerate(area.slots):
        old = memo.get((area.zone, k)) if memo is not None else None
        if old is not None and _same(old[0], slot_signature(fitter.plane, view, slot, tolerance_mm, old[2])):
            entry = old
        else:
            # the stack read there before, if any: stones put on it leave it as it was
            under = earlier_stacks(old[1]) if old is not None and old[1] is not None else ()
            reading = _read_slot(fitter, view, area, k, cls, names, tolerance_mm, under)
            levels = min(MAX_LEVELS, (len(reading.stones) if reading is not None else 0) + TURN_LEVELS)
            entry = (slot_signature(fitter.plane, view, slot, tolerance_mm, levels), reading, levels)
        if memo is not None:
            memo[(area.zone, k)] = entry
        if entry[1] is not None:
            out.append(entry[1])
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and float(np.abs(a - b).max()) < SLOT_STILL_LEVEL


#: a stack none of whose stones shows a stone's colour (each one's confidence under this) is
#: no building: a shadow or a dark patch of the table that the foot search took for a stone's
#: foot (at 5° of tilt under a low sun, every empty slot of the corpus's frame read a red stone
#: at 0.00). On the reader corpus (seed 21, 20 frames) they were 29 of the 219 stones read, none
#: right; a building's top in view shows its colour far above this
NOTHING_SHOWN = 0.01


#: a building's lowest stone read under this confidence with a long block on it may be no
#: stone (as the referee takes it: a long block lying towards the camera on another shows as the
#: pair a level higher and a little nearer, over a stone its overhang hides)
BARELY_SEEN = 0.15


def earlier_stacks(reading: BuildingReading) -> tuple[tuple, ...]:
    """The stacks a slot's last reading may be, for the stones put on it next (see
    :func:`~companion.vision.nains.stacks.fit_stack`'s ``under``): the stack read, and when its
    lowest stone was barely seen under a long block, the stack without it (two long blocks read
    a level higher over a stone at 0.09, an orange roof put on them: the roof on the blocks
    filled in over the stone scored 0.9 below four short stones, the blocks' pair of thin near
    faces read as a column of cubes)."""
    st = reading.stack
    out: tuple[tuple, ...] = (st.stones,)
    if len(st.stones) > 1 and st.conf[0] < BARELY_SEEN and st.stones[1].shape == "long":
        out += (st.stones[1:],)
    return out


def _read_slot(fitter: Fitter, view: View, area: Area, k: int, cls: list[int], names: tuple[str, ...],
               tolerance_mm: float, under: tuple = ()) -> BuildingReading | None:
    slot = area.slots[k]
    st = fit_stack(fitter, slot, area.yaw_deg, cls, max_levels=MAX_LEVELS, search_mm=tolerance_mm,
                   under=under[0] if under else (), unders=tuple(under[1:]))
    if st is None or max(st.conf) < NOTHING_SHOWN:
        return None
    cap = 1.0 if height_shift_px(view, slot) >= MIN_SHIFT_PX else UNSURE_HEIGHT
    stones = tuple((names[c - 1], s.shape, min(conf, cap)) for s, c, conf in zip(st.stones, st.classes, st.conf))
    return BuildingReading(area.seat, k, stones, st)


#: a slot whose picture changed less than this (grey levels, in any block of
#: :data:`SLOT_BLOCK_MM`) is unchanged (the sensor's noise averages away; a stone moved
#: changes a block by far more)
SLOT_STILL_LEVEL = 6.0
SLOT_BLOCK_MM = 8.0
#: how far about its slot a stack's search looks (mm, besides the slot tolerance): a long
#: block's half length and the ring outside it, with room for the fine placing
SLOT_REACH_MM = 25.0
#: a slot's picture is watched up to this many levels above the stack last read there: a stone
#: put on it shows at the level over its top (and a stone taken, at its own), one more allows
#: for a stack read a level short
TURN_LEVELS = 2


def slot_signature(plane, view: View, slot: tuple[float, float], tolerance_mm: float,
                   levels: int = MAX_LEVELS) -> np.ndarray:
    """The picture a slot's stack is read from (every place its search looks at, up to
    ``levels`` stones high, leaning out as far as such a stack does), in grey, averaged over
    :data:`SLOT_BLOCK_MM` blocks. Near the camera a tall stack leans out over the next slots
    and the pool: watched only a little above its own top, a slot is not searched again for
    stones taken from the pool behind it."""
    half = tolerance_mm + SLOT_REACH_MM
    r = reach(view, Rect(slot[0] - half, slot[1] - half, slot[0] + half, slot[1] + half),
              levels * STONE_MM, margin=4.0)
    h, w = plane.image.shape[:2]
    (u0, v0), (u1, v1) = plane.to_px(np.array([[r.x0, r.y1], [r.x1, r.y0]]))
    u0, v0 = max(0, int(np.floor(u0))), max(0, int(np.floor(v0)))
    u1, v1 = min(w, int(np.ceil(u1)) + 1), min(h, int(np.ceil(v1)) + 1)
    crop = plane.image[v0:max(v1, v0 + 1), u0:max(u1, u0 + 1)]
    grey = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_BGR2GRAY).astype(np.float32)
    k = max(1, int(round(SLOT_BLOCK_MM * plane.ppm)))
    return cv2.resize(grey, (max(1, grey.shape[1] // k), max(1, grey.shape[0] // k)),
                      interpolation=cv2.INTER_AREA)


def read_tower(image: np.ndarray, view: View, zones: ZoneLayout, colours: FrameColours,
               table: Background) -> tuple[int, float, StackReading | None]:
    """The kobold's tower: its height (0 when its spot is bare) and the confidence in it."""
    names = ("blue",) + tuple(STONE_COLOURS)
    fitter, cls = _fitter(image, view, reach(view, zones.kobold_rect, MAX_TOWER * STONE_MM), colours,
                          table, names)
    st = fit_stack(fitter, zones.kobold, None, cls, max_levels=MAX_TOWER, shapes=("cube",),
                   search_mm=zones.slot_tolerance_mm)
    blue = 1 + colours.names.index(KOBOLD_COLOUR)
    if st is None or st.classes[-1] != blue:
        return 0, 0.9, st
    n = len(st.stones)
    conf = float(min(st.conf[-1], 0.99))
    if height_shift_px(view, zones.kobold) < MIN_SHIFT_PX:
        conf = min(conf, UNSURE_HEIGHT)
    return n, conf, st
