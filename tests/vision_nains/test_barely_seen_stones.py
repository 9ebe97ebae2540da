"""How the referee weighs the stones the camera barely sees on a building (the readings the
demo video gives where the La Ville des Nains reader is unsure), on the demo script's own
positions: a stack read on a bare slot, and a stone imagined under a long block lying towards
the camera."""

from __future__ import annotations


from companion.games import get_game
from companion.games.matching import CLEAR_MARGIN
from companion.games.ville_des_nains import camera
from companion.games.script import states as script_states
from companion.games.ville_des_nains.scripts import demo_script
from companion.observation import Observation, Piece


def states(upto: int):
    """The demo script's states before each of its first ``upto`` steps (illegal steps put
    back), and the state after the last."""
    game = get_game("ville-des-nains")
    script = demo_script()
    return game, script, script_states(game, script)[:upto + 1]


def reading(state, building: tuple[str, int], stones: list[tuple[str, str, float]]) -> Observation:
    """The ideal reading of ``state`` with ``building``'s stones read as ``stones`` (colour,
    shape, confidence, bottom first)."""
    seat, b = building
    pieces = [p for p in camera.expected_pieces(state)
              if not (p.zone == f"player:{seat}" and p.get("building") == b)]
    pieces += [Piece("stone", conf=c, zone=f"player:{seat}", level=k,
                     attrs={"building": b, "colour": colour, "shape": shape})
               for k, (colour, shape, c) in enumerate(stones)]
    return Observation(game="ville-des-nains", pieces=tuple(pieces))


def test_a_stack_on_a_bare_slot_is_not_taken_for_nothing():
    # step 20: green builds a red cube and a violet long block on the slot it emptied at step
    # 19; the camera reads the cube (under the block's overhang) at 0.2, the block at 0.78
    game, script, s = states(21)
    before, after = s[20], s[21]
    assert not before.buildings[0][3].stones
    obs = reading(after, ("green", 3), [("red", "cylinder", 0.2), ("violet", "long", 0.78)])
    built = [c for c in game.candidates(before, obs) if c.verdict.legal]
    assert built and game.move_to_json(built[0].move) == script.steps[20].move
    # "nothing happened" is clearly worse: the referee settles the build at once
    assert game.explain(before, obs) > built[0].cost + CLEAR_MARGIN
    # a stack read on a bare slot costs at least a missed stone, however unsure its stones
    unsure = reading(after, ("green", 3), [("red", "cylinder", 0.05), ("violet", "long", 0.1)])
    assert game.explain(before, unsure) - game.explain(after, unsure) >= 2.0


def test_a_stone_imagined_under_a_long_block_is_left_out_when_the_rules_need_it():
    # step 31: white's two long blocks lying towards the camera on building 5, read a level
    # higher over a red cylinder seen at 0.09: four stones from three dice, no legal move
    game, script, s = states(32)
    before, after = s[31], s[32]
    seen = [("red", "cylinder", 0.09), ("orange", "long", 0.44), ("violet", "long", 0.74)]
    obs = reading(after, ("white", 5), seen)
    cands = game.candidates(before, obs)
    assert cands[0].verdict.legal and game.move_to_json(cands[0].move) == script.steps[31].move
    assert all(c.rank > cands[0].rank + CLEAR_MARGIN for c in cands[1:] if c.state != cands[0].state)
    assert game.explain(before, obs) > cands[0].cost + CLEAR_MARGIN
    # the state with the two long blocks explains the reading about as well as the reading
    # explains itself: the cylinder costs what a stone hidden under an overhang costs
    assert game.explain(after, obs) < 1.0
    # seen clearly, the stone under the long blocks stays: no move leaves it out
    sure = reading(after, ("white", 5), [("red", "cylinder", 0.6)] + seen[1:])
    assert all(c.verdict.legal is False for c in game.candidates(before, sure))
