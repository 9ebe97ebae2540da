"""Phases 1 and 2: taking blocks (0 to 3, from tops, never under a flag, one per foreign
territory and only from an exterior construction there) and putting every one of them down."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import STAGE_PLACE, STAGE_TAKE

from ._support import GAME, after, assert_breaks, assert_legal, pos

# -- phase 1: taking -----------------------------------------------------------------------------


def test_tt_take_flag__legal():
    assert_legal(pos(), "red: -d3")  # a free tower of red's own territory


def test_tt_take_flag__illegal():
    assert_breaks(pos(), "red: -c3", "tt.take.flag")  # red's own flag stands on c3
    assert_breaks(pos(), "red: -f2 -h8", "tt.take.flag")  # blue's flag on h8


def test_tt_take_max__legal():
    assert_legal(pos(), "red: -d3 -d4 -d5")
    assert_legal(pos(), "red: -d3 -d4 -d5 +e5 +e5 +e5")


def test_tt_take_max__illegal():
    assert_breaks(pos(), "red: -d3 -d4 -d5 -e3", "tt.take.max")


def test_tt_take_one_foreign__legal():
    # one each from yellow (neutral), green (neutral) and blue (the opponent)
    assert_legal(pos(), "red: -f2 -b6 -i6")


def test_tt_take_one_foreign__illegal():
    assert_breaks(pos(), "red: -f2 -g2", "tt.take.one-foreign")  # both in yellow's land


def test_neutral_territory_counts_as_foreign():
    four = GAME.setup(["red", "yellow", "blue", "green"])
    for colour in ("red", "yellow", "blue", "green"):
        far_rows = board.territory_squares(colour)[-6:]
        layout = " ".join(f"{colour[0].upper()}@{board.name(sq)}" for sq in far_rows)
        four = GAME.apply(four, GAME.parse_notation(four, layout))
    # yellow plays: its land is an opponent's; with two players it is neutral: the same rule
    assert_breaks(four, "red: -f1 -g1", "tt.take.one-foreign")
    assert_breaks(pos(), "red: -f2 -g2", "tt.take.one-foreign")
    assert_legal(four, "red: -f1 -a6 -j6")


def test_own_territory_has_no_limit_but_three():
    assert_legal(pos(), "red: -e2 -e2 -d4")  # twice the same tower, and an interior one


def test_tt_take_exterior__legal():
    assert_legal(pos(), "red: -f2")  # f1 below it is empty: exterior
    assert_legal(pos(), "red: -i5")  # j5 beside it is empty: exterior


def test_tt_take_exterior__illegal():
    assert_breaks(pos(), "red: -g3", "tt.take.exterior")  # every line to the edge is built
    assert_breaks(pos(), "red: -d7", "tt.take.exterior")  # green's interior


def test_exterior_is_judged_when_the_block_is_taken():
    diagram = """
10 ..........
 9 ..........
 8 ..........
 7 ..........
 6 ..........
 5 ..........
 4 .....1....
 3 ....111...
 2 .....1....
 1 ..........
"""
    state = pos(diagram, flags={})
    # yellow's f3 is walled in; its only line to the edge runs west through red's e3
    assert_legal(state, "red: -e3 -f3")
    assert_breaks(state, "red: -f3 -e3", "tt.take.exterior")


def test_exterior_definition_four_straight_lines():
    heights = [0] * 100
    for name in ("c3", "d3", "e3", "d2", "d4"):
        heights[board.parse_square(name)] = 1
    # d3 is boxed in on all four sides by its neighbours... but the lines go on: west c3 then
    # b3, a3 empty -> not empty as a whole; so interior
    assert not board.is_exterior(heights, board.parse_square("d3"))
    heights[board.parse_square("d4")] = 0
    assert board.is_exterior(heights, board.parse_square("d3"))  # d4..d10 all empty
    for edge in ("a1", "a5", "j10", "e1", "j4"):
        assert board.is_exterior([1] * 100, board.parse_square(edge))
    assert not board.is_exterior([1] * 100, board.parse_square("b2"))


def test_taking_from_an_empty_square_is_not_a_move():
    with pytest.raises(MalformedMove, match="no block on a1"):
        GAME.apply(pos(), GAME.parse_notation(pos(), "red: -a1"))


def test_tt_turn_order__legal():
    assert_legal(pos(), "red: -d3 -d4 +e5 +e5 b5-b6")


def test_tt_turn_order__illegal():
    assert_breaks(pos(), "red: -d3 +e5 -d4", "tt.turn.order")  # a take after a put
    assert_breaks(pos(), "red: -d3 c5-d5 +e5", "tt.turn.order")  # a flag with a block in hand
    assert_breaks(pos(), "red: b5-b6 -d3", "tt.turn.order")  # a take after the flags


# -- phase 2: putting down -----------------------------------------------------------------------


def test_tt_place_free__legal():
    assert_legal(pos(), "red: -d3 +a1")  # an empty square
    assert_legal(pos(), "red: -d3 +e2")  # stacked on a free construction
    assert_legal(pos(), "red: -d3 +h7")  # in the opponent's territory


def test_tt_place_free__illegal():
    assert_breaks(pos(), "red: -d3 +c3", "tt.place.free")  # under red's own flag
    assert_breaks(pos(), "red: -d3 +h8", "tt.place.free")  # under blue's flag


def test_tt_place_taken__legal():
    assert_legal(pos(), "red: -d3 +d3")


def test_tt_place_taken__illegal():
    # red ends with a block in hand (illegal, let stand); blue puts it down without taking one
    state = after(pos(), "red: -d3 /")
    assert state.off_board == 1 and state.in_hand == 0
    assert_breaks(state, "blue: +e5", "tt.place.taken")


def test_tt_place_all__legal():
    assert_legal(pos(), "red: -d3 -d4 +e5 +d3 /")
    assert_legal(pos(), "red: /")  # taking nothing is allowed


def test_tt_place_all__illegal():
    v = assert_breaks(pos(), "red: -d3 -d4 +e5 /", "tt.place.all")
    assert v.move is not None


def test_stages_follow_the_actions():
    state = after(pos(), "red: -d3")
    assert state.stage == STAGE_TAKE and state.in_hand == 1 and state.taken == (23,)
    state = after(state, "red: +e5")
    assert state.stage == STAGE_PLACE and state.in_hand == 0
    status = GAME.status(state)
    assert status["phase"] == "place" and status["taken"] == ["d3"]


def test_blocks_are_conserved_on_and_off_the_board():
    start = pos()
    for text in ("red: -d3 -d4", "red: -d3 -d4 +e5", "red: -d3 /"):
        state = after(start, text)
        assert sum(state.heights) + state.off_board == start.start_blocks


def test_illegal_moves_still_apply_and_keep_the_state_untouched():
    start = pos()
    snapshot = (start.heights, start.flags, start.taken)
    state = after(start, "red: -c3")  # a block from under a flag, let stand
    assert state.heights[board.parse_square("c3")] == 0
    assert (board.parse_square("c3"), "red") in state.flags
    assert (start.heights, start.flags, start.taken) == snapshot
