"""The options and the state of an Altitude game: what the table knows, nothing more.

The camera sees the mountains and the top of the discard pile; a card just drawn is seen only
if the player shows it. Hands are hidden. So the state keeps:

* each mountain card by card (``mountain`` module), the discard pile in order (every card thrown
  was seen), the number of cards left in the deck and in each hand;
* ``unseen``: the multiset of cards nobody has seen yet, the deck and every hand together (the
  table cannot tell which of them is where). A card that goes into a hand after being seen (a
  shown drawn card kept, the hand card laid instead) goes back into it: the engine forgets it
  rather than guess what happened to it later;
* the stage of the turn: ``drawn`` is the drawn card while it is shown, before it is played;
* the phase: ``main`` while the deck lasts, then ``end`` (one pass in turn order, each player
  laying hand cards into their own mountain and showing the cards left), then ``over``.

Every card of the manifest is, at any moment, in exactly one of: a mountain, the discard pile,
``drawn``, ``unseen``; and ``len(unseen) == deck + sum(hands)``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.games.altitude.manifest import SAINT_BERNARD, Manifest
from companion.games.altitude.mountain import DOUBLE_TURN_HEIGHT, Mountain, height

PHASE_MAIN = "main"
PHASE_END = "end"
PHASE_OVER = "over"

#: cards dealt to each player, and kept in hand (rule text)
DEAL = 6
HAND = 4


@dataclass(frozen=True)
class AltitudeOptions:
    """The parameters a table chooses. The deck is the one named option: the real deck's
    composition is not published, so each box is enrolled into a manifest file."""

    manifest: str = field(default="demo", metadata={
        "doc": "the deck: the path of the box's manifest (JSON, written when the cards were "
               "enrolled), or a made-up deck shipped for tests and demos: demo (52 cards), "
               "mini (24 cards)"})


@dataclass(frozen=True)
class Kept:
    """What a player showed at the end of their last pass: the cards left in hand, and how many
    of them are Saint-Bernards (1 point each)."""

    cards: int
    saint_bernards: int

    @property
    def bonus(self) -> int:
        """The point for a hand emptied of everything but Saint-Bernards."""
        return 1 if self.cards == self.saint_bernards else 0


@dataclass(frozen=True)
class AltitudeState:
    manifest: Manifest
    players: tuple[str, ...]
    mountains: tuple[Mountain, ...]
    hands: tuple[int, ...]
    unseen: tuple[tuple[str, int], ...]
    deck: int
    discard: tuple[str, ...] = ()
    phase: str = PHASE_MAIN
    #: index of the player the referee waits for (None once the game is over)
    active: int | None = 0
    #: plays this turn: 2 from 5 étages (fixed when the turn starts), and plays still to make
    turn_plays: int = 1
    plays_left: int = 1
    #: the drawn card while it is shown, before it is played (the turn's first stage)
    drawn: str | None = None
    #: end phase: the players still to make their pass, in order (the active one first)
    end_queue: tuple[int, ...] = ()
    kept: tuple[Kept | None, ...] = ()
    round: int = 1

    # -- queries ------------------------------------------------------------------------------

    def index(self, seat: str) -> int:
        return self.players.index(seat)

    def mountain(self, seat: str) -> Mountain:
        return self.mountains[self.players.index(seat)]

    @property
    def active_seat(self) -> str | None:
        return None if self.active is None else self.players[self.active]

    def unseen_counter(self) -> Counter[str]:
        return Counter(dict(self.unseen))

    def unseen_count(self, card: str) -> int:
        for c, n in self.unseen:
            if c == card:
                return n
        return 0

    @property
    def unseen_total(self) -> int:
        return sum(n for _, n in self.unseen)

    def height(self, i: int) -> int:
        return height(self.mountains[i])

    def plays_for(self, i: int) -> int:
        return 2 if self.height(i) >= DOUBLE_TURN_HEIGHT else 1

    def end_pool(self) -> tuple[int, int]:
        """End phase: Saint-Bernards and other cards that may still be in the hands of the
        players who have not shown theirs (the unseen cards minus what was shown)."""
        sb = sum(n for c, n in self.unseen if self.manifest.kind(c) == SAINT_BERNARD)
        other = self.unseen_total - sb
        for kept in self.kept:
            if kept is not None:
                sb -= kept.saint_bernards
                other -= kept.cards - kept.saint_bernards
        return sb, other


def counter_tuple(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    """A multiset in the state's stored form: sorted, without zeros."""
    return tuple(sorted((c, n) for c, n in counts.items() if n > 0))
