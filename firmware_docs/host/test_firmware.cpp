// Host-compiled tests of the firmware: framing, parser, state machine, rendering, and the
// sketch itself against the Arduino mock. Built with AddressSanitizer and UBSan (Makefile).
#include <stdio.h>

#include <string>
#include <vector>

#include "Arduino.h"
#include "board.h"
#include "check.h"
#include "font.h"
#include "protocol.h"
#include "ws2812.h"

// ---- the strip, as the sketch drives it (the AVR driver is replaced on a PC) ----------------
static std::vector<std::vector<Rgb>> strip_frames;
void ws2812_begin() { strip_frames.clear(); }
void ws2812_show(const Rgb *leds, uint8_t n) { strip_frames.emplace_back(leds, leds + n); }

void setup();
void loop();

// ---- helpers ---------------------------------------------------------------------------------
static std::string framed(const std::string &payload) {
  char hex[8];
  snprintf(hex, sizeof(hex), "*%04X", crc16_ccitt(payload.data(), payload.size()));
  return payload + hex + "\n";
}

// Feeds `bytes` to a reader and board; returns every reply, unsealed ("OK 3", "NO - BADSUM ...").
static std::vector<std::string> feed(Board &b, LineReader &r, const std::string &bytes,
                                     uint32_t now) {
  std::vector<std::string> replies;
  char reply[REPLY_BYTES];
  for (char ch : bytes) {
    LineEvent e = r.feed((uint8_t)ch);
    if (e == LINE_NONE) continue;
    size_t n = b.on_line_event(e, r.buf, r.len, now, reply, sizeof(reply));
    r.reset();
    if (!n) continue;
    std::string line(reply, n);
    // Every reply is itself a checked line.
    CHECK(line.size() >= 7 && line.substr(line.size() - 2) == "\r\n");
    std::string body = line.substr(0, line.size() - 7);
    char hex[6];
    snprintf(hex, sizeof(hex), "%04X", crc16_ccitt(body.data(), body.size()));
    CHECK_EQ(line.substr(line.size() - 6, 4), std::string(hex));
    replies.push_back(body);
  }
  return replies;
}

struct Linked {
  Board board;
  LineReader reader;
  uint16_t seq = 1;
  Linked() {
    board.begin(0);
    reader.reset();
    CHECK_EQ(send("HELLO 1", 1000).substr(0, 4), std::string("OK 1"));
  }
  std::string send(const std::string &cmd, uint32_t now) {
    std::vector<std::string> r = feed(board, reader, framed(std::to_string(seq++) + " " + cmd), now);
    CHECK_EQ(r.size(), 1u);
    return r.empty() ? std::string() : r[0];
  }
};

static std::string glyphs(const char *text) {
  uint8_t g[NUM_DIGITS];
  CHECK(font_render(text, g, NUM_DIGITS));
  return std::string((const char *)g, NUM_DIGITS);
}

static std::string digits_at(const Board &b, uint32_t now) {
  Shown s;
  b.render(now, s);
  return std::string((const char *)s.digits, NUM_DIGITS);
}

static Rgb led_at(const Board &b, uint32_t now, int i) {
  Shown s;
  b.render(now, s);
  return s.leds[i];
}

static bool same(Rgb a, int r, int g, int bl) { return a.r == r && a.g == g && a.b == bl; }

// ---- framing -----------------------------------------------------------------------------------
TEST(crc_matches_the_ccitt_false_check_value) {
  CHECK_EQ(crc16_ccitt("123456789", 9), 0x29B1);
}

TEST(reader_ends_lines_on_lf_cr_or_crlf_and_ignores_empty_ones) {
  LineReader r;
  r.reset();
  int lines = 0;
  for (char c : std::string("a\nb\rc\r\n\n\r")) {
    LineEvent e = r.feed((uint8_t)c);
    if (e == LINE_READY) {
      lines++;
      CHECK_EQ(r.len, 1);
      r.reset();
    } else {
      CHECK_EQ(e, LINE_NONE);
    }
  }
  CHECK_EQ(lines, 3);
}

