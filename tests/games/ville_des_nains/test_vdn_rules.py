"""Every rule paragraph and ruling of La Ville des Nains: a legal and an illegal case each, named
after the rule id they cite (cards of the shipped deck: 1 cube-cube-roof, 2 long-cube-roof,
3 cylinder-cylinder-roof, 4 long-long, 5 cube-cylinder-roof, 6 long-cube-cube, ...)."""

from __future__ import annotations

import pytest

from dataclasses import replace

from companion.games.base import IllegalMove, MalformedMove

START = {"green": [(1, ""), (2, "")], "white": [(3, ""), (4, "")]}


def assert_legal(v):
    assert v.legal, f"expected legal, got {v.rule.id if v.rule else None}"
    assert v.rule is None


def assert_breaks(v, rule_id):
    assert not v.legal
    assert v.rule is not None and v.rule.id == rule_id, v.rule


# -- turn and dice ---------------------------------------------------------------------------


def test_vdn_turn_order__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "white roll red,red,violet"))


def test_vdn_turn_order__illegal(arrange, verdict, game):
    s = game.setup(["green", "white", "pink"])
    assert_breaks(verdict(s, "white roll red,red,violet"), "vdn.turn.order")
    s = arrange(players=("green", "white", "pink"), roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "pink roll red,red,violet"), "vdn.turn.order")


def test_vdn_dice_none__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take red-cube@0"))


def test_vdn_dice_none__illegal(arrange, verdict, game):
    s = arrange(buildings=START)
    assert_breaks(verdict(s, "green take red-cube@0"), "vdn.dice.none")
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    # white takes a stone during green's turn, with no dice of its own
    assert_breaks(verdict(s, "white take red-cylinder@0"), "vdn.dice.none")


def test_vdn_dice_colour__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take yellow-long@1"))


def test_vdn_dice_colour__illegal(arrange, verdict, game):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    v = verdict(s, "green take violet-cube@0")
    assert_breaks(v, "vdn.dice.colour")
    # the move still applies (a table may let it stand), and the stone is then built
    after = game.apply(s, game.parse_notation(s, "green take violet-cube@0"))
    assert after.buildings[0][0].stones == (("violet", "cube"),)


def test_vdn_dice_one_per_die__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,red,orange"))
    assert_legal(verdict(s, "green take red-cube@0,red-cube@0"))


def test_vdn_dice_one_per_die__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take red-cube@0,red-long@1"), "vdn.dice.one-per-die")


def test_vdn_dice_one_per_die__white_beach_legal(arrange, verdict):
    # « Pour chaque face blanche, tu peux prendre un pierre de la couleur et de la forme de
    # ton choix. »
    s = arrange(options={"side": "beach"}, roll=("green", "white,red,orange"))
    assert_legal(verdict(s, "green take violet-roof@0"))
    assert_legal(verdict(s, "green take violet-roof@0,red-cylinder@1,orange-cube@1"))


def test_vdn_dice_one_per_die__white_beach_illegal(arrange, verdict):
    s = arrange(options={"side": "beach"}, roll=("green", "white,red,orange"))
    assert_breaks(verdict(s, "green take violet-roof@0,yellow-cube@1"), "vdn.dice.one-per-die")


def test_vdn_dice_all_or_nothing__legal(arrange, verdict):
    # every die can give a stone the cards need: the player takes them
    s = arrange(options={"all_or_nothing": True}, buildings=START,
                roll=("green", "red,orange,yellow"))
    assert not s.blocked
    assert_legal(verdict(s, "green take red-cube@0,orange-cube@0,yellow-long@1"))


def test_vdn_dice_all_or_nothing__illegal(arrange, verdict):
    # no violet cube or roof is left, and green needs a roof (card 1) and cubes (card 6): the
    # violet die gives nothing in any order, so under the strict reading green takes nothing at
    # all; by default (per die) the other dice still give their stones
    build = {"green": [(1, "red-cube red-cube"), (6, "red-long")],
             "white": [(8, "violet-cylinder"), (10, "violet-cube violet-cube")],
             "pink": [(3, "red-cylinder orange-cylinder violet-roof")],
             "cyan": [(5, "violet-cube yellow-cylinder violet-roof")]}
    players = ("green", "white", "pink", "cyan")
    strict = arrange(players=players, options={"all_or_nothing": True}, buildings=build,
                     roll=("green", "violet,orange,yellow"))
    assert strict.blocked
    assert_breaks(verdict(strict, "green take orange-cube@1"), "vdn.dice.all-or-nothing")
    default = arrange(players=players, buildings=build, roll=("green", "violet,orange,yellow"))
    assert not default.blocked
    assert_legal(verdict(default, "green take orange-cube@1,yellow-cube@1"))


