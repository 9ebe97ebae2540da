"""The libFuzzer target of the firmware's line reader and state machine, run for a bounded time
from the committed seed inputs. A crash, a sanitizer report or a broken reply fails the test."""

from __future__ import annotations

import re
import shutil
import subprocess

from hardware.firmware import FIRMWARE_DIR

FUZZ_SECONDS = 15


def test_parser_survives_fuzzing(fuzzer, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(FIRMWARE_DIR / "host" / "fuzz_seeds", corpus)
    proc = subprocess.run(
        [str(fuzzer), f"-max_total_time={FUZZ_SECONDS}", "-seed=1", "-max_len=600",
         "-timeout=5", "-rss_limit_mb=1024", f"-artifact_prefix={tmp_path}/", str(corpus)],
        capture_output=True, text=True, timeout=FUZZ_SECONDS + 60)
    log = proc.stderr[-4000:]
    assert proc.returncode == 0, log
    done = re.search(r"Done (\d+) runs", proc.stderr)
    assert done and int(done.group(1)) > 1000, log
    assert not list(tmp_path.glob("crash-*")), log
