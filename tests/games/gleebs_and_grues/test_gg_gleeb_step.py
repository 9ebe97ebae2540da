"""The gleeb step: own stack, whole, along a line, onto a gleeb of another colour."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.gleebs_and_grues import Step

from ._support import BY, GAME, GR, after, assert_breaks, assert_legal, pos

#: blue-yellow to play; a4, c4, c2, d1 empty; c1 is pinned by the small grue
BOARD = """
.      Gm     .         Gs
Bs     Rl/Ym  Km        Yl
Rs     Bm     .         Kl
Ys     Bl     Gl/Rm/Ks  .
"""


@pytest.fixture
def state():
    s = pos(BOARD)
    assert s.stage == "gleeb" and GAME.to_move(s) == BY
    return s


def test_gg_gleeb_own__legal(state):
    assert_legal(state, "Bs a3xa2")


def test_gg_gleeb_own__illegal(state):
    assert_breaks(state, "Rs a2xa1", "gg.gleeb.own")
    assert_breaks(state, "Gm b4xb3", "gg.gleeb.own")


def test_gg_gleeb_same_colour__legal_own_other_colour_and_any_size(state):
    assert_legal(state, "Bs a3xa1")   # blue onto the player's own yellow, jumping a2
    assert_legal(state, "Bm b2xb3")   # medium onto a stack topped by a medium yellow
    assert_legal(state, "Bl b1xa1")   # large onto small: size is free


def test_gg_gleeb_same_colour__illegal(state):
    assert_breaks(state, "Bm b2xb1", "gg.gleeb.same-colour")
    # a stack counts as the colour of its top: the yellow-topped stack cannot land on yellow,
    # whatever lies under it (the red large at the bottom does not matter)
    assert_breaks(state, "Ym b3xd3", "gg.gleeb.same-colour")


def test_gg_gleeb_whole_stack__legal(state):
    assert_legal(state, "Ym b3xb4")
    moved = after(state, "Ym b3xb4")
    assert moved.stack((1, 2)) == ()
    assert [p.code for p in moved.stack((1, 3))] == ["Gm", "Rl", "Ym"]
    # the stack moves whole, so a big stack is worth all its pips to whoever tops it
    assert GAME.scores(moved)[BY] == GAME.scores(state)[BY] + 2
    assert GAME.scores(moved)[GR] == GAME.scores(state)[GR] - 2


def test_gg_gleeb_whole_stack__illegal(state):
    v = assert_breaks(state, "Ym b3xb4 split", "gg.gleeb.whole-stack")
    split = GAME.apply(state, v.move)   # let stand: the yellow alone went over
    assert [p.code for p in split.stack((1, 2))] == ["Rl"]
    assert [p.code for p in split.stack((1, 3))] == ["Gm", "Ym"]


def test_gg_gleeb_land_on_gleeb__legal(state):
    assert_legal(state, "Bm b2xa2")


def test_gg_gleeb_land_on_gleeb__illegal(state):
    assert_breaks(state, "Bm b2-c2", "gg.gleeb.land-on-gleeb")
    assert_breaks(state, "Bs a3-a4", "gg.gleeb.land-on-gleeb")


def test_gg_gleeb_not_on_grue__legal(state):
    assert_legal(state, "Yl d3xd4")


def test_gg_gleeb_not_on_grue__illegal(state):
    assert_breaks(state, "Bm b2xd2", "gg.gleeb.not-on-grue")   # a free grue
    assert_breaks(state, "Yl d3xc3", "gg.gleeb.not-on-grue")   # the medium grue
    assert_breaks(state, "Bl b1xc1", "gg.gleeb.not-on-grue")   # a stack pinned by a grue


def test_gg_move_straight_line__legal_any_distance_jumping(state):
    assert_legal(state, "Yl d3xa3")   # three squares, over the grue and the stack


def test_gg_move_straight_line__illegal(state):
    assert_breaks(state, "Bs a3xb1", "gg.move.straight-line")


def test_gg_move_no_diagonal__legal(state):
    assert_legal(state, "Bs a3xb3")


def test_gg_move_no_diagonal__illegal(state):
    assert_breaks(state, "Bs a3xb4", "gg.move.no-diagonal")
    assert_breaks(state, "Ys a1xb2", "gg.move.no-diagonal")


def test_gg_turn_gleeb_first__legal(state):
    v = assert_legal(state, "Bs a3xa2")
    assert GAME.apply(state, v.move).stage == "grue"


def test_gg_turn_gleeb_first__illegal(state):
    assert_breaks(state, "Km c3-c4", "gg.turn.gleeb-first")
    # let stand, the grue's move took the place of the gleeb step: the grue step follows
    assert GAME.apply(state, GAME.parse_notation(state, "Km c3-c4")).stage == "grue"


def test_gg_grue_pinned__illegal_in_the_gleeb_step(state):
    assert_breaks(state, "Ks c1-c2", "gg.grue.pinned")
    assert_breaks(state, "Ks c1-c2 split", "gg.grue.pinned")


def test_legal_gleeb_moves_are_exactly_those_check_accepts(state):
    legal = set(GAME.legal_moves(state))
    for move in GAME.physical_moves(state):
        assert GAME.check(state, move).legal == (move in legal)
    # a3: 4, b3: 4, d3: 2, b2: 3, a1: 3, b1: 3
    assert len(legal) == 19


def test_stepping_from_an_empty_square_is_malformed(state):
    with pytest.raises(MalformedMove, match="nothing on a4"):
        GAME.parse_notation(state, "a4xb4")
    with pytest.raises(MalformedMove, match="nothing on a4"):
        GAME.check(state, Step((0, 3), (1, 3)))
    with pytest.raises(MalformedMove, match="nothing to split"):
        GAME.check(state, Step((0, 2), (0, 1), True))
    assert state == pos(BOARD)


def test_no_gleeb_move_skips_to_the_grue_step():
    state = pos("""
        Bs  .   .   .
        .   Km  .   .
        .   .   Gm  .
        .   .   Rs  Ks
    """)
    assert state.stage == "grue" and GAME.to_move(state) == BY
    assert GAME.status(state)["can_move"] == {BY: False, GR: True}
    assert_breaks(state, "Bs a4-a3", "gg.turn.grue-second")
    assert_legal(state, "Ks d1xc1")
    # the cover is compulsory: the medium grue may not go to an empty square
    assert_breaks(state, "Km b3-b1", "gg.grue.must-cover")


def test_a_seat_with_nothing_to_do_passes_the_turn():
    # blue-yellow cannot move and no grue is free (the large one is not on the board): the
    # turn goes to green-red at once
    state = pos("""
        Bs         .   .   .
        .          .   .   .
        .          Gm  .   Rl
        Rs/Ym/Ks   .   .   Gl/Yl/Km
    """)
    assert GAME.to_move(state) == GR and state.stage == "gleeb" and state.turn == 1


def test_the_verdict_says_when_a_seat_is_passed_over():
    state = pos("""
        .   .      .   Bs
        .   .      .   .
        Gm  .      Rl  .
        .   Ys/Rm  .   Km
    """, active=1, stage="grue")
    v = assert_legal(state, "Km d1xb1")          # the last free grue pins b1
    assert "blue-yellow can do nothing this turn: green-red plays on" in v.notes
    nxt = GAME.apply(state, v.move)
    assert GAME.to_move(nxt) == GR and nxt.stage == "gleeb" and nxt.turn == 2
