"""The La Ville des Nains camera reader: a frame in, the dice, the pool, the buildings and the
kobold's tower out.

``make_reader(**kwargs)`` builds a :class:`NainsReader` (see :mod:`companion.vision.readers`);
``read(frame)`` returns an :class:`~companion.observation.Observation` in the format of
``docs/observation/ville-des-nains.md``: the dice in the tray (``die``, ``face``), the stones of
the pool (``colour``, ``shape``), each building's stones by level (zone ``player:<seat>``,
``building`` its slot), the kobold's tower one blue stone per level. An arm over the table gives
an observation with ``hand=True`` and no pieces (so does a table marker in view, found before and
not now: only an arm covers one); a frame where the table cannot be located (its
markers out of view) gives None. ``annotate(image, observation)`` draws a reading over the frame.

The steps, each in its own module: locate the table (:mod:`.locate`), measure the light (the
markers' paper, the table's own colour and its shadows: :mod:`.pixels`), look for an arm at the
table's edge (:mod:`.hands`), read the tray (:mod:`.dice`), the pool (:mod:`.pool`), the
buildings and the tower (:mod:`.buildings`), then look for anything large left unexplained (an
arm or a hand over the pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.boards import TableLayout
from companion.errors import BadInput
from companion.observation import Observation, Piece
from companion.vision.blocks import area_corners, same_view
from companion.vision.camera import CameraModel, View
from companion.vision.colours import ColourModel
from companion.vision.frames import Frame
from companion.vision.nains import hands
from companion.vision.nains.buildings import BuildingReading, read_area, read_tower
from companion.vision.nains.dice import DieReading, read_tray
from companion.vision.nains.kit import DIE_MM, GAME, KOBOLD_SHAPE, PALETTE, STONE_MM
from companion.vision.nains.locate import TableFix, TableLocator
from companion.vision.nains.pixels import Background, FrameColours, paper_white
from companion.vision.nains.planes import free_table, sample
from companion.vision.nains.pool import StoneReading, read_pool
from companion.vision.nains.solids import Placed, place
from companion.vision.nains.zones import ZoneLayout

#: a reading's confidence is capped here (a camera is never certain)
MAX_CONF = 0.995
#: a pool stone read less surely than this is left out (a missed pool stone costs the referee
#: little, a wrong one more: docs/observation/ville-des-nains.md)
POOL_MIN_CONF = 0.5
#: the classes the pixels are named by: the palette and "dark"
CLASSES = tuple(PALETTE) + ("dark",)


@dataclass(frozen=True)
class Reading:
    """Everything one frame gave, for the observation and for diagnostics."""

    fix: TableFix
    hand: bool = False
    hand_mm2: float = 0.0
    dice: tuple[DieReading, ...] = ()
    pool: tuple[StoneReading, ...] = ()
    buildings: tuple[BuildingReading, ...] = ()
    tower: int = 0
    tower_conf: float = 0.0


@dataclass
class NainsReader:
    """Reads La Ville des Nains frames. ``camera``: the lens calibration (recommended: heights
    are read through perspective); ``layout``: where the table markers lie (measured by
    ``companion calibrate table``; by default the zones' play area); ``zones``: the table's
    layout (:class:`~companion.vision.nains.zones.ZoneLayout`); ``colours``: the pieces' colours
    learned under the table's light (``companion calibrate colours --game ville-des-nains``; the
    nominal colours without); ``reuse_pose``: keep the last frame's pose while its markers stay
    put (a live camera)."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    zones: ZoneLayout = field(default_factory=ZoneLayout)
    colours: ColourModel | None = None
    reuse_pose: bool = True
    locator: TableLocator = field(init=False)
    #: the pose of the last frame read (what the overlay draws with)
    last_view: View | None = field(default=None, init=False, repr=False)
    _memo: dict = field(default_factory=dict, init=False, repr=False)
    _pool_regions: dict = field(default_factory=dict, init=False, repr=False)
    _slots: dict = field(default_factory=dict, init=False, repr=False)
    _read_view: View | None = field(default=None, init=False, repr=False)
    _seen_markers: set = field(default_factory=set, init=False, repr=False)

    def __post_init__(self) -> None:
        self.locator = TableLocator(self.camera, self.layout or self.zones.table_layout())
        self.overlay_locator = TableLocator(self.camera, self.layout or self.zones.table_layout())
        if self.colours is None:
            self.colours = ColourModel.default(list(PALETTE))
        missing = [c for c in PALETTE if c != "white" and c not in self.colours.names]
        if missing:
            raise BadInput(f"the colour model has no {', '.join(missing)} for the stones and dice",
                           hint="run `companion calibrate colours --game ville-des-nains`")

    # -- reading --------------------------------------------------------------------------------

    def _covered_markers(self, fix: TableFix, shape: tuple[int, ...]) -> set[int]:
        """The table markers this camera found before, well inside the picture, that are not
        found now: the markers lie outside the play area, where no piece goes, so what covers
        one is an arm or a hand (reaching in over a corner, often held high above the pieces,
        where the table-plane checks see little of it). A marker never found (at the picture's
        edge, badly lit) says nothing."""
        assert fix.view is not None
        h, w = shape[:2]
        m = MARKER_MARGIN_PX
        self._seen_markers |= set(fix.markers)
        out = set()
        for placement in self.locator.layout.markers:
            if placement.id in fix.markers or placement.id not in self._seen_markers:
                continue
            px = fix.view.project(np.asarray(placement.corners(), float))
            if np.all(np.isfinite(px)) and np.all(px >= m) and np.all(px[:, 0] <= w - 1 - m) \
                    and np.all(px[:, 1] <= h - 1 - m):
                out.add(placement.id)
        return out

    def read(self, frame: Frame | np.ndarray) -> Observation | None:
        image = frame.image if isinstance(frame, Frame) else frame
        reading = self.read_all(image)
        idx = frame.index if isinstance(frame, Frame) else None
        t = frame.t if isinstance(frame, Frame) else None
        return observation_of(reading, frame=idx, t=t)

    def annotate(self, image: np.ndarray, observation: Observation | None) -> np.ndarray:
        """:func:`annotate` with this reader's camera and zones (the camera view's overlay)."""
        return annotate(image, observation, reader=self)

    def read_all(self, image: np.ndarray) -> Reading:
        """Every step of a reading (see the module docstring)."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            raise BadInput("a La Ville des Nains reading needs a colour (BGR) image")
        fix = self.locator.locate(image, reuse=self.reuse_pose)
        if not fix.ok:
            return Reading(fix)
        view = fix.view
        assert view is not None and self.colours is not None
        if self._covered_markers(fix, image.shape) and fix.reused:
            # a pose kept from a frame where an arm hid a marker: look for every marker again
            fix = self.locator.locate(image, reuse=False)
            if not fix.ok:
                return Reading(fix)
            view = fix.view
            assert view is not None
        if self._covered_markers(fix, image.shape):
            return Reading(fix, hand=True)
        self.last_view = view
        colours = FrameColours(self.colours, paper_white(image, fix.detections), CLASSES)
        zones = self.zones
        free = colours.lab_of(sample(image, view, free_table(zones)))
        if len(free) < 50:
            return Reading(fix, hand=True)  # the bare table is hidden: something lies over it
        table = Background.fit(free)
        over = hands.overview(image, view, zones)
        table = Background.fit_shadows(table, colours.lab_of(over.image.reshape(-1, 3)))
        foreign = hands.foreign(over, colours, table, zones)
        edge = hands.arm_at_edge(over, foreign, zones)
        if edge >= hands.EDGE_ARM_MM2:
            return Reading(fix, hand=True, hand_mm2=edge)
        # the zones' last readings hold while the pose does: kept from the last frame, or found
        # again where it was (an arm over a marker makes the locator look again; the pose it
        # finds differs by a fraction of a pixel, and a zone whose picture is unchanged need not
        # be read again, nor read differently)
        kept = self.reuse_pose and (fix.reused or _same_pose(self._read_view, view, zones))
        memo = self._memo if kept else {}
        fresh: dict = {}

        def once(key: str, rect, work):
            """A zone's reading, or the last one when the zone's picture has not changed."""
            sig = _signature(image, view, rect)
            old = memo.get(key)
            if old is not None and _same(old[0], sig):
                fresh[key] = old
                return old[1]
            result = work()
            fresh[key] = (sig, result)
            return result

        dice = once("tray", zones.tray, lambda: tuple(read_tray(image, view, zones.tray, colours, None)))
        regions = self._pool_regions if kept else {}
        pool = once("pool", zones.pool, lambda: read_pool(image, view, zones.pool, colours, table, regions)[0])
        self._pool_regions = regions
        slots = self._slots if kept else {}
        buildings = []
        for area in zones.areas:
            buildings += once(area.zone, area.rect.grown(40.0),
                              lambda area=area: read_area(image, view, area, colours, table,
                                                          zones.slot_tolerance_mm, slots))
        self._slots = slots
        tower, tower_conf, tower_stack = once("kobold", zones.kobold_rect.grown(40.0),
                                              lambda: read_tower(image, view, zones, colours, table))
        self._memo = fresh
        self._read_view = view
        solids = _solids(dice, pool, buildings, tower_stack if tower else None)
        loose = hands.unexplained_area(over, foreign, view, solids)
        if loose >= hands.LOOSE_HAND_MM2:
            return Reading(fix, hand=True, hand_mm2=loose)
        return Reading(fix, False, loose, dice, tuple(pool), tuple(buildings), tower, tower_conf)


#: a marker whose picture lies this far (px) inside the frame is one the camera should see
MARKER_MARGIN_PX = 24.0



#: a zone whose picture changed less than this (grey levels, in any 8 mm block) is unchanged
STILL_LEVEL = 6.0


def _signature(image: np.ndarray, view, rect) -> np.ndarray:
    """A zone's picture at 2 mm a pixel, averaged over 8 mm blocks (the sensor's noise
    averages away; a stone moved changes a block by far more)."""
    from companion.vision.nains.planes import plane_picture

    small = plane_picture(image, view, rect, 0.0, 0.5).image
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.resize(grey, (max(1, grey.shape[1] // 4), max(1, grey.shape[0] // 4)), interpolation=cv2.INTER_AREA)




def _same_pose(a: View | None, b: View | None, zones: ZoneLayout) -> bool:
    if a is None or b is None:
        return False
    return same_view(a, b, area_corners(zones.width_mm, zones.depth_mm))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and float(np.abs(a - b).max()) < STILL_LEVEL


def _solids(dice, pool, buildings, tower_stack) -> list[Placed]:
    """Every piece read, as a solid where the reader put it (for the unexplained-area check)."""
    out = [place("die", d.centre[0], d.centre[1], 0.0, d.yaw_deg) for d in dice]
    out += [place(s.shape, s.centre[0], s.centre[1], 0.0, s.yaw_deg) for s in pool]
    for b in buildings:
        for k, s in enumerate(b.stack.stones):
            out.append(place(s.shape, s.x, s.y, k * STONE_MM, s.yaw))
    if tower_stack is not None:
        for k, s in enumerate(tower_stack.stones):
            out.append(place(KOBOLD_SHAPE, s.x, s.y, k * STONE_MM, s.yaw))
    return out


def observation_of(reading: Reading, *, frame: int | None = None, t: float | None = None
                   ) -> Observation | None:
    """The documented observation for a reading (None when the table was not seen)."""
    if not reading.fix.ok:
        return None
    board: dict[str, Any] = {"markers": list(reading.fix.markers)}
    if reading.fix.rms_px is not None:
        board["rms_px"] = round(float(reading.fix.rms_px), 3)
    if reading.hand:
        return Observation(game=GAME, hand=True, frame=frame, t=t, board=board)
    pieces = []
    for d in reading.dice:
        pieces.append(Piece("die", conf=_c(d.conf), zone="tray", attrs={"die": d.die, "face": d.face}))
    for s in reading.pool:
        if s.conf >= POOL_MIN_CONF:
            pieces.append(Piece("stone", conf=_c(s.conf), zone="pool", attrs={"colour": s.colour, "shape": s.shape}))
    for b in reading.buildings:
        shape_conf = b.stack.shape_conf if b.stack is not None else ()
        for level, (colour, shape, conf) in enumerate(b.stones):
            attrs = {"building": b.index, "colour": colour, "shape": shape}
            if level < len(shape_conf):
                attrs["shape_conf"] = round(float(min(shape_conf[level], MAX_CONF)), 3)
            pieces.append(Piece("stone", conf=_c(conf), zone=f"player:{b.seat}", level=level,
                                attrs=attrs))
    for level in range(reading.tower):
        pieces.append(Piece("stone", conf=_c(reading.tower_conf), zone="kobold", level=level,
                            attrs={"colour": "blue"}))
    return Observation(game=GAME, pieces=tuple(pieces), frame=frame, t=t, board=board)


def _c(conf: float) -> float:
    return float(min(max(conf, 0.0), MAX_CONF))


# ------------------------------------------------------------------------------ annotation
_BGR = {"red": (40, 40, 230), "orange": (20, 140, 255), "yellow": (30, 220, 240),
        "violet": (170, 50, 140), "blue": (230, 120, 30), "white": (250, 250, 250)}
_SHORT = {"cube": "C", "long": "L", "cylinder": "O", "roof": "R"}


def annotate(image: np.ndarray, observation: Observation | None, *, reader: NainsReader | None = None
             ) -> np.ndarray:
    """The frame with a reading drawn over it: the zones' outlines, each die's face by its top,
    each pool stone's colour and shape, each building's stones by level beside its slot, the
    kobold tower's height; sure readings in solid colour, doubtful ones (confidence under 0.6)
    in red text. The table is located again in the image (with ``reader``'s camera and zones
    when given). Nothing to draw (no table, a hand): the frame with a line saying so."""
    out = np.ascontiguousarray(image.copy())
    if observation is None:
        return _banner(out, "table not seen: check its markers")
    if observation.hand:
        return _banner(out, "hand over the table: not read")
    reader = reader or NainsReader()
    view = reader.last_view
    if view is None:
        # a locator of the overlay's own: the reader's keeps the pose (and with it the zones'
        # readings) of the last still moment, which the frames drawn in between (an arm over
        # a marker) must not disturb
        fix = reader.overlay_locator.locate(image, reuse=True)
        if not fix.ok or fix.view is None:
            return _banner(out, "table not seen: check its markers")
        view = fix.view
    zones = reader.zones

    def px(x: float, y: float, z: float = 0.0) -> tuple[int, int]:
        p = view.project(np.array([[x, y, z]]))[0]
        return int(round(p[0])), int(round(p[1]))

    for rect in [zones.tray, zones.pool, zones.kobold_rect] + [a.rect for a in zones.areas]:
        poly = view.project(np.column_stack([rect.corners(), np.zeros(4)]))
        cv2.polylines(out, [np.round(poly).astype(np.int32)], True, (200, 200, 200), 1, cv2.LINE_AA)
    pool = [p for p in observation.pieces if p.zone == "pool"]
    for k, p in enumerate(pool):
        x = zones.pool.x0 + 8 + (k % 12) * 27
        y = zones.pool.y0 - 10 - (k // 12) * 10
        _label(out, px(x, y), f"{_SHORT.get(str(p.get('shape')), '?')}", _BGR.get(str(p.get("colour")), (255, 255, 255)), p.conf)
    dice = [p for p in observation.pieces if p.kind == "die"]
    for k, p in enumerate(dice):
        text = str(p.get("face")) if p.get("die") == "colour" else f"K:{p.get('face')}"
        _label(out, px(zones.tray.x0 + 5, zones.tray.y0 - 8 - 10 * k), text,
               _BGR.get(str(p.get("face")), (255, 255, 255)), p.conf)
    for area in zones.areas:
        for k, (sx, sy) in enumerate(area.slots):
            stones = sorted((p for p in observation.pieces if p.zone == area.zone and p.get("building") == k),
                            key=lambda p: p.level or 0)
            for p in stones:
                z = (p.level or 0) * STONE_MM + STONE_MM / 2
                _label(out, px(sx, sy, z), f"{p.level}{_SHORT.get(str(p.get('shape')), '?')}",
                       _BGR.get(str(p.get("colour")), (255, 255, 255)), p.conf)
    tower = [p for p in observation.pieces if p.zone == "kobold"]
    kx, ky = zones.kobold
    _label(out, px(kx, ky - 35), f"tower {len(tower)}", _BGR["blue"], min((p.conf for p in tower), default=1.0))
    return out


def _label(image: np.ndarray, at: tuple[int, int], text: str, colour: tuple[int, int, int], conf: float) -> None:
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.38, colour if conf >= 0.6 else (0, 0, 255), 1, cv2.LINE_AA)


def _banner(image: np.ndarray, text: str) -> np.ndarray:
    cv2.rectangle(image, (0, 0), (image.shape[1], 28), (0, 0, 0), -1)
    cv2.putText(image, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return image


def make_reader(**kwargs: Any) -> NainsReader:
    """The reader the registry builds (:mod:`companion.vision.readers`): ``calibration`` (what
    :func:`calibration.store.load_calibration` gives) supplies the lens, the table's layout and
    any zones recorded in its ``extra``; ``zones`` a layout, its JSON, or a settings file
    holding it; ``colours`` a learned colour model; any :class:`NainsReader` field may be given
    directly."""
    calibration = kwargs.pop("calibration", None)
    size = kwargs.pop("size", None)
    zones = kwargs.pop("zones", None)
    kwargs.pop("game", None)
    extra = None
    if calibration is not None:
        camera = calibration.camera_for(size) if size is not None else calibration.camera
        kwargs.setdefault("camera", camera)
        kwargs.setdefault("layout", calibration.layout)
        extra = calibration.extra
    kwargs["zones"] = ZoneLayout.load(zones, extra)
    allowed = {"camera", "layout", "colours", "reuse_pose", "zones"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise BadInput(f"the La Ville des Nains reader takes no {', '.join(sorted(unknown))}",
                       hint=f"it takes calibration, size and {', '.join(sorted(allowed))}")
    return NainsReader(**kwargs)