# -- building --------------------------------------------------------------------------------


def test_vdn_stone_order__legal(arrange, verdict):
    # the text's own example: the roof comes on top
    s = arrange(buildings={"green": [(1, "red-cube orange-cube"), (2, "")],
                           "white": [(3, ""), (4, "")]}, roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take red-roof@0"))


def test_vdn_stone_order__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube"), (2, "")], "white": [(3, ""), (4, "")]},
                roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take red-roof@0"), "vdn.stone.order")
    assert_breaks(verdict(s, "green take orange-cube@1"), "vdn.stone.order")


def test_vdn_white_shape__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "white,red,red"))
    # white gives any colour: violet, in the shape card 1 needs (a cube)
    assert_legal(verdict(s, "green take violet-cube@0"))


def test_vdn_white_shape__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "white,red,red"))
    assert_breaks(verdict(s, "green take violet-roof@0"), "vdn.white.shape")


def test_vdn_build_finished__legal(arrange, verdict):
    s = arrange(buildings={"green": [(4, "red-long"), (2, "")], "white": [(3, ""), (1, "")]},
                roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take orange-long@0"))


def test_vdn_build_finished__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(4, "red-long orange-long"), (2, "")],
                           "white": [(3, ""), (1, "")]}, roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take yellow-cube@0"), "vdn.build.finished")


def test_vdn_build_beach_full__legal(arrange, verdict, game):
    six = "red-cube red-cube red-cube red-long red-long red-long"
    s = arrange(options={"side": "beach"}, buildings={"green": [(1, six), (2, "")],
                                                      "white": [(3, ""), (4, "")]},
                roll=("green", "red,orange,yellow"))
    v = verdict(s, "green take orange-roof@0 card beach")
    assert_legal(v)
    after = game.apply(s, game.parse_notation(s, "green take orange-roof@0 card beach"))
    assert len(after.buildings[0]) == 3 and after.finished(after.buildings[0][0])


def test_vdn_build_beach_full__illegal(arrange, verdict):
    seven = "red-cube red-cube red-cube red-long red-long red-long red-roof"
    s = arrange(options={"side": "beach"}, buildings={"green": [(1, seven), (2, ""), (5, "")],
                                                      "white": [(3, ""), (4, "")]},
                roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take orange-roof@0"), "vdn.build.beach-full")


def test_vdn_give__legal(arrange, verdict):
    # green has finished everything and the talon is empty: its dice help white
    s = arrange(buildings={"green": [(4, "red-long orange-long")], "white": [(3, "red-cylinder")]},
                talon=(), roll=("green", "red,orange,yellow"))
    assert not s.has_work(0)
    assert_legal(verdict(s, "green take orange-cylinder@white:0"))


def test_vdn_give__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take red-cylinder@white:0"), "vdn.give")
    # finished, but a card is still in the talon: take it rather than give
    s = arrange(buildings={"green": [(4, "red-long orange-long")], "white": [(3, "red-cylinder")]},
                talon=(7,), roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take orange-cylinder@white:0"), "vdn.give")


# -- blue faces, game 1 ----------------------------------------------------------------------


def test_vdn_blue_draw__legal(arrange, verdict, play):
    s = arrange(buildings=START, roll=("green", "red,blue,yellow"))
    assert s.blue_left == 1
    s = play(s, "green draw plain")
    assert_legal(verdict(s, "white roll red,red,violet"))


def test_vdn_blue_draw__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "red,blue,yellow"))
    assert_breaks(verdict(s, "white roll red,red,violet"), "vdn.blue.draw")


def test_vdn_blue_count__legal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "blue,blue,yellow"))
    assert_legal(verdict(s, "green draw plain,plain"))


def test_vdn_blue_count__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw plain,plain"), "vdn.blue.count")


