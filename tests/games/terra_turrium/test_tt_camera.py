"""The camera: the ideal reading of a state, costs, and candidates for partial stages, whole
turns, turn changes, illegal moves and the questions the referee must ask."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.matching import CLEAR_MARGIN, MISS, surprise
from companion.games.terra_turrium import board
from companion.observation import Observation, Piece

from ._support import GAME, after, observe, pos, stairs, top_reading


def test_expected_observation_is_towers_and_flags():
    state = pos()
    obs = GAME.expected_observation(state)
    towers = list(obs.of_kind("tower"))
    flags = list(obs.of_kind("flag"))
    assert len(towers) == sum(1 for h in state.heights if h) and len(flags) == 12
    assert all(p.conf == 1.0 for p in obs.pieces)
    e2 = next(p for p in towers if p.cell == (4, 1))
    assert e2.level == 4
    c3 = next(p for p in flags if p.cell == (2, 2))
    assert c3.get("colour") == "red" and c3.level == 1
    assert GAME.explain(state, obs) == 0.0
    assert Observation.loads(obs.dumps()) == obs


def test_explain_prices_what_is_missing_and_what_is_extra():
    state = pos()
    obs = GAME.expected_observation(state)
    missing = dataclasses.replace(obs, pieces=obs.pieces[1:])
    assert GAME.explain(state, missing) == pytest.approx(MISS)
    extra = dataclasses.replace(obs, pieces=obs.pieces + (Piece("tower", conf=0.9, cell=(0, 0),
                                                                 level=1),))
    assert GAME.explain(state, extra) == pytest.approx(surprise(0.9))


def test_aggression_markers_and_empty_squares_are_not_judged():
    state = pos()
    obs = GAME.expected_observation(state)
    more = obs.pieces + (Piece("aggression", conf=0.9, zone="track", attrs={"colour": "red"}),
                         Piece("tower", conf=0.9, cell=(0, 0), level=0))
    assert GAME.explain(state, dataclasses.replace(obs, pieces=more)) == 0.0
    unknown = obs.pieces + (Piece("cube", conf=0.8, cell=(0, 0), level=0),
                            Piece("flag", conf=0.8, cell=(0, 0), attrs={"colour": "pink"}))
    assert GAME.explain(state, dataclasses.replace(obs, pieces=unknown)) == \
        pytest.approx(2 * surprise(0.8))


def test_nothing_changed_means_no_candidate():
    state = pos()
    assert GAME.candidates(state, GAME.expected_observation(state)) == []
    hand = dataclasses.replace(observe(state, "red: -d3"), hand=True)
    assert GAME.candidates(state, hand) == []


# -- partial stages --------------------------------------------------------------------------


def test_one_block_taken_is_incomplete_three_are_complete():
    first = top_reading(pos(), "red: -d3")
    assert first.move == GAME.parse_notation(pos(), "red: -d3")
    assert first.verdict.legal and first.cost == 0.0 and first.complete is False
    three = top_reading(pos(), "red: -d3 -d4 -d5")
    assert three.complete is True


def test_blocks_in_hand_keep_the_stage_open():
    holding = after(pos(), "red: -d3 -d4")
    one_put = top_reading(holding, "red: +e5")
    assert one_put.complete is False and one_put.state.in_hand == 1
    all_put = top_reading(holding, "red: +e5 +e5")
    assert all_put.complete is True and all_put.state.in_hand == 0


def test_a_flag_move_with_points_left_is_incomplete_and_spent_points_end_the_turn():
    some = top_reading(pos(), "red: c5-d5")
    assert some.complete is False and some.state.mp == 4
    spent = top_reading(pos(), "red: c5-d5-d6-d7-d8-d9")
    assert spent.move.actions[-1].kind == "end"  # the referee ends the turn itself
    assert spent.complete is True and GAME.to_move(spent.state) == "blue"


def test_a_whole_turn_at_once():
    text = "red: -d3 -d4 -f2 +e5 +e5 +a1 c5-d5-d6 b5-b6"
    best = top_reading(pos(), text)
    assert best.state == after(pos(), text)
    assert best.verdict.legal and best.cost == 0.0


def test_the_cheapest_path_is_assumed():
    # the camera sees c5 -> d6; the flag went round the corner, 2 points
    best = top_reading(pos(), "red: c5-c6-d6")
    assert best.state.mp == 3 and best.verdict.legal


def test_a_flag_re_entered_on_an_interior_square_walked_there_when_it_could():
    state = pos(flags={"c3": "red", "h8": "blue"}, reserve={"red": 5, "blue": 5})
    best = top_reading(state, "red: *d4")  # read as: entered on an exterior square, walked
    assert best.verdict.legal and best.state.mp == 2


# -- turn changes ------------------------------------------------------------------------------


def test_the_next_player_starting_ends_the_turn():
    moved = after(pos(), "red: c5-d5")
    candidates = GAME.candidates(moved, observe(moved, "red: / blue: -h7"))
    best, second = candidates[0], candidates[1]
    assert GAME.notation(moved, best.move) == "red: / blue: -h7"
    assert best.verdict.legal and best.complete is False
    assert not second.verdict.legal and second.verdict.rule.id == "tt.turn.order"
    assert second.rank - best.rank >= CLEAR_MARGIN


def test_one_players_turn_is_preferred_to_two():
    candidates = GAME.candidates(pos(), observe(pos(), "red: -d3 -d4 +e5 +e5"))
    assert GAME.notation(pos(), candidates[0].move) == "red: -d3 -d4 +e5 +e5"
    assert all(c.rank - candidates[0].rank >= CLEAR_MARGIN for c in candidates[1:])


def test_the_end_of_a_turn_and_the_next_one_seen_at_once():
    text = "red: -d3 +e5 c5-d5 / blue: -h7 -g7 +f7 +f7 g8-f8"
    best = top_reading(pos(), text)
    assert best.state == after(pos(), text)
    assert best.verdict.legal


# -- illegal moves recognised ------------------------------------------------------------------


@pytest.mark.parametrize("text, rule", [
    ("red: -c3", "tt.take.flag"),
    ("red: -d3 -d4 -d5 -e3", "tt.take.max"),
    ("red: -f2 -g2", "tt.take.one-foreign"),
    ("red: -g3", "tt.take.exterior"),
    ("red: -d3 +c3", "tt.place.free"),
    ("red: b5-a5", "tt.flag.construction"),
    ("red: b4-b3", "tt.flag.one-per-construction"),
    ("red: g8-f8", "tt.flag.own"),
])
def test_illegal_moves_are_recognised_and_named(text, rule):
    best = top_reading(pos(), text)
    assert not best.verdict.legal and best.verdict.rule.id == rule
    assert best.state == after(pos(), text)


def test_a_flag_moved_two_levels_up_with_no_way_round():
    diagram = """