TEST(reader_refuses_an_overlong_line_once_and_recovers) {
  LineReader r;
  r.reset();
  LineEvent last = LINE_NONE;
  for (int i = 0; i < 500; i++) CHECK_EQ(r.feed('x'), LINE_NONE);
  last = r.feed('\n');
  CHECK_EQ(last, LINE_TOO_LONG);
  for (char c : std::string("ok\n")) last = r.feed((uint8_t)c);
  CHECK_EQ(last, LINE_READY);
  CHECK_EQ(std::string(r.buf), std::string("ok"));
}

TEST(reader_accepts_exactly_the_maximum_length) {
  LineReader r;
  r.reset();
  for (int i = 0; i < LINE_MAX_BYTES; i++) r.feed('y');
  CHECK_EQ(r.feed('\n'), LINE_READY);
  CHECK_EQ(r.len, LINE_MAX_BYTES);
}

TEST(reader_refuses_lines_with_control_or_8bit_bytes) {
  LineReader r;
  r.reset();
  for (char c : std::string("ab\x01" "c")) r.feed((uint8_t)c);
  CHECK_EQ(r.feed('\n'), LINE_GARBAGE);
  r.feed(0xC3);
  CHECK_EQ(r.feed('\n'), LINE_GARBAGE);
  r.feed((uint8_t)'\0');
  CHECK_EQ(r.feed('\n'), LINE_GARBAGE);
}

TEST(parser_accepts_a_framed_command_and_splits_arguments) {
  std::string l = framed("42 SCORE 1  -17");
  l.pop_back();
  std::vector<char> buf(l.begin(), l.end());
  buf.push_back('\0');
  Command c;
  CHECK_EQ(parse_line(buf.data(), l.size(), c), R_NONE);
  CHECK_EQ(c.seq, 42);
  CHECK_EQ(c.verb, V_SCORE);
  CHECK_EQ(c.argc, 2);
  CHECK_EQ(std::string(c.argv[0]), std::string("1"));
  CHECK_EQ(std::string(c.argv[1]), std::string("-17"));
}

static Refusal parse(const std::string &line, Command &c) {
  std::vector<char> buf(line.begin(), line.end());
  buf.push_back('\0');
  return parse_line(buf.data(), line.size(), c);
}

TEST(parser_refuses_bad_checksums_without_trusting_the_number) {
  Command c;
  std::string good = framed("7 PING");
  good.pop_back();
  std::string flipped = good;
  flipped[0] = '8';
  CHECK_EQ(parse(flipped, c), R_BADSUM);
  CHECK_EQ(c.seq, 0);
  CHECK_EQ(parse("7 PING", c), R_BADSUM);
  CHECK_EQ(parse("7 PING*12", c), R_BADSUM);
  CHECK_EQ(parse("7 PING*12G4", c), R_BADSUM);
  std::string lower = good;
  for (size_t i = lower.size() - 4; i < lower.size(); i++) lower[i] = (char)tolower(lower[i]);
  CHECK_EQ(parse(lower, c), R_NONE);
}

TEST(parser_refuses_bad_numbers_unknown_verbs_and_too_many_arguments) {
  Command c;
  auto p = [&](const std::string &s) {
    std::string l = framed(s);
    l.pop_back();
    return parse(l, c);
  };
  CHECK_EQ(p("0 PING"), R_SYNTAX);
  CHECK_EQ(p("10000 PING"), R_SYNTAX);
  CHECK_EQ(p("-3 PING"), R_SYNTAX);
  CHECK_EQ(p("x PING"), R_SYNTAX);
  CHECK_EQ(p("12"), R_SYNTAX);
  CHECK_EQ(p(""), R_SYNTAX);
  CHECK_EQ(p("5 DANCE"), R_UNKNOWN);
  CHECK_EQ(c.seq, 5);
  CHECK_EQ(p("5 ping"), R_UNKNOWN);
  CHECK_EQ(p("5 SEATS 1 2 3 4 5 6 7 8 9 10 11 12 13"), R_ARGS);
  CHECK_EQ(p("5 TEXT 10 a*b"), R_SYNTAX);
}

