// A small stand-in for the Arduino API, so the sketch and its drivers run on a PC under the
// sanitizers. Time only moves when a test says so; serial bytes come from and go to buffers
// the test reads and fills; pin writes and SPI bytes are recorded.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <avr/pgmspace.h>
#include <string>
#include <vector>

#define HIGH 1
#define LOW 0
#define INPUT 0
#define OUTPUT 1

namespace mock {
extern uint32_t now_ms;         // what millis() returns
extern uint32_t millis_step;    // added to now_ms at every millis() call, so busy loops end
extern std::string serial_in;   // bytes the board has yet to read
extern std::string serial_out;  // bytes the board wrote
extern uint8_t pin_level[32];
extern uint8_t pin_mode[32];
// SPI bytes grouped per LOAD pulse: one entry per frame between a LOW and a HIGH of the pin
// given to the SPI mock.
extern std::vector<std::vector<uint8_t>> spi_frames;
extern int spi_cs_pin;
void reset();
}  // namespace mock

uint32_t millis();
void delay(uint32_t ms);
void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t level);

class HardwareSerial {
 public:
  void begin(unsigned long baud);
  int available();
  int read();
  size_t write(const uint8_t *data, size_t n);
  size_t write(uint8_t byte);
  unsigned long baud = 0;
};

extern HardwareSerial Serial;
