#include "board.h"

#include <avr/pgmspace.h>
#include <string.h>

#include "font.h"

static const Rgb GREEN = {0, 255, 0};
static const Rgb RED = {255, 0, 0};
static const Rgb AMBER = {255, 140, 0};
static const Rgb BLUE = {0, 0, 255};
static const Rgb BLACK = {0, 0, 0};

// Seat-order check of the self-test: the product's eight seat colours in their usual order.
static const uint8_t SELFTEST_SEATS[NUM_LEDS][3] PROGMEM = {
    {255, 0, 0}, {255, 200, 0}, {0, 0, 255}, {0, 255, 0},
    {255, 255, 255}, {40, 40, 40}, {255, 100, 0}, {150, 0, 255},
};

static const char CAPS[] PROGMEM =
    " fw=" FW_VERSION " leds=8 digits=8 seats=8"
    " caps=STATE,SEATS,TURN,SCORE,VIEW,TEXT,FLASH,PULSE,BRIGHT,TEST,PING";

static Rgb scaled(Rgb c, uint8_t level) {
  Rgb o;
  o.r = (uint8_t)((uint16_t)c.r * level / 255);
  o.g = (uint8_t)((uint16_t)c.g * level / 255);
  o.b = (uint8_t)((uint16_t)c.b * level / 255);
  return o;
}

static int hexdigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// "rrggbb" -> colour; exactly six hex digits, then `end` (NUL or ':').
static bool parse_colour(const char *s, char end, Rgb &out) {
  uint8_t v[3];
  for (uint8_t i = 0; i < 3; i++) {
    int hi = hexdigit(s[2 * i]);
    if (hi < 0) return false;
    int lo = hexdigit(s[2 * i + 1]);
    if (lo < 0) return false;
    v[i] = (uint8_t)(hi * 16 + lo);
  }
  if (s[6] != end) return false;
  out.r = v[0];
  out.g = v[1];
  out.b = v[2];
  return true;
}

// "I", "C", "S<n>" or "W<n>" (seat n counted from 0) for `seats` seats.
static bool parse_view(const char *s, uint8_t seats, ViewKind &view, int8_t &seat) {
  long n = -1;
  if (strcmp(s, "I") == 0) {
    view = VIEW_IDLE;
  } else if (strcmp(s, "C") == 0) {
    view = VIEW_CYCLE;
  } else if ((s[0] == 'S' || s[0] == 'W') && parse_uint(s + 1, MAX_SEATS - 1, n)) {
    if (n >= seats) return false;
    view = s[0] == 'S' ? VIEW_SCORE : VIEW_WIN;
  } else {
    return false;
  }
  seat = (int8_t)n;
  return true;
}

static bool parse_turn(const char *s, uint8_t seats, int8_t &turn) {
  long n;
  if (strcmp(s, "-") == 0) {
    turn = -1;
    return true;
  }
  if (!parse_uint(s, MAX_SEATS - 1, n) || n >= seats) return false;
  turn = (int8_t)n;
  return true;
}

static bool parse_key(const char *s, char key, const char **value) {
  if (s[0] != key || s[1] != '=') return false;
  *value = s + 2;
  return true;
}

void Board::begin(uint32_t now) {
  memset(&s_, 0, sizeof(s_));
  s_.turn = -1;
  s_.view = VIEW_IDLE;
  s_.view_seat = -1;
  s_.brightness = DEFAULT_BRIGHTNESS;
  linked_ = false;
  have_last_ = false;
  last_seq_ = 0;
  last_crc_ = 0;
  flash_ = FLASH_NONE;
  flash_start_ = now;
  memset(text_, 0, sizeof(text_));
  text_start_ = now;
  text_ms_ = 0;
  testing_ = true;
  test_start_ = now;
  view_since_ = now;
}

bool Board::self_testing(uint32_t now) const {
  return testing_ && now - test_start_ < 4 * SELFTEST_STEP_MS;
}

void Board::set_view(ViewKind v, int8_t seat, uint32_t now) {
  if (v != s_.view || seat != s_.view_seat) view_since_ = now;
  s_.view = v;
  s_.view_seat = seat;
}

size_t Board::ready_banner(char *reply, size_t cap) const {
  Out o;
  o.start(reply, cap);
  o.str_P(PSTR("READY proto="));
  o.num(PROTO_VERSION);
  o.str_P(PSTR(" fw=" FW_VERSION));
  return seal_line(reply, o.len, cap);
}

