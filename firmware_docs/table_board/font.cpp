#include "font.h"

#include <avr/pgmspace.h>

// Glyphs for ' ' (0x20) .. '_' (0x5F); lowercase letters use their uppercase entry.
// 0xFF marks characters without a glyph.
static const uint8_t GLYPHS[64] PROGMEM = {
    0x00, 0xFF, 0x22, 0xFF, 0xFF, 0xFF, 0xFF, 0x02,  //   ! " # $ % & '
    0x4E, 0x78, 0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0x25,  // ( ) * + , - . /
    0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70,  // 0 1 2 3 4 5 6 7
    0x7F, 0x7B, 0xFF, 0xFF, 0xFF, 0x09, 0xFF, 0x65,  // 8 9 : ; < = > ?
    0xFF, 0x77, 0x1F, 0x4E, 0x3D, 0x4F, 0x47, 0x5E,  // @ A b C d E F G
    0x37, 0x06, 0x3C, 0x57, 0x0E, 0x76, 0x15, 0x1D,  // H I J K L M n o
    0x67, 0x73, 0x05, 0x5B, 0x0F, 0x3E, 0x1C, 0x2A,  // P q r S t U v W
    0x49, 0x3B, 0x6D, 0x4E, 0xFF, 0x78, 0xFF, 0x08,  // X y Z [ \ ] ^ _
};

uint8_t font_glyph(char c) {
  if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
  if (c < 0x20 || c > 0x5F) return 0xFF;
  return pgm_read_byte(&GLYPHS[c - 0x20]);
}

bool font_render(const char *text, uint8_t *out, uint8_t digits) {
  for (uint8_t i = 0; i < digits; i++) out[i] = 0;
  uint8_t pos = 0;
  for (const char *p = text; *p; p++) {
    if (*p == '.') {
      // A point joins the character before it, unless that one already has a point.
      if (pos > 0 && !(out[pos - 1] & SEG_DP)) {
        out[pos - 1] |= SEG_DP;
        continue;
      }
      if (pos >= digits) return false;
      out[pos++] = SEG_DP;
      continue;
    }
    uint8_t g = font_glyph(*p);
    if (g == 0xFF || pos >= digits) return false;
    out[pos++] = g;
  }
  return true;
}
