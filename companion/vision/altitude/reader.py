"""The Altitude camera reader: a frame in, the mountains, the discard pile and the shown cards out.

``make_reader(**kwargs)`` builds an :class:`AltitudeReader` (see :mod:`companion.vision.readers`);
``read(frame)`` returns an :class:`~companion.observation.Observation` in the format of
``docs/observation/altitude.md``: every card of every seat's mountain (``zone`` ``player:<seat>``,
``card``, ``etage``, ``pos``, ``conf``), the discard pile's top card (``discard``), the card shown
face up on the deck (``drawn``), and at the end the cards laid in front of a mountain
(``hand:<seat>``: ``card``, or ``card_back`` when face down). Each card also carries ``xyz``, its
centre in table millimetres, and the observation's ``board`` the camera's view, for
:func:`annotate`. An arm over the table gives ``hand=True`` and no pieces; a frame where the table
cannot be located (no marker in view) gives None.

The steps, each in its own module: locate the table (:mod:`.locate`), read each seat's mountain
(:mod:`.mountain`), the discard pile, the deck and the rows of kept cards (:mod:`.piles`), and
check for an arm (:mod:`.hands`). Cards are recognised against the faces enrolled once with
``companion calibrate cards --game altitude`` (:mod:`.faces`). While the camera stays put, a
mountain, pile or row whose pixels did not change since the last still moment read is taken
as it was read then (:mod:`.warm`): after a move, only what the move touched is read again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

import cv2
import numpy as np

from calibration.boards import QUIET_ZONE_MM, TableLayout
from companion.errors import BadInput
from companion.observation import Observation, Piece
from companion.vision.altitude import hands, warm
from companion.vision.altitude.faces import BACK, CardMatcher, Tint, distinct_copies, tint_of
from companion.vision.altitude.layout import (
    DEFAULT_LAYOUT, GAME, SEATS, AltitudeLayout, card_corners, load_layout,
)
from companion.vision.altitude.locate import Located, TableLocator
from companion.vision.altitude.mountain import MountainReading, overview_spec, read_mountain
from companion.vision.altitude.piles import DECK_TOP_MM, FoundCard, kept_spec, read_kept, read_spot, spot_spec
from companion.vision.altitude.rectify import Frame2, PatchSpec, rectify
from companion.vision.camera import CameraModel, View
from companion.vision.frames import Frame

#: a reading's confidence is capped here (a camera is never certain)
MAX_CONF = 0.995
#: the height at which the discard pile's top is looked for (mm): a few cards
DISCARD_TOP_MM = 1.0
#: resolution the hand check looks at (pixels a millimetre)
HAND_PPM = 0.5
#: a table marker's white paper reaches this far past its printed square (mm): the quiet zone
#: the table kit asks for, and a little more for a sheet cut loosely
MARKER_PAPER_MM = QUIET_ZONE_MM + 5.0


@dataclass(frozen=True)
class Reading:
    """Everything one frame gave, for the observation and for diagnostics."""

    located: Located
    hand: hands.HandCheck | None = None
    mountains: tuple[MountainReading, ...] = ()
    discard: FoundCard | None = None
    deck: FoundCard | None = None
    kept: tuple[tuple[str, tuple[FoundCard, ...]], ...] = ()
    #: the parts taken as the last still moment read them, their pixels unchanged (:mod:`.warm`)
    warm: tuple[str, ...] = ()
    #: the cards of the parts read again whose cut-outs had not changed (their readings kept)
    cards_kept: int = 0


@dataclass
class AltitudeReader:
    """Reads Altitude frames. ``cards``: the enrolled faces (a
    :class:`~companion.vision.cards.CardLibrary` or a :class:`CardMatcher`); ``camera``: the
    lens calibration; ``table_layout``: where the table markers lie (``companion calibrate
    table``); ``layout``: the seats' areas and the piles' spots (:mod:`.layout`); ``seats``:
    the seats to look at (all four by default; naming only the seats in play is quicker);
    ``reuse_pose``: keep the last frame's pose while its markers stay put (a still camera);
    ``twins``: cards printed alike, name → shared design (see :class:`CardMatcher`);
    ``warm``: take the parts of the table whose pixels did not change since the last still
    moment as they were read then (:mod:`.warm`; the camera must not have moved)."""

    cards: Any
    camera: CameraModel | None = None
    table_layout: TableLayout | None = None
    layout: AltitudeLayout = DEFAULT_LAYOUT
    seats: tuple[str, ...] = SEATS
    reuse_pose: bool = True
    twins: dict[str, str] | None = None
    warm: bool = True
    matcher: CardMatcher = field(init=False)
    locator: TableLocator = field(init=False)
    #: the last frame's tint (see :meth:`_recolour`)
    _tint: Tint | None = field(default=None, init=False, repr=False)
    #: the parts of the last still readings (:mod:`.warm`)
    _warm_state: warm.WarmState | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.cards, CardMatcher):
            self.matcher = self.cards
        elif self.cards is not None and hasattr(self.cards, "names") and hasattr(self.cards, "face"):
            self.matcher = CardMatcher.from_library(self.cards)
        else:
            raise BadInput("the Altitude reader needs the enrolled cards",
                           hint="run `companion calibrate cards --game altitude` first")
        if self.twins:
            self.matcher = self.matcher.with_twins(self.twins)
        unknown = [s for s in self.seats if s not in SEATS]
        if unknown:
            raise BadInput(f"unknown seat(s) {', '.join(unknown)}; the seats are {', '.join(SEATS)}")
        self.locator = TableLocator(self.camera, self.table_layout or self.layout.table_markers())

    # -- reading --------------------------------------------------------------------------------

    def read(self, frame: Frame | np.ndarray) -> Observation | None:
        image = frame.image if isinstance(frame, Frame) else frame
        reading = self.read_all(image)
        idx = frame.index if isinstance(frame, Frame) else None
        t = frame.t if isinstance(frame, Frame) else None
        return observation_of(reading, frame=idx, t=t, layout=self.layout)

    def annotate(self, image: np.ndarray, observation: Observation | None) -> np.ndarray:
        """See :func:`annotate`."""
        return annotate(image, observation, self.layout)

    def read_all(self, image: np.ndarray) -> Reading:
        """Every step of a reading (see the module docstring)."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            raise BadInput("an Altitude reading needs a colour (BGR) image")
        located = self.locator.locate(image, reuse=self.reuse_pose)
        if not located.ok or located.view is None:
            return Reading(located)
        view = located.view
        lay = self.layout
        blocks = warm.block_picture(image) if self.warm else None
        state = self._warm_state if blocks is not None else None
        if state is not None:
            if warm.same_view(state.view, view, [overview_spec(lay.seat(s)) for s in self.seats]):
                view = state.view  # the same pose: the patches' sampling maps stay
            else:
                state = None
        parts: dict[str, warm.Kept] = {}
        fresh: dict[str, tuple[Any, tuple[PatchSpec, ...], warm.MatchMemo]] = {}

        def part(name: str, read: Any, looked_at: Any) -> Any:
            """A part of the reading: as it was read before when none of its pixels changed
            since (:mod:`.warm`), else read from this frame (``read(memo)``), its cards whose
            own pixels did not change taken as they were read."""
            memo = None
            if state is not None and blocks is not None:
                holds, value = state.get(name, blocks)
                if holds:
                    parts[name] = state.parts[name]
                    return value
                memo = warm.MatchMemo(view, blocks, state.memo(name))
            elif blocks is not None:
                memo = warm.MatchMemo(view, blocks)
            value = read(memo)
            if memo is not None:
                fresh[name] = (value, tuple(looked_at(value)), memo)
            return value

        w = lay.card_mm[0] / 2
        mountains = tuple(
            part(f"mountain:{s}", lambda memo, s=s: read_mountain(image, view, lay.seat(s), lay, self.matcher, memo),
                 lambda r: r.looked_at) for s in self.seats)
        discard = part("discard", lambda memo: read_spot(image, view, lay.discard, lay, self.matcher,
                                                         z=DISCARD_TOP_MM, memo=memo),
                       lambda _: [spot_spec(lay.discard, lay, DISCARD_TOP_MM)])
        deck = part("deck", lambda memo: read_spot(image, view, lay.deck, lay, self.matcher, z=DECK_TOP_MM, memo=memo),
                    lambda _: [spot_spec(lay.deck, lay, DECK_TOP_MM)])
        kept = []
        for s in self.seats:
            spec = kept_spec(lay.seat(s))
            row = part(f"kept:{s}",
                       lambda memo, s=s: tuple(read_kept(image, view, lay.seat(s), lay, self.matcher, memo)),
                       lambda _, spec=spec: [replace(spec, u0=spec.u0 - w, u1=spec.u1 + w)])
            if row:
                kept.append((s, tuple(row)))
        reused = tuple(sorted(parts))
        mountains, discard, deck, kept = self._recolour(mountains, discard, deck, kept)
        mountains, discard, deck, kept = self._distinct(mountains, discard, deck, kept)
        # the arm check, taken as it was when no part was read again and none of the pixels it
        # looks at changed since (the same cards over the same table: the same verdict)
        hand_kept = None
        if state is not None and blocks is not None and not fresh and state.hand is not None \
                and state.hand.holds(blocks):
            hand_kept = state.hand
            check = hand_kept.value
        else:
            check = self._hand_check(image, view, mountains, discard, deck, kept)
        if blocks is not None and not check.hand:
            for name, (value, looked, memo) in fresh.items():
                parts[name] = warm.Kept(value, blocks, warm.region_blocks(view, looked, blocks.shape[:2]), memo.now)
            if hand_kept is None:
                specs = [spec for _, spec in self._hand_regions()]
                hand_kept = warm.Kept(check, blocks, warm.region_blocks(view, specs, blocks.shape[:2]))
            self._warm_state = warm.WarmState(view, parts, hand_kept)
        hits = sum(m.hits for _, _, m in fresh.values())
        return Reading(located, check, mountains, discard, deck, tuple(kept), reused, hits)

    def forget(self) -> None:
        """Read the next frame cold (the table was moved, the game restarted)."""
        self._warm_state = None
        self.locator.forget()

    def _recolour(self, mountains: tuple[MountainReading, ...], discard: FoundCard | None,
                  deck: FoundCard | None, kept: list[tuple[str, tuple[FoundCard, ...]]]
                  ) -> tuple[tuple[MountainReading, ...], FoundCard | None, FoundCard | None,
                             list[tuple[str, tuple[FoundCard, ...]]]]:
        """Every card decided again with its colours weighed beside its drawing, through the
        frame's tint (:func:`~companion.vision.altitude.faces.tint_of`, from the sure readings
        of this frame, or of the last frame that had enough of them: the camera and the light
        stay). Two cards drawn alike on fields of near colours (an olive 8, a green 5) differ
        by less in drawing than the camera's blur; their colours tell them apart once the
        shift every card of the frame shows is known."""
        singles = [f for f in (discard, deck) if f is not None] + [f for _, row in kept for f in row]
        matches = [c.match for m in mountains for c in m.cards] + [f.match for f in singles if f.match]
        tint = tint_of(matches)
        if tint is None:
            tint = self._tint
        else:
            self._tint = tint
        if tint is None:
            return mountains, discard, deck, kept

        def again(f: FoundCard | None) -> FoundCard | None:
            if f is None or f.match is None:
                return f
            return replace(f, match=self.matcher.decide(f.match, tint))

        out = []
        for m in mountains:
            cards = []
            for c in m.cards:
                got = self.matcher.decide(c.match, tint)
                cards.append(replace(c, card=got.name, conf=got.conf, match=got) if got.name else c)
            out.append(replace(m, cards=tuple(cards)))
        return (tuple(out), again(discard), again(deck),
                [(seat, tuple(again(f) for f in row)) for seat, row in kept])

    def _distinct(self, mountains: tuple[MountainReading, ...], discard: FoundCard | None,
                  deck: FoundCard | None, kept: list[tuple[str, tuple[FoundCard, ...]]]
                  ) -> tuple[tuple[MountainReading, ...], FoundCard | None, FoundCard | None,
                             list[tuple[str, tuple[FoundCard, ...]]]]:
        """The frame's cards with no copy printed alike read twice (:func:`distinct_copies`):
        each enrolled name is one card, so two cards read as the same copy are told apart by
        how well each copy's print-run mark fits each of them."""
        twins = self.matcher.twins
        if not twins:
            return mountains, discard, deck, kept
        singles = [f for f in (discard, deck) if f is not None] + [f for _, row in kept for f in row]
        before = [c.match for m in mountains for c in m.cards] + [f.match for f in singles]
        after = distinct_copies(before, twins)
        if all(a is b for a, b in zip(before, after)):
            return mountains, discard, deck, kept
        it = iter(after)
        out = []
        for m in mountains:
            cards = []
            for c in m.cards:
                got = next(it)
                cards.append(c if got is c.match else replace(c, card=got.name, match=got))
            out.append(replace(m, cards=tuple(cards)))
        changed = {id(f): replace(f, match=got) for f, got in zip(singles, it) if got is not f.match}

        def again(f: FoundCard | None) -> FoundCard | None:
            return None if f is None else changed.get(id(f), f)

        return (tuple(out), again(discard), again(deck),
                [(seat, tuple(again(f) for f in row)) for seat, row in kept])

    def _hand_check(self, image: np.ndarray, view: View, mountains: Iterable[MountainReading],
                    discard: FoundCard | None, deck: FoundCard | None,
                    kept: list[tuple[str, tuple[FoundCard, ...]]]) -> hands.HandCheck:
        lay = self.layout
        found = [(f.centre, f.angle_deg) for f in (discard, deck) if f is not None]
        found += [(f.centre, f.angle_deg) for _, row in kept for f in row]
        disturbed = set()
        for m in mountains:
            area = lay.seat(m.seat)
            for c in m.cards:
                xy = area.to_table(np.array([c.centre]))[0]
                found.append(((float(xy[0]), float(xy[1])), area.angle_deg + c.angle_deg))
            if hands.cards_disturbed([c.match.explained for c in m.cards], m.unsupported()):
                disturbed.add(m.seat)
        # the table markers' white paper is known too (on a dark or coloured table it is far
        # from the table's colour, and it lies at the edge of what is looked at, as an arm does)
        sheets = [(m.centre, m.yaw_deg, m.size_mm + 2 * MARKER_PAPER_MM) for m in self.locator.layout.markers] \
            if self.locator.layout is not None else []
        regions = self._hand_regions()
        white = None
        worst = hands.HandCheck(False, 0.0, "")
        for name, spec in regions:
            patch, inside = rectify(image, view, spec)
            cards = np.zeros(inside.shape, np.uint8)
            for centre, angle in found:
                local = spec.frame.to_local(card_corners(centre, angle, (lay.card_mm[0] + 5, lay.card_mm[1] + 5)))
                px = spec.px_of(local)
                cv2.fillConvexPoly(cards, np.round(px).astype(np.int32), 1)
            for centre, angle, side in sheets:
                local = spec.frame.to_local(card_corners(centre, angle, (side, side)))
                cv2.fillConvexPoly(cards, np.round(spec.px_of(local)).astype(np.int32), 1)
            if white is None:
                white = _white(patch, inside)
            area = hands.unexplained(patch, inside, cards.astype(bool), white, spec.ppm, lay.card_mm)
            limit = hands.DISTURBED_PATCH_MM2 if name in disturbed else hands.PATCH_MM2
            where = f"cards of player:{name}" if name in disturbed else name
            if area >= limit:
                return hands.HandCheck(True, area, where)
            if area > worst.patch_mm2:
                worst = hands.HandCheck(False, area, where)
        return worst

    def _hand_regions(self) -> list[tuple[str, PatchSpec]]:
        """Where the arm check looks: each seat's area with the row in front of it, and the
        middle of the table."""
        lay = self.layout
        regions = []
        for name in self.seats:
            a = lay.seat(name)
            regions.append((name, PatchSpec(Frame2(a.origin, a.angle_deg), -15.0, -a.hand_depth,
                                            a.size[0] + 15.0, a.size[1] + 20.0, HAND_PPM)))
        cx = (lay.deck.centre[0] + lay.discard.centre[0]) / 2
        cy = (lay.deck.centre[1] + lay.discard.centre[1]) / 2
        regions.append(("middle", PatchSpec(Frame2((cx, cy), 0.0), -85.0, -85.0, 85.0, 85.0, HAND_PPM)))
        return regions


