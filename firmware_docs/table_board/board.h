// The table board's state machine: what the host asked for, and what the players see.
//
// Board knows nothing of pins or UARTs: it takes received lines and the time in milliseconds,
// and answers with the reply to send and, through render(), the LED colours and display
// segments of any instant. The sketch feeds it from the serial port and pushes what render()
// says to the strip and the display; the host-side unit tests and the fuzzer drive it directly.
#pragma once
#include <stdint.h>

#include "config.h"
#include "protocol.h"

struct Rgb {
  uint8_t r, g, b;
};

enum ViewKind : uint8_t { VIEW_IDLE, VIEW_SCORE, VIEW_CYCLE, VIEW_WIN };
enum FlashKind : uint8_t { FLASH_NONE, FLASH_GOOD, FLASH_BAD };

// Everything STATE sets: the part of the board the host restores after every reconnection.
struct Settings {
  uint8_t seats;
  Rgb colour[MAX_SEATS];
  int16_t score[MAX_SEATS];
  int8_t turn;        // seat whose turn it is, -1 for nobody
  ViewKind view;
  int8_t view_seat;   // the seat VIEW_SCORE and VIEW_WIN show
  bool pulse;         // amber pulse: the referee waits for an answer
  uint8_t brightness; // 0..15, for the display and the strip alike
};

// What a player sees at one instant.
struct Shown {
  Rgb leds[NUM_LEDS];
  uint8_t digits[NUM_DIGITS];  // glyphs, leftmost first (see font.h)
  uint8_t brightness;          // MAX7219 intensity, 0..15
};

#define REPLY_BYTES (LINE_MAX_BYTES + 8)

class Board {
 public:
  // Power-on: default settings, the self-test starts, no host linked yet.
  void begin(uint32_t now);

  // One event of the line reader. Writes the sealed reply into `reply` and returns its length
  // (0: nothing to send, for an empty line).
  size_t on_line_event(LineEvent e, char *line, size_t len, uint32_t now, char *reply,
                       size_t cap);

  // The sealed READY line announced after boot.
  size_t ready_banner(char *reply, size_t cap) const;

  bool self_testing(uint32_t now) const;
  void render(uint32_t now, Shown &out) const;

  const Settings &settings() const { return s_; }
  bool linked() const { return linked_; }

 private:
  Refusal execute(const Command &c, uint32_t now, Out &extra);
  Refusal do_state(const Command &c, uint32_t now);
  void set_view(ViewKind v, int8_t seat, uint32_t now);
  void score_glyphs(uint8_t seat, uint8_t *out) const;

  Settings s_;
  bool linked_;
  bool have_last_;
  uint16_t last_seq_;
  uint16_t last_crc_;
  FlashKind flash_;
  uint32_t flash_start_;
  uint8_t text_[NUM_DIGITS];
  uint32_t text_start_;
  uint32_t text_ms_;
  bool testing_;
  uint32_t test_start_;
  uint32_t view_since_;
};
