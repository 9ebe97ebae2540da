"""The state of a game of Gleeb's and Grues: a board of stacks, the eaten gleebs, whose stage.

The camera cannot see inside nested pyramids, so the state holds each square's whole stack,
bottom to top, as the history built it. Everything else is derived from the stacks:

* a **gleeb stack** is a non-empty stack topped by a coloured pyramid; it moves whole and counts
  as the colour and size of its top, and the seat controlling that colour controls it;
* a **free grue** is a square holding exactly one black pyramid;
* a **pinned stack** is two or more pyramids topped by a black one: a grue that covered a stack.
  It never moves again and counts as a grue, not as a gleeb.

A turn of the movement phase is two physical actions the camera sees at different still moments,
so the stage is explicit: ``gleeb`` then ``grue``. The stages are ``grues`` (the table sets the
three grues, the first chance move), ``place``, ``gleeb``, ``grue`` and ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.gleebs_and_grues.pieces import (
    BLACK,
    CELLS,
    RAINBOW,
    SEAT_COLOURS,
    SEAT_OF_COLOUR,
    Cell,
    Pyramid,
    index,
)

Stack = tuple[Pyramid, ...]
Board = tuple[Stack, ...]

STAGES = ("grues", "place", "gleeb", "grue", "over")
PHASE_OF_STAGE = {"grues": "setup", "place": "placement", "gleeb": "movement",
                  "grue": "movement", "over": "over"}
#: why a finished game ended: every gleeb immobile (scores compared), or one seat tops no stack
ENDINGS = ("", "score", "no-stack")

EMPTY_BOARD: Board = tuple(() for _ in CELLS)


@dataclass(frozen=True)
class GleebsOptions:
    """Named options of Gleeb's and Grues. RULINGS.md names none for this game: every ruling
    there (the gleeb and grue steps, the end tests) is the rule the engine plays, so the set is
    empty and any option given is refused by name. The dataclass still exists so that a log
    records ``{}`` as the options and a later named option has its place."""


@dataclass(frozen=True)
class GGState:
    """One moment of the game. ``players`` are the two seats in play order (the first player is
    first in both phases); ``active`` indexes the seat the referee waits for; ``turn`` counts the
    movement turns completed; ``ending`` says why a finished game ended."""

    players: tuple[str, str]
    board: Board = EMPTY_BOARD
    eaten: tuple[Pyramid, ...] = ()
    stage: str = "grues"
    active: int = 0
    turn: int = 0
    ending: str = ""
    options: GleebsOptions = field(default_factory=GleebsOptions)

    def stack(self, cell: Cell) -> Stack:
        return self.board[index(cell)]

    @property
    def active_seat(self) -> str | None:
        return None if self.stage == "over" else self.players[self.active]

    @property
    def phase(self) -> str:
        return PHASE_OF_STAGE[self.stage]


# -- what a stack is ------------------------------------------------------------------------


def is_gleeb_stack(stack: Stack) -> bool:
    return bool(stack) and stack[-1].colour != BLACK


def is_free_grue(stack: Stack) -> bool:
    return len(stack) == 1 and stack[0].colour == BLACK


def is_pinned(stack: Stack) -> bool:
    return len(stack) > 1 and stack[-1].colour == BLACK


def controller(stack: Stack) -> str | None:
    """The seat whose colour tops a gleeb stack; None for an empty square or a grue."""
    return SEAT_OF_COLOUR[stack[-1].colour] if is_gleeb_stack(stack) else None


def pips(stack: Stack) -> int:
    return sum(p.size for p in stack)


# -- what the board holds ---------------------------------------------------------------------


def occupied(board: Board) -> list[Cell]:
    return [c for c in CELLS if board[index(c)]]


def empty_cells(board: Board) -> list[Cell]:
    return [c for c in CELLS if not board[index(c)]]


def stacks_of(board: Board, seat: str) -> list[Cell]:
    """Cells of the gleeb stacks ``seat`` tops."""
    return [c for c in CELLS if controller(board[index(c)]) == seat]


def seat_scores(board: Board, players: tuple[str, ...]) -> dict[str, int]:
    """The pips of every pyramid in the stacks each seat tops (the score if the game ended now)."""
    scores = {seat: 0 for seat in players}
    for stack in board:
        seat = controller(stack)
        if seat is not None:
            scores[seat] += pips(stack)
    return scores


def unplaced(board: Board, eaten: tuple[Pyramid, ...]) -> list[Pyramid]:
    """Pyramids of the set neither on the board nor eaten: the grues before setup, the gleebs
    still in their owners' hands during placement."""
    used = set(eaten)
    for stack in board:
        used.update(stack)
    return [p for p in RAINBOW if p not in used]


def unplaced_of(board: Board, eaten: tuple[Pyramid, ...], seat: str) -> list[Pyramid]:
    colours = SEAT_COLOURS[seat]
    return [p for p in unplaced(board, eaten) if p.colour in colours]