def _white(patch: np.ndarray, inside: np.ndarray) -> np.ndarray:
    px = patch[inside].astype(np.float32)
    if len(px) < 20:
        return np.array([255.0, 255.0, 255.0], np.float32)
    lum = px.sum(axis=1)
    top = px[lum >= np.percentile(lum, 99.0)]
    return np.maximum(np.median(top, axis=0), 1.0)


def _conf(c: float) -> float:
    return round(float(min(MAX_CONF, max(0.0, c))), 4)


def observation_of(reading: Reading, *, frame: int | None = None, t: float | None = None,
                   layout: AltitudeLayout = DEFAULT_LAYOUT) -> Observation | None:
    """The observation a reading gives (see the module docstring)."""
    loc = reading.located
    if not loc.ok or loc.view is None:
        return None
    board = {"view": loc.view.to_json(), "markers": list(loc.markers)}
    if reading.hand is not None and reading.hand.hand:
        return Observation(game=GAME, frame=frame, t=t, hand=True, board=board)
    pieces: list[Piece] = []
    for m in reading.mountains:
        area = layout.seat(m.seat)
        for c in m.cards:
            xy = area.to_table(np.array([c.centre]))[0]
            pieces.append(Piece("card", conf=_conf(c.conf), zone=f"player:{m.seat}",
                                xyz=(float(xy[0]), float(xy[1]), 0.0),
                                attrs={"card": c.card, "etage": int(c.etage), "pos": int(c.pos)}))
    top = reading.discard
    if top is not None and top.card is not None and top.card != BACK:
        pieces.append(_single(top, "discard"))
    deck = reading.deck
    if deck is not None and deck.card is not None and deck.card != BACK:
        pieces.append(_single(deck, "drawn"))
    for seat, row in reading.kept:
        zone = f"hand:{seat}"
        for f in row:
            if f.card == BACK:
                pieces.append(Piece("card_back", conf=_conf(f.match.conf if f.match else 0.0), zone=zone,
                                    xyz=(f.centre[0], f.centre[1], 0.0)))
            elif f.card is not None:
                pieces.append(_single(f, zone))
    return Observation(game=GAME, pieces=tuple(pieces), frame=frame, t=t, board=board)


