"""A roof read unsure on top of a building may be no stone: from above, a flat top a level
lower and of the same colour shows where a roof's far slope would. The referee tries the
reading without it; the picture and the rules decide.

The reading is the demo video's at the demo script's step 27 (white takes an orange cube for
its building 4, on a violet cube, and draws a plain blue stone; the violet die is not used):
the orange cube read at 0.07 with an orange roof over it at 0.42."""

from __future__ import annotations

from demo_readings import demo_step, white_reading

from companion.games.ville_des_nains import camera
from companion.observation import Observation
from companion.referee.decide import decide

STEP = 27
READ = [("violet", "cube", 0.26), ("orange", "cube", 0.07), ("orange", "roof", 0.42)]


def _before_and_after():
    return demo_step(STEP)


def _reading(state, stones) -> Observation:
    """White's building 4 as read."""
    return white_reading(state, {4: stones})


def test_an_unsure_roof_on_top_may_be_no_stone():
    game, script, before, after = _before_and_after()
    obs = _reading(after, READ)
    cands = camera.candidates(before, obs)
    best = cands[0]
    assert best.verdict.legal and game.move_to_json(best.move) == dict(script.steps[STEP].move)
    # every reading that builds the roof is illegal (a roof on a card that has none there)
    assert all(not c.verdict.legal for c in cands if "roof" in str(c.move))
    decision = decide(game, before, obs)
    # the violet die is unused: the move stands, open, until the turn ends
    assert decision.kind == "tentative" and decision.chosen.candidate.move == best.move


def test_a_roof_read_surely_on_top_is_kept():
    game, script, before, after = _before_and_after()
    sure = READ[:2] + [("orange", "roof", 0.8)]
    cands = camera.candidates(before, _reading(after, sure))
    read = camera._Change(before, _reading(after, sure))
    assert [t.shape for t in read.takes] == ["cube", "roof"]
    assert all(len(o) == 2 for o in read.take_options(before))
    assert cands and all("roof" in str(c.move) for c in cands)
