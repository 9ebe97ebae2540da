"""The placement phase: alternately, one gleeb at a time, on an empty square."""

from __future__ import annotations

import pytest

from companion.games import IllegalMove, MalformedMove
from companion.games.gleebs_and_grues import Place, SetGrues
from companion.games.gleebs_and_grues.pieces import Pyramid
from companion.games.gleebs_and_grues.scripts import demo_script
from companion.games.gleebs_and_grues.state import empty_cells

from ._support import BY, GAME, GR, PLAYERS, after, assert_breaks, assert_legal


@pytest.fixture
def placing():
    """Grues on a1 (small), b2 (medium), c3 (large); blue-yellow to place first."""
    return GAME.apply(GAME.setup(PLAYERS), SetGrues((0, 0), (1, 1), (2, 2)))


def test_gg_place_empty_square__legal(placing):
    v = assert_legal(placing, "Ys@d4")
    assert v.score_delta == {BY: 1}
    state = after(placing, "Ys@d4")
    assert [p.code for p in state.stack((3, 3))] == ["Ys"]
    assert GAME.to_move(state) == GR


@pytest.mark.parametrize("text, what", [("Bl@a1", "on a grue"), ("Rs@d4", "on a gleeb")])
def test_gg_place_empty_square__illegal(placing, text, what):
    state = after(placing, "Ys@d4") if text.startswith("R") else placing
    assert_breaks(state, text, "gg.place.empty-square")


def test_gg_place_in_turn__legal(placing):
    state = after(placing, "Bm@c1")
    assert_legal(state, "Gm@c2")
    assert_legal(state, "Rl@c2")


def test_gg_place_in_turn__illegal(placing):
    assert_breaks(placing, "Gm@c2", "gg.place.in-turn")
    with pytest.raises(IllegalMove) as err:
        GAME.push(placing, GAME.parse_notation(placing, "Rs@c2"))
    assert err.value.rule.id == "gg.place.in-turn"


def test_placing_a_gleeb_already_on_the_board_is_malformed(placing):
    state = after(placing, "Ys@d4")
    state = after(state, "Rs@d3")
    before = state
    with pytest.raises(MalformedMove, match="already on the board"):
        GAME.check(state, Place(Pyramid("yellow", 1), (0, 3)))
    with pytest.raises(MalformedMove):
        GAME.apply(state, Place(Pyramid("yellow", 1), (0, 3)))
    assert state == before


def test_placements_alternate_first_player_first(placing):
    state, order = placing, []
    codes = {BY: ["Bs", "Bm", "Bl", "Ys", "Ym", "Yl"], GR: ["Gs", "Gm", "Gl", "Rs", "Rm", "Rl"]}
    squares = iter(["a2", "a3", "a4", "b1", "b3", "b4", "c1", "c2", "c4", "d1", "d2", "d3"])
    while state.stage == "place":
        seat = GAME.to_move(state)
        order.append(seat)
        state = GAME.push(state, GAME.parse_notation(state, f"{codes[seat].pop()}@{next(squares)}"))
    assert order == [BY, GR] * 6
    assert state.stage == "gleeb" and GAME.to_move(state) == BY  # the first player moves first
    assert empty_cells(state.board) == [(3, 3)]


def test_exactly_one_empty_square_after_placement__fixture():
    """Three grues and twelve gleebs on sixteen squares: one is left empty."""
    script = demo_script()
    state = GAME.setup(script.players)
    for step in script.steps:
        if step.kind != "play":
            continue
        state = GAME.apply(state, GAME.move_from_json(step.move))
        if state.stage != "place" and state.stage != "grues":
            break
    assert len(empty_cells(state.board)) == 1
    assert GAME.status(state)["empty_squares"] == 1
    assert GAME.status(state)["to_place"] == {BY: 0, GR: 0}


def test_a_seat_with_nothing_left_to_place_is_passed_over(placing):
    # the table let blue-yellow place a green gleeb: green-red has one fewer to place
    state = GAME.apply(placing, Place(Pyramid("green", 1), (0, 1)))
    assert GAME.status(state)["to_place"] == {BY: 6, GR: 5}
    assert GAME.to_move(state) == GR
    moves = ["Gm@a3", "Bs@a4", "Gl@b1", "Bm@b3", "Rs@b4", "Bl@c1", "Rm@c2", "Ys@c4",
             "Rl@d1", "Ym@d2"]
    for text in moves:
        state = GAME.push(state, GAME.parse_notation(state, text))
    assert GAME.status(state)["to_place"] == {BY: 1, GR: 0}
    assert GAME.to_move(state) == BY
    state = GAME.push(state, GAME.parse_notation(state, "Yl@d3"))
    assert state.stage in ("gleeb", "grue")


def test_status_counts_the_round_of_placement(placing):
    assert GAME.status(placing)["round"] == 1
    state = after(after(placing, "Ys@d4"), "Rs@d3")
    assert GAME.status(state)["round"] == 2
    assert GAME.status(state)["phase"] == "placement"


def test_board_view_shows_the_hands(placing):
    view = GAME.board_view(after(placing, "Ys@d4"))
    assert view["kind"] == "gleebs-and-grues" and view["size"] == [4, 4]
    assert len(view["hands"][BY]) == 5 and len(view["hands"][GR]) == 6
    assert view["grues_to_set"] == []
    d4 = next(c for c in view["cells"] if c["name"] == "d4")
    assert d4["role"] == "gleeb" and d4["owner"] == BY and d4["pips"] == 1


def test_let_stand_placement_on_a_gleeb_stacks_it(placing):
    state = after(placing, "Ys@d4")
    stacked = GAME.apply(state, GAME.parse_notation(state, "Rl@d4"))
    assert [p.code for p in stacked.stack((3, 3))] == ["Ys", "Rl"]
    assert GAME.to_move(stacked) == BY
    assert GAME.status(stacked)["stacks"] == {BY: 0, GR: 1}
