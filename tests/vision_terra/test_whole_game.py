"""A scripted game of Terra Turrium, rendered as a video (arms making each move, the table standing
still between them), refereed live: frames through the referee loop, a stillness gate, the camera
reader and the referee. Every verdict must be the script's, illegal moves flagged with the rule
they break and taken back, and each turn's end inferred from the next player's first action.

The video plays the demo's whole two-player game (31 steps, red wins): the layout, turns whose
blocks land on squares a taller tower hides from the camera (read from the reader's memory),
squares emptied while hidden and hidden again later (the memory must follow the sure reading in
between), four illegal moves, two turns that lay a block on a square the camera never sees
(steps 9 and 13: the referee cannot tell it from a block still in hand, so it asks, and the next
turn is judged from the answer), a flag walked onto a square the camera never sees (step 20:
seen leaving, counted there) and walked off it later (step 23), and flags whose heads nearer
towers half hide. About 30 s of CPU (75–85 s wall on the loaded 2-core VM), hence slow."""

from __future__ import annotations

import pytest

from companion import events as ev
from companion.demo.terra import DEMO_BOARD, demo_source, gate_for, with_hidden_puts_asked
from companion.games import get_game
from companion.games.terra_turrium.scripts import demo_script
from companion.referee.scripted import compare
from companion.runtime.loop import RefereeLoop
from companion.runtime.table import Table
from companion.synth.terra.colour_shot import learn_colours
from companion.synth.terra.generate import table_layout
from companion.vision.terra.reader import TerraReader


@pytest.mark.slow
def test_the_whole_demo_game_is_refereed_from_the_video(data_dir):
    script = demo_script()
    assert sum(1 for s in script.steps if s.kind == "illegal") >= 4
    game = get_game(script.game)
    source = demo_source(script, seed=5, still_frames=3, hand_frames=2)
    reader = TerraReader(camera=source.shot.view.camera, layout=table_layout(),
                         colours=learn_colours(DEMO_BOARD, source.shot))
    table = Table(data_dir)
    referee = table.start_game(script.game, list(script.players), dict(script.options), seed=script.seed)
    loop = RefereeLoop(table, source, reader, gate_for(source), keyframes=False)
    answered: set[int] = set()
    stood: set[int] = set()
    state_before: dict[int, object] = {}
    state = referee.state
    # the state before each script step, for answering in notation
    for number, step in enumerate(script.steps):
        state_before[number] = state
        if step.kind != "illegal":
            state = game.apply(state, game.move_from_json(step.move))
    visible: dict[int, tuple[float, ...]] = {}
    above: dict[int, tuple[float, ...]] = {}
    while loop.step():
        assert source.last is not None and source.last_truth is not None
        visible[int(source.last.step)] = tuple(source.last_truth["visible"])
        above[int(source.last.step)] = tuple(source.last_truth["visible_above"])
        number = source.positions[source.last.step].step
        if number < 0:
            continue
        step = script.steps[number]
        if referee.session.question is not None and number not in answered:
            answered.add(number)
            move = game.move_from_json(step.move)
            referee.answer(game.notation(state_before[number], move), actor="table")
        if (step.kind == "let_stand" and referee.session.pending_illegal is not None
                and number not in stood):
            stood.add(number)
            referee.let_stand(actor="table")
    events = table.log.events(referee.session.game_id)
    asked = with_hidden_puts_asked(script, visible, above)
    assert [n for n, s in enumerate(asked.steps) if s.kind == "ask"] == [9, 13]
    result = compare(game, asked, events)
    assert not result.mismatches, "\n".join(result.mismatches[:10])
    assert result.questions == 2 and result.correct == len(script.steps)
    assert loop.stats.hands == 0 or loop.stats.readings > loop.stats.hands
    judged = [e for e in events if e.type == ev.MOVE_JUDGED]
    assert sum(1 for e in judged if not e.data["legal"]) >= 4
    # the table the referee tracks is the script's, and red has won
    assert (referee.state.heights, referee.state.flags) == (state.heights, state.flags)
    assert referee.state.winners == ("red",)
