// libFuzzer target: any bytes into the line reader and the board, at any times. The sanitizers
// catch memory and arithmetic errors; the checks below catch broken replies.
//
// Random bytes almost never carry a right checksum, so most inputs would stop at the checksum
// check. When the first byte is odd, the target seals each line of the rest of the input with
// its correct checksum first, which lets the fuzzer explore the commands and their arguments.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "board.h"
#include "protocol.h"

static void require(bool ok) {
  if (!ok) abort();
}

static void run(Board &board, LineReader &reader, const std::string &bytes) {
  uint32_t now = 0;
  char reply[REPLY_BYTES];
  Shown shown;
  for (unsigned char byte : bytes) {
    // A byte with the top bits 111 also moves the clock, so rendering sees every phase.
    if ((byte & 0xE0) == 0xE0) now += (uint32_t)(byte & 0x1F) * 97u;
    LineEvent e = reader.feed(byte);
    if (e == LINE_NONE) continue;
    size_t n = board.on_line_event(e, reader.buf, reader.len, now, reply, sizeof(reply));
    reader.reset();
    require(n > 7 && n < sizeof(reply));
    require(reply[n - 1] == '\n' && reply[n - 2] == '\r' && reply[n - 7] == '*');
    for (size_t k = 0; k + 2 < n; k++) require(reply[k] >= 0x20 && reply[k] <= 0x7E);
    require(crc16_ccitt(reply, n - 7) == (uint16_t)strtoul(reply + n - 6, nullptr, 16));
    require(memcmp(reply, "OK ", 3) == 0 || memcmp(reply, "NO ", 3) == 0);
    board.render(now, shown);
    require(shown.brightness <= 15);
    const Settings &s = board.settings();
    require(s.seats <= MAX_SEATS && s.turn < (int8_t)s.seats);
    require(s.view_seat < (int8_t)s.seats || (s.view != VIEW_SCORE && s.view != VIEW_WIN));
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  Board board;
  LineReader reader;
  board.begin(0);
  reader.reset();
  std::string rest((const char *)data + 1, size - 1);
  if (!(data[0] & 1)) {
    run(board, reader, rest);
    return 0;
  }
  std::string sealed;
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find('\n', start);
    if (end == std::string::npos) end = rest.size();
    std::string line = rest.substr(start, end - start);
    char sum[8];
    snprintf(sum, sizeof(sum), "*%04X\n", crc16_ccitt(line.data(), line.size()));
    sealed += line + sum;
    start = end + 1;
  }
  run(board, reader, sealed);
  return 0;
}