10 ..........
 9 .11111111.
 8 .11111111.
 7 .11111111.
 6 .11111111.
 5 .11111111.
 4 .11111111.
 3 .1........
 2 .13.......
 1 ..........
"""
    state = pos(diagram, flags={"b2": "red", "h8": "blue"})
    best = top_reading(state, "red: b2-c2")
    assert best.verdict.rule.id == "tt.flag.height"


def test_walking_through_an_enemy_flag_with_no_way_round():
    state = pos(flags={"c3": "red", "d3": "blue", "h8": "blue"})
    best = top_reading(state, "red: c3-d3-e3")
    assert best.verdict.rule.id == "tt.flag.through"


def test_a_path_across_own_flags_is_read_as_a_chain():
    # b4 -> d4 across red's own flag on c4: the c4 flag stepped on to d4 and b4 took its place
    best = top_reading(pos(), "red: c4-d4 b4-c4")
    assert best.verdict.legal and best.state.mp == 3
    assert GAME.notation(pos(), best.move) == "red: c4-d4 b4-c4"


def test_more_than_five_points():
    best = top_reading(pos(), "red: c5-d5-d6-d7-d8-d9-e9")
    assert best.verdict.rule.id == "tt.flag.points"
    assert best.move.actions[-1].kind == "end"  # no point left: the turn is over
    assert best.state.flags == after(pos(), "red: c5-d5-d6-d7-d8-d9-e9 /").flags


def test_a_sixth_attack_is_recognised():
    state = pos(flags={"e5": "red", "f5": "blue"}, attacks={"red": 5})
    best = top_reading(state, "red: e5xf5")
    assert best.verdict.rule.id == "tt.attack.max"
    assert best.state.attacks == (6, 0)


# -- questions --------------------------------------------------------------------------------


def test_a_win_with_points_left_asks_whether_the_turn_is_over():
    state = stairs()
    candidates = GAME.candidates(state, observe(state, "red: c4-c3"))
    close = [c for c in candidates if c.rank - candidates[0].rank < CLEAR_MARGIN]
    assert {GAME.notation(state, c.move) for c in close} == {"red: c4-c3", "red: c4-c3 /"}
    ended = next(c for c in close if c.complete)
    assert ended.state.winners == ("red",)


def test_the_layout_seen_at_once():
    state = GAME.setup(["red", "blue"])
    text = "R@b2 R@c2 R@d2 R@b3 R@c3 R@d3 B@g9 B@h9 B@i9 B@g8 B@h8 B@i8"
    best = top_reading(state, text)
    assert best.verdict.legal and best.complete is True
    assert best.state == after(state, text)
    partial = top_reading(state, "R@b2 B@g9")
    assert partial.complete is False


def test_a_hesitant_misreading_does_not_change_the_reading():
    state = pos()
    obs = observe(state, "red: -d3")
    noisy = dataclasses.replace(obs, pieces=obs.pieces + (
        Piece("tower", conf=0.3, cell=board.xy(board.parse_square("d4")), level=2),))
    best = GAME.candidates(state, noisy)[0]
    assert best.move == GAME.parse_notation(state, "red: -d3")
    assert best.cost == pytest.approx(surprise(0.3))
