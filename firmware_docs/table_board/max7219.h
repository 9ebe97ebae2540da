// MAX7219 driver for an 8-digit 7-segment module, over the hardware SPI port.
//
// Digits are given leftmost first; on the usual modules DIG0 is the rightmost digit, so the
// leftmost character goes to digit register 8 (DISPLAY_DIG0_LEFT in config.h for the others). The chip runs in "no decode" mode: each
// register holds the segment byte from font.h as is.
#pragma once
#include <stdint.h>

#include "config.h"

class Max7219 {
 public:
  void begin(uint8_t load_pin);
  // Writes the digits and intensity that changed since the last call.
  void show(const uint8_t *digits, uint8_t intensity);
  // Writes the whole setup and every digit again, whatever the chip is believed to hold, so a
  // display upset by a glitch on its wires comes back by itself.
  void refresh(const uint8_t *digits, uint8_t intensity);

 private:
  void write(uint8_t reg, uint8_t value);
  uint8_t load_;
  uint8_t shown_[NUM_DIGITS];
  uint8_t intensity_;
};
