"""Options and the immutable state of a game of Terra Turrium.

The state is what the table shows plus what the table remembers: the height of every square,
where each flag stands, the flags off the board (not yet laid out, or captured and waiting to
re-enter), the attacks made (the aggression track, tracked from the history), and the stage of
the turn in progress: blocks taken this turn (and from where, for the one-per-foreign-territory
rule), blocks put down, movement points left. Blocks are identical, so the board is a height map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.terra_turrium import board

PHASE_LAYOUT = "layout"
PHASE_PLAY = "play"
PHASE_OVER = "over"

STAGE_TAKE = "take"
STAGE_PLACE = "place"
STAGE_FLAGS = "flags"

#: capture cost tables (RULINGS, flags): total cost of a capturing step going up one level,
#: staying level, going down one level
CAPTURE_TABLES: dict[str, tuple[int, int, int]] = {"3/2/1": (3, 2, 1), "2/1/1": (2, 1, 1)}


@dataclass(frozen=True)
class TerraTurriumOptions:
    """The named switches of RULINGS.md for Terra Turrium."""

    capture_costs: str = field(default="3/2/1", metadata={
        "doc": "total movement points of a capturing step, up/level/down: \"3/2/1\" (default) "
               "or the alternative table \"2/1/1\""})
    reentry_own_edge: bool = field(default=False, metadata={
        "doc": "a captured flag re-enters only in its owner's territory, on the edge row "
               "(default: any free exterior construction)"})

    def capture_table(self) -> tuple[int, int, int]:
        return CAPTURE_TABLES[self.capture_costs]


@dataclass(frozen=True)
class TerraTurriumState:
    """One moment of a game. Seat-indexed tuples follow ``players`` (play order)."""

    players: tuple[str, ...]
    options: TerraTurriumOptions
    #: blocks of the start layout (64, 80 or 116): conserved on the board and off it
    start_blocks: int
    #: height of each square, index ``y * 10 + x``
    heights: tuple[int, ...]
    #: ``(square, colour)`` of every flag on the board, sorted
    flags: tuple[tuple[int, str], ...]
    #: flags of each player off the board: not yet laid out, or captured
    reserve: tuple[int, ...]
    #: attacks made by each player (the aggression track)
    attacks: tuple[int, ...]
    phase: str
    #: index of the active player (play phase)
    active: int
    stage: str
    #: squares blocks were taken from this turn (sorted: the order no longer matters once taken)
    taken: tuple[int, ...]
    #: blocks of this turn put down
    placed: int
    #: movement points left this turn
    mp: int
    #: blocks off the board (in the active player's hand, or left aside by an illegal turn)
    off_board: int
    #: turns completed by each player
    turns: tuple[int, ...]
    #: the winners so far, in the order they met the condition
    winners: tuple[str, ...] = ()

    # -- derived facts -------------------------------------------------------------------------

    @property
    def in_hand(self) -> int:
        """Blocks taken this turn and not put down yet."""
        return len(self.taken) - self.placed

    @property
    def active_seat(self) -> str:
        return self.players[self.active]

    def seat_index(self, seat: str) -> int:
        return self.players.index(seat)

    def flags_at(self, sq: int) -> tuple[str, ...]:
        return tuple(colour for s, colour in self.flags if s == sq)

    def flag_squares(self, colour: str) -> tuple[int, ...]:
        return tuple(s for s, c in self.flags if c == colour)

    def blocks_on_board(self) -> int:
        return sum(self.heights)

    @property
    def round(self) -> int:
        if self.phase == PHASE_LAYOUT:
            return 0
        if self.phase == PHASE_OVER:
            return max(self.turns)
        return self.turns[self.active] + 1


def initial_state(players: tuple[str, ...], options: TerraTurriumOptions) -> TerraTurriumState:
    heights = board.start_heights(len(players))
    return TerraTurriumState(
        players=players, options=options, start_blocks=sum(heights), heights=heights, flags=(),
        reserve=tuple(board.FLAGS_PER_PLAYER for _ in players),
        attacks=tuple(0 for _ in players), phase=PHASE_LAYOUT, active=0, stage="",
        taken=(), placed=0, mp=board.MOVEMENT_POINTS, off_board=0,
        turns=tuple(0 for _ in players),
    )


def meets_win(heights: "tuple[int, ...] | list[int]", flags: "tuple | list",
              reserve_left: int, colour: str) -> bool:
    """RULINGS, win: all six flags of ``colour`` on the board, on towers of heights exactly 1
    to 6 (so on six different towers)."""
    if reserve_left:
        return False
    own = sorted(heights[s] for s, c in flags if c == colour)
    return own == [1, 2, 3, 4, 5, 6]


def progress(heights: "tuple[int, ...] | list[int]", flags: "tuple | list", colour: str) -> int:
    """The score shown during the game: how many of the heights 1 to 6 the player's flags hold
    (6 with six flags is the win)."""
    return len({heights[s] for s, c in flags if c == colour and 1 <= heights[s] <= 6})
