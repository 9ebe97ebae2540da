"""Scoring a reading against the synthetic table's ground truth.

Pieces are matched where they physically are, not by their cell numbers: a reported cube is
right when a cube of the same level stands within half a cell of where the reader's own lattice
puts it (the lattice's numbering is the reader's to choose, and a shift of the whole numbering by
a cell is the same reading, see ``docs/observation.md``). A reported cube that matches a cube the
truth does not expect (one almost wholly hidden) is still right; recall counts only the expected
ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.observation import Observation
from companion.synth.truth import Truth
from companion.vision.hlc.lattice import Lattice

_NEAR_MM = 10.0


@dataclass
class Tally:
    """Counts for precision and recall of one kind of piece."""

    reported: int = 0
    correct: int = 0
    expected: int = 0
    found: int = 0

    def add(self, other: "Tally") -> None:
        self.reported += other.reported
        self.correct += other.correct
        self.expected += other.expected
        self.found += other.found

    @property
    def precision(self) -> float:
        return self.correct / self.reported if self.reported else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0


@dataclass
class FrameScore:
    cubes: Tally
    giants: Tally
    card_right: bool
    lattice_same: bool
    errors: list[str]


def _match(reported: list[tuple[np.ndarray, object]], truth: list[tuple[np.ndarray, object, bool]]) -> Tally:
    """Greedy matching by distance: reported (position, key) against truth (position, key,
    expected); keys must be equal and positions within half a cell."""
    t = Tally(reported=len(reported), expected=sum(1 for *_, e in truth if e))
    used: set[int] = set()
    pairs = []
    for a, (p, key) in enumerate(reported):
        for b, (q, tkey, _) in enumerate(truth):
            if key == tkey:
                d = float(np.linalg.norm(p - q))
                if d < _NEAR_MM:
                    pairs.append((d, a, b))
    taken_a: set[int] = set()
    for d, a, b in sorted(pairs):
        if a in taken_a or b in used:
            continue
        taken_a.add(a)
        used.add(b)
    t.correct = len(taken_a)
    t.found = sum(1 for b in used if truth[b][2])
    return t


def score(obs: Observation, truth: Truth) -> FrameScore:
    errors: list[str] = []
    lat_json = obs.board.get("lattice") if obs.board else None
    lattice = Lattice.from_json(lat_json) if lat_json else truth.lattice
    cubes_rep = []
    for p in obs.of_kind("cube"):
        if p.cell is None or p.level is None:
            continue
        c = lattice.to_table(np.array([[p.cell[0] + 1.0, p.cell[1] + 1.0]]))[0]
        cubes_rep.append((c, p.level))
    cubes_true = [(np.array(c.xyz[:2]), c.level, c.expected) for c in truth.cubes]
    cubes = _match(cubes_rep, cubes_true)
    giants_rep = []
    for p in obs.of_kind("giant"):
        if p.cell is None:
            continue
        c = lattice.to_table(np.array([[p.cell[0] + 0.5, p.cell[1] + 0.5]]))[0]
        giants_rep.append((c, (p.get("colour"), p.level)))
    giants_true = [(np.array(g.xyz[:2]), (g.name, g.level), g.expected) for g in truth.giants]
    giants = _match(giants_rep, giants_true)
    got_card = next((p.get("card") for p in obs.in_zone("played")), None)
    want_card = truth.card.name if truth.card is not None and truth.card.expected else None
    card_right = got_card == want_card
    if not card_right:
        errors.append(f"card {got_card} for {want_card}")
    tl = truth.lattice
    da = (lattice.angle_deg - tl.angle_deg + 45.0) % 90.0 - 45.0
    same = abs(da) < 1.0 and float(np.linalg.norm(np.subtract(lattice.origin, tl.origin))) < 3.0
    return FrameScore(cubes, giants, card_right, same, errors)
