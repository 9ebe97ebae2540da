"""The real firmware, run in the simavr AVR emulator behind a pseudo-terminal.

``firmware_docs/sim/board_sim.c`` loads the firmware ELF built by avr-gcc into an emulated
ATmega328P, bridges its UART to a pty and reports what the chip does to its pins: the 16-bit
words latched into the MAX7219 over SPI and the colours sent down the WS2812 data line (decoded
from the pin's timing). :class:`SimulatedBoard` starts it, keeps a model of the MAX7219's
registers and the strip's last frame, and says what a player would see, in the same snapshot
form as :class:`hardware.emulated.EmulatedBoard`.

``python -m hardware.simulated`` builds everything, runs one and prints its port.
"""

from __future__ import annotations

import argparse
import subprocess
import threading
from collections import deque
from pathlib import Path
from typing import Any, Callable

from hardware import firmware, segments

REG_DECODE, REG_INTENSITY, REG_SCAN, REG_SHUTDOWN, REG_TEST = 0x09, 0x0A, 0x0B, 0x0C, 0x0F


class Max7219Model:
    """The chip's registers, as set by the words it latched."""

    def __init__(self) -> None:
        self.registers = [0] * 16
        self.words = 0

    def latch(self, word: int) -> None:
        self.registers[(word >> 8) & 0x0F] = word & 0xFF
        self.words += 1

    @property
    def lit(self) -> bytes:
        """The segments lit on each digit, leftmost first (digit register 8 is leftmost)."""
        r = self.registers
        if r[REG_TEST] & 1:
            return bytes([0xFF] * 8)
        if not r[REG_SHUTDOWN] & 1:
            return bytes(8)
        return bytes(r[reg] if reg - 1 <= (r[REG_SCAN] & 7) else 0 for reg in range(8, 0, -1))

    @property
    def decode(self) -> int:
        """The decode-mode register: 0 (raw segments) is what the firmware must use."""
        return self.registers[REG_DECODE]

    @property
    def intensity(self) -> int:
        return self.registers[REG_INTENSITY] & 0x0F


