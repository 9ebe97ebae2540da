#include "protocol.h"

#include <avr/pgmspace.h>
#include <string.h>

uint16_t crc16_ccitt(const char *data, size_t len) {
  uint16_t crc = 0xFFFF;
  for (size_t i = 0; i < len; i++) {
    crc ^= (uint16_t)((uint8_t)data[i]) << 8;
    for (uint8_t b = 0; b < 8; b++) {
      crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
  }
  return crc;
}

void LineReader::reset() {
  len = 0;
  overflow = false;
  garbage = false;
  buf[0] = '\0';
}

LineEvent LineReader::feed(uint8_t byte) {
  if (byte == '\n' || byte == '\r') {
    LineEvent e = LINE_READY;
    if (overflow) {
      e = LINE_TOO_LONG;
    } else if (garbage) {
      e = LINE_GARBAGE;
    } else if (len == 0) {
      e = LINE_NONE;
    }
    buf[len < LINE_MAX_BYTES ? len : LINE_MAX_BYTES] = '\0';
    if (e != LINE_READY) reset();
    return e;
  }
  if (byte < 0x20 || byte > 0x7E) garbage = true;
  if (len >= LINE_MAX_BYTES) {
    overflow = true;
    return LINE_NONE;
  }
  buf[len++] = (char)byte;
  return LINE_NONE;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool parse_int(const char *s, long lo, long hi, long &out) {
  bool neg = false;
  if (*s == '-') {
    neg = true;
    s++;
  }
  if (!*s) return false;
  long v = 0;
  uint8_t digits = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    if (++digits > 6) return false;  // keeps v far from overflow; no argument needs more
    v = v * 10 + (*s - '0');
  }
  if (neg) v = -v;
  if (v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_uint(const char *s, long hi, long &out) {
  return s[0] != '-' && parse_int(s, 0, hi, out);
}

struct VerbName {
  char name[7];
  Verb verb;
};

static const VerbName VERBS[] PROGMEM = {
    {"HELLO", V_HELLO}, {"PING", V_PING},   {"STATE", V_STATE}, {"SEATS", V_SEATS},
    {"TURN", V_TURN},   {"SCORE", V_SCORE}, {"VIEW", V_VIEW},   {"TEXT", V_TEXT},
    {"FLASH", V_FLASH}, {"PULSE", V_PULSE}, {"BRIGHT", V_BRIGHT}, {"TEST", V_TEST},
};

static Verb find_verb(const char *word) {
  for (uint8_t i = 0; i < sizeof(VERBS) / sizeof(VERBS[0]); i++) {
    VerbName v;
    memcpy_P(&v, &VERBS[i], sizeof(v));
    if (strcmp(v.name, word) == 0) return v.verb;
  }
  return V_NONE;
}

Refusal parse_line(char *line, size_t len, Command &cmd) {
  cmd.seq = 0;
  cmd.crc = 0;
  cmd.verb = V_NONE;
  cmd.argc = 0;
  // The checksum: the last '*' followed by exactly four hex digits ends the line.
  if (len < 5 || line[len - 5] != '*') return R_BADSUM;
  uint16_t sent = 0;
  for (size_t i = len - 4; i < len; i++) {
    int h = hex_value(line[i]);
    if (h < 0) return R_BADSUM;
    sent = (uint16_t)((sent << 4) | (uint16_t)h);
  }
  size_t body = len - 5;
  if (crc16_ccitt(line, body) != sent) return R_BADSUM;
  cmd.crc = sent;
  line[body] = '\0';

  const char *tokens[MAX_TOKENS];
  uint8_t n = 0;
  char *p = line;
  while (*p) {
    while (*p == ' ') *p++ = '\0';
    if (!*p) break;
    if (n == MAX_TOKENS) return R_ARGS;
    tokens[n++] = p;
    while (*p && *p != ' ') {
      if (*p == '*') return R_SYNTAX;
      p++;
    }
  }
  long seq;
  if (n == 0 || strlen(tokens[0]) > 4 || !parse_uint(tokens[0], 9999, seq) || seq == 0) {
    return R_SYNTAX;
  }
  cmd.seq = (uint16_t)seq;
  if (n < 2) return R_SYNTAX;
  cmd.verb = find_verb(tokens[1]);
  if (cmd.verb == V_NONE) return R_UNKNOWN;
  cmd.argc = (uint8_t)(n - 2);
  for (uint8_t i = 2; i < n; i++) cmd.argv[i - 2] = tokens[i];
  return R_NONE;
}

static const char W_NONE[] PROGMEM = "OK";
static const char W_BADSUM[] PROGMEM = "BADSUM";
static const char W_TOOLONG[] PROGMEM = "TOOLONG";
static const char W_GARBAGE[] PROGMEM = "GARBAGE";
static const char W_SYNTAX[] PROGMEM = "SYNTAX";
static const char W_UNKNOWN[] PROGMEM = "UNKNOWN";
static const char W_ARGS[] PROGMEM = "ARGS";
static const char W_PROTO[] PROGMEM = "PROTO";
static const char W_HELLO[] PROGMEM = "HELLO";

const char *refusal_word(Refusal r) {
  switch (r) {
    case R_BADSUM: return W_BADSUM;
    case R_TOOLONG: return W_TOOLONG;
    case R_GARBAGE: return W_GARBAGE;
    case R_SYNTAX: return W_SYNTAX;
    case R_UNKNOWN: return W_UNKNOWN;
    case R_ARGS: return W_ARGS;
    case R_PROTO: return W_PROTO;
    case R_HELLO: return W_HELLO;
    case R_NONE: break;
  }
  return W_NONE;
}

size_t seal_line(char *buf, size_t len, size_t cap) {
  if (len + 8 > cap) return 0;
  static const char HEX[] = "0123456789ABCDEF";
  uint16_t crc = crc16_ccitt(buf, len);
  buf[len++] = '*';
  for (int shift = 12; shift >= 0; shift -= 4) buf[len++] = HEX[(crc >> shift) & 0xF];
  buf[len++] = '\r';
  buf[len++] = '\n';
  buf[len] = '\0';
  return len;
}

void Out::start(char *b, size_t c) {
  buf = b;
  cap = c;
  len = 0;
  if (cap) buf[0] = '\0';
}

void Out::ch(char c) {
  if (len + 1 < cap) {
    buf[len++] = c;
    buf[len] = '\0';
  }
}

void Out::str(const char *s) {
  while (*s) ch(*s++);
}

void Out::str_P(const char *s) {
  for (char c = (char)pgm_read_byte(s); c; c = (char)pgm_read_byte(++s)) ch(c);
}

void Out::num(long v) {
  char tmp[12];
  uint8_t n = 0;
  bool neg = v < 0;
  unsigned long u = neg ? (unsigned long)(-(v + 1)) + 1UL : (unsigned long)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg) ch('-');
  while (n) ch(tmp[--n]);
}
