// The bit timing of a WS2812 is tighter than C can promise, so each bit is written by counted
// instructions at 16 MHz (62.5 ns a cycle). Datasheet: a 0 is high 0.4 us, a 1 is high 0.8 us,
// each bit 1.25 us, +-150 ns; a low of more than 50 us latches the colours. Here a 0 is high
// 6 cycles (375 ns), a 1 is high 12 cycles (750 ns), and a bit is 20 cycles (1.25 us); the
// byte change adds a few cycles to a low phase, which the chips tolerate.
#include "ws2812.h"

#include "config.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#if F_CPU != 16000000UL
#error "ws2812.cpp counts cycles for a 16 MHz clock"
#endif

#define WS_BIT 6  // PD6 = Arduino D6

void ws2812_begin() {
  PORTD &= (uint8_t) ~(1 << WS_BIT);
  DDRD |= (uint8_t)(1 << WS_BIT);
}

void ws2812_show(const Rgb *leds, uint8_t n) {
  uint8_t wire[3 * 8];
  if (n > 8) n = 8;
  for (uint8_t i = 0; i < n; i++) {
#if STRIP_ORDER_RGB
    wire[3 * i] = leds[i].r;
    wire[3 * i + 1] = leds[i].g;
#else
    wire[3 * i] = leds[i].g;
    wire[3 * i + 1] = leds[i].r;
#endif
    wire[3 * i + 2] = leds[i].b;
  }
  const uint8_t *p = wire;
  uint16_t count = (uint16_t)(3 * n);
  if (!count) return;
  uint8_t sreg = SREG;
  cli();
  uint8_t hi = (uint8_t)(PORTD | (1 << WS_BIT));
  uint8_t lo = (uint8_t)(PORTD & ~(1 << WS_BIT));
  uint8_t byte, bits;
  asm volatile(
      "1:  ld   %[byte], %a[ptr]+   \n\t"  // next byte (2 cycles, in the low phase)
      "    ldi  %[bits], 8          \n\t"
      "2:  out  %[port], %[hi]      \n\t"  // t=0: rising edge
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    sbrs %[byte], 7          \n\t"  // t=5: a 1 skips the early fall
      "    out  %[port], %[lo]      \n\t"  // t=6: a 0 falls here
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    out  %[port], %[lo]      \n\t"  // t=12: a 1 falls here
      "    lsl  %[byte]             \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    nop                      \n\t"
      "    dec  %[bits]             \n\t"
      "    brne 2b                  \n\t"  // t=20: next bit
      "    sbiw %[count], 1         \n\t"
      "    brne 1b                  \n\t"
      : [byte] "=&d"(byte), [bits] "=&d"(bits), [ptr] "+e"(p), [count] "+w"(count)
      : [port] "I"(_SFR_IO_ADDR(PORTD)), [hi] "r"(hi), [lo] "r"(lo)
      : "memory");
  SREG = sreg;
}
