"""Applying a move: the physical change, then the card accounting and the turn, round and game
cycle (dealing, reshuffling, the rotating first player, the end after the round reaching 25).

Everything here is pure: a new :class:`HlcState` is built, the old one is never touched.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import MalformedMove, Verdict
from companion.games.haut_les_cubes import actions
from companion.games.haut_les_cubes.cards import CARDS, NAPOZLA, NENLEVSA, dealt, kept
from companion.games.haut_les_cubes.geometry import cubes_on_top, footprint
from companion.games.haut_les_cubes.mountain import after_change
from companion.games.haut_les_cubes.moves import Move, Pile, Place, Play
from companion.games.haut_les_cubes.state import (
    PHASE_OVER, PHASE_PLAY, TARGET_SCORE, HlcState,
)


def apply(state: HlcState, move: Move, verdict: Verdict) -> HlcState:
    if isinstance(move, Pile):
        return replace(state, last_card=None)
    if isinstance(move, Place):
        return _place(state, move)
    return _play(state, move, verdict)


def _place(state: HlcState, move: Place) -> HlcState:
    seat = state.players.index(move.seat)
    giants = list(state.giants)
    giants[seat] = move.cell
    n = len(state.players)
    after = replace(state, giants=tuple(giants))
    for k in range(1, n + 1):
        nxt = (state.turn + k) % n if state.turn is not None else k - 1
        if after.giants[nxt] is None:
            return replace(after, turn=nxt)
    return start_round(replace(after, phase=PHASE_PLAY, round=0), first=0)


def _play(state: HlcState, move: Play, verdict: Verdict) -> HlcState:
    seat = state.players.index(move.seat)
    giants = list(state.giants)
    cubes = state.cubes
    facts = state.mountain
    reserves = state.reserves
    if move.card == NAPOZLA and move.cube is not None:
        x, y, z = move.cube
        if any(g is not None and g in footprint(x, y) and state.height(g) == z for g in giants):
            raise MalformedMove("a cube cannot be laid where a giant stands")
        facts = after_change(cubes, move.cube, added=True)
        cubes = facts.cubes
        reserves = _bump(reserves, seat, -1 if reserves[seat] > 0 else 0)
    elif move.card == NENLEVSA and move.cube is not None:
        if cubes_on_top(move.cube, cubes):
            raise MalformedMove("a cube cannot be pulled out from under another")
        if not actions.removable(state, move.cube):
            raise MalformedMove("a cube cannot be removed from under a giant")
        facts = after_change(cubes, move.cube, added=False)
        cubes = facts.cubes
        reserves = _bump(reserves, seat, 1)
        for who, cell in move.relocate:
            giants[state.players.index(who)] = cell
    elif move.to is not None:
        if move.target is None:
            giants[seat] = move.to
        else:
            victim = state.players.index(move.target)
            old = giants[victim]
            giants[victim] = move.to
            if move.take:
                giants[seat] = old
            elif move.pusher_to is not None:
                giants[seat] = move.pusher_to
    scores, reached = state.scores, state.reached
    clock = state.clock + 1
    for player, points in verdict.score_delta.items():
        if points:
            i = state.players.index(player)
            scores = _bump(scores, i, points)
            reached = reached[:i] + (clock,) + reached[i + 1:]
    hands = state.hands
    payer = seat if hands[seat] > 0 else state.turn
    if payer is not None and hands[payer] > 0:
        hands = _bump(hands, payer, -1)
    card = CARDS.index(move.card)
    n = len(state.players)
    assert state.turn is not None
    turn = next((t for t in ((state.turn + k) % n for k in range(1, n + 1)) if hands[t] > 0), None)
    after = HlcState(
        players=state.players, options=state.options, cubes=cubes, giants=tuple(giants),
        reserves=reserves, scores=scores, reached=reached, hands=hands, phase=state.phase,
        round=state.round, first=state.first, turn=turn if turn is not None else state.turn,
        deck=state.deck, discard=state.discard, played_round=state.played_round + 1,
        seen=_bump(state.seen, card, 1), clock=clock, last_card=move.card,
        reshuffles=state.reshuffles, mountain=facts,
    )
    # laps from the first player, skipping empty hands; the round ends when all are empty
    return after if turn is not None else end_round(after)


def _bump(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + delta,) + values[i + 1:]


def end_round(state: HlcState) -> HlcState:
    after = replace(state, discard=state.discard + state.played_round, played_round=0)
    if max(after.scores) >= TARGET_SCORE:
        return replace(after, phase=PHASE_OVER, turn=None)
    return start_round(after, first=(state.first + 1) % len(state.players))


def start_round(state: HlcState, first: int) -> HlcState:
    """Deal 3 + height to each player from the first; each discards half rounded down. When the
    deck runs out the discard is shuffled into a new deck (and the known card pool is reset)."""
    n = len(state.players)
    deck, discard, seen, reshuffles = state.deck, state.discard, state.seen, state.reshuffles
    hands = [0] * n
    for k in range(n):
        seat = (first + k) % n
        want = dealt(state.level_of(seat))
        got = min(want, deck)
        deck -= got
        if got < want and discard > 0:
            deck, discard = discard, 0
            seen = (0,) * len(CARDS)
            reshuffles += 1
            extra = min(want - got, deck)
            deck -= extra
            got += extra
        hands[seat] = got
    for seat in range(n):
        discard += hands[seat] - kept(hands[seat])
        hands[seat] = kept(hands[seat])
    turn = next((s for s in ((first + k) % n for k in range(n)) if hands[s] > 0), None)
    after = replace(state, hands=tuple(hands), deck=deck, discard=discard, seen=seen,
                    reshuffles=reshuffles, round=state.round + 1, first=first, turn=turn)
    if turn is None:  # no card anywhere: nothing can be played, the game cannot go on
        return replace(after, phase=PHASE_OVER)
    return after

