"""Options and the immutable state of a game of Haut les Cubes.

The state holds only what the table knows: where the cubes and giants are, the reserves, the
scores, whose turn it is, and the *counts* of cards in the deck, the discard, each hand and the
played pile. Which cards a player holds is hidden; the card a player lays down is part of their
move, read by the camera in the played-card zone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.haut_les_cubes.geometry import Cell, Cube
from companion.games.haut_les_cubes.mountain import Mountain, mountain

SEATS = ("red", "yellow", "blue", "green", "white", "black")

PHASE_PLACEMENT = "placement"
PHASE_PLAY = "play"
PHASE_OVER = "over"

TARGET_SCORE = 25


@dataclass(frozen=True)
class HlcOptions:
    """The named switches of RULINGS.md for Haut les Cubes (all off by default)."""

    push_uphill: bool = field(default=False, metadata={
        "doc": "Pousstoia may push the victim onto a higher square"})
    push_void_optional: bool = field(default=False, metadata={
        "doc": "pushing into the void is allowed but not compulsory"})
    slingshot_uphill: bool = field(default=False, metadata={
        "doc": "Tvavoartoa may send its target onto a higher square"})


def start_layout(n_players: int) -> frozenset[Cube]:
    """The cubes in the middle of the table at the start (RULINGS: start layouts): a 2×2 block
    for 4 and 5 players, a 3×2 block for 3 and 6, centred on the lattice origin."""
    if n_players in (4, 5):
        xs, ys = (-2, 0), (-2, 0)
    else:
        xs, ys = (-3, -1, 1), (-2, 0)
    return frozenset((x, y, 0) for x in xs for y in ys)


def start_reserve(n_players: int) -> int:
    """The rest of the 24 cubes shared equally: 6, 5, 4, 3 for 3, 4, 5, 6 players."""
    return (24 - len(start_layout(n_players))) // n_players


@dataclass(frozen=True, slots=True)
class HlcState:
    """One moment of a game. Seat-indexed tuples follow ``players`` (clockwise play order,
    ``players[0]`` started the game)."""

    players: tuple[str, ...]
    options: HlcOptions
    cubes: frozenset[Cube]
    giants: tuple[Cell | None, ...]
    reserves: tuple[int, ...]
    scores: tuple[int, ...]
    #: the clock (cards played) when each player's current score was reached (tie-break)
    reached: tuple[int, ...]
    hands: tuple[int, ...]
    phase: str
    round: int
    first: int
    #: seat index to act, None when the game is over
    turn: int | None
    deck: int
    discard: int
    played_round: int
    #: per card design (cards.CARDS order): copies seen played since the last reshuffle
    seen: tuple[int, ...]
    clock: int
    #: the card lying in the played-card zone (None once it is moved onto the played pile)
    last_card: str | None = None
    reshuffles: int = 0
    mountain: Mountain = field(default=None, compare=False, hash=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.mountain is None or self.mountain.cubes is not self.cubes:
            object.__setattr__(self, "mountain", mountain(self.cubes))

    @property
    def heights(self) -> dict[Cell, int]:
        return self.mountain.heights

    # -- derived facts ------------------------------------------------------------------------

    def seat(self, player: str) -> int:
        return self.players.index(player)

    @property
    def active(self) -> str | None:
        return None if self.turn is None else self.players[self.turn]

    def height(self, cell: Cell) -> int:
        return self.mountain.heights.get(cell, 0)

    def giant_at(self, cell: Cell) -> int | None:
        """Seat index of the giant on ``cell``, if any."""
        for i, pos in enumerate(self.giants):
            if pos == cell:
                return i
        return None

    def occupied(self) -> set[Cell]:
        return {pos for pos in self.giants if pos is not None}

    def level_of(self, seat: int) -> int:
        pos = self.giants[seat]
        return 0 if pos is None else self.height(pos)

    def cards_total(self) -> int:
        """Deck + discard + hands + played pile: always 85."""
        return self.deck + self.discard + sum(self.hands) + self.played_round
