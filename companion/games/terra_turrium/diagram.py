"""Positions written as pictures of the board, for tests, scripts and bug reports.

A diagram is ten lines of ten characters, the top line being row 10 and the bottom one row 1
(as the board is seen from the red and yellow side): a digit is a tower's height, ``.`` an empty
square. Flags are given by square, ``{"c3": "red"}``. Blank lines and spaces are ignored, and a
line may start with its row number::

    10 ..........
     9 .11111111.
     ...
     1 ..........
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import (
    PHASE_PLAY, STAGE_TAKE, TerraTurriumOptions, TerraTurriumState, initial_state,
)


def heights_from(diagram: str) -> tuple[int, ...]:
    rows = []
    for line in diagram.strip("\n").splitlines():
        cells = "".join(line.split())
        cells = cells.lstrip("0123456789") if len(cells) > board.SIZE else cells
        if cells:
            rows.append(cells)
    if len(rows) != board.SIZE or any(len(r) != board.SIZE for r in rows):
        raise ValueError("a diagram is 10 lines of 10 squares ('.' or a height digit)")
    heights = [0] * board.SQUARES
    for r, cells in enumerate(rows):
        y = board.SIZE - 1 - r
        for x, ch in enumerate(cells):
            if ch != "." and not ch.isdigit():
                raise ValueError(f"{ch!r} at {board.name(board.square(x, y))} is not a height")
            heights[board.square(x, y)] = 0 if ch == "." else int(ch)
    return tuple(heights)


def draw(heights: tuple[int, ...]) -> str:
    lines = []
    for y in range(board.SIZE - 1, -1, -1):
        row = "".join("." if heights[board.square(x, y)] == 0 else
                      str(min(9, heights[board.square(x, y)])) for x in range(board.SIZE))
        lines.append(f"{y + 1:>2} {row}")
    lines.append("   " + board.COLUMNS)
    return "\n".join(lines)


def position(players: tuple[str, ...], diagram: str, flags: Mapping[str, str] = (),
             *, active: int = 0, stage: str = STAGE_TAKE, taken: tuple[str, ...] = (),
             placed: int = 0, mp: int = board.MOVEMENT_POINTS,
             reserve: Mapping[str, int] | None = None, attacks: Mapping[str, int] | None = None,
             turns: Mapping[str, int] | None = None, winners: tuple[str, ...] = (),
             options: TerraTurriumOptions | None = None,
             start_blocks: int | None = None) -> TerraTurriumState:
    """A play-phase position. Flags not drawn are off the board only when ``reserve`` says so;
    ``start_blocks`` defaults to the blocks drawn plus those in hand."""
    base = initial_state(tuple(players), options or TerraTurriumOptions())
    heights = heights_from(diagram)
    flag_list = tuple(sorted((board.parse_square(sq), colour)
                             for sq, colour in dict(flags).items()))
    taken_sq = tuple(board.parse_square(s) for s in taken)
    in_hand = len(taken_sq) - placed
    reserve = dict(reserve or {})
    attacks = dict(attacks or {})
    turns = dict(turns or {})
    return dataclasses.replace(
        base, heights=heights, flags=flag_list,
        start_blocks=start_blocks if start_blocks is not None else sum(heights) + in_hand,
        reserve=tuple(reserve.get(p, 0) for p in players),
        attacks=tuple(attacks.get(p, 0) for p in players), phase=PHASE_PLAY, active=active,
        stage=stage, taken=taken_sq, placed=placed, mp=mp, off_board=in_hand,
        turns=tuple(turns.get(p, 0) for p in players), winners=tuple(winners),
    )
