"""``companion device list | test | show``: find the table board, light its test pattern, show
scores by hand. The board is the microcontroller of ``firmware_docs/`` (see WIRING.md)."""

from __future__ import annotations

import argparse
import threading

from companion.errors import UserError

HELP = "the table board: list boards, run a test pattern, show scores by hand"


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="serial ports with a known Arduino Uno/Nano USB id")
    p.add_argument("--all", action="store_true", help="list every serial port, board or not")
    p = sub.add_parser("test", help="handshake, then light every seat, digit and effect")
    _port_options(p)
    p.add_argument("--step", type=float, default=0.4, metavar="SECONDS",
                   help="how long each part of the pattern stays on (default 0.4)")
    p = sub.add_parser("show", help="show scores by hand, e.g. --scores red=12,blue=7")
    _port_options(p)
    p.add_argument("--scores", required=True, metavar="SEAT=N,...",
                   help="seats in play order with their scores (seats are colour names)")
    p.add_argument("--active", metavar="SEAT", help="whose turn it is (lit brighter, shown)")
    p.add_argument("--brightness", type=int, default=8, metavar="0-15")


def _port_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", default="auto",
                   help="device path or pyserial URL (default: find the board by USB id)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the board to answer (default 10)")


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return _list(args)
    if args.action == "test":
        return _test(args)
    return _show(args)


def _list(args: argparse.Namespace) -> int:
    from hardware.ports import KNOWN_IDS, all_ports, find_boards

    ports = all_ports() if args.all else find_boards()
    if not ports:
        known = ", ".join(f"{v:04X}:{p:04X}" for v, p in KNOWN_IDS)
        print("no board found" + (" (no serial port at all)" if args.all else
                                  f" (known USB ids: {known})")
              + "; plug the board in, or give its port with --port")
        return 0
    width = max(len(p.device) for p in ports)
    for p in ports:
        print(f"{p.device:<{width}}  {p.usb_id:<9}  {p.known_as or p.description or '-'}")
    return 0


def _connect(args: argparse.Namespace):
    from hardware.link import BoardLink

    link = BoardLink(args.port)
    link.start()
    # "lost" means several attempts failed already: say why now rather than at the timeout.
    if not link.wait_status(("connected", "lost"), args.timeout) or link.status != "connected":
        status, detail = link.status, link.last_error or link.detail
        link.stop()
        if status == "absent":
            raise UserError("no board found by USB id",
                            hint="plug it in, or give its port with --port (companion device list)")
        if detail.startswith("cannot open"):
            raise UserError(detail, hint="companion device list shows the boards found; check "
                            "that no other program (a serial monitor) holds the port")
        raise UserError(f"the board on {args.port} did not answer within {args.timeout:g} s: "
                        f"{detail}", hint="check the cable and that the firmware of "
                        "firmware_docs/ is flashed (WIRING.md)")
    return link


def _settle(link, tickets, what: str, timeout: float) -> None:
    if not link.wait_idle(timeout):
        raise UserError(f"the board stopped answering during {what}: {link.detail}")
    refused = [t for t in tickets if t.outcome == "refused"]
    if refused:
        raise UserError(f"the board refused {refused[0].command} ({refused[0].detail})",
                        hint="its firmware may be older than this program: flash firmware_docs/")
    lost = [t for t in tickets if t.outcome not in ("ok", "dup", "restored")]
    if lost:
        raise UserError(f"{lost[0].command} did not reach the board ({lost[0].outcome}): "
                        f"{link.detail}")


def _hold(seconds: float) -> None:
    """Leaves a part of the pattern on for people to see."""
    threading.Event().wait(max(0.0, seconds))


