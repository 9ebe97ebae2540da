"""The immutable state of a game of La Ville des Nains.

The state holds what the table knows: the stones in the pool, each dwarf's buildings stone by
stone (with the card each one follows), the cards left in the talon (their ids: every card in
play has been seen), the height of the kobold's tower and how many marked stones are in it, the
dice in the tray, and the stage of the turn. The order of the talon and which blue stones are
marked are not known: a card taken and a blue stone drawn are facts of the move that takes them.

A turn is several still moments, so its stages are explicit:

* ``roll``: the player at ``turn`` is to roll (the start of the game);
* ``build``: the dwarf at ``turn`` has rolled; ``dice_left`` are the faces not yet used for a
  stone, ``blue_left`` the blue faces whose kobold stone is still to be drawn (game 1);
* ``kobold``: the kobold player (game 2) has rolled; ``kobold_left`` blue stones may still be
  added, ``destroy_left`` says the kobold face's destruction is still open;
* ``over``: ``winner`` is ``"dwarves"`` or ``"kobold"``.

The next player's roll ends the ``build`` and ``kobold`` stages.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.ville_des_nains.components import (
    BEACH_TOWER, BLUE_STONES, KOBOLD_SEAT, MARKED_STONES, STONE_INDEX, Card, Stone, stock,
)
from companion.games.ville_des_nains.options import VdnOptions

ROLL = "roll"
BUILD = "build"
KOBOLD = "kobold"
OVER = "over"

DWARVES = "dwarves"
KOBOLD_WINS = "kobold"


@dataclass(frozen=True)
class Building:
    """One card's building in front of a dwarf: the card it follows and its stones, bottom
    first. A destroyed building keeps its card and starts again from nothing."""

    card: int
    stones: tuple[Stone, ...] = ()


@dataclass(frozen=True)
class VdnState:
    players: tuple[str, ...]
    options: VdnOptions
    #: stones on the table (not built), counted per kind in STONE_KINDS order
    pool: tuple[int, ...]
    #: per seat (play order), its buildings in the order its cards came; () for the kobold seat
    buildings: tuple[tuple[Building, ...], ...]
    #: ids of the cards not yet taken, ascending
    talon: tuple[int, ...]
    #: blue stones on the kobold's tower, and how many of them are marked (game 1)
    tower: int
    marked: int
    #: seat index whose turn it is (the last roller; in stage ``roll``: who must roll)
    turn: int
    stage: str
    #: the faces in the tray: the last colour roll (sorted) and the kobold die (game 2)
    colour_dice: tuple[str, ...]
    kobold_face: str | None
    dice_left: tuple[str, ...]
    blue_left: int
    kobold_left: int
    destroy_left: bool
    #: option all_or_nothing: this roll could not give every die a stone, so it gives none
    blocked: bool
    round: int
    rolls: int
    winner: str | None = None

    # -- derived facts ------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[Card, ...]:
        return self.options.deck()

    def card(self, card_id: int) -> Card:
        return self.deck[card_id - 1]

    @property
    def stock(self) -> tuple[int, ...]:
        o = self.options
        return stock(o.cubes, o.long_blocks, o.cylinders, o.roofs)

    @property
    def active(self) -> str:
        return self.players[self.turn]

    def seat_index(self, seat: str) -> int:
        return self.players.index(seat)

    def is_dwarf(self, index: int) -> bool:
        return not (self.options.game == 2 and self.players[index] == KOBOLD_SEAT)

    def dwarf_indices(self) -> list[int]:
        return [i for i in range(len(self.players)) if self.is_dwarf(i)]

    def kobold_index(self) -> int | None:
        if self.options.game == 2:
            return self.players.index(KOBOLD_SEAT)
        return None

    def next_index(self) -> int:
        """Who rolls next: the player at ``turn`` in stage ``roll``, else the one after."""
        return self.turn if self.stage == ROLL else (self.turn + 1) % len(self.players)

    def in_pool(self, stone: Stone) -> int:
        return self.pool[STONE_INDEX[stone]]

    def blue_left_in_box(self) -> int:
        return BLUE_STONES - self.tower

    def marked_left_in_box(self) -> int:
        return MARKED_STONES - self.marked

    def plain_left_in_box(self) -> int:
        return self.blue_left_in_box() - self.marked_left_in_box()

    # -- buildings ----------------------------------------------------------------------------

    def need(self, building: Building) -> int:
        """Stones a building has when finished."""
        return BEACH_TOWER if self.options.beach else len(self.card(building.card).shapes)

    def finished(self, building: Building) -> bool:
        return len(building.stones) >= self.need(building)

    def next_shape(self, building: Building) -> str | None:
        """Stone side: the shape the building needs now (None when finished); beach: None."""
        if self.options.beach or self.finished(building):
            return None
        return self.card(building.card).shapes[len(building.stones)]

    def destroyable(self, building: Building) -> bool:
        """A kobold can destroy it: started and unfinished (beach: started, under 7 stones)."""
        return bool(building.stones) and not self.finished(building)

    def unfinished(self, index: int) -> int:
        return sum(1 for b in self.buildings[index] if not self.finished(b))

    def owed_card(self, index: int) -> bool:
        """The dwarf may take a card now: stone side, every building finished; beach side,
        a tower was finished and not yet replaced (fewer than two towers in progress)."""
        if not self.is_dwarf(index):
            return False
        return self.unfinished(index) < (2 if self.options.beach else 1)

    def has_work(self, index: int) -> bool:
        """The dwarf still has something to build (a building, or a card to take)."""
        return self.unfinished(index) > 0 or (self.owed_card(index) and bool(self.talon))

    def city_finished(self) -> bool:
        """The dwarves' win (docs/rulings.md, End and Beach side)."""
        if self.options.beach and not self.options.beach_all_cards:
            return not any(self.pool)
        if self.talon:
            return False
        return all(self.finished(b) for i in self.dwarf_indices() for b in self.buildings[i])

    def built(self) -> tuple[int, ...]:
        """Stones in buildings, per kind (with the pool, always the box's stock)."""
        counts = [0] * len(self.pool)
        for seat in self.buildings:
            for b in seat:
                for stone in b.stones:
                    counts[STONE_INDEX[stone]] += 1
        return tuple(counts)
