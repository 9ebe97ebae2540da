"""The demo table's video (``companion demo --game haut-les-cubes``): its stillness gate opens
once per still position, each position is read as it stands, and a scripted game with illegal
moves and a question is refereed from the video through the live loop, verdict by verdict."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.demo.hlc import demo_source, gate_for, reader_for, referee_video
from companion.games.haut_les_cubes.scripts import demo_script


def test_the_gate_opens_once_per_still_position_and_the_reader_reads_it():
    script = demo_script()
    source = demo_source(replace(script, steps=script.steps[:3]), seed=0)
    gate, reader = gate_for(source), reader_for(source)
    settled = []
    while (frame := source.read()) is not None:
        if gate.update(frame.image, frame.t).settled:
            assert not frame.truth["hand"] and not frame.truth["moving"]
            settled.append(frame)
    assert [source.step_of(f) for f in settled] == [-1, 0, 1, 2]
    last = settled[-1]
    seen = reader.read(last)
    scene = source.sequence.keyframes[last.truth["keyframe"]].scene
    assert {(p.cell, p.level) for p in seen.of_kind("cube")} == {((x, y), z) for x, y, z in scene.cubes}
    assert {(p.get("colour"), p.cell, p.level) for p in seen.of_kind("giant")} == \
        {(g.colour, g.cell, g.level) for g in scene.giants}


@pytest.mark.slow
def test_the_demo_game_is_refereed_from_video_move_by_move():
    script = demo_script()
    # the first 48 steps (some 2 minutes of CPU): the giants placed, cubes added and taken,
    # giants moved, two illegal moves put right, two moves the camera cannot tell apart without
    # their card (questions), a tower built to five cubes, and a giant climbing onto a cube
    # the tower hides (step 46: the reader sees the giant but not the cube under it)
    part = replace(script, steps=script.steps[:48])
    kinds = [s.kind for s in part.steps]
    assert kinds.count("illegal") == 2 and kinds.count("ask") == 2
    result = referee_video(part, seed=0)
    c = result.comparison
    assert c.mismatches == [], "\n".join(c.mismatches)
    assert c.questions == kinds.count("ask") and c.unexplained == 0
    # every position was read once it stood still; arms were never read as positions
    assert result.stats.readings >= len(part.steps)