def test_vdn_blue_unmarked__legal(arrange, verdict, game):
    s = arrange(buildings={"green": [(1, "red-cube"), (2, "")], "white": [(3, ""), (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw plain"))
    after = game.apply(s, game.parse_notation(s, "green draw plain"))
    assert after.tower == 1 and after.marked == 0


def test_vdn_blue_unmarked__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube"), (2, "")], "white": [(3, ""), (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw plain>0"), "vdn.blue.unmarked")


def test_vdn_blue_marked_stone__legal(arrange, verdict, game):
    s = arrange(buildings={"green": [(1, "red-cube orange-cube"), (2, "")],
                           "white": [(3, ""), (4, "")]}, roll=("green", "blue,red,yellow"))
    move = game.parse_notation(s, "green draw marked>0")
    assert_legal(game.check(s, move))
    after = game.apply(s, move)
    assert after.buildings[0][0].stones == () and after.buildings[0][0].card == 1
    assert after.pool == game.setup(["green", "white"]).pool  # the stones are back
    assert after.tower == 1 and after.marked == 1


def test_vdn_blue_marked_stone__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube orange-cube"), (2, "")],
                           "white": [(3, ""), (4, "")]}, roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked"), "vdn.blue.marked-stone")


def test_vdn_blue_marked_beach__legal(arrange, verdict):
    s = arrange(options={"side": "beach"},
                buildings={"green": [(1, "red-cube orange-cube"), (2, "")],
                           "white": [(3, ""), (4, "")]}, roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw marked>0"))


def test_vdn_blue_marked_beach__illegal(arrange, verdict):
    s = arrange(options={"side": "beach"},
                buildings={"green": [(1, "red-cube orange-cube"), (2, "")],
                           "white": [(3, ""), (4, "")]}, roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked"), "vdn.blue.marked-beach")


def test_vdn_blue_finished__legal(arrange, verdict):
    s = arrange(buildings={"green": [(4, "red-long orange-long"), (2, "red-long")],
                           "white": [(3, ""), (1, "")]}, roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw marked>1"))


def test_vdn_blue_finished__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(4, "red-long orange-long"), (2, "red-long")],
                           "white": [(3, ""), (1, "")]}, roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked>0"), "vdn.blue.finished")


def test_vdn_blue_own__legal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube"), (2, "")], "white": [(3, "red-cylinder"),
                                                                          (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw marked>0"))


def test_vdn_blue_own__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube"), (2, "")], "white": [(3, "red-cylinder"),
                                                                          (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked>white:0"), "vdn.blue.own")


def test_vdn_blue_beach_seven__legal(arrange, verdict):
    six = "red-cube red-cube red-cube red-long red-long red-long"
    s = arrange(options={"side": "beach"}, buildings={"green": [(1, six), (2, "")],
                                                      "white": [(3, ""), (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw marked>0"))


def test_vdn_blue_beach_seven__illegal(arrange, verdict):
    seven = "red-cube red-cube red-cube red-long red-long red-long red-roof"
    s = arrange(options={"side": "beach"},
                buildings={"green": [(1, seven), (2, "orange-cube"), (5, "")],
                           "white": [(3, ""), (4, "")]},
                roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked>0"), "vdn.blue.beach-seven")
    assert_legal(verdict(s, "green draw marked>1"))


def test_vdn_kobold_not_started__legal(arrange, verdict):
    # nothing of green's is started: a marked stone destroys nothing, and that is legal
    s = arrange(buildings=START, roll=("green", "blue,red,yellow"))
    assert_legal(verdict(s, "green draw marked"))


def test_vdn_kobold_not_started__illegal(arrange, verdict):
    s = arrange(buildings=START, roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw marked>0"), "vdn.kobold.not-started")


# -- cards -----------------------------------------------------------------------------------


def test_vdn_cards_new__legal(arrange, verdict, game):
    s = arrange(buildings={"green": [(1, "red-cube red-cube"), (4, "red-long orange-long")],
                           "white": [(3, ""), (2, "")]}, roll=("green", "red,orange,yellow"))
    move = game.parse_notation(s, "green take red-roof@0 card 7")
    assert_legal(game.check(s, move))
    after = game.apply(s, move)
    assert [b.card for b in after.buildings[0]] == [1, 4, 7] and 7 not in after.talon
    # and the new card's building can be started in the same moment
    assert_legal(verdict(s, "green take red-roof@0,orange-cube@2,yellow-long@2 card 7"))


def test_vdn_cards_new__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube red-cube"), (4, "red-long orange-long")],
                           "white": [(3, ""), (2, "")]}, roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take red-roof@0"), "vdn.cards.new")


def test_vdn_cards_new_beach__legal(arrange, verdict):
    six = "red-cube red-cube red-cube red-long red-long red-long"
    s = arrange(options={"side": "beach"}, buildings={"green": [(1, six), (2, "")],
                                                      "white": [(3, ""), (4, "")]},
                roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take orange-roof@0 card beach"))


def test_vdn_cards_new_beach__illegal(arrange, verdict):
    six = "red-cube red-cube red-cube red-long red-long red-long"
    s = arrange(options={"side": "beach"}, buildings={"green": [(1, six), (2, "")],
                                                      "white": [(3, ""), (4, "")]},
                roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take orange-roof@0"), "vdn.cards.new-beach")


def test_vdn_cards_early__legal(arrange, verdict):
    # no card left: finishing takes none, and nothing is owed
    s = arrange(buildings={"green": [(1, "red-cube red-cube"), (4, "red-long orange-long")],
                           "white": [(3, ""), (2, "")]}, talon=(),
                roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "green take red-roof@0"))


def test_vdn_cards_early__illegal(arrange, verdict):
    s = arrange(buildings={"green": [(1, "red-cube"), (4, "")], "white": [(3, ""), (2, "")]},
                roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "green take red-cube@0 card 7"), "vdn.cards.early")


# -- game 2 ----------------------------------------------------------------------------------

G2 = ("green", "blue", "white")
G2_START = {"green": [(1, "red-cube"), (2, "")], "white": [(3, "red-cylinder"), (4, "")]}


def test_vdn_game2_blue__legal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START,
                roll=("green", "blue,red,yellow"))
    assert s.dice_left == ("yellow", "red") and s.blue_left == 0
    assert_legal(verdict(s, "green take red-cube@0"))


def test_vdn_game2_blue__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START,
                roll=("green", "blue,red,yellow"))
    assert_breaks(verdict(s, "green draw plain"), "vdn.game2.blue")


def test_vdn_game2_dice__legal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START,
                roll=("green", "red,orange,yellow"))
    assert_legal(verdict(s, "blue roll 2"))


def test_vdn_game2_dice__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START,
                roll=("green", "red,orange,yellow"))
    assert_breaks(verdict(s, "blue roll red,red,violet"), "vdn.game2.dice")


def test_vdn_game2_kobold_die__legal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "1"))
    assert_legal(verdict(s, "white roll red,red,violet"))


def test_vdn_game2_kobold_die__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "1"))
    assert_breaks(verdict(s, "white roll 2"), "vdn.game2.kobold-die")


def test_vdn_game2_count__legal(arrange, verdict, play):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "2"))
    assert_legal(verdict(s, "blue add 2"))
    s = play(s, "blue add 1")  # over two still moments
    assert_legal(verdict(s, "blue add 1"))
    # no more than remain: with one blue stone left, a 2 adds one
    last = arrange(players=G2, options={"game": 2}, buildings=G2_START, tower=11,
                   roll=("blue", "2"))
    assert last.kobold_left == 1
    assert_legal(verdict(last, "blue add 1"))