size_t Board::on_line_event(LineEvent e, char *line, size_t len, uint32_t now, char *reply,
                            size_t cap) {
  Out o;
  o.start(reply, cap);
  Refusal why = R_NONE;
  Command c;
  c.seq = 0;
  if (e == LINE_NONE) return 0;
  if (e == LINE_TOO_LONG) {
    why = R_TOOLONG;
  } else if (e == LINE_GARBAGE) {
    why = R_GARBAGE;
  } else {
    why = parse_line(line, len, c);
  }
  if (why == R_NONE) {
    if (have_last_ && c.seq == last_seq_ && c.crc == last_crc_) {
      // A resend of the command just executed: acknowledge it again, do nothing twice.
      o.str_P(PSTR("OK "));
      o.num(c.seq);
      o.str_P(PSTR(" DUP"));
      return seal_line(reply, o.len, cap);
    }
    Out extra;
    char extra_buf[112];
    extra.start(extra_buf, sizeof(extra_buf));
    why = execute(c, now, extra);
    if (why == R_NONE) {
      have_last_ = true;
      last_seq_ = c.seq;
      last_crc_ = c.crc;
      o.str_P(PSTR("OK "));
      o.num(c.seq);
      o.str(extra_buf);
      return seal_line(reply, o.len, cap);
    }
  }
  o.str_P(PSTR("NO "));
  if (c.seq) {
    o.num(c.seq);
  } else {
    o.ch('-');
  }
  o.ch(' ');
  o.str_P(refusal_word(why));
  switch (why) {
    case R_BADSUM: o.str_P(PSTR(" checksum missing or wrong")); break;
    case R_TOOLONG: o.str_P(PSTR(" line over 160 characters")); break;
    case R_GARBAGE: o.str_P(PSTR(" byte outside printable ASCII")); break;
    case R_SYNTAX: o.str_P(PSTR(" expected: seq VERB args*CRC")); break;
    case R_UNKNOWN: o.str_P(PSTR(" no such command")); break;
    case R_ARGS: o.str_P(PSTR(" bad arguments, see PROTOCOL.md")); break;
    case R_PROTO: o.str_P(PSTR(" board speaks protocol 1")); break;
    case R_HELLO: o.str_P(PSTR(" send HELLO first")); break;
    case R_NONE: break;
  }
  return seal_line(reply, o.len, cap);
}

Refusal Board::do_state(const Command &c, uint32_t now) {
  // Built aside and committed whole: a refused STATE changes nothing.
  Settings n = s_;
  const char *v;
  long num;
  if (c.argc < 4 || c.argc > 4 + MAX_SEATS) return R_ARGS;
  n.seats = (uint8_t)(c.argc - 4);
  for (uint8_t i = 0; i < MAX_SEATS; i++) {
    n.colour[i] = BLACK;
    n.score[i] = 0;
  }
  for (uint8_t i = 0; i < n.seats; i++) {
    const char *t = c.argv[4 + i];
    if (!parse_colour(t, ':', n.colour[i])) return R_ARGS;
    if (!parse_int(t + 7, -32768, 32767, num)) return R_ARGS;
    n.score[i] = (int16_t)num;
  }
  if (!parse_key(c.argv[0], 'b', &v) || !parse_uint(v, 15, num)) return R_ARGS;
  n.brightness = (uint8_t)num;
  if (!parse_key(c.argv[1], 't', &v) || !parse_turn(v, n.seats, n.turn)) return R_ARGS;
  ViewKind view;
  int8_t seat;
  if (!parse_key(c.argv[2], 'v', &v) || !parse_view(v, n.seats, view, seat)) return R_ARGS;
  if (!parse_key(c.argv[3], 'p', &v) || !parse_uint(v, 1, num)) return R_ARGS;
  n.pulse = num == 1;
  n.view = s_.view;
  n.view_seat = s_.view_seat;
  s_ = n;
  set_view(view, seat, now);
  return R_NONE;
}

