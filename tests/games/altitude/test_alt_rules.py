"""One legal and one illegal test per rule a verdict can cite, each named after the rule's id
(``alt.value.higher`` -> ``test_alt_value_higher__legal`` / ``__illegal``)."""

from __future__ import annotations

import re
import sys

import pytest

from companion.games.altitude.rules import RULES
from companion.games.texts import normalise, rule_text

from ._support import (
    BLUE, GAME, RED, five_etages, judge, lay_for, pass_until, play, rule_of, start,
    tiny_deck,
)


def red_eight_five():
    """Red has 8 and 5 side by side; red to play."""
    return pass_until(lay_for(start(), RED, "builds m08a 1:0", "builds m05a 1:1"), RED)


def blue_avalanche():
    """Blue's base 10 + avalanche (laid by red); blue to play."""
    state = lay_for(start(), BLUE, "builds m10a 1:0")
    state = pass_until(state, RED)
    return play(state, "red gives ava1 blue 1:1")


# -- the value rule and the shape -------------------------------------------------------------

def test_alt_value_higher__legal():
    assert judge(red_eight_five(), "red builds m09a 2:0").legal


def test_alt_value_higher__illegal():
    state = red_eight_five()
    assert rule_of(state, "red builds m04a 2:0") == "alt.value.higher"
    assert rule_of(state, "red builds m08b 2:0") == "alt.value.higher"  # equal is not higher


def test_alt_base_max__legal():
    cards = [f"builds m0{v}a 1:{v - 1}" for v in range(1, 10)]
    state = pass_until(lay_for(start(), RED, *cards), RED)
    assert judge(state, "red builds m10a 1:9").legal
    assert judge(state, "red builds m10a 1:-1").legal


def test_alt_base_max__illegal():
    cards = [f"builds m0{v}a 1:{v - 1}" for v in range(1, 10)] + ["builds m10a 1:9"]
    state = pass_until(lay_for(start(), RED, *cards), RED)
    assert rule_of(state, "red builds m11a 1:10") == "alt.base.max"
    assert rule_of(state, "red builds tel1 1:-1") == "alt.base.max"


def test_alt_structure_two__legal():
    state = pass_until(lay_for(start(), RED, "builds m02a 1:0", "builds m03a 1:1"), RED)
    assert judge(state, "red builds m04a 2:0").legal


def test_alt_structure_two__illegal():
    state = pass_until(lay_for(start(), RED, "builds m02a 1:0", "builds m03a 1:1"), RED)
    assert rule_of(state, "red builds m04a 2:1") == "alt.structure.two"
    assert rule_of(state, "red builds m04a 2:-1") == "alt.structure.two"


def test_alt_touch__legal():
    state = pass_until(lay_for(start(), RED, "builds m02a 1:0"), RED)
    assert judge(state, "red builds m03a 1:1").legal
    assert judge(state, "red builds m03a 1:-1").legal  # the base grows either way


def test_alt_touch__illegal():
    state = pass_until(lay_for(start(), RED, "builds m02a 1:0"), RED)
    assert rule_of(state, "red builds m03a 1:2") == "alt.touch"
    assert rule_of(state, "red builds m03a 1:-2") == "alt.touch"


# -- special cards ----------------------------------------------------------------------------

def test_alt_avalanche_own__legal():
    state = pass_until(lay_for(start(), BLUE, "builds m10a 1:0"), RED)
    assert judge(state, "red gives ava1 blue 1:1").legal
    assert rule_of(state, "red gives ava1 blue 2:0") == "alt.structure.two"  # on one card
    assert judge(state, "red gives ava1 blue 1:-1").legal


def test_alt_avalanche_own__illegal():
    state = red_eight_five()
    assert rule_of(state, "red builds ava1 1:2") == "alt.avalanche.own"
    assert rule_of(state, "red builds ava1 2:0") == "alt.avalanche.own"
    assert rule_of(state, "red replaces 1:1 with ava1") == "alt.avalanche.own"


def test_alt_avalanche_cover__legal():
    state = pass_until(blue_avalanche(), BLUE)
    assert judge(state, "blue builds tel2 2:0").legal  # a téléphérique goes onto an avalanche


def test_alt_avalanche_cover__illegal():
    state = pass_until(blue_avalanche(), BLUE)
    assert rule_of(state, "blue builds m15a 2:0") == "alt.avalanche.cover"
    state = pass_until(state, RED)
    assert rule_of(state, "red gives ava2 blue 2:0") == "alt.avalanche.cover"


def test_alt_saint_bernard_build__legal():
    state = pass_until(blue_avalanche(), BLUE)
    assert judge(state, "blue rescues 1:1 with stb1").legal