def test_vdn_game2_count__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "2"))
    assert_breaks(verdict(s, "blue add 3"), "vdn.game2.count")
    k = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "kobold"))
    assert_breaks(verdict(k, "blue add 1"), "vdn.game2.count")


def test_vdn_game2_blank__legal(arrange, verdict, game):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "0"))
    assert game.to_move(s) == "white"  # nothing to do on a blank face
    assert_legal(verdict(s, "white roll red,red,violet"))


def test_vdn_game2_blank__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "0"))
    assert_breaks(verdict(s, "blue add 1"), "vdn.game2.blank")


def test_vdn_game2_destroy_face__legal(arrange, verdict, game):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "kobold"))
    move = game.parse_notation(s, "blue destroy white:0")
    assert_legal(game.check(s, move))
    after = game.apply(s, move)
    assert after.buildings[2][0].stones == () and not after.destroy_left


def test_vdn_game2_destroy_face__illegal(arrange, verdict, play):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "2"))
    assert_breaks(verdict(s, "blue destroy white:0"), "vdn.game2.destroy-face")
    k = arrange(players=G2, options={"game": 2}, buildings=G2_START, roll=("blue", "kobold"))
    k = play(k, "blue destroy white:0")
    assert_breaks(verdict(k, "blue destroy green:0"), "vdn.game2.destroy-face")  # only once


