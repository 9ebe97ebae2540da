// Build-time settings of the table board: pins, link speed, sizes.
//
// The numbers here are also stated in PROTOCOL.md and WIRING.md; the host reads the sizes from
// the HELLO answer rather than assuming them.
#pragma once

#define FW_VERSION "1.0.0"
#define PROTO_VERSION 1

// 57600 baud: a WS2812 refresh of 8 LEDs keeps interrupts off for about 250 us, and at this
// speed the UART's own 2-byte buffer plus its shift register hold 520 us of incoming bytes, so
// no byte is lost while the strip is written.
#define SERIAL_BAUD 57600UL

#define NUM_LEDS 8    // one light per seat
#define NUM_DIGITS 8  // one MAX7219 driving an 8-digit module
#define MAX_SEATS 8

// Pins (Arduino numbering; Uno and Nano alike). WS2812 data is fixed to PD6 = D6 because the
// driver writes the port register directly (see ws2812.cpp).
#define PIN_MAX7219_LOAD 10  // PB2; DIN = D11 (MOSI), CLK = D13 (SCK)

// Hardware variants. Most 8-digit MAX7219 modules wire DIG0 to the rightmost digit; set 1 for
// one whose self-test shows 87654321. Most WS2812B strips take green, red, blue; set 1 for a
// strip (WS2811 and some clones) whose self-test shows red and green swapped.
#define DISPLAY_DIG0_LEFT 0
#define STRIP_ORDER_RGB 0

// Timings of what the players see, in milliseconds.
#define SELFTEST_STEP_MS 150UL   // boot self-test: 4 steps
#define FLASH_ON_MS 150UL        // a verdict flash: 3 blinks of on + off
#define FLASH_OFF_MS 100UL
#define FLASH_BLINKS 3
#define PULSE_PERIOD_MS 1000UL   // amber pulse while the referee waits for an answer
#define CYCLE_MS 2000UL          // cycling view: time per player
#define WIN_ON_MS 700UL          // winner view: blink on / off
#define WIN_OFF_MS 300UL
#define RENDER_EVERY_MS 10UL
#define DISPLAY_REFRESH_MS 5000UL  // rewrite the MAX7219 setup, in case a glitch upset it

// Light levels (0..255) of seat lights before the brightness setting is applied.
#define LEVEL_ACTIVE 255
#define LEVEL_WAITING 48   // the other seats while someone plays
#define LEVEL_NO_TURN 128  // every seat when nobody's turn is set
#define DEFAULT_BRIGHTNESS 8
