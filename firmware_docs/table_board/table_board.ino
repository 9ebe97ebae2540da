// Table board firmware: seat lights on a WS2812 strip and scores on a MAX7219 display, driven
// by the referee over the serial line protocol of PROTOCOL.md. Wiring and flashing: WIRING.md.
//
// The work is split so that everything but the pin-level drivers runs on a PC too: protocol.*
// frames lines, board.* is the state machine and decides what the players see, font.* spells
// characters in segments; this file only moves bytes between them and the hardware.
#include <SPI.h>

#include "board.h"
#include "config.h"
#include "max7219.h"
#include "protocol.h"
#include "ws2812.h"

static Board board;
static LineReader reader;
static Max7219 display;
static Shown shown;
static Rgb pushed_leds[NUM_LEDS];
static bool leds_valid = false;
static uint32_t last_render = 0;
static uint32_t last_refresh = 0;
static char reply[REPLY_BYTES];

static void show_now(uint32_t now);

void setup() {
  Serial.begin(SERIAL_BAUD);
  ws2812_begin();
  display.begin(PIN_MAX7219_LOAD);
  reader.reset();
  uint32_t now = millis();
  board.begin(now);
  last_render = now;
  show_now(now);
  // The self-test runs to its end before anything is read, then the board says it is ready.
  while (board.self_testing(now = millis())) {
    if (now - last_render >= RENDER_EVERY_MS) {
      last_render = now;
      show_now(now);
    }
  }
  show_now(now);
  size_t n = board.ready_banner(reply, sizeof(reply));
  Serial.write((const uint8_t *)reply, n);
}

void loop() {
  while (Serial.available() > 0) {
    LineEvent e = reader.feed((uint8_t)Serial.read());
    if (e == LINE_NONE) continue;
    size_t n = board.on_line_event(e, reader.buf, reader.len, millis(), reply, sizeof(reply));
    reader.reset();
    if (n) Serial.write((const uint8_t *)reply, n);
  }
  uint32_t now = millis();
  if (now - last_render >= RENDER_EVERY_MS) {
    last_render = now;
    show_now(now);
  }
}

static void show_now(uint32_t now) {
  board.render(now, shown);
  // The strip is written only when a colour changes: each write holds interrupts off.
  bool changed = !leds_valid;
  for (uint8_t i = 0; i < NUM_LEDS && !changed; i++) {
    changed = shown.leds[i].r != pushed_leds[i].r || shown.leds[i].g != pushed_leds[i].g ||
              shown.leds[i].b != pushed_leds[i].b;
  }
  if (changed) {
    ws2812_show(shown.leds, NUM_LEDS);
    for (uint8_t i = 0; i < NUM_LEDS; i++) pushed_leds[i] = shown.leds[i];
    leds_valid = true;
  }
  if (now - last_refresh >= DISPLAY_REFRESH_MS) {
    last_refresh = now;
    display.refresh(shown.digits, shown.brightness);
  } else {
    display.show(shown.digits, shown.brightness);
  }
}