def test_alt_saint_bernard_build__illegal():
    state = red_eight_five()
    assert rule_of(state, "red builds stb1 1:2") == "alt.saint-bernard.build"
    assert rule_of(state, "red gives stb1 blue 1:0") == "alt.opponent.started"
    state = pass_until(blue_avalanche(), RED)
    assert rule_of(state, "red gives stb1 blue 1:2") == "alt.saint-bernard.build"


def test_alt_rescue_avalanche__legal():
    state = pass_until(blue_avalanche(), BLUE)
    after = play(state, "blue rescues 1:1 with stb2")
    assert after.mountain(BLUE) == ((1, 0, "m10a"),)
    assert after.discard[-2:] == ("stb2", "ava1")  # the avalanche on top


def test_alt_rescue_avalanche__illegal():
    state = pass_until(blue_avalanche(), BLUE)
    assert rule_of(state, "blue rescues 1:0 with stb1") == "alt.rescue.avalanche"


def test_alt_rescue_saint_bernard__legal():
    state = pass_until(blue_avalanche(), BLUE)
    state = play(state, "blue draws m12a")  # a mountain card drawn: the Saint-Bernard from hand
    verdict = judge(state, "blue rescues 1:1 with stb1 from hand")
    assert verdict.legal
    after = GAME.apply(state, verdict.move)
    assert after.hands[1] == 4 and after.unseen_count("m12a") == 1


def test_alt_rescue_saint_bernard__illegal():
    state = pass_until(blue_avalanche(), BLUE)
    assert rule_of(state, "blue rescues 1:1 with m12a") == "alt.rescue.saint-bernard"


def test_alt_rescue_own__legal():
    test_alt_rescue_avalanche__legal()


def test_alt_rescue_own__illegal():
    state = pass_until(blue_avalanche(), RED)
    assert rule_of(state, "red rescues blue 1:1 with stb1") == "alt.rescue.own"


def test_alt_rescue_uncovered__legal():
    state = pass_until(blue_avalanche(), BLUE)
    assert judge(state, "blue rescues 1:1 with stb1").legal


def test_alt_rescue_uncovered__illegal():
    state = pass_until(blue_avalanche(), BLUE)
    state = lay_for(state, BLUE, "builds tel2 2:0")
    state = pass_until(state, BLUE)
    assert rule_of(state, "blue rescues 1:1 with stb1") == "alt.rescue.uncovered"


def test_alt_rescue_draw__legal():
    test_alt_rescue_uncovered__legal()


def test_alt_rescue_draw__illegal(tmp_path):
    state = start(deck=tiny_deck(tmp_path))
    state = play(state, "red builds m01 1:0", "blue gives ava1 red 1:1",
                 "red builds m02 1:-1", "blue builds m03 1:0")
    assert state.phase == "end" and GAME.to_move(state) == RED
    assert rule_of(state, "red rescues 1:2 with stb1") == "alt.rescue.draw"


# -- the turn ---------------------------------------------------------------------------------

def test_alt_turn_order__legal():
    assert judge(start(), "red builds m07a 1:0").legal


def test_alt_turn_order__illegal():
    state = start()
    assert rule_of(state, "blue builds m07a 1:0") == "alt.turn.order"
    after = GAME.apply(state, GAME.parse_notation(state, "blue builds m07a 1:0"))
    assert GAME.to_move(after) == RED  # the table goes on from the player who played


def test_alt_turn_double__legal():
    state = pass_until(five_etages(start()), RED)
    assert state.turn_plays == 2
    state = play(state, "red discards ava2")
    assert GAME.to_move(state) == RED and state.plays_left == 1
    state = play(state, "red discards ava3")
    assert GAME.to_move(state) == BLUE and state.plays_left == 1


def test_alt_turn_double__illegal():
    state = play(pass_until(five_etages(start()), RED), "red discards ava2")
    assert rule_of(state, "blue discards ava3") == "alt.turn.double"


def test_alt_turn_draw__legal():
    assert judge(start(), "red draws m07a").legal


def test_alt_turn_draw__illegal():
    state = start()
    assert rule_of(state, "red passes") == "alt.turn.draw"
    after = GAME.apply(state, GAME.parse_notation(state, "red passes"))
    assert after.deck == state.deck and GAME.to_move(after) == BLUE


def test_alt_hand_four__legal():
    state = play(start(), "red draws m07a")
    after = play(state, "red builds m02a 1:0 from hand")  # the 7 taken into hand
    assert after.hands == (4, 4) and after.unseen_count("m07a") == 1


def test_alt_hand_four__illegal():
    state = play(start(), "red draws m07a")
    assert rule_of(state, "red holds") == "alt.hand.four"
    after = GAME.apply(state, GAME.parse_notation(state, "red holds"))
    assert after.hands == (5, 4)


def test_alt_opponent_started__legal():
    state = pass_until(lay_for(start(), BLUE, "builds m10a 1:0"), RED)
    assert judge(state, "red gives m11a blue 1:1").legal