class SimulatedBoard:
    """One board_sim process. ``speed`` 1.0 runs in real time (for timeout-sensitive tests),
    0 as fast as possible; ``link_path`` keeps a symlink to the current pty."""

    def __init__(self, *, speed: float = 0.0, link_path: str | None = None,
                 build_dir: Path | None = None):
        self.speed = speed
        self.link_path = link_path
        self.build_dir = build_dir
        self.display = Max7219Model()
        self.leds: tuple[str, ...] = ()
        self.frames = 0                  # strip frames latched
        self.led_history: deque[tuple[str, ...]] = deque(maxlen=50000)   # every frame, in order
        self.display_history: deque[bytes] = deque(maxlen=50000)   # every change of the digits
        self.errors: list[str] = []      # WSBAD / SPIBAD / EXIT lines
        self.log: deque[str] = deque(maxlen=2000)
        self.runs = 0                    # times the chip started (opened port, reset)
        self.opens = 0
        self._path = ""
        self._proc: subprocess.Popen | None = None
        self._cond = threading.Condition()
        self._stderr: deque[str] = deque(maxlen=200)
        self._cycle_answers = 0
        self._last_cycle = 0

    # -- life cycle -----------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> str:
        """Builds the firmware and the harness if needed, starts it; returns the pty path."""
        elf = firmware.firmware_elf(self.build_dir)
        sim = firmware.build("simulator", self.build_dir)
        cmd = [str(sim), str(elf), "--speed", str(self.speed)]
        if self.link_path:
            cmd += ["--link", self.link_path]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read_events, daemon=True, name="board-sim").start()
        threading.Thread(target=self._read_stderr, daemon=True, name="board-sim-err").start()
        if not self.wait_for(lambda: bool(self._path), timeout):
            self.stop()
            raise RuntimeError("board_sim did not start: " + " | ".join(self._stderr))
        return self._path

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
            proc.wait(timeout=3)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def __enter__(self) -> SimulatedBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def path(self) -> str:
        return self._path

    # -- faults and controls ------------------------------------------------------------------------

    def _command(self, line: str) -> None:
        if not self._proc or self._proc.poll() is not None:
            raise RuntimeError("board_sim is not running")
        self._proc.stdin.write(line + "\n")
        self._proc.stdin.flush()

    def reset(self) -> None:
        """Resets the chip now (reset button, brown-out)."""
        self._command("reset")

    def unplug(self) -> None:
        with self._cond:
            self._path = ""
        self._command("unplug")

    def plug(self, timeout: float = 5.0) -> str:
        self._command("plug")
        if not self.wait_for(lambda: bool(self._path), timeout):
            raise RuntimeError("board_sim made no new port")
        return self._path

    def set_faults(self, seed: int, drop_per_mille: int = 0, flip_per_mille: int = 0) -> None:
        self._command(f"faults {seed} {drop_per_mille} {flip_per_mille}")

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self._command(f"speed {speed}")

    def cycles(self, timeout: float = 5.0) -> int:
        """The chip's cycle count now (16 million a second of chip time)."""
        with self._cond:
            asked = self._cycle_answers
        self._command("cycle")
        if not self.wait_for(lambda: self._cycle_answers > asked, timeout):
            raise RuntimeError("board_sim did not report its cycle count")
        return self._last_cycle

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Waits until ``predicate()`` holds (it is checked at every event of the chip)."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # -- what a player sees -------------------------------------------------------------------------

    def shows(self, text: str) -> bool:
        """True when the display's lit segments are exactly ``text``'s glyphs."""
        return self.display.lit == segments.render(text)

    def snapshot(self) -> dict[str, Any]:
        with self._cond:
            lit = self.display.lit
            return {
                "port": self._path,
                "leds": list(self.leds),
                "display": segments.read(lit),
                "segments": list(lit),
                "brightness": self.display.intensity,
                "frames": self.frames,
                "words": self.display.words,
                "errors": list(self.errors),
                "runs": self.runs,
            }

    # -- the event stream ---------------------------------------------------------------------------

    def _read_events(self) -> None:
        proc = self._proc
        assert proc and proc.stdout
        for raw in proc.stdout:
            line = raw.strip()
            with self._cond:
                self.log.append(line)
                kind, _, rest = line.partition(" ")
                if kind == "PTY":
                    self._path = rest
                elif kind == "SPI":
                    self.display.latch(int(rest, 16))
                    lit = self.display.lit
                    if not self.display_history or self.display_history[-1] != lit:
                        self.display_history.append(lit)
                elif kind == "LEDS":
                    self.leds = tuple("#" + c for c in rest.split())
                    self.led_history.append(self.leds)
                    self.frames += 1
                elif kind in ("RUN", "RESET"):
                    self.runs += 1
                elif kind == "OPEN":
                    self.opens += 1
                elif kind == "CYCLE":
                    self._last_cycle = int(rest)
                    self._cycle_answers += 1
                elif kind in ("WSBAD", "SPIBAD", "EXIT"):
                    self.errors.append(line)
                self._cond.notify_all()
        with self._cond:
            self.errors.append("EXIT stream closed")
            self._cond.notify_all()

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc and proc.stderr
        for raw in proc.stderr:
            self._stderr.append(raw.rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.simulated",
        description="Run the real firmware in simavr and print its pseudo-terminal.")
    parser.add_argument("--speed", type=float, default=1.0, help="1 = real time, 0 = flat out")
    parser.add_argument("--link", metavar="PATH", help="also keep a symlink to the port here")
    ns = parser.parse_args(argv)
    board = SimulatedBoard(speed=ns.speed, link_path=ns.link)
    print(board.start(), flush=True)

    def seen() -> tuple:
        snap = board.snapshot()
        return snap["display"], tuple(snap["leds"])

    shown: tuple = ()
    try:
        while True:
            board.wait_for(lambda: seen() != shown, 3600)
            shown = seen()
            print(f"[{shown[0]}] " + " ".join(shown[1]), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