def test_vdn_game2_unfinished__legal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2},
                buildings={"green": [(4, "red-long orange-long"), (2, "red-long")],
                           "white": [(3, ""), (1, "")]}, roll=("blue", "kobold"))
    assert_legal(verdict(s, "blue destroy green:1"))


def test_vdn_game2_unfinished__illegal(arrange, verdict):
    s = arrange(players=G2, options={"game": 2},
                buildings={"green": [(4, "red-long orange-long"), (2, "red-long")],
                           "white": [(3, ""), (1, "")]}, roll=("blue", "kobold"))
    assert_breaks(verdict(s, "blue destroy green:0"), "vdn.game2.unfinished")


# -- the end ---------------------------------------------------------------------------------


def _all_but_one_roof(game):
    """Every card built, in a 6-dwarf game, except card 1's roof (no violet roof used)."""
    from companion.games.ville_des_nains.components import STONE_KINDS, stock
    players = ("green", "white", "pink", "cyan", "brown", "grey")
    deck = game.setup(list(players)).deck
    box: dict[str, list[str]] = {}
    for (colour, shape), n in zip(STONE_KINDS, stock(3, 3, 2, 2)):
        box.setdefault(shape, []).extend([colour] * n)
    plan = {}
    for seat, (a, b) in zip(players, [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)]):
        plan[seat] = []
        for card in (a, b):
            shapes = deck[card - 1].shapes[:-1] if card == 1 else deck[card - 1].shapes
            plan[seat].append((card, " ".join(f"{box[sh].pop(0)}-{sh}" for sh in shapes)))
    return players, plan


def test_vdn_end_city__legal(arrange, game):
    players, plan = _all_but_one_roof(game)
    s = arrange(players=players, buildings=plan, talon=(), roll=("green", "violet,red,orange"))
    after = game.push(s, game.parse_notation(s, "green take violet-roof@0"))
    out = game.outcome(after)
    assert out is not None and out.winners == players
    assert game.to_move(after) is None and game.legal_moves(after) == []


def test_vdn_end_city__illegal(arrange, game):
    players, plan = _all_but_one_roof(game)
    s = arrange(players=players, buildings=plan, talon=(), roll=("green", "violet,red,orange"))
    after = game.apply(s, game.parse_notation(s, "green take violet-roof@0"))
    with pytest.raises(MalformedMove, match="game is over"):
        game.check(after, game.parse_notation(after, "white roll red,red,red"))
    # the same last roof while a card is still in the talon: the city is not finished
    pending = arrange(players=players, buildings=plan, talon=(),
                      roll=("green", "violet,red,orange"))
    pending = replace(pending, talon=(1,))
    assert game.outcome(game.apply(pending, game.parse_notation(
        pending, "green take violet-roof@0"))) is None


def _beach_all_but(last: str) -> dict[str, list[tuple[int, str]]]:
    """Beach towers holding every stone of the box but ``last``: towers of 7 (finished, a new
    card taken for each) and of 6."""
    from companion.games.ville_des_nains.components import STONE_KINDS, stock
    box = [f"{c}-{s}" for (c, s), n in zip(STONE_KINDS, stock(3, 3, 2, 2)) for _ in range(n)]
    box.remove(last)
    sizes = {"green": [(1, 7), (2, 7), (7, 6), (8, 0)], "white": [(3, 7), (4, 6), (9, 0)],
             "pink": [(5, 6), (6, 0)]}
    plan = {}
    for seat, towers in sizes.items():
        plan[seat] = []
        for card, n in towers:
            plan[seat].append((card, " ".join(box[:n])))
            del box[:n]
    assert not box
    return plan


def test_vdn_end_beach__legal(arrange, game, play):
    # beach ruling: the last stone off the table finishes the city
    s = arrange(players=("green", "white", "pink"), options={"side": "beach"},
                buildings=_beach_all_but("violet-roof"), roll=("green", "violet,red,orange"))
    assert sum(s.pool) == 1
    after = play(s, "green take violet-roof@2")
    assert game.outcome(after).winners == ("green", "white", "pink")
    assert "Beach side" in game.outcome(after).reason_en


