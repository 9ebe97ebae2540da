"""A scripted game rendered as a video (an arm making each step, illegal steps put right) and
refereed through the live loop with the camera reader and the table's stillness gate, as
``companion demo --game ville-des-nains`` plays it: every verdict as the script says.

The demo script's first thirty-three steps hold three illegal moves (a colour no die shows, a
shape out of its card's order, a marked stone destroying a finished building), three questions
(two cards finished at once: which one is unseen), a blue face drawing two stones, cards the
first stones of a building tell, a stone under a long block that the camera cannot see (the
rules tell which it is), two long blocks lying towards the camera, one on the other (step 19:
once read as a column of four cubes; step 31: read a level higher, over a stone the camera
cannot see, which no legal move builds: the rules leave it out), a roof on a cylinder on a long
block (step 29: once read as a lone roof beside it) and a player's stones settled by the next
player's roll (the last step). About a minute of CPU on the development VM; the next step is
where seed 2's video goes wrong: the whole game does not yet play through (BENCHMARKS.md: with
this video's seed 2 it goes as scripted to step 32, white's two long blocks under a roof read
as a column of four short stones at step 33; ``companion bench vision_nains --demo SEED`` shows
which readings mislead it).

The video is seed 2's (its light and sensor noise)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.demo import nains
from companion.demo.video import play_video
from companion.games import get_game
from companion.games.ville_des_nains.scripts import demo_script
from companion.referee.scripted import compare
from companion.runtime.table import Table

STEPS = 33
SEED = 2


@pytest.mark.slow
def test_the_demo_game_is_refereed_from_video_move_by_move(tmp_path):
    script = demo_script()
    judged = replace(script, steps=script.steps[:STEPS])
    kinds = [s.kind for s in judged.steps]
    assert kinds.count("illegal") == 3 and kinds.count("ask") == 3
    assert judged.steps[STEPS - 1].move["type"] == "roll"
    source = nains.demo_source(judged, seed=SEED)
    table = Table(str(tmp_path))
    try:
        loop = play_video(table, judged, seed=SEED, gate=nains.gate_for(source), source=source)
        referee = table.require_game()
        events = table.log.events(referee.session.game_id)
    finally:
        table.close()
    c = compare(get_game(script.game), judged, events)
    assert c.mismatches == [], "\n".join(c.mismatches)
    assert c.questions == 3 and c.unexplained == 0
    assert [e["legal"] for e in c.judged].count(False) == 3
    assert all(c.judged[k]["asked"] and c.judged[k]["actor"] == "script" for k in (7, 11, 22))
    # every frame went through the gate: one reading per still position, none with an arm
    assert loop.stats.frames == len(source)
    assert loop.stats.readings == len(source.scenes)


def test_the_video_says_which_step_each_frame_shows_and_the_gate_opens_once_per_position():
    script = demo_script()
    script = replace(script, steps=script.steps[:4])  # the third is illegal: put back after it
    source = nains.demo_source(script, seed=3, still_frames=3, hand_frames=2)
    assert [p.step for p in source.positions] == [-1, 0, 1, 2, 3, 3]
    assert [p.put_back for p in source.positions] == [False] * 5 + [True]
    # a question about a turn's stones comes with the next roll: the people answer for that turn
    full = nains.demo_positions(demo_script())[1]
    assert [(p.step, p.asks_for) for p in full if p.step != p.asks_for] == [(8, 7), (12, 11), (23, 22)]
    gate = nains.gate_for(source)
    settled, steps = [], []
    while (frame := source.read()) is not None:
        steps.append(source.step_of(frame))
        if gate.update(frame.image, frame.t).settled:
            settled.append((frame.truth["still"], source.step_of(frame)))
    assert steps[0] == -1 and steps == sorted(steps) and steps[-1] == 3
    assert settled == [(True, -1), (True, 0), (True, 1), (True, 2), (True, 3), (True, 3)]
