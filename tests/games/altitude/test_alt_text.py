"""The rule text's examples as fixtures, and its paragraphs that are not prohibitions: how a
mountain is assembled, the special cards, the deal, the hand, the end and the score."""

from __future__ import annotations

import pytest

from companion.games.altitude import mountain as geo
from companion.games.base import MalformedMove

from ._support import (
    BLUE, GAME, GREEN, RED, YELLOW, five_etages, judge, lay_for, pass_until, play, rule_of,
    start, tiny_deck,
)


# -- the two examples "au dos de la boîte" ----------------------------------------------------

def test_fixture_9_on_8_and_5():
    """« Dans l'exemple au dos de la boîte, 9 est supérieur à 8 et 5. » — higher than each,
    not than their sum (13)."""
    state = pass_until(lay_for(start(), RED, "builds m08a 1:0", "builds m05a 1:1"), RED)
    verdict = judge(state, "red builds m09a 2:0")
    assert verdict.legal and verdict.score_delta == {RED: 1}
    after = GAME.apply(state, verdict.move)
    assert after.mountain(RED) == ((1, 0, "m08a"), (1, 1, "m05a"), (2, 0, "m09a"))
    assert geo.value_rule_holds(after.manifest, after.mountain(RED))


def test_fixture_13_on_9_and_a_telepherique():
    """« la carte 13 a été posée sur 9 et 0 »: a téléphérique is worth 0."""
    state = lay_for(start(), RED, "builds m08a 1:0", "builds m05a 1:1", "builds m02a 1:2",
                    "builds m09a 2:0", "builds tel1 2:1")
    state = pass_until(state, RED)
    assert judge(state, "red builds m13a 3:0").legal
    assert rule_of(state, "red builds m09b 3:0") == "alt.value.higher"  # not higher than 9
    after = play(state, "red builds m13a 3:0")
    assert GAME.status(after)["heights"][RED] == 3


# -- assembling a mountain --------------------------------------------------------------------

def test_the_first_card_starts_the_base():
    """« Les cartes s'assemblent une par une, en débutant par la base. »"""
    state = start()
    assert judge(state, "red builds m05a 1:0").legal
    for text in ("red builds m05a 2:0", "red builds m05a 1:3"):
        with pytest.raises(MalformedMove):
            GAME.parse_notation(state, text)


def test_an_upper_row_starts_as_soon_as_possible():
    """« On peut démarrer une rangée supérieure dès que possible »: no need for a full base."""
    state = pass_until(lay_for(start(), RED, "builds m02a 1:0", "builds m03a 1:1"), RED)
    assert judge(state, "red builds m04a 2:0").legal


def test_the_base_grows_from_either_side():
    """« On peut poser les cartes de la base indifféremment de la droite vers la gauche »; the
    positions are renumbered from the leftmost card."""
    state = lay_for(start(), RED, "builds m05a 1:0", "builds m06a 1:-1", "builds m07a 1:-1",
                    "builds m08a 1:3")
    assert state.mountain(RED) == ((1, 0, "m07a"), (1, 1, "m06a"), (1, 2, "m05a"),
                                   (1, 3, "m08a"))


def test_a_telepherique_goes_anywhere_and_anything_covers_it():
    state = lay_for(start(), RED, "builds tel1 1:0", "builds m15a 1:1", "builds tel2 2:0")
    state = pass_until(state, RED)
    assert judge(state, "red builds tel3 1:2").legal  # in the base
    state = lay_for(state, RED, "builds tel3 1:2")
    state = pass_until(state, RED)
    assert rule_of(state, "red builds m01a 2:1") == "alt.value.higher"  # 1 is not above 15
    assert judge(state, "red builds tel4 2:1").legal  # on the 15
    state = lay_for(state, RED, "builds tel4 2:1")
    state = pass_until(state, RED)
    assert judge(state, "red builds m01a 3:0").legal  # 1 on two téléphériques


def test_animals_are_laid_like_other_cards():
    """« Les cartes « animaux » sont des cartes numérotées qui se posent comme les autres. »"""
    state = pass_until(lay_for(start(), RED, "builds m08a 1:0", "builds m05a 1:1"), RED)
    assert judge(state, "red builds lagopede 2:0").legal  # 9
    assert rule_of(state, "red builds marmotte 2:0") == "alt.value.higher"  # 6


def test_avalanches_count_in_the_height():
    """« Les cartes « avalanche » sont prises en compte dans la détermination de la hauteur »."""
    state = lay_for(start(), BLUE, "builds m10a 1:0", "builds m11a 1:1")
    state = pass_until(state, RED)
    state = play(state, "red gives ava1 blue 2:0")
    assert GAME.scores(state)[BLUE] == 2


# -- setup, the deal, the hand ----------------------------------------------------------------

def test_the_deal_leaves_four_in_hand_and_the_rest_in_the_deck():
    """Six dealt, four kept, two back into the deck: 52 - 4 x n left to draw."""
    for players, deck in (((RED,), 48), ((RED, BLUE), 44), ((RED, YELLOW, BLUE), 40),
                          ((RED, YELLOW, BLUE, GREEN), 36)):
        state = start(players)
        assert state.deck == deck and state.hands == (4,) * len(players)
        assert state.unseen_total == 52 and GAME.to_move(state) == players[0]


def test_the_hand_stays_four_while_the_deck_lasts():
    state = start()
    for text in ("red builds m07a 1:0", "blue discards m01a", "red draws m08a",
                 "red builds m02a 1:-1 from hand", "blue gives m09a red 1:2"):
        state = play(state, text)
        assert state.hands == (4, 4)


