// board_sim: the table board's real firmware in simavr, its UART on a pseudo-terminal, and what
// a player would see reported on stdout.
//
// The UART is bridged here through libsimavr's UART IRQs rather than libsimavrparts' uart_pty,
// because the harness needs what uart_pty does not do: hold the chip until the port is opened
// and reset it at every opening, inject faults on the wire, and keep no shared symlink (every
// test has its own port).
//
//   board_sim FIRMWARE.elf [--link PATH] [--speed X]
//
// The chip is an ATmega328P at 16 MHz (an Arduino ELF names neither, so they are set here).
// Like an Uno, whose DTR line resets it when a program opens the port, the chip is held in
// reset until a program opens the pseudo-terminal and is reset at every opening; so the boot
// banner is never sent into a port nobody reads. --link keeps a symlink at PATH pointing to the
// current /dev/pts/N (tests use a private one each, so they can run in parallel).
// --speed 1 runs in real time (for tests where the host's timeouts matter); the default 0 runs
// as fast as the PC can, several times real time.
//
// stdout, one event a line (flushed at once):
//   PTY /dev/pts/N      the port to open (at start and after every "plug")
//   OPEN | CLOSE        a program opened / closed the port
//   RUN                 the chip left reset
//   RESET               the chip was reset by the "reset" command
//   SPI AAVV            a 16-bit word latched by the MAX7219 at a rising edge of LOAD (hex)
//   SPIBAD n            LOAD rose after n bytes instead of 2
//   LEDS rrggbb ...     colours latched by the WS2812 strip, first light first
//   WSBAD why           a WS2812 bit outside the datasheet's timings
//   CYCLE n             the chip's cycle count (answer to "cycle")
//   EXIT why
// stdin commands, one a line:
//   reset               reset the chip now (a brown-out, a press on the reset button)
//   unplug | plug       the USB cable out (port gone, chip unpowered) / back in (a new port)
//   speed X             change the speed (0 = free running)
//   faults SEED DROP FLIP   from now on drop / flip a bit in DROP / FLIP bytes per thousand,
//                       both ways, from a seeded generator; "faults 0 0 0" stops
//   cycle | quit
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_io.h"
#include "sim_irq.h"

#define FREQUENCY 16000000UL
#define BATCH 4000  // instructions between looks at the pty and stdin

enum chip_state { HELD, RUNNING, UNPLUGGED };

static avr_t *avr;
static enum chip_state state = HELD;
static int master = -1;
static char pty_path[128];
static const char *link_path;
static double speed;
static int uart_xon;

static uint8_t to_chip[4096];
static size_t to_chip_len, to_chip_done;
static uint8_t from_chip[4096];
static size_t from_chip_len;

static uint64_t fault_state;
static unsigned fault_drop, fault_flip;

static FILE *events;  // the event stream: the real stdout; simavr's own chatter goes to stderr

static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(events, fmt, ap);
  va_end(ap);
  fputc('\n', events);
  fflush(events);
}

static void die(const char *why) {
  say("EXIT %s", why);
  if (link_path) unlink(link_path);
  exit(1);
}

// ---- faults on the wire ----------------------------------------------------------------------
static uint32_t fault_rand(void) {
  // xorshift64*: small, seeded, the same sequence on every machine
  fault_state ^= fault_state >> 12;
  fault_state ^= fault_state << 25;
  fault_state ^= fault_state >> 27;
  return (uint32_t)((fault_state * 2685821657736338717ULL) >> 32);
}

// Returns -1 to drop the byte, else the byte as it arrives.
static int wire(uint8_t byte) {
  if (!fault_state) return byte;
  if (fault_rand() % 1000 < fault_drop) return -1;
  if (fault_rand() % 1000 < fault_flip) byte ^= (uint8_t)(1u << (fault_rand() % 8));
  return byte;
}

// ---- the pseudo-terminal -------------------------------------------------------------------------
static void open_pty(void) {
  master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) || unlockpt(master)) die("cannot create a pseudo-terminal");
  const char *name = ptsname(master);
  if (!name) die("no name for the pseudo-terminal");
  snprintf(pty_path, sizeof(pty_path), "%s", name);
  // Raw: no echo, no line editing, no CR/LF translation, 8 bits through.
  struct termios tio;
  if (tcgetattr(master, &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(master, TCSANOW, &tio);
  }
  fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
  if (link_path) {
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.new", link_path);
    unlink(tmp);
    if (symlink(pty_path, tmp) || rename(tmp, link_path)) die("cannot make the --link symlink");
  }
  say("PTY %s", pty_path);
}

static void close_pty(void) {
  if (master >= 0) close(master);
  master = -1;
  if (link_path) unlink(link_path);
}

// True while some program has the port open: a pty master reports POLLHUP while no one does.
static int port_open(void) {
  struct pollfd p = {.fd = master, .events = POLLIN};
  if (poll(&p, 1, 0) < 0) return 0;
  return !(p.revents & POLLHUP);
}

