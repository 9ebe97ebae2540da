"""The host's link to the table board: one thread that owns the serial port.

:class:`BoardLink` finds the board (by USB id, or the port or pyserial URL it is given), opens
it, waits out the reset that opening causes on an Arduino, handshakes (``HELLO``), sends the
whole wanted state (``STATE``), then sends each queued command and waits for its
acknowledgement, resending what goes unanswered. It notices a board that restarted (``READY``,
or ``NO HELLO``), a port that vanished and a board that stopped answering, and reconnects with
backoff, restoring the full state every time.

The caller never waits: :meth:`BoardLink.send` updates the wanted state, queues the command
and returns a :class:`Ticket` at once. Lasting settings (seats, scores, turn, view, pulse,
brightness) are never lost: whatever happens to the line, the board ends up showing the latest
wanted state. Moments (FLASH, TEXT, TEST) are shown at most once: one that waited more than
``stale_after`` seconds for a link, or was on the wire when the link broke, is dropped rather
than shown late or twice.

Statuses, reported to ``on_status(status, detail)`` at every change:
``connecting`` (first attempt), ``connected``, ``reconnecting`` (after a loss),
``lost`` (several attempts failed; it keeps trying, slower), ``absent`` (``port="auto"`` and no
board with a known USB id is plugged in).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from hardware.ports import find_boards
from hardware.protocol import (BAUD, MAX_SEQ, PROTO_VERSION, Command, LineSplitter, Reply,
                               parse_reply)
from hardware.settings import BoardSettings

log = logging.getLogger(__name__)

STATUSES = ("connecting", "connected", "reconnecting", "lost", "absent")
StatusCallback = Callable[[str, str], None]


class _LinkDown(Exception):
    """The port or the board stopped working; reconnect."""


class _BoardRestarted(Exception):
    """The board rebooted and forgot everything; handshake and restore on the same port."""


class _Stopping(Exception):
    pass


class Ticket:
    """What became of one command. ``outcome`` is None while pending, then one of:
    ``ok``, ``dup`` (acknowledged as a resend), ``refused`` (the board said NO; ``detail``
    says why), ``restored`` (a lasting setting the link sent as part of a full STATE instead),
    ``stale`` / ``interrupted`` (a moment dropped: too old, or on the wire when the link
    broke), ``stopped`` (the link was stopped first)."""

    def __init__(self, command: Command, on_done: Callable[[Ticket], None] | None = None):
        self.command = command
        self._on_done = on_done
        self.submitted = time.monotonic()
        self.done_at: float | None = None
        self.outcome: str | None = None
        self.detail = ""
        self._event = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)

    @property
    def done(self) -> bool:
        return self._event.is_set()

    def _finish(self, outcome: str, detail: str = "") -> None:
        if not self._event.is_set():
            self.outcome, self.detail = outcome, detail
            self.done_at = time.monotonic()
            self._event.set()
            if self._on_done:
                self._on_done(self)

    def __repr__(self) -> str:
        return f"Ticket({self.command}, {self.outcome or 'pending'})"


@dataclass
class LinkStats:
    """Counters of the link's life, for tests, the dashboard and the benchmark."""

    sent: int = 0           # commands written for the first time
    resent: int = 0         # commands written again after silence or a damaged line
    acked: int = 0
    duplicates: int = 0     # acknowledgements that said DUP: the board had it already
    refused: int = 0
    noise: int = 0          # lines from the board that failed their checksum or made no sense
    connects: int = 0       # successful handshakes
    restores: int = 0       # full STATE lines sent after a (re)connection
    board_restarts: int = 0
    round_trips_ms: deque = field(default_factory=lambda: deque(maxlen=10000))


