"""From what the camera sees to the moves that could explain it.

The camera reports each mountain card by card in its slot (positions counted from the leftmost
base card, as the state numbers them), the top card of the discard pile, the drawn card while a
player shows it, and at the end the cards a player shows from their hand
(``docs/observation/altitude.md``). Each becomes a matching key; :mod:`companion.games.matching`
does the arithmetic.

A mountain's numbering moves when a card is laid left of the base (everything shifts right by
one) or when the leftmost base card, an avalanche, is removed; a reader may also miss the
leftmost card. So each mountain is *registered* against the state first: the shift of positions
that makes the most seen cards coincide with known ones.

Candidates come from the difference between the state and the picture, never from trying every
move: a new card in one's own mountain is a build, in another's a give, a changed card a
replacement, a vanished avalanche a rescue, a new top of the discard a discard, the old top of
the discard back on top a card taken back. Facts the picture cannot show stay open as
candidates of equal cost: which Saint-Bernard lies under the avalanche it removed, how many
Saint-Bernards a player keeps when the cards shown cannot all be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from companion.games.altitude import mountain as geo
from companion.games.altitude.manifest import AVALANCHE, SAINT_BERNARD
from companion.games.altitude.movegen import shows_range
from companion.games.altitude.moves import (
    BUILD, DISCARD, DRAW, DRAWN, FROM_DISCARD, GIVE, HAND, LAY, REPLACE, RESCUE, Move,
)
from companion.games.altitude.state import PHASE_END, PHASE_MAIN, AltitudeState
from companion.games.altitude.verdict import judge_move
from companion.games.base import Candidate, MalformedMove
from companion.games.matching import MISS, MISS_HIDDEN, mismatch_cost
from companion.observation import Observation, Piece

GAME = "altitude"
#: how far a mountain's numbering may have moved between the state and a reading
MAX_SHIFT = 2
CARD = "card"
BACK = "card_back"


def expected_keys(state: AltitudeState) -> list[tuple[Hashable, float]]:
    """What an ideal camera sees, each with the cost of missing it: a card half under another
    may be hard to read, so missing it costs less."""
    keys: list[tuple[Hashable, float]] = []
    for seat, mountain in zip(state.players, state.mountains):
        cards = geo.as_dict(mountain)
        for k, p, card in mountain:
            weight = MISS_HIDDEN if geo.is_covered(cards, (k, p)) else MISS
            keys.append((("m", seat, k, p, card), weight))
    if state.discard:
        keys.append((("d", state.discard[-1]), MISS))
    if state.drawn is not None:
        keys.append((("drawn", state.drawn), MISS))
    for seat, kept in zip(state.players, state.kept):
        if kept is not None:
            keys += [(("kept", seat, "sb"), MISS)] * kept.saint_bernards
            keys += [(("kept", seat, "other"), MISS)] * (kept.cards - kept.saint_bernards)
    return keys


def expected_observation(state: AltitudeState) -> Observation:
    pieces: list[Piece] = []
    for seat, mountain in zip(state.players, state.mountains):
        zone = f"player:{seat}"
        pieces += [Piece(CARD, zone=zone, attrs={"card": c, "etage": k, "pos": p})
                   for k, p, c in mountain]
    if state.discard:
        pieces.append(Piece(CARD, zone="discard", attrs={"card": state.discard[-1]}))
    if state.drawn is not None:
        pieces.append(Piece(CARD, zone="drawn", attrs={"card": state.drawn}))
    # Cards shown at the end: the Saint-Bernards face up, the other cards left face down. The
    # state knows how many Saint-Bernards, not which: the ideal reading names unseen ones.
    sb_ids = [c for c, n in state.unseen if state.manifest.kind(c) == SAINT_BERNARD
              for _ in range(n)]
    for seat, kept in zip(state.players, state.kept):
        if kept is None:
            continue
        zone = f"hand:{seat}"
        pieces += [Piece(CARD, zone=zone, attrs={"card": sb_ids[n % len(sb_ids)]})
                   for n in range(kept.saint_bernards)]
        pieces += [Piece(BACK, zone=zone) for _ in range(kept.cards - kept.saint_bernards)]
    return Observation(game=GAME, pieces=tuple(pieces))


# -- reading an observation -------------------------------------------------------------------

@dataclass
class Reading:
    """An observation sorted by what it shows (raw positions, not yet registered)."""

    mountains: dict[str, dict[tuple[int, int], tuple[str, float]]] = field(default_factory=dict)
    discard: tuple[str, float] | None = None
    drawn: tuple[str, float] | None = None
    shown: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    other: list[tuple[Hashable, float]] = field(default_factory=list)


def read(state: AltitudeState, observation: Observation) -> Reading:
    r = Reading(mountains={seat: {} for seat in state.players})
    for n, piece in enumerate(observation.pieces):
        zone = piece.zone or ""
        card = piece.get("card")
        if piece.kind == CARD and zone.startswith("player:") and zone[7:] in r.mountains:
            k, p = piece.get("etage"), piece.get("pos")
            if isinstance(card, str) and _is_int(k) and _is_int(p):
                slots = r.mountains[zone[7:]]
                if (k, p) not in slots or slots[(k, p)][1] < piece.conf:
                    slots[(k, p)] = (card, piece.conf)
                continue
        elif piece.kind == CARD and zone == "discard" and isinstance(card, str):
            if r.discard is None or r.discard[1] < piece.conf:
                r.discard = (card, piece.conf)
            continue
        elif piece.kind == CARD and zone == "drawn" and isinstance(card, str):
            if r.drawn is None or r.drawn[1] < piece.conf:
                r.drawn = (card, piece.conf)
            continue
        elif piece.kind in (CARD, BACK) and zone.startswith("hand:") and zone[5:] in r.mountains:
            what = "other"
            if piece.kind == CARD and isinstance(card, str) and card in state.manifest \
                    and state.manifest.kind(card) == SAINT_BERNARD:
                what = "sb"
            r.shown.setdefault(zone[5:], []).append((what, piece.conf))
            continue
        r.other.append((("?", n, piece.kind, zone), piece.conf))
    return r


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def register(mountain: geo.Mountain, seen: dict[tuple[int, int], tuple[str, float]]) -> int:
    """The shift to subtract from seen positions to get the state's numbering."""
    if not seen or not mountain:
        return 0
    known = {(k, p): c for k, p, c in mountain}
    best, best_shift = -1.0, 0
    for shift in sorted(range(-MAX_SHIFT, MAX_SHIFT + 1), key=abs):
        score = sum(conf for (k, p), (c, conf) in seen.items() if known.get((k, p - shift)) == c)
        if score > best + 1e-9:
            best, best_shift = score, shift
    return best_shift


