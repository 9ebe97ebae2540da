"""A board as text and back: for logs, error reports, tests and worked examples.

A diagram is four rows printed as a player sees the board, row 4 at the top and row 1 at the
bottom, columns a to d from left to right. A square is ``.`` when empty, or its stack bottom to
top as pyramid codes joined by ``/`` (``Bl/Ys``: a small yellow on a large blue; ``Gm/Rs/Km``: a
stack pinned by the medium grue)::

    Ks    .     Gm    Yl
    Bs    Rl/Ym Km    Gs
    ...
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from companion.games.gleebs_and_grues.pieces import SIDE, Pyramid, index, pyramid_from_code
from companion.games.gleebs_and_grues.state import Board, GGState, GleebsOptions
from companion.games.gleebs_and_grues.transition import begin_turn


def to_diagram(board: Board) -> str:
    rows = []
    for row in reversed(range(SIDE)):
        squares = []
        for col in range(SIDE):
            stack = board[index((col, row))]
            squares.append("/".join(p.code for p in stack) if stack else ".")
        rows.append(" ".join(f"{s:<8}" for s in squares).rstrip())
    return "\n".join(rows)


def board_from_diagram(text: str | Iterable[str]) -> Board:
    """The board a diagram draws. Raises ValueError naming the square that cannot be read or the
    pyramid drawn twice."""
    lines = text.strip().splitlines() if isinstance(text, str) else list(text)
    lines = [line for line in (line.strip() for line in lines) if line]
    if len(lines) != SIDE:
        raise ValueError(f"a diagram has {SIDE} rows (row 4 first), not {len(lines)}")
    cells: list[tuple[Pyramid, ...]] = [() for _ in range(SIDE * SIDE)]
    seen: set[Pyramid] = set()
    for n, line in enumerate(lines):
        row = SIDE - 1 - n
        squares = line.split()
        if len(squares) != SIDE:
            raise ValueError(f"row {row + 1} of the diagram has {len(squares)} squares, "
                             f"not {SIDE}: {line!r}")
        for col, square in enumerate(squares):
            if square == ".":
                continue
            stack = tuple(pyramid_from_code(code) for code in square.split("/"))
            for pyramid in stack:
                if pyramid in seen:
                    raise ValueError(f"the {pyramid.describe()} is drawn twice")
                seen.add(pyramid)
            cells[index((col, row))] = stack
    return tuple(cells)


def position(players: tuple[str, str], diagram: str | Iterable[str], *, active: int = 0,
             turn: int = 0, eaten: Iterable[str] = (), stage: str | None = None,
             options: GleebsOptions | None = None) -> GGState:
    """A movement-phase state from a diagram: ``players[active]`` to play, in the stage the rules
    give (``gleeb``, or ``grue`` when none of their gleebs can move), or in ``stage`` if given.
    ``eaten`` lists the codes of the gleebs already eaten."""
    board = board_from_diagram(diagram)
    eaten_pieces = tuple(pyramid_from_code(code) for code in eaten)
    on_board = {p for stack in board for p in stack}
    twice = [p for p in eaten_pieces if p in on_board]
    if twice:
        raise ValueError(f"the {twice[0].describe()} is both eaten and on the board")
    state = GGState(players=players, board=board, eaten=eaten_pieces,
                    options=options or GleebsOptions())
    if stage is not None:
        return replace(state, stage=stage, active=active, turn=turn)
    return begin_turn(state, active, turn)
