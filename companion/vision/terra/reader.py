"""The Terra Turrium camera reader: a frame in, the towers' heights and the flags out.

``make_reader(**kwargs)`` builds a :class:`TerraReader` (see :mod:`companion.vision.readers`);
``read(frame)`` returns an :class:`~companion.observation.Observation` in the format of
``docs/observation/terra-turrium.md``: one ``tower`` per square with blocks (``level`` = its
height, ``conf`` the reader's probability of that height), one ``flag`` per flag (``colour``,
``cell``, ``level`` its tower's height). An arm over the board gives an observation with
``hand=True`` and no pieces; a frame where the board cannot be seen (its markers out of view,
covered) gives None. ``annotate(image, observation)`` draws a reading over the frame.

The steps, each in its own module: locate the board (:mod:`~companion.vision.terra.locate`),
sample every height hypothesis of every square (:mod:`~companion.vision.terra.features`), find
the flags' heads (:mod:`~companion.vision.terra.flags`) and hide them from the towers, check for
an arm (:mod:`~companion.vision.terra.hands`), read the heights front to back
(:mod:`~companion.vision.terra.heights`), check for an arm again with the towers known, and
place each flag on its tower (and look again for heads that nearer towers half hide).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from calibration.boards import TableLayout
from companion.errors import BadInput
from companion.observation import Observation, Piece
from companion.vision.camera import CameraModel
from companion.vision.colours import ColourModel
from companion.vision.frames import Frame
from companion.vision.terra import flags as flagmod
from companion.vision.terra import hands
from companion.vision.terra.features import (
    FEATURE_NAMES, Palette, Samples, estimate_top, occlusion, paper_colours, sample,
    white_reference,
)
from companion.vision.terra.geometry import BoardGeometry
from companion.vision.terra.heights import HeightReading, decode
from companion.vision.terra.kit import BLOCK_MM, GAME, SIZE, SQUARE_MM, head_centre_z
from companion.vision.terra.locate import BoardLocator, Located
from companion.vision.terra.model import HeightModel

#: a reading's confidence is capped here (a camera is never certain)
MAX_CONF = 0.995
#: a square is read clearly with at least this confidence and this share of its top (or of
#: the board's square, when empty) in view; it is hidden with less than HIDDEN_SEEN in view.
#: From a tilted camera an empty square behind a one-block tower shows a third of itself.
SURE = 0.9
CLEAR_SEEN = 0.3
HIDDEN_SEEN = 0.5
#: the confidence of a height remembered for a hidden square (or read against the memory)
REMEMBERED_CONF = 0.5
#: the memory's weight, as a prior probability on the height last seen, where the square is
#: hidden now and read unsurely (the rest spread evenly over the other heights)
REMEMBERED_PRIOR = 0.5
#: a remembered top in full view is not ruled out by a reading of a height the camera cannot
#: see while its probability is at least this (a top under a shadow across it reads 0.04)
NOT_RULED_OUT = 0.01
#: a tower reported below this confidence is the camera's doubt to the referee (hidden: a flag
#: there may not show; ``docs/observation/terra-turrium.md``)
DOUBT_CONF = 0.6
#: a flag read with at least this confidence is remembered (:meth:`TerraReader._remembered_flags`)
FLAG_SEEN = 0.6
#: the board's corners moving this far (px) between frames means the camera or the board moved
MOVED_PX = 3.0
#: a change no move explains, seen in this many still moments in a row, is lasting (the light,
#: something put down beside the board), not an arm: the frame is read and becomes the reference
LASTING_CHANGE = 3


@dataclass(frozen=True)
class Reading:
    """Everything one frame gave, for the observation and for diagnostics."""

    located: Located
    hand: hands.HandCheck | None = None
    heights: HeightReading | None = None
    flags: tuple[flagmod.FlagReading, ...] = ()


@dataclass
class TerraReader:
    """Reads Terra Turrium frames. ``camera``: the lens calibration (recommended: heights are
    read through perspective); ``layout``: where the table markers lie (measured by
    ``companion calibrate table``); ``colours``: the flags' colours learned under the table's
    light (``companion calibrate colours --game terra-turrium``; the nominal colours without);
    ``model``: the height scorer (the one shipped with the program by default); ``reuse_pose``:
    keep the last frame's board pose while its markers stay put (a live camera).

    A reader watching one table remembers each square's height when it reads it clearly; a
    square whose top a taller tower in front now hides from the camera, and that is not read
    surely now, is reported at the height last read there, with a low confidence
    (:data:`REMEMBERED_CONF`), rather than as a guess from the little that shows (a guess the
    referee would take for blocks moved), unless what shows outweighs the memory taken as a
    prior (:data:`REMEMBERED_PRIOR`: a new top in view above the old one). The
    memory is forgotten when the camera or the board moves. The last still frame read with no
    arm is kept too, for the arm check (:mod:`companion.vision.terra.hands`)."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    colours: ColourModel | None = None
    model: HeightModel | None = None
    reuse_pose: bool = True
    locator: BoardLocator = field(init=False)
    _memory: np.ndarray = field(init=False, repr=False)
    _anchor: np.ndarray | None = field(default=None, init=False, repr=False)
    #: the last still frame read with no arm: (grey crop, heights, where the board's corners were)
    _reference: tuple | None = field(default=None, init=False, repr=False)
    _streak: int = field(default=0, init=False, repr=False)
    #: the flags last seen, square → colour (see :meth:`_remembered_flags`)
    _flag_memory: dict = field(default_factory=dict, init=False, repr=False)
    _memory_fresh: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        self.locator = BoardLocator(self.camera, self.layout)
        self._memory = np.full(SIZE * SIZE, -1)
        if self.model is None:
            self.model = HeightModel.load(names=FEATURE_NAMES)
        if self.colours is None:
            self.colours = flagmod.default_colours()
        missing = [c for c in ("red", "yellow", "blue", "green") if c not in self.colours.names]
        if missing:
            raise BadInput(f"the colour model has no {', '.join(missing)} for the flags",
                           hint="run `companion calibrate colours --game terra-turrium`")

    # -- reading --------------------------------------------------------------------------------

    def read(self, frame: Frame | np.ndarray) -> Observation | None:
        image = frame.image if isinstance(frame, Frame) else frame
        reading = self.read_all(image)
        idx = frame.index if isinstance(frame, Frame) else None
        t = frame.t if isinstance(frame, Frame) else None
        return observation_of(reading, frame=idx, t=t)

    def read_all(self, image: np.ndarray) -> Reading:
        """Every step of a reading (see the module docstring)."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            raise BadInput("a Terra Turrium reading needs a colour (BGR) image")
        located = self.locator.locate(image, reuse=self.reuse_pose)
        if not located.ok:
            return Reading(located)
        geo = located.geometry
        assert geo is not None and self.model is not None and self.colours is not None
        smp = sample(image, geo)
        white = white_reference(image, located.detections)
        top = estimate_top(smp)
        heads = flagmod.find_heads(smp.bgr, white, self.colours, geo, smp.origin)
        blobs, head_mask = heads.blobs, heads.mask
        first = hands.HandCheck(hands.smooth_patch(smp.grey, smp.grad, geo, smp.origin))
        if first.hand:
            return Reading(located, first)
        palette = Palette(paper_colours(white), top, _centres(blobs))
        heights = decode(smp, geo, self.model, palette, hidden=head_mask)
        # towers read without conviction are not taken to lean over the table round the board:
        # what is read there may be the arm itself, crossing the band
        leaning = hands.towers_mask(image.shape[:2], geo,
                                    np.where(heights.conf >= DOUBT_CONF, heights.heights, 0))
        table = hands.table_crossing(image, geo, leaning)
        if table.hand:
            return Reading(located, hands.HandCheck(first.smooth_squares, table_run_mm=table.run_mm), heights)
        body = hands.reaching_body(image, geo, located.detections, leaning)
        if body >= hands.MIN_BODY_MM2:
            return Reading(located, hands.HandCheck(first.smooth_squares, table_run_mm=table.run_mm,
                                                    body_mm2=body), heights)
        ref = self._reference
        anchor = geo.project(np.array([[0.0, 0.0, 0.0], [270.0, 270.0, 0.0]]))
        same = ref is not None and np.max(np.abs(anchor - ref[2])) <= MOVED_PX
        changed = 0.0
        if same:
            assert ref is not None
            changed = hands.unexplained_change(smp.grey, ref[0], geo, smp.origin, ref[1], heights.heights)
        second = hands.HandCheck(first.smooth_squares, changed, table.run_mm, body)
        if second.hand:
            self._streak = self._streak + 1 if second.changed_squares >= hands.MIN_CHANGE_SQUARES \
                and first.smooth_squares < hands.MIN_SMOOTH_SQUARES else 0
            if self._streak < LASTING_CHANGE:
                return Reading(located, second, heights)
        self._streak = 0
        self._reference = (smp.grey, heights.heights.copy(), anchor)
        heights = self._remember(located, heights)
        placed = flagmod.assign(blobs, heights.heights, geo, smp.origin)
        depth, limit = occlusion(geo, heights.heights, smp.shape, smp.origin)
        placed += flagmod.partly_hidden(heads, placed, heights.heights, geo, smp.origin, depth, limit)
        placed += self._remembered_flags(placed, heights, geo, smp.origin, depth, limit)
        return Reading(located, second, heights, tuple(placed))

    def _remembered_flags(self, placed: list[flagmod.FlagReading], reading: HeightReading,
                          geo: BoardGeometry, origin: tuple[int, int], depth: np.ndarray,
                          limit: np.ndarray) -> list[flagmod.FlagReading]:
        """Flags seen before on squares where nearer towers now hide a head wholly, while the
        square's height is read with conviction (:data:`DOUBT_CONF`; of a square read without,
        the referee expects no head anyway): reported where they were seen, with the memory's
        low confidence (:data:`REMEMBERED_CONF`), as the heights of hidden squares are; else
        the head's absence would read as the flag gone. A flag whose place shows again without
        it has left, and is forgotten. The memory goes with the heights' (the camera or the
        board moved)."""
        if not self._memory_fresh:
            self._flag_memory = {}
        read = {f.cell[1] * SIZE + f.cell[0] for f in placed}
        kept = [sq for sq in self._flag_memory if sq not in read]
        hidden = flagmod.wholly_hidden(kept, reading.heights, geo, origin, depth, limit)
        kept = [sq for sq, h in zip(kept, hidden) if h]
        out = [flagmod.FlagReading(self._flag_memory[sq], (sq % SIZE, sq // SIZE), REMEMBERED_CONF)
               for sq in kept if reading.conf[sq] >= DOUBT_CONF]
        memory = {f.cell[1] * SIZE + f.cell[0]: f.colour for f in placed if f.conf >= FLAG_SEEN}
        memory.update({sq: self._flag_memory[sq] for sq in kept})
        self._flag_memory = memory
        return out

    def _remember(self, located: Located, reading: HeightReading) -> HeightReading:
        """Squares the camera cannot see now keep the height last read when it could (see the
        class docstring); squares read clearly now are remembered."""
        anchor = located.geometry.project(np.array([[0.0, 0.0, 0.0], [270.0, 270.0, 0.0]]))
        self._memory_fresh = not (self._anchor is None or np.max(np.abs(anchor - self._anchor)) > MOVED_PX)
        if not self._memory_fresh:
            self._memory = np.full(SIZE * SIZE, -1)  # the camera or the board moved
        self._anchor = anchor
        rows = np.arange(SIZE * SIZE)
        heights = reading.heights.copy()
        probs = reading.probs.copy()
        conf = reading.conf
        mem = self._memory
        known = mem >= 0
        # a sure reading wins over the memory even where little shows: what does show (a side,
        # a shadow, a sliver of the top) says that the block was taken away
        hidden_now = reading.seen_all[rows, np.maximum(mem, 0)] < HIDDEN_SEEN
        use = known & hidden_now & (conf < SURE) & (heights != mem)
        for sq in np.nonzero(use)[0]:
            # the memory is a prior, weighed with what shows now: a top seen at another height
            # (blocks laid on the square, the new top in view though the old one is not) still
            # wins, and is reported as read; where nothing decisive shows, the height last seen
            # stays, with the memory's low confidence
            shows = reading.seen_all[sq] >= CLEAR_SEEN
            prior = np.where(shows, REMEMBERED_PRIOR, (1.0 - REMEMBERED_PRIOR) / (len(probs[sq]) - 1))
            prior[mem[sq]] = REMEMBERED_PRIOR
            post = reading.probs[sq] * prior
            best = int(np.argmax(post))
            if best == heights[sq]:
                continue
            heights[sq] = best
            probs[sq] = (1.0 - REMEMBERED_CONF) / (len(probs[sq]) - 1)
            probs[sq, best] = REMEMBERED_CONF
        use &= heights == mem
        # the remembered top in full view, read now as a height whose top the camera cannot see
        # (a tower read gone), unsurely, while the picture does not rule the remembered top out:
        # what shows of it is the same top under a shadow more likely than a block lifted. The
        # reading rests on nothing seen at the height it picks, so it is no sighting: the
        # height last seen stays, with the memory's low confidence (a block lifted there is
        # then counted by the referee, or asked about, never guessed)
        in_view = reading.seen_all[rows, np.maximum(mem, 0)] >= HIDDEN_SEEN
        unseen = reading.seen_all[rows, heights] < CLEAR_SEEN
        doubted = (known & in_view & unseen & (conf < SURE) & (heights != mem)
                   & (reading.probs[rows, np.maximum(mem, 0)] >= NOT_RULED_OUT))
        for sq in np.nonzero(doubted)[0]:
            heights[sq] = mem[sq]
            probs[sq] = (1.0 - REMEMBERED_CONF) / (len(probs[sq]) - 1)
            probs[sq, mem[sq]] = REMEMBERED_CONF
        use |= doubted
        clear = (conf >= SURE) & (reading.seen_all[rows, heights] >= CLEAR_SEEN) & ~use
        # a sure reading that contradicts the memory of a square hidden now is what was reported:
        # the blocks moved while the square was hidden, and the memory is stale. Kept, a later
        # unsure frame of the square would bring the old height back (blocks put back that no
        # move put there)
        contradicted = known & (conf >= SURE) & (heights != mem) & ~use
        clear |= contradicted
        mem[clear] = heights[clear]
        return replace(reading, heights=heights, probs=probs)

    def features_for_tuning(self, image: np.ndarray, truth_heights: np.ndarray) -> list | None:
        """(square, features) of every square, read as :meth:`read` does but with the towers
        painted at their true heights (for fitting the scorer)."""
        located = self.locator.locate(image, reuse=False)
        if not located.ok:
            return None
        geo = located.geometry
        assert geo is not None and self.model is not None and self.colours is not None
        smp: Samples = sample(image, geo)
        white = white_reference(image, located.detections)
        top = estimate_top(smp)
        heads = flagmod.find_heads(smp.bgr, white, self.colours, geo, smp.origin)
        blobs, head_mask = heads.blobs, heads.mask
        palette = Palette(paper_colours(white), top, _centres(blobs))
        rows: list = []
        decode(smp, geo, self.model, palette, hidden=head_mask, forced=truth_heights, collect=rows)
        return rows


def _centres(blobs: list[flagmod.Blob]) -> np.ndarray:
    return np.array([b.centre for b in blobs], float).reshape(-1, 2)


def observation_of(reading: Reading, *, frame: int | None = None, t: float | None = None
                   ) -> Observation | None:
    """The documented observation for a reading (None when the board was not seen)."""
    if not reading.located.ok:
        return None
    board = {"markers": list(reading.located.markers)}
    if reading.located.rms_px is not None:
        board["rms_px"] = round(float(reading.located.rms_px), 3)
    if reading.hand is not None and reading.hand.hand:
        return Observation(game=GAME, hand=True, frame=frame, t=t, board=board)
    assert reading.heights is not None
    pieces = []
    hs = reading.heights.heights
    for sq in range(SIZE * SIZE):
        h = int(hs[sq])
        if h > 0:
            pieces.append(Piece("tower", cell=(sq % SIZE, sq // SIZE), level=h,
                                conf=float(min(reading.heights.conf[sq], MAX_CONF))))
    for f in reading.flags:
        pieces.append(Piece("flag", cell=f.cell, level=int(hs[f.cell[1] * SIZE + f.cell[0]]),
                            conf=float(min(f.conf, MAX_CONF)), attrs={"colour": f.colour}))
    return Observation(game=GAME, pieces=tuple(pieces), frame=frame, t=t, board=board)


# ------------------------------------------------------------------------------ annotation
_FLAG_BGR = {"red": (40, 40, 230), "yellow": (30, 220, 240), "blue": (230, 120, 30),
             "green": (60, 190, 60)}


def annotate(image: np.ndarray, observation: Observation | None, *, reader: TerraReader | None = None
             ) -> np.ndarray:
    """The frame with the reading drawn over it: each tower's top outline at the height read
    (green when sure, orange to red as the confidence falls) with its height, each flag as a
    ring of its colour. The board is located again in the image (with ``reader``'s camera when
    given). Nothing to draw (no board, a hand): the frame with a line saying so."""
    out = np.ascontiguousarray(image.copy())
    if observation is None:
        return _banner(out, "board not seen: check its markers")
    if observation.hand:
        return _banner(out, "hand over the board: not read")
    locator = reader.locator if reader is not None else BoardLocator()
    located = locator.locate(image, reuse=True)
    if not located.ok or located.geometry is None:
        return _banner(out, "board not seen: check its markers")
    geo: BoardGeometry = located.geometry
    scale = 16
    for p in observation.pieces:
        if p.kind != "tower" or p.cell is None or p.level is None:
            continue
        x, y = p.cell
        c = np.array([[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]], float) * SQUARE_MM
        c += np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], float)
        px = geo.project(np.column_stack([c, np.full(4, p.level * BLOCK_MM)]))
        colour = (60, 200, 60) if p.conf >= 0.9 else (0, 160, 255) if p.conf >= 0.6 else (0, 0, 255)
        cv2.polylines(out, [np.round(px * scale).astype(np.int32)], True, colour, 1, cv2.LINE_AA, 4)
        centre = px.mean(axis=0)
        cv2.putText(out, str(p.level), (int(centre[0]) - 4, int(centre[1]) + 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1, cv2.LINE_AA)
    for p in observation.pieces:
        if p.kind != "flag" or p.cell is None:
            continue
        x, y = p.cell
        h = p.level or 0
        ctr = geo.project(np.array([[(x + 0.5) * SQUARE_MM, (y + 0.5) * SQUARE_MM, head_centre_z(h)]]))[0]
        r = max(4, int(round(8 * geo.px_per_mm(head_centre_z(h)))))
        cv2.circle(out, (int(round(ctr[0])), int(round(ctr[1]))), r,
                   _FLAG_BGR.get(str(p.get("colour")), (255, 255, 255)), 2, cv2.LINE_AA)
    return out


def _banner(image: np.ndarray, text: str) -> np.ndarray:
    cv2.rectangle(image, (0, 0), (image.shape[1], 28), (0, 0, 0), -1)
    cv2.putText(image, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return image


def make_reader(**kwargs: Any) -> TerraReader:
    """The reader the registry builds (:mod:`companion.vision.readers`): ``calibration`` (what
    :func:`calibration.store.load_calibration` gives) supplies the lens and the table layout;
    ``colours`` a learned colour model; any :class:`TerraReader` field may be given directly."""
    calibration = kwargs.pop("calibration", None)
    size = kwargs.pop("size", None)
    if calibration is not None:
        camera = calibration.camera_for(size) if size is not None else calibration.camera
        kwargs.setdefault("camera", camera)
        kwargs.setdefault("layout", calibration.layout)
    kwargs.pop("game", None)
    allowed = {"camera", "layout", "colours", "model", "reuse_pose"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise BadInput(f"the Terra Turrium reader takes no {', '.join(sorted(unknown))}",
                       hint=f"it takes calibration, size and {', '.join(sorted(allowed))}")
    return TerraReader(**kwargs)
