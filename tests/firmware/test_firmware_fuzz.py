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
    command = [str(fuzzer), f"-max_total_time={FUZZ_SECONDS}", "-seed=1", "-max_len=600",
               "-timeout=5", "-rss_limit_mb=1024", f"-artifact_prefix={tmp_path}/", str(corpus)]
    # libFuzzer's memory limit reads the process's peak resident size, and Linux carries a
    # parent's size into a child it forks and the child into the program it runs: started
    # straight from a test worker that has drawn whole videos (over 1 GB), the fuzzer would
    # stop at once for "out of memory". A small shell forks it instead (the shell's
    # `; exit $?` keeps it from replacing itself with the fuzzer), so the limit measures the
    # fuzzer alone.
    proc = subprocess.run(["sh", "-c", '"$@"; exit $?', "sh", *command],
                          capture_output=True, text=True, timeout=FUZZ_SECONDS + 60)
    log = proc.stderr[-4000:]
    assert proc.returncode == 0, log
    done = re.search(r"Done (\d+) runs", proc.stderr)
    assert done and int(done.group(1)) > 1000, log
    assert not list(tmp_path.glob("crash-*")), log
