// Host stand-in for the Arduino SPI library: records the bytes of each LOAD-framed transfer.
#pragma once
#include <stdint.h>

#define MSBFIRST 1
#define SPI_MODE0 0

struct SPISettings {
  SPISettings(uint32_t clock, uint8_t order, uint8_t mode) : clock(clock), order(order), mode(mode) {}
  uint32_t clock;
  uint8_t order, mode;
};

class SPIClass {
 public:
  void begin();
  void beginTransaction(SPISettings s);
  void endTransaction();
  uint8_t transfer(uint8_t byte);
  bool in_transaction = false;
  bool begun = false;
};

extern SPIClass SPI;
