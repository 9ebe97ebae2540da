"""What a move does to the table, and what the game does next: pure functions of the state.

:func:`effect` is the physical part (which squares change, what is eaten), shared by ``apply``
and by the camera matching, which scores a move by the squares it touches without building the
whole state. :func:`apply` adds the bookkeeping: whose turn, which stage, the end tests.

A move let stand takes the place of the step it was made in: after any move of the ``gleeb``
stage comes the grue step, after any move of the ``grue`` stage the end tests and the next turn.
A single black pyramid put on a lone gleeb eats it (whatever the sizes, if the table let it
stand); anything else put on a square goes on top of what is there, so a grue on a stack of two
or more pins it by what the stack is.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import MalformedMove
from companion.games.gleebs_and_grues.moves import Move, Place, SetGrues, Step
from companion.games.gleebs_and_grues.movegen import any_grue_move, can_move
from companion.games.gleebs_and_grues.pieces import (
    GRUE_PIECES,
    Pyramid,
    cell_name,
    index,
    on_board,
)
from companion.games.gleebs_and_grues.state import (
    Board,
    GGState,
    Stack,
    stacks_of,
    unplaced,
    unplaced_of,
)


def effect(state: GGState, move: Move) -> tuple[dict[int, Stack], tuple[Pyramid, ...]]:
    """The squares ``move`` changes (board index -> new stack) and the gleebs it eats."""
    board = state.board
    if isinstance(move, SetGrues):
        changes: dict[int, Stack] = {}
        for grue, cell in zip(GRUE_PIECES, move.cells()):
            if not on_board(cell):
                raise MalformedMove(f"{list(cell)} is off the 4×4 board")
            i = index(cell)
            # two grues set on one square nest: the larger covers the smaller
            changes[i] = tuple(sorted(changes.get(i, board[i]) + (grue,), key=lambda p: p.size))
        return changes, ()
    if isinstance(move, Place):
        if not on_board(move.cell):
            raise MalformedMove(f"{list(move.cell)} is off the 4×4 board")
        if move.piece not in unplaced(board, state.eaten):
            raise MalformedMove(f"the {move.piece.describe()} is not in anyone's hand")
        i = index(move.cell)
        return {i: board[i] + (move.piece,)}, ()
    if isinstance(move, Step):
        if not (on_board(move.frm) and on_board(move.to)) or move.frm == move.to:
            raise MalformedMove("a step goes from one square of the 4×4 board to another")
        src, dst = board[index(move.frm)], board[index(move.to)]
        if not src:
            raise MalformedMove(f"there is nothing on {cell_name(move.frm)} to move")
        if move.split and len(src) < 2:
            raise MalformedMove(f"{cell_name(move.frm)} holds a single pyramid: nothing to split")
        moving = src[-1:] if move.split else src
        rest = src[:-1] if move.split else ()
        if len(moving) == 1 and moving[0].is_grue and len(dst) == 1 and not dst[0].is_grue:
            # a lone gleeb covered by a grue is eaten and removed; the grue stays free
            return {index(move.frm): rest, index(move.to): moving}, dst
        return {index(move.frm): rest, index(move.to): dst + moving}, ()
    raise MalformedMove(f"not a Gleeb's and Grues move: {move!r}")


def with_changes(board: Board, changes: dict[int, Stack]) -> Board:
    cells = list(board)
    for i, stack in changes.items():
        cells[i] = stack
    return tuple(cells)


def apply(state: GGState, move: Move) -> GGState:
    if state.stage == "over":
        raise MalformedMove("the game is over: no move can be made")
    kinds = {"grues": SetGrues, "place": Place, "gleeb": Step, "grue": Step}
    if not isinstance(move, kinds[state.stage]):
        raise MalformedMove(f"a {type(move).__name__} cannot be made in the {state.stage} stage")
    changes, eaten = effect(state, move)
    board = with_changes(state.board, changes)
    after = replace(state, board=board, eaten=state.eaten + eaten)
    if state.stage == "grues":
        return replace(after, stage="place", active=0)
    if state.stage == "place":
        return _after_placement(after)
    if state.stage == "gleeb":
        if any_grue_move(board):
            return replace(after, stage="grue")
        return end_of_turn(after)
    return end_of_turn(after)


def _after_placement(state: GGState) -> GGState:
    """The other seat places next; a seat with no gleeb of its own left to place is passed over
    (possible only after a placement of the opponent's gleeb was let stand)."""
    placer = state.players[state.active]
    other = state.players[1 - state.active]
    for seat in (other, placer):
        if unplaced_of(state.board, state.eaten, seat):
            return replace(state, stage="place", active=state.players.index(seat))
    return begin_turn(state, 0, 0)


def ending(state: GGState) -> str:
    """The end tests run after each grue step: ``score`` when no gleeb of either seat can move,
    ``no-stack`` when exactly one seat tops no stack, ``""`` when the game goes on."""
    if not any(can_move(state.board, seat) for seat in state.players):
        return "score"
    topless = [seat for seat in state.players if not stacks_of(state.board, seat)]
    if len(topless) == 1:
        return "no-stack"
    return ""


def end_of_turn(state: GGState) -> GGState:
    end = ending(state)
    if end:
        return replace(state, stage="over", ending=end)
    return begin_turn(state, 1 - state.active, state.turn + 1)


def begin_turn(state: GGState, active: int, turn: int) -> GGState:
    """The turn of ``players[active]``: the gleeb step, or straight to the grue step when no gleeb
    of theirs can move, or (nothing at all to do) the turn passes on after the end tests."""
    seat = state.players[active]
    if can_move(state.board, seat):
        return replace(state, stage="gleeb", active=active, turn=turn)
    if any_grue_move(state.board):
        return replace(state, stage="grue", active=active, turn=turn)
    # An empty turn changes nothing. If the end tests pass, the other seat can move a gleeb,
    # so its turn is a real one.
    end = ending(state)
    if end:
        return replace(state, stage="over", ending=end, active=active, turn=turn)
    return replace(state, stage="gleeb", active=1 - active, turn=turn + 1)