Refusal Board::execute(const Command &c, uint32_t now, Out &extra) {
  long num;
  if (!linked_ && c.verb != V_HELLO && c.verb != V_PING && c.verb != V_TEST) return R_HELLO;
  switch (c.verb) {
    case V_HELLO:
      if (c.argc != 1 || !parse_uint(c.argv[0], 99, num)) return R_ARGS;
      if (num != PROTO_VERSION) return R_PROTO;
      linked_ = true;
      extra.str_P(PSTR(" proto="));
      extra.num(PROTO_VERSION);
      extra.str_P(CAPS);
      return R_NONE;
    case V_PING:
      return c.argc == 0 ? R_NONE : R_ARGS;
    case V_TEST:
      if (c.argc != 0) return R_ARGS;
      testing_ = true;
      test_start_ = now;
      return R_NONE;
    case V_STATE:
      return do_state(c, now);
    case V_SEATS: {
      if (c.argc > MAX_SEATS) return R_ARGS;
      Rgb colours[MAX_SEATS];
      for (uint8_t i = 0; i < c.argc; i++) {
        if (!parse_colour(c.argv[i], '\0', colours[i])) return R_ARGS;
      }
      for (uint8_t i = 0; i < MAX_SEATS; i++) {
        if (i < c.argc) {
          s_.colour[i] = colours[i];
        } else {
          s_.colour[i] = BLACK;
          s_.score[i] = 0;
        }
      }
      s_.seats = c.argc;
      if (s_.turn >= (int8_t)s_.seats) s_.turn = -1;
      if ((s_.view == VIEW_SCORE || s_.view == VIEW_WIN) && s_.view_seat >= (int8_t)s_.seats) {
        set_view(VIEW_IDLE, -1, now);
      }
      return R_NONE;
    }
    case V_TURN: {
      int8_t turn;
      if (c.argc != 1 || !parse_turn(c.argv[0], s_.seats, turn)) return R_ARGS;
      s_.turn = turn;
      return R_NONE;
    }
    case V_SCORE: {
      long seat;
      if (c.argc != 2 || !parse_uint(c.argv[0], MAX_SEATS - 1, seat) || seat >= s_.seats ||
          !parse_int(c.argv[1], -32768, 32767, num)) {
        return R_ARGS;
      }
      s_.score[seat] = (int16_t)num;
      return R_NONE;
    }
    case V_VIEW: {
      ViewKind view;
      int8_t seat;
      if (c.argc != 1 || !parse_view(c.argv[0], s_.seats, view, seat)) return R_ARGS;
      set_view(view, seat, now);
      return R_NONE;
    }
    case V_TEXT: {
      if (c.argc < 1 || !parse_uint(c.argv[0], 60000, num)) return R_ARGS;
      char text[LINE_MAX_BYTES];
      Out t;
      t.start(text, sizeof(text));
      for (uint8_t i = 1; i < c.argc; i++) {
        if (i > 1) t.ch(' ');
        t.str(c.argv[i]);
      }
      uint8_t glyphs[NUM_DIGITS];
      if (!font_render(text, glyphs, NUM_DIGITS)) return R_ARGS;
      memcpy(text_, glyphs, sizeof(text_));
      text_start_ = now;
      text_ms_ = (uint32_t)num;
      return R_NONE;
    }
    case V_FLASH:
      if (c.argc != 1) return R_ARGS;
      if (strcmp(c.argv[0], "GOOD") == 0) {
        flash_ = FLASH_GOOD;
      } else if (strcmp(c.argv[0], "BAD") == 0) {
        flash_ = FLASH_BAD;
      } else if (strcmp(c.argv[0], "OFF") == 0) {
        flash_ = FLASH_NONE;
      } else {
        return R_ARGS;
      }
      flash_start_ = now;
      return R_NONE;
    case V_PULSE:
      if (c.argc != 1 || !parse_uint(c.argv[0], 1, num)) return R_ARGS;
      s_.pulse = num == 1;
      return R_NONE;
    case V_BRIGHT:
      if (c.argc != 1 || !parse_uint(c.argv[0], 15, num)) return R_ARGS;
      s_.brightness = (uint8_t)num;
      return R_NONE;
    case V_NONE:
      break;
  }
  return R_UNKNOWN;
}

void Board::score_glyphs(uint8_t seat, uint8_t *out) const {
  // "P<n>" at the left, the score right-aligned in the six digits after it: "P2    17".
  char text[NUM_DIGITS + 1];
  char num[8];
  Out o;
  o.start(num, sizeof(num));
  o.num(s_.score[seat]);
  text[0] = 'P';
  text[1] = (char)('1' + seat);
  uint8_t pad = (uint8_t)(NUM_DIGITS - 2 - o.len);
  for (uint8_t i = 0; i < pad; i++) text[2 + i] = ' ';
  memcpy(text + 2 + pad, num, o.len);
  text[NUM_DIGITS] = '\0';
  font_render(text, out, NUM_DIGITS);
}

