"""``companion bench device``: command-to-acknowledgement round trips of the board link.

Each command goes through the real host link (:class:`hardware.link.BoardLink`) to a board and
back, one at a time, as the referee's commands do. Two boards: the emulated one (Python, on a
pseudo-terminal) and the real firmware running in simavr at real-time speed (so its UART takes
the time a real one would). Next to each figure: the time the bytes themselves take on the wire
at the protocol's 57600 baud (10 bits a byte, command and reply), the floor a real board adds to.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

HELP = "serial link: command-to-acknowledgement round trips against the emulated firmware"

COMMANDS: list[tuple[str, tuple[str, ...]]] = [
    ("PING", ()),
    ("SCORE", ("0", "12")),
    ("STATE", ("b=8", "t=0", "v=S0", "p=0") + tuple(f"{c}:{100 + i}" for i, c in enumerate(
        ["ff0000", "ffc800", "0000ff", "00ff00", "ffffff", "282828", "ff6400", "9600ff"]))),
]


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--count", type=int, default=200, help="round trips per command")
    parser.add_argument("--skip-simulated", action="store_true",
                        help="only the Python emulated board (no avr-gcc/simavr needed)")


def _reply_bytes(seq: int) -> int:
    return len(f"OK {seq}*ABCD\r\n")


def _measure(link, verb: str, args: tuple[str, ...], count: int) -> dict[str, Any]:
    from companion.bench.common import summary_ms
    from hardware.protocol import BAUD, Command

    cmd = Command(verb, args)
    before = len(link.stats.round_trips_ms)
    submit_to_done = []
    for _ in range(count):
        ticket = link.send_command(cmd)
        if not ticket.wait(5.0) or ticket.outcome not in ("ok", "dup"):
            raise RuntimeError(f"{cmd} was not acknowledged: {ticket.outcome} {link.detail}")
        submit_to_done.append((ticket.done_at - ticket.submitted) * 1000)
    wire = list(link.stats.round_trips_ms)[before:]
    line = len(cmd.line(1234))
    wire_ms = (line + _reply_bytes(1234)) * 10 / BAUD * 1000
    s_wire, s_done = summary_ms(wire), summary_ms(submit_to_done)
    return {"command": verb, "bytes out+back": line + _reply_bytes(1234),
            "on the wire at 57600 ms": round(wire_ms, 3),
            "write-to-ack median ms": s_wire["median_ms"], "write-to-ack p95 ms": s_wire["p95_ms"],
            "send-to-ack median ms": s_done["median_ms"], "send-to-ack p95 ms": s_done["p95_ms"],
            "n": s_wire["n"]}


def _run_against(board_name: str, path: str, count: int) -> list[dict[str, Any]]:
    from hardware.link import BoardLink

    link = BoardLink(path, reset_wait=5.0, heartbeat=30.0)
    link.start()
    try:
        if not link.wait_status("connected", 15):
            raise RuntimeError(f"{board_name}: no link ({link.last_error or link.detail})")
        link.send("SEATS", "ff0000", "0000ff").wait(5)
        rows = []
        for verb, args in COMMANDS:
            row = {"board": board_name}
            row.update(_measure(link, verb, args, count))
            rows.append(row)
        return rows
    finally:
        link.stop()


def run(args: argparse.Namespace) -> dict[str, Any]:
    from companion.bench.common import pin_one_core, print_table
    from hardware.emulated import EmulatedBoard

    pinned = pin_one_core()
    rows: list[dict[str, Any]] = []
    with EmulatedBoard() as board:
        rows += _run_against("emulated (Python)", board.path, args.count)
    speed = None
    if not args.skip_simulated:
        from hardware.simulated import SimulatedBoard

        with tempfile.TemporaryDirectory() as tmp:
            sim = SimulatedBoard(speed=1.0, link_path=str(Path(tmp) / "board"))
            sim.start()
            try:
                rows += _run_against("firmware in simavr, real time", sim.path, args.count)
            finally:
                sim.stop()
            speed = _free_running_speed()
    print_table("Serial link: command to acknowledgement", rows)
    if speed is not None:
        print(f"\nsimavr free-running: {speed:.2f} x real time (16 MHz ATmega328P); {pinned}")
    return {"rows": rows, "simavr_free_running_x_real_time": speed, "pinning": pinned}


def _free_running_speed() -> float:
    """How many times faster than real time the emulated chip runs unthrottled: chip time from
    the port's opening (which starts the chip) to its READY, over the wall-clock time."""
    import serial

    from hardware.simulated import SimulatedBoard

    sim = SimulatedBoard(speed=0.0)
    sim.start()
    try:
        opened = time.monotonic()
        with serial.Serial(sim.path, 57600, timeout=5) as port:
            banner = port.readline()
            wall = time.monotonic() - opened
            if not banner.startswith(b"READY"):
                raise RuntimeError(f"the simulated board sent {banner!r} instead of READY")
            cycles = sim.cycles()
        return cycles / 16e6 / wall
    finally:
        sim.stop()
