"""Scripted whole games, checked move by move to their end and winner: through the rules,
through the camera's ideal reading of each still moment, and through the referee fed each
script's observation file."""

from __future__ import annotations

import json

import pytest

from companion.games.matching import CLEAR_MARGIN
from companion.games.script import observation_lines
from companion.referee import Referee
from companion.referee.script_lines import feed
from companion.referee.scripted import compare, step_summary
from companion.store import EventLog
from companion.games.ville_des_nains.scripts import (
    SCRIPTS, beach_script, demo_script, kobold_script,
)


def replay(game, script):
    """Play ``script`` as the referee would see it; return the final state and a log of what
    each step was judged."""
    state = game.setup(list(script.players), dict(script.options), seed=script.seed)
    log = []
    for number, step in enumerate(script.steps, start=1):
        move = game.move_from_json(step.move)
        where = f"step {number} ({game.notation(state, move)})"
        verdict = game.check(state, move)
        after = game.apply(state, move)
        cands = game.candidates(state, game.expected_observation(after))
        assert cands, f"{where}: the camera's reading of this moment explains no move"
        close = [c for c in cands if c.cost < cands[0].cost + CLEAR_MARGIN]
        if step.kind == "ask":
            assert verdict.legal, f"{where}: {verdict.rule}"
            assert len(close) >= 2, f"{where}: nothing to ask, the camera tells it apart"
            assert any(c.move == move for c in close), f"{where}: the answer is not a choice"
        else:
            assert len(close) == 1 and cands[0].move == move, \
                f"{where}: the camera reads {[game.notation(state, c.move) for c in close]}"
        if step.kind in ("play", "ask"):
            assert verdict.legal, f"{where}: {verdict.rule}"
        else:
            assert not verdict.legal and verdict.rule.id == step.rule, \
                f"{where}: expected {step.rule}, got {verdict.rule}"
            assert cands[0].verdict.rule.id == step.rule
        log.append((step.kind, verdict))
        if step.kind != "illegal":  # an illegal move is put back; a let-stand one stays
            state = after
        if number < len(script.steps):
            assert game.outcome(state) is None, f"{where}: the game ended early"
    return state, log


def test_demo_game_one_stone_side_won_by_the_dwarves(game):
    state, log = replay(game, demo_script())
    out = game.outcome(state)
    assert out is not None and out.winners == ("green", "white")
    assert state.tower == 6 and state.marked == 1
    assert not state.talon and all(state.finished(b) for row in state.buildings for b in row)
    assert sum(len(row) for row in state.buildings) == 12  # every card built
    assert [v.rule.id for k, v in log if k == "illegal"] == [
        "vdn.dice.colour", "vdn.stone.order", "vdn.blue.finished"]
    assert sum(1 for k, _ in log if k == "ask") == 3
    assert game.scores(state) == {"green": 6, "white": 6}


def test_beach_game_won_by_the_dwarves_when_the_table_is_empty(game):
    state, log = replay(game, beach_script())
    out = game.outcome(state)
    assert out is not None and out.winners == ("green", "white", "pink")
    assert sum(state.pool) == 0 and state.tower == 3
    assert "Beach side" in out.reason_en
    assert [v.rule.id for k, v in log if k in ("illegal", "let_stand")] == [
        "vdn.blue.draw", "vdn.dice.colour", "vdn.dice.none", "vdn.blue.beach-seven",
        "vdn.build.beach-full", "vdn.give"]
    # the wrong colour let stand is still in green's first tower
    assert ("violet", "cube") in state.buildings[0][0].stones


def test_game_two_won_by_the_kobold(game):
    state, log = replay(game, kobold_script())
    out = game.outcome(state)
    assert out is not None and out.winners == ("blue",)
    assert state.tower == 12 and not state.city_finished()
    assert [v.rule.id for k, v in log if k == "illegal"] == [
        "vdn.game2.count", "vdn.game2.destroy-face", "vdn.game2.blue", "vdn.game2.unfinished"]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripts_refereed_from_their_observation_files(name, game, data_dir):
    """The referee, seeing only each script's observation file (the camera's ideal reading of
    every moment, the answers and the let-stands), records the script's moves and verdicts,
    asks exactly where the script says the picture is ambiguous, and ends the game."""
    script = SCRIPTS[name]()
    lines = [json.dumps(line) for line in observation_lines(game, script)]
    with EventLog.in_dir(data_dir) as log:
        referee = Referee.start(log, game.name, list(script.players), dict(script.options),
                                seed=script.seed, actor="file")
        list(feed(referee, lines, source=name))
        events = log.events(referee.session.game_id)
    result = compare(game, script, events)
    assert result.mismatches == []
    assert result.questions == step_summary(script.steps).get("ask", 0)
    assert result.unexplained == 0
    assert events[-1].type == "game.ended"


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripts_are_well_formed(name, game):
    script = SCRIPTS[name]()
    assert script.game == "ville-des-nains" and script.title
    game.setup(list(script.players), dict(script.options), seed=script.seed)
    for step in script.steps:
        assert game.move_to_json(game.move_from_json(step.move)) == dict(step.move)
        assert (step.rule is None) == (step.kind in ("play", "ask"))
