"""The scripted whole games (2, 3 and 4 players), checked move by move to their winners, and
read back from the camera one still moment at a time."""

from __future__ import annotations

import pytest

from companion.games.matching import CLEAR_MARGIN
from companion.games.terra_turrium import scripts
from companion.games.terra_turrium.state import PHASE_OVER

from ._support import GAME

NAMES = sorted(scripts.SCRIPTS)


def play_through(script):
    """Every step judged as the script says; returns the final state."""
    state = GAME.setup(script.players, script.options, seed=script.seed)
    for number, step in enumerate(script.steps):
        move = GAME.move_from_json(step.move)
        where = f"{script.title}, step {number} ({GAME.notation(state, move)})"
        verdict = GAME.check(state, move)
        assert state.phase != PHASE_OVER, f"{where}: the game was already over"
        if step.kind in ("play", "ask"):
            assert verdict.legal, f"{where}: {verdict.rule.id if verdict.rule else ''}"
            state = GAME.apply(state, move)
        elif step.kind == "illegal":
            assert not verdict.legal and verdict.rule.id == step.rule, where
        else:  # let_stand
            assert not verdict.legal and verdict.rule.id == step.rule, where
            state = GAME.apply(state, move)
        assert sum(state.heights) + state.off_board == state.start_blocks, where
    return state


@pytest.mark.parametrize("name", NAMES)
def test_scripted_game_reaches_its_winners(name):
    make, winners = scripts.SCRIPTS[name]
    script = make()
    state = play_through(script)
    assert state.phase == PHASE_OVER
    outcome = GAME.outcome(state)
    assert outcome.winners == winners
    assert all(GAME.scores(state)[w] == 6 for w in winners)


@pytest.mark.parametrize("name", NAMES)
def test_scripted_game_read_from_the_camera(name):
    """Each step is what the referee reads from the still moment after it: the top candidate
    for a move or an illegal move, a question (two close candidates) for an ``ask``."""
    script = scripts.SCRIPTS[name][0]()
    state = GAME.setup(script.players, script.options, seed=script.seed)
    for number, step in enumerate(script.steps):
        move = GAME.move_from_json(step.move)
        result = GAME.apply(state, move)
        candidates = GAME.candidates(state, GAME.expected_observation(result))
        where = f"{script.title}, step {number} ({GAME.notation(state, move)})"
        assert candidates, where
        if step.kind == "ask":
            close = [c for c in candidates if c.rank - candidates[0].rank < CLEAR_MARGIN]
            assert len(close) >= 2 and move in [c.move for c in close], where
        else:
            best = candidates[0]
            assert best.move == move, f"{where}: read {GAME.notation(state, best.move)}"
            if len(candidates) > 1:
                assert candidates[1].rank - best.rank >= CLEAR_MARGIN, where
            assert best.verdict.legal == (step.kind == "play"), where
            if step.rule:
                assert best.verdict.rule.id == step.rule, where
        if step.kind != "illegal":
            state = result


def test_scripts_cover_player_counts_illegal_moves_and_questions():
    counts = {len(make().players) for make, _ in scripts.SCRIPTS.values()}
    assert counts == {2, 3, 4}
    kinds = {step.kind for make, _ in scripts.SCRIPTS.values() for step in make().steps}
    assert kinds == {"play", "illegal", "let_stand", "ask"}
    rules = {step.rule for make, _ in scripts.SCRIPTS.values() for step in make().steps
             if step.rule}
    assert len(rules) >= 8


def test_demo_script_is_the_two_player_game():
    demo = scripts.demo_script()
    assert demo.game == "terra-turrium" and demo.players == ("red", "blue")
    assert any(step.kind == "illegal" for step in demo.steps)
    for step in demo.steps:
        assert GAME.move_to_json(GAME.move_from_json(step.move)) == dict(step.move)


def test_four_player_game_has_an_attack_a_defence_and_re_entries():
    script = scripts.four_player_script()
    state = GAME.setup(script.players)
    notes = []
    entries = 0
    for step in script.steps:
        move = GAME.move_from_json(step.move)
        if step.kind == "illegal":
            continue
        notes += GAME.check(state, move).notes
        entries += sum(1 for a in move.actions if a.kind == "enter")
        state = GAME.apply(state, move)
    assert any("attacks (1/5)" in n for n in notes)
    assert any("defends" in n for n in notes)
    assert entries == 2
    assert state.attacks == (0, 1, 0, 0)
