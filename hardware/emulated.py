"""An emulated table board: the firmware's behaviour in Python behind a pseudo-terminal.

It stands in for the board on machines without one (the demo, the dashboard, most tests): any
program that can open a serial port can talk to it, :class:`hardware.link.BoardLink` included,
and :meth:`EmulatedBoard.snapshot` says what its lights and display show. Like an Uno it
reboots (self-test, then ``READY``) every time a program opens its port, since that is what the
real board's DTR reset does and the host must cope with it.

    board = EmulatedBoard()
    path = board.start()            # "/dev/pts/7"
    link = BoardLink(path); link.start()
    ...
    board.snapshot()["display"]     # "P1    12"
    board.stop()

``python -m hardware.emulated`` runs one and prints its port, for any serial tool.

Faults for tests: :meth:`reset` (a reboot mid-game), :meth:`unplug` / :meth:`plug` (the port
goes away and comes back, at ``link_path`` when one is given), :meth:`set_faults` (bytes
dropped or corrupted both ways, from a seeded generator).
"""

from __future__ import annotations

import argparse
import os
import random
import select
import signal
import threading
import time
import tty
from typing import Any

from hardware import segments
from hardware.colours import to_hex
from hardware.model import SELFTEST_STEP_MS, BoardModel, LineReader

POLL_MS = 5


