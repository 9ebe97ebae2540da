"""A scripted game of Terra Turrium, rendered as a video (arms making each move, the table standing
still between them), refereed live: frames through the referee loop, a stillness gate, the camera
reader and the referee. Every verdict must be the script's, illegal moves flagged with the rule
they break and taken back, and each turn's end inferred from the next player's first action.

The video plays the script's opening: the layout, turns whose blocks land on squares a taller
tower hides from the camera (read from the reader's memory), squares emptied while hidden and
hidden again later (the memory must follow the sure reading in between), three illegal moves,
and a turn that lays a block on a square the camera never sees (step 9): the referee cannot tell
it from a block still in hand, so it asks, and the next player's turn is judged from the answer.
Kept to the opening so the folder's tests stay quick."""

from __future__ import annotations

from dataclasses import replace

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


#: the script steps the video plays: the opening, its three illegal moves, the hidden block
#: and the next turn
OPENING_STEPS = 11


def test_a_scripted_game_is_refereed_from_the_video(data_dir):
    full = demo_script()
    script = replace(full, steps=full.steps[:OPENING_STEPS])
    assert sum(1 for s in script.steps if s.kind == "illegal") >= 3
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
    while loop.step():
        assert source.last is not None and source.last_truth is not None
        visible[int(source.last.step)] = tuple(source.last_truth["visible"])
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
    asked = with_hidden_puts_asked(script, visible)
    assert [n for n, s in enumerate(asked.steps) if s.kind == "ask"] == [9]
    result = compare(game, asked, events)
    assert not result.mismatches, "\n".join(result.mismatches[:10])
    assert result.questions == 1
    assert loop.stats.hands == 0 or loop.stats.readings > loop.stats.hands
    judged = [e for e in events if e.type == ev.MOVE_JUDGED]
    assert sum(1 for e in judged if not e.data["legal"]) >= 3
    # the table the referee tracks is the script's after its opening
    assert (referee.state.heights, referee.state.flags) == (state.heights, state.flags)