// ---- UART ----------------------------------------------------------------------------------------
static void uart_out(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  int b = wire((uint8_t)value);
  if (b < 0 || state != RUNNING) return;
  if (from_chip_len < sizeof(from_chip)) from_chip[from_chip_len++] = (uint8_t)b;
}

static void uart_xon_irq(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)value;
  (void)param;
  uart_xon = 1;
}

static void uart_xoff_irq(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (value) uart_xon = 0;
}

static void pump_uart(void) {
  if (from_chip_len) {
    ssize_t n = write(master, from_chip, from_chip_len);
    if (n > 0) {
      memmove(from_chip, from_chip + n, from_chip_len - (size_t)n);
      from_chip_len -= (size_t)n;
    }
  }
  if (to_chip_done == to_chip_len) {
    ssize_t n = read(master, to_chip, sizeof(to_chip));
    to_chip_len = n > 0 ? (size_t)n : 0;
    to_chip_done = 0;
  }
  avr_irq_t *in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  while (uart_xon && to_chip_done < to_chip_len) {
    int b = wire(to_chip[to_chip_done++]);
    if (b >= 0) avr_raise_irq(in, (uint32_t)b);
  }
}

// ---- MAX7219 on SPI --------------------------------------------------------------------------------
static uint8_t spi_bytes[8];
static int spi_count, load_level = 1;

static void spi_byte(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  if (load_level == 0 && spi_count < (int)sizeof(spi_bytes)) spi_bytes[spi_count] = (uint8_t)value;
  if (load_level == 0) spi_count++;
}

static void load_pin(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  int level = value ? 1 : 0;
  if (level == load_level) return;
  load_level = level;
  if (!level) {
    spi_count = 0;
    return;
  }
  if (spi_count == 2) {
    say("SPI %02X%02X", spi_bytes[0], spi_bytes[1]);
  } else if (spi_count) {
    say("SPIBAD %d", spi_count);
  }
}

// ---- WS2812 on PD6 -----------------------------------------------------------------------------------
// Datasheet: 0 = high 0.4 us, 1 = high 0.8 us, +-150 ns; a low over 50 us latches. The chips
// read a bit from its high time; a low inside a frame may stretch well past the datasheet's
// figure, but not near the latch time, so over 5 us is flagged.
#define CYC(ns) ((uint64_t)(ns) * (FREQUENCY / 1000000) / 1000)
#define T0H_MIN CYC(250)
#define T0H_MAX CYC(550)
#define T1H_MIN CYC(650)
#define T1H_MAX CYC(950)
#define LOW_MAX CYC(5000)
#define LATCH CYC(50000)

static struct {
  int level;
  uint64_t rise, fall;
  uint8_t bits[8 * 24 * 4];
  int nbits;
  int bad;
} ws;

static void ws_latch(void) {
  if (!ws.nbits) return;
  if (ws.nbits % 24) {
    say("WSBAD %d bits is not a whole number of lights", ws.nbits);
  } else if (!ws.bad) {
    char line[16 + 7 * 32];
    int len = snprintf(line, sizeof(line), "LEDS");
    for (int led = 0; led < ws.nbits / 24 && led < 32; led++) {
      uint8_t grb[3] = {0, 0, 0};
      for (int k = 0; k < 24; k++) grb[k / 8] = (uint8_t)(grb[k / 8] << 1 | ws.bits[led * 24 + k]);
      len += snprintf(line + len, sizeof(line) - (size_t)len, " %02x%02x%02x", grb[1], grb[0], grb[2]);
    }
    say("%s", line);
  }
  ws.nbits = 0;
  ws.bad = 0;
}

static void ws_pin(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  (void)param;
  int level = value ? 1 : 0;
  if (level == ws.level) return;
  uint64_t now = avr->cycle;
  if (level) {
    if (ws.nbits && now - ws.fall >= LATCH) ws_latch();
    if (ws.nbits && now - ws.fall > LOW_MAX && !ws.bad) {
      say("WSBAD low of %llu cycles inside a frame", (unsigned long long)(now - ws.fall));
      ws.bad = 1;
    }
    ws.rise = now;
  } else {
    uint64_t high = now - ws.rise;
    int bit;
    if (high >= T0H_MIN && high <= T0H_MAX) {
      bit = 0;
    } else if (high >= T1H_MIN && high <= T1H_MAX) {
      bit = 1;
    } else {
      if (!ws.bad) say("WSBAD high of %llu cycles", (unsigned long long)high);
      ws.bad = 1;
      bit = high > CYC(600);
    }
    if (ws.nbits < (int)sizeof(ws.bits)) ws.bits[ws.nbits++] = (uint8_t)bit;
    ws.fall = now;
  }
  ws.level = level;
}

// ---- the run loop ---------------------------------------------------------------------------------------
static struct timespec wall0;
static uint64_t cycle0;

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void restart_clock(void) {
  clock_gettime(CLOCK_MONOTONIC, &wall0);
  cycle0 = avr->cycle;
}

static void chip_reset(void) {
  avr_reset(avr);
  uart_xon = 0;
  to_chip_len = to_chip_done = 0;
  from_chip_len = 0;
  memset(&ws, 0, sizeof(ws));
  spi_count = 0;
  load_level = 1;
  restart_clock();
}

