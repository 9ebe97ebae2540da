"""A small seeded corpus read once for the reader's tests (rendering is the slow part)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import pytest

from companion.observation import Observation
from companion.synth.gleebs.corpus import CorpusItem, corpus, score
from companion.vision.gleebs.reader import GleebsReader


@dataclass
class Read:
    item: CorpusItem
    seen: Observation | None
    score: dict[str, Any]


@pytest.fixture(scope="session")
def corpus_readings() -> list[Read]:
    """24 positions in 6 sessions (camera, light, colour calibration each), a quarter of the
    frames with an arm reaching in, each read by a reader made for its session."""
    out = []
    reader = None
    session = None
    for item in corpus(24, seed=8, per_session=4, hand_probability=0.25):
        if item.session != session:
            reader = GleebsReader(item.shot.view.camera, item.colours)
            session = item.session
        seen = reader.read(item.image)
        out.append(Read(item, seen, score(item.truth.observation, seen)))
    return out


def chains(observation: Observation) -> dict[tuple[int, int], list[tuple[Any, Any]]]:
    """Each square's pyramids, bottom first, as (colour, size)."""
    out = defaultdict(list)
    for p in sorted(observation.of_kind("pyramid"), key=lambda p: p.level):
        out[tuple(p.cell)].append((p.get("colour"), p.get("size")))
    return dict(out)


def read_session(seed: int, session: int, position: int):
    """A benchmark corpus session's frames read in order up to ``position`` (a reader reads its
    session's frames in order, as at a table): the last item, its reading, the reader."""
    items = [i for i in corpus(4, seed=seed, first_session=session) if i.index % 4 <= position]
    reader = GleebsReader(items[0].shot.view.camera, items[0].colours)
    for item in items:
        seen = reader.read(item.image)
    return item, seen, reader
