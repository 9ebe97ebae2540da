"""Altitude on the synthetic table: engine states drawn as scenes, scripted games as videos.

The demo layer is the one place that knows both the rules engine (its states) and the synthetic
table (its scenes).

* :func:`scene_for` draws a state: each seat's mountain card by card in its slot, laid by hand
  (a little off, a little turned, the same way every time the card is drawn), the deck with the
  drawn card shown on it, the discard pile's last cards askew, the cards kept at the end in a
  row in front of their mountain (Saint-Bernards face up, the others face down). A mountain
  does not move on the table when a card is laid left of its base: :class:`Placer` follows each
  mountain from one state to the next, as the cards would lie.
* :func:`demo_source` renders a scripted game (``companion.games.altitude.scripts``) as a video:
  an arm makes each step's change, then the table stands still. An illegal step is followed by
  the players putting the cards back (the position before it, shown again). Hidden facts stay
  hidden as at a real table: which Saint-Bernard lies under the avalanche it removed (the
  avalanche is thrown on top of it), which cards a player keeps face down.
* :func:`reader_for` gives the camera reader a user of that table would have: the lens as
  ``calibrate camera`` measures it, the cards enrolled with ``calibrate cards`` through the same
  camera under the same light; :func:`gate_for` the stillness gate set for the video's still
  frames; :func:`referee_video` plays a script through the referee loop and compares.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np

from companion.games import get_game
from companion.games.altitude.manifest import SAINT_BERNARD
from companion.games.altitude.state import AltitudeState
from companion.demo.video import VideoResult, play_video
from companion.games.script import Script
from companion.synth.altitude.deck import CardSpec, deck_from_json
from companion.synth.altitude.enrol import enrolled_library
from companion.synth.altitude.generate import AltitudeRanges, random_light, random_view
from companion.synth.altitude.scene import (
    AltitudeScene, Mountain, MountainCard, PileCard, stable_jitter,
)
from companion.synth.altitude.sequence import AltitudeSequenceSource
from companion.synth.scene import Shot
from companion.vision.altitude.layout import DEFAULT_LAYOUT, AltitudeLayout

#: where the first card of a mountain is laid (seat frame, mm along the area): left of the
#: middle, since mountains grow right more often than left
FIRST_CARD_U = 170.0
#: the base's centre line (seat frame, mm from the table's edge)
BASE_V = 56.0
#: how many of the discard pile's top cards are drawn (the rest lie under them)
PILE_SHOWN = 6


def deck_of(state: AltitudeState) -> tuple[CardSpec, ...]:
    """The faces of the state's deck, as the synthetic table needs them."""
    return deck_from_json(state.manifest.to_json(), where=f"manifest {state.manifest.name}")


@dataclass
class Placer:
    """Where each seat's mountain lies on the table: the column (in pitches from the first card
    ever laid) of the state's position 0, followed from state to state."""

    columns: dict[str, int] = field(default_factory=dict)
    last: dict[str, dict[tuple[int, int], str]] = field(default_factory=dict)
    #: where (seat frame, mm along the area) each seat's first card is laid; FIRST_CARD_U if absent
    first_u: dict[str, float] = field(default_factory=dict)
    #: the leftmost and rightmost card centres seen so far, in pitches from the first card
    span: dict[str, tuple[float, float]] = field(default_factory=dict)

    def column_of_pos0(self, seat: str, mountain: tuple[tuple[int, int, str], ...]) -> int:
        now = {(k, p): c for k, p, c in mountain}
        before = self.last.get(seat, {})
        col = self.columns.get(seat, 0)
        if before and now:
            # the shift of positions that makes most cards seen before coincide
            best = max(range(-3, 4), key=lambda s: (sum(1 for (k, p), c in before.items()
                                                        if now.get((k, p + s)) == c), -abs(s)))
            col -= best
        self.columns[seat] = col
        self.last[seat] = now
        return col


def _pile_jitter(*key: object) -> tuple[float, float, float]:
    du, dv, t = stable_jitter(*key)
    return 2.4 * du, 2.4 * dv, 3.0 * t