// ---- the state machine ---------------------------------------------------------------------------
TEST(board_refuses_commands_before_hello_and_answers_hello_with_capabilities) {
  Board b;
  LineReader r;
  b.begin(0);
  r.reset();
  std::vector<std::string> out = feed(b, r, framed("1 SCORE 0 3"), 10);
  CHECK_EQ(out[0].substr(0, 11), std::string("NO 1 HELLO "));
  out = feed(b, r, framed("2 PING"), 10);
  CHECK_EQ(out[0], std::string("OK 2"));
  out = feed(b, r, framed("3 HELLO 2"), 10);
  CHECK_EQ(out[0].substr(0, 10), std::string("NO 3 PROTO"));
  CHECK(!b.linked());
  out = feed(b, r, framed("4 HELLO 1"), 10);
  CHECK(out[0].find("OK 4 proto=1 fw=") == 0);
  CHECK(out[0].find("caps=STATE,") != std::string::npos);
  CHECK(b.linked());
}

TEST(board_reports_refusals_with_reason_words) {
  Board b;
  LineReader r;
  b.begin(0);
  r.reset();
  std::vector<std::string> out =
      feed(b, r, "garbage\n" + std::string(300, 'z') + "\nab\x02\n" + framed("9 HOP"), 5);
  CHECK_EQ(out.size(), 4u);
  CHECK_EQ(out[0].substr(0, 9), std::string("NO - BADS"));
  CHECK_EQ(out[1].substr(0, 12), std::string("NO - TOOLONG"));
  CHECK_EQ(out[2].substr(0, 12), std::string("NO - GARBAGE"));
  CHECK_EQ(out[3].substr(0, 12), std::string("NO 9 UNKNOWN"));
}

TEST(ready_banner_names_protocol_and_version) {
  Board b;
  b.begin(0);
  char buf[REPLY_BYTES];
  size_t n = b.ready_banner(buf, sizeof(buf));
  std::string s(buf, n);
  CHECK(s.find("READY proto=1 fw=" FW_VERSION "*") == 0);
}

TEST(a_resent_command_is_acknowledged_but_not_done_twice) {
  Linked l;
  l.send("SEATS ff0000 0000ff", 1000);
  std::string flash = framed(std::to_string(l.seq++) + " FLASH GOOD");
  CHECK_EQ(feed(l.board, l.reader, flash, 2000)[0].substr(0, 2), std::string("OK"));
  // The same line 400 ms later: a resend. The flash must keep its first start time, so at
  // 2750 ms (750 ms after the first) it is over.
  std::vector<std::string> again = feed(l.board, l.reader, flash, 2400);
  CHECK(again[0].find(" DUP") != std::string::npos);
  CHECK(same(led_at(l.board, 2760, 0), 128 * 9 / 16, 0, 0));  // no turn set: level 128
}

