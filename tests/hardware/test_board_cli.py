"""``companion device list | test | show`` and ``companion bench device``."""

from __future__ import annotations

import pytest

from companion.cli import main
from hardware import ports
from hardware.ports import FoundPort


def fake_ports(monkeypatch, found):
    monkeypatch.setattr(ports, "all_ports", lambda: list(found))


def test_list_names_the_boards_with_their_usb_ids(monkeypatch, capsys):
    fake_ports(monkeypatch, [
        FoundPort("/dev/ttyACM0", 0x2341, 0x0043, "Arduino Uno", "Arduino Uno R3"),
        FoundPort("/dev/ttyUSB3", 0x1A86, 0x7523, "USB2.0-Serial", "CH340 (Nano or Uno clone)"),
        FoundPort("/dev/ttyS0", None, None, "n/a", None),
    ])
    assert main(["device", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["/dev/ttyACM0", "2341:0043"]
    assert out[1].split()[:2] == ["/dev/ttyUSB3", "1A86:7523"]
    assert len(out) == 2
    assert main(["device", "list", "--all"]) == 0
    assert "/dev/ttyS0" in capsys.readouterr().out


def test_list_says_what_to_do_when_nothing_is_plugged_in(monkeypatch, capsys):
    fake_ports(monkeypatch, [])
    assert main(["device", "list"]) == 0
    assert "no board found" in capsys.readouterr().out


def test_show_puts_scores_on_the_board(emulated, capsys):
    board = emulated()
    assert main(["device", "show", "--port", board.link_path,
                 "--scores", "red=12,blue=7", "--active", "blue"]) == 0
    assert "showing red 12, blue 7" in capsys.readouterr().out
    snap = board.snapshot()
    assert snap["display"] == "P2     7" and snap["scores"] == [12, 7] and snap["turn"] == 1


def test_test_pattern_lights_everything(emulated, capsys):
    board = emulated()
    assert main(["device", "test", "--port", board.link_path, "--step", "0"]) == 0
    out = capsys.readouterr().out
    assert "firmware 1.0.0" in out and "test pattern done" in out
    done = [c.split(" ", 1)[1] for c in board.executed]
    for wanted in ("TEST", "FLASH GOOD", "FLASH BAD", "PULSE 1", "BRIGHT 15", "TURN 7"):
        assert wanted in done
    assert board.snapshot()["display"] == "--------"


@pytest.mark.parametrize("argv,message", [
    (["device", "show", "--port", "/dev/no-such-board", "--scores", "red=1", "--timeout", "3"],
     "cannot open /dev/no-such-board: No such file or directory"),
    (["device", "show", "--scores", "red=x"], "'x' is not a whole number"),
    (["device", "show", "--scores", "red=1", "--active", "blue"], "not one of the seats"),
    (["device", "show", "--scores", "red=1,red=2"], "named twice"),
    (["device", "show", "--scores", "red=99999"], "does not fit the display"),
])
def test_mistakes_get_one_line_saying_what_is_wrong(argv, message, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("companion device: ")


def test_no_board_by_usb_id(monkeypatch, capsys):
    import hardware.link

    monkeypatch.setattr(hardware.link, "find_boards", lambda: [])
    assert main(["device", "test", "--timeout", "3"]) == 1
    assert "no board found by USB id" in capsys.readouterr().err


def test_bench_reports_round_trips_next_to_wire_time(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--json", str(out), "device", "--count", "3", "--skip-simulated"]) == 0
    import json

    figures = json.loads(out.read_text())["figures"]
    rows = figures["rows"]
    assert [r["command"] for r in rows] == ["PING", "SCORE", "STATE"]
    for row in rows:
        assert row["n"] == 3 and row["board"] == "emulated (Python)"
        assert row["on the wire at 57600 ms"] == round(row["bytes out+back"] * 10 / 57.6, 3)
    assert "| emulated (Python) | PING |" in capsys.readouterr().out
