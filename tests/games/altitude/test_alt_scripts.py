"""The scripted whole games (three players, and the solitaire), checked move by move to their
end and their winner, as the referee would see them through the camera."""

from __future__ import annotations

import json

import pytest

from companion.games.altitude.scripts import SCRIPTS, demo_script, solo_script
from companion.games.script import Script

from ._support import BLUE, GAME, RED, YELLOW

EXPECTED = {
    "demo": ((RED,), {RED: 5, YELLOW: 4, BLUE: 3}),
    "solo": ((RED,), {RED: 9}),
}


def play(script: Script):
    """Plays ``script`` as the referee would: each step recognised from the observation of its
    result (the cheapest candidate, or a tie to ask about), judged, then kept or taken back."""
    state = GAME.setup(script.players, script.options, seed=script.seed)
    history = []
    asked = 0
    for n, step in enumerate(script.steps):
        move = GAME.move_from_json(step.move)
        target = GAME.apply(state, move)
        found = GAME.candidates(state, GAME.expected_observation(target))
        assert found and found[0].cost == 0.0, f"step {n}: {step}"
        tied = [c for c in found if c.cost == found[0].cost]
        if step.kind == "ask":
            assert len(tied) > 1 and move in [c.move for c in tied], f"step {n}: {step}"
            asked += 1
            chosen = next(c for c in tied if c.move == move)
        else:
            assert len(tied) == 1 and tied[0].move == move, f"step {n}: {step}"
            chosen = tied[0]
        assert chosen.state == target and chosen.verdict == GAME.check(state, move)
        if step.kind == "illegal":
            assert not chosen.verdict.legal and chosen.verdict.rule.id == step.rule, \
                f"step {n}: {step}"
            continue  # the cards are put back
        assert chosen.verdict.legal, f"step {n}: {step} breaks {chosen.verdict.rule}"
        if state.phase == "main":
            assert state.hands == (4,) * len(state.players)
        state = target
        history.append(move)
    return state, history, asked


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_game_to_its_end(name):
    script = SCRIPTS[name]()
    assert script.game == "altitude" and script.title and script.options == {"manifest": "mini"}
    state, history, _ = play(script)
    winners, scores = EXPECTED[name]
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_move(state) is None and state.phase == "over"
    assert outcome.winners == winners and dict(outcome.scores) == scores
    assert state.deck == 0 and state.unseen_total == sum(state.hands)
    replay = GAME.setup(script.players, script.options)
    for move in history:
        replay = GAME.apply(replay, move)
    assert replay == state


def test_the_demo_shows_the_text_examples_an_avalanche_rescued_and_mistakes():
    script = demo_script()
    state, _, asked = play(script)
    assert asked == 1
    rules = [s.rule for s in script.steps if s.kind == "illegal"]
    assert len(rules) == 7 and {"alt.value.higher", "alt.avalanche.own", "alt.discard.hand",
                                "alt.replace.covered", "alt.opponent.started",
                                "alt.hand.own"} <= set(rules)
    red = dict(((k, p), c) for k, p, c in state.mountain(RED))
    assert (red[(1, 0)], red[(1, 1)], red[(2, 0)]) == ("m08", "m05", "m09")  # 9 on 8 and 5
    assert (red[(2, 0)], red[(2, 1)], red[(3, 0)]) == ("m09", "tel2", "m13")  # 13 on 9 and 0
    yellow = dict(((k, p), c) for k, p, c in state.mountain(YELLOW))
    assert yellow[(2, 0)] == "ava2"  # blue's avalanche on the 3 and the téléphérique
    assert yellow[(3, 0)] == "tel3"  # only a téléphérique covers an avalanche
    kept = GAME.status(state)["kept"]
    assert kept[RED] == {"cards": 1, "saint_bernards": 1}
    assert kept[YELLOW] == kept[BLUE] == {"cards": 0, "saint_bernards": 0}


def test_the_solitaire_reaches_five_etages_with_the_eagle_on_top():
    state, _, asked = play(solo_script())
    assert asked == 0
    assert GAME.status(state)["breakdown"][RED] == {
        "etages": 5, "animals": 1, "saint_bernards": 2, "empty_hand": 1, "total": 9}
    assert (5, 1, "aigle") in state.mountain(RED)


def test_scripts_are_plain_json():
    for make in SCRIPTS.values():
        for step in make().steps:
            assert json.loads(json.dumps(step.move)) == step.move


def test_the_observation_page_example_is_the_demo_s_ending():
    """docs/observation/altitude.md shows red's mountain at the end of the demo game."""
    import re
    from pathlib import Path

    from companion.observation import Observation

    page = Path(__file__).resolve().parents[3] / "docs" / "observation" / "altitude.md"
    block = re.findall(r"```json\n(.*?)```", page.read_text(encoding="utf-8"), re.S)[-1]
    example = Observation.loads(block)
    state, _, _ = play(demo_script())
    expected = GAME.expected_observation(state)
    mountain = {(p.get("card"), p.get("etage"), p.get("pos")) for p in expected.pieces
                if p.zone == "player:red"}
    shown = {(p.get("card"), p.get("etage"), p.get("pos")) for p in example.pieces
             if p.zone == "player:red"}
    assert shown == mountain
    assert GAME.status(state)["outcome"] == GAME.outcome(state).to_json()


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_game_refereed_from_its_observation_file(name, data_dir):
    """The referee sees only what an ideal camera reports after each step (and the answer to
    its question): it must record the script's moves, verdicts and scores, and ask once where
    the Saint-Bernard lies hidden under the avalanche."""
    from companion.games.script import observation_lines
    from companion.referee import Referee
    from companion.referee.script_lines import feed
    from companion.referee.scripted import compare, step_summary
    from companion.store import EventLog

    script = SCRIPTS[name]()
    lines = [json.dumps(line) for line in observation_lines(GAME, script)]
    with EventLog.in_dir(data_dir) as log:
        referee = Referee.start(log, GAME.name, list(script.players), dict(script.options),
                                seed=script.seed, actor="file")
        list(feed(referee, lines, source="script"))
        events = log.events(referee.session.game_id)
    result = compare(GAME, script, events)
    assert result.mismatches == []
    assert result.questions == step_summary(script.steps).get("ask", 0)
    assert result.unexplained == 0
    assert events[-1].type == "game.ended"