def test_alt_opponent_started__illegal():
    assert rule_of(start(), "red gives m11a blue 1:0") == "alt.opponent.started"


def test_alt_hand_own__legal():
    state = pass_until(lay_for(start(), BLUE, "builds m10a 1:0"), RED)
    state = play(state, "red draws m11a")
    assert judge(state, "red gives m11a blue 1:1").legal


def test_alt_hand_own__illegal():
    state = pass_until(lay_for(start(), BLUE, "builds m10a 1:0"), RED)
    state = play(state, "red draws m11a")
    assert rule_of(state, "red gives m12a blue 1:1 from hand") == "alt.hand.own"


def test_alt_discard_hand__legal():
    state = play(start(), "red draws m07a")
    assert judge(state, "red discards m07a").legal


def test_alt_discard_hand__illegal():
    state = play(start(), "red draws m07a")
    assert rule_of(state, "red discards m06a") == "alt.discard.hand"  # 'from hand' inferred
    after = GAME.apply(state, GAME.parse_notation(state, "red discards m06a"))
    assert after.discard == ("m06a",) and after.hands == (4, 4)


def test_alt_discard_take__legal():
    state = play(start(), "red discards m07a")
    assert judge(state, "blue builds m07b 1:0").legal


def test_alt_discard_take__illegal():
    state = play(start(), "red discards m07a")
    assert rule_of(state, "blue builds m07a 1:0") == "alt.discard.take"  # inferred: seen card
    after = GAME.apply(state, GAME.parse_notation(state, "blue builds m07a 1:0 from discard"))
    assert after.discard == () and after.deck == state.deck


# -- replacement ------------------------------------------------------------------------------

def test_alt_replace_covered__legal():
    state = red_eight_five()
    after = play(state, "red replaces 1:1 with m02a")
    assert after.mountain(RED) == ((1, 0, "m08a"), (1, 1, "m02a"))
    assert after.discard[-1] == "m05a"


def test_alt_replace_covered__illegal():
    state = pass_until(lay_for(red_eight_five(), RED, "builds m09a 2:0"), RED)
    assert rule_of(state, "red replaces 1:1 with m02a") == "alt.replace.covered"


def test_alt_replace_avalanche__legal():
    state = pass_until(blue_avalanche(), BLUE)
    assert judge(state, "blue replaces 1:0 with m11a").legal


def test_alt_replace_avalanche__illegal():
    state = pass_until(blue_avalanche(), BLUE)
    assert rule_of(state, "blue replaces 1:1 with m11a") == "alt.replace.avalanche"


def test_alt_replace_hand__legal():
    state = play(red_eight_five(), "red draws m01a")
    assert judge(state, "red replaces 1:1 with m01a").legal


def test_alt_replace_hand__illegal():
    state = play(red_eight_five(), "red draws m01a")
    assert rule_of(state, "red replaces 1:1 with m02a") == "alt.replace.hand"


def test_alt_replace_own__legal():
    test_alt_replace_covered__legal()


def test_alt_replace_own__illegal():
    state = pass_until(blue_avalanche(), RED)
    assert rule_of(state, "red replaces blue 1:0 with m11a") == "alt.replace.own"


def test_replacement_keeps_the_value_rule():
    state = pass_until(lay_for(start(), RED, "builds m08a 1:0", "builds m05a 1:1",
                               "builds m09a 2:0"), RED)
    assert rule_of(state, "red replaces 2:0 with m07a") == "alt.value.higher"
    assert judge(state, "red replaces 2:0 with m10a").legal
    assert judge(state, "red replaces 2:0 with tel1").legal


# -- every rule is cited and tested -----------------------------------------------------------

def test_every_rule_quote_is_in_the_rule_text():
    text = normalise(rule_text("altitude"))
    for rule in RULES.values():
        assert rule.id.startswith("alt.") and rule.id == rule.id.lower()
        assert rule.fr and rule.en
        if rule.paragraph.startswith("Rulings — "):
            continue
        section, quote = rule.paragraph.split(" — « ", 1)
        assert quote.endswith(" »"), rule.id
        assert normalise(quote[:-2]) in text, rule.id
        assert section.split(" ")[0] in text, rule.id


def test_every_rule_has_a_legal_and_an_illegal_test():
    names = {name for name in dir(sys.modules[__name__]) if name.startswith("test_")}
    for rule_id in RULES:
        stem = "test_" + re.sub(r"[.-]", "_", rule_id)
        assert f"{stem}__legal" in names and f"{stem}__illegal" in names, rule_id


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_rule_messages_say_what_went_wrong(rule_id):
    rule = RULES[rule_id]
    assert rule.message("fr") == rule.fr and rule.message("en") == rule.en
    assert rule.to_json()["id"] == rule_id