def test_vdn_end_beach__illegal(arrange, game):
    # the literal reading (option beach_all_cards): an empty table is not the end
    s = arrange(players=("green", "white", "pink"),
                options={"side": "beach", "beach_all_cards": True},
                buildings=_beach_all_but("violet-roof"), roll=("green", "violet,red,orange"))
    after = game.apply(s, game.parse_notation(s, "green take violet-roof@2"))
    assert sum(after.pool) == 0 and game.outcome(after) is None


def test_vdn_end_kobold__legal(arrange, game, play):
    s = arrange(buildings=START, tower=11, marked=3, roll=("green", "blue,red,yellow"))
    after = play(s, "green draw plain")
    out = game.outcome(after)
    assert out is not None and out.winners == ("kobold",)
    assert after.tower == 12


def test_vdn_end_kobold__illegal(arrange, game, play):
    s = arrange(buildings=START, tower=11, marked=3, roll=("green", "blue,blue,yellow"))
    after = play(s, "green draw plain")
    # at once: the second blue face cannot be played, nothing can
    with pytest.raises(MalformedMove):
        game.check(after, game.parse_notation(after, "green take yellow-cube@0"))


def test_vdn_end_kobold_player__legal(arrange, game, play):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, tower=10,
                roll=("blue", "2"))
    after = play(s, "blue add 2")
    assert game.outcome(after).winners == ("blue",)


def test_vdn_end_kobold_player__illegal(arrange, game):
    s = arrange(players=G2, options={"game": 2}, buildings=G2_START, tower=11,
                roll=("blue", "2"))
    with pytest.raises(MalformedMove, match="only 1 blue stone"):
        game.check(s, game.parse_notation(s, "blue add 2"))


# -- push refuses what check flags -----------------------------------------------------------


def test_push_raises_illegal_move_with_its_rule(arrange, game):
    s = arrange(buildings=START, roll=("green", "red,orange,yellow"))
    with pytest.raises(IllegalMove) as err:
        game.push(s, game.parse_notation(s, "green take violet-cube@0"))
    assert err.value.rule.id == "vdn.dice.colour"


# -- the mistakes players make are among the physical moves, each named ----------------------


def _named(game, state):
    found = set()
    for move in game.physical_moves(state):
        verdict = game.check(state, move)
        if not verdict.legal:
            found.add(verdict.rule.id)
    return found


def test_physical_moves_name_the_common_mistakes(game, arrange, play):
    build = {"green": [(1, "red-cube"), (4, "red-long orange-long")],
             "white": [(3, "red-cylinder"), (2, "")]}
    s = arrange(buildings=build, roll=("green", "red,orange,blue"))
    named = _named(game, s)
    assert {"vdn.dice.colour", "vdn.stone.order", "vdn.build.finished", "vdn.give",
            "vdn.blue.draw", "vdn.blue.unmarked", "vdn.blue.marked-stone", "vdn.blue.finished",
            "vdn.blue.own", "vdn.cards.early", "vdn.dice.none"} <= named
    drawn = play(s, "green draw plain", "green take red-cube@0")
    assert {"vdn.blue.count", "vdn.dice.one-per-die", "vdn.turn.order"} <= _named(game, drawn)
    seven = "red-cube red-cube red-cube red-long red-long red-long red-roof"
    beach = arrange(options={"side": "beach"},
                    buildings={"green": [(1, seven), (2, "orange-cube"), (5, "")],
                               "white": [(3, ""), (4, "")]}, roll=("green", "blue,red,white"))
    assert {"vdn.blue.beach-seven", "vdn.build.beach-full", "vdn.blue.marked-beach"} <= \
        _named(game, beach)
    g2_build = {"green": [(4, "red-long orange-long"), (2, "red-long")],
                "white": [(3, ""), (1, "")]}
    before_kobold = arrange(players=G2, options={"game": 2}, buildings=g2_build,
                            roll=("green", "blue,red,yellow"))
    assert {"vdn.game2.dice", "vdn.game2.blue", "vdn.game2.count",
            "vdn.game2.destroy-face"} <= _named(game, before_kobold)
    one = arrange(players=G2, options={"game": 2}, buildings=g2_build, roll=("blue", "1"))
    assert {"vdn.game2.count", "vdn.game2.destroy-face", "vdn.game2.kobold-die"} <= \
        _named(game, one)
    face = arrange(players=G2, options={"game": 2}, buildings=g2_build, roll=("blue", "kobold"))
    assert "vdn.game2.unfinished" in _named(game, face)
