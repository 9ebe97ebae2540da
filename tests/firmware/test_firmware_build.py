"""Building the firmware: it fits an ATmega328P with room for its stack, and a missing tool is
named with the Debian package that provides it."""

from __future__ import annotations

import subprocess

import pytest

from hardware import firmware


def test_the_firmware_fits_an_uno(simulator_ready):
    elf = firmware.firmware_elf()
    assert elf.with_suffix(".hex").read_text().startswith(":")
    out = subprocess.run(["avr-size", str(elf)], capture_output=True, text=True, check=True)
    text, data, bss = (int(v) for v in out.stdout.splitlines()[1].split()[:3])
    assert text + data <= 32256            # flash left by the Uno's bootloader
    assert data + bss <= 2048 - 600        # RAM, leaving 600 bytes for the stack


def test_a_missing_tool_names_its_debian_package(monkeypatch):
    monkeypatch.setattr(firmware.shutil, "which",
                        lambda name: None if name in ("avr-gcc", "clang++") else "/usr/bin/x")
    assert "avr-gcc (Debian package gcc-avr)" in firmware.missing("firmware")
    assert firmware.missing("fuzzer") == ["clang++ (Debian package clang)"]
    with pytest.raises(firmware.ToolMissing, match="gcc-avr"):
        firmware.build("firmware")
