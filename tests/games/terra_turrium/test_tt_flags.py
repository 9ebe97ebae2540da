"""Phase 3: flags. Five movement points, orthogonal steps onto constructions, one level at a
time, never through a flagged tower; captures and their cost table, attack and defence, the five
attacks; re-entering a captured flag."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import TerraTurriumOptions

from ._support import GAME, after, assert_breaks, assert_legal, pos

#: a small landscape in red's corner for climbing and capturing
HILLS = """
10 ..........
 9 .11111111.
 8 .11111111.
 7 .11111111.
 6 .11111111.
 5 .11111111.
 4 .11231111.
 3 .11111111.
 2 .12341111.
 1 ..........
"""


def hills(flags, **kw):
    return pos(HILLS, flags=flags, **kw)


# -- movement ------------------------------------------------------------------------------------


def test_tt_flag_points__legal():
    state = after(pos(), "red: c5-d5-d6-d7-d8-d9")
    assert state.mp == 0
    assert_legal(pos(), "red: c5-d5-d6 b5-b6-b7")  # shared freely between flags


def test_tt_flag_points__illegal():
    assert_breaks(pos(), "red: c5-d5-d6-d7-d8-d9-e9", "tt.flag.points")
    assert_breaks(pos(), "red: c5-d5-d6 b5-b6-b7-b8-b9", "tt.flag.points")


def test_tt_flag_own__legal():
    assert_legal(pos(), "red: b5-b6")


def test_tt_flag_own__illegal():
    assert_breaks(pos(), "red: g8-f8", "tt.flag.own")  # blue's flag, moved on red's turn


def test_tt_flag_construction__legal():
    assert_legal(pos(), "red: b5-b6")


def test_tt_flag_construction__illegal():
    assert_breaks(pos(), "red: b5-a5", "tt.flag.construction")  # a5 is an empty square


def test_tt_flag_one_per_construction__legal():
    assert_legal(pos(), "red: c5-d5")


def test_tt_flag_one_per_construction__illegal():
    assert_breaks(pos(), "red: b4-b3", "tt.flag.one-per-construction")


def test_tt_flag_through__legal():
    assert_legal(pos(), "red: c5-d5-d4")  # around the flag on c4


def test_tt_flag_through__illegal():
    assert_breaks(pos(), "red: c5-c4-d4", "tt.flag.through")  # through red's own flag on c4
    state = hills({"c3": "red", "d3": "blue"})
    assert_breaks(state, "red: c3-d3-e3", "tt.flag.through")  # over blue's flag, no capture


def test_tt_flag_height__legal():
    state = hills({"b2": "red"})
    assert after(state, "red: b2-c2-d2-e2").mp == 2  # 1, 2, 3, 4: one level a step
    assert_legal(hills({"e2": "red"}), "red: e2-d2-c2")  # down one level a step


def test_tt_flag_height__illegal():
    assert_breaks(hills({"c3": "red"}), "red: c3-d3-d2", "tt.flag.height")  # 1 -> 3 up
    assert_breaks(hills({"e2": "red"}), "red: e2-e3", "tt.flag.height")  # 4 -> 1 down


def test_a_step_is_orthogonal():
    with pytest.raises(MalformedMove, match="one orthogonal step"):
        GAME.apply(pos(), GAME.parse_notation(pos(), "red: c5-d6"))
    with pytest.raises(MalformedMove, match="no flag on e5"):
        GAME.apply(pos(), GAME.parse_notation(pos(), "red: e5-e6"))


# -- captures ------------------------------------------------------------------------------------


@pytest.mark.parametrize("flags, text, cost", [
    ({"c4": "red", "d4": "blue"}, "red: c4xd4", 3),  # up one level: 3 in all
    ({"c3": "red", "d3": "blue"}, "red: c3xd3", 2),  # same level: 2
    ({"d4": "red", "d3": "blue"}, "red: d4xd3", 1),  # down one level: 1
])
def test_tt_capture_cost__legal(flags, text, cost):
    state = hills(flags)
    assert_legal(state, text)
    done = after(state, text)
    assert done.mp == 5 - cost
    assert done.flags_at(board.parse_square(text[-2:])) == ("red",)
    assert done.reserve == (0, 1)  # the captured flag went back to blue


@pytest.mark.parametrize("flags, text, cost", [
    ({"c4": "red", "d4": "blue"}, "red: c4xd4", 2),
    ({"c3": "red", "d3": "blue"}, "red: c3xd3", 1),
    ({"d4": "red", "d3": "blue"}, "red: d4xd3", 1),
])
def test_alternative_capture_table(flags, text, cost):
    state = hills(flags, options=TerraTurriumOptions(capture_costs="2/1/1"))
    assert after(state, text).mp == 5 - cost


def test_tt_capture_cost__illegal():
    # three steps, then a capture one level up (3): 6 points
    state = hills({"b6": "red", "d4": "blue"})
    assert_breaks(state, "red: b6-b5-b4-c4xd4", "tt.capture.cost")


def test_capture_must_respect_the_height_rule():
    state = hills({"c3": "red", "d2": "blue"})
    assert_breaks(state, "red: c3-d3xd2", "tt.flag.height")  # 1 -> 3


def test_defence_in_own_territory_and_attack_elsewhere():
    state = hills({"c3": "red", "d3": "blue", "e5": "red", "f5": "blue"})
    defended = after(state, "red: c3xd3")
    assert defended.attacks == (0, 0)
    assert any("defends" in note for note in GAME.check(state, GAME.parse_notation(
        state, "red: c3xd3")).notes)
    attacked = after(state, "red: e5xf5")  # f5 is yellow's land, neutral: an attack
    assert attacked.attacks == (1, 0)
    assert GAME.status(attacked)["attacks_left"] == {"red": 4, "blue": 5}


def test_tt_attack_max__legal():
    state = hills({"e5": "red", "f5": "blue", "c3": "red", "d3": "blue"}, attacks={"red": 4})
    assert_legal(state, "red: e5xf5")  # the fifth attack
    state = hills({"c3": "red", "d3": "blue"}, attacks={"red": 5})
    assert_legal(state, "red: c3xd3")  # a defence is not an attack


def test_tt_attack_max__illegal():
    state = hills({"e5": "red", "f5": "blue"}, attacks={"red": 5})
    assert_breaks(state, "red: e5xf5", "tt.attack.max")
    assert after(state, "red: e5xf5").attacks == (6, 0)  # let stand, it is recorded


# -- re-entry ------------------------------------------------------------------------------------


def with_captured_red(**kw):
    """Red has five flags on the board; the sixth was captured."""
    return pos(flags={"c3": "red", "b4": "red", "c4": "red", "b5": "red", "c5": "red",
                      "h8": "blue"}, reserve={"red": 1, "blue": 5}, **kw)


def test_tt_reentry_free__legal():
    assert_legal(with_captured_red(), "red: *b2")


def test_tt_reentry_free__illegal():
    assert_breaks(with_captured_red(), "red: *a2", "tt.reentry.free")  # an empty square
    assert_breaks(with_captured_red(), "red: *b4", "tt.reentry.free")  # a flag stands there


def test_tt_reentry_exterior__legal():
    state = after(with_captured_red(), "red: *e2")  # e1 below is empty
    assert state.reserve == (0, 5) and state.mp == 4


def test_tt_reentry_exterior__illegal():
    assert_breaks(with_captured_red(), "red: *d4", "tt.reentry.exterior")


def test_tt_reentry_cost__legal():
    assert_legal(with_captured_red(mp=1, stage="flags"), "red: *b2")


def test_tt_reentry_cost__illegal():
    assert_breaks(with_captured_red(mp=0, stage="flags"), "red: *b2", "tt.reentry.cost")


FULL = "\n".join(["1111111111"] * 10)


def test_tt_reentry_own_edge__legal():
    options = TerraTurriumOptions(reentry_own_edge=True)
    state = pos(FULL, flags={"c3": "red", "h8": "blue"}, reserve={"red": 5, "blue": 5},
                options=options)
    assert_legal(state, "red: *a3")
    assert_legal(state, "red: *e1")


def test_tt_reentry_own_edge__illegal():
    options = TerraTurriumOptions(reentry_own_edge=True)
    state = pos(FULL, flags={"c3": "red", "h8": "blue"}, reserve={"red": 5, "blue": 5},
                options=options)
    assert_breaks(state, "red: *j3", "tt.reentry.own-edge")  # an edge, but yellow's land
    assert_breaks(state, "red: *c2", "tt.reentry.own-edge")  # own land, not the edge
    # without the option any free exterior construction will do, yellow's edge included
    assert_legal(pos(FULL, flags={"c3": "red"}, reserve={"red": 5, "blue": 6}), "red: *j3")


def test_reentry_without_a_captured_flag_is_not_a_move():
    with pytest.raises(MalformedMove, match="no red flag is off the board"):
        GAME.apply(pos(), GAME.parse_notation(pos(), "red: *b2"))


def test_reentry_waits_for_phase_three():
    assert_breaks(with_captured_red(), "red: -d3 *b2", "tt.turn.order")
    assert_legal(with_captured_red(), "red: -d3 +d3 *b2")
