"""Building what ``firmware_docs/`` makes: the firmware (.elf/.hex), its host-compiled tests,
its fuzzer, and the simavr harness. Everything goes through ``firmware_docs/Makefile`` so a
person and the tests build the same way; this module checks the tools first (naming the Debian
package that is missing) and serialises builds that share a folder (tests may run in parallel).
"""

from __future__ import annotations

import fcntl
import os
import platform
import shutil
import subprocess
from pathlib import Path

from companion.errors import UserError

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware_docs"
DEFAULT_BUILD = FIRMWARE_DIR / "build"
ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr")

#: make target -> its product, relative to the build folder
PRODUCTS = {
    "firmware": "avr/table_board.hex",
    "host-tests": "host/firmware_tests",
    "fuzzer": "host/parser_fuzzer",
    "replay": "host/board_replay",
    "simulator": "sim/board_sim",
}


class ToolMissing(UserError):
    """A build tool is not installed; the message names the Debian package."""


class BuildFailed(UserError):
    pass


def _program(name: str, package: str) -> str | None:
    return None if shutil.which(name) else f"{name} (Debian package {package})"


def _file(path: Path, package: str) -> str | None:
    return None if path.exists() else f"{path} (Debian package {package})"


def missing(target: str) -> list[str]:
    """What ``target`` needs and this machine lacks, each with its Debian package."""
    checks: list[str | None] = [_program("make", "make")]
    if target == "firmware":
        checks += [_program("avr-gcc", "gcc-avr"), _program("avr-objcopy", "binutils-avr"),
                   _file(Path("/usr/lib/avr/include/avr/io.h"), "avr-libc"),
                   _file(ARDUINO_CORE / "cores/arduino/Arduino.h", "arduino-core-avr")]
    elif target in ("host-tests", "replay"):
        checks += [_program("g++", "g++")]
    elif target == "fuzzer":
        checks += [_program("clang++", "clang")]
        if shutil.which("clang++"):
            lib = f"libclang_rt.fuzzer-{platform.machine()}.a"
            found = subprocess.run(["clang++", f"-print-file-name={lib}"], capture_output=True,
                                   text=True).stdout.strip()
            if not os.path.isabs(found) or not os.path.exists(found):
                checks.append(f"{lib} (Debian package libclang-rt-14-dev)")
    elif target == "simulator":
        checks += [_program("cc", "gcc"), _program("pkg-config", "pkg-config"),
                   _file(Path("/usr/include/simavr/sim_avr.h"), "libsimavr-dev"),
                   _file(Path("/usr/include/libelf.h"), "libelf-dev")]
        if shutil.which("pkg-config"):
            if subprocess.run(["pkg-config", "--exists", "simavr"]).returncode != 0:
                checks.append("simavr for pkg-config (Debian packages libsimavr-dev "
                              "libelf-dev)")
    else:
        raise ValueError(f"unknown firmware target {target!r}")
    return [c for c in checks if c]


def build(target: str, build_dir: Path | None = None) -> Path:
    """Builds ``target`` (see PRODUCTS) if it is out of date and returns its product's path.
    ToolMissing or BuildFailed (one line, with make's last words) when it cannot."""
    lacking = missing(target)
    if lacking:
        raise ToolMissing(f"cannot build the {target}: missing " + "; ".join(lacking),
                          hint="bash scripts/install-test-deps.sh installs them all")
    if not (FIRMWARE_DIR / "Makefile").exists():
        raise BuildFailed(f"no {FIRMWARE_DIR}/Makefile: run from a source checkout")
    out = Path(build_dir or DEFAULT_BUILD).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)     # parallel tests share one build
        jobs = f"-j{min(4, os.cpu_count() or 1)}"
        proc = subprocess.run(["make", jobs, "-C", str(FIRMWARE_DIR), f"BUILD={out}", target],
                              capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-12:]
        raise BuildFailed(f"building the {target} failed:\n" + "\n".join(tail))
    product = out / PRODUCTS[target]
    if not product.exists():
        raise BuildFailed(f"make {target} succeeded but made no {product}")
    return product


def firmware_elf(build_dir: Path | None = None) -> Path:
    """The firmware ELF (simavr loads the ELF; the .hex beside it is for flashing)."""
    return build("firmware", build_dir).with_suffix(".elf")
