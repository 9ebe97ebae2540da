"""The host link: handshake and restore, resends, board restarts, a vanishing port, boards
found by USB id, pyserial URLs, and a caller that is never kept waiting."""

from __future__ import annotations

import socket
import threading

import pytest
import serial

from hardware import link as link_module
from hardware.link import STATUSES
from hardware.ports import FoundPort

SCORES = ("STATE", "b=8", "t=0", "v=S0", "p=0", "ff0000:0", "0000ff:0", "00ff00:0")


def test_commands_given_before_the_board_answers_are_all_shown(emulated, links):
    board = emulated()
    seen = []
    link = links(board.link_path, on_status=lambda s, d: seen.append((s, d)))
    tickets = [link.send(*SCORES), link.send("SCORE", 1, 9), link.send("TURN", 1),
               link.send("VIEW", "S1")]
    assert not any(t.done for t in tickets)             # queued, nothing waited for
    link.start()
    assert link.wait_status("connected", 10)
    assert link.wait_idle(10)
    assert {t.outcome for t in tickets} == {"restored"}  # one STATE line carried them all
    assert board.snapshot()["display"] == "P2     9"
    assert link.board_info["fw"] == "1.0.0" and link.board_info["proto"] == "1"
    statuses = [s for i, (s, _) in enumerate(seen) if i == 0 or seen[i - 1][0] != s]
    assert statuses == ["connecting", "connected"]
    assert all(s in STATUSES and isinstance(d, str) and d for s, d in seen)
    assert board.executed == ["1 HELLO 1", "2 STATE b=8 t=1 v=S1 p=0 ff0000:0 0000ff:9 00ff00:0"]


