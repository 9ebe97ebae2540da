"""Random moves for playouts, with the real odds of the hidden cards.

The table knows only which cards are still unseen, not which of them are in the deck and which
in each hand; to it every unseen card is equally likely to be the next one drawn, and a hand is
any four of them. A playout move therefore first deals the hidden facts with those odds (the
drawn card by its number of copies among the unseen ones, then the mover's hand from the rest),
then picks one of that player's legal options: first the kind of play (weighted towards
building, so that random mountains grow and reach the double turn), then the move.
"""

from __future__ import annotations

import random

from companion.games.altitude.manifest import SAINT_BERNARD
from companion.games.altitude.movegen import build_slots, hand_moves, moves_with
from companion.games.altitude.moves import BUILD, DISCARD, DRAW, DRAWN, GIVE, HAND, LAY, \
    REPLACE, RESCUE, Move
from companion.games.altitude.state import PHASE_END, PHASE_MAIN, AltitudeState
from companion.games.base import MalformedMove

#: chance that a player shows the drawn card before playing it
SHOW_DRAWN = 0.2
#: chance that a player at the end lays a card they can lay, rather than stop
LAY_ON = 0.9
#: how likely each kind of play is chosen, when possible
KIND_WEIGHTS = {BUILD: 4.0, RESCUE: 3.0, GIVE: 1.0, REPLACE: 1.0, DISCARD: 1.0}


def _pool(state: AltitudeState) -> list[str]:
    return [c for c, n in state.unseen for _ in range(n)]


def random_move(state: AltitudeState, rng: random.Random) -> Move:
    if state.phase == PHASE_MAIN:
        return _main(state, rng)
    if state.phase == PHASE_END:
        return _end(state, rng)
    raise MalformedMove("no move: the game is over")


def _main(state: AltitudeState, rng: random.Random) -> Move:
    i = state.active
    assert i is not None
    seat = state.players[i]
    pool = _pool(state)
    if state.drawn is None:
        drawn = pool.pop(rng.randrange(len(pool)))
        if rng.random() < SHOW_DRAWN:
            return Move(DRAW, seat, card=drawn)
        hand_source = DRAWN  # the table cannot tell a hand card from the drawn one
    else:
        drawn = state.drawn
        hand_source = HAND
    hand = rng.sample(pool, min(state.hands[i], len(pool)))
    options = moves_with(state, i, drawn, DRAWN)
    for card in dict.fromkeys(hand):
        options += hand_moves(state, i, card, hand_source)
    options = list(dict.fromkeys(options))
    by_kind: dict[str, list[Move]] = {}
    for move in options:
        by_kind.setdefault(move.kind, []).append(move)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, weights=[KIND_WEIGHTS[k] for k in kinds])[0]
    return rng.choice(by_kind[kind])


def _end(state: AltitudeState, rng: random.Random) -> Move:
    i = state.end_queue[0]
    seat = state.players[i]
    m = state.manifest
    pool = _pool(state)
    sbs = [c for c in pool if m.kind(c) == SAINT_BERNARD]
    others = [c for c in pool if m.kind(c) != SAINT_BERNARD]
    rng.shuffle(sbs)
    rng.shuffle(others)
    for kept in state.kept:  # the cards already shown are in other hands
        if kept is not None:
            del sbs[:kept.saint_bernards]
            del others[:kept.cards - kept.saint_bernards]
    hand = rng.sample(sbs + others, state.hands[i])
    lays = [(card, slot) for card in dict.fromkeys(hand) for slot in build_slots(state, i, card)]
    if lays and rng.random() < LAY_ON:
        return Move(LAY, seat, lays=(rng.choice(lays),))
    return Move(LAY, seat, shows=sum(1 for c in hand if m.kind(c) == SAINT_BERNARD))
