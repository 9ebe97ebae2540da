"""Move lists: every legal move from a state, and the illegal ones players really make.

A move names the card it used, and from the table's point of view any unseen card may be the
one drawn or one in the player's hand, so the legal moves are expanded over every distinct
unseen card (the hidden fact). Illegal-but-physical moves are those a player can make with real
cards and a real mountain: a card on a higher one, an avalanche in one's own mountain, a card on
an avalanche, a Saint-Bernard built in, a base card leaving a gap or an eleventh one, a card
resting on one card only, a card in an unstarted mountain, a covered card or an avalanche
replaced, a replacement or a rescue in someone else's mountain, a covered avalanche removed, a
card taken back from the discard, a hand card thrown away or given (seen when the drawn card
was shown, or after the deck is out), the drawn card kept with nothing laid, a pass.

Moves out of turn are judged (:mod:`judge`) but not listed: from a picture alone they look like
the active player's own moves.
"""

from __future__ import annotations

from typing import Iterable

from companion.games.altitude import mountain as geo
from companion.games.altitude.manifest import AVALANCHE, SAINT_BERNARD
from companion.games.altitude.moves import (
    BUILD, DISCARD, DRAW, DRAWN, FROM_DISCARD, GIVE, HAND, HOLD, LAY, PASS, REPLACE, RESCUE,
    Move,
)
from companion.games.altitude.state import PHASE_END, PHASE_MAIN, AltitudeState

Slot = geo.Slot


def build_slots(state: AltitudeState, i: int, card: str, *, own: bool = True) -> list[Slot]:
    """Slots of player ``i``'s mountain where ``card`` may legally be laid."""
    cards = geo.as_dict(state.mountains[i])
    return [s for s in geo.structural_slots(cards)
            if geo.placement_ok(state.manifest, cards, s, card, own)]


def replace_slots(state: AltitudeState, i: int, card: str) -> list[Slot]:
    """Uncovered, non-avalanche slots of ``i``'s mountain that ``card`` may legally replace."""
    m = state.manifest
    if geo.kind_problem(m, card, own=True) is not None:
        return []
    cards = geo.as_dict(state.mountains[i])
    return [s for s in sorted(cards)
            if not geo.is_covered(cards, s) and m.kind(cards[s]) != AVALANCHE
            and geo.value_problem(m, cards, s, card) is None]


def rescue_slots(state: AltitudeState, i: int) -> list[Slot]:
    """Uncovered avalanches of ``i``'s mountain."""
    cards = geo.as_dict(state.mountains[i])
    return [s for s in sorted(cards)
            if state.manifest.kind(cards[s]) == AVALANCHE and not geo.is_covered(cards, s)]


def opponents(state: AltitudeState, i: int) -> list[int]:
    return [j for j in range(len(state.players)) if j != i]


def moves_with(state: AltitudeState, i: int, card: str, source: str) -> list[Move]:
    """Every legal play of ``card`` (the drawn one, ``source`` = drawn) by player ``i``."""
    seat = state.players[i]
    out = [Move(DISCARD, seat, card=card, source=source)]
    out += [Move(BUILD, seat, card=card, slot=s, source=source)
            for s in build_slots(state, i, card)]
    for j in opponents(state, i):
        if state.mountains[j]:
            out += [Move(GIVE, seat, card=card, slot=s, target=state.players[j], source=source)
                    for s in build_slots(state, j, card, own=False)]
    out += [Move(REPLACE, seat, card=card, slot=s, source=source)
            for s in replace_slots(state, i, card)]
    if state.manifest.kind(card) == SAINT_BERNARD:
        out += [Move(RESCUE, seat, card=card, slot=s, source=source)
                for s in rescue_slots(state, i)]
    return out


def hand_moves(state: AltitudeState, i: int, card: str, source: str) -> list[Move]:
    """The legal plays of a hand card after taking the drawn one into hand: into one's own
    mountain, or a Saint-Bernard removing an avalanche."""
    seat = state.players[i]
    out = [Move(BUILD, seat, card=card, slot=s, source=source)
           for s in build_slots(state, i, card)]
    if state.manifest.kind(card) == SAINT_BERNARD:
        out += [Move(RESCUE, seat, card=card, slot=s, source=source)
                for s in rescue_slots(state, i)]
    return out


def end_cards(state: AltitudeState) -> list[str]:
    """Distinct cards that may be in the active player's hand during the end phase."""
    sb, other = state.end_pool()
    return [c for c, _ in state.unseen
            if (sb if state.manifest.kind(c) == SAINT_BERNARD else other) > 0]


def shows_range(state: AltitudeState, i: int, laid: Iterable[str] = ()) -> range:
    """How many Saint-Bernards player ``i`` may show among the cards left, after laying
    ``laid``."""
    sb, other = state.end_pool()
    left = state.hands[i]
    for card in laid:
        left -= 1
        if state.manifest.kind(card) == SAINT_BERNARD:
            sb -= 1
        else:
            other -= 1
    return range(max(0, left - other), min(left, sb) + 1)