def keys(state: AltitudeState, reading: Reading) -> list[tuple[Hashable, float]]:
    """The reading's keys in ``state``'s numbering."""
    out: list[tuple[Hashable, float]] = list(reading.other)
    for seat, mountain in zip(state.players, state.mountains):
        seen = reading.mountains.get(seat, {})
        shift = register(mountain, seen)
        out += [(("m", seat, k, p - shift, c), conf) for (k, p), (c, conf) in seen.items()]
    if reading.discard is not None:
        out.append((("d", reading.discard[0]), reading.discard[1]))
    if reading.drawn is not None:
        out.append((("drawn", reading.drawn[0]), reading.drawn[1]))
    for seat, items in reading.shown.items():
        out += [(("kept", seat, what), conf) for what, conf in items]
    return out


def cost(state: AltitudeState, reading: Reading) -> float:
    return mismatch_cost(expected_keys(state), keys(state, reading))


def explain(state: AltitudeState, observation: Observation) -> float:
    return cost(state, read(state, observation))


# -- candidates -------------------------------------------------------------------------------

@dataclass
class _Diff:
    """What changed in one mountain, in the state's numbering."""

    added: dict[tuple[int, int], str]      # a card where the state has none
    changed: dict[tuple[int, int], str]    # another card where the state has one
    gone: dict[tuple[int, int], str]       # a state card the camera no longer sees


def diff(state: AltitudeState, reading: Reading) -> dict[int, _Diff]:
    out: dict[int, _Diff] = {}
    for j, (seat, mountain) in enumerate(zip(state.players, state.mountains)):
        seen = reading.mountains.get(seat, {})
        shift = register(mountain, seen)
        now = {(k, p - shift): c for (k, p), (c, _) in seen.items()}
        known = geo.as_dict(mountain)
        added = {s: c for s, c in now.items() if s not in known}
        changed = {s: c for s, c in now.items() if s in known and known[s] != c}
        gone = {s: c for s, c in known.items() if s not in now}
        if added or changed or gone:
            out[j] = _Diff(added, changed, gone)
    return out


def _source(state: AltitudeState, card: str) -> str | None:
    """Where a card seen played in the main phase can have come from."""
    if state.drawn is not None:
        if card == state.drawn:
            return DRAWN
        return HAND if state.unseen_count(card) else None
    return DRAWN if state.unseen_count(card) else None


def moves_for(state: AltitudeState, reading: Reading) -> list[tuple[Move, bool]]:
    """Moves worth judging, each with whether it is complete (see module docstring)."""
    if state.phase == PHASE_MAIN:
        return [(m, True) for m in _main_moves(state, reading)]
    if state.phase == PHASE_END:
        return _end_moves(state, reading)
    return []


