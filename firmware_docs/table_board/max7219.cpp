#include "max7219.h"

#include <Arduino.h>
#include <SPI.h>

// Register addresses (datasheet table 2).
#if DISPLAY_DIG0_LEFT
#define DIGIT_REG(i) (REG_DIGIT0 + (i))
#else
#define DIGIT_REG(i) (REG_DIGIT0 + NUM_DIGITS - 1 - (i))
#endif
#define REG_DIGIT0 0x01
#define REG_DECODE 0x09
#define REG_INTENSITY 0x0A
#define REG_SCAN_LIMIT 0x0B
#define REG_SHUTDOWN 0x0C
#define REG_DISPLAY_TEST 0x0F

void Max7219::begin(uint8_t load_pin) {
  load_ = load_pin;
  pinMode(load_, OUTPUT);
  digitalWrite(load_, HIGH);
  SPI.begin();
  uint8_t blank[NUM_DIGITS] = {0};
  refresh(blank, DEFAULT_BRIGHTNESS);
}

void Max7219::write(uint8_t reg, uint8_t value) {
  // 16 bits, address first; the chip latches them on the rising edge of LOAD.
  SPI.beginTransaction(SPISettings(4000000, MSBFIRST, SPI_MODE0));
  digitalWrite(load_, LOW);
  SPI.transfer(reg);
  SPI.transfer(value);
  digitalWrite(load_, HIGH);
  SPI.endTransaction();
}

void Max7219::refresh(const uint8_t *digits, uint8_t intensity) {
  write(REG_DISPLAY_TEST, 0);
  write(REG_DECODE, 0);
  write(REG_SCAN_LIMIT, NUM_DIGITS - 1);
  write(REG_INTENSITY, intensity & 0x0F);
  for (uint8_t i = 0; i < NUM_DIGITS; i++) {
    write((uint8_t)DIGIT_REG(i), digits[i]);
    shown_[i] = digits[i];
  }
  write(REG_SHUTDOWN, 1);
  intensity_ = intensity;
}

void Max7219::show(const uint8_t *digits, uint8_t intensity) {
  if (intensity != intensity_) {
    write(REG_INTENSITY, intensity & 0x0F);
    intensity_ = intensity;
  }
  for (uint8_t i = 0; i < NUM_DIGITS; i++) {
    if (digits[i] != shown_[i]) {
      write((uint8_t)DIGIT_REG(i), digits[i]);
      shown_[i] = digits[i];
    }
  }
}
