"""The loop's latency, from the first still frame after a move to the verdict, is recorded with
its parts (issue 4, latency figure): the stillness gate's wait, the reading and the judging. The
benchmark reports each part, so a slow verdict can be told apart: a gate set to wait long, a slow
reader, or a referee weighing many candidates.

The loop reads early, on the first frame the gate finds unmoved, so that the reading runs inside
the gate's wait: the latency is then the longer of the wait and the reading, plus the judging.
An early reading the table's moving cancels is taken back, the reader's memory with it."""

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

        self.frames_read: list[int] = []

    def read(self, frame):
        self.frames_read.append(frame.index)
        return self.observations[self.position_of[frame.index]]


def crossing_video(base, arm_frames=4, still_frames=10):
    """Two still positions (a patch moved), an arm crossing before each; 15 fps."""
    images, position_of = [], []
    for position in range(2):
        still = base.copy()
        still[10:20, 10 + 30 * position:20 + 30 * position] = 220
        for k in range(arm_frames):
            moving = still.copy()
            moving[40:60, 20 * k:20 * k + 30] = 30
            images.append(moving)
            position_of.append(position)
        images += [still] * still_frames
        position_of += [position] * still_frames
    return images, position_of


def one_move(tmp_path):
    game = get_game(GAME)
    table = Table(tmp_path)
    referee = table.start_game(GAME, ["blue-yellow", "green-red"], {}, seed=0)
    before = referee.state
    after = game.apply(before, game.legal_moves(before)[0])
    return table, [game.expected_observation(before), game.expected_observation(after)], after


def test_latency_is_the_gate_wait_plus_reading_plus_judging(tmp_path):
    """Read on settling (``read_early=False``): the parts add up."""
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
                           gate, keyframes=False, read_early=False)
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


def test_an_early_reading_runs_inside_the_gate_wait(tmp_path):
    """Read early: the frame read is the first one the gate found unmoved, and the verdict
    follows the gate's settling by the judging alone when the reading ended within the wait."""
    table, observations, after = one_move(tmp_path)
    try:
        images, position_of = crossing_video(np.random.default_rng(1).integers(
            60, 90, (72, 128, 3), dtype=np.uint8))
        reader = TruthReader(observations, position_of)
        loop = RefereeLoop(table, ListSource(images), reader, StillnessGate(still_s=0.2),
                           keyframes=False, read_early=True)
        loop.run()
        assert table.referee.state == after
        # the first position's first unmoved frame (the arm's last frame is 3, the scene then
        # stands from 4 on: 5 is the first the gate compares unmoved), and the second's
        assert reader.frames_read == [5, 19]
        assert loop.stats.early_dropped == 0
        stats = loop.stats
        assert len(stats.latencies) == 1
        assert stats.latencies[0] == pytest.approx(
            max(stats.waits[0], stats.read_by[0]) + stats.judging_s[0])
        # the reading began one frame (1/15 s) into the 0.2 s wait
        assert stats.read_by[0] >= 1 / 15 + stats.reading_s[0] - 1e-9
        # the verdict names the frame it was read from
        sources = [e.data.get("source") for e in table.log.events(table.referee.session.game_id)
                   if isinstance(e.data.get("source"), dict) and "frame" in e.data["source"]]
        assert sources and sources[-1]["frame"] == 19
    finally:
        table.close()


class Remembering(TruthReader):
    """A reader with a memory of the frames it read (as the Haut les Cubes reader remembers
    the last still moment)."""

    #: every frame given to any such reader (kept on the class: outside a reader's memory)
    given: list[int] = []

    def __init__(self, observations, position_of):
        super().__init__(observations, position_of)
        self.seen: list[int] = []

    def read(self, frame):
        Remembering.given.append(frame.index)
        self.seen = self.seen + [frame.index]
        return super().read(frame)


def test_an_early_reading_the_table_cancels_is_taken_back(tmp_path):
    """The table stands still for two frames, then moves again before the gate's 0.2 s: the
    early reading of that pause is dropped, nothing is judged from it, and the reader's memory
    is as if it had never read it."""
    table, observations, after = one_move(tmp_path)
    try:
        base = np.random.default_rng(2).integers(60, 90, (72, 128, 3), dtype=np.uint8)
        images, position_of = crossing_video(base)
        # the second arm pauses: frames 16-17 repeat frame 15, then it moves on
        paused = images[:16] + [images[15]] * 2 + images[16:]
        paused_of = position_of[:16] + [position_of[15]] * 2 + position_of[16:]
        Remembering.given.clear()
        reader = Remembering(observations, paused_of)
        loop = RefereeLoop(table, ListSource(paused), reader, StillnessGate(still_s=0.2),
                           keyframes=False, read_early=True)
        loop.run()
        assert loop.stats.early_dropped == 1
        assert Remembering.given == [5, 16, 21]  # the pause was read early, then dropped ...
        assert reader.seen == [5, 21]  # ... and the reader's memory of it is gone
        assert table.referee.state == after
        assert loop.stats.readings == 2
    finally:
        table.close()