def _main_moves(state: AltitudeState, reading: Reading) -> list[Move]:
    i = state.active
    assert i is not None
    seat = state.players[i]
    changes = diff(state, reading)
    top = reading.discard[0] if reading.discard else None
    old_top = state.discard[-1] if state.discard else None
    under_top = state.discard[-2] if len(state.discard) >= 2 else None
    taken_back = old_top is not None and top == under_top
    out: list[Move] = []
    if state.drawn is None and reading.drawn is not None and not changes \
            and state.unseen_count(reading.drawn[0]):
        out.append(Move(DRAW, seat, card=reading.drawn[0]))
    for j, d in changes.items():
        target = None if j == i else state.players[j]
        for slot, card in d.added.items():
            sources = [s for s in (_source(state, card),) if s]
            if taken_back and card == old_top:
                sources.append(FROM_DISCARD)
            for src in sources:
                kind = BUILD if target is None else GIVE
                out.append(Move(kind, seat, card=card, slot=slot, target=target, source=src))
        for slot, card in d.changed.items():
            sources = [s for s in (_source(state, card),) if s]
            if taken_back and card == old_top:
                sources.append(FROM_DISCARD)
            out += [Move(REPLACE, seat, card=card, slot=slot, target=target, source=src)
                    for src in sources]
        for slot, removed in d.gone.items():
            # only an avalanche is taken away whole: a vanished mountain card is a replacement
            # caught half-way (old card thrown, new one not laid yet), not a move to judge
            if slot in d.changed or state.manifest.kind(removed) != AVALANCHE:
                continue
            out += [Move(RESCUE, seat, card=sb, slot=slot, target=target, source=src)
                    for sb, src in _saint_bernards(state)]
    if top is not None and top != old_top and not taken_back:
        src = _source(state, top)
        if src is not None:
            out.append(Move(DISCARD, seat, card=top, source=src))
    return list(dict.fromkeys(out))


def _saint_bernards(state: AltitudeState) -> list[tuple[str, str]]:
    """The Saint-Bernards that can have been used now, with their source."""
    m = state.manifest
    out = []
    if state.drawn is not None and m.kind(state.drawn) == SAINT_BERNARD:
        out.append((state.drawn, DRAWN))
    src = HAND if state.drawn is not None else DRAWN
    out += [(c, src) for c, _ in state.unseen if m.kind(c) == SAINT_BERNARD]
    return out


def _shows(state: AltitudeState, j: int, shown: list[tuple[str, float]],
           laid: list[str]) -> list[int]:
    """The Saint-Bernard counts a player showing ``shown`` may keep: the one read when every card
    left is in view, else every count still possible (the referee asks)."""
    left = state.hands[j] - len(laid)
    seen_sb = sum(1 for what, _ in shown if what == "sb")
    options = shows_range(state, j, laid)
    if len(shown) == left and seen_sb in options:
        return [seen_sb]
    return [s for s in options if s >= seen_sb]


def _end_moves(state: AltitudeState, reading: Reading) -> list[tuple[Move, bool]]:
    """End phase: the active player's lays and show; a hand card thrown or given; cards laid by
    a player whose pass has not come (out of turn)."""
    changes = diff(state, reading)
    out: list[tuple[Move, bool]] = []
    i = state.end_queue[0]
    seat = state.players[i]
    m = state.manifest
    for j in state.end_queue:
        d = changes.get(j)
        shown = reading.shown.get(state.players[j], [])
        added = d.added if d is not None else {}
        if not added and not (j == i and shown):
            continue
        lays = tuple((c, s) for s, c in geo.order_lays(geo.as_dict(state.mountains[j]),
                                                         added.items()))
        laid = [c for c, _ in lays]
        left = state.hands[j] - len(laid)
        if left < 0:
            continue
        if left == 0:
            out.append((Move(LAY, state.players[j], lays=lays), True))
        elif shown:
            out += [(Move(LAY, state.players[j], lays=lays, shows=s), True)
                    for s in _shows(state, j, shown, laid)]
        elif lays:
            out.append((Move(LAY, state.players[j], lays=lays), False))
    for j, d in changes.items():
        if j == i:
            for slot in (s for s, c in d.gone.items() if m.kind(c) == AVALANCHE):
                out += [(Move(RESCUE, seat, card=c, slot=slot, source=HAND), True)
                        for c, _ in state.unseen if m.kind(c) == SAINT_BERNARD]
            continue
        for slot, card in d.added.items():
            if state.unseen_count(card):
                out.append((Move(GIVE, seat, card=card, slot=slot, target=state.players[j],
                                 source=HAND), True))
    top = reading.discard[0] if reading.discard else None
    if top is not None and (not state.discard or top != state.discard[-1]) \
            and state.unseen_count(top):
        out.append((Move(DISCARD, seat, card=top, source=HAND), True))
    return list(dict.fromkeys(out))


def candidates(state: AltitudeState, observation: Observation) -> list[Candidate]:
    """See :meth:`companion.games.base.Game.candidates`."""
    reading = read(state, observation)
    found = []
    for move, complete in moves_for(state, reading):
        try:
            verdict, after = judge_move(state, move)
        except MalformedMove:
            continue
        found.append(Candidate(move=move, state=after, verdict=verdict,
                               cost=cost(after, reading), complete=complete))
    found.sort(key=lambda c: (round(c.cost, 9), not c.verdict.legal, not c.complete,
                              repr(c.move)))
    return found
