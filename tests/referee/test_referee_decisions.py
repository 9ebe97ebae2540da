"""The referee's decisions: settle, flag, ask, revise, wait, and what people do about them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion import events as ev
from companion.observation import Observation, Piece
from companion.referee import Referee, RefereeError

from referee_helpers import HLC, PLAYERS, placed, play, seen_after, shifted


@pytest.fixture
def referee(data_dir):
    from companion.store import EventLog
    log = EventLog.in_dir(data_dir)
    yield placed(Referee.start(log, HLC.name, PLAYERS, actor="test"))
    log.close()


def kinds(events):
    return [e.type for e in events]


def test_a_clear_legal_move_is_settled_with_its_score(referee):
    state = referee.state
    assert HLC.to_move(state) == "red"
    events = referee.observe(seen_after(state, "red: N -5,1^0"))
    assert kinds(events) == [ev.MOVE_JUDGED]
    assert events[0].data["legal"] and events[0].data["notation"] == "red: N -5,1^0"
    assert HLC.to_move(referee.state) == "blue"


def test_an_unchanged_table_and_a_drifted_mountain_are_not_moves(referee):
    seen = HLC.expected_observation(referee.state)
    assert referee.observe(seen) == []
    assert referee.observe(shifted(seen, 1, -1)) == []  # the whole mountain nudged by a cell
    assert referee.observe(replace(seen, hand=True)) == []


def test_an_illegal_move_is_flagged_then_retracted_when_put_right(referee):
    state = referee.state
    events = referee.observe(seen_after(state, "red: N 2,-2^1"))  # half-empty base
    assert kinds(events) == [ev.MOVE_JUDGED]
    data = events[0].data
    assert data["legal"] is False and data["rule"]["id"] == "hlc.napozla.full-base"
    assert "« On doit toujours poser un cube sur une base totalement pleine." in data["rule"]["paragraph"]
    assert referee.state == state  # nothing applied
    events = referee.observe(seen_after(state, "red: N 1,-2^1"))  # the cube put straight
    assert kinds(events) == [ev.ILLEGAL_RETRACTED, ev.MOVE_JUDGED]
    assert events[1].data["legal"] and HLC.to_move(referee.state) == "blue"


def test_an_illegal_move_can_be_let_stand_and_the_log_says_who(referee):
    state = referee.state
    referee.observe(seen_after(state, "red: N 2,-2^1"))
    events = referee.let_stand(actor="referee")
    assert kinds(events) == [ev.VERDICT_OVERRIDDEN] and events[0].actor == "referee"
    assert (2, -2, 1) in referee.state.cubes and HLC.to_move(referee.state) == "blue"
    with pytest.raises(RefereeError):
        referee.let_stand()


def test_a_hidden_card_is_asked_never_guessed(referee):
    # round 1: red lays a step and climbs it; round 2 (blue first): red jumps, card unreadable
    for text in ("red: N -5,1^0", "blue: M -4,-2", "green: M 3,0", "red: M -4,1",
                 "blue: M -4,-1", "green: M 3,1", "blue: M -4,-2", "green: M 3,0"):
        assert kinds(play(referee, text)) == [ev.MOVE_JUDGED], text
    s = referee.state
    assert s.round == 2 and HLC.to_move(s) == "red" and s.height(s.giants[0]) == 1
    events = play(referee, "red: M -4,0", card=False)  # a jump of one level
    assert kinds(events) == [ev.QUESTION_ASKED]
    choices = [c["notation"] for c in events[0].data["choices"]]
    assert any(c.startswith("red: M -4,0") for c in choices)
    assert any(c.startswith("red: H -4,0") for c in choices)
    assert referee.observe(seen_after(s, "red: M -4,0", card=False)) == []  # the game waits
    events = referee.answer("red: M -4,0", actor="referee")
    assert kinds(events)[0] == ev.QUESTION_ANSWERED
    assert events[0].data["score_delta"] == {"red": 1}
    assert HLC.scores(referee.state)["red"] == 1
    with pytest.raises(RefereeError):
        referee.answer(0)


def test_an_adjustment_in_the_same_turn_revises_the_move(referee):
    state = referee.state
    referee.observe(seen_after(state, "red: N -5,1^0"))
    events = referee.observe(seen_after(state, "red: N -5,2^0"))  # red moves the cube along
    assert kinds(events) == [ev.MOVE_REVISED]
    assert (-5, 2, 0) in referee.state.cubes and (-5, 1, 0) not in referee.state.cubes
    assert len(referee.session.entries) == 4  # three placements and one move, not two


def test_nothing_explains_a_knocked_over_mountain(referee):
    seen = HLC.expected_observation(referee.state)
    knocked = replace(seen, pieces=tuple(p for p in seen.pieces if p.kind != "cube"))
    events = referee.observe(knocked)
    assert kinds(events) == [ev.UNEXPLAINED]
    assert referee.observe(knocked) == []  # said once, not at every frame
    assert referee.state.cubes  # the state is untouched


def test_a_giant_across_a_line_is_asked_to_be_set_straight(referee):
    seen = HLC.expected_observation(referee.state)
    on_line = replace(seen, pieces=seen.pieces + (
        Piece("giant", xyz=(12.0, 30.0, 0.0), attrs={"colour": "red", "on_line": True}),))
    events = referee.observe(on_line)
    assert kinds(events) == [ev.UNEXPLAINED] and "straight" in events[0].data["reason"]


def test_undo_and_correct_replace_rather_than_branch(referee):
    state = referee.state
    referee.observe(seen_after(state, "red: N -5,1^0"))
    events = referee.correct("red: N -5,2^0", actor="referee")
    assert kinds(events) == [ev.MOVE_CORRECTED] and events[0].actor == "referee"
    assert (-5, 2, 0) in referee.state.cubes and len(referee.session.entries) == 4
    events = referee.undo(actor="referee")
    assert kinds(events) == [ev.MOVE_UNDONE]
    assert referee.state == state
    with pytest.raises(RefereeError):
        referee.correct("red: N 99,99^0 nonsense")


def test_confirm_is_recorded(referee):
    events = referee.confirm(actor="referee")
    assert kinds(events) == [ev.VERDICT_CONFIRMED]


def test_an_observation_of_another_game_is_refused(referee):
    from companion.observation import ObservationError
    with pytest.raises(ObservationError):
        referee.observe(Observation(game="altitude"))


def test_listeners_receive_every_event_with_the_status(referee):
    seen = []
    referee.subscribe(lambda event, status: seen.append((event.type, status["active"])))
    referee.observe(seen_after(referee.state, "red: N -5,1^0"))
    assert seen == [(ev.MOVE_JUDGED, "blue")]
    referee.subscribe(lambda event, status: 1 / 0)  # a broken listener never stops the referee
    referee.observe(seen_after(referee.state, "pile"))
    assert seen[-1][0] == ev.MOVE_JUDGED


def test_two_moves_between_still_moments_are_both_recorded(referee):
    """Red lays a cube and blue clears the zone before the camera sees the table still."""
    state = referee.state
    after_red = HLC.apply(state, HLC.parse_notation(state, "red: N -5,1^0"))
    after_pile = HLC.apply(after_red, HLC.parse_notation(after_red, "pile"))
    events = referee.observe(HLC.expected_observation(after_pile))
    assert [e.data.get("notation") for e in events] == ["red: N -5,1^0", "pile"]
    assert referee.state == after_pile
