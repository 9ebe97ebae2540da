"""The real firmware (avr-gcc, Debian's Arduino core) in simavr, driven by the real host link.

What is asserted is what a player would see, decoded from the emulated chip's pins: the 16-bit
words the MAX7219 latched over SPI (its digit registers, read back through the font) and the
colours sent down the WS2812 line (decoded from its timing by the harness, which also flags any
bit outside the datasheet). Every test ends with a check that no such timing error happened
(see conftest.py)."""

from __future__ import annotations

import pytest
import serial

from companion import events as ev
from hardware import segments
from hardware.driver import BoardDriver
from hardware.link import BoardLink

pytestmark = pytest.mark.firmware

PLAYERS = ["red", "blue", "green"]


def status(active="red", red=0, blue=0, green=0, **extra):
    st = {"players": PLAYERS, "active": active, "scores": {"red": red, "blue": blue,
                                                            "green": green},
          "round": 1, "phase": "play"}
    st.update(extra)
    return st


def level(c: int, lvl: int, brightness: int = 8) -> int:
    return c * lvl // 255 * (brightness + 1) // 16


def hexes(*rgbs) -> tuple[str, ...]:
    rgbs = list(rgbs) + [(0, 0, 0)] * (8 - len(rgbs))
    return tuple("#%02x%02x%02x" % c for c in rgbs)


def seat_lights(active: int | None, brightness: int = 8) -> tuple[str, ...]:
    base = [(255, 0, 0), (0, 0, 255), (0, 255, 0)]
    out = []
    for i, (r, g, b) in enumerate(base):
        lvl = 128 if active is None else 255 if i == active else 48
        out.append((level(r, lvl, brightness), level(g, lvl, brightness),
                    level(b, lvl, brightness)))
    return hexes(*out)


def connect(board, **kw) -> tuple[BoardLink, list[tuple[str, str]]]:
    seen: list[tuple[str, str]] = []
    link = BoardLink(board.link_path, on_status=lambda s, d: seen.append((s, d)), **kw)
    link.start()
    assert link.wait_status("connected", 20), (link.status, link.detail)
    return link, seen


def green_blinks(board) -> int:
    """How many times the three seat lights (and only they) turned the flash's green."""
    flash = hexes(*[(0, level(255, 255), 0)] * 3)
    count, before = 0, False
    for frame in board.led_history:
        now = frame == flash
        count += now and not before
        before = now
    return count


