// The 7-segment font: which segments spell a character on the score display.
//
// Bit layout is the MAX7219's "no decode" layout, so a glyph goes to the chip unchanged:
// bit 7 = decimal point, 6 = A (top), 5 = B, 4 = C, 3 = D (bottom), 2 = E, 1 = F, 0 = G (middle).
// Letters are case-insensitive; a letter a 7-segment digit cannot draw gets its usual
// approximation (see the table in font.cpp and PROTOCOL.md).
#pragma once
#include <stdint.h>

#define SEG_DP 0x80

// The glyph for one character, or 0xFF when the font has none.
uint8_t font_glyph(char c);

// Renders text into `digits` glyphs, leftmost first, blank-padded. A '.' lights the decimal
// point of the character before it. Returns false (leaving `out` blank-padded up to the
// failure) when a character has no glyph or the text needs more than `digits` positions.
bool font_render(const char *text, uint8_t *out, uint8_t digits);
