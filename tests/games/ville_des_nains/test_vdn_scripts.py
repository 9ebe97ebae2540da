"""Scripted whole games, checked move by move to their end and winner, through the rules and
through the camera's ideal reading of each still moment."""

from __future__ import annotations

import pytest

from companion.games.matching import CLEAR_MARGIN
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
    assert state.tower == 4 and state.tower < 12
    assert not state.talon and all(state.finished(b) for row in state.buildings for b in row)
    assert sum(len(row) for row in state.buildings) == 12  # every card built
    assert [v.rule.id for k, v in log if k == "illegal"] == [
        "vdn.dice.colour", "vdn.stone.order", "vdn.blue.finished"]
    assert sum(1 for k, _ in log if k == "ask") == 5
    assert game.scores(state) == {"green": 6, "white": 6}


def test_beach_game_won_by_the_dwarves_when_the_table_is_empty(game):
    state, log = replay(game, beach_script())
    out = game.outcome(state)
    assert out is not None and out.winners == ("green", "white", "pink")
    assert sum(state.pool) == 0 and state.tower == 4
    assert "Beach side" in out.reason_en
    assert [v.rule.id for k, v in log if k in ("illegal", "let_stand")] == [
        "vdn.dice.colour", "vdn.blue.draw", "vdn.dice.none", "vdn.blue.beach-seven",
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
def test_scripts_are_well_formed(name, game):
    script = SCRIPTS[name]()
    assert script.game == "ville-des-nains" and script.title
    game.setup(list(script.players), dict(script.options), seed=script.seed)
    for step in script.steps:
        assert game.move_to_json(game.move_from_json(step.move)) == dict(step.move)
        assert (step.rule is None) == (step.kind in ("play", "ask"))
