"""Applying a move: where every card goes, whose turn it is next, when the deck runs out.

Pure: a new :class:`AltitudeState` from the old one. Illegal moves apply too (a table may let
one stand): the cards go where the player put them, and the game goes on from the player who
moved (a move out of turn makes the turn that player's).

Turns. A turn is one play, two when the player's mountain has 5 étages or more as the turn
starts (ruling: a mountain that reaches 5 étages gives two plays from the player's next turn).
Showing the drawn card is a stage inside a play, not a play. When the deck is out after a play,
the end phase starts: one pass in turn order, from the next player, each laying hand cards into
their own mountain and then showing the cards left; a player whose hand is empty has nothing to
show. When every pass is done, the game is over.
"""

from __future__ import annotations

from collections import Counter

from companion.games.altitude import mountain as geo
from companion.games.altitude.judge import mover_index, target_index, validate
from companion.games.altitude.moves import (
    BUILD, DISCARD, DRAW, DRAWN, FROM_DISCARD, GIVE, HOLD, LAY, PASS, REPLACE, RESCUE, Move,
)
from companion.games.altitude.state import (
    PHASE_END, PHASE_MAIN, PHASE_OVER, AltitudeState, Kept, counter_tuple,
)


class _Table:
    """A mutable copy of a state, for the length of one ``apply``."""

    def __init__(self, state: AltitudeState):
        self.state = state
        self.mountains = [geo.as_dict(m) for m in state.mountains]
        self.hands = list(state.hands)
        self.unseen: Counter[str] = state.unseen_counter()
        self.deck = state.deck
        self.discard = list(state.discard)
        self.drawn = state.drawn
        self.kept = list(state.kept)
        self.phase = state.phase
        self.active = state.active
        self.turn_plays = state.turn_plays
        self.plays_left = state.plays_left
        self.end_queue = list(state.end_queue)
        self.round = state.round

    def height(self, i: int) -> int:
        return geo.height(self.mountains[i])

    def freeze(self) -> AltitudeState:
        return AltitudeState(
            manifest=self.state.manifest, players=self.state.players,
            mountains=tuple(geo.from_dict(m) for m in self.mountains),
            hands=tuple(self.hands), unseen=counter_tuple(self.unseen), deck=self.deck,
            discard=tuple(self.discard), phase=self.phase, active=self.active,
            turn_plays=self.turn_plays, plays_left=self.plays_left, drawn=self.drawn,
            end_queue=tuple(self.end_queue), kept=tuple(self.kept), round=self.round)


def apply(state: AltitudeState, move: Move) -> AltitudeState:
    validate(state, move)
    t = _Table(state)
    i = mover_index(state, move)
    if state.phase == PHASE_MAIN:
        _main(t, move, i)
    else:
        _end(t, move, i)
    return t.freeze()


# -- the main phase ---------------------------------------------------------------------------

def _main(t: _Table, move: Move, i: int) -> None:
    if i != t.active:  # out of turn: the table goes on from this player
        t.active = i
        t.turn_plays = t.plays_left = 2 if t.height(i) >= geo.DOUBLE_TURN_HEIGHT else 1
    if move.kind == DRAW:
        t.unseen[move.card] -= 1
        t.deck -= 1
        t.drawn = move.card
        return
    if move.kind == HOLD:
        _draw_into_hand(t, i)
    elif move.kind == PASS:
        pass
    else:
        _take_card(t, move, i)
        _effect(t, move, i)
    _next_play(t, i)


def _draw_into_hand(t: _Table, i: int) -> None:
    """The drawn card (shown or not) goes into the hand."""
    if t.drawn is not None:
        t.unseen[t.drawn] += 1
        t.drawn = None
    else:
        t.deck -= 1
    t.hands[i] += 1


def _take_card(t: _Table, move: Move, i: int) -> None:
    """Where the card played comes from, and what happens to the drawn card."""
    card = move.card
    if move.source == FROM_DISCARD:
        t.discard.pop()
        if t.drawn is not None:  # a card was drawn as well: it went into the hand
            _draw_into_hand(t, i)
        return
    if t.drawn is not None:
        if move.source == DRAWN:  # the shown card itself
            t.drawn = None
            return
        t.unseen[card] -= 1  # a hand card; the drawn card takes its place in the hand
        t.unseen[t.drawn] += 1
        t.drawn = None
        return
    t.unseen[card] -= 1  # the drawn card, or a hand card replaced in hand by the drawn one
    t.deck -= 1


def _effect(t: _Table, move: Move, i: int) -> None:
    card = move.card
    if move.kind == DISCARD:
        t.discard.append(card)
    elif move.kind == BUILD:
        t.mountains[i][move.slot] = card
    elif move.kind == GIVE:
        t.mountains[target_index(t.state, move)][move.slot] = card
    elif move.kind == REPLACE:
        cards = t.mountains[target_index(t.state, move)]
        t.discard.append(cards[move.slot])
        cards[move.slot] = card
    elif move.kind == RESCUE:
        cards = t.mountains[target_index(t.state, move)]
        removed = cards.pop(move.slot)
        t.discard.append(card)  # the Saint-Bernard, then the avalanche on top
        t.discard.append(removed)
    t.mountains = [geo.as_dict(geo.from_dict(m)) for m in t.mountains]


def _next_play(t: _Table, i: int) -> None:
    t.plays_left -= 1
    if t.deck == 0:
        _start_end(t, i)
        return
    if t.plays_left > 0:
        return
    n = len(t.state.players)
    nxt = (i + 1) % n
    if nxt <= i:
        t.round += 1
    t.active = nxt
    t.turn_plays = t.plays_left = 2 if t.height(nxt) >= geo.DOUBLE_TURN_HEIGHT else 1


def _start_end(t: _Table, last: int) -> None:
    n = len(t.state.players)
    t.phase = PHASE_END
    t.turn_plays = t.plays_left = 1
    t.kept = [None] * n
    t.end_queue = []
    for step in range(1, n + 1):
        j = (last + step) % n
        if t.hands[j] == 0:
            t.kept[j] = Kept(0, 0)
        else:
            t.end_queue.append(j)
    _settle_end(t)


# -- the end phase ----------------------------------------------------------------------------

def _end(t: _Table, move: Move, i: int) -> None:
    if move.kind == LAY:
        cards = t.mountains[i]
        for card, slot in move.lays:
            t.unseen[card] -= 1
            t.hands[i] -= 1
            cards[slot] = card
        t.mountains[i] = geo.as_dict(geo.from_dict(cards))
        if move.shows is not None:
            t.kept[i] = Kept(t.hands[i], move.shows)
    else:  # a hand card played against the rules: thrown, given, replacing, rescuing
        t.unseen[move.card] -= 1
        t.hands[i] -= 1
        _effect(t, move, i)
    if t.hands[i] == 0 and t.kept[i] is None:
        t.kept[i] = Kept(0, 0)
    if t.kept[i] is not None and i in t.end_queue:
        t.end_queue.remove(i)
    _settle_end(t)


def _settle_end(t: _Table) -> None:
    if t.end_queue:
        t.active = t.end_queue[0]
    else:
        t.phase = PHASE_OVER
        t.active = None
