"""The cards enrolled once for the reader's tests, as ``companion calibrate cards`` would do it
(rendering them is the slow part)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from companion.synth.altitude.deck import load_deck
from companion.synth.altitude.enrol import enrolled_library, enrolment_shot


@pytest.fixture(scope="session")
def mini_deck():
    return load_deck("mini")


@pytest.fixture(scope="session")
def mini_library(mini_deck):
    """The 24 cards of the ``mini`` deck and a back, one frame each, through a table camera."""
    return enrolled_library(mini_deck, enrolment_shot(seed=2), frames=1)


@lru_cache(maxsize=None)
def demo_library(seed: int, light: str):
    """The demo deck enrolled as the bench enrols it for corpus ``seed`` and ``light``, its
    copies declared printed alike (the twins share a design: kind, value and label)."""
    deck = load_deck("demo")
    lib = enrolled_library(deck, enrolment_shot(seed=seed, light=light), frames=1)
    designs: dict[tuple, list[str]] = {}
    for c in deck:
        designs.setdefault((c.kind, c.value, c.label), []).append(c.id)
    lib.set_twins([g for g in designs.values() if len(g) > 1])
    return lib