def legal_moves(state: AltitudeState) -> list[Move]:
    if state.phase == PHASE_MAIN:
        i = state.active
        assert i is not None
        if state.drawn is not None:
            out = moves_with(state, i, state.drawn, DRAWN)
            for card, _ in state.unseen:
                out += hand_moves(state, i, card, HAND)
            return _unique(out)
        out = []
        for card, _ in state.unseen:
            out.append(Move(DRAW, state.players[i], card=card))
            out += moves_with(state, i, card, DRAWN)
        return _unique(out)
    if state.phase == PHASE_END:
        i = state.end_queue[0]
        seat = state.players[i]
        out = []
        for card in end_cards(state):
            out += [Move(LAY, seat, lays=((card, s),)) for s in build_slots(state, i, card)]
        out += [Move(LAY, seat, shows=s) for s in shows_range(state, i)]
        return out
    return []


# -- illegal but physical ---------------------------------------------------------------------

def _bad_slots(state: AltitudeState, j: int, card: str, own: bool) -> list[Slot]:
    """Slots of ``j``'s mountain where ``card`` can physically lie but may not."""
    cards = geo.as_dict(state.mountains[j])
    if not cards:
        return []
    slots = set(geo.structural_slots(cards))
    base = sorted(p for k, p in cards if k == 1)
    slots |= {(1, base[0] - 2), (1, base[-1] + 2)}  # a gap in the base
    if len(base) >= geo.BASE_MAX:
        slots |= {(1, base[0] - 1), (1, base[-1] + 1)}  # an eleventh base card
    for (k, p) in cards:  # across one card only
        for s in ((k + 1, p - 1), (k + 1, p)):
            if s not in cards:
                slots.add(s)
    return [s for s in sorted(slots)
            if s not in cards and not geo.placement_ok(state.manifest, cards, s, card, own)]


def illegal_with(state: AltitudeState, i: int, card: str, source: str) -> list[Move]:
    """Illegal plays of the drawn ``card`` by player ``i``."""
    seat = state.players[i]
    m = state.manifest
    own = geo.as_dict(state.mountains[i])
    out = [Move(BUILD, seat, card=card, slot=s, source=source)
           for s in _bad_slots(state, i, card, own=True)]
    for j in opponents(state, i):
        target = state.players[j]
        if not state.mountains[j]:
            out.append(Move(GIVE, seat, card=card, slot=(1, 0), target=target, source=source))
            continue
        out += [Move(GIVE, seat, card=card, slot=s, target=target, source=source)
                for s in _bad_slots(state, j, card, own=False)]
        theirs = geo.as_dict(state.mountains[j])
        out += [Move(REPLACE, seat, card=card, slot=s, target=target, source=source)
                for s in sorted(theirs) if not geo.is_covered(theirs, s)]
        if m.kind(card) == SAINT_BERNARD:
            out += [Move(RESCUE, seat, card=card, slot=s, target=target, source=source)
                    for s in sorted(theirs) if m.kind(theirs[s]) == AVALANCHE]
    legal_replace = set(replace_slots(state, i, card))
    out += [Move(REPLACE, seat, card=card, slot=s, source=source)
            for s in sorted(own) if s not in legal_replace]
    legal_rescue = set(rescue_slots(state, i))
    is_sb = m.kind(card) == SAINT_BERNARD
    out += [Move(RESCUE, seat, card=card, slot=s, source=source)
            for s in sorted(own) if s not in legal_rescue
            and (is_sb or (m.kind(own[s]) == AVALANCHE and not geo.is_covered(own, s)))]
    return out


def physical_moves(state: AltitudeState) -> list[Move]:
    legal = legal_moves(state)
    out = list(legal)
    if state.phase == PHASE_MAIN:
        i = state.active
        assert i is not None
        seat = state.players[i]
        if state.drawn is not None:
            d = state.drawn
            out += illegal_with(state, i, d, DRAWN)
            for card, _ in state.unseen:  # a hand card where only the drawn one may go
                out.append(Move(DISCARD, seat, card=card, source=HAND))
                out += [Move(GIVE, seat, card=card, slot=s, target=state.players[j], source=HAND)
                        for j in opponents(state, i) if state.mountains[j]
                        for s in build_slots(state, j, card, own=False)]
                out += [Move(REPLACE, seat, card=card, slot=s, source=HAND)
                        for s in replace_slots(state, i, card)]
        else:
            for card, _ in state.unseen:
                out += illegal_with(state, i, card, DRAWN)
            out.append(Move(PASS, seat))
        out.append(Move(HOLD, seat))
        if state.discard:
            top = state.discard[-1]
            if geo.kind_problem(state.manifest, top, own=True) is None:
                out += [Move(BUILD, seat, card=top, slot=s, source=FROM_DISCARD)
                        for s in geo.structural_slots(geo.as_dict(state.mountains[i]))]
    elif state.phase == PHASE_END:
        i = state.end_queue[0]
        seat = state.players[i]
        for card in end_cards(state):
            out += [Move(LAY, seat, lays=((card, s),))
                    for s in _bad_slots(state, i, card, own=True)]
            if not state.mountains[i]:
                if geo.kind_problem(state.manifest, card, own=True) is not None:
                    out.append(Move(LAY, seat, lays=((card, (1, 0)),)))
            out.append(Move(DISCARD, seat, card=card, source=HAND))
            for j in opponents(state, i):
                if state.mountains[j]:
                    out += [Move(GIVE, seat, card=card, slot=s, target=state.players[j],
                                 source=HAND)
                            for s in build_slots(state, j, card, own=False)]
            if state.manifest.kind(card) == SAINT_BERNARD:
                out += [Move(RESCUE, seat, card=card, slot=s, source=HAND)
                        for s in rescue_slots(state, i)]
    return _unique(out)


def _unique(moves: list[Move]) -> list[Move]:
    return list(dict.fromkeys(moves))