def test_acknowledged_commands_are_executed_once(emulated, links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    assert link.wait_status("connected", 10)
    tickets = [link.send("SEATS", "ff0000"), link.send("FLASH", "GOOD"), link.send("PING")]
    assert link.wait_idle(10)
    assert [t.outcome for t in tickets] == ["ok", "ok", "ok"]
    assert board.executed[-3:] == ["3 SEATS ff0000", "4 FLASH GOOD", "5 PING"]


def test_a_command_the_board_refuses_is_reported_not_retried(emulated, links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    ticket = link.send("TEXT", 1000, "~~")     # no glyph for '~'
    assert ticket.wait(10)
    assert ticket.outcome == "refused" and ticket.detail.startswith("ARGS")
    assert link.stats.refused == 1 and link.status == "connected"


def test_damaged_and_lost_bytes_are_resent_and_nothing_doubles(emulated, links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    assert link.wait_status("connected", 10)
    link.send(*SCORES)
    assert link.wait_idle(10)
    board.set_faults(seed=3, drop_per_mille=5, flip_per_mille=5)
    flashes = []
    for i in range(1, 61):
        link.send("SCORE", i % 3, i)
        if i % 6 == 0:
            flashes.append(link.send("FLASH", "GOOD"))
    assert link.wait_idle(60), link.detail
    board.set_faults(0)
    link.send("PING")
    assert link.wait_idle(10)
    assert link.stats.resent > 0
    snap = board.snapshot()
    assert snap["scores"] == [60, 58, 59] and snap["display"] == "P1    60"
    done = [t for t in flashes if t.outcome in ("ok", "dup")]
    unsure = [t for t in flashes if t.outcome == "interrupted"]
    executed_flashes = [c for c in board.executed if c.endswith("FLASH GOOD")]
    assert len(done) <= len(executed_flashes) <= len(done) + len(unsure)
    assert len(set(executed_flashes)) == len(executed_flashes)   # no sequence number twice


def test_a_board_reset_mid_game_is_repaired(emulated, links):
    board = emulated()
    seen = []
    link = links(board.link_path, on_status=lambda s, d: seen.append(s))
    link.start()
    link.send(*SCORES)
    link.send("SCORE", 2, 17)
    link.send("VIEW", "S2")
    assert link.wait_idle(10) and board.snapshot()["display"] == "P3    17"
    mark = link.changes
    board.reset()
    assert link.wait_statuses(("reconnecting", "connected"), since=mark, timeout=10)
    assert link.wait_idle(10)
    assert board.snapshot()["display"] == "P3    17"
    assert link.stats.board_restarts == 1 and seen[-2:] == ["reconnecting", "connected"]


def test_a_board_that_restarted_unheard_is_repaired(emulated, links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    link.send(*SCORES)
    assert link.wait_idle(10)
    mark = link.changes
    board.reset(announce=False)          # its READY lost on the wire
    ticket = link.send("SCORE", 0, 5)
    assert ticket.wait(10) and ticket.outcome == "restored"   # NO HELLO -> handshake, STATE
    assert link.wait_statuses(("reconnecting", "connected"), since=mark, timeout=10)
    assert link.wait_idle(10)
    assert board.snapshot()["scores"] == [5, 0, 0] and board.snapshot()["linked"]


def test_the_port_vanishing_and_coming_back_loses_nothing_and_shows_nothing_late(emulated,
                                                                                  links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    link.send(*SCORES)
    assert link.wait_idle(10)
    board.unplug()
    assert link.wait_status(("reconnecting", "lost"), 10)
    score = link.send("SCORE", 0, 33)          # the game goes on meanwhile
    flash = link.send("FLASH", "BAD")
    assert not score.done
    assert flash.wait(10) and flash.outcome == "stale"
    assert link.wait_status("lost", 10)
    assert "No such file or directory" in link.detail
    board.plug()
    assert link.wait_status("connected", 10), link.detail
    assert score.wait(10) and score.outcome == "restored"
    assert link.wait_idle(10)
    snap = board.snapshot()
    assert snap["scores"] == [33, 0, 0] and snap["display"] == "P1    33"
    assert not any("FLASH" in c for c in board.executed)


def test_a_board_that_stops_answering_is_given_up_then_found_again(emulated, links):
    board = emulated()
    link = links(board.link_path, reset_wait=0.5, lost_after=2)
    link.start()
    link.send(*SCORES)
    assert link.wait_idle(10)
    board.set_faults(seed=1, drop_per_mille=1000)     # deaf and mute
    assert link.wait_status("lost", 20)               # the heartbeat noticed
    assert "no answer" in link.last_error
    board.set_faults(0)
    assert link.wait_status("connected", 10)
    assert link.wait_idle(10) and board.snapshot()["display"] == "P1     0"


def test_a_missing_port_is_reported_and_the_caller_never_waits(links):
    link = links("/dev/no-such-board")
    link.start()
    tickets = [link.send("SEATS", "ff0000") for _ in range(100)]
    assert not any(t.done for t in tickets)
    assert link.wait_status("lost", 10)
    assert link.detail == "cannot open /dev/no-such-board: No such file or directory"
    link.stop()
    assert {t.outcome for t in tickets} == {"stopped"}


def test_auto_finds_the_board_by_usb_id_or_says_it_is_absent(emulated, links, monkeypatch):
    found: list[FoundPort] = []
    monkeypatch.setattr(link_module, "find_boards", lambda: list(found))
    link = links("auto")
    link.start()
    assert link.wait_status("absent", 10)
    assert "no board with a known USB id" in link.detail
    board = emulated()
    found.append(FoundPort(device=board.path, vid=0x2341, pid=0x0043,
                           description="Arduino Uno", known_as="Arduino Uno R3"))
    assert link.wait_status("connected", 10)
    assert link.port_in_use == board.path


def test_a_device_speaking_something_else_is_named_as_such(links):
    # loop:// sends our own lines back: well-formed text, but no reply of the board's protocol.
    link = links("loop://", reset_wait=0.1)
    link.start()
    assert link.wait_status("lost", 20)
    assert "not the board's protocol" in link.last_error


@pytest.fixture
def tcp_bridge(emulated):
    """A TCP server in front of an emulated board, as ser2net would be."""
    board = emulated()
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        conn.settimeout(0.05)
        with serial.Serial(board.path, 57600, timeout=0.05) as port:
            while not stop.is_set():
                data = port.read(port.in_waiting or 1)
                if data:
                    conn.sendall(data)
                try:
                    incoming = conn.recv(4096)
                except socket.timeout:
                    continue
                if not incoming:
                    break
                port.write(incoming)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield board, f"socket://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(5)
    server.close()


def test_pyserial_urls_work(tcp_bridge, links):
    board, url = tcp_bridge
    link = links(url)
    link.start()
    assert link.wait_status("connected", 10), link.detail
    link.send("SEATS", "ff0000", "0000ff")
    link.send("TURN", 1)
    assert link.wait_idle(10)
    assert board.snapshot()["leds"][1] == "#00008f"
