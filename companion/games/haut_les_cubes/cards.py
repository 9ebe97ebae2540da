"""The action cards of Haut les Cubes: 85 cards of six designs (RULINGS: cards, fact)."""

from __future__ import annotations

MOAVEOU = "moaveou"
NAPOZLA = "napozla"
POUSSTOIA = "pousstoia"
NENLEVSA = "nenlevsa"
HOPLA = "hopla"
TVAVOARTOA = "tvavoartoa"

#: design -> copies in the deck, in the order of the rule text
DECK: dict[str, int] = {
    MOAVEOU: 36, NAPOZLA: 18, POUSSTOIA: 18, NENLEVSA: 9, HOPLA: 3, TVAVOARTOA: 1,
}
CARDS: tuple[str, ...] = tuple(DECK)
DECK_SIZE = sum(DECK.values())  # 85

#: one letter per design, for the move notation
LETTER: dict[str, str] = {
    MOAVEOU: "M", NAPOZLA: "N", POUSSTOIA: "P", NENLEVSA: "R", HOPLA: "H", TVAVOARTOA: "T",
}
BY_LETTER: dict[str, str] = {v: k for k, v in LETTER.items()}

#: names as printed on the cards
TITLE: dict[str, str] = {
    MOAVEOU: "Moavéou ?", NAPOZLA: "Napozla", POUSSTOIA: "Pousstoia !", NENLEVSA: "Nenlèvsa",
    HOPLA: "Hoplà", TVAVOARTOA: "Tvavoartoa !",
}

#: points for a bravery jump of 1, 2, ... 6 or more cubes (Les points)
JUMP_POINTS = (0, 1, 4, 9, 16, 25, 36)


def jump_points(drop: int) -> int:
    """Points for a Moavéou drop of ``drop`` levels: min(d, 6)²."""
    return JUMP_POINTS[min(max(drop, 0), 6)]


def dealt(level: int) -> int:
    """Cards dealt to a player whose giant stands ``level`` cubes high: 3 + level."""
    return 3 + level


def kept(dealt_count: int) -> int:
    """Cards kept after discarding half rounded down."""
    return dealt_count - dealt_count // 2