TEST(state_sets_everything_at_once_and_a_refused_state_changes_nothing) {
  Linked l;
  CHECK_EQ(l.send("STATE b=15 t=1 v=S1 p=0 ff0000:12 0000ff:-7 00ff00:0", 1000).substr(0, 2),
           std::string("OK"));
  const Settings &s = l.board.settings();
  CHECK_EQ(s.seats, 3);
  CHECK_EQ(s.score[1], -7);
  CHECK_EQ(s.turn, 1);
  CHECK_EQ(s.brightness, 15);
  CHECK_EQ(digits_at(l.board, 1100), glyphs("P2    -7"));
  // Seat 3 does not exist in this STATE: refused, nothing changes.
  CHECK_EQ(l.send("STATE b=3 t=3 v=S0 p=1 ff0000:1 0000ff:2 00ff00:3", 1200).substr(0, 9),
           std::string("NO 3 ARGS"));
  CHECK_EQ(l.board.settings().brightness, 15);
  CHECK_EQ(l.board.settings().score[0], 12);
  CHECK(!l.board.settings().pulse);
  CHECK_EQ(l.send("STATE b=16 t=- v=C p=0", 1300).substr(0, 9), std::string("NO 4 ARGS"));
  CHECK_EQ(l.send("STATE b=1 t=- v=C p=0 ff0000:40000", 1300).substr(0, 9),
           std::string("NO 5 ARGS"));
  CHECK_EQ(l.send("STATE b=1 t=- v=C p=0 ff00:4", 1300).substr(0, 9), std::string("NO 6 ARGS"));
  CHECK_EQ(l.send("STATE t=- b=1 v=C p=0", 1300).substr(0, 9), std::string("NO 7 ARGS"));
}

TEST(seat_lights_follow_the_turn_and_brightness) {
  Linked l;
  l.send("STATE b=15 t=0 v=S0 p=0 ff0000:0 0000ff:0", 1000);
  CHECK(same(led_at(l.board, 1100, 0), 255, 0, 0));
  CHECK(same(led_at(l.board, 1100, 1), 0, 0, 48));
  CHECK(same(led_at(l.board, 1100, 2), 0, 0, 0));
  l.send("TURN 1", 1200);
  CHECK(same(led_at(l.board, 1300, 0), 48, 0, 0));
  CHECK(same(led_at(l.board, 1300, 1), 0, 0, 255));
  l.send("TURN -", 1400);
  CHECK(same(led_at(l.board, 1500, 0), 128, 0, 0));
  l.send("BRIGHT 7", 1600);
  CHECK(same(led_at(l.board, 1700, 0), 64, 0, 0));
  Shown s;
  l.board.render(1700, s);
  CHECK_EQ(s.brightness, 7);
  CHECK_EQ(l.send("TURN 2", 1800).substr(0, 9), std::string("NO 6 ARGS"));
}

TEST(flashes_blink_three_times_over_the_seat_lights) {
  Linked l;
  l.send("STATE b=15 t=0 v=S0 p=0 ff0000:0 0000ff:0", 1000);
  l.send("FLASH BAD", 2000);
  CHECK(same(led_at(l.board, 2000, 1), 255, 0, 0));
  CHECK(same(led_at(l.board, 2160, 1), 0, 0, 0));
  CHECK(same(led_at(l.board, 2600, 0), 255, 0, 0));
  CHECK(same(led_at(l.board, 2760, 1), 0, 0, 48));
  CHECK(same(led_at(l.board, 2000, 2), 0, 0, 0));  // only the seats in use flash
  l.send("FLASH GOOD", 3000);
  CHECK(same(led_at(l.board, 3010, 0), 0, 255, 0));
  l.send("FLASH OFF", 3020);
  CHECK(same(led_at(l.board, 3030, 0), 255, 0, 0));
  CHECK_EQ(l.send("FLASH PINK", 3040).substr(0, 10), std::string("NO 6 ARGS "));
}

TEST(pulse_breathes_amber_until_switched_off) {
  Linked l;
  l.send("STATE b=15 t=0 v=S0 p=1 ff0000:0 0000ff:0", 1000);
  Rgb low = led_at(l.board, 2000, 0);   // phase 0: dimmest
  Rgb high = led_at(l.board, 2500, 1);  // phase 500: brightest
  CHECK(same(low, 26, 26 * 140 / 255, 0));
  CHECK(same(high, 255, 140, 0));
  l.send("PULSE 0", 2600);
  CHECK(same(led_at(l.board, 2700, 0), 255, 0, 0));
}

