"""Setup, dealing, turn order within a round, the rotating first player, reshuffles, the end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games import BadSetup
from companion.games.haut_les_cubes.cards import CARDS, DECK_SIZE, dealt, kept
from companion.games.haut_les_cubes.moves import Pile, Play
from companion.games.haut_les_cubes.state import start_layout, start_reserve
from companion.games.haut_les_cubes.transitions import end_round, start_round

from hlc_positions import GAME, block, position

ALL = ("red", "yellow", "blue", "green", "white", "black")


def first_play(state):
    """The first legal card play (not the table's moving of the last card to the pile)."""
    return next(m for m in GAME.legal_moves(state) if isinstance(m, Play))


@pytest.mark.parametrize("n,cubes,reserve", [(3, 6, 6), (4, 4, 5), (5, 4, 4), (6, 6, 3)])
def test_start_layouts_and_reserves_share_the_24_cubes(n, cubes, reserve):
    """« Le reste des cubes est réparti de façon égale entre tous les joueurs »"""
    assert len(start_layout(n)) == cubes and start_reserve(n) == reserve
    s = GAME.setup(ALL[:n])
    assert len(s.cubes) + sum(s.reserves) == 24
    assert s.phase == "placement" and GAME.to_move(s) == ALL[0]


@pytest.mark.parametrize("players", [("red", "blue"), ALL + ("red",), ("red", "red", "blue"),
                                     ("red", "blue", "purple")])
def test_bad_setups_are_refused(players):
    with pytest.raises(BadSetup):
        GAME.setup(players)


@pytest.mark.parametrize("level,cards,keep", [(0, 3, 2), (1, 4, 2), (2, 5, 3), (3, 6, 3), (4, 7, 4)])
def test_deal_three_plus_height_and_discard_half_rounded_down(level, cards, keep):
    """« On reçoit 3 cartes + 1 carte par hauteur de cube occupée par son géant » and
    « on en écarte la moitié (arrondi à l'inférieur) »"""
    assert dealt(level) == cards and kept(cards) == keep
    cubes = {(0, 0, z) for z in range(level)} | block(2, 0, 2, 2)
    s = position(cubes, {"red": (0, 0) if level else (-1, 0), "blue": (6, 0), "green": (6, 2)},
                 hands=(0, 0, 0))
    s = start_round(replace(s, played_round=0), first=0)
    assert s.hands == (keep, 2, 2)
    assert s.deck == DECK_SIZE - cards - 6
    assert s.discard == (cards - keep) + 2
    assert s.cards_total() == DECK_SIZE


def test_laps_from_the_first_player_skip_empty_hands():
    """« Quand tout le monde a posé une carte, on continue en en posant une deuxième »: a
    player with more cards plays longer."""
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)},
                 hands=(1, 3, 2), turn="red")
    order = []
    while s.round == 1:
        order.append(GAME.to_move(s))
        s = GAME.apply(s, first_play(s))
    assert order == ["red", "blue", "green", "blue", "green", "blue"]


def test_the_second_player_deals_the_next_round():
    """« Le deuxième joueur de la manche précédente devient le premier joueur »"""
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)},
                 hands=(1, 1, 1), first="red")
    for _ in range(3):
        s = GAME.apply(s, first_play(s))
    assert s.round == 2 and s.players[s.first] == "blue" and GAME.to_move(s) == "blue"
    s = replace(s, hands=(0, 1, 0))
    s = GAME.apply(s, first_play(s))
    assert s.round == 3 and s.players[s.first] == "green"


def test_reshuffle_when_the_deck_runs_out_keeps_every_card():
    """« Si la pioche est terminée, on mélange la défausse qui devient le nouveau paquet »"""
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)},
                 hands=(0, 0, 0), seen=[5, 3, 2, 1, 1, 1])
    s = replace(s, deck=4, discard=DECK_SIZE - 4, played_round=0)
    after = start_round(s, first=0)
    assert after.reshuffles == 1
    assert after.seen == (0,) * len(CARDS)  # the known pool starts again
    assert after.hands == (2, 2, 2)
    assert after.cards_total() == DECK_SIZE


def test_played_cards_go_to_the_discard_at_the_end_of_the_round():
    """« A la fin de la manche, les cartes jouées sont mises dans la défausse »"""
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)},
                 hands=(0, 0, 0))
    s = replace(s, played_round=7, discard=10, deck=DECK_SIZE - 17)
    after = end_round(s)
    assert after.played_round == 0
    assert after.cards_total() == DECK_SIZE


def test_the_game_ends_after_the_round_in_which_25_is_reached():
    """« Lorsqu'un joueur atteint ou dépasse 25, le jeu se poursuit jusqu'à la fin de la
    manche. »"""
    cubes = {(0, 0, z) for z in range(3)} | block(2, 0, 2, 2)
    s = position(cubes, {"red": (0, 0), "blue": (6, 0), "green": (6, 2)},
                 hands=(1, 1, 1), scores=(20, 0, 0))
    s = GAME.push(s, GAME.parse_notation(s, "red: M -1,0"))  # a jump of 3: +9
    assert GAME.scores(s)["red"] == 29 and GAME.outcome(s) is None
    while GAME.outcome(s) is None:
        s = GAME.apply(s, first_play(s))
    assert s.round == 1  # no further round was dealt
    outcome = GAME.outcome(s)
    assert outcome.winners == ("red",) and outcome.scores["red"] == 29


def test_tie_break_first_to_reach_the_score_wins():
    """« En cas d'égalité, c'est le premier joueur à avoir atteint le plus haut score qui
    gagne. »: blue reaches 26 first, red catches up later in the round."""
    cubes = {(0, 0, 0), (0, 0, 1)} | {(6, 0, 0), (6, 0, 1)} | block(2, 0, 2, 2)
    s = position(cubes, {"red": (0, 0), "blue": (6, 0), "green": (4, 4)},
                 hands=(1, 1, 1), scores=(22, 22, 0), turn="blue", first="blue")
    s = GAME.push(s, GAME.parse_notation(s, "blue: M 7,-1"))  # drop 2: +4 → 26
    s = GAME.push(s, first_play(s))                          # green
    assert GAME.to_move(s) == "red"
    s = GAME.push(s, GAME.parse_notation(s, "red: M -1,0"))   # drop 2: +4 → 26
    outcome = GAME.outcome(s)
    assert GAME.scores(s) == {"red": 26, "blue": 26, "green": 0}
    assert outcome.winners == ("blue",)
    assert "égalité" in outcome.reason_fr


def test_random_playout_from_setup_to_the_end():
    rng = random.Random(11)
    s = GAME.setup(("red", "blue", "green", "yellow"))
    moves = 0
    while GAME.outcome(s) is None:
        s = GAME.push(s, GAME.random_move(s, rng))
        moves += 1
    assert max(GAME.scores(s).values()) >= 25
    assert moves > 50


def test_pile_moves_the_played_card_away_and_changes_nothing_else():
    """The table convention: the next player moves the last card onto the played pile."""
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (4, 3), "green": (1, 4)})
    s = GAME.push(s, GAME.parse_notation(s, "red: M -1,1"))
    assert s.last_card == "moaveou" and GAME.to_move(s) == "blue"
    after = GAME.push(s, GAME.parse_notation(s, "pile"))
    assert after.last_card is None and GAME.to_move(after) == "blue"
    assert after.hands == s.hands and after.clock == s.clock
    from companion.games import MalformedMove
    with pytest.raises(MalformedMove):
        GAME.check(after, Pile())
