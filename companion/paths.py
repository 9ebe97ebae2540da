"""Where the program keeps its files.

The event log, keyframes, calibration and enrolled cards live in the user's data directory
(``$XDG_DATA_HOME/companion``, by default ``~/.local/share/companion``), or wherever
``--data-dir`` / ``$COMPANION_DATA_DIR`` point.
"""

from __future__ import annotations

import os
from pathlib import Path


def default_data_dir() -> Path:
    explicit = os.environ.get("COMPANION_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "companion"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory, created if needed."""
    path = Path(override).expanduser() if override else default_data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """Generated data (rendered corpora) that can be rebuilt: outside git, outside the data dir."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(os.environ.get("COMPANION_CACHE_DIR") or Path(base) / "companion")
    path.mkdir(parents=True, exist_ok=True)
    return path