static void command(char *line) {
  char *nl = strchr(line, '\n');
  if (nl) *nl = '\0';
  unsigned long long seed;
  unsigned drop, flip;
  double s;
  if (strcmp(line, "reset") == 0) {
    if (state == RUNNING) {
      chip_reset();
      say("RESET");
    }
  } else if (strcmp(line, "unplug") == 0) {
    if (state != UNPLUGGED) {
      close_pty();
      state = UNPLUGGED;
      say("CLOSE");
    }
  } else if (strcmp(line, "plug") == 0) {
    if (state == UNPLUGGED) {
      open_pty();
      state = HELD;
    }
  } else if (sscanf(line, "speed %lf", &s) == 1) {
    speed = s;
    restart_clock();
  } else if (sscanf(line, "faults %llu %u %u", &seed, &drop, &flip) == 3) {
    fault_state = seed;
    fault_drop = drop;
    fault_flip = flip;
  } else if (strcmp(line, "cycle") == 0) {
    say("CYCLE %llu", (unsigned long long)avr->cycle);
  } else if (strcmp(line, "quit") == 0) {
    close_pty();
    say("EXIT quit");
    exit(0);
  } else {
    fprintf(stderr, "board_sim: unknown command: %s\n", line);
  }
}

static void read_stdin(int wait_ms) {
  static char buf[256];
  static size_t len;
  struct pollfd p = {.fd = 0, .events = POLLIN};
  if (poll(&p, 1, wait_ms) <= 0) return;
  ssize_t n = read(0, buf + len, sizeof(buf) - 1 - len);
  if (n <= 0) {
    close_pty();
    exit(0);  // whoever drove us is gone
  }
  len += (size_t)n;
  buf[len] = '\0';
  char *start = buf, *nl;
  while ((nl = strchr(start, '\n'))) {
    *nl = '\0';
    command(start);
    start = nl + 1;
  }
  len = strlen(start);
  memmove(buf, start, len + 1);
  if (len == sizeof(buf) - 1) len = 0;  // an absurd line: drop it
}

static void quiet_logger(avr_t *a, const int level, const char *fmt, va_list ap) {
  if (!a || level <= LOG_ERROR) vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv) {
  const char *elf = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--link") == 0 && i + 1 < argc) {
      link_path = argv[++i];
    } else if (strcmp(argv[i], "--speed") == 0 && i + 1 < argc) {
      speed = atof(argv[++i]);
    } else if (!elf && argv[i][0] != '-') {
      elf = argv[i];
    } else {
      fprintf(stderr, "usage: board_sim FIRMWARE.elf [--link PATH] [--speed X]\n");
      return 2;
    }
  }
  if (!elf) {
    fprintf(stderr, "usage: board_sim FIRMWARE.elf [--link PATH] [--speed X]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  events = fdopen(dup(1), "w");
  if (!events || dup2(2, 1) < 0) return 2;
  avr_global_logger_set(quiet_logger);

  elf_firmware_t fw;
  memset(&fw, 0, sizeof(fw));
  if (elf_read_firmware(elf, &fw) != 0) die("cannot read the firmware ELF");
  snprintf(fw.mmcu, sizeof(fw.mmcu), "atmega328p");
  fw.frequency = FREQUENCY;
  avr = avr_make_mcu_by_name(fw.mmcu);
  if (!avr) die("simavr has no atmega328p");
  avr_init(avr);
  avr_load_firmware(avr, &fw);
  avr->frequency = FREQUENCY;
  avr->log = LOG_ERROR;

  // The UART: no console echo, no sleeping in polls; bytes go through our pty.
  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                          uart_out, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                          uart_xon_irq, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                          uart_xoff_irq, NULL);
  // The MAX7219: SPI bytes and the LOAD pin (D10 = PB2).
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_byte,
                          NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 2), load_pin, NULL);
  // The WS2812 data line (D6 = PD6).
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), ws_pin, NULL);

  open_pty();
  for (;;) {
    if (state != RUNNING) {
      read_stdin(5);
      if (state == HELD && port_open()) {
        say("OPEN");
        tcflush(master, TCIOFLUSH);
        state = RUNNING;
        chip_reset();
        say("RUN");
      }
      continue;
    }
    for (int i = 0; i < BATCH; i++) {
      int st = avr_run(avr);
      if (st == cpu_Done || st == cpu_Crashed) die(st == cpu_Done ? "done" : "crashed");
    }
    if (ws.nbits && ws.level == 0 && avr->cycle - ws.fall >= LATCH) ws_latch();
    if (!port_open()) {
      say("CLOSE");
      state = HELD;  // nobody listens; the next opening resets the chip, as DTR does
      continue;
    }
    pump_uart();
    if (speed > 0) {
      double ahead = (double)(avr->cycle - cycle0) / FREQUENCY / speed - since(&wall0);
      if (ahead > 0.002) {
        read_stdin((int)(ahead * 1000));
        continue;
      }
    }
    read_stdin(0);
  }
}
