"""The emulated board: a pseudo-terminal any serial tool can open, the firmware's behaviour,
and a snapshot of what it shows."""

from __future__ import annotations

import os
import subprocess
import sys
import termios

import serial

from hardware.protocol import Command, parse_reply


def talk(port: serial.Serial, *lines: bytes) -> list:
    replies = []
    for line in lines:
        port.write(line)
        replies.append(parse_reply(port.readline().rstrip(b"\r\n")))
    return replies


def test_it_is_a_raw_pty_that_boots_when_opened(emulated):
    board = emulated()
    assert board.path.startswith("/dev/pts/")
    assert os.path.realpath(board.link_path) == board.path
    fd = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    try:
        lflag = termios.tcgetattr(fd)[3]
        assert not lflag & termios.ECHO and not lflag & termios.ICANON
    finally:
        os.close(fd)
    with serial.Serial(board.path, 57600, timeout=5) as port:
        ready = parse_reply(port.readline().rstrip())
        assert ready.kind == "READY" and ready.fields == {"proto": "1", "fw": "1.0.0"}
        hello, state = talk(port, Command("HELLO", ("1",)).line(1),
                            Command("STATE", ("b=15", "t=1", "v=S1", "p=0", "ff0000:3",
                                              "00ff00:17")).line(2))
        assert hello.kind == "OK" and "caps=STATE,SEATS" in hello.text
        assert state.kind == "OK"
        snap = board.snapshot()
        assert snap["display"] == "P2    17"
        assert snap["leds"][:3] == ["#300000", "#00ff00", "#000000"]
        assert snap["brightness"] == 15 and snap["linked"] and snap["open"]
    # Opening again reboots it, as the DTR line does to an Uno: settings gone, READY again.
    assert board.wait_closed(5)
    with serial.Serial(board.path, 57600, timeout=5) as port:
        assert parse_reply(port.readline().rstrip()).kind == "READY"
        assert board.boots == 2
        snap = board.snapshot()
        assert snap["display"] == "--------" and snap["seats"] == [] and not snap["linked"]


def test_noise_is_refused_harmlessly(emulated):
    board = emulated()
    with serial.Serial(board.path, 57600, timeout=5) as port:
        port.readline()
        talk(port, Command("HELLO", ("1",)).line(1), Command("SEATS", ("ff0000",)).line(2))
        port.write(b"\x00\xfe\x07garbage\n" + b"z" * 400 + b"\n" + b"3 SEATS*0000\n")
        reasons = [parse_reply(port.readline().rstrip()).reason for _ in range(3)]
        assert reasons == ["GARBAGE", "TOOLONG", "BADSUM"]
        dup = talk(port, Command("SEATS", ("ff0000",)).line(2))[0]
        assert dup.duplicate
    assert board.snapshot()["seats"] == ["#ff0000"]
    assert board.executed == ["1 HELLO 1", "2 SEATS ff0000"]


def test_unplugging_removes_the_port_and_plugging_makes_a_new_one(emulated):
    board = emulated()
    board.unplug()
    assert not os.path.lexists(board.link_path)
    assert not board.snapshot()["powered"]
    path = board.plug()
    assert os.path.realpath(board.link_path) == path
    with serial.Serial(board.link_path, 57600, timeout=5) as port:
        assert parse_reply(port.readline().rstrip()).kind == "READY"


def test_it_runs_as_a_program_that_prints_its_port(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "hardware.emulated"], stdout=subprocess.PIPE,
                            text=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                                os.path.abspath(__file__)))))
    try:
        path = proc.stdout.readline().strip()
        assert path.startswith("/dev/pts/")
        with serial.Serial(path, 57600, timeout=5) as port:
            assert parse_reply(port.readline().rstrip()).kind == "READY"
    finally:
        proc.terminate()
        proc.wait(5)
