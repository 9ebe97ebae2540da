"""The scripted whole games, checked move by move to their end and their winner, as the referee
would see them through the camera."""

from __future__ import annotations

import json

import pytest

from companion.games.gleebs_and_grues.pieces import GRUES
from companion.games.gleebs_and_grues.scripts import SCRIPTS, demo_script
from companion.games.gleebs_and_grues.state import empty_cells
from companion.games.script import Script

from ._support import BY, GAME, GR

EXPECTED = {
    "demo": ((GR,), "score", {GR: 7, BY: 4}),
    "no-stack": ((GR,), "no-stack", {GR: 11, BY: 0}),
    "tie": ((GRUES,), "score", {GR: 6, BY: 6}),
    "all-eaten": ((GRUES,), "score", {GR: 0, BY: 0}),
}


def play(script: Script):
    """Plays ``script`` as the referee would: each step is recognised from the observation of
    its result, judged, and kept (a play) or taken back (an illegal step)."""
    state = GAME.setup(script.players, script.options, seed=script.seed)
    history = []
    for n, step in enumerate(script.steps):
        move = GAME.move_from_json(step.move)
        seen = GAME.expected_observation(GAME.apply(state, move))
        best = GAME.candidates(state, seen)[0]
        assert best.move == move and best.cost == 0.0, f"step {n}: {step}"
        verdict = best.verdict
        assert verdict == GAME.check(state, move)
        if step.kind == "illegal":
            assert not verdict.legal and verdict.rule.id == step.rule, f"step {n}: {step}"
            continue   # the pieces are put back
        assert verdict.legal, f"step {n}: {step} breaks {verdict.rule}"
        state = best.state
        history.append(move)
        if state.stage in ("gleeb", "grue"):
            assert GAME.to_move(state) in script.players
    return state, history


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_game_to_its_end(name):
    script = SCRIPTS[name]()
    assert script.game == "gleebs-and-grues" and script.title
    state, history = play(script)
    winners, ending, scores = EXPECTED[name]
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_move(state) is None
    assert outcome.winners == winners and state.ending == ending
    assert dict(outcome.scores) == scores
    assert GAME.status(state)["outcome"] == outcome.to_json()
    # replaying the kept moves gives the same state
    replay = GAME.setup(script.players)
    for move in history:
        replay = GAME.apply(replay, move)
    assert replay == state


def test_the_demo_is_the_rule_texts_game_with_mistakes_and_a_skipped_step():
    script = demo_script()
    kinds = [s.kind for s in script.steps]
    assert kinds.count("illegal") == 8
    rules = {s.rule for s in script.steps if s.kind == "illegal"}
    assert {"gg.grue.same-size", "gg.gleeb.same-colour", "gg.move.no-diagonal",
            "gg.grue.must-cover", "gg.grue.pinned", "gg.gleeb.land-on-gleeb"} <= rules
    state = GAME.setup(script.players)
    notes = []
    for step in script.steps:
        if step.kind == "play":
            move = GAME.move_from_json(step.move)
            notes += GAME.check(state, move).notes
            state = GAME.apply(state, move)
            if state.stage == "gleeb" and state.turn == 0:
                assert len(empty_cells(state.board)) == 1
    assert any("straight to the grue step" in n for n in notes)
    assert any(n.startswith("eaten") for n in notes) and any(n.startswith("pinned") for n in notes)


def test_scripts_are_plain_json():
    for make in SCRIPTS.values():
        script = make()
        for step in script.steps:
            assert json.loads(json.dumps(step.move)) == step.move
