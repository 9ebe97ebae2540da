"""Move generation: the legal moves, the illegal-but-physical ones players make, and playouts.

Moves are listed as single actions (one roll, one stone, one blue stone, one card, one kobold
stone): a move of several stones is the same as its stones taken one by one, so listing the
single ones lists every reachable state without the combinatorial blow-up of three dice. Hidden
facts are spelled out: each card that could have been taken, a drawn stone marked or not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement

from companion.games.base import MalformedMove
from companion.games.ville_des_nains.components import (
    COLOUR_DICE, COLOUR_FACES, SHAPES, STONE_KINDS,
)
from companion.games.ville_des_nains.moves import (
    Build, CardTake, Draw, KoboldPlay, Move, Roll, Take, Target,
)
from companion.games.ville_des_nains.placing import Spot, options_for, spots
from companion.games.ville_des_nains.resolve import NeedCard, Result, resolve
from companion.games.ville_des_nains.state import BUILD, KOBOLD, OVER, VdnState

#: every roll of the three colour dice, as the camera sees it (an unordered set of faces)
COLOUR_ROLLS = tuple(tuple(r) for r in combinations_with_replacement(COLOUR_FACES, COLOUR_DICE))


def card_choices(state: VdnState) -> list[int | None]:
    """The cards a player may find when taking one: any card of the talon (stone side), or
    simply 'a card' on the beach side, where they are all alike."""
    if not state.talon:
        return []
    return [None] if state.options.beach else list(state.talon)


def with_cards(state: VdnState, move: Build, depth: int = 4) -> list[tuple[Build, Result]]:
    """``move`` completed with the cards it must take (one variant per card it could be),
    each with its result; the move as it is when it needs none. A move that cannot happen is
    left out."""
    try:
        result = resolve(state, move)
    except NeedCard as exc:
        if depth == 0:
            return []
        return [pair for card in card_choices(state)
                for pair in with_cards(state, _plus_card(move, exc.seat, card), depth - 1)]
    except MalformedMove:
        return []
    if result.owed and depth > 0:
        seat = result.owed[0]
        return [pair for card in card_choices(result.state)
                for pair in with_cards(state, _plus_card(move, seat, card), depth - 1)]
    return [(move, result)]


def _plus_card(move: Build, seat: str, card: int | None) -> Build:
    return Build(seat=move.seat, take=move.take, draws=move.draws,
                 cards=move.cards + (CardTake(seat, card),), roll=move.roll)


def rolls_for(state: VdnState, index: int) -> list[Roll]:
    seat = state.players[index]
    if state.is_dwarf(index):
        return [Roll(seat, r) for r in COLOUR_ROLLS]
    return [Roll(seat, (f,)) for f in dict.fromkeys(state.options.die_faces())]


def _stone_moves(state: VdnState, me: int, spot_list: list[Spot],
                 stones: Callable[[Spot], Iterable[tuple[str, str]]]) -> list[Build]:
    seat = state.players[me]
    out = []
    for spot in spot_list:
        target = state.players[spot.seat]
        for stone in stones(spot):
            cards = () if spot.new_card is None else (
                CardTake(target, None if state.options.beach else spot.new_card),)
            out.append(Build(seat=seat, take=(Take(target, spot.building, *stone),), cards=cards))
    return out


def _draw_moves(state: VdnState, me: int, marked_targets: list[Target | None]) -> list[Build]:
    seat = state.players[me]
    out = []
    if state.marked_left_in_box() > 0:
        out += [Build(seat=seat, draws=(Draw(True, t),)) for t in marked_targets]
    if state.plain_left_in_box() > 0:
        out.append(Build(seat=seat, draws=(Draw(False),)))
    return out


def _own_targets(state: VdnState, me: int) -> list[Target | None]:
    seat = state.players[me]
    targets: list[Target | None] = [Target(seat, b) for b, bld in enumerate(state.buildings[me])
                                    if state.destroyable(bld)]
    return targets or [None]


def candidate_actions(state: VdnState) -> list[Move]:
    """The legal single actions, before the final check."""
    if state.stage == OVER:
        return []
    moves: list[Move] = []
    if state.stage == BUILD:
        me = state.turn
        if not state.blocked:
            by_spot: dict[Spot, list[tuple[str, str]]] = {}
            for spot, stone in options_for(state, me):
                by_spot.setdefault(spot, []).append(stone)
            moves += _stone_moves(state, me, list(by_spot), lambda spot: by_spot[spot])
        if state.options.game == 1 and state.blue_left > 0:
            moves += _draw_moves(state, me, _own_targets(state, me))
        for j in state.dwarf_indices():
            if state.owed_card(j) and state.talon:
                moves += [Build(seat=state.players[me], cards=(CardTake(state.players[j], c),))
                          for c in card_choices(state)]
    elif state.stage == KOBOLD:
        seat = state.players[state.turn]
        if state.kobold_left > 0 and state.blue_left_in_box() > 0:
            moves.append(KoboldPlay(seat, add=1))
        if state.destroy_left:
            moves += [KoboldPlay(seat, destroy=Target(state.players[j], b))
                      for j in state.dwarf_indices()
                      for b, bld in enumerate(state.buildings[j]) if state.destroyable(bld)]
    if not (state.stage == BUILD and state.blue_left > 0):
        moves += rolls_for(state, state.next_index())
    return moves


def legal_moves(state: VdnState) -> list[Move]:
    out: list[Move] = []
    for move in candidate_actions(state):
        pairs = with_cards(state, move) if isinstance(move, Build) else [(move, _try(state, move))]
        out += [m for m, r in pairs if r is not None and r.rule is None]
    return list(dict.fromkeys(out))


def _try(state: VdnState, move: Move) -> Result | None:
    try:
        return resolve(state, move)
    except MalformedMove:
        return None


def physical_moves(state: VdnState) -> list[Move]:
    """Legal single actions plus the illegal ones a table actually sees (each named by
    :func:`check`): a stone of the wrong colour or shape, a stone with no die, a stone on a
    finished building or in another player's area, a wrong destruction, one blue stone too
    many, a card taken early, a roll out of turn or with a blue stone not drawn, the kobold
    adding more than its die shows or destroying without the kobold face."""
    if state.stage == OVER:
        return []
    moves: list[Move] = list(candidate_actions(state))
    n = len(state.players)
    if state.stage == BUILD and state.is_dwarf(state.turn):
        me = state.turn
        seat = state.players[me]
        kinds = [k for k in STONE_KINDS if state.in_pool(k) > 0]
        anywhere = [s for s in _all_spots(state) if s.seat == me or
                    not state.finished(state.buildings[s.seat][s.building])]
        moves += _stone_moves(state, me, anywhere, lambda spot: kinds)
        if state.options.game == 1:
            if state.blue_left == 0:
                moves += _draw_moves(state, me, [None])
            own = [Target(seat, b) for b, bld in enumerate(state.buildings[me]) if bld.stones]
            others = [Target(state.players[j], b) for j in state.dwarf_indices() if j != me
                      for b, bld in enumerate(state.buildings[j]) if bld.stones]
            moves += [Build(seat=seat, draws=(Draw(True, t),)) for t in own + others]
            moves.append(Build(seat=seat, draws=(Draw(True),)))
            moves += [Build(seat=seat, draws=(Draw(False, t),)) for t in own]
        else:
            moves.append(Build(seat=seat, draws=(Draw(False),)))
        moves += [Build(seat=seat, cards=(CardTake(seat, c),)) for c in card_choices(state)]
    nxt = state.next_index()
    if state.is_dwarf(nxt):
        # the next dwarf builds before rolling: stones with no die
        own = [s for s in spots(state, nxt) if s.seat == nxt and s.new_card is None]
        moves += _stone_moves(state, nxt, own, lambda spot: [
            k for k in STONE_KINDS if k[1] in spot.shapes and state.in_pool(k) > 0])
    if state.stage == BUILD and state.blue_left > 0:
        moves += rolls_for(state, nxt)
    for j in range(n):
        if j != nxt:
            moves += rolls_for(state, j)
    k = state.kobold_index()
    if k is not None:
        kseat = state.players[k]
        add = (state.kobold_left if state.stage == KOBOLD and state.turn == k else 0) + 1
        if add <= state.blue_left_in_box():
            moves.append(KoboldPlay(kseat, add=add))
        moves += [KoboldPlay(kseat, destroy=Target(state.players[j], b))
                  for j in state.dwarf_indices()
                  for b, bld in enumerate(state.buildings[j]) if bld.stones]
        # the wrong dice: the kobold rolls the colour dice, a dwarf the kobold die
        moves += [Roll(kseat, r) for r in COLOUR_ROLLS]
        if state.is_dwarf(nxt):
            moves += [Roll(state.players[nxt], (f,))
                      for f in dict.fromkeys(state.options.die_faces())]
    out: list[Move] = []
    for move in moves:
        pairs = with_cards(state, move) if isinstance(move, Build) else [(move, _try(state, move))]
        out += [m for m, r in pairs if r is not None]
    return list(dict.fromkeys(out))


def _all_spots(state: VdnState) -> list[Spot]:
    return [Spot(j, b, None, SHAPES) for j in state.dwarf_indices()
            for b in range(len(state.buildings[j]))]


def can_continue(state: VdnState) -> bool:
    """The player whose stage it is could still do something legal in it."""
    if state.stage == BUILD:
        if state.blue_left > 0:
            return True
        return not state.blocked and bool(options_for(state, state.turn))
    if state.stage == KOBOLD:
        if state.kobold_left > 0 and state.blue_left_in_box() > 0:
            return True
        return state.destroy_left and any(state.destroyable(b) for j in state.dwarf_indices()
                                          for b in state.buildings[j])
    return False


def to_move(state: VdnState) -> str | None:
    if state.stage == OVER:
        return None
    if state.stage in (BUILD, KOBOLD) and can_continue(state):
        return state.players[state.turn]
    return state.players[state.next_index()]


def random_roll(state: VdnState, index: int, rng: random.Random) -> Roll:
    seat = state.players[index]
    if state.is_dwarf(index):
        return Roll(seat, tuple(rng.choice(COLOUR_FACES) for _ in range(COLOUR_DICE)))
    return Roll(seat, (rng.choice(state.options.die_faces()),))


def random_move(state: VdnState, rng: random.Random) -> Move:
    """A legal move for playouts, chance facts drawn with their real odds: the dice, whether a
    blue stone drawn blind is marked (3 of 12 at the start), the card found in the talon."""
    if state.stage == OVER:
        raise MalformedMove("no move: the game is over")
    me = state.turn
    seat = state.players[me]
    if state.stage == BUILD:
        if state.blue_left > 0:
            marked = rng.random() < state.marked_left_in_box() / state.blue_left_in_box()
            target = rng.choice(_own_targets(state, me)) if marked else None
            return Build(seat=seat, draws=(Draw(marked, target),))
        for j in state.dwarf_indices():
            if state.owed_card(j) and state.talon:
                return Build(seat=seat, cards=(CardTake(state.players[j],
                                                        rng.choice(card_choices(state))),))
        choices = [] if state.blocked else [
            (spot, stone) for spot, stone in options_for(state, me) if spot.new_card is None]
        if choices and rng.random() < 0.92:
            spot, stone = rng.choice(choices)
            move = Build(seat=seat, take=(Take(state.players[spot.seat], spot.building, *stone),))
            result = resolve(state, move)
            while result.owed:
                move = _plus_card(move, result.owed[0], rng.choice(card_choices(result.state)))
                result = resolve(state, move)
            return move
    elif state.stage == KOBOLD:
        targets = [Target(state.players[j], b) for j in state.dwarf_indices()
                   for b, bld in enumerate(state.buildings[j]) if state.destroyable(bld)]
        if state.destroy_left and targets and rng.random() < 0.85:
            return KoboldPlay(seat, destroy=rng.choice(targets))
        if state.kobold_left > 0 and state.blue_left_in_box() > 0 and rng.random() < 0.95:
            return KoboldPlay(seat, add=1)
    return random_roll(state, state.next_index(), rng)
