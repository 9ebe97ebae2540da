// The line protocol's framing: bytes into lines, lines into checked commands, replies sealed
// with a checksum. Pure code with no hardware in it, so it is unit-tested and fuzzed on a PC.
//
// A line is `<seq> <VERB> [args...]*<CRC>` where CRC is the CRC-16/CCITT-FALSE of every byte
// before the '*', written as 4 hex digits. See PROTOCOL.md for the whole protocol.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define LINE_MAX_BYTES 160  // characters in one line, end of line excluded
#define MAX_TOKENS 14       // sequence number + verb + up to 12 arguments

uint16_t crc16_ccitt(const char *data, size_t len);

enum LineEvent : uint8_t {
  LINE_NONE,      // nothing complete yet (or an empty line, which is ignored)
  LINE_READY,     // a line is in `buf`, `len` characters, NUL-terminated
  LINE_TOO_LONG,  // a line longer than LINE_MAX_BYTES ended; its bytes were dropped
  LINE_GARBAGE,   // a line with a byte outside printable ASCII ended; it was dropped
};

// Gathers received bytes into lines. Either CR or LF ends a line, so any serial monitor's
// line ending works and CR LF just adds an empty line, which is ignored.
struct LineReader {
  char buf[LINE_MAX_BYTES + 1];
  uint8_t len;
  bool overflow;
  bool garbage;

  void reset();
  LineEvent feed(uint8_t byte);
};

enum Verb : uint8_t {
  V_NONE, V_HELLO, V_PING, V_STATE, V_SEATS, V_TURN, V_SCORE, V_VIEW, V_TEXT, V_FLASH,
  V_PULSE, V_BRIGHT, V_TEST,
};

enum Refusal : uint8_t {
  R_NONE, R_BADSUM, R_TOOLONG, R_GARBAGE, R_SYNTAX, R_UNKNOWN, R_ARGS, R_PROTO, R_HELLO,
};

struct Command {
  uint16_t seq;  // 1..9999; 0 when the line's number could not be trusted
  uint16_t crc;  // the line's checksum: with seq, it tells a resend from a new command
  Verb verb;
  uint8_t argc;  // arguments after the verb
  const char *argv[MAX_TOKENS - 2];
};

// Checks and splits one line in place (spaces become NULs). Returns R_NONE when `cmd` holds a
// well-formed command, else why the line is refused; `cmd.seq` is then set when it could be
// read from a line whose checksum was right.
Refusal parse_line(char *line, size_t len, Command &cmd);

// Strict decimal integer in [lo, hi]: optional '-', digits only, nothing else.
bool parse_int(const char *s, long lo, long hi, long &out);
// The same without a sign: digits only, in [0, hi].
bool parse_uint(const char *s, long hi, long &out);

// The reason's word as sent on the wire ("BADSUM", ...), from flash.
const char *refusal_word(Refusal r);

// Appends "*HHHH\r\n" to the `len` characters in `buf`; returns the new length (0 when `cap`
// is too small, which the fixed reply sizes never cause).
size_t seal_line(char *buf, size_t len, size_t cap);

// A bounded text builder for replies: never writes past its capacity, always NUL-terminated.
struct Out {
  char *buf;
  size_t cap;
  size_t len;

  void start(char *b, size_t c);
  void ch(char c);
  void str(const char *s);
  void str_P(const char *s);  // a string in flash (PSTR)
  void num(long v);
};