def test_solo_is_a_solitaire_with_the_same_rules():
    """« Règle pour un seul joueur : il s'agit d'une forme de réussite. »"""
    state = start((RED,))
    assert GAME.to_move(state) == RED and state.deck == 48
    assert all(m.kind != "give" for m in GAME.legal_moves(state))
    state = play(state, "red builds m03a 1:0", "red builds m04a 1:1")
    assert GAME.to_move(state) == RED and state.round == 3
    assert rule_of(state, "red builds ava1 1:2") == "alt.avalanche.own"


# -- double turns -----------------------------------------------------------------------------

def test_two_plays_a_turn_from_five_etages():
    """« Dès que la montagne d'un joueur atteint 5 étages (animaux compris), il joue deux fois à
    chaque tour. » — from the player's next turn."""
    state = five_etages(start())
    assert GAME.status(state)["heights"][RED] == 5
    assert GAME.to_move(state) == BLUE and state.turn_plays == 1
    state = play(state, "blue discards ava2")
    assert GAME.to_move(state) == RED and GAME.status(state)["plays"] == {"this_turn": 2,
                                                                           "left": 2}
    verdict = judge(state, "red discards ava3")
    assert any("second play" in note for note in verdict.notes)
    state = play(state, "red discards ava3", "red draws ava4", "red discards ava4")
    assert GAME.to_move(state) == BLUE


# -- the end phase and the score --------------------------------------------------------------

def end_phase(tmp_path, *, avalanche=False):
    """Two players on the tiny deck, the deck out after four plays: red then blue in the pass."""
    state = start(deck=tiny_deck(tmp_path))
    if avalanche:
        state = play(state, "red builds m01 1:0", "blue gives ava1 red 1:1",
                     "red builds m02 1:-1", "blue builds m03 1:0")
    else:
        state = play(state, "red builds m01 1:0", "blue builds m02 1:0",
                     "red builds m03 1:1", "blue discards m04")
    return state


def test_the_deck_out_starts_one_pass_in_turn_order(tmp_path):
    """« La partie s'arrête lorsqu'il n'y a plus de cartes dans la pioche. Les joueurs peuvent
    alors utiliser les cartes de leur main pour poursuivre l'élaboration de leur montagne. »"""
    state = end_phase(tmp_path)
    assert state.phase == "end" and state.deck == 0
    assert GAME.status(state)["end_queue"] == [RED, BLUE]
    assert judge(state, "red lays m05 2:0").legal
    state = play(state, "red lays m05 2:0")
    assert GAME.to_move(state) == RED and state.hands == (3, 4)
    state = play(state, "red shows 3 cards 1 saint-bernard")
    assert GAME.to_move(state) == BLUE
    state = play(state, "blue lays m06 1:1, lynx 2:0; shows 2 cards 1 saint-bernard")
    assert GAME.to_move(state) is None and state.phase == "over"


def test_score_etages_animals_saint_bernards_and_an_emptied_hand(tmp_path):
    """« Chaque joueur qui parvient à placer toutes les cartes de sa main (hormis les
    Saint-Bernard) gagne déjà un point. [...] On ajoute également les Saint-Bernard conservés ».
    Animals count only from the 4th étage."""
    state = end_phase(tmp_path)
    state = play(state, "red lays m05 2:0, tel1 1:2, m07 2:1; shows 1 cards 1 saint-bernard")
    state = play(state, "blue lays lynx 1:1, m06 1:-1; shows 2 cards 1 saint-bernard")
    board = GAME.status(state)["breakdown"]
    assert board[RED] == {"etages": 2, "animals": 0, "saint_bernards": 1, "empty_hand": 1,
                          "total": 4}
    assert board[BLUE] == {"etages": 1, "animals": 0, "saint_bernards": 1, "empty_hand": 0,
                           "total": 2}
    outcome = GAME.outcome(state)
    assert outcome.winners == (RED,) and dict(outcome.scores) == {RED: 4, BLUE: 2}


def test_animals_count_from_the_fourth_etage():
    state = five_etages(start())  # the eagle at étage 5, the chamois at étage 3
    assert GAME.status(state)["breakdown"][RED]["animals"] == 1
    assert GAME.scores(state)[RED] == 6


def test_a_tie_is_shared(tmp_path):
    state = end_phase(tmp_path)
    state = play(state, "red lays m05 2:0; shows 3 cards 1 saint-bernard")
    state = play(state, "blue lays m06 1:1, lynx 2:0; shows 2 cards 1 saint-bernard")
    outcome = GAME.outcome(state)
    assert outcome.winners == (RED, BLUE) and dict(outcome.scores) == {RED: 3, BLUE: 3}
    assert "share" in outcome.reason_en


def test_the_saint_bernards_shown_must_be_possible(tmp_path):
    state = end_phase(tmp_path)
    for text in ("red shows 4 cards 3 saint-bernard", "red lays m05 2:0; shows 3 cards 4 "
                 "saint-bernard", "red shows 3 cards 1 saint-bernard"):
        with pytest.raises(MalformedMove, match="saint-bernard|card"):
            GAME.parse_notation(state, text)
    # the last player to show keeps exactly what nobody else can hold
    state = play(state, "red shows 4 cards 2 saint-bernard")
    assert [m.shows for m in GAME.legal_moves(state) if m.lays == ()] == [0]


def test_a_hand_emptied_by_laying_ends_the_pass(tmp_path):
    state = end_phase(tmp_path)
    state = play(state, "red lays m05 2:0, m06 1:2, m07 2:1, tel1 3:0")
    assert GAME.to_move(state) == BLUE and GAME.status(state)["kept"][RED] == {
        "cards": 0, "saint_bernards": 0}
    assert GAME.status(state)["breakdown"][RED]["empty_hand"] == 1
