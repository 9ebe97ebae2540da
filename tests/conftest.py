"""Shared test fixtures. Tests are deterministic: every random source is seeded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# One hypothesis profile for the whole suite: seeded (derandomized) and bounded, so a run is
# repeatable and quick. Set HYPOTHESIS_PROFILE=thorough for a longer local search.
settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A fresh data directory (event log, keyframes, calibration) for one test."""
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where tests leave files for a person to look at (screenshots, annotated frames)."""
    path = REPO / "artifacts"
    path.mkdir(exist_ok=True)
    return path


def pytest_collection_modifyitems(config, items):
    """Modules holding slow tests (whole games from video) first, each module kept whole: the
    workers of ``pytest -n auto`` start on the long ones together and fill the gaps with the
    quick ones after, instead of one worker ending the run alone on a long game. A module
    stays contiguous, so its module-scoped fixtures are built once per worker as before."""
    slow_modules = {item.module.__name__ for item in items
                    if item.get_closest_marker("slow") is not None and item.module is not None}
    items.sort(key=lambda item: 0 if item.module is not None and item.module.__name__ in slow_modules else 1)
