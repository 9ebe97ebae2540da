"""A scripted game rendered as a video (an arm making each step, illegal steps put right) and
refereed through the live loop as ``companion demo`` plays it: every verdict as the script says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.demo.altitude import demo_source, gate_for, reader_for, referee_video
from companion.games.altitude.scripts import demo_script


def _opening():
    """The demo game's first sixteen steps: five mistakes flagged and put right (a card given
    to a seat with no mountain, a hand card thrown while the drawn card is shown, a 4 on an 8
    and a 5, an avalanche in one's own mountain, a card replaced under an avalanche), a drawn
    card shown, avalanches given (two copies printed alike), the rule text's 9 on 8 and 5, and a
    Saint-Bernard rescue whose card the camera cannot see, asked."""
    script = demo_script()
    return replace(script, steps=script.steps[:16])


@pytest.mark.slow
def test_the_demo_games_opening_is_refereed_from_video_move_by_move():
    script = _opening()
    kinds = [s.kind for s in script.steps]
    assert kinds.count("illegal") == 5 and kinds.count("ask") == 1
    result = referee_video(script, seed=0, hand_frames=2, still_frames=3)
    c = result.comparison
    assert c.mismatches == [], "\n".join(c.mismatches)
    assert c.questions == 1 and c.unexplained == 0
    illegal = [e for e in c.judged if not e["legal"]]
    assert [e["rule"] for e in illegal] == [s.rule for s in script.steps if s.kind == "illegal"]
    # every frame went through the gate; the frames with an arm were never read as positions
    assert result.stats.frames == 3 + 5 * (len(script.steps) + kinds.count("illegal"))
    assert result.stats.readings >= len(script.steps) + kinds.count("illegal")


def test_the_videos_frames_say_which_step_they_show_and_the_gate_opens_once_per_position():
    source = demo_source(demo_script(), seed=1, hand_frames=2, still_frames=3)
    gate = gate_for(source)
    settled = []
    steps = []
    for _ in range(3 + 3 * 5):  # the start, the first step, its putting right, the second step
        frame = source.read()
        steps.append(source.step_of(frame))
        if gate.update(frame.image, frame.t).settled:
            settled.append((frame.truth["still"], frame.truth["position"]))
    assert steps == [-1] * 3 + [0] * 5 + [0] * 5 + [1] * 5
    assert settled == [(True, 0), (True, 1), (True, 2), (True, 3)]
    assert [p.put_back for p in source.positions[:4]] == [False, False, True, False]
    # the reader the demo gives sees what the video shows: the card given, then taken back
    reader = reader_for(source)
    assert reader.seats == ("red", "yellow", "blue")