def test_boot_runs_the_self_test_then_announces_ready(simulated):
    board = simulated()
    with serial.Serial(board.path, 57600, timeout=10) as port:
        banner = port.readline()
    assert banner.startswith(b"READY proto=1 fw=1.0.0*")
    full = level(255, 255)
    frames = list(board.led_history)
    for colour in [(full, 0, 0), (0, full, 0), (0, 0, full)]:
        assert hexes(*[colour] * 8) in frames
    palette = [(255, 0, 0), (255, 200, 0), (0, 0, 255), (0, 255, 0), (255, 255, 255),
               (40, 40, 40), (255, 100, 0), (150, 0, 255)]
    assert hexes(*[tuple(c * 9 // 16 for c in rgb) for rgb in palette]) in frames
    shown = list(board.display_history)
    assert bytes([0xFF] * 8) in shown
    assert segments.render("12345678") in shown
    assert board.shows("--------")
    regs = board.display.registers
    assert board.display.decode == 0 and regs[0x0B] == 7 and regs[0x0C] == 1 and regs[0x0F] == 0


def test_the_referee_events_show_on_the_display_and_strip(simulated):
    board = simulated()
    link, _ = connect(board)
    driver = BoardDriver(link)
    try:
        driver.handle(ev.GAME_STARTED, {}, status())
        assert board.wait_for(lambda: board.leds == seat_lights(0), 10)
        assert board.wait_for(lambda: board.shows("P1     0"), 10)   # after "PLAY"

        driver.handle(ev.MOVE_JUDGED, {"legal": True}, status("blue", red=12))
        assert board.wait_for(lambda: board.shows("P1    12"), 10)     # the last scorer
        assert link.wait_idle(10)                                      # the flash was taken
        assert board.wait_for(lambda: green_blinks(board) == 3
                              and board.leds == seat_lights(1), 10)    # three blinks, then back

        driver.handle(ev.MOVE_JUDGED, {"legal": False}, status("blue", red=12))
        red = "#%02x0000" % level(255, 255)
        assert board.wait_for(lambda: any(f[:3] == (red,) * 3 for f in board.led_history), 10)
        assert board.wait_for(lambda: segments.render("ILLEGAL") in board.display_history, 10)

        driver.handle(ev.QUESTION_ASKED, {"choices": []}, status("blue", red=12, waiting=True))
        amber = lambda f: all(int(c[1:3], 16) > int(c[3:5], 16) > 0 == int(c[5:7], 16)  # noqa: E731
                              for c in f[:3])
        assert board.wait_for(lambda: amber(board.leds), 10)
        driver.handle(ev.QUESTION_ANSWERED, {}, status("green", red=12, blue=5))
        assert board.wait_for(lambda: board.leds == seat_lights(2), 10)

        driver.handle(ev.GAME_ENDED, {"outcome": {"winners": ["red"]}},
                      status(None, red=12, blue=5))
        assert board.wait_for(lambda: board.shows("        "), 10)        # blinking off...
        assert board.wait_for(lambda: board.shows("P1    12"), 10)        # ...and on
        winner = hexes((level(255, 255), 0, 0))
        assert board.wait_for(lambda: board.leds == winner, 10)
    finally:
        link.stop()


def test_brightness_sets_the_display_intensity_and_scales_the_strip(simulated):
    board = simulated()
    link, _ = connect(board)
    try:
        link.send("STATE", "b=3", "t=1", "v=S1", "p=0", "ff0000:1", "0000ff:2", "00ff00:3")
        assert board.wait_for(lambda: board.display.intensity == 3, 10)
        assert board.wait_for(lambda: board.leds == seat_lights(1, brightness=3), 10)
        assert board.wait_for(lambda: board.shows("P2     2"), 10)
    finally:
        link.stop()


def test_damaged_and_dropped_bytes_lose_nothing_and_double_nothing(simulated):
    board = simulated(speed=1.0)      # real time: the host's timeouts meet a real-speed UART
    link, _ = connect(board)
    try:
        link.send("STATE", "b=8", "t=0", "v=S0", "p=0", "ff0000:0", "0000ff:0", "00ff00:0")
        assert link.wait_idle(10)
        board.set_faults(seed=7, drop_per_mille=10, flip_per_mille=10)
        flashes = []
        for i in range(1, 31):
            link.send("SCORE", i % 3, i)
            if i % 10 == 0:
                flashes.append(link.send("FLASH", "GOOD"))
                assert flashes[-1].wait(15)
                # Each flash ends before the next starts, so the blinks can be counted.
                done = 3 * sum(t.outcome in ("ok", "dup") for t in flashes)
                board.wait_for(lambda: green_blinks(board) >= done
                               and board.leds == seat_lights(0), 10)
        assert link.wait_idle(30), link.detail
        board.set_faults(0)
        link.send("VIEW", "C")
        link.send("VIEW", "S0")
        assert link.wait_idle(15)
        assert link.stats.resent + link.stats.noise > 0          # the faults did happen
        assert link.desired.scores == (30, 28, 29)
        assert board.wait_for(lambda: board.shows("P1    30"), 10)
        assert board.wait_for(lambda: board.leds == seat_lights(0), 10)
        shown = [t for t in flashes if t.outcome in ("ok", "dup")]
        unsure = [t for t in flashes if t.outcome == "interrupted"]
        assert 3 * len(shown) <= green_blinks(board) <= 3 * (len(shown) + len(unsure))
    finally:
        link.stop()


def test_a_reset_in_the_middle_of_a_game_is_repaired(simulated):
    board = simulated(speed=1.0)
    link, seen = connect(board)
    driver = BoardDriver(link)
    try:
        driver.handle(ev.GAME_STARTED, {}, status())
        driver.handle(ev.MOVE_JUDGED, {"legal": True}, status("blue", red=7))
        assert link.wait_idle(10)
        assert board.wait_for(lambda: board.shows("P1     7"), 10)
        runs, mark = board.runs, link.changes
        board.reset()
        assert board.wait_for(lambda: board.runs > runs, 5)
        assert link.wait_statuses(("reconnecting", "connected"), since=mark, timeout=15)
        assert board.wait_for(lambda: board.shows("P1     7"), 10)
        assert board.wait_for(lambda: board.leds == seat_lights(1), 10)
        assert link.stats.board_restarts == 1
        assert [s for s, _ in seen][-2:] == ["reconnecting", "connected"]
    finally:
        link.stop()


def test_the_port_vanishing_and_coming_back_is_repaired(simulated):
    board = simulated(speed=1.0)
    link, seen = connect(board, backoff=(0.1, 0.5))
    driver = BoardDriver(link)
    try:
        driver.handle(ev.GAME_STARTED, {}, status())
        assert link.wait_idle(10)
        board.unplug()
        assert link.wait_status(("reconnecting", "lost"), 10)
        # The game goes on while the board is away: the score is kept, the flash is not shown
        # late.
        driver.handle(ev.MOVE_JUDGED, {"legal": True}, status("blue", red=40))
        flash = link.send("FLASH", "BAD")
        assert flash.wait(15) and flash.outcome == "stale"
        blinks = green_blinks(board)
        board.plug()
        assert link.wait_status("connected", 20), link.detail
        assert link.wait_idle(10)
        assert board.wait_for(lambda: board.shows("P1    40"), 10)
        assert board.wait_for(lambda: board.leds == seat_lights(1), 10)
        assert green_blinks(board) == blinks
        red = hexes(*[(level(255, 255), 0, 0)] * 3)
        assert red not in board.led_history
        assert "reconnecting" in [s for s, _ in seen]
    finally:
        link.stop()
