#include "Arduino.h"
#include "SPI.h"

#include <stdio.h>
#include <stdlib.h>

namespace mock {
uint32_t now_ms = 0;
uint32_t millis_step = 0;
std::string serial_in;
std::string serial_out;
uint8_t pin_level[32];
uint8_t pin_mode[32];
std::vector<std::vector<uint8_t>> spi_frames;
int spi_cs_pin = 10;
static bool frame_open = false;

void reset() {
  now_ms = 0;
  millis_step = 0;
  serial_in.clear();
  serial_out.clear();
  memset(pin_level, 0, sizeof(pin_level));
  memset(pin_mode, 0, sizeof(pin_mode));
  spi_frames.clear();
  frame_open = false;
}
}  // namespace mock

HardwareSerial Serial;
SPIClass SPI;

static void fail(const char *what) {
  fprintf(stderr, "arduino mock: %s\n", what);
  abort();
}

uint32_t millis() {
  uint32_t t = mock::now_ms;
  mock::now_ms += mock::millis_step;
  return t;
}

void delay(uint32_t ms) { mock::now_ms += ms; }

void pinMode(uint8_t pin, uint8_t mode) {
  if (pin >= 32) fail("pinMode on a pin the board does not have");
  mock::pin_mode[pin] = mode;
}

void digitalWrite(uint8_t pin, uint8_t level) {
  if (pin >= 32) fail("digitalWrite on a pin the board does not have");
  if (mock::pin_mode[pin] != OUTPUT) fail("digitalWrite on a pin not set as OUTPUT");
  if (pin == mock::spi_cs_pin) {
    if (level == LOW && mock::pin_level[pin] != LOW) {
      mock::spi_frames.emplace_back();
      mock::frame_open = true;
    } else if (level == HIGH) {
      mock::frame_open = false;
    }
  }
  mock::pin_level[pin] = level;
}

void HardwareSerial::begin(unsigned long b) { baud = b; }

int HardwareSerial::available() {
  if (!baud) fail("Serial used before Serial.begin");
  return (int)mock::serial_in.size();
}

int HardwareSerial::read() {
  if (mock::serial_in.empty()) return -1;
  uint8_t b = (uint8_t)mock::serial_in[0];
  mock::serial_in.erase(0, 1);
  return b;
}

size_t HardwareSerial::write(const uint8_t *data, size_t n) {
  if (!baud) fail("Serial used before Serial.begin");
  mock::serial_out.append((const char *)data, n);
  return n;
}

size_t HardwareSerial::write(uint8_t byte) { return write(&byte, 1); }

void SPIClass::begin() {
  begun = true;
  pinMode(mock::spi_cs_pin, OUTPUT);
  digitalWrite(mock::spi_cs_pin, HIGH);
}

void SPIClass::beginTransaction(SPISettings s) {
  if (!begun) fail("SPI transaction before SPI.begin");
  if (in_transaction) fail("nested SPI transaction");
  if (s.clock > 10000000) fail("SPI clock above the MAX7219's 10 MHz");
  if (s.mode != SPI_MODE0 || s.order != MSBFIRST) fail("MAX7219 needs SPI mode 0, MSB first");
  in_transaction = true;
}

void SPIClass::endTransaction() {
  if (!in_transaction) fail("SPI endTransaction without beginTransaction");
  in_transaction = false;
}

uint8_t SPIClass::transfer(uint8_t byte) {
  if (!in_transaction) fail("SPI transfer outside a transaction");
  if (!mock::frame_open) fail("SPI transfer while LOAD is high: the MAX7219 would miss it");
  mock::spi_frames.back().push_back(byte);
  return 0;
}
