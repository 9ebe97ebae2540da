"""The end tests after each grue step, the scores in pips, and who wins."""

from __future__ import annotations

from companion.games.gleebs_and_grues.pieces import GRUES
from companion.games.gleebs_and_grues.state import seat_scores

from ._support import BY, GAME, GR, after, assert_legal, pos


def test_fixture_red_green_wins_7_against_blue_yellow_4():
    """« Fin de partie : Rouge/Vert gagne avec 7 points contre les 4 points de Bleu/Jaune »:
    the last grue step of such a game, and the count."""
    state = pos("""
        .         Rs/Bl/Kl  .    Ks
        .         Rl/Bs/Gs  .    .
        Ym/Rm/Km  Gm        .    .
        .         .         Gl/Ys .
    """, active=1, stage="grue", eaten=["Yl", "Bm"])
    assert GAME.outcome(state) is None
    v = assert_legal(state, "Ks d4-c4")
    end = GAME.apply(state, v.move)
    outcome = GAME.outcome(end)
    assert GAME.to_move(end) is None and end.stage == "over" and end.ending == "score"
    assert outcome.winners == (GR,)
    assert dict(outcome.scores) == {GR: 7, BY: 4}
    assert outcome.reason_en == "no gleeb can move: green-red wins with 7 points against 4"
    assert "7 points contre 4" in outcome.reason_fr
    assert any(n.startswith("game over") for n in v.notes)
    assert GAME.legal_moves(end) == [] and GAME.candidates(end, GAME.expected_observation(end)) == []


def test_scores_count_every_pyramid_in_the_stacks_a_seat_tops():
    state = pos("""
        Rl/Bs/Gs  .   .   .
        .         .   Ym  .
        .         Bl/Gm/Rs/Ys  .  .
        .         .   .   Ks
    """)
    assert GAME.scores(state) == {GR: 5, BY: 2 + 7}
    assert seat_scores(state.board, state.players) == GAME.scores(state)


def test_a_seat_topping_no_stack_loses_after_the_grue_step():
    state = pos("""
        .   .   .   .
        .   .   .   .
        Gm  Rs  .   .
        .   .   Ys  Ks
    """, stage="grue")
    end = after(state, "Ks d1xc1")
    outcome = GAME.outcome(end)
    assert end.ending == "no-stack" and outcome.winners == (GR,)
    assert outcome.reason_en == "blue-yellow tops no stack any more: blue-yellow loses"
    assert GAME.status(end)["can_move"][GR] is True   # green-red could still have moved


def test_the_end_tests_wait_for_the_grue_step():
    state = pos("""
        .   .   .   .
        .   .   .   .
        Gm  Ys  .   .
        Rs  .   .   Kl
    """, active=1)
    mid = after(state, "Gm a2xb2")           # blue-yellow now tops nothing ...
    assert mid.stage == "grue" and GAME.outcome(mid) is None
    end = after(mid, "Kl d1-d4")            # ... and loses once the grue step is done
    assert GAME.outcome(end).winners == (GR,)


def test_a_tie_means_the_grues_win():
    state = pos("""
        Bm  .   .   .
        .   Gs  .   .
        .   .   Rs  .
        .   .   .   Ks
    """, stage="grue")
    end = after(state, "Ks d1-d4")
    outcome = GAME.outcome(end)
    assert outcome.winners == (GRUES,) and dict(outcome.scores) == {BY: 2, GR: 2}
    assert outcome.reason_en == "a tie at 2 points: the grues win"


def test_nobody_left_means_the_grues_win():
    state = pos("""
        .         .   .   .
        .         .   .   .
        Gm/Rm/Km  .   .   .
        Ys        .   .   Ks
    """, stage="grue")
    end = after(state, "Ks d1xa1")
    outcome = GAME.outcome(end)
    assert outcome.winners == (GRUES,) and dict(outcome.scores) == {BY: 0, GR: 0}
    assert outcome.reason_en == "every gleeb has been eaten or pinned: the grues win"
    assert GAME.status(end)["outcome"]["winners"] == [GRUES]


def test_the_game_goes_on_while_a_gleeb_can_move():
    state = pos("""
        Bm  .   .   Gs
        .   .   .   .
        .   .   .   .
        .   .   .   Ks
    """, stage="grue")
    nxt = after(state, "Ks d1-c1")
    assert nxt.stage == "gleeb" and GAME.to_move(nxt) == GR
    assert GAME.status(nxt)["round"] == 1 and nxt.turn == 1
