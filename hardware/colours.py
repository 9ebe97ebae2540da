"""Seat colours: the light a player's seat gets on the strip.

Seats are named by colour (``red``, ``yellow``, ... as the games name them; French names work
too). A name the table kit does not know gets one fixed fallback colour, so a seat is always lit.
"black" cannot be shown by a light, so a black seat glows dim grey.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

SEAT_COLOURS: dict[str, RGB] = {
    "red": (255, 0, 0),
    "yellow": (255, 200, 0),
    "blue": (0, 0, 255),
    "green": (0, 255, 0),
    "white": (255, 255, 255),
    "black": (40, 40, 40),
    "orange": (255, 100, 0),
    "violet": (150, 0, 255),
}

ALIASES = {
    "rouge": "red", "jaune": "yellow", "bleu": "blue", "vert": "green", "blanc": "white",
    "noir": "black", "purple": "violet",
}

#: the light of a seat whose name is not a known colour
FALLBACK: RGB = (0, 200, 200)


def seat_colour(name: str) -> RGB:
    key = name.strip().lower()
    return SEAT_COLOURS.get(ALIASES.get(key, key), FALLBACK)


def to_hex(rgb: RGB) -> str:
    """``(255, 0, 0)`` -> ``"ff0000"``, the form the protocol carries."""
    return "%02x%02x%02x" % rgb


def from_hex(text: str) -> RGB:
    """``"ff0000"`` or ``"#ff0000"`` -> ``(255, 0, 0)``; ValueError for anything else."""
    digits = text[1:] if text.startswith("#") else text
    if len(digits) != 6 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise ValueError(f"not a colour: {text!r} (expected 6 hex digits, like ff8800)")
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
