"""The end: six flags on towers of heights exactly 1 to 6, checked at the end of each player's
own turn; the first to meet it wins at once; the round is completed and each remaining player
who meets it at the end of their last turn is a co-winner."""

from __future__ import annotations

import pytest

from companion.games import MalformedMove
from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import PHASE_OVER, meets_win

from ._support import GAME, BLUE_READY, RED_READY, STAIRS, after, assert_legal, pos, stairs

def test_tt_win__met():
    state = after(stairs(), "red: c4-c3 /")  # the last flag climbs onto the 6
    assert state.winners == ("red",)
    assert state.phase != PHASE_OVER  # blue still plays its turn of the round
    assert GAME.to_move(state) == "blue"
    assert GAME.status(state)["final_round"] is True
    assert GAME.scores(state)["red"] == 6


def test_tt_win__not_met():
    state = after(stairs(), "red: d3-e3 /")  # the 5 leaves: heights 1 2 3 4 1 5
    assert state.winners == ()
    heights = list(stairs().heights)
    flags = [(board.parse_square(s), c) for s, c in RED_READY.items()]
    assert not meets_win(heights, flags, 0, "red")  # 1 2 3 4 5 5: two fives, no six
    heights[board.parse_square("c4")] = 7
    assert not meets_win(heights, flags, 0, "red")  # a 7 is not a 6
    flags_six = flags[:-1] + [(board.parse_square("c3"), "red")]
    assert meets_win(heights, flags_six, 0, "red")
    assert not meets_win(heights, flags_six, 1, "red")  # a flag off the board


def test_the_condition_is_checked_at_the_end_of_the_turn_only():
    state = after(stairs(), "red: c4-c3")
    assert state.winners == () and meets_win(state.heights, state.flags, 0, "red")
    # red walks on and breaks it before its turn ends: no win
    state = after(state, "red: d3-e3 /")
    assert state.winners == ()


def test_first_winner_is_kept_after_a_capture():
    # red has won; in its last turn blue captures red's flag on the 6 (an attack, up: 3
    # points), and red stays a winner
    red_won = {**{k: v for k, v in RED_READY.items() if k != "c4"}, "c3": "red"}
    state = pos(STAIRS, flags={**red_won, "c4": "blue"}, reserve={"blue": 5}, active=1,
                winners=("red",), turns={"red": 1})
    done = after(state, "blue: c4xc3 /")
    assert done.phase == PHASE_OVER
    assert done.winners == ("red",)
    assert GAME.outcome(done).winners == ("red",)


def test_tt_win_last_round__co_winner():
    state = after(stairs(), "red: c4-c3 /")
    state = after(state, "blue: h7-h8 /")
    assert state.phase == PHASE_OVER
    outcome = GAME.outcome(state)
    assert outcome.winners == ("red", "blue")
    assert "co-winners" in outcome.reason_en and "ex aequo" in outcome.reason_fr
    assert outcome.scores == {"red": 6, "blue": 6}


def test_tt_win_last_round__no_co_winner():
    state = after(stairs(), "red: c4-c3 /")
    state = after(state, "blue: g8-f8 /")
    assert state.phase == PHASE_OVER
    assert GAME.outcome(state).winners == ("red",)
    assert GAME.to_move(state) is None
    assert GAME.legal_moves(state) == [] and GAME.physical_moves(state) == []


def test_the_last_player_of_the_round_ends_the_game_at_once():
    state = stairs(active=1, turns={"red": 1})
    done = after(state, "blue: h7-h8 /")
    assert done.phase == PHASE_OVER and done.winners == ("blue",)


def test_the_first_player_to_win_gets_no_extra_turn_of_others():
    three = pos(STAIRS, flags={**RED_READY, **BLUE_READY}, players=("red", "blue", "green"))
    state = after(three, "red: c4-c3 /")
    assert state.phase != PHASE_OVER
    state = after(state, "blue: g8-f8 /")
    assert state.phase != PHASE_OVER and GAME.to_move(state) == "green"
    state = after(state, "green: /")
    assert state.phase == PHASE_OVER and state.winners == ("red",)


def test_no_move_after_the_end():
    state = after(after(stairs(), "red: c4-c3 /"), "blue: g8-f8 /")
    with pytest.raises(MalformedMove, match="game is over"):
        GAME.apply(state, GAME.parse_notation(state, "red: -d4"))
    assert GAME.outcome(stairs()) is None


def test_tt_win_the_game_needs_all_six_flags():
    state = pos(STAIRS, flags={k: v for k, v in RED_READY.items() if k != "b2"},
                reserve={"red": 1})
    assert_legal(state, "red: c4-c3 /")
    assert after(state, "red: c4-c3 /").winners == ()
    assert after(state, "red: *b2 c4-c3 /").winners == ("red",)