class EmulatedBoard:
    def __init__(self, *, link_path: str | None = None, boot_ms: int | None = None):
        """``link_path``: keep a symlink there to the current pty (it survives unplug/plug, as a
        udev name would). ``boot_ms``: how long the boot self-test lasts before READY (default:
        the firmware's 600 ms)."""
        self.link_path = link_path
        self.boot_ms = boot_ms
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._path = ""
        self._t0 = time.monotonic()
        self._model = BoardModel(self._now())
        self._reader = LineReader()
        self._open = False        # a program has the port open
        self._powered = False     # False while unplugged or before the first opening
        self._announced = False   # READY sent since the last boot
        self._rng: random.Random | None = None
        self._drop = self._flip = 0
        self._out = bytearray()
        self.boots = 0
        self._changed = threading.Condition(self._lock)

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> str:
        """Creates the pseudo-terminal and starts answering; returns its ``/dev/pts/N`` path."""
        with self._lock:
            if self._thread:
                return self._path
            self._make_pty()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="emulated-board", daemon=True)
            self._thread.start()
            return self._path

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._thread = None
        with self._lock:
            self._close_pty()

    def __enter__(self) -> EmulatedBoard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def path(self) -> str:
        """The current pty path (it changes at every :meth:`plug`)."""
        return self._path

    # -- faults ---------------------------------------------------------------------------------

    def reset(self, *, announce: bool = True) -> None:
        """Reboots the board now, as a reset button or a brown-out would. ``announce=False``:
        its READY line is lost on the wire (the host must notice some other way)."""
        with self._lock:
            self._boot()
            self._announced = not announce

    def unplug(self) -> None:
        """The cable is pulled: the port disappears and the board loses power."""
        with self._lock:
            self._close_pty()
            self._powered = False
            self._open = False
            self._changed.notify_all()

    def plug(self) -> str:
        """The cable is back: a new port (same ``link_path``), the board waits to be opened."""
        with self._lock:
            if self._master is None:
                self._make_pty()
            return self._path

    def set_faults(self, seed: int, drop_per_mille: int = 0, flip_per_mille: int = 0) -> None:
        """From now on, drop or flip a bit in that many bytes per thousand, both ways."""
        with self._lock:
            self._rng = random.Random(seed) if drop_per_mille or flip_per_mille else None
            self._drop, self._flip = drop_per_mille, flip_per_mille

    # -- what it shows --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The lights and display now, for the dashboard and the demo (JSON-ready)."""
        with self._lock:
            now = self._now()
            m = self._model
            shown = m.render(now)
            s = m.settings
            return {
                "port": self._path,
                "open": self._open,
                "powered": self._powered,
                "linked": m.linked,
                "self_test": self._powered and m.self_testing(now),
                "leds": ["#" + to_hex(c) for c in shown.leds] if self._powered
                else ["#000000"] * len(shown.leds),
                "display": segments.read(shown.digits) if self._powered else " " * 8,
                "segments": list(shown.digits) if self._powered else [0] * 8,
                "brightness": shown.brightness,
                "seats": ["#" + to_hex(c) for c in s.colours],
                "scores": list(s.scores),
                "turn": s.turn,
                "view": s.view,
                "pulse": s.pulse,
                "boots": self.boots,
            }

    @property
    def executed(self) -> list[str]:
        """Every command carried out since the last boot ("12 SCORE 0 5"); resends that were
        recognised as such are not in it."""
        with self._lock:
            return list(self._model.executed)

    def wait_open(self, timeout: float) -> bool:
        """Waits until a program has the port open."""
        with self._changed:
            return self._changed.wait_for(lambda: self._open, timeout)

    def wait_closed(self, timeout: float) -> bool:
        """Waits until no program has the port open. (The board notices a closing within a few
        milliseconds; a program that closes and reopens faster than that is taken as having
        kept it open, so the board does not reboot.)"""
        with self._changed:
            return self._changed.wait_for(lambda: not self._open, timeout)

    # -- inside ---------------------------------------------------------------------------------

    def _now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _make_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)           # no echo, no line editing, 8 bits through
        self._path = os.ttyname(slave)
        os.close(slave)             # with no slave open, poll() reports HUP until a program opens it
        os.set_blocking(master, False)
        self._master = master
        self._open = False
        if self.link_path:
            tmp = self.link_path + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self._path, tmp)
            os.replace(tmp, self.link_path)

    def _close_pty(self) -> None:
        if self._master is not None:
            os.close(self._master)
            self._master = None
        if self.link_path and os.path.lexists(self.link_path):
            os.unlink(self.link_path)

    def _boot(self) -> None:
        now = self._now()
        self._model.begin(now)
        if self.boot_ms is not None:
            # A shorter self-test: start it as if it had begun earlier.
            full = 4 * SELFTEST_STEP_MS
            self._model.test_start = now - (full - max(0, min(self.boot_ms, full)))
        self._reader = LineReader()
        self._out.clear()
        self._powered = True
        self._announced = False
        self.boots += 1

    def _wire(self, data: bytes) -> bytes:
        if not self._rng:
            return data
        out = bytearray()
        for b in data:
            if self._rng.randrange(1000) < self._drop:
                continue
            if self._rng.randrange(1000) < self._flip:
                b ^= 1 << self._rng.randrange(8)
            out.append(b)
        return bytes(out)

    def _run(self) -> None:
        poller = select.poll()
        registered: int | None = None
        while not self._stop.is_set():
            with self._lock:
                master = self._master
            if master is None:                      # unplugged
                self._stop.wait(POLL_MS / 1000)
                continue
            if registered != master:
                if registered is not None:
                    poller.unregister(registered)
                poller.register(master, select.POLLIN)
                registered = master
            events = poller.poll(POLL_MS)
            closed = any(ev & select.POLLHUP for _, ev in events)
            readable = any(ev & select.POLLIN for _, ev in events)
            with self._lock:
                if master != self._master:          # unplugged meanwhile
                    continue
                if closed:
                    if self._open:
                        self._open = False          # the board runs on, unheard
                        self._changed.notify_all()
                elif not self._open:
                    self._open = True               # opened: DTR resets the board
                    self._boot()
                    self._changed.notify_all()
                if self._open:
                    self._serve(master, readable)
            if closed:
                # A pty with nobody at the other end polls as HUP at once: do not spin.
                self._stop.wait(POLL_MS / 1000)

    def _serve(self, master: int, readable: bool) -> None:
        now = self._now()
        m = self._model
        booting = m.self_testing(now)
        if not booting and not self._announced:
            self._announced = True
            self._out += self._wire(m.ready_banner())
        if readable and not booting:
            try:
                data = os.read(master, 4096)
            except OSError:
                data = b""
            for byte in self._wire(data):
                got = self._reader.feed(byte)
                if got:
                    self._out += self._wire(m.on_event(got[0], got[1], self._now()))
        if self._out:
            try:
                n = os.write(master, self._out)
                del self._out[:n]
            except OSError:
                self._out.clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.emulated",
        description="Run an emulated table board on a pseudo-terminal and print its port.")
    parser.add_argument("--link", metavar="PATH", help="also keep a symlink to the port here")
    parser.add_argument("--watch", action="store_true",
                        help="print the display and lights whenever they change")
    ns = parser.parse_args(argv)
    board = EmulatedBoard(link_path=ns.link)
    print(board.start(), flush=True)
    last = None
    ticker = threading.Event()      # never set: its wait() is the watcher's sampling period
    try:
        while True:
            if not ns.watch:
                signal.pause()
                continue
            ticker.wait(0.05)
            snap = board.snapshot()
            view = (snap["display"], tuple(snap["leds"]))
            if view != last:
                last = view
                print(f"[{snap['display']}] " + " ".join(snap["leds"]), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
