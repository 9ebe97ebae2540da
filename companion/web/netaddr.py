"""This machine's network addresses, to tell the tablet where the dashboard is.

A laptop often has several (Wi-Fi, Ethernet, a VPN, a container bridge); the QR code can encode
only one, so the addresses are listed, the one on the default route first, and the user can
choose another (``advertise``).
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Address:
    ip: str
    interface: str = ""

    @property
    def loopback(self) -> bool:
        return ipaddress.ip_address(self.ip).is_loopback


def _default_route_ip() -> str | None:
    """The address the system would use to reach another network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
            return s.getsockname()[0]
    except OSError:
        return None


def _linux_interfaces() -> list[Address]:
    import fcntl

    out = []
    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on this interface
        out.append(Address(socket.inet_ntoa(packed[20:24]), name))
    return out


def addresses() -> list[Address]:
    """IPv4 addresses of this machine, the default route's first and loopback last."""
    found: list[Address] = []
    if sys.platform.startswith("linux"):
        try:
            found = _linux_interfaces()
        except (OSError, ImportError):
            found = []
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            found = [Address(info[4][0]) for info in infos]
        except OSError:
            found = []
    default = _default_route_ip()
    if default and all(a.ip != default for a in found):
        found.append(Address(default))
    unique: dict[str, Address] = {}
    for a in found:
        unique.setdefault(a.ip, a)
    if "127.0.0.1" not in unique:
        unique["127.0.0.1"] = Address("127.0.0.1", "lo")
    return sorted(unique.values(), key=lambda a: (a.loopback, a.ip != default, a.ip))


def url_for_host(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"
