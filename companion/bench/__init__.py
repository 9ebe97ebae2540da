"""Benchmarks (``companion bench <suite>``): speed and accuracy figures, never test assertions.

Each suite is a module ``companion/bench/<suite>.py`` defining ``HELP`` (one line),
``register(parser)`` and ``run(args) -> dict``: the figures, which ``companion bench`` prints as a
table and, with ``--json``, as JSON. Figures go into ``BENCHMARKS.md`` with the command line that
produced them.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType


def suites() -> dict[str, ModuleType]:
    package = sys.modules[__name__]
    found = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name == "common":
            continue
        found[info.name] = importlib.import_module(f"{__name__}.{info.name}")
    return found