void Board::render(uint32_t now, Shown &out) const {
  out.brightness = s_.brightness;
  uint8_t used = s_.seats ? s_.seats : NUM_LEDS;
  for (uint8_t i = 0; i < NUM_LEDS; i++) out.leds[i] = BLACK;

  if (self_testing(now)) {
    // Red, green, blue on every light (colour order), then the seat colours in seat order;
    // all segments lit, then the digits 1..8 (digit order).
    uint8_t step = (uint8_t)((now - test_start_) / SELFTEST_STEP_MS);
    for (uint8_t i = 0; i < NUM_LEDS; i++) {
      if (step == 0) {
        out.leds[i] = RED;
      } else if (step == 1) {
        out.leds[i] = GREEN;
      } else if (step == 2) {
        out.leds[i] = BLUE;
      } else {
        out.leds[i].r = pgm_read_byte(&SELFTEST_SEATS[i][0]);
        out.leds[i].g = pgm_read_byte(&SELFTEST_SEATS[i][1]);
        out.leds[i].b = pgm_read_byte(&SELFTEST_SEATS[i][2]);
      }
    }
    if (step < 2) {
      for (uint8_t i = 0; i < NUM_DIGITS; i++) out.digits[i] = 0xFF;
    } else {
      font_render("12345678", out.digits, NUM_DIGITS);
    }
  } else {
    // The display.
    if (now - text_start_ < text_ms_) {
      memcpy(out.digits, text_, NUM_DIGITS);
    } else if (s_.view == VIEW_SCORE) {
      score_glyphs((uint8_t)s_.view_seat, out.digits);
    } else if (s_.view == VIEW_CYCLE && s_.seats) {
      score_glyphs((uint8_t)(((now - view_since_) / CYCLE_MS) % s_.seats), out.digits);
    } else if (s_.view == VIEW_WIN) {
      if ((now - view_since_) % (WIN_ON_MS + WIN_OFF_MS) < WIN_ON_MS) {
        score_glyphs((uint8_t)s_.view_seat, out.digits);
      } else {
        memset(out.digits, 0, NUM_DIGITS);
      }
    } else {
      font_render("--------", out.digits, NUM_DIGITS);
    }

    // The lights: seats, then the pulse over them, then a verdict flash over everything.
    if (s_.view == VIEW_WIN) {
      if ((now - view_since_) % (WIN_ON_MS + WIN_OFF_MS) < WIN_ON_MS) {
        out.leds[s_.view_seat] = s_.colour[s_.view_seat];
      }
    } else {
      for (uint8_t i = 0; i < s_.seats; i++) {
        uint8_t level = s_.turn < 0 ? LEVEL_NO_TURN
                        : (int8_t)i == s_.turn ? LEVEL_ACTIVE : LEVEL_WAITING;
        out.leds[i] = scaled(s_.colour[i], level);
      }
      if (s_.pulse) {
        uint16_t t = (uint16_t)(now % PULSE_PERIOD_MS);
        uint16_t half = PULSE_PERIOD_MS / 2;
        uint16_t tri = t < half ? t : (uint16_t)(PULSE_PERIOD_MS - t);
        uint8_t level = (uint8_t)(26 + (uint32_t)tri * 229 / half);
        for (uint8_t i = 0; i < used; i++) out.leds[i] = scaled(AMBER, level);
      }
    }
    uint32_t since = now - flash_start_;
    if (flash_ != FLASH_NONE && since < FLASH_BLINKS * (FLASH_ON_MS + FLASH_OFF_MS)) {
      bool on = since % (FLASH_ON_MS + FLASH_OFF_MS) < FLASH_ON_MS;
      for (uint8_t i = 0; i < used; i++) {
        out.leds[i] = on ? (flash_ == FLASH_GOOD ? GREEN : RED) : BLACK;
      }
    }
  }
  // The brightness setting scales the strip in 16 steps, as it does the display.
  for (uint8_t i = 0; i < NUM_LEDS; i++) {
    out.leds[i].r = (uint8_t)((uint16_t)out.leds[i].r * (s_.brightness + 1) / 16);
    out.leds[i].g = (uint8_t)((uint16_t)out.leds[i].g * (s_.brightness + 1) / 16);
    out.leds[i].b = (uint8_t)((uint16_t)out.leds[i].b * (s_.brightness + 1) / 16);
  }
}
