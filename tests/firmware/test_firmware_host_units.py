"""The firmware's own unit tests, compiled for the PC with AddressSanitizer and UBSan
(firmware_docs/host/test_firmware.cpp against the Arduino mock)."""

from __future__ import annotations

import subprocess


def test_every_host_compiled_firmware_test_passes(host_tests):
    names = subprocess.run([str(host_tests), "--list"], capture_output=True, text=True,
                           check=True).stdout.split()
    assert len(names) >= 20
    proc = subprocess.run([str(host_tests)], capture_output=True, text=True, timeout=60)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    passed = [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("ok ")]
    assert sorted(passed) == sorted(names), report
    assert "runtime error" not in report and "AddressSanitizer" not in report, report


def test_a_failing_check_is_reported_as_a_failure(host_tests):
    # The runner itself: asking for a test that does not exist is an error, not a pass.
    proc = subprocess.run([str(host_tests), "no_such_test"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "no test matched" in proc.stderr
