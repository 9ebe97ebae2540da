"""The Python model of the board (which the emulated board runs) and the firmware's own state
machine (compiled for the PC) get the same byte streams at the same times and must answer and
show exactly the same things: replies byte for byte, LED colours, display glyphs, brightness."""

from __future__ import annotations

import re
import subprocess

from hypothesis import given, strategies as st

from hardware import model, segments
from hardware.firmware import FIRMWARE_DIR
from hardware.model import BoardModel, LineReader
from hardware.protocol import seal

TOKENS = [
    "-1", "0", "1", "2", "3", "7", "8", "15", "16", "99", "600", "60000", "60001", "-32768",
    "32767", "40000", "01", "-0", "x", "", "ff0000", "FF00aa", "zz0000", "ff00", "#ff0000",
    "ff0000:12", "00ff00:-7", "0000ff:0", "ff0000:40000", "ff0000:", "I", "C", "S0", "S1", "S2",
    "S9", "W0", "W1", "X", "b=8", "b=15", "b=16", "t=0", "t=1", "t=-", "t=3", "v=S0", "v=C",
    "v=W1", "v=I", "p=0", "p=1", "p=2", "ILLEGAL", "PUSH", "P2", "~", "1.2.", "NINECHARS",
    "GOOD", "BAD", "OFF", "PINK", "-", "a*b",
]
VERBS = ["HELLO", "PING", "STATE", "SEATS", "TURN", "SCORE", "VIEW", "TEXT", "FLASH", "PULSE",
         "BRIGHT", "TEST", "DANCE", "ping"]

seat = st.builds(lambda c, s: f"{c}:{s}", st.sampled_from(["ff0000", "00ff00", "0000ff",
                                                           "ffc800", "282828"]),
                 st.integers(-32768, 32767))


@st.composite
def state_args(draw):
    seats = draw(st.lists(seat, max_size=8))
    n = len(seats)
    turn = draw(st.sampled_from(["-"] + [str(i) for i in range(max(n, 1))]))
    view = draw(st.sampled_from(["I", "C"] + [f"{k}{i}" for k in "SW" for i in range(max(n, 1))]))
    return [f"b={draw(st.integers(0, 15))}", f"t={turn}", f"v={view}",
            f"p={draw(st.integers(0, 1))}"] + seats


@st.composite
def command(draw):
    kind = draw(st.integers(0, 9))
    if kind < 3:
        return "STATE " + " ".join(draw(state_args()))
    if kind == 3:
        return "HELLO 1"
    verb = draw(st.sampled_from(VERBS))
    args = draw(st.lists(st.sampled_from(TOKENS), max_size=4))
    return " ".join([verb] + [a for a in args if a])


@st.composite
def script(draw):
    steps = []
    now = 0
    seq = 1
    previous = None
    if draw(st.booleans()):
        steps.append(("B", now, seal("1 HELLO 1")))
        seq = 2
    for _ in range(draw(st.integers(1, 25))):
        now += draw(st.integers(0, 1500))
        how = draw(st.integers(0, 11))
        if how == 0 and previous:
            data = previous                                      # a resend
        elif how == 1:
            data = draw(st.binary(max_size=40)) + b"\n"          # noise
        elif how == 2:
            data = b"7 PING " + b"x" * draw(st.integers(150, 300)) + b"\n"   # over-long
        else:
            data = seal(f"{draw(st.sampled_from([seq, seq, seq, 0, 10000]))} {draw(command())}")
            if how == 3:                                         # one byte damaged
                i = draw(st.integers(0, len(data) - 2))
                data = data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 6)))]) + data[i + 1:]
            seq = seq % 9999 + 1
            previous = data
        steps.append(("B", now, data))
        if draw(st.booleans()):
            steps.append(("R", now + draw(st.integers(0, 2500)), b""))
            now = steps[-1][1]
    return steps


def run_python(steps) -> list[str]:
    board, reader, out = BoardModel(0), LineReader(), []
    for kind, now, data in steps:
        if kind == "B":
            for byte in data:
                got = reader.feed(byte)
                if got:
                    out.append("> " + board.on_event(got[0], got[1], now).decode()[:-2])
        else:
            shown = board.render(now)
            leds = " ".join("%02x%02x%02x" % c for c in shown.leds)
            out.append(f"= {leds} {shown.digits.hex()} {shown.brightness}")
    return out


def run_firmware(replay, steps) -> list[str]:
    text = "".join(f"B {now} {data.hex()}\n" if kind == "B" else f"R {now}\n"
                   for kind, now, data in steps)
    proc = subprocess.run([str(replay)], input=text, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@given(script())
def test_python_model_answers_and_shows_what_the_firmware_does(replay, steps):
    assert run_python(steps) == run_firmware(replay, steps)


def test_a_whole_game_reads_the_same_in_both(replay):
    lines = ["1 HELLO 1", "2 STATE b=15 t=0 v=S0 p=0 ff0000:0 0000ff:0 00ff00:0",
             "3 FLASH GOOD", "4 SCORE 0 12", "5 TURN 1", "6 VIEW S0", "7 TEXT 2000 ILLEGAL",
             "8 FLASH BAD", "8 FLASH BAD", "9 PULSE 1", "10 PULSE 0", "11 VIEW W0", "12 BRIGHT 3"]
    steps = []
    for i, line in enumerate(lines):
        steps.append(("B", 1000 * i, seal(line)))
        steps += [("R", 1000 * i + dt, b"") for dt in (0, 140, 160, 420, 900)]
    python = run_python(steps)
    assert python == run_firmware(replay, steps)
    assert "> OK 8 DUP" in " ".join(python)


# -- the tables both sides must share ---------------------------------------------------------

def _c_defines(path) -> dict[str, str]:
    text = path.read_text()
    return dict(re.findall(r"^#define (\w+) (\S+)", text, flags=re.M))


def test_font_tables_agree():
    text = (FIRMWARE_DIR / "table_board" / "font.cpp").read_text()
    body = text[text.index("GLYPHS[64]"):]
    values = [int(v, 16) for v in re.findall(r"0x([0-9A-F]{2})", body[:body.index("};")])]
    assert len(values) == 64
    for i, value in enumerate(values):
        ch = chr(0x20 + i)
        python = segments.GLYPHS.get(ch)
        assert (python if python is not None else 0xFF) == value, f"glyph of {ch!r}"


def test_timings_and_sizes_agree():
    d = _c_defines(FIRMWARE_DIR / "table_board" / "config.h")
    strip = {k: v.rstrip("UL").strip('"') for k, v in d.items()}
    assert strip["FW_VERSION"] == model.FW_VERSION
    assert int(strip["NUM_LEDS"]) == model.NUM_LEDS
    assert int(strip["NUM_DIGITS"]) == model.NUM_DIGITS
    for name in ("SELFTEST_STEP_MS", "FLASH_ON_MS", "FLASH_OFF_MS", "FLASH_BLINKS",
                 "PULSE_PERIOD_MS", "CYCLE_MS", "WIN_ON_MS", "WIN_OFF_MS", "LEVEL_ACTIVE",
                 "LEVEL_WAITING", "LEVEL_NO_TURN"):
        assert int(strip[name]) == getattr(model, name), name
    from hardware.protocol import BAUD, MAX_LINE, PROTO_VERSION
    assert int(strip["SERIAL_BAUD"]) == BAUD
    assert int(strip["PROTO_VERSION"]) == PROTO_VERSION
    proto = _c_defines(FIRMWARE_DIR / "table_board" / "protocol.h")
    assert int(proto["LINE_MAX_BYTES"]) == MAX_LINE