class BoardLink:
    """The link to one table board. ``port``: ``"auto"`` (search by USB id), a device path, or
    any pyserial URL (``loop://``, ``socket://host:port``, ``rfc2217://host:port``...).

    Timing knobs (seconds): ``reset_wait`` how long to wait for READY after opening (a real
    Uno's bootloader plus self-test take about 1.7 s; the wait ends early when READY comes),
    ``ack_timeout`` per try (the line's own transmission time is added), ``retries`` extra
    tries before the board counts as gone, ``heartbeat`` a PING after that much silence,
    ``backoff`` first and longest pause between reconnection attempts, ``lost_after`` failed
    attempts before ``reconnecting`` becomes ``lost``, ``stale_after`` age at which a waiting
    moment (FLASH, TEXT) is dropped."""

    def __init__(self, port: str = "auto", *, on_status: StatusCallback | None = None,
                 baudrate: int = BAUD, reset_wait: float = 3.5, ack_timeout: float = 0.25,
                 retries: int = 4, heartbeat: float = 1.0,
                 backoff: tuple[float, float] = (0.25, 5.0), lost_after: int = 3,
                 stale_after: float = 1.0):
        self.port = port
        self.on_status = on_status
        self.baudrate = baudrate
        self.reset_wait = reset_wait
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.heartbeat = heartbeat
        self.backoff = backoff
        self.lost_after = lost_after
        self.stale_after = stale_after
        self.stats = LinkStats()
        self.board_info: dict[str, str] = {}
        self.last_error = ""        # the latest reason the board could not be reached
        self.port_in_use: str | None = None
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._queue: deque[Ticket] = deque()
        self._inflight: Ticket | None = None
        self._unfinished: set[Ticket] = set()   # every ticket handed out without an outcome
        self._desired = BoardSettings()
        self._status = "connecting"
        self._detail = "not started"
        self._changes: deque[tuple[int, str, str]] = deque(maxlen=500)   # (number, status, detail)
        self._change_count = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._seq = 0
        self._serial = None
        self._port_lock = threading.Lock()   # guards _serial between the thread and _wake()
        self._splitter = LineSplitter()
        self._candidate = 0

    # -- the caller's side: never blocks --------------------------------------------------------

    def start(self) -> None:
        if self._thread and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Stops the thread and closes the port; pending commands end as ``stopped``."""
        self._stop.set()
        self._wake()
        if self._thread:
            self._thread.join(timeout)
        with self._lock:
            for ticket in self._queue:
                ticket._finish("stopped")
            self._queue.clear()
            self._cond.notify_all()

    @property
    def status(self) -> str:
        return self._status

    @property
    def detail(self) -> str:
        return self._detail

    @property
    def desired(self) -> BoardSettings:
        """What the board should show (the board shows it once the queue is empty)."""
        with self._lock:
            return self._desired

    def send(self, verb: str, *args: object) -> Ticket:
        """Queues one command and returns at once. ValueError for a command the board would
        refuse (a bug in the caller, not a line problem)."""
        return self.send_command(Command(verb, tuple(str(a) for a in args)))

    def send_command(self, cmd: Command) -> Ticket:
        cmd.line(MAX_SEQ)               # raises if it would not fit in a line
        with self._lock:
            self._desired = self._desired.apply(cmd)
            ticket = Ticket(cmd, self._ticket_done)
            self._unfinished.add(ticket)
            self._queue.append(ticket)
            self._cond.notify_all()
        self._wake()
        return ticket

    def wait_idle(self, timeout: float) -> bool:
        """Waits until every command sent so far has an outcome (for tests and the CLI)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._unfinished, timeout)

    def _ticket_done(self, ticket: Ticket) -> None:
        with self._lock:
            self._unfinished.discard(ticket)
            self._cond.notify_all()

    @property
    def changes(self) -> int:
        """How many status changes there have been: a mark for :meth:`wait_statuses`."""
        return self._change_count

    def wait_statuses(self, statuses: tuple[str, ...], *, since: int, timeout: float) -> bool:
        """Waits until these statuses were reported, in this order, after change number
        ``since``; unlike :meth:`wait_status` it cannot miss one that passed quickly."""
        def seen() -> bool:
            wanted = list(statuses)
            for number, status, _ in self._changes:
                if number > since and wanted and status == wanted[0]:
                    wanted.pop(0)
            return not wanted

        with self._cond:
            return self._cond.wait_for(seen, timeout)

    def wait_status(self, wanted: str | tuple[str, ...], timeout: float) -> bool:
        wanted = (wanted,) if isinstance(wanted, str) else wanted
        with self._cond:
            return self._cond.wait_for(lambda: self._status in wanted, timeout)

    # -- the thread -----------------------------------------------------------------------------

    def _wake(self) -> None:
        """Cuts short the thread's wait for bytes, so a new command goes out at once."""
        with self._port_lock:
            cancel = getattr(self._serial, "cancel_read", None)
            if cancel:
                try:
                    cancel()
                except (OSError, ValueError, AttributeError, TypeError):
                    pass

    def _set_status(self, status: str, detail: str) -> None:
        with self._lock:
            if (status, detail) == (self._status, self._detail):
                return
            self._status, self._detail = status, detail
            self._change_count += 1
            self._changes.append((self._change_count, status, detail))
            self._cond.notify_all()
        log.info("board %s: %s", status, detail)
        if self.on_status:
            try:
                self.on_status(status, detail)
            except Exception:  # a broken listener must not take the link down
                log.exception("board status listener failed")

    def _resolve(self) -> str | None:
        if self.port != "auto":
            return self.port
        boards = find_boards()
        if not boards:
            return None
        return boards[self._candidate % len(boards)].device

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            ever_connected = self.stats.connects > 0
            target = self._resolve()
            if target is None:
                self._set_status("absent", "no board with a known USB id (Arduino Uno or Nano)"
                                 " is plugged in; plug it in or give its port")
                self._drop_stale()
                self._pause(failures)
                failures += 1
                continue
            if failures < self.lost_after:
                self._set_status("reconnecting" if ever_connected else "connecting",
                                 f"opening {target}")
            try:
                ser = self._open(target)
            except (OSError, ValueError) as exc:   # SerialException is an OSError
                failures += 1
                self._failed(failures, f"cannot open {target}: {_reason(exc)}")
                continue
            self.port_in_use = target
            try:
                self._session(ser)
                return
            except _Stopping:
                return
            except _LinkDown as exc:
                broke = exc
            finally:
                with self._port_lock:
                    self._serial = None
                try:
                    ser.close()
                except (OSError, ValueError):
                    pass
                self._interrupt_inflight()
            self.last_error = str(broke)
            if self._status == "connected":
                # It worked, then broke: start again from the shortest pause.
                failures = 1
                self._set_status("reconnecting", f"{broke}; reconnecting")
                self._drop_stale()
                self._pause(0)
            else:
                failures += 1
                self._failed(failures, str(broke))

    def _failed(self, failures: int, detail: str) -> None:
        self.last_error = detail
        self._candidate += 1     # with port="auto", try the next candidate next time
        if failures >= self.lost_after:
            self._set_status("lost", detail)
        else:
            self._set_status("reconnecting" if self.stats.connects else "connecting", detail)
        self._drop_stale()
        self._pause(failures)

    def _pause(self, failures: int) -> None:
        first, longest = self.backoff
        self._stop.wait(min(longest, first * (2 ** min(failures, 16))))

    def _open(self, target: str):
        import serial

        ser = serial.serial_for_url(target, baudrate=self.baudrate, timeout=0.02,
                                    write_timeout=2.0, do_not_open=True)
        if hasattr(ser, "exclusive"):
            try:
                ser.exclusive = True
            except (ValueError, AttributeError, NotImplementedError):
                pass
        ser.open()
        with self._port_lock:
            self._serial = ser
        self._splitter.clear()
        return ser

    def _session(self, ser) -> None:
        if self._status != "lost":
            self._set_status(self._status, f"{self.port_in_use} open, waiting for the board to "
                             "start (opening its port resets it)")
        self._await_ready(ser)
        restarts_in_a_row = 0
        while True:
            try:
                self._handshake(ser)
                restarts_in_a_row = 0
                self._serve(ser)
                return
            except _BoardRestarted as exc:
                self.stats.board_restarts += 1
                restarts_in_a_row += 1
                self._interrupt_inflight()
                if restarts_in_a_row > 3:
                    raise _LinkDown(f"the board keeps restarting ({exc}); check its power "
                                    "supply") from exc
                self._set_status("reconnecting", f"{exc}; restoring its state")

    def _await_ready(self, ser) -> None:
        """Opening an Arduino's port resets it: wait for its READY (or reset_wait seconds, for
        boards and URLs that do not reset) before speaking."""
        deadline = time.monotonic() + self.reset_wait
        while time.monotonic() < deadline:
            if self._stop.is_set():
                raise _Stopping()
            for reply in self._read(ser, deadline - time.monotonic()):
                if reply.kind == "READY":
                    return

    def _handshake(self, ser) -> None:
        reply = self._exchange(ser, Command("HELLO", (str(PROTO_VERSION),)), hello=True)
        if reply.kind == "NO":
            raise _LinkDown(f"the board refused the handshake ({reply.reason} {reply.text}); "
                            "flash the firmware from firmware_docs/ that matches this program")
        self.board_info = dict(reply.fields)
        self.stats.connects += 1
        # The full state stands for every lasting setting queued so far; moments stay queued
        # unless they are already too old to show.
        with self._lock:
            state = self._desired.state_command()
            covered = [t for t in self._queue if not t.command.transient]
            self._queue = deque(t for t in self._queue if t.command.transient)
        self._drop_stale()
        try:
            reply = self._exchange(ser, state)
        except BaseException:
            with self._lock:
                self._queue.extendleft(reversed(covered))
            raise
        if reply.kind == "NO":   # not with a sane firmware: STATE comes from checked settings
            raise _LinkDown(f"the board refused the full state ({reply.reason} {reply.text})")
        with self._lock:
            for ticket in covered:
                ticket._finish("restored")
            self._cond.notify_all()
        self.stats.restores += 1
        fw = self.board_info.get("fw", "?")
        self._set_status("connected", f"{self.port_in_use}, firmware {fw}")

    def _serve(self, ser) -> None:
        last = time.monotonic()
        while True:
            if self._stop.is_set():
                raise _Stopping()
            ticket = self._take()
            if ticket is not None:
                reply = self._exchange(ser, ticket.command)
                with self._lock:
                    self._inflight = None
                    if reply.kind == "OK":
                        ticket._finish("dup" if reply.duplicate else "ok")
                    else:
                        self.stats.refused += 1
                        log.warning("board refused %s: %s %s", ticket.command, reply.reason,
                                    reply.text)
                        ticket._finish("refused", f"{reply.reason} {reply.text}")
                    self._cond.notify_all()
                last = time.monotonic()
                continue
            if time.monotonic() - last >= self.heartbeat:
                self._exchange(ser, Command("PING"))
                last = time.monotonic()
                continue
            for reply in self._read(ser, 0.05, idle=True):
                if reply.kind == "READY":
                    raise _BoardRestarted("the board restarted")

    def _take(self) -> Ticket | None:
        with self._lock:
            now = time.monotonic()
            while self._queue:
                # A long backlog of settings is replaced by one full STATE.
                lasting = [t for t in self._queue if not t.command.transient]
                if len(lasting) > 8:
                    ticket = Ticket(self._desired.state_command())
                    for t in lasting:
                        t._finish("restored")
                    self._queue = deque(t for t in self._queue if t.command.transient)
                    self._inflight = ticket
                    return ticket
                ticket = self._queue.popleft()
                if ticket.command.transient and now - ticket.submitted > self.stale_after:
                    ticket._finish("stale", "waited too long for the board")
                    continue
                self._inflight = ticket
                return ticket
            self._cond.notify_all()
            return None

    def _drop_stale(self) -> None:
        with self._lock:
            now = time.monotonic()
            for t in [t for t in self._queue
                      if t.command.transient and now - t.submitted > self.stale_after]:
                t._finish("stale", "waited too long for the board")
                self._queue.remove(t)
            self._cond.notify_all()

    def _interrupt_inflight(self) -> None:
        with self._lock:
            ticket, self._inflight = self._inflight, None
            if ticket is not None:
                if ticket.command.transient:
                    ticket._finish("interrupted", "the link broke while it was being sent")
                else:
                    # Put back: the restore covers it, and marks it so.
                    self._queue.appendleft(ticket)
            self._cond.notify_all()

    def _next_seq(self) -> int:
        self._seq = self._seq % MAX_SEQ + 1
        return self._seq

    def _exchange(self, ser, cmd: Command, *, hello: bool = False) -> Reply:
        """Sends one command until it is acknowledged or refused. Raises _LinkDown after
        1 + retries unanswered tries, _BoardRestarted when the board shows it rebooted."""
        seq = self._next_seq()
        line = cmd.line(seq)
        noise_before = self.stats.noise
        for attempt in range(1 + self.retries):
            data = line if attempt == 0 else b"\n" + line   # the newline ends any partial line
            written = time.monotonic()
            try:
                ser.write(data)
            except (OSError, ValueError) as exc:
                raise _LinkDown(f"the port went away ({_reason(exc)})") from exc
            if attempt == 0:
                self.stats.sent += 1
            else:
                self.stats.resent += 1
            deadline = written + self.ack_timeout + 2 * len(data) * 10 / self.baudrate
            damaged = False
            while not damaged:
                if self._stop.is_set():
                    raise _Stopping()
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                for reply in self._read(ser, left):
                    if reply.kind == "READY" and not hello:
                        raise _BoardRestarted("the board restarted")
                    if reply.seq == seq:
                        if reply.kind == "OK":
                            self.stats.acked += 1
                            self.stats.duplicates += reply.duplicate
                            if attempt == 0:
                                self.stats.round_trips_ms.append(
                                    (time.monotonic() - written) * 1000)
                            return reply
                        if reply.reason == "HELLO" and not hello:
                            raise _BoardRestarted("the board forgot the link (it restarted)")
                        return reply
                    if reply.kind == "NO" and reply.seq is None:
                        damaged = True   # a line reached it damaged: most likely this one
        noise = self.stats.noise - noise_before
        if noise:
            raise _LinkDown(f"the device on {self.port_in_use} sent {noise} lines that are not "
                            "the board's protocol (another device, a different firmware or "
                            "speed?)")
        raise _LinkDown(f"no answer from the board on {self.port_in_use} after "
                        f"{1 + self.retries} tries")

    def _read(self, ser, timeout: float, *, idle: bool = False) -> list[Reply]:
        """Checked replies arriving within ``timeout`` seconds (returns at the first ones, and
        when ``idle``, as soon as a command is queued)."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                waiting = ser.in_waiting
                data = ser.read(waiting or 1)
            except (OSError, ValueError, TypeError) as exc:
                raise _LinkDown(f"the port went away ({_reason(exc)})") from exc
            replies = []
            for raw in self._splitter.feed(data):
                reply = parse_reply(raw)
                if reply is None:
                    self.stats.noise += 1
                else:
                    replies.append(reply)
            if (replies or time.monotonic() >= deadline or self._stop.is_set()
                    or (idle and self._queue)):
                return replies


def _reason(exc: BaseException) -> str:
    """One short phrase for an OS or pyserial error."""
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code > 0:
        return os.strerror(code)
    text = str(exc) or type(exc).__name__
    if "returned no data" in text:
        return "device disconnected"
    return text.splitlines()[0]