def scene_for(state: AltitudeState, *, placer: Placer | None = None,
              layout: AltitudeLayout = DEFAULT_LAYOUT, cards: tuple[CardSpec, ...] | None = None
              ) -> AltitudeScene:
    """The table showing ``state`` (see the module docstring). Give the same ``placer`` to
    successive states of one game so that mountains stay where they lie."""
    placer = placer if placer is not None else Placer()
    cards = cards if cards is not None else deck_of(state)
    mountains = []
    for seat, mountain in zip(state.players, state.mountains):
        if not mountain:
            placer.column_of_pos0(seat, mountain)
            continue
        col0 = placer.column_of_pos0(seat, mountain)
        placed = tuple(MountainCard(k, p, c, stable_jitter(seat, c, k, col0 + p)) for k, p, c in mountain)
        centres = [col0 + p + (k - 1) / 2 for k, p, _ in mountain]
        lo, hi = placer.span.get(seat, (min(centres), max(centres)))
        placer.span[seat] = (min(lo, *centres), max(hi, *centres))
        base_left = (placer.first_u.get(seat, FIRST_CARD_U) + col0 * layout.pitch_mm, BASE_V)
        mountains.append(Mountain(seat, base_left, placed))
    shown = state.discard[-PILE_SHOWN:]
    first = len(state.discard) - len(shown)
    discard = tuple(PileCard(c, (j[0], j[1]), j[2])
                    for n, c in enumerate(shown, start=first) for j in (_pile_jitter("discard", c, n),))
    drawn = None
    if state.drawn is not None and state.deck > 0:
        j = stable_jitter("drawn", state.drawn)
        drawn = PileCard(state.drawn, (j[0], j[1]), j[2])
    kept = []
    sb_ids = [c for c, n in state.unseen if state.manifest.kind(c) == SAINT_BERNARD for _ in range(n)]
    used = 0
    for seat, k in zip(state.players, state.kept):
        if k is None or k.cards == 0:
            continue
        row = []
        for n in range(k.cards):
            j = stable_jitter("kept", seat, n)
            face = None
            if n < k.saint_bernards and sb_ids:
                face = sb_ids[used % len(sb_ids)]
                used += 1
            row.append(PileCard(face, (j[0], j[1]), j[2]))
        kept.append((seat, tuple(row)))
    return AltitudeScene(cards, tuple(mountains), discard, state.deck, stable_jitter("deck"),
                         drawn, tuple(kept), layout)


@dataclass(frozen=True)
class DemoStep:
    """What a position of the demo video shows: the script step it follows (-1: the start),
    and whether it is the cards put back after an illegal step."""

    step: int
    put_back: bool = False


def demo_positions(script: Script, *, layout: AltitudeLayout = DEFAULT_LAYOUT
                   ) -> tuple[list[AltitudeScene], list[DemoStep]]:
    """The still positions of a scripted game, in order, and what each one is."""
    game = get_game(script.game)
    start = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    cards = deck_of(start)
    # a first pass finds how far each mountain spreads over the game, so that it can be laid
    # where it stays inside its seat's area from the first card to the last (the camera reads
    # a seat's area, and cards beyond it would be nobody's)
    spread = Placer()
    _positions(game, script, start, spread, layout, cards)
    first_u = {}
    for seat, (lo, hi) in spread.span.items():
        size = layout.seat(seat).size[0]
        first_u[seat] = size / 2 - (lo + hi) / 2 * layout.pitch_mm
    return _positions(game, script, start, Placer(first_u=first_u), layout, cards)


def _positions(game: Any, script: Script, state: AltitudeState, placer: Placer,
               layout: AltitudeLayout, cards: tuple[CardSpec, ...]
               ) -> tuple[list[AltitudeScene], list[DemoStep]]:
    scenes = [scene_for(state, placer=placer, layout=layout, cards=cards)]
    steps = [DemoStep(-1)]
    for number, step in enumerate(script.steps):
        after = game.apply(state, game.move_from_json(step.move))
        scenes.append(scene_for(after, placer=placer, layout=layout, cards=cards))
        steps.append(DemoStep(number))
        if step.kind == "illegal":
            scenes.append(scene_for(state, placer=placer, layout=layout, cards=cards))
            steps.append(DemoStep(number, put_back=True))
        else:
            state = after
    return scenes, steps