TEST(display_shows_scores_cycles_and_the_winner) {
  Linked l;
  l.send("STATE b=8 t=0 v=C p=0 ff0000:5 0000ff:1234 00ff00:-32768", 1000);
  CHECK_EQ(digits_at(l.board, 1000), glyphs("P1     5"));
  CHECK_EQ(digits_at(l.board, 3000), glyphs("P2  1234"));
  CHECK_EQ(digits_at(l.board, 5000), glyphs("P3-32768"));
  CHECK_EQ(digits_at(l.board, 7000), glyphs("P1     5"));
  l.send("VIEW W1", 8000);
  CHECK_EQ(digits_at(l.board, 8100), glyphs("P2  1234"));
  CHECK_EQ(digits_at(l.board, 8800), glyphs(""));
  CHECK(same(led_at(l.board, 8100, 1), 0, 0, 255 * 9 / 16));
  CHECK(same(led_at(l.board, 8100, 0), 0, 0, 0));
  CHECK(same(led_at(l.board, 8800, 1), 0, 0, 0));
  l.send("VIEW I", 9000);
  CHECK_EQ(digits_at(l.board, 9000), glyphs("--------"));
  CHECK_EQ(l.send("VIEW S3", 9100).substr(0, 9), std::string("NO 5 ARGS"));
}

TEST(text_messages_show_then_give_way_to_the_scores) {
  Linked l;
  l.send("STATE b=8 t=0 v=S0 p=0 ff0000:5", 1000);
  l.send("TEXT 2000 ILLEGAL", 1000);
  CHECK_EQ(digits_at(l.board, 1500), glyphs("ILLEGAL"));
  CHECK_EQ(digits_at(l.board, 3000), glyphs("P1     5"));
  l.send("TEXT 500 P2 PUSH", 4000);
  CHECK_EQ(digits_at(l.board, 4100), glyphs("P2 PUSH"));
  l.send("TEXT 500 1.2.3.4.5.6.7.8.", 5000);
  std::string g = digits_at(l.board, 5100);
  CHECK_EQ((uint8_t)g[7], (uint8_t)(font_glyph('8') | SEG_DP));
  CHECK_EQ(l.send("TEXT 500 NINECHARS", 6000).substr(0, 9), std::string("NO 6 ARGS"));
  CHECK_EQ(l.send("TEXT 500 A@", 6000).substr(0, 9), std::string("NO 7 ARGS"));
  l.send("TEXT 0", 6000);
  CHECK_EQ(digits_at(l.board, 6001), glyphs("P1     5"));
}

TEST(seats_shrinking_clears_turn_and_view_beyond_them) {
  Linked l;
  l.send("STATE b=8 t=2 v=S2 p=0 ff0000:5 00ff00:6 0000ff:7", 1000);
  l.send("SEATS ff0000", 1100);
  CHECK_EQ(l.board.settings().turn, -1);
  CHECK_EQ(l.board.settings().view, VIEW_IDLE);
  CHECK_EQ(l.board.settings().score[2], 0);
  CHECK_EQ(l.board.settings().score[0], 5);
  CHECK_EQ(l.send("SEATS ff0000 zz0000", 1200).substr(0, 9), std::string("NO 4 ARGS"));
}

TEST(self_test_walks_colours_then_digits) {
  Board b;
  b.begin(0);
  CHECK(b.self_testing(0));
  CHECK(same(led_at(b, 10, 3), 255 * 9 / 16, 0, 0));
  CHECK(same(led_at(b, 160, 3), 0, 255 * 9 / 16, 0));
  CHECK(same(led_at(b, 310, 3), 0, 0, 255 * 9 / 16));
  CHECK_EQ(digits_at(b, 10), std::string(8, '\xFF'));
  CHECK_EQ(digits_at(b, 460), glyphs("12345678"));
  CHECK(!b.self_testing(600));
  CHECK_EQ(digits_at(b, 600), glyphs("--------"));
}

