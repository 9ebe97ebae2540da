"""The flag layout before the first turn (ruling: six flags on free constructions of the own
territory, one per construction; any order; the first turn starts when all are down)."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.terra_turrium.state import PHASE_LAYOUT, PHASE_PLAY, STAGE_TAKE

from ._support import GAME

LAYOUT_RED = "R@b2 R@c2 R@d2 R@b3 R@c3 R@d3"
LAYOUT_BLUE = "B@g9 B@h9 B@i9 B@g8 B@h8 B@i8"


def fresh(players=("red", "blue")):
    return GAME.setup(list(players))


def test_tt_layout_territory__legal():
    state = fresh()
    v = GAME.check(state, GAME.parse_notation(state, LAYOUT_RED))
    assert v.legal and v.rule is None


def test_tt_layout_territory__illegal():
    state = fresh()
    v = GAME.check(state, GAME.parse_notation(state, "R@g2"))  # yellow's (neutral) land
    assert not v.legal and v.rule.id == "tt.layout.territory"
    v = GAME.check(state, GAME.parse_notation(state, "B@c3"))  # red's land
    assert not v.legal and v.rule.id == "tt.layout.territory"


def test_tt_layout_free__legal():
    state = GAME.apply(fresh(), GAME.parse_notation(fresh(), "R@b2"))
    assert GAME.check(state, GAME.parse_notation(state, "R@c2")).legal


def test_tt_layout_free__illegal():
    state = fresh()
    # a1 is an empty square with two players (the outer ring is empty)
    v = GAME.check(state, GAME.parse_notation(state, "R@a1"))
    assert not v.legal and v.rule.id == "tt.layout.free"
    once = GAME.apply(state, GAME.parse_notation(state, "R@b2"))
    v = GAME.check(once, GAME.parse_notation(once, "R@b2"))
    assert not v.legal and v.rule.id == "tt.layout.free"


def test_layout_in_any_order_and_several_colours_at_once():
    state = fresh()
    both = GAME.parse_notation(state, "B@g9 R@b2 B@h9")
    after = GAME.apply(state, both)
    assert after.reserve == (5, 4)
    assert after.phase == PHASE_LAYOUT
    assert GAME.to_move(after) == "red"  # the first player in play order with flags left


def test_first_turn_starts_when_every_flag_is_down():
    state = fresh()
    state = GAME.apply(state, GAME.parse_notation(state, LAYOUT_RED))
    assert state.phase == PHASE_LAYOUT and GAME.to_move(state) == "blue"
    state = GAME.apply(state, GAME.parse_notation(state, LAYOUT_BLUE))
    assert state.phase == PHASE_PLAY and state.stage == STAGE_TAKE
    assert GAME.to_move(state) == "red" and state.mp == 5 and state.round == 1


def test_a_seventh_flag_does_not_exist():
    state = fresh()
    state = GAME.apply(state, GAME.parse_notation(state, LAYOUT_RED))
    with pytest.raises(MalformedMove, match="all six red flags"):
        GAME.check(state, GAME.parse_notation(state, "R@e2"))


def test_no_block_move_during_the_layout():
    state = fresh()
    with pytest.raises(MalformedMove, match="laid out"):
        GAME.apply(state, GAME.parse_notation(state, "red: -b2"))


def test_flags_of_a_colour_not_playing_do_not_exist():
    state = fresh()
    with pytest.raises(MalformedMove, match="yellow is not playing"):
        GAME.apply(state, GAME.parse_notation(state, "Y@g2"))


def test_layout_legal_moves_are_own_free_constructions():
    state = fresh()
    lays = GAME.legal_moves(state)
    assert len(lays) == 2 * 16  # 16 constructions in each territory with two players
    assert all(GAME.check(state, m).legal for m in lays)
    physical = GAME.physical_moves(state)
    assert len(physical) == 2 * 100
    assert {GAME.check(state, m).rule.id for m in physical if not GAME.check(state, m).legal} \
        == {"tt.layout.territory", "tt.layout.free"}
