"""Fixtures of the firmware tests: the builds (once per session, shared with parallel workers
through a lock in hardware.firmware) and the real firmware running in simavr.

A missing tool fails the test with the Debian package to install; nothing here is skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware import firmware
from hardware.simulated import SimulatedBoard


def _built(target: str) -> Path:
    try:
        return firmware.build(target)
    except firmware.ToolMissing as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def host_tests() -> Path:
    return _built("host-tests")


@pytest.fixture(scope="session")
def fuzzer() -> Path:
    return _built("fuzzer")


@pytest.fixture(scope="session")
def replay() -> Path:
    return _built("replay")


@pytest.fixture(scope="session")
def simulator_ready() -> None:
    _built("firmware")
    _built("simulator")


@pytest.fixture
def simulated(simulator_ready, tmp_path):
    """Starts the real firmware in simavr, free-running; the port is also at tmp_path/board.
    After the test, the chip must have sent nothing outside the datasheets' timings."""
    boards: list[SimulatedBoard] = []

    def start(speed: float = 0.0) -> SimulatedBoard:
        board = SimulatedBoard(speed=speed, link_path=str(tmp_path / f"board{len(boards)}"))
        board.start()
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.stop()
        bad = [e for e in board.errors if not e.startswith("EXIT")]
        assert not bad, f"the chip broke WS2812 or MAX7219 timing: {bad[:5]}"