def _single(f: FoundCard, zone: str) -> Piece:
    return Piece("card", conf=_conf(f.match.conf if f.match else 0.0), zone=zone,
                 xyz=(f.centre[0], f.centre[1], 0.0), attrs={"card": f.card})


# ------------------------------------------------------------------------------- annotation
_SEAT_BGR = {"red": (40, 40, 220), "yellow": (30, 200, 230), "blue": (200, 120, 30),
             "green": (60, 170, 60)}


def annotate(image: np.ndarray, observation: Observation | None,
             layout: AltitudeLayout = DEFAULT_LAYOUT) -> np.ndarray:
    """The frame with the reading drawn over it for a person to check: each card's outline in
    its seat's colour with its name and slot (``étage:pos``), the discard's top in white, the
    shown card in orange, kept cards in their seat's colour; "hand" when an arm was seen."""
    out = np.array(image, copy=True)
    if observation is None:
        cv2.putText(out, "table not found", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2,
                    cv2.LINE_AA)
        return out
    if observation.hand:
        cv2.putText(out, "hand over the table: not read", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (0, 0, 255), 2, cv2.LINE_AA)
        return out
    view_json = observation.board.get("view") if observation.board else None
    if not view_json:
        y = 30
        for p in observation.pieces:
            cv2.putText(out, f"{p.zone} {p.get('card', p.kind)} {p.get('etage', '')}:{p.get('pos', '')}",
                        (10, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
            y += 18
        return out
    view = View.from_json(view_json)
    for p in observation.pieces:
        if p.xyz is None:
            continue
        zone = p.zone or ""
        seat = zone.split(":", 1)[1] if ":" in zone else ""
        colour = _SEAT_BGR.get(seat, (255, 255, 255) if zone == "discard" else (0, 140, 255))
        centre = p.xyz[:2]
        angle = _seat_angle(seat, layout)
        corners = card_corners(centre, angle)
        px = view.project(np.column_stack([corners, np.zeros(4)]))
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        label = str(p.get("card") or "back")
        if p.get("etage") is not None:
            label += f" {p.get('etage')}:{p.get('pos')}"
        c = view.project(np.array([[centre[0], centre[1], 0.0]]))[0]
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
        org = (int(c[0] - tw / 2), int(c[1] + th / 2))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA)
    return out


def _seat_angle(seat: str, layout: AltitudeLayout) -> float:
    try:
        return layout.seat(seat).angle_deg
    except KeyError:
        return layout.discard.angle_deg


# ------------------------------------------------------------------------------- factory
def make_reader(**kwargs: Any) -> AltitudeReader:
    """The reader the registry builds (:mod:`companion.vision.readers`): ``calibration`` (what
    :func:`calibration.store.load_calibration` gives) supplies the lens and the markers'
    layout, and beside it the enrolled cards (``cards-altitude.npz``); ``layout`` may be an
    :class:`AltitudeLayout` or the path of a layout settings file; any :class:`AltitudeReader`
    argument may be given directly."""
    calibration = kwargs.pop("calibration", None)
    size = kwargs.pop("size", None)
    kwargs.pop("game", None)
    if "players" in kwargs:
        kwargs.setdefault("seats", tuple(kwargs.pop("players")))
    if calibration is not None:
        camera = calibration.camera_for(size) if size is not None else calibration.camera
        kwargs.setdefault("camera", camera)
        kwargs.setdefault("table_layout", calibration.layout)
        if "cards" not in kwargs and calibration.path is not None:
            from companion.vision.cards import CardLibrary, library_path

            path = library_path(GAME, Path(calibration.path).parent)
            if path.exists():
                kwargs["cards"] = CardLibrary.load(path)
    layout = kwargs.get("layout")
    if layout is None or isinstance(layout, (str, Path)):
        kwargs["layout"] = load_layout(layout)
    if "cards" not in kwargs:
        raise BadInput("no enrolled cards for Altitude",
                       hint="run `companion calibrate cards --game altitude` first")
    if "seats" in kwargs:
        kwargs["seats"] = tuple(kwargs["seats"])
    allowed = {"camera", "table_layout", "layout", "cards", "seats", "reuse_pose", "twins", "warm"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise BadInput(f"the Altitude reader takes no {', '.join(sorted(unknown))}",
                       hint=f"it takes calibration, size and {', '.join(sorted(allowed))}")
    return AltitudeReader(**kwargs)
