"""Fixtures of the board tests: emulated boards on private pseudo-terminals (with a stable
symlink in the test's own folder, so tests can run in parallel) and links with short timings."""

from __future__ import annotations

import pytest

from hardware.emulated import EmulatedBoard
from hardware.link import BoardLink

FAST = dict(reset_wait=3.0, ack_timeout=0.2, retries=4, heartbeat=0.3, backoff=(0.05, 0.4),
            lost_after=3, stale_after=1.0)


@pytest.fixture
def emulated(tmp_path):
    boards: list[EmulatedBoard] = []

    def start(**kw) -> EmulatedBoard:
        kw.setdefault("boot_ms", 100)
        board = EmulatedBoard(link_path=str(tmp_path / f"board{len(boards)}"), **kw)
        board.start()
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.stop()


@pytest.fixture
def links():
    made: list[BoardLink] = []

    def make(port: str, **kw) -> BoardLink:
        options = dict(FAST)
        options.update(kw)
        link = BoardLink(port, **options)
        made.append(link)
        return link

    yield make
    for link in made:
        link.stop()
