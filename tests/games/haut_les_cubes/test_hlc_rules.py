"""Every rule of Haut les Cubes, legal and illegal, each test named after the rule it cites.

The base scene: four cubes in a 2×2 block (cells 0..3 × 0..3 at height 1), red on the ground at
(-1, 0), blue on the ground at (4, 3), green on the ground at (1, 4); red to play.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import MalformedMove
from companion.games.haut_les_cubes import HlcOptions
from companion.games.haut_les_cubes.actions import relocation_options
from companion.games.haut_les_cubes.cards import CARDS

from hlc_positions import GAME, block, position, verdict

BASE = block(0, 0, 2, 2)
GIANTS = {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)}


def base(**kw):
    return position(kw.pop("cubes", BASE), kw.pop("giants", GIANTS), **kw)


def legal(state, text):
    v = verdict(state, text)
    assert v.legal, (text, v.rule)
    return v


def illegal(state, text, rule_id):
    v = verdict(state, text)
    assert not v.legal, f"{text} should break {rule_id}"
    assert v.rule.id == rule_id, (text, v.rule.id)
    return v


# -- placement of the giants -----------------------------------------------------------------

def placement_state():
    return GAME.setup(("red", "blue", "green"))


def test_hlc_placement_contact__legal():
    legal(placement_state(), "red: @-4,0")


def test_hlc_placement_contact__illegal():
    illegal(placement_state(), "red: @-6,0", "hlc.placement.contact")


def test_hlc_placement_ground__legal():
    legal(placement_state(), "red: @2,2")


def test_hlc_placement_ground__illegal():
    illegal(placement_state(), "red: @0,0", "hlc.placement.ground")


def test_hlc_placement_order__legal_in_turn_order():
    s = placement_state()
    s = GAME.push(s, GAME.parse_notation(s, "red: @-4,0"))
    assert GAME.to_move(s) == "blue"
    legal(s, "blue: @-4,-1")


def test_hlc_placement_order__illegal():
    illegal(placement_state(), "blue: @-4,0", "hlc.placement.order")


def test_hlc_square_one_giant_per_square__malformed():
    s = GAME.push(placement_state(), GAME.parse_notation(placement_state(), "red: @-4,0"))
    with pytest.raises(MalformedMove):
        GAME.check(s, GAME.parse_notation(s, "blue: @-4,0"))


def test_after_placement_the_first_round_is_dealt():
    s = placement_state()
    for text in ("red: @-4,0", "blue: @-4,-1", "green: @2,2"):
        s = GAME.push(s, GAME.parse_notation(s, text))
    assert s.phase == "play" and s.round == 1 and GAME.to_move(s) == "red"
    assert s.hands == (2, 2, 2)  # 3 dealt on the ground, 1 discarded
    assert s.cards_total() == 85


# -- turn order, compulsory actions, the card pool ---------------------------------------------

def test_hlc_turn_order__legal():
    legal(base(), "red: M -1,1")


def test_hlc_turn_order__illegal():
    illegal(base(), "blue: M 5,3", "hlc.turn.order")


def test_hlc_compulsory__legal_discard_when_impossible():
    # every other giant is next to red: the slingshot has no target
    s = base(giants={"red": (-1, 0), "blue": (-1, 1), "green": (-1, -1)})
    v = legal(s, "red: T -")
    assert "discarded" in v.notes[0]


def test_hlc_compulsory__illegal_discard_when_possible():
    illegal(base(), "red: M -", "hlc.compulsory")
    illegal(base(), "red: T -", "hlc.compulsory")


def test_hlc_cards_pool__legal():
    legal(base(), "red: T green>2,4")


def test_hlc_cards_pool__illegal_when_every_copy_was_seen():
    seen = [0] * len(CARDS)
    seen[CARDS.index("tvavoartoa")] = 1
    illegal(base(seen=seen), "red: T green>2,4", "hlc.cards.pool")


# -- Napozla ----------------------------------------------------------------------------------

def test_hlc_napozla_reserve__legal_discard_without_cubes():
    legal(base(reserves=(0, 6, 6)), "red: N -")


def test_hlc_napozla_reserve__illegal():
    illegal(base(reserves=(0, 6, 6)), "red: N 4,0^0", "hlc.napozla.reserve")


def test_hlc_napozla_full_base__legal_offset_across_two_cubes():
    legal(base(), "red: N 1,0^1")


def test_hlc_napozla_full_base__illegal_half_empty_base():
    illegal(base(), "red: N 3,0^1", "hlc.napozla.full-base")


def test_hlc_napozla_contact__legal_by_a_corner():
    legal(base(giants={"red": (-1, 0), "blue": (4, 2), "green": (1, 4)}), "red: N 4,4^0")


def test_hlc_napozla_contact__illegal_away_from_the_mountain():
    illegal(base(), "red: N 6,6^0", "hlc.napozla.contact")


def test_hlc_napozla_align__legal():
    legal(base(), "red: N 4,0^0")


def test_hlc_napozla_align__illegal_squares_not_lined_up():
    illegal(base(), "red: N 4,0^0~", "hlc.napozla.align")


def test_hlc_napozla_giant__legal():
    legal(base(), "red: N -2,2^0")


def test_hlc_napozla_giant__illegal_on_a_giant():
    illegal(base(), "red: N -2,0^0", "hlc.napozla.giant")


def test_napozla_floating_cube_is_malformed_not_illegal():
    with pytest.raises(MalformedMove):
        GAME.check(base(), GAME.parse_notation(base(), "red: N 6,6^2"))


# -- Moavéou ----------------------------------------------------------------------------------

def test_hlc_moaveou_adjacent__legal_climb_one():
    legal(base(), "red: M 0,0")


def test_hlc_moaveou_adjacent__illegal_two_squares_away():
    illegal(base(), "red: M 1,1", "hlc.moaveou.adjacent")


def test_hlc_moaveou_climb__legal():
    legal(base(cubes=BASE | {(0, 0, 1)}, giants={**GIANTS, "red": (0, 2)}), "red: M 0,1")


def test_hlc_moaveou_climb__illegal_two_levels():
    illegal(base(cubes=BASE | {(0, 0, 1)}), "red: M 0,0", "hlc.moaveou.climb")


def test_hlc_square_valid__legal():
    legal(base(), "red: M -1,1")


def test_hlc_square_valid__illegal_too_far_from_any_cube():
    illegal(base(), "red: M -2,0", "hlc.square.valid")


@pytest.mark.parametrize("drop,points", [(1, 1), (2, 4), (3, 9), (4, 16), (5, 25), (6, 36), (7, 36)])
def test_moaveou_bravery_jump_scores_the_table(drop, points):
    """« Les points » table: 1, 4, 9, 16, 25, 36 for 6 cubes or more."""
    cubes = {(0, 0, z) for z in range(drop)} | {(2, 0, 0)}
    s = position(cubes, {"red": (0, 0), "blue": (2, 2), "green": (4, 1)})
    v = legal(s, "red: M -1,0")
    assert v.score_delta == {"red": points}
    after = GAME.apply(s, GAME.parse_notation(s, "red: M -1,0"))
    assert GAME.scores(after)["red"] == points


# -- Nenlèvsa ---------------------------------------------------------------------------------

def test_hlc_nenlevsa_free_top__legal():
    legal(base(), "red: R 0,2^0")


def test_hlc_nenlevsa_free_top__illegal_with_a_giant_on_it():
    s = base(giants={**GIANTS, "blue": (2, 2)})
    illegal(s, "red: R 2,2^0", "hlc.nenlevsa.free-top")


def test_nenlevsa_cube_under_a_cube_cannot_be_pulled_out():
    s = base(cubes=BASE | {(1, 0, 1)})
    illegal(s, "red: R 0,0^0", "hlc.nenlevsa.free-top")
    with pytest.raises(MalformedMove):
        GAME.apply(s, GAME.parse_notation(s, "red: R 0,0^0"))


def test_hlc_nenlevsa_last_cube__legal_with_two():
    legal(position({(0, 0, 0), (2, 0, 0)}, {"red": (-1, 0), "blue": (0, 2), "green": (1, 2)}),
          "red: R 2,0^0")


def test_hlc_nenlevsa_last_cube__illegal():
    s = position({(0, 0, 0)}, {"red": (-1, 0), "blue": (0, 2), "green": (1, 2)})
    illegal(s, "red: R 0,0^0", "hlc.nenlevsa.last-cube")


def isolation_scene():
    return position({(0, 0, 0), (2, 0, 0)}, {"red": (-1, 0), "blue": (4, 0), "green": (0, 2)})


def test_hlc_nenlevsa_isolated__legal_nearest_square():
    s = isolation_scene()
    legal(s, "red: R 2,0^0 | blue>2,0")
    # the notation may leave out a relocation that has only one answer
    move = GAME.parse_notation(s, "red: R 2,0^0")
    assert move.relocate == (("blue", (2, 0)),)


def test_hlc_nenlevsa_isolated__illegal_not_the_nearest_square():
    illegal(isolation_scene(), "red: R 2,0^0 | blue>2,2", "hlc.nenlevsa.isolated")


def test_isolated_giant_tie_is_the_owners_choice():
    """Several nearest squares: every one is legal, and the notation must say which."""
    s = position({(0, 0, 0), (1, 2, 0), (3, 2, 0)},
                 {"red": (-1, 0), "blue": (0, 4), "green": (4, 1)})
    options = relocation_options(s, (1, 2, 0), s.turn)
    assert sorted(options) == [(("blue", (0, 2)),), (("blue", (2, 4)),)]
    for option in options:
        seat, cell = option[0]
        legal(s, f"red: R 1,2^0 | {seat}>{cell[0]},{cell[1]}")
    illegal(s, "red: R 1,2^0 | blue>-1,2", "hlc.nenlevsa.isolated")
    from companion.games import AmbiguousMove
    with pytest.raises(AmbiguousMove) as err:
        GAME.parse_notation(s, "red: R 1,2^0")
    assert len(err.value.candidates) == 2


# -- Pousstoia --------------------------------------------------------------------------------

PUSH = {"red": (-1, 0), "blue": (-1, 1), "green": (4, 3)}


def test_hlc_pousstoia_same_height__legal():
    v = legal(base(giants=PUSH), "red: P blue>-1,2")
    assert v.score_delta == {}


def test_hlc_pousstoia_same_height__illegal_victim_higher():
    s = base(giants={"red": (-1, 0), "blue": (0, 1), "green": (4, 3)})
    illegal(s, "red: P blue>1,2", "hlc.pousstoia.same-height")


def test_hlc_pousstoia_direction__legal_forward_diagonal():
    s = base(giants={"red": (-1, 2), "blue": (-1, 1), "green": (4, 3)})
    legal(s, "red: P blue>-1,0")


def test_hlc_pousstoia_direction__illegal_sideways():
    illegal(base(giants=PUSH), "red: P blue>0,1", "hlc.pousstoia.direction")


def test_hlc_pousstoia_uphill__legal_with_option():
    legal(base(giants=PUSH, options=HlcOptions(push_uphill=True)), "red: P blue>0,2")


def test_hlc_pousstoia_uphill__illegal():
    illegal(base(giants=PUSH), "red: P blue>0,2", "hlc.pousstoia.uphill")


def test_hlc_pousstoia_pusher__legal_takes_the_victims_place():
    s = base(giants=PUSH)
    move = GAME.parse_notation(s, "red: P blue>-1,2 =")
    assert GAME.check(s, move).legal
    after = GAME.apply(s, move)
    assert after.giants[:2] == ((-1, 1), (-1, 2))


def test_hlc_pousstoia_pusher__illegal_moves_elsewhere():
    illegal(base(giants=PUSH), "red: P blue>-1,2 =-1,-1", "hlc.pousstoia.pusher")


def test_hlc_pousstoia_void__legal_without_victim():
    legal(base(), "red: P >-1,1")


def test_hlc_pousstoia_void__illegal_when_a_giant_can_be_pushed():
    illegal(base(giants=PUSH), "red: P >-1,-1", "hlc.pousstoia.void")


def test_hlc_pousstoia_void__illegal_changing_level():
    illegal(base(), "red: P >0,0", "hlc.pousstoia.void")


def test_pousstoia_void_optional_option_allows_the_discard():
    s = base(options=HlcOptions(push_void_optional=True))
    legal(s, "red: P -")
    illegal(base(), "red: P -", "hlc.compulsory")


def test_pousstoia_fall_scores_nothing():
    s = position(BASE, {"red": (0, 0), "blue": (1, 1), "green": (4, 3)})
    v = legal(s, "red: P blue>2,2")
    assert v.score_delta == {}
    s = position(BASE, {"red": (2, 2), "blue": (3, 3), "green": (-1, 0)})
    v = legal(s, "red: P blue>4,4")  # off the mountain: a fall of one level
    assert v.score_delta == {} and "falls" in v.notes[0]


# -- Hoplà ------------------------------------------------------------------------------------

def test_hlc_hopla_high__legal_any_height():
    s = base(cubes=BASE | {(0, 0, 1), (0, 0, 2), (0, 0, 3)})
    legal(s, "red: H 0,0")  # four levels up in one jump


def test_hlc_hopla_high__illegal_not_a_neighbour():
    illegal(base(), "red: H 1,0", "hlc.hopla.high")


def test_hlc_hopla_long__legal_anywhere_lower_or_level():
    v = legal(base(), "red: H -1,3")
    assert v.score_delta == {}
    s = position(BASE | {(0, 0, 1)}, {"red": (0, 0), "blue": (4, 3), "green": (1, 4)})
    v = legal(s, "red: H 4,2")  # down two levels, far away: no points
    assert v.score_delta == {}


def test_hlc_hopla_long__illegal_upwards():
    illegal(base(), "red: H 3,3", "hlc.hopla.long")


# -- Tvavoartoa -------------------------------------------------------------------------------

def test_hlc_tvavoartoa_target__legal():
    legal(base(), "red: T green>2,4")


def test_hlc_tvavoartoa_target__illegal_a_neighbour():
    illegal(base(giants=PUSH), "red: T blue>-1,2", "hlc.tvavoartoa.target")


def test_hlc_tvavoartoa_landing__legal_and_a_fall_scores_nothing():
    s = base(giants={"red": (-1, 0), "blue": (3, 3), "green": (1, 4)})
    v = legal(s, "red: T blue>4,4")
    assert v.score_delta == {}


def test_hlc_tvavoartoa_landing__illegal_two_squares_away():
    illegal(base(), "red: T green>3,4", "hlc.tvavoartoa.landing")


def test_hlc_tvavoartoa_uphill__legal_with_option():
    legal(base(options=HlcOptions(slingshot_uphill=True)), "red: T green>1,3")


def test_hlc_tvavoartoa_uphill__illegal():
    illegal(base(), "red: T green>1,3", "hlc.tvavoartoa.uphill")


def test_hlc_tvavoartoa_self__illegal():
    illegal(base(), "red: T red>-1,1", "hlc.tvavoartoa.self")


def test_hlc_tvavoartoa_self__legal_other_target():
    legal(base(), "red: T blue>4,4")


# -- every rule is tested ---------------------------------------------------------------------

def test_every_rule_has_a_legal_and_an_illegal_test():
    from companion.games.haut_les_cubes.rules import RULES
    names = set(globals())
    for rule_id in RULES:
        stem = "test_" + rule_id.replace(".", "_").replace("-", "_")
        assert any(n.startswith(stem + "__legal") for n in names), f"no legal test for {rule_id}"
        assert any(n.startswith(stem + "__illegal") for n in names), f"no illegal test for {rule_id}"


def test_state_is_untouched_by_judging():
    s = base()
    copy = replace(s)
    for text in ("red: M 1,1", "red: N 6,6^0", "red: P >0,0"):
        verdict(s, text)
    assert s == copy and s.cubes == BASE
