"""The named options of La Ville des Nains (``docs/rulings.md``), with their defaults.

Every field is JSON-friendly (int, bool, str), so the options travel whole in the event log and a
replay never depends on a file that may have changed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.games.base import BadOptions
from companion.games.ville_des_nains.components import (
    CARD_COUNT, SHAPES, STONES_PER_COLOUR, Card, deck_for, parse_kobold_die,
)

STONE_SIDE = "stone"
BEACH_SIDE = "beach"


@dataclass(frozen=True)
class VdnOptions:
    """How this table plays La Ville des Nains."""

    game: int = field(default=1, metadata={
        "doc": "1: the kobold is the dice (blue faces draw kobold stones); 2: one player, seat "
               "'blue', is the kobold and rolls only the kobold die"})
    side: str = field(default=STONE_SIDE, metadata={
        "doc": "the card side played: 'stone' (shapes laid in the card's order) or 'beach' "
               "(free towers of 7)"})
    all_or_nothing: bool = field(default=False, metadata={
        "doc": "stone side, strict reading: if one die's colour cannot give a stone the player "
               "needs, the player takes no stone at all that turn"})
    beach_all_cards: bool = field(default=False, metadata={
        "doc": "beach side, literal reading: the dwarves win only when every card's tower of 7 "
               "is built (the default ruling: when no stone is left on the table)"})
    cubes: int = field(default=3, metadata={"doc": "cubes of each colour (default 3)"})
    long_blocks: int = field(default=3, metadata={"doc": "long blocks of each colour (default 3)"})
    cylinders: int = field(default=2, metadata={"doc": "cylinders of each colour (default 2)"})
    roofs: int = field(default=2, metadata={"doc": "roofs of each colour (default 2)"})
    kobold_die: str = field(default="0,1,1,2,2,kobold", metadata={
        "doc": "the kobold die's six faces (numbers 0-3 and 'kobold')"})
    cards: str = field(default="", metadata={
        "doc": "the stone side of the 12 cards, e.g. 'cube-cube-roof, long-long, ...' (shapes "
               "bottom to top, cards in id order); empty: the shipped default deck"})
    deal: str = field(default="", metadata={
        "doc": "the cards dealt, two per dwarf in play order, e.g. '3,7;1,12'; empty: dealt by "
               "the engine from the game's seed"})

    @property
    def beach(self) -> bool:
        return self.side == BEACH_SIDE

    def deck(self) -> tuple[Card, ...]:
        return deck_for(self.cards)

    def die_faces(self) -> tuple[str, ...]:
        return parse_kobold_die(self.kobold_die)


def validate(options: VdnOptions) -> None:
    """Raise :class:`BadOptions` naming the option and what it should be."""
    if isinstance(options.game, bool) or options.game not in (1, 2):
        raise BadOptions(f"option game must be 1 (the kobold is the dice) or 2 (a player is the "
                         f"kobold), not {options.game!r}")
    if options.side not in (STONE_SIDE, BEACH_SIDE):
        raise BadOptions(f"option side must be 'stone' or 'beach', not {options.side!r}")
    counts = (options.cubes, options.long_blocks, options.cylinders, options.roofs)
    if any(isinstance(n, bool) or n < 0 for n in counts) or sum(counts) != STONES_PER_COLOUR:
        raise BadOptions(f"cubes, long_blocks, cylinders and roofs are the stones of each colour: "
                         f"{STONES_PER_COLOUR} in all (40 stones in 4 colours), not {counts}")
    try:
        options.die_faces()
    except ValueError as exc:
        raise BadOptions(f"option kobold_die: {exc}") from None
    try:
        deck = options.deck()
    except ValueError as exc:
        raise BadOptions(f"option cards: {exc}") from None
    if len(deck) != CARD_COUNT:
        raise BadOptions(f"option cards: {CARD_COUNT} cards needed")
    if not options.beach:
        need = Counter(s for card in deck for s in card.shapes)
        have = dict(zip(SHAPES, (4 * n for n in counts)))
        short = [f"{need[s]} {s}s but {have[s]} in the box" for s in SHAPES if need[s] > have[s]]
        if short:
            raise BadOptions("the stone sides of the cards could never all be built: "
                             + "; ".join(short))
