"""The 7-segment font, host side: the same glyphs as ``firmware_docs/table_board/font.cpp``
(a test checks the two tables agree), to render what the emulated board shows and to read back
what the real firmware sends to its MAX7219.

A glyph byte is the MAX7219's no-decode layout: bit 7 = decimal point, 6..0 = segments A..G.
"""

from __future__ import annotations

DP = 0x80

#: glyph per character (uppercase; lowercase letters use the same glyphs)
GLYPHS: dict[str, int] = {
    " ": 0x00, '"': 0x22, "'": 0x02, "(": 0x4E, ")": 0x78, "-": 0x01, "/": 0x25,
    "0": 0x7E, "1": 0x30, "2": 0x6D, "3": 0x79, "4": 0x33, "5": 0x5B, "6": 0x5F, "7": 0x70,
    "8": 0x7F, "9": 0x7B, "=": 0x09, "?": 0x65,
    "A": 0x77, "B": 0x1F, "C": 0x4E, "D": 0x3D, "E": 0x4F, "F": 0x47, "G": 0x5E, "H": 0x37,
    "I": 0x06, "J": 0x3C, "K": 0x57, "L": 0x0E, "M": 0x76, "N": 0x15, "O": 0x1D, "P": 0x67,
    "Q": 0x73, "R": 0x05, "S": 0x5B, "T": 0x0F, "U": 0x3E, "V": 0x1C, "W": 0x2A, "X": 0x49,
    "Y": 0x3B, "Z": 0x6D, "[": 0x4E, "]": 0x78, "_": 0x08,
}

# Reading back: where two characters share a glyph (5 and S, 2 and Z, C and [), the digit or
# letter wins, in this order.
_PREFERENCE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -_=?\"'()[]/"
INVERSE: dict[int, str] = {}
for _ch in _PREFERENCE:
    INVERSE.setdefault(GLYPHS[_ch], _ch)


def glyph(ch: str) -> int | None:
    return GLYPHS.get(ch.upper())


def render(text: str, digits: int = 8) -> bytes:
    """Glyphs for ``text``, leftmost first, blank-padded; '.' lights the previous character's
    point. ValueError when a character has no glyph or the text needs more than ``digits``
    positions (the firmware refuses the same texts)."""
    out: list[int] = []
    for ch in text:
        if ch == ".":
            if out and not out[-1] & DP:
                out[-1] |= DP
                continue
            out.append(DP)
        else:
            g = glyph(ch)
            if g is None:
                raise ValueError(f"the display has no glyph for {ch!r}")
            out.append(g)
        if len(out) > digits:
            raise ValueError(f"{text!r} needs more than {digits} digits")
    return bytes(out + [0] * (digits - len(out)))


def read(glyphs: bytes) -> str:
    """What the digits spell, one character per digit (points dropped, '~' for a pattern
    that is no character)."""
    return "".join(INVERSE.get(g & 0x7F, "~") for g in glyphs)
