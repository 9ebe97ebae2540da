// WS2812 ("NeoPixel") strip driver, data on D6 (PD6).
#pragma once
#include <stdint.h>

#include "board.h"

void ws2812_begin();
// Sends `n` colours down the strip (green, red, blue on the wire, as the chips expect).
// Interrupts are off while the bits go out: about 30 us per light.
void ws2812_show(const Rgb *leds, uint8_t n);
