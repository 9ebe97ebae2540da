"""The demo contract of Terra Turrium (``companion/demo/terra.py``): the video says which script
step each frame shows, and the reader and stillness gate a table would use for it read its
first still position."""

from __future__ import annotations

from companion.demo.terra import demo_source, gate_for, reader_for
from companion.games.terra_turrium.scripts import demo_script
from companion.vision.stillness import StillnessGate


def test_the_demo_video_comes_with_its_reader_and_gate():
    source = demo_source(demo_script(), seed=3, still_frames=3, hand_frames=1)
    frame = source.read()
    assert frame is not None and source.step_of(frame) == -1
    gate = gate_for(source)
    assert isinstance(gate, StillnessGate) and 0.0 < gate.still_s < 3 / (source.fps or 30.0)
    seen = reader_for(source).read(frame)
    assert seen is not None and not seen.hand
    towers = {p.cell: p.level for p in seen.of_kind("tower")}
    want = {(i % 10, i // 10): h for i, h in enumerate(frame.truth["heights"]) if h > 0}
    assert sum(towers.get(c) == h for c, h in want.items()) >= 0.9 * len(want)