def _coverage(players: tuple[str, ...], cards: tuple[CardSpec, ...],
              layout: AltitudeLayout) -> AltitudeScene:
    """A table as full as the game can make it: what the demo's camera must see."""
    ids = [c.id for c in cards]
    mountains = []
    for seat in players:
        # as wide a base as the area holds, and four étages on it
        size = layout.seat(seat).size[0]
        n = int((size - layout.card_mm[0]) // layout.pitch_mm) + 1
        left = (size - (n - 1) * layout.pitch_mm) / 2
        placed = [MountainCard(k, p, ids[0]) for k in range(1, 5) for p in range(n - k + 1)]
        mountains.append(Mountain(seat, (left, BASE_V), tuple(placed)))
    kept = tuple((seat, tuple(PileCard(None) for _ in range(4))) for seat in players)
    return AltitudeScene(cards, tuple(mountains), (PileCard(ids[0]),), 10, (0.0, 0.0, 0.0), None,
                         kept, layout)


def demo_shot(players: tuple[str, ...], cards: tuple[CardSpec, ...], seed: int = 0, *,
              light: str = "daylight", layout: AltitudeLayout = DEFAULT_LAYOUT,
              size: tuple[int, int] = (1280, 720)) -> Shot:
    """The demo's camera: high over the table, nearly straight down, seeing every area the
    players use; a webcam's noise, a lossless-looking frame."""
    rng = np.random.default_rng([seed, 4242])
    scene = _coverage(players, cards, layout)
    view = None
    for tilt in (6.0, 12.0, 3.0, 18.0):
        ranges = AltitudeRanges(size=size, height_mm=(880.0, 1000.0), hfov_deg=(70.0, 80.0))
        view = random_view(rng, scene, ranges, tilt, tries=400)
        if view is not None:
            break
    if view is None:
        raise RuntimeError("no demo camera sees the whole table")
    return Shot(view=view, light=random_light(rng, light), table="wood", table_variant=1,
                noise=1.5, blur=0.5, jpeg=92, exposure=0.42, seed=seed)


class DemoSource(AltitudeSequenceSource):
    """A scripted game as a video (:func:`demo_source`); ``positions`` says what each still
    position is (``Frame.truth["position"]`` indexes it)."""

    def __init__(self, script: Script, shot: Shot, *, seed: int = 0, still_frames: int = 4,
                 hand_frames: int = 3, layout: AltitudeLayout = DEFAULT_LAYOUT):
        scenes, positions = demo_positions(script, layout=layout)
        super().__init__(scenes, shot, still_frames=still_frames, hand_frames=hand_frames, seed=seed,
                         steps=[p.step for p in positions],
                         name=f"synthetic table: {script.title or script.game}")
        self.positions = positions
        self.script = script


def demo_source(script: Script, seed: int = 0, *, still_frames: int = 4, hand_frames: int = 3
                ) -> DemoSource:
    """A rendered video of ``script`` (see the module docstring)."""
    game = get_game(script.game)
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    shot = demo_shot(tuple(script.players), deck_of(state), seed)
    return DemoSource(script, shot, seed=seed, still_frames=still_frames, hand_frames=hand_frames)


@lru_cache(maxsize=4)
def _library(cards: tuple[CardSpec, ...], shot: Shot, layout: AltitudeLayout):
    return enrolled_library(cards, replace(shot, seed=shot.seed + 7), layout, frames=1)


def reader_for(source: AltitudeSequenceSource, *, seats: tuple[str, ...] | None = None) -> Any:
    """The camera reader for a synthetic table's video: its lens (as ``calibrate camera`` would
    measure it), the table's markers as ``calibrate table`` measures them, and the cards
    enrolled through the same camera (``calibrate cards``)."""
    from companion.synth.altitude.generate import table_layout
    from companion.vision.altitude.reader import make_reader

    start = source.start
    lib = _library(start.cards, source.shot, start.layout)
    if seats is None:
        seats = tuple(getattr(getattr(source, "script", None), "players", ()) or
                      [m.seat for m in start.mountains] or ("red", "yellow", "blue", "green"))
    # the deck's duplicates (the same kind, value and label) are printed alike
    twins = {c.id: f"{c.kind}/{c.value}/{c.label}" for c in start.cards}
    return make_reader(camera=source.shot.view.camera, table_layout=table_layout(start.layout),
                       layout=start.layout, cards=lib, seats=seats, twins=twins)


def gate_for(source: AltitudeSequenceSource) -> Any:
    """The table's stillness gate, set to wait for the stillness a video gives each position
    (all but one and a half of its still frames)."""
    from companion.vision.stillness import StillnessGate

    fps = source.fps or 30.0
    return StillnessGate(still_s=max((source.still_frames - 1.5) / fps, 0.0))


# ------------------------------------------------------------------------- refereeing a video
def referee_video(script: Script, seed: int = 0, *, hand_frames: int = 3, still_frames: int = 4,
                  data_dir: str | None = None) -> VideoResult:
    """Render ``script`` as a video and referee it as ``companion demo`` does
    (:func:`companion.demo.video.play_video`: the camera reader, the table's stillness gate, the
    script's people answering the referee's questions), then compare what the referee recorded
    with the script (:func:`companion.referee.scripted.compare`)."""
    import tempfile

    from companion.referee.scripted import compare
    from companion.runtime.table import Table

    source = demo_source(script, seed, still_frames=still_frames, hand_frames=hand_frames)
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(data_dir or tmp)
        try:
            loop = play_video(table, script, seed=seed, source=source, gate=gate_for(source))
            referee = table.require_game()
            events = table.log.events(referee.session.game_id)
            return VideoResult(compare(get_game(script.game), script, events), loop.stats, events)
        finally:
            table.close()
