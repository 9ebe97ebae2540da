"""The referee at the terminal: typed answers, undo, let stand, corrections."""

from __future__ import annotations

import io

from companion.games import get_game
from companion.runtime.console import Console
from companion.runtime.table import Table

HLC = get_game("haut-les-cubes")


def observe(table, notation):
    state = table.referee.state
    after = HLC.apply(state, HLC.parse_notation(state, notation))
    return table.referee.observe(HLC.expected_observation(after))


def test_typed_lines_act_on_the_game_and_bad_lines_say_why(data_dir):
    out = io.StringIO()
    table = Table(data_dir)
    try:
        table.start_game(HLC.name, ["red", "blue", "green"])
        console = Console(table, io.StringIO(), out)
        for text in ("red: @-4,0", "blue: @-4,-1", "green: @3,1"):
            observe(table, text)
        observe(table, "red: N 2,-2^1")  # a half-empty base: flagged
        assert table.referee.session.pending_illegal is not None
        assert console.handle("let\n") == "the illegal move stands"
        assert (2, -2, 1) in table.referee.state.cubes
        assert console.handle("undo") == "undone"
        assert (2, -2, 1) not in table.referee.state.cubes
        assert console.handle("3").startswith("cannot: no question")
        assert console.handle("correct nonsense").startswith("cannot:")
        assert console.handle("dance").startswith("not understood")
        assert console.handle("") == ""
        events = table.log.events(table.referee.session.game_id)
        assert [e.actor for e in events if e.type in ("verdict.overridden", "move.undone")] == ["cli", "cli"]
    finally:
        table.close()


def test_a_question_is_printed_with_numbered_choices(data_dir):
    out = io.StringIO()
    table = Table(data_dir)
    try:
        table.start_game(HLC.name, ["red", "blue", "green"])
        Console(table, io.StringIO(), out)
        table.bus.publish  # the console listens to the referee, not the bus
        from companion import events as ev
        event = table.log.append(table.referee.session.game_id, ev.QUESTION_ASKED, {
            "reason": "test", "choices": [{"notation": "red: M 1,1"}, {"notation": "red: H 1,1"}]},
            actor="test")
        for listener in table._listeners:
            listener(event, {})
        text = out.getvalue()
        assert "1. red: M 1,1" in text and "2. red: H 1,1" in text
    finally:
        table.close()
