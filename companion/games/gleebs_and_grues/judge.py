"""Judging a move: which rule it breaks, if any.

:func:`broken_rule` returns the :class:`RuleRef` a physical move breaks (None when legal) and
raises :class:`MalformedMove` for what cannot be done at all from this state (a placement once
the placement is over, a step from an empty square, a gleeb that is already on the board). The
order of the tests decides which rule a move that breaks several is named for: the first thing a
player would be told (whose piece, then how it moved, then where it landed).
"""

from __future__ import annotations

from companion.games.base import MalformedMove, RuleRef
from companion.games.gleebs_and_grues import rules
from companion.games.gleebs_and_grues.moves import Move, Place, SetGrues, Step
from companion.games.gleebs_and_grues.movegen import grue_moves
from companion.games.gleebs_and_grues.pieces import (
    SEAT_OF_COLOUR,
    cell_name,
    in_line,
    on_board,
    on_diagonal,
)
from companion.games.gleebs_and_grues.state import (
    GGState,
    controller,
    is_free_grue,
    is_gleeb_stack,
    is_pinned,
    unplaced,
)

_WAITING = {
    "grues": "set the three grues first (grues Ks@a1 Km@b2 Kl@c3)",
    "place": "the placement phase is on: place a gleeb on an empty square (Ys@b2)",
    "gleeb": "the movement phase is on: step a stack along a line (Ys b2xb4)",
    "grue": "the movement phase is on: step a grue along a line (Km c1-c3)",
}


def broken_rule(state: GGState, move: Move) -> RuleRef | None:
    if state.stage == "over":
        raise MalformedMove("the game is over: no move can be made")
    if isinstance(move, SetGrues):
        if state.stage != "grues":
            raise MalformedMove(f"the grues are already set; {_WAITING[state.stage]}")
        return _check_setting(move)
    if isinstance(move, Place):
        if state.stage != "place":
            raise MalformedMove(f"not a placement moment; {_WAITING[state.stage]}")
        return _check_place(state, move)
    if isinstance(move, Step):
        if state.stage not in ("gleeb", "grue"):
            raise MalformedMove(f"nothing moves yet; {_WAITING[state.stage]}")
        return _check_step(state, move)
    raise MalformedMove(f"not a Gleeb's and Grues move: {move!r}")


def _check_setting(move: SetGrues) -> RuleRef | None:
    for cell in move.cells():
        if not on_board(cell):
            raise MalformedMove(f"{list(cell)} is off the 4×4 board")
    if len(set(move.cells())) < 3:
        return rules.SETUP_THREE_SQUARES
    return None


def _check_place(state: GGState, move: Place) -> RuleRef | None:
    piece = move.piece
    if piece.is_grue:
        raise MalformedMove("the grues are set at the start, not placed like gleebs")
    if not on_board(move.cell):
        raise MalformedMove(f"{list(move.cell)} is off the 4×4 board")
    if piece not in unplaced(state.board, state.eaten):
        raise MalformedMove(f"the {piece.describe()} is already on the board")
    if SEAT_OF_COLOUR[piece.colour] != state.players[state.active]:
        return rules.PLACE_IN_TURN
    if state.stack(move.cell):
        return rules.PLACE_EMPTY_SQUARE
    return None


def _check_step(state: GGState, move: Step) -> RuleRef | None:
    if not (on_board(move.frm) and on_board(move.to)):
        raise MalformedMove("a step goes from a square of the 4×4 board to another")
    if move.frm == move.to:
        raise MalformedMove(f"a step must leave its square ({cell_name(move.frm)})")
    stack = state.stack(move.frm)
    if not stack:
        raise MalformedMove(f"there is nothing on {cell_name(move.frm)} to move")
    if move.split and len(stack) < 2:
        raise MalformedMove(f"{cell_name(move.frm)} holds a single pyramid: nothing to split")
    if state.stage == "gleeb":
        return _check_gleeb_step(state, move)
    return _check_grue_step(state, move)


def _check_line(move: Step) -> RuleRef | None:
    if in_line(move.frm, move.to):
        return None
    if on_diagonal(move.frm, move.to):
        return rules.MOVE_NO_DIAGONAL
    return rules.MOVE_STRAIGHT_LINE


def _check_gleeb_step(state: GGState, move: Step) -> RuleRef | None:
    stack = state.stack(move.frm)
    if is_pinned(stack):
        return rules.GRUE_PINNED
    if is_free_grue(stack):
        return rules.TURN_GLEEB_FIRST
    if controller(stack) != state.players[state.active]:
        return rules.GLEEB_OWN
    if move.split:
        return rules.GLEEB_WHOLE_STACK
    line = _check_line(move)
    if line is not None:
        return line
    target = state.stack(move.to)
    if not target:
        return rules.GLEEB_LAND_ON_GLEEB
    if not is_gleeb_stack(target):
        return rules.GLEEB_NOT_ON_GRUE
    if target[-1].colour == stack[-1].colour:
        return rules.GLEEB_SAME_COLOUR
    return None


def _check_grue_step(state: GGState, move: Step) -> RuleRef | None:
    stack = state.stack(move.frm)
    if is_gleeb_stack(stack):
        return rules.TURN_GRUE_SECOND
    if is_pinned(stack):
        return rules.GRUE_PINNED
    # a free grue: one black pyramid (``split`` is impossible on a single pyramid)
    line = _check_line(move)
    if line is not None:
        return line
    target = state.stack(move.to)
    if target and not is_gleeb_stack(target):
        return rules.GRUE_NOT_ON_GRUE
    if target and target[-1].size != stack[0].size:
        return rules.GRUE_SAME_SIZE
    if not target:
        covers, _ = grue_moves(state.board)
        if covers:
            return rules.GRUE_MUST_COVER
    return None
