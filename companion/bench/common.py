"""Small helpers shared by the benchmark suites."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from typing import Any, Callable, Sequence


def pin_one_core() -> str:
    """Run this process on one core so figures read 'per core'; returns what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            core = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {core})
            return f"pinned to core {core}"
        except OSError:
            pass
    return "not pinned"


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Wall times of ``repeat`` calls, in milliseconds."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def summary_ms(samples: Sequence[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(samples), 3),
            "p95_ms": round(percentile(samples, 0.95), 3),
            "n": len(samples)}


def machine() -> dict[str, str]:
    return {"python": platform.python_version(), "machine": platform.machine(),
            "processor": platform.processor() or platform.machine(),
            "cpus": str(os.cpu_count())}


def print_table(title: str, rows: Sequence[dict[str, Any]]) -> None:
    """A plain table for the terminal (and for pasting into BENCHMARKS.md as Markdown)."""
    print(f"\n### {title}\n")
    if not rows:
        print("(no rows)")
        return
    keys = list(rows[0].keys())
    for row in rows[1:]:
        for k in row:
            if k not in keys:
                keys.append(k)
    print("| " + " | ".join(keys) + " |")
    print("|" + "|".join("---" for _ in keys) + "|")
    for row in rows:
        print("| " + " | ".join(_fmt(row.get(k, "")) for k in keys) + " |")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
    return str(value)


def dump_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


#: the camera tilt bands the per-game vision benches report by (degrees, the last one closed)
TILT_BANDS = ((0.0, 5.0), (5.0, 15.0), (15.0, 25.0), (25.0, 35.01))


def tilt_band(tilt: float, bands: tuple[tuple[float, float], ...] = TILT_BANDS) -> str:
    """The name of the band a camera tilt falls in (``"5–15°"``)."""
    for lo, hi in bands:
        if lo <= tilt < hi:
            return f"{lo:g}–{min(hi, 35):g}°"
    return f"{tilt:.0f}°"


def ratio(right: int, total: int) -> float | str:
    """``right / total`` to four places, or a dash when there is nothing to count."""
    return round(right / total, 4) if total else "–"
