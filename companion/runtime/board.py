"""Opening the LED/score board for a table: a real one on a serial port, the emulated one, or
none. The hardware package is imported only here, so the rest of the runtime works without it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from companion.errors import UserError


@dataclass
class OpenBoard:
    """A board wired to a table: ``driver`` gets the events, ``view`` says what it shows (for
    the dashboard), ``close`` stops the link (and the emulated board)."""

    driver: Any
    link: Any
    emulated: Any = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        if self.emulated is not None:
            return self.emulated.snapshot()
        return {"port": self.link.port_in_use, "status": self.link.status,
                "info": dict(self.link.board_info)}

    def close(self) -> None:
        for closer in reversed(self.closers):
            closer()


def open_board(spec: str | None, on_status: Callable[[str, str], None]) -> OpenBoard | None:
    """``spec``: None or "none" (no board), "emulated" (the board in Python, behind a
    pseudo-terminal), "auto" (find a real board by USB id) or a port / pyserial URL."""
    if spec in (None, "", "none"):
        return None
    from hardware.driver import BoardDriver
    from hardware.link import BoardLink

    emulated = None
    port = spec
    closers: list[Callable[[], None]] = []
    if spec == "emulated":
        from hardware.emulated import EmulatedBoard

        emulated = EmulatedBoard()
        port = emulated.start()
        closers.append(emulated.stop)
    try:
        link = BoardLink(port, on_status=on_status)
    except (ValueError, OSError) as exc:
        for closer in closers:
            closer()
        raise UserError(f"cannot use the board on {spec!r}: {exc}",
                        hint="`companion device list` shows the boards found") from None
    link.start()
    closers.append(link.stop)
    return OpenBoard(BoardDriver(link), link, emulated, closers)