TEST(font_renders_points_and_refuses_what_it_cannot_show) {
  uint8_t g[8];
  CHECK(font_render("1.5", g, 8));
  CHECK_EQ(g[0], (uint8_t)(0x30 | SEG_DP));
  CHECK_EQ(g[1], 0x5B);
  CHECK(font_render("..", g, 8));
  CHECK_EQ(g[0], SEG_DP);
  CHECK_EQ(g[1], SEG_DP);
  CHECK(!font_render("123456789", g, 8));
  CHECK(!font_render("~", g, 8));
  CHECK_EQ(font_glyph('a'), font_glyph('A'));
}

// ---- the sketch on the Arduino mock ---------------------------------------------------------------
static std::string max7219_digits() {
  // Replays every SPI frame into a model of the chip's registers; returns the 8 digit registers
  // leftmost first (register 8 is the leftmost digit).
  uint8_t reg[16] = {0};
  for (const std::vector<uint8_t> &f : mock::spi_frames) {
    CHECK_EQ(f.size(), 2u);
    if (f.size() == 2 && f[0] < 16) reg[f[0]] = f[1];
  }
  std::string d;
  for (int r = 8; r >= 1; r--) d.push_back((char)reg[r]);
  return d;
}

TEST(sketch_boots_with_a_self_test_then_announces_ready) {
  mock::reset();
  mock::millis_step = 1;
  setup();
  CHECK_EQ(Serial.baud, SERIAL_BAUD);
  CHECK(mock::serial_out.find("READY proto=1") == 0);
  CHECK(strip_frames.size() >= 4);
  CHECK(same(strip_frames.front()[0], 255 * 9 / 16, 0, 0));
  bool saw_green = false, saw_blue = false;
  for (auto &f : strip_frames) {
    saw_green = saw_green || same(f[0], 0, 255 * 9 / 16, 0);
    saw_blue = saw_blue || same(f[0], 0, 0, 255 * 9 / 16);
  }
  CHECK(saw_green && saw_blue);
  CHECK_EQ(max7219_digits(), glyphs("--------"));
}

TEST(sketch_answers_commands_and_drives_display_and_strip) {
  mock::reset();
  mock::millis_step = 1;
  setup();
  mock::serial_out.clear();
  mock::serial_in = framed("1 HELLO 1") + framed("2 STATE b=15 t=1 v=S1 p=0 ff0000:3 00ff00:17");
  for (int i = 0; i < 50; i++) loop();
  CHECK(mock::serial_out.find("OK 1 proto=1") == 0);
  CHECK(mock::serial_out.find("\r\nOK 2*") != std::string::npos);
  CHECK_EQ(max7219_digits(), glyphs("P2    17"));
  const std::vector<Rgb> &last = strip_frames.back();
  CHECK(same(last[0], 48, 0, 0));
  CHECK(same(last[1], 0, 255, 0));
  CHECK(same(last[2], 0, 0, 0));
  // The display setup: no decode, 8 digits scanned, intensity, on.
  bool decode_off = false, scan8 = false, on = false, intensity15 = false;
  for (auto &f : mock::spi_frames) {
    decode_off = decode_off || (f[0] == 0x09 && f[1] == 0);
    scan8 = scan8 || (f[0] == 0x0B && f[1] == 7);
    on = on || (f[0] == 0x0C && f[1] == 1);
    intensity15 = intensity15 || (f[0] == 0x0A && f[1] == 15);
  }
  CHECK(decode_off && scan8 && on && intensity15);
}

TEST(sketch_survives_bytes_arriving_one_loop_at_a_time) {
  mock::reset();
  mock::millis_step = 1;
  setup();
  mock::serial_out.clear();
  std::string all = std::string("\x00\xff junk\n", 8) + framed("1 HELLO 1") + framed("2 SEATS ff0000");
  for (char c : all) {
    mock::serial_in.push_back(c);
    loop();
  }
  CHECK(mock::serial_out.find("NO - GARBAGE") == 0);
  CHECK(mock::serial_out.find("OK 2*") != std::string::npos);
}

int main(int argc, char **argv) { return check::main(argc, argv); }
