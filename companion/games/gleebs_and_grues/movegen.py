"""Which moves exist from a board: the legal ones, and the physical ones players actually make.

Legal moves follow the rulings: a gleeb stack steps along its row or column, any distance,
jumping anything, onto a gleeb stack whose top colour differs from its own top colour (size
free); a free grue steps the same way onto an empty square or onto a gleeb stack whose top has
its size, and covering is compulsory when any grue can cover.

Physical moves add what a hand can do and players get wrong: any pyramid or stack lifted from
any square and put on any other (diagonals, knight-like jumps, empty squares, the wrong colour
or size, the opponent's gleeb, a pinned stack, the top of a stack lifted alone), a gleeb placed
on an occupied square or out of turn, two grues set on one square. ``check`` names each.
"""

from __future__ import annotations

from itertools import product

from companion.games.gleebs_and_grues.moves import Move, Place, SetGrues, Step
from companion.games.gleebs_and_grues.pieces import CELLS, index, line_cells
from companion.games.gleebs_and_grues.state import (
    Board,
    GGState,
    controller,
    is_free_grue,
    is_gleeb_stack,
    unplaced,
    unplaced_of,
)


def gleeb_moves(board: Board, seat: str) -> list[Step]:
    """The legal gleeb steps of ``seat``."""
    moves = []
    for frm in CELLS:
        stack = board[index(frm)]
        if controller(stack) != seat:
            continue
        colour = stack[-1].colour
        for to in line_cells(frm):
            target = board[index(to)]
            if is_gleeb_stack(target) and target[-1].colour != colour:
                moves.append(Step(frm, to))
    return moves


def can_move(board: Board, seat: str) -> bool:
    """Whether any gleeb of ``seat`` can step (the end test asks it of both seats)."""
    for frm in CELLS:
        stack = board[index(frm)]
        if controller(stack) != seat:
            continue
        colour = stack[-1].colour
        for to in line_cells(frm):
            target = board[index(to)]
            if is_gleeb_stack(target) and target[-1].colour != colour:
                return True
    return False


def grue_moves(board: Board) -> tuple[list[Step], list[Step]]:
    """The grue steps that cover a gleeb stack, and those to an empty square. Only the covers
    are legal when there is any (covering is compulsory)."""
    covers: list[Step] = []
    plain: list[Step] = []
    for frm in CELLS:
        stack = board[index(frm)]
        if not is_free_grue(stack):
            continue
        size = stack[0].size
        for to in line_cells(frm):
            target = board[index(to)]
            if not target:
                plain.append(Step(frm, to))
            elif is_gleeb_stack(target) and target[-1].size == size:
                covers.append(Step(frm, to))
    return covers, plain


def legal_grue_moves(board: Board) -> list[Step]:
    covers, plain = grue_moves(board)
    return covers or plain


def any_grue_move(board: Board) -> bool:
    covers, plain = grue_moves(board)
    return bool(covers or plain)


def all_grue_settings() -> list[SetGrues]:
    """Every way of setting the three grues on three distinct squares (3 360)."""
    return [SetGrues(a, b, c) for a, b, c in product(CELLS, repeat=3)
            if a != b and a != c and b != c]


def legal_moves(state: GGState) -> list[Move]:
    if state.stage == "grues":
        return list(all_grue_settings())
    if state.stage == "place":
        seat = state.players[state.active]
        empties = [c for c in CELLS if not state.board[index(c)]]
        return [Place(p, c) for p in unplaced_of(state.board, state.eaten, seat) for c in empties]
    if state.stage == "gleeb":
        return list(gleeb_moves(state.board, state.players[state.active]))
    if state.stage == "grue":
        return list(legal_grue_moves(state.board))
    return []


def physical_steps(board: Board) -> list[Step]:
    """Every stack lifted whole from a square and put on another, and every top of a stack of
    two or more lifted alone."""
    moves = []
    for frm in CELLS:
        stack = board[index(frm)]
        if not stack:
            continue
        for to in CELLS:
            if to == frm:
                continue
            moves.append(Step(frm, to))
            if len(stack) > 1:
                moves.append(Step(frm, to, True))
    return moves


def physical_moves(state: GGState) -> list[Move]:
    if state.stage == "grues":
        return [SetGrues(a, b, c) for a, b, c in product(CELLS, repeat=3)]
    if state.stage == "place":
        pieces = [p for p in unplaced(state.board, state.eaten) if not p.is_grue]
        return [Place(p, c) for p in pieces for c in CELLS]
    if state.stage in ("gleeb", "grue"):
        return list(physical_steps(state.board))
    return []

