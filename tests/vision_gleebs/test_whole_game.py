"""A whole scripted game rendered as a video (hands making each step, illegal steps put right)
and refereed through the live loop with the camera reader: every verdict as the script says."""

from __future__ import annotations

import pytest

from companion.demo.gleebs import demo_source, referee_video, video_gate
from companion.games.gleebs_and_grues.scripts import demo_script


@pytest.mark.slow
def test_the_demo_game_is_refereed_from_video_move_by_move():
    script = demo_script()
    result = referee_video(script, seed=0, hand_frames=3, still_frames=3)
    c = result.comparison
    assert c.mismatches == [], "\n".join(c.mismatches)
    assert c.questions == 0 and c.unexplained == 0
    illegal = [e for e in c.judged if not e["legal"]]
    assert len(illegal) == sum(1 for s in script.steps if s.kind == "illegal") == 8
    # every frame went through the gate; arms were seen and never read as positions
    assert result.stats.frames > 200
    assert result.stats.readings >= len(script.steps)
    assert any(e.type == "game.ended" for e in result.events)


def test_the_tables_stillness_gate_opens_once_per_still_position_of_a_video():
    source = demo_source(demo_script(), seed=3, hand_frames=2, still_frames=3)
    gate = video_gate(source)
    settled = []
    for _ in range(3 + 2 * (2 + 3)):  # the start held still, then two changes (hands, then still)
        frame = source.read()
        if gate.update(frame.image, frame.t).settled:
            settled.append((frame.index, frame.truth["still"], frame.truth["position"]))
    assert [s[1] for s in settled] == [True] * len(settled)
    assert [s[2] for s in settled] == [0, 1, 2]
