"""The grue step: a free grue along a line, to an empty square or onto a gleeb of its size;
covering compulsory; a lone gleeb eaten, a stack pinned for good."""

from __future__ import annotations

import pytest

from companion.games.gleebs_and_grues.state import is_free_grue, is_pinned

from ._support import BY, GAME, GR, after, assert_breaks, assert_legal, pos

#: blue-yellow's grue step; d3 is pinned by the large grue; the small green was eaten
BOARD = """
Ys     .    .   Bm
Gl/Rs  Km   .   Rl/Gm/Kl
.      Bl   .   Rm
Ks     Ym   Bs  Yl
"""


@pytest.fixture
def state():
    s = pos(BOARD, stage="grue", eaten=["Gs"])
    assert GAME.to_move(s) == BY
    return s


def test_the_legal_grue_steps_are_the_covers(state):
    legal = {GAME.notation(state, m) for m in GAME.legal_moves(state)}
    assert legal == {"Km b3xb1", "Ks a1xa3", "Ks a1xa4", "Ks a1xc1"}


def test_gg_grue_same_size__legal(state):
    assert_legal(state, "Km b3xb1")


def test_gg_grue_same_size__illegal(state):
    assert_breaks(state, "Km b3xb2", "gg.grue.same-size")   # medium grue on a large gleeb
    assert_breaks(state, "Ks a1xb1", "gg.grue.same-size")   # small grue on a medium gleeb


def test_gg_grue_must_cover__legal_the_player_chooses_the_grue(state):
    assert_legal(state, "Km b3xb1")
    assert_legal(state, "Ks a1xc1")


def test_gg_grue_must_cover__illegal(state):
    assert_breaks(state, "Km b3-c3", "gg.grue.must-cover")
    assert_breaks(state, "Ks a1-a2", "gg.grue.must-cover")


def test_an_empty_square_is_legal_when_no_grue_can_cover():
    state = pos("""
        .   .   .   .
        .   Km  .   .
        .   .   Bs  Gl
        .   .   .   .
    """, stage="grue")
    assert_legal(state, "Km b3-b1")
    assert_legal(state, "Km b3-d3")


def test_a_lone_gleeb_covered_is_eaten_and_the_grue_stays_free(state):
    v = assert_legal(state, "Ks a1xc1")
    assert "eaten: the small blue gleeb" in v.notes
    assert v.score_delta == {BY: -1}
    eaten = after(state, "Ks a1xc1")
    assert [p.code for p in eaten.stack((2, 0))] == ["Ks"] and is_free_grue(eaten.stack((2, 0)))
    assert eaten.stack((0, 0)) == ()
    assert [p.code for p in eaten.eaten] == ["Gs", "Bs"]
    assert GAME.status(eaten)["eaten"][-1] == {"colour": "blue", "size": "small"}


def test_a_stack_covered_is_pinned_and_counts_as_a_grue(state):
    v = assert_legal(state, "Ks a1xa3")
    assert "pinned: the stack of 2 on a3" in v.notes
    assert v.score_delta == {GR: -4}
    pinned = after(state, "Ks a1xa3")
    assert [p.code for p in pinned.stack((0, 2))] == ["Gl", "Rs", "Ks"]
    assert is_pinned(pinned.stack((0, 2))) and pinned.eaten == state.eaten
    view = GAME.board_view(pinned)
    a3 = next(c for c in view["cells"] if c["name"] == "a3")
    assert a3["role"] == "pinned" and a3["owner"] is None
    assert GAME.status(pinned)["pinned"] == 2


def test_gg_grue_pinned__legal_a_free_grue_moves(state):
    assert_legal(state, "Ks a1xa4")


def test_gg_grue_pinned__illegal(state):
    assert_breaks(state, "Kl d3-c3", "gg.grue.pinned")          # the whole pinned stack
    assert_breaks(state, "Kl d3-c3 split", "gg.grue.pinned")    # the grue lifted off it


def test_a_pinned_stack_stays_pinned_for_the_rest_of_the_game(state):
    s = after(state, "Ks a1xa3")
    pinned = s.stack((0, 2))
    while GAME.to_move(s) is not None:
        for move in GAME.legal_moves(s):
            if hasattr(move, "frm"):
                assert move.frm != (0, 2) and move.to != (0, 2)
        s = GAME.apply(s, GAME.legal_moves(s)[0])
        assert s.stack((0, 2)) == pinned


def test_gg_grue_not_on_grue__legal(state):
    assert_legal(state, "Km b3xb1")


def test_gg_grue_not_on_grue__illegal(state):
    assert_breaks(state, "Km b3xd3", "gg.grue.not-on-grue")   # onto a pinned stack
    two = pos("""
        .   .   .   .
        .   .   .   .
        .   .   Bs  Gl
        Ks  .   Km  .
    """, stage="grue")
    assert_breaks(two, "Ks a1xc1", "gg.grue.not-on-grue")     # onto a free grue


def test_gg_turn_grue_second__legal(state):
    assert_legal(state, "Km b3xb1")


def test_gg_turn_grue_second__illegal(state):
    assert_breaks(state, "Bl b2xb1", "gg.turn.grue-second")
    assert_breaks(state, "Rs a3xa4", "gg.turn.grue-second")


def test_gg_move_no_diagonal__illegal_for_a_grue(state):
    assert_breaks(state, "Km b3xa4", "gg.move.no-diagonal")


def test_gg_move_straight_line__illegal_for_a_grue(state):
    assert_breaks(state, "Km b3xc1", "gg.move.straight-line")


def test_the_grue_step_is_skipped_when_no_grue_can_move():
    state = pos("""
        Gm/Rm/Km  .          .          .
        Bs        .          .          .
        Rs        .          .          Rl
        Ys        Bl/Gs/Ks   Yl/Gl/Kl   .
    """)
    v = assert_legal(state, "Bs a3xa2")
    assert "no grue can move: the grue step is skipped" in v.notes
    nxt = GAME.apply(state, v.move)
    assert nxt.stage == "gleeb" and GAME.to_move(nxt) == GR and nxt.turn == 1


def test_let_stand_grue_on_another_size_eats_a_lone_gleeb(state):
    s = GAME.apply(state, GAME.parse_notation(state, "Ks a1xb1"))
    assert [p.code for p in s.stack((1, 0))] == ["Ks"]
    assert s.eaten[-1].code == "Ym"
