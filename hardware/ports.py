"""Finding the table board among the machine's serial ports, by USB vendor and product id.

Genuine Arduino Unos carry Arduino's own ids; Nanos and most clones carry the id of their
USB-serial chip (FTDI, CH340, CP2102), which other gadgets share, so a port found this way is
only a candidate: the link's handshake is what proves a table board answers there.
"""

from __future__ import annotations

from dataclasses import dataclass

#: (vendor id, product id) -> what it usually is
KNOWN_IDS: dict[tuple[int, int], str] = {
    (0x2341, 0x0043): "Arduino Uno R3",
    (0x2341, 0x0001): "Arduino Uno",
    (0x2341, 0x0243): "Arduino Uno R3",
    (0x2341, 0x006A): "Arduino Uno",
    (0x2A03, 0x0043): "Arduino Uno (arduino.org)",
    (0x0403, 0x6001): "FTDI FT232R (Arduino Nano)",
    (0x1A86, 0x7523): "CH340 (Nano or Uno clone)",
    (0x1A86, 0x5523): "CH341 (Nano or Uno clone)",
    (0x10C4, 0xEA60): "CP2102 (Nano or Uno clone)",
}


@dataclass(frozen=True)
class FoundPort:
    device: str
    vid: int | None
    pid: int | None
    description: str
    known_as: str | None      # the board KNOWN_IDS names it, None when the id is not known
    serial_number: str | None = None

    @property
    def usb_id(self) -> str:
        if self.vid is None or self.pid is None:
            return "-"
        return f"{self.vid:04X}:{self.pid:04X}"


def all_ports() -> list[FoundPort]:
    """Every serial port the system lists, board or not."""
    from serial.tools import list_ports

    found = []
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        known = KNOWN_IDS.get((info.vid, info.pid)) if info.vid is not None else None
        found.append(FoundPort(device=info.device, vid=info.vid, pid=info.pid,
                               description=info.description or "", known_as=known,
                               serial_number=info.serial_number))
    return found


def find_boards() -> list[FoundPort]:
    """The ports whose USB id is a known Uno/Nano id, genuine Arduino ids first."""
    boards = [p for p in all_ports() if p.known_as]
    return sorted(boards, key=lambda p: (p.vid not in (0x2341, 0x2A03), p.device))
