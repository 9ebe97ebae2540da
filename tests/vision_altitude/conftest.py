"""The cards enrolled once for the reader's tests, as ``companion calibrate cards`` would do it
(rendering them is the slow part)."""

from __future__ import annotations

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
