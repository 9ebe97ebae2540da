"""The moves open from a state: the legal ones, and the illegal ones players physically make.

Both lists hold one-action moves (a block lifted, a block put down, one flag step, a re-entry,
the end of the turn, a flag laid out); a turn is a sequence of them. The illegal-but-physical
list is what a referee sees at real tables: a block taken from under a flag, a fourth block, a
second block from one foreign territory, a block from an interior construction abroad, a block
put under a flag, a flag climbing two levels, stepping onto an empty square, walking through an
occupied tower, a capture beyond the points left or beyond the five attacks, another player's
flag moved, a flag re-entered on an interior square, a turn ended with blocks still in hand.
"""

from __future__ import annotations

from companion.games.terra_turrium import board
from companion.games.terra_turrium.moves import (
    END_TURN, Action, Move, enter, go, lay, put, single, take,
)
from companion.games.terra_turrium.state import (
    PHASE_LAYOUT, PHASE_PLAY, STAGE_TAKE, TerraTurriumState,
)
from companion.games.terra_turrium.table import Table


def _occupied(state: TerraTurriumState) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for sq, colour in state.flags:
        out.setdefault(sq, []).append(colour)
    return out


def legal_take(state: TerraTurriumState, sq: int, occupied: dict[int, list[str]]) -> bool:
    if state.stage != STAGE_TAKE or len(state.taken) >= board.MAX_TAKES:
        return False
    if state.heights[sq] == 0 or sq in occupied:
        return False
    land = board.territory(sq)
    if land == state.active_seat:
        return True
    if any(board.territory(t) == land for t in state.taken):
        return False
    return board.is_exterior(state.heights, sq)


def flag_steps(state: TerraTurriumState, occupied: dict[int, list[str]]) -> list[Action]:
    """Every legal single step of the active player's flags (captures included)."""
    seat = state.active_seat
    table = Table(state)
    out = []
    can_attack = state.attacks[state.active] < board.MAX_ATTACKS
    for a in state.flag_squares(seat):
        for b in board.neighbours(a):
            hb = state.heights[b]
            if hb == 0 or abs(hb - state.heights[a]) > 1:
                continue
            here = occupied.get(b, [])
            if seat in here:
                continue
            capture = bool(here)
            if table.step_cost(a, b, capture) > state.mp:
                continue
            if capture and board.territory(b) != seat and not can_attack:
                continue
            out.append(go(a, b))
    return out


def reentries(state: TerraTurriumState) -> list[Action]:
    if state.reserve[state.active] == 0 or state.mp < 1:
        return []
    table = Table(state)
    seat = state.active_seat
    return [enter(sq) for sq in range(board.SQUARES) if table.reentry_rule(sq, seat) is None]


def legal_actions(state: TerraTurriumState) -> list[Action]:
    if state.phase == PHASE_LAYOUT:
        occupied = _occupied(state)
        return [lay(colour, sq) for colour, left in zip(state.players, state.reserve) if left
                for sq in board.territory_squares(colour)
                if state.heights[sq] > 0 and sq not in occupied]
    if state.phase != PHASE_PLAY:
        return []
    occupied = _occupied(state)
    actions: list[Action] = [take(sq) for sq in range(board.SQUARES)
                             if legal_take(state, sq, occupied)]
    if state.in_hand > 0:
        actions += [put(sq) for sq in range(board.SQUARES) if sq not in occupied]
        return actions
    actions += flag_steps(state, occupied)
    actions += reentries(state)
    actions.append(END_TURN)
    return actions


def legal_moves(state: TerraTurriumState) -> list[Move]:
    return [single(a) for a in legal_actions(state)]


def any_flag_action(state: TerraTurriumState) -> bool:
    """Whether the active player could still move or re-enter a flag this turn."""
    if state.phase != PHASE_PLAY or state.in_hand > 0 or state.mp == 0:
        return False
    return bool(flag_steps(state, _occupied(state)) or reentries(state))


def physical_actions(state: TerraTurriumState) -> list[Action]:
    """Legal actions plus the illegal ones players physically make (see the module's
    docstring)."""
    legal = legal_actions(state)
    seen = set(legal)
    extra: list[Action] = []

    def add(action: Action) -> None:
        if action not in seen:
            seen.add(action)
            extra.append(action)

    if state.phase == PHASE_LAYOUT:
        for colour, left in zip(state.players, state.reserve):
            if left:
                for sq in range(board.SQUARES):
                    add(lay(colour, sq))
        return legal + extra
    if state.phase != PHASE_PLAY:
        return legal
    occupied = _occupied(state)
    for sq in range(board.SQUARES):
        if state.heights[sq] > 0:
            add(take(sq))
    if state.off_board > 0:
        for sq in range(board.SQUARES):
            add(put(sq))
    seat = state.active_seat
    for sq, colour in state.flags:
        for b in board.neighbours(sq):
            add(go(sq, b))
            if colour == seat and b in occupied:
                # walking through an occupied tower to the square beyond it
                for c in board.neighbours(b):
                    if c != sq and c not in occupied:
                        add(go(sq, b, c))
    if state.reserve[state.active] > 0:
        for sq in range(board.SQUARES):
            add(enter(sq))
    add(END_TURN)
    return legal + extra


def physical_moves(state: TerraTurriumState) -> list[Move]:
    return [single(a) for a in physical_actions(state)]
