// Replays a script through the firmware's line reader and state machine, printing every reply
// and what the board shows when asked. The tests run the same scripts through the Python model
// of the board (hardware/model.py) and require the same output, so the emulated board behaves
// as the firmware does.
//
// stdin, one step a line:
//   B <ms> <hex bytes>   these bytes arrive at time ms
//   R <ms>               print what is shown at time ms
// stdout:
//   > <reply line, without CR LF>
//   = <8 LEDs as rrggbb> <8 digit glyphs as hex> <brightness>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "protocol.h"

int main() {
  Board board;
  LineReader reader;
  board.begin(0);
  reader.reset();
  static char step[8192];
  char reply[REPLY_BYTES];
  while (fgets(step, sizeof(step), stdin)) {
    char kind = step[0];
    char *p = step + 1;
    unsigned long now = strtoul(p, &p, 10);
    if (kind == 'B') {
      while (*p == ' ') p++;
      while (p[0] && p[1] && p[0] != '\n') {
        char pair[3] = {p[0], p[1], 0};
        uint8_t byte = (uint8_t)strtoul(pair, nullptr, 16);
        p += 2;
        LineEvent e = reader.feed(byte);
        if (e == LINE_NONE) continue;
        size_t n = board.on_line_event(e, reader.buf, reader.len, (uint32_t)now, reply,
                                       sizeof(reply));
        reader.reset();
        if (n >= 2) printf("> %.*s\n", (int)(n - 2), reply);
      }
    } else if (kind == 'R') {
      Shown s;
      board.render((uint32_t)now, s);
      printf("=");
      for (int i = 0; i < NUM_LEDS; i++) printf(" %02x%02x%02x", s.leds[i].r, s.leds[i].g, s.leds[i].b);
      printf(" ");
      for (int i = 0; i < NUM_DIGITS; i++) printf("%02x", s.digits[i]);
      printf(" %d\n", s.brightness);
    }
  }
  return 0;
}
