"""La Ville des Nains on the contract: the rule references, the components and the text's
examples, setup and options, bad input, notation and JSON, status and board view."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from companion.games import GAMES, get_game
from companion.games.base import BadOptions, BadSetup, MalformedMove, RuleRef
from companion.games.texts import normalise, rule_text
from companion.games.ville_des_nains import rules
from companion.games.ville_des_nains.components import (
    BEACH_TOWER, BLUE_STONES, CARD_COUNT, COLOUR_FACES, MARKED_STONES, SHAPES, default_deck,
)
from companion.games.ville_des_nains.moves import (
    Build, CardTake, Draw, KoboldPlay, Roll, Take, Target, from_json, notation, parse,
)
from companion.games.ville_des_nains.state import ROLL

# -- rule references -------------------------------------------------------------------------


def test_every_rule_quote_is_in_the_rule_text():
    text = normalise(rule_text("ville-des-nains"))
    assert rules.RULES, "no RuleRef found"
    for rule in rules.RULES.values():
        quotes = re.findall(r"«\s*(.+?)\s*»", rule.paragraph)
        if rule.paragraph.startswith("Rulings — "):
            assert not quotes
            continue
        assert quotes, f"{rule.id}: a paragraph quotes the text in « » or cites the Rulings"
        for quote in quotes:
            assert normalise(quote) in text, f"{rule.id}: {quote!r} is not in the rule text"


def test_rule_ids_are_stable_dotted_and_prefixed():
    for key, rule in rules.RULES.items():
        assert isinstance(rule, RuleRef) and key == rule.id
        assert re.fullmatch(r"vdn(\.[a-z0-9-]+)+", rule.id), rule.id
        assert rule.fr and rule.en


def test_every_rule_has_a_legal_and_an_illegal_test():
    from pathlib import Path
    here = Path(__file__).parent
    names = " ".join(p.read_text() for p in here.glob("test_vdn_*.py"))
    for rule_id in rules.RULES:
        stem = "test_" + rule_id.replace(".", "_").replace("-", "_")
        assert f"def {stem}__legal" in names, f"no legal test for {rule_id}"
        assert f"def {stem}__illegal" in names, f"no illegal test for {rule_id}"


# -- components and the text's examples ------------------------------------------------------


def test_components_match_the_text(game):
    state = game.setup(["green", "white"])
    # « 40 pierres de couleur rouge, orange, jaune et violet. »
    assert sum(state.pool) == 40
    # « 12 pierres bleues : ce sont les 12 pierres du kobold. Trois d'entre elles sont marquées »
    assert BLUE_STONES == 12 and MARKED_STONES == 3
    assert state.blue_left_in_box() == 12 and state.marked_left_in_box() == 3
    # « 3 dés couleur + 1 dé kobold. 12 cartes de construction. »
    assert len(default_deck()) == CARD_COUNT == 12
    assert set(COLOUR_FACES) == {"yellow", "orange", "red", "violet", "white", "blue"}
    assert state.options.die_faces() == ("0", "1", "1", "2", "2", "kobold")
    # « Chaque enfant reçoit deux cartes de construction. Les cartes restantes sont mises en
    # talon. »
    assert all(len(row) == 2 for row in state.buildings) and len(state.talon) == 8
    # « (7 pierres l'un sur l'autre) »
    assert BEACH_TOWER == 7


def test_default_deck_is_buildable_with_roofs_on_top():
    """The text's example « le toit vient tout au-dessus »: every roof is a card's last shape,
    and all twelve buildings fit in the box (so the dwarves can win on the stone side)."""
    deck = default_deck()
    assert [c.id for c in deck] == list(range(1, 13))
    need = {s: 0 for s in SHAPES}
    for card in deck:
        assert "roof" not in card.shapes[:-1]
        for shape in card.shapes:
            need[shape] += 1
    assert need["cube"] <= 12 and need["long"] <= 12 and need["cylinder"] <= 8
    assert need["roof"] <= 8


def test_registry_finds_the_game():
    assert GAMES["ville-des-nains"] == "companion.games.ville_des_nains:VilleDesNains"
    g = get_game("ville-des-nains")
    assert g.name == "ville-des-nains" and g.rules_file == "ville-des-nains.fr.txt"
    assert g.min_players == 2 and g.max_players == 7


# -- setup, options and bad input ------------------------------------------------------------


def test_setup_deals_from_the_seed_or_the_deal_option(game):
    a = game.setup(["green", "white", "pink"], seed=1)
    b = game.setup(["green", "white", "pink"], seed=1)
    assert a == b and hash(a) == hash(b)
    dealt = [b.card for row in a.buildings for b in row]
    assert len(set(dealt)) == 6 and set(dealt).isdisjoint(a.talon)
    fixed = game.setup(["green", "white"], {"deal": "3,7;1,12"})
    assert [[b.card for b in row] for row in fixed.buildings] == [[3, 7], [1, 12]]
    assert fixed.stage == ROLL and game.to_move(fixed) == "green"


def test_game_two_needs_the_kobold_seat(game):
    s = game.setup(["green", "blue", "white"], {"game": 2})
    assert s.buildings[1] == () and s.kobold_index() == 1
    with pytest.raises(BadSetup, match="kobold player at seat blue"):
        game.setup(["green", "white"], {"game": 2})
    with pytest.raises(BadSetup, match="game 1"):
        game.setup(["green", "blue"])


@pytest.mark.parametrize("players", [["green"], ["green", "white", "pink", "cyan", "brown",
                                                 "grey", "green"], [], ["green", "red"],
                                     ["green", "green"]])
def test_wrong_players_are_refused(game, players):
    with pytest.raises(BadSetup):
        game.setup(players)


def test_seven_dwarves_are_refused_but_six_and_a_kobold_play(game):
    six = ["green", "white", "pink", "cyan", "brown", "grey"]
    assert len(game.setup(six).talon) == 0
    assert game.setup(six + ["blue"], {"game": 2}).kobold_index() == 6
    with pytest.raises(BadSetup, match="2 to 6 dwarves"):
        game.setup(["green", "blue"], {"game": 2})


@pytest.mark.parametrize("options, message", [
    ({"speed": 3}, "unknown option"),
    ({"game": 3}, "game must be 1"),
    ({"game": "2"}, "must be a int"),
    ({"side": "sand"}, "side must be"),
    ({"all_or_nothing": 1}, "true or false"),
    ({"cubes": 4}, "10 in all"),
    ({"kobold_die": "0,1,2"}, "six faces"),
    ({"cards": "cube-roof"}, "12 construction cards"),
    ({"cards": ",".join(["roof-cube"] * 12)}, "roof only fits on top"),
    ({"cards": ",".join(["roof"] * 12)}, "could never all be built"),
])
def test_bad_options_are_refused(game, options, message):
    with pytest.raises(BadOptions, match=message):
        game.setup(["green", "white"], options)


@pytest.mark.parametrize("deal, message", [("1,2", "1 hand"), ("1,2;2,3", "each dealt once"),
                                           ("1;2", "two cards"), ("1,2;3,13", "1 to 12")])
def test_bad_deal_is_refused(game, deal, message):
    with pytest.raises(BadSetup, match=message):
        game.setup(["green", "white"], {"deal": deal})


def test_options_round_trip_and_are_documented(game):
    opts = game.options_from_json({"side": "beach", "game": 2, "cards": ""})
    assert game.options_from_json(game.options_to_json(opts)) == opts
    docs = game.option_docs()
    assert set(docs) >= {"game", "side", "all_or_nothing", "beach_all_cards", "cards", "deal"}
    assert all(docs.values())


def test_custom_deck_from_options(game):
    cards = ",".join(["cube-cube-roof"] * 4 + ["long-long"] * 4 + ["cylinder-cylinder"] * 4)
    s = game.setup(["green", "white"], {"cards": cards, "deal": "1,5;9,2"})
    assert s.card(9).shapes == ("cylinder", "cylinder")


# -- notation and JSON -----------------------------------------------------------------------

EXAMPLES = [
    Roll("green", ("white", "red", "orange")),
    Roll("blue", ("kobold",)),
    Build("green", take=(Take("green", 1, "violet", "roof"), Take("green", 0, "red", "cube"))),
    Build("green", take=(Take("pink", 0, "orange", "long"),)),
    Build("green", draws=(Draw(False), Draw(True, Target("green", 1)), Draw(True))),
    Build("green", take=(Take("green", 2, "red", "cube"),), cards=(CardTake("green", 7),)),
    Build("white", take=(Take("white", 1, "red", "cube"),), cards=(CardTake("white", None),)),
    Build("white", roll=("red", "blue", "white"), take=(Take("white", 0, "red", "cube"),),
          draws=(Draw(False),)),
    KoboldPlay("blue", add=2, roll="2"),
    KoboldPlay("blue", destroy=Target("green", 1), roll="kobold"),
    KoboldPlay("blue", add=1),
]


@pytest.mark.parametrize("move", EXAMPLES, ids=notation)
def test_notation_and_json_round_trip(game, move):
    state = game.setup(["green", "blue", "white", "pink"], {"game": 2})
    text = game.notation(state, move)
    assert game.parse_notation(state, text) == move
    data = game.move_to_json(move)
    assert game.move_from_json(json.loads(json.dumps(data))) == move


def test_canonical_order_makes_equal_moves_equal():
    a = Build("green", take=(Take("white", 0, "red", "cube"), Take("green", 1, "red", "roof"),
                             Take("green", 0, "red", "cube")),
              draws=(Draw(False), Draw(True, Target("green", 0))))
    b = Build("green", take=(Take("green", 0, "red", "cube"), Take("green", 1, "red", "roof"),
                             Take("white", 0, "red", "cube")),
              draws=(Draw(True, Target("green", 0)), Draw(False)))
    assert a == b and notation(a) == notation(b)
    assert notation(a) == "green take red-cube@0,red-roof@1,red-cube@white:0 draw marked>0,plain"
    assert Roll("green", ("red", "white", "yellow")).faces == ("yellow", "red", "white")


@pytest.mark.parametrize("text, message", [
    ("", "empty notation"),
    ("purple roll red,red,red", "unknown seat"),
    ("green", "says nothing happened"),
    ("green roll red,magenta,red", "unknown die face"),
    ("green take red-cube", "colour-shape@building"),
    ("green take red-pyramid@0", "unknown shape"),
    ("green take blue-cube@0", "unknown stone colour"),
    ("green take red-cube@x", "a building is its index"),
    ("green draw maybe", "'plain', 'marked'"),
    ("green card seven", "its number"),
    ("green take red-cube@0 take red-cube@1", "given twice"),
    ("green fly away", "expected one of"),
    ("blue add two", "number of blue stones"),
    ("blue roll 2,1 add 1", "one die"),
    ("blue destroy 1", "another player's building"),
    ("blue add 1 take red-cube@0", "the kobold adds or destroys"),
])
def test_malformed_notation_says_what_is_wrong(text, message):
    with pytest.raises(MalformedMove, match=message):
        parse(text)


def test_notation_for_a_seat_not_playing_is_refused(game):
    state = game.setup(["green", "white"])
    with pytest.raises(MalformedMove, match="pink is not playing"):
        game.parse_notation(state, "pink roll red,red,red")


@pytest.mark.parametrize("data, message", [
    ([], "JSON object"),
    ({"type": "jump", "seat": "green"}, "move.type"),
    ({"type": "roll"}, "needs 'seat'"),
    ({"type": "roll", "seat": "green", "faces": "red"}, "must be a list"),
    ({"type": "roll", "seat": "green", "faces": ["red", 3]}, "list of face names"),
    ({"type": "build", "seat": "green", "take": [{"building": 0, "colour": "red"}]}, "'shape'"),
    ({"type": "build", "seat": "green", "take": [{"building": -1, "colour": "red",
                                                   "shape": "cube"}]}, "0 or more"),
    ({"type": "build", "seat": "green", "draw": [{"marked": "yes"}]}, "must be a bool"),
    ({"type": "build", "seat": "green", "cards": [{"card": True}]}, "wrong type"),
    ({"type": "build", "seat": "green", "stones": []}, "unknown key"),
    ({"type": "kobold", "seat": "blue", "add": -1}, "0 or more"),
    ({"type": "kobold", "seat": "blue", "roll": "red"}, "kobold-die face"),
])
def test_malformed_json_says_what_is_wrong(data, message):
    with pytest.raises(MalformedMove, match=message):
        from_json(data)


def test_failed_moves_leave_the_state_untouched(game, arrange):
    state = arrange(buildings={"green": [(1, ""), (2, "")], "white": [(3, ""), (4, "")]},
                    roll=("green", "red,orange,yellow"))
    before = dataclasses.replace(state)
    bad = [
        Build("green", take=(Take("green", 5, "red", "cube"),)),       # no such building
        Build("green", take=(Take("green", 2, "red", "cube"),)),       # new building, no card
        Build("green", cards=(CardTake("green", 1),)),                 # card 1 is in play
        Build("green"),                                                # nothing at all
        Build("green", roll=("red", "red", "red")),                    # a roll alone
        KoboldPlay("blue", add=1),                                     # no kobold in game 1
        Roll("green", ("2",)),                                         # kobold die in game 1
        Roll("green", ("red", "red")),                                 # two dice
    ]
    for move in bad:
        with pytest.raises(MalformedMove):
            game.check(state, move)
        with pytest.raises(MalformedMove):
            game.apply(state, move)
    assert state == before


def test_a_stone_not_on_the_table_cannot_be_taken(game, arrange):
    state = arrange(buildings={"green": [(1, "red-cube red-cube red-cube"), (2, "")],
                               "white": [(3, ""), (4, "")]}, roll=("green", "red,orange,yellow"))
    with pytest.raises(MalformedMove, match="no red cube is left"):
        game.check(state, game.parse_notation(state, "green take red-cube@1"))


def test_marked_stones_are_at_most_three(game, arrange):
    state = arrange(buildings={"green": [(1, ""), (2, "")], "white": [(3, ""), (4, "")]},
                    marked=3, tower=5, roll=("green", "blue,red,yellow"))
    with pytest.raises(MalformedMove, match="3 marked stones"):
        game.check(state, game.parse_notation(state, "green draw marked"))


# -- status, board view, scores --------------------------------------------------------------


def test_status_and_board_view(game, arrange):
    state = arrange(players=("green", "blue", "white"), options={"game": 2},
                    buildings={"green": [(4, "red-long orange-long"), (2, "red-long")],
                               "white": [(3, ""), (1, "")]}, tower=3, roll=("green",
                                                                            "red,blue,white"))
    st = game.status(state)
    assert st["players"] == ["green", "blue", "white"] and st["active"] == "green"
    assert st["phase"] == "build" and st["round"] == 1
    assert st["scores"] == {"green": 1, "blue": 3, "white": 0}
    assert st["dice"] == {"colour": ["red", "white", "blue"], "kobold": None}
    assert st["dice_left"] == ["red", "white"] and st["blue_to_draw"] == 0
    assert st["kobold_tower"] == 3 and st["talon"] == 8 and st["pool"] == 37
    json.dumps(st)
    view = game.board_view(state)
    assert view["kind"] == "ville-des-nains" and view["kobold"]["player"] == "blue"
    green = view["players"][0]["buildings"]
    assert green[0] == {"index": 0, "card": 4, "name": {"fr": "muraille", "en": "wall"},
                        "plan": ["long", "long"], "need": 2, "finished": True,
                        "stones": [{"colour": "red", "shape": "long"},
                                   {"colour": "orange", "shape": "long"}]}
    assert view["players"][1] == {"seat": "blue", "role": "kobold", "buildings": []}
    assert view["pool"]["red"]["long"] == 1
    json.dumps(view)