def _test(args: argparse.Namespace) -> int:
    from hardware.colours import SEAT_COLOURS, to_hex

    link = _connect(args)
    try:
        info = link.board_info
        print(f"board on {link.port_in_use}: firmware {info.get('fw', '?')}, protocol "
              f"{info.get('proto', '?')}, {info.get('leds', '?')} lights, "
              f"{info.get('digits', '?')} digits")
        colours = [to_hex(c) for c in SEAT_COLOURS.values()]
        steps = [
            ("self-test: red, green, blue, then the seat colours; all segments, then 1 to 8",
             [("TEST",)], max(args.step, 0.6)),
            ("seat lights in seat order: " + ", ".join(SEAT_COLOURS),
             [("SEATS", *colours), ("BRIGHT", 8), ("TURN", "-"), ("VIEW", "I"),
              ("TEXT", 60000, "SEATS")], args.step * 2),
        ]
        for seat in range(len(colours)):
            steps.append((f"seat {seat + 1} active", [("TURN", seat), ("SCORE", seat, seat + 1),
                                                      ("VIEW", f"S{seat}"), ("TEXT", 0)],
                          args.step))
        steps += [
            ("green flash (legal move)", [("FLASH", "GOOD")], max(args.step, 0.8)),
            ("red flash and ILLEGAL (illegal move)",
             [("FLASH", "BAD"), ("TEXT", 1500, "ILLEGAL")], max(args.step, 0.8)),
            ("amber pulse (the referee waits for an answer)", [("PULSE", 1)], args.step * 3),
            ("brightness 0 to 15", [("PULSE", 0), ("VIEW", "C")], 0.0),
        ]
        steps += [(None, [("BRIGHT", b)], args.step / 4) for b in range(16)]
        steps += [("done: the display goes back to dashes",
                   [("BRIGHT", 8), ("SEATS",), ("VIEW", "I"), ("TEXT", 0), ("FLASH", "OFF")],
                   0.0)]
        for title, commands, hold in steps:
            if title:
                print(f"  {title}")
            tickets = [link.send(*c) for c in commands]
            _settle(link, tickets, title or "the brightness sweep", args.timeout)
            _hold(hold)
        stats = link.stats
        print(f"test pattern done: {stats.acked} commands acknowledged, {stats.resent} resent, "
              f"{stats.noise} damaged lines from the board")
    finally:
        link.stop()
    return 0


def _parse_scores(text: str) -> list[tuple[str, int]]:
    seats = []
    for part in text.split(","):
        name, sep, value = part.strip().partition("=")
        if not sep or not name.strip():
            raise UserError(f"--scores: {part!r} is not SEAT=N", hint="e.g. --scores red=12,blue=7")
        try:
            seats.append((name.strip().lower(), int(value)))
        except ValueError:
            raise UserError(f"--scores: {value!r} is not a whole number",
                            hint="e.g. --scores red=12,blue=7") from None
    if len(seats) > 8:
        raise UserError(f"--scores: {len(seats)} seats; the board has 8 lights")
    if len({s for s, _ in seats}) != len(seats):
        raise UserError("--scores: a seat is named twice")
    for _, score in seats:
        if not -32768 <= score <= 32767:
            raise UserError(f"--scores: {score} does not fit the display (-32768 to 32767)")
    return seats


def _show(args: argparse.Namespace) -> int:
    from hardware.colours import SEAT_COLOURS, seat_colour, to_hex

    seats = _parse_scores(args.scores)
    names = [s for s, _ in seats]
    if args.active is not None and args.active.lower() not in names:
        raise UserError(f"--active {args.active}: not one of the seats in --scores")
    if not 0 <= args.brightness <= 15:
        raise UserError("--brightness must be between 0 and 15")
    for name in names:
        if seat_colour(name) == seat_colour("?") and name not in SEAT_COLOURS:
            print(f"note: {name!r} is not a seat colour; its light gets the fallback colour")
    turn = names.index(args.active.lower()) if args.active else None
    link = _connect(args)
    try:
        tickets = [link.send("SEATS", *(to_hex(seat_colour(s)) for s in names))]
        tickets += [link.send("SCORE", i, v) for i, (_, v) in enumerate(seats)]
        tickets += [link.send("TURN", "-" if turn is None else turn),
                    link.send("VIEW", "C" if turn is None else f"S{turn}"),
                    link.send("BRIGHT", args.brightness), link.send("PULSE", 0)]
        _settle(link, tickets, "show", args.timeout)
        shown = ", ".join(f"{s} {v}" for s, v in seats)
        print(f"showing {shown} on {link.port_in_use}"
              + (f", {args.active.lower()} to play" if turn is not None else ", cycling"))
    finally:
        link.stop()
    return 0
