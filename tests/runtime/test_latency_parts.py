"""The loop's latency, from the first still frame after a move to the verdict, is recorded with
its parts (issue 4, latency figure): the stillness gate's wait, the reading and the judging. The
benchmark reports each part, so a slow verdict can be told apart: a gate set to wait long, a slow
reader, or a referee weighing many candidates."""

from __future__ import annotations

import numpy as np
import pytest
from test_bad_frames import ListSource

from companion.games import get_game
from companion.runtime.loop import RefereeLoop
from companion.runtime.table import Table
from companion.vision.stillness import StillnessGate

GAME = "gleebs-and-grues"


class TruthReader:
    """Reads each still position as the game expects it: position 0 before the move, 1 after."""

    def __init__(self, observations, position_of):
        self.observations = observations
        self.position_of = position_of

    def read(self, frame):
        return self.observations[self.position_of[frame.index]]


def test_latency_is_the_gate_wait_plus_reading_plus_judging(tmp_path):
    game = get_game(GAME)
    table = Table(tmp_path)
    try:
        referee = table.start_game(GAME, ["blue-yellow", "green-red"], {}, seed=0)
        before = referee.state
        move = game.legal_moves(before)[0]
        after = game.apply(before, move)
        observations = [game.expected_observation(before), game.expected_observation(after)]
        rng = np.random.default_rng(1)
        base = rng.integers(60, 90, (72, 128, 3), dtype=np.uint8)
        images, position_of = [], []
        for position in range(2):
            still = base.copy()
            still[10:20, 10 + 30 * position:20 + 30 * position] = 220
            for k in range(4):  # an arm crossing before each still position
                moving = still.copy()
                moving[40:60, 20 * k:20 * k + 30] = 30
                images.append(moving)
                position_of.append(position)
            images += [still] * 10
            position_of += [position] * 10
        gate = StillnessGate(still_s=0.2)
        loop = RefereeLoop(table, ListSource(images), TruthReader(observations, position_of),
                           gate, keyframes=False)
        loop.run()
        stats = loop.stats
        assert table.referee.state == after  # the move was judged from the second reading
        assert stats.readings == 2
        # one verdict (the first reading confirms the set-up and says nothing new)
        assert len(stats.latencies) == 1
        assert len(stats.waits) == len(stats.reading_s) == len(stats.judging_s) == 1
        # the gate's wait is video time: at least the 0.2 s asked, within one frame (15 fps)
        assert 0.2 - 1e-9 <= stats.waits[0] <= 0.2 + 1 / 15 + 1e-9
        assert stats.latencies[0] == pytest.approx(
            stats.waits[0] + stats.reading_s[0] + stats.judging_s[0])
        assert stats.reading_s[0] >= 0 and stats.judging_s[0] > 0
    finally:
        table.close()
