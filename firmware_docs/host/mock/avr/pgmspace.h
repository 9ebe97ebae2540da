// Host stand-in for avr-libc's <avr/pgmspace.h>: on a PC, flash and RAM are one address space.
#pragma once
#include <string.h>
#define PROGMEM
#define PSTR(s) (s)
#define pgm_read_byte(p) (*(const unsigned char *)(p))
#define memcpy_P memcpy
#define strlen_P strlen
