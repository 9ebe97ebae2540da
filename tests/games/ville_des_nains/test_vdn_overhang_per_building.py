"""A stone barely seen under a long block may be the block's overhang (the camera shows a long
block lying towards it a level higher over a stone that is not there) or a stone the camera
barely sees: where no legal move explains the reading, the referee tries leaving it out on each
building that allows it, alone and together, and the rules and the picture tell which (an
illegal move too: the stone left out, the move that is read may still break a rule).

The readings are the demo video's at the demo script's step 22 (white builds an orange long
block and a yellow cylinder on its building 3 and a violet cube on building 4; card 10 or 12,
unseen, so the referee asks) and step 26 (white takes a finished building down)."""

from __future__ import annotations

from demo_readings import demo_step, white_reading

from companion.games.matching import CLEAR_MARGIN
from companion.games.ville_des_nains import camera
from companion.games.ville_des_nains.moves import notation
from companion.referee.decide import decide

STEP = 22
#: white's buildings as the camera read them after step 22 (colour, shape, confidence, bottom
#: first): building 1 (two long blocks lying towards the camera) and building 2 (a violet long
#: block, a red cube, an orange cube) each read over a stone that is not there; building 3 (a
#: violet cylinder, then the turn's orange long block and yellow cylinder) read with its lower
#: two stones barely seen, the cylinder as a red one
READ = {
    1: [("red", "cylinder", 0.09), ("yellow", "long", 0.7)],
    2: [("orange", "cylinder", 0.0), ("violet", "long", 0.43), ("red", "cube", 0.41), ("orange", "cube", 0.7)],
    3: [("red", "cylinder", 0.09), ("orange", "long", 0.06), ("yellow", "cylinder", 0.72)],
}


def _before_and_after(number: int = STEP):
    return demo_step(number)


def test_the_overhang_is_left_out_only_where_the_rules_need_it():
    game, script, before, after = _before_and_after()
    obs = white_reading(after, READ)
    # as read, building 2 has a fourth stone: an orange cube with the orange long block is one
    # orange stone too many for the dice, so no legal move builds what was read
    cands = camera.candidates(before, obs)
    as_read = [c for c in cands if "orange-cube@2" in notation(c.move)]
    assert as_read and not any(c.verdict.legal for c in as_read)
    assert cands[0].verdict.legal
    # the stone under building 2's long block is left out; building 3's orange long block,
    # barely seen under the cylinder, is kept (leaving it out would build no long block)
    moves = [game.move_to_json(c.move) for c in cands if c.verdict.legal]
    want = dict(script.steps[STEP].move)
    assert {m["cards"][0]["card"] for m in moves if {**m, "cards": want["cards"]} == want} == {10, 12}
    decision = decide(game, before, obs)
    assert decision.kind == "ask"
    assert sorted(game.move_to_json(o.candidate.move)["cards"][0]["card"] for o in decision.options) == [10, 12]


def test_a_building_read_no_taller_than_the_state_is_left_as_read():
    # building 1, read two stones high as the state has it, is never read as one stone: its
    # barely seen lower stone is what the state says (an orange long block), not a gap
    game, script, before, after = _before_and_after()
    obs = white_reading(after, READ)
    for shifted in camera.vanished_observations(before, obs):
        levels = sorted(p.level for p in shifted.pieces
                        if p.zone == "player:white" and p.get("building") == 1)
        assert levels == [0, 1]
    # buildings 2 and 3 are each tried with and without their lowest stone
    assert len(camera.vanished_observations(before, obs)) == 3


def test_an_illegal_move_read_over_the_overhang_is_flagged():
    # step 26: white draws a marked stone and takes its finished building 0 down (illegal);
    # building 2 is read, as before, over a stone that is not there: as read, only an orange
    # cube built there besides explains it, at the cost of that stone
    game, script, before, after = _before_and_after(26)
    assert script.steps[26].kind == "illegal"
    obs = white_reading(after, {2: READ[2]})
    cands = camera.candidates(before, obs)
    best = cands[0]
    assert game.move_to_json(best.move) == dict(script.steps[26].move)
    assert not best.verdict.legal and best.verdict.rule.id == script.steps[26].rule
    assert all(c.cost > best.cost + CLEAR_MARGIN for c in cands[1:])
    decision = decide(game, before, obs)
    assert decision.kind == "settle" and decision.chosen.candidate.move == best.move
