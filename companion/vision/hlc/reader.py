"""The Haut les Cubes camera reader: one frame in, one observation out.

1. **Where is the table?** From the table markers in the frame (``calibration.pose``), with the
   calibrated lens when there is one; a frame where no marker is found is unreadable (None).
2. **The mountain** (:mod:`.mountain`): the lattice found from the cubes, the heights searched
   by drawing hypotheses with the camera model and comparing them with the frame, the cubes by
   the full-base rule. The giants found on it are then left out of the evidence and the
   mountain read again.
3. **A hand?** (:mod:`companion.vision.hands`) The band round the play area, where the mountain
   does not hide it, must look like bare table, and so must the table round the markers: no
   body unlike it may cross that ring from outside towards the play area (an arm the mountain
   read under it hides from the bands, or one held high); otherwise an arm is over the table
   and the frame is reported as ``hand`` with no pieces.
4. **The giants** (:mod:`.giants`) on the squares the heights make, named by colour.
5. **The card** in the played-card zone, recognised against the enrolled faces
   (:class:`companion.vision.cards.CardLibrary`).

The observation is counted on the normalised lattice (``docs/observation.md``).

The reader keeps the last still moment it read well: a frame of the same camera (its markers'
picture unchanged, or the same pose found again) is then read *warm* (:mod:`.warm`): the
lattice, the table and the face models are kept, the heights searched again only where the
picture changed, the card read again only when its zone changed. Anything doubtful reads the
frame cold, from itself alone; ``warm=False`` reads every frame cold.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import BadInput
from companion.observation import Observation, Piece
from companion.vision import hands
from companion.vision.camera import CameraModel, TablePose, View
from companion.vision.colours import ColourModel, estimate_white
from companion.vision.frames import Frame
from companion.vision.hlc.appearance import features
from companion.vision.hlc.giants import GiantReading, default_model, find_giants, giant_mask
from companion.vision.hlc.layout import DEFAULT_LAYOUT, GIANT_COLOURS, Layout
from companion.vision.hlc.lift import lift_giants
from companion.vision.hlc import warm as warm_read
from companion.vision.hlc.raster import Raster
from companion.vision.hlc.mountain import MountainReading, care_mask, mask_out, read_mountain
from companion.vision.hlc.warm import WarmState

GAME = "haut-les-cubes"


@dataclass
class Diagnostics:
    """What the last reading found on the way (for ``--annotate`` and the benchmarks)."""

    view: View | None = None
    mountain: MountainReading | None = None
    hand: hands.HandCheck | None = None
    giants: list[GiantReading] = field(default_factory=list)
    card: Any = None
    timings: dict[str, float] = field(default_factory=dict)
    message: str = ""


def _kept(state: WarmState | None) -> WarmState | None:
    """A copy of the last still moment that a warm reading of ``state`` cannot change. The
    lattice's projections (``Grid``) and the raster's drawn pieces depend on the lattice alone and
    are only ever added to, so they are shared: a whole copy takes 80–120 ms, this one a few."""
    if state is None:
        return None
    search = state.mountain.search
    shared: dict[int, Any] = {}
    for obj in (state.mountain.grid, search.grid, search.raster.grid, state.view):
        shared[id(obj)] = obj
    for name in Raster.SHARED:
        cache = getattr(search.raster, name, None)
        if cache is not None:
            shared[id(cache)] = cache
    return copy.deepcopy(state, shared)


def _board(mountain: MountainReading, view: View) -> dict[str, Any]:
    """The observation's ``board``: the lattice read, and where the camera stands (table mm), so
    that the referee can tell which pieces of a position it judges this camera could see past
    the mountain."""
    return {"lattice": mountain.lattice.to_json(),
            "camera": [round(float(v), 1) for v in view.pose.camera_position]}


def check_image(image: Any) -> np.ndarray:
    """The frame as a BGR uint8 array, or a clear error."""
    if not isinstance(image, np.ndarray):
        raise BadInput(f"a frame must be an image array, not {type(image).__name__}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise BadInput(f"a frame must be a colour image (H×W×3), not an array of shape {image.shape}")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.dtype != np.uint8:
        raise BadInput(f"a frame must be 8-bit (uint8), not {image.dtype}")
    if image.shape[0] < 120 or image.shape[1] < 160:
        raise BadInput(f"a frame of {image.shape[1]}×{image.shape[0]} pixels is too small to read",
                       hint="use the camera's 1280×720 or 1920×1080 mode")
    return image


def paper_white(image: np.ndarray, view: View, layout: Layout) -> tuple[float, float, float] | None:
    """The BGR of the markers' white paper (just outside each marker's black border)."""
    pix = []
    h, w = image.shape[:2]
    s = layout.marker_size / 2
    for m, (cx, cy) in layout.marker_centres().items():
        for d in (s + 3.0, s + 5.0):
            t = np.linspace(-d, d, 24)
            ring = np.concatenate([np.column_stack([cx + t, np.full(24, cy - d)]),
                                   np.column_stack([cx + t, np.full(24, cy + d)]),
                                   np.column_stack([np.full(24, cx - d), cy + t]),
                                   np.column_stack([np.full(24, cx + d), cy + t])])
            px = view.project(np.column_stack([ring, np.zeros(len(ring))]))
            ok = (px[:, 0] >= 0) & (px[:, 0] < w - 1) & (px[:, 1] >= 0) & (px[:, 1] < h - 1)
            q = np.round(px[ok]).astype(int)
            pix.append(image[q[:, 1], q[:, 0]].reshape(-1, 3))
    if not pix:
        return None
    allp = np.concatenate(pix).astype(np.float32)
    if len(allp) < 8:
        return None
    try:
        return estimate_white(allp)
    except BadInput:
        return None


#: markers of an unmeasured layout that fit their nominal places within this (rms, px) are held
#: there (:func:`nominal_view`)
NOMINAL_RMS_PX = 1.5
#: ... when the held pose moves the mountain's picture (its anchor on the table and
#: :data:`MOUNTAIN_TOP_MM` above it) by more than this (px)
HELD_MOVE_PX, MOUNTAIN_TOP_MM = 6.0, 160.0
#: how much a frame is enlarged to look again for the markers not found in it, when it shows
#: no more than :data:`ZOOM_BELOW` of them (three fix the pose well)
MARKER_ZOOM, ZOOM_BELOW = 1.5, 2


def table_markers(image: np.ndarray, camera: CameraModel | None, layout: Any) -> list:
    """The table markers detected in the frame. Where only :data:`ZOOM_BELOW` or fewer are
    found (small markers far off at a steep angle, their cells 3 px wide and blurred), the frame
    enlarged by :data:`MARKER_ZOOM` is looked at too, and the markers found only there are added
    (their corners taken back to the frame's pixels). At 33° of tilt, 1 m away, two of the four
    were missed and the pose from the other two lay 10–23 px off at the far corners."""
    from calibration.markers import Detection, detect_markers, unique_by_id

    size = (image.shape[1], image.shape[0])
    cam = camera.scaled(size) if camera is not None and tuple(camera.size) != size else camera
    found = {i: d for i, d in unique_by_id(detect_markers(image, camera=cam)).items() if i in layout.ids}
    if len(found) > ZOOM_BELOW:
        return list(found.values())
    z = MARKER_ZOOM
    big = cv2.resize(image, (round(size[0] * z), round(size[1] * z)), interpolation=cv2.INTER_CUBIC)
    zcam = cam.scaled((big.shape[1], big.shape[0])) if cam is not None else None
    for i, d in unique_by_id(detect_markers(big, camera=zcam)).items():
        if i in layout.ids and i not in found:
            found[i] = Detection(i, (np.asarray(d.corners, float) + 0.5) / z - 0.5)
    return list(found.values())


def nominal_view(loc: Any, detections: list, layout: Any, size: tuple[int, int],
                 anchor: tuple[float, float]) -> View:
    """The view of a table location, with the markers of an unmeasured layout held at their
    nominal places when they fit there within :data:`NOMINAL_RMS_PX`. The fit of an unmeasured
    layout moves each marker but one (80 mm of prior) to fit its corners best; a few small
    markers far off leave those moves and the pose poorly told apart, and the corners' noise
    alone then moved the pose found 5–14 px at the mountain (the lattice found from the cubes
    half a cell off with it). Markers that sit where the layout says fit there within the
    corners' noise; markers really moved do not, and keep the fit that moved them. The held
    pose is taken only where it moves the mountain's picture by more than :data:`HELD_MOVE_PX`
    (the corpus's poses 6–14 px off); below, the fit is kept as it was: the whole-game videos'
    cameras (18–28° of tilt, their poses 2.5–4.3 px off at the mountain) were refereed right
    on it, and one of them (four players at 24°) was not on the held pose (a still position
    missed at step 37, the verdicts a step late from there), which is not understood yet."""
    from calibration.pose import fit_markers

    fit = loc.fit
    if fit is None or layout.measured or fit.focal_estimated:
        return loc.view
    dets = {d.id: d for d in detections if d.id in fit.markers}
    try:
        held = fit_markers(dets, size, layout, fit.camera, free_layout=False)
    except (BadInput, cv2.error):  # no pose fits them held: keep the moved fit
        return loc.view
    if held.rms_px > NOMINAL_RMS_PX:
        return loc.view
    view = View(loc.view.camera, held.pose)
    ax, ay = anchor
    pts = np.array([[ax, ay, 0.0], [ax, ay, MOUNTAIN_TOP_MM]])
    if float(np.linalg.norm(view.project(pts) - loc.view.project(pts), axis=1).max()) <= HELD_MOVE_PX:
        return loc.view
    return view


class HlcReader:
    """Reads Haut les Cubes positions. ``camera``: the calibrated lens (estimated from the
    markers when None); ``pose``: a fixed table pose to use when no marker is seen;
    ``table_layout``: where the markers really lie (``calibration.boards.TableLayout``);
    ``colours``: a learned colour model for the giants; ``cards``: the enrolled card faces."""

    def __init__(self, *, camera: CameraModel | None = None, pose: TablePose | None = None,
                 table_layout: Any = None, colours: ColourModel | None = None, cards: Any = None,
                 layout: Layout = DEFAULT_LAYOUT, levels: int = 7, warm: bool = True):
        self.camera, self.pose, self.table_layout = camera, pose, table_layout
        self.colours = colours or default_model()
        self.cards = cards
        self.layout = layout
        self.levels = levels
        self.hand_detector = hands.HandDetector(layout)
        self.last = Diagnostics()
        #: the lattice angle of the last frame read with a clear lattice (tried again first)
        self.last_angle: float | None = None
        #: read a frame of an unchanged camera from the last still moment read (:mod:`.warm`)
        self.warm = warm
        self._warm: WarmState | None = None

    # ------------------------------------------------------------------------ the table
    def locate(self, image: np.ndarray) -> View | None:
        """The table's view in this frame: from its markers, else the fixed pose (if any)."""
        from calibration.boards import TableLayout
        from calibration.pose import locate_table

        layout = self.table_layout or TableLayout.rectangle(*self.layout.play_area)
        dets = table_markers(image, self.camera, layout)
        loc = locate_table(image, self.camera, layout, detections=dets)
        if loc.ok:
            return nominal_view(loc, dets, layout, (image.shape[1], image.shape[0]), self.layout.anchor_xy)
        self.last.message = loc.message
        if self.pose is not None and self.camera is not None:
            cam = self.camera
            size = (image.shape[1], image.shape[0])
            if tuple(cam.size) != size:
                cam = cam.scaled(size)
            return View(cam, self.pose)
        return None

    def forget(self) -> None:
        """Read the next frame cold (the table was moved, the game restarted)."""
        self._warm = None

    def memory(self) -> tuple:
        """What reading a frame changes in this reader (the last still moment, the lattice's
        angle, the hand detector's picture of the band, the diagnostics), for the referee loop
        to put back when a reading it made early is dropped (:mod:`companion.runtime.memory`).
        A warm reading works on the last still moment's mountain in place, so that is copied
        (:func:`_kept`); the rest is replaced by a reading, never changed, and is kept as is."""
        return _kept(self._warm), self.last_angle, self.hand_detector.reference, self.last

    def recall(self, memory: tuple) -> None:
        """Back to what :meth:`memory` returned: the readings since are forgotten."""
        self._warm, self.last_angle, self.hand_detector.reference, self.last = memory

    # ------------------------------------------------------------------------ reading
    def read(self, frame: Frame | np.ndarray, view: View | None = None) -> Observation | None:
        """The observation of one frame; None when the table cannot be seen in it."""
        if isinstance(frame, Frame):
            image, index, t = frame.image, frame.index, frame.t
        else:
            image, index, t = frame, None, None
        image = check_image(image)
        self.last = Diagnostics()
        timings = self.last.timings
        t0 = time.perf_counter()
        blocks = warm_read.block_picture(image) if self.warm else None
        changed = None
        state = self._warm
        located = view is not None
        if state is not None and blocks is not None and state.blocks.shape == blocks.shape \
                and (view is None or view is state.view):
            changed = warm_read.changed_blocks(state.blocks, blocks)
            if view is None and not changed[state.marker_blocks].any():
                view, located = state.view, True  # the markers' picture is unchanged: so is the pose
        if not located:
            view = self.locate(image)
            timings["locate_ms"] = (time.perf_counter() - t0) * 1000
            if view is None:
                return None
            if state is not None and changed is not None \
                    and warm_read.same_pose(view, state.view, self.layout.play_area):
                # something crossed a marker, and the markers give the same pose again
                view = state.view
        self.last.view = view
        if float(image.mean()) < 8.0 or float(image.mean()) > 250.0:
            self.last.message = "the frame is black or washed out"
            return None
        obs = self.read_view(image, view, index=index, t=t, changed=changed, blocks=blocks)
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        return obs

    def read_view(self, image: np.ndarray, view: View, *, index: int | None = None,
                  t: float | None = None, changed: np.ndarray | None = None,
                  blocks: np.ndarray | None = None) -> Observation:
        """Read a frame whose view is known (the detection itself, timed by the benchmarks).
        ``changed``: the blocks that changed since the last still moment read, when the camera
        has not moved since: the frame is then read warm (:mod:`.warm`) when it can be."""
        timings = self.last.timings
        t1 = time.perf_counter()
        lay = self.layout
        state, self._warm = self._warm, None  # a reading that goes wrong leaves no state behind
        # a frame with a hand over the table is no still moment: the last one stays remembered
        # (else every position after an arm's pause would be read cold, ten times the time)
        untouched = state
        if state is None or changed is None or state.view is not view:
            state = None
        elif blocks is not None and warm_read.drifted(state.fitted, blocks):
            self.last.message = "cold: the light changed since the models were fitted"
            state = None
        white = paper_white(image, view, lay)
        found = None
        if state is not None:
            untouched = _kept(state)  # the warm reading works on the state in place
            got = warm_read.read_warm(image, view, state, changed, white, layout=lay, levels=self.levels,
                                      colours=self.colours)
            if isinstance(got, str):
                self.last.message = f"cold: {got}"
            else:
                found, self.last.message = got, "warm"
        if found is None and state is not None:
            arm = self.arm_reaching_in(image, view, untouched)
            if arm.hand:  # no position: not read cold only to be refused
                self._warm, self.last.hand = untouched, arm
                self.last.message = "an arm over the table (seen before reading the mountain)"
                return Observation(GAME, (), frame=index, t=t, hand=True,
                                   board=_board(untouched.mountain, view))
        if found is None:
            mountain, giants = self._cold_mountain(image, view, white)
        else:
            mountain, giants = found
        self.last.mountain, self.last.giants = mountain, giants
        timings["mountain_ms"] = (time.perf_counter() - t1) * 1000
        hidden = self._mountain_mask(image.shape, mountain)
        # the room's light found at the last still moment: that direction and the ones round it
        # are tried (a warm reading), else every direction, refined
        around = state.light if found is not None and state is not None else None
        shadow, light = hands.find_shadow(image, view, self._columns(mountain), hidden, around=around)
        shade = self._shade(image, mountain, hidden, shadow)
        if shade is not None:
            # the table in the learned shade is table: it is not judged, nor learned from
            hidden = np.maximum(hidden, shade)
        check = self.hand_detector.check(image, view, hidden, shadow)
        if not check.hand:
            # the table's look round the play area, made once for both checks below
            amap = hands.anomaly_map(image, view, lay, hidden, shadow)
            check = hands.area_check(image, view, lay, hidden, shadow, amap=amap)
        if not check.hand:
            # an arm the bands cannot judge (in front of the band where the mountain read under
            # it hides it, or held high) is still seen reaching in across the table round them
            check = hands.reach_check(image, view, lay, hidden, shadow, amap=amap)
        self.last.hand = check
        board = _board(mountain, view)
        if check.hand:
            self._warm = untouched
            return Observation(GAME, (), frame=index, t=t, hand=True, board=board)
        if mountain.cubes:
            self.last_angle = mountain.lattice.angle_deg
        pieces = [Piece(kind="cube", cell=(i, j), level=k, conf=round(mountain.conf.get((i, j, k), 0.5), 4))
                  for i, j, k in sorted(mountain.cubes, key=lambda c: (c[2], c[1], c[0]))]
        pieces += [Piece(kind="giant", cell=g.cell, level=g.level, conf=g.conf, attrs={"colour": g.colour})
                   for g in giants]
        if state is not None and found is not None and not changed[state.card_blocks].any():
            card, self.last.card = state.card, state.card_match  # the card zone is as it was
        else:
            card = self._card(image, view)
        if card is not None:
            pieces.append(card)
        if self.warm and mountain.cubes:
            self._keep(image, view, mountain, giants, card, blocks, light,
                       state if found is not None else None)
        return Observation(GAME, tuple(pieces), frame=index, t=t, board=board)

    def _cold_mountain(self, image: np.ndarray, view: View, white: Any
                       ) -> tuple[MountainReading, list[GiantReading]]:
        """The mountain and the giants read from this frame alone."""
        lay = self.layout
        mountain = read_mountain(image, view, lay, levels=self.levels, hint_deg=self.last_angle)
        ev = mountain.search.evidence
        table = ev.table
        wood = None if ev.top_model is None else (ev.top_model, ev.top_typical)
        # a first look: the giants it finds are left out of the mountain's evidence, and looked
        # for again on the heights read without them (a dark one judged by its outline then)
        giants = find_giants(image, view, mountain.lattice, mountain.heights, lay, self.colours, white,
                             table, wood, ev.models, surround=False)
        if giants:
            mountain = mask_out(mountain, giant_mask(image.shape, view, mountain.lattice, giants, lay),
                                [(g.cell, g.level) for g in giants])
            wood = None if ev.top_model is None else (ev.top_model, ev.top_typical)
            giants = find_giants(image, view, mountain.lattice, mountain.heights, lay, self.colours,
                                 white, table, wood, ev.models)
        if giants:
            # a giant read unsure may stand a level up, on a cube its own body hides
            def find(heights: dict[tuple[int, int], int]) -> list[GiantReading]:
                return find_giants(image, view, mountain.lattice, heights, lay, self.colours, white,
                                   table, wood, ev.models)
            mountain, giants = lift_giants(mountain, giants, find)
        return mountain, giants

    def _keep(self, image: np.ndarray, view: View, mountain: MountainReading, giants: list[GiantReading],
              card: Piece | None, blocks: np.ndarray | None, light: tuple[float, float] | None,
              previous: WarmState | None = None) -> None:
        """Remember this still moment for the next frame's warm reading (``previous``: the
        state it was read warm from, whose view and grid it shares)."""
        from calibration.boards import TableLayout

        if blocks is None:
            blocks = warm_read.block_picture(image)
        g = mountain.grid
        mask = giant_mask(image.shape, view, mountain.lattice, giants, self.layout) if giants \
            else np.zeros(image.shape[:2], np.uint8)
        if previous is not None:
            base_care, card_blocks, marker_blocks = previous.base_care, previous.card_blocks, previous.marker_blocks
            fitted, lattice_cubes = previous.fitted, previous.lattice_cubes
            lattice_changes = previous.lattice_changes + len(set(mountain.cubes) ^ previous.cubes)
        else:
            layout = self.table_layout or TableLayout.rectangle(*self.layout.play_area)
            markers = [np.asarray(layout.marker(i).corners(), float) for i in layout.ids]
            card_zone = [np.column_stack([self.layout.card_zone_corners(), np.zeros(4)])]
            base_care = care_mask(g, self.layout, (image.shape[1], image.shape[0]))
            card_blocks = warm_read.polygon_blocks(blocks.shape, view, card_zone)
            marker_blocks = warm_read.polygon_blocks(blocks.shape, view, markers)
            fitted, lattice_cubes, lattice_changes = blocks, len(mountain.cubes), 0
        self._warm = WarmState(
            blocks=blocks, view=view, mountain=mountain, base_care=base_care, giant_mask=g.crop(mask) > 0,
            cubes=frozenset(mountain.cubes), card=card, card_match=self.last.card,
            card_blocks=card_blocks, marker_blocks=marker_blocks, light=light, fitted=fitted,
            lattice_cubes=lattice_cubes, lattice_changes=lattice_changes)

    def arm_reaching_in(self, image: np.ndarray, view: View, state: WarmState) -> hands.HandCheck:
        """Whether an arm reaches in over the table, judged before the mountain is read again.

        A frame whose warm reading failed is read cold (a second or more of CPU) before the arm
        checks can refuse it; an arm pausing over the table is the usual cause, so the checks
        that need no new reading are made first: the band along the play area's edge
        (:meth:`.hands.HandDetector.check`) and the ring of table round it
        (:func:`.hands.reach_check`), leaving out the mountain of the last still moment
        (``state``) grown by a cube's picture all round (what was laid on or beside it since),
        its shadow and the shade joined to them. Pieces are laid at the mountain in the middle of
        the play area, never across its edge, so a position is not taken for an arm here; an arm
        these checks miss is still looked for after the cold reading, as before."""
        mountain = state.mountain
        hidden = self._mountain_mask(image.shape, mountain)
        ax, ay = self.layout.anchor_xy
        ends = view.project(np.array([[ax, ay, 0.0], [ax + 2 * self.layout.pitch, ay, 0.0]]))
        grow = int(round(float(np.hypot(*(ends[1] - ends[0]))))) | 1
        hidden = cv2.dilate(hidden, np.ones((grow, grow), np.uint8))
        shadow, _ = hands.find_shadow(image, view, self._columns(mountain), hidden, around=state.light)
        shade = self._shade(image, mountain, hidden, shadow)
        if shade is not None:
            hidden = np.maximum(hidden, shade)
        band = self.hand_detector.check(image, view, hidden, shadow)
        if band.hand:
            return band
        return hands.reach_check(image, view, self.layout, hidden, shadow)

    def learn_hand_free(self, image: np.ndarray, view: View) -> None:
        """Remember this frame's band as bare table (call it with a frame known to have no hand)."""
        self.hand_detector.learn(image, view)

    # ------------------------------------------------------------------------ helpers
    def _mountain_mask(self, shape: tuple[int, ...], mountain: MountainReading) -> np.ndarray:
        mask = np.zeros(shape[:2], np.uint8)
        g = mountain.grid
        x0, y0 = g.off.astype(int)
        hh, ww = g.full_shape
        labels = (mountain.search.labels > 0).astype(np.uint8)
        if g.scale != 1.0:
            labels = cv2.resize(labels, (ww, hh), interpolation=cv2.INTER_NEAREST)
        mask[y0:y0 + hh, x0:x0 + ww] = labels
        return cv2.dilate(mask, np.ones((7, 7), np.uint8))

    @staticmethod
    def _shade(image: np.ndarray, mountain: MountainReading, hidden: np.ndarray,
               shadow: np.ndarray | None) -> np.ndarray | None:
        """Where the table lies in the learned shade (a shade of another colour than the light's,
        :meth:`.appearance.TableModel.learn_shadow`) joined to the mountain or to the shadow
        found from its columns (``shadow``) through shade, for the hand checks to leave out
        like the mountain: a low sun's shadow is longer and wider than the columns read make it
        where a cube is missed or read a level low, and judged as table it would make the
        table's look too loose to tell a dark arm from it. Whatever lies in it that is not the
        table's shade (an arm) is still judged. None when no shade was learned."""
        table = mountain.search.evidence.table
        if table.shadow is None:
            return None
        h, w = image.shape[:2]
        small = cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        shade = table.in_shade(features(small))
        seeds = hidden if shadow is None else np.maximum(hidden, shadow)
        seeds = cv2.resize(seeds, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
        n, lab = cv2.connectedComponents((shade | seeds).astype(np.uint8), connectivity=8)
        touching = np.unique(lab[seeds])
        keep = np.isin(lab, touching[touching > 0]) & shade
        if not keep.any():
            return None
        # its soft edge with it
        keep = cv2.dilate(keep.astype(np.uint8), np.ones((3, 3), np.uint8))
        return cv2.resize(keep, (w, h), interpolation=cv2.INTER_NEAREST).astype(np.uint8)

    @staticmethod
    def _columns(mountain: MountainReading) -> list[tuple[np.ndarray, float]]:
        """The mountain's columns as (table corners, height mm), for its shadows."""
        lat = mountain.lattice
        out = []
        for (i, j), h in mountain.heights.items():
            corners = lat.to_table(np.array([[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]], float))
            out.append((corners, h * 2.0 * lat.pitch))
        return out

    def _card(self, image: np.ndarray, view: View) -> Piece | None:
        if self.cards is None or len(self.cards) == 0:
            return None
        match = self.cards.recognise_in_view(image, self.layout.card_zone_corners(), view)
        self.last.card = match
        if match.name is None:
            return None
        return Piece(kind="card", zone="played", conf=round(float(match.confidence), 4),
                     attrs={"card": match.name})


def make_reader(**kwargs: Any) -> HlcReader:
    """The reader the registry builds (:mod:`companion.vision.readers`): ``calibration`` (what
    :func:`calibration.store.load_calibration` gives) supplies the lens, the table pose and the
    markers' layout, and beside it the learned colours and the enrolled cards; any
    :class:`HlcReader` argument may be given directly."""
    calibration = kwargs.pop("calibration", None)
    size = kwargs.pop("size", None)
    kwargs.pop("game", None)
    if calibration is not None:
        camera = calibration.camera_for(size) if size is not None else calibration.camera
        kwargs.setdefault("camera", camera)
        kwargs.setdefault("pose", calibration.pose)
        kwargs.setdefault("table_layout", calibration.layout)
        if calibration.path is not None:
            from calibration.store import load_colours
            from companion.vision.cards import CardLibrary, library_path

            if "colours" not in kwargs:
                colours = load_colours(GAME, calibration.path)
                if colours is not None and all(c in colours.names for c in GIANT_COLOURS):
                    kwargs["colours"] = colours
            if "cards" not in kwargs:
                path = library_path(GAME, calibration.path.parent)
                if path.exists():
                    kwargs["cards"] = CardLibrary.load(path)
    allowed = {"camera", "pose", "table_layout", "colours", "cards", "layout", "levels"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise BadInput(f"the Haut les Cubes reader takes no {', '.join(sorted(unknown))}",
                       hint=f"it takes calibration, size and {', '.join(sorted(allowed))}")
    return HlcReader(**kwargs)
