"""Two legal moves in a row against one broken rule.

Between two still moments a player may finish a move and the next player make theirs (La Ville
des Nains: a build, then the next roll; Haut les Cubes: a card played, then the next player's).
One illegal move often explains such a picture as well or nearly (the builder rolling again, a
player out of turn): when two legal moves in a row explain it clearly better, the game's priors
counted (La Ville des Nains weighs a broken rule as a missed piece), the two legal moves are
recorded; when several such pairs differ by a card the camera cannot see, the referee asks. A
move that no legal pair explains is still flagged, with its rule. Built on the demo scripts'
ideal observations (what the camera should see after each step), no video.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion import events as ev
from companion.demo.play import demo_script
from companion.games import get_game
from companion.games.ville_des_nains.scripts import kobold_script
from companion.referee import Referee
from companion.referee.decide import decide
from companion.store import EventLog


def script_states(name, script=None):
    """The game, the states a script (the game's demo script unless given) goes through
    (illegal moves put back), the moves between them and each move's script step."""
    game = get_game(name)
    script = script if script is not None else demo_script(name)
    states = [game.setup(script.players, game.options_from_json(dict(script.options)),
                         seed=script.seed)]
    moves, steps = [], []
    for step in script.steps:
        if step.kind == "illegal":
            continue
        move = game.move_from_json(step.move)
        states.append(game.apply(states[-1], move))
        moves.append(move)
        steps.append(step)
    return game, script, states, moves, steps


# -- La Ville des Nains: a build, then the next player's roll -----------------------------------

def build_then_roll(game, states, moves, steps):
    """Indices i where the script's move i is a build (no roll of its own) and move i + 1 the
    next player's roll, both plain (no card question, legal)."""
    out = []
    for i in range(len(moves) - 1):
        first, second = game.move_to_json(moves[i]), game.move_to_json(moves[i + 1])
        if first["type"] == "build" and first.get("roll") is None and second["type"] == "roll" \
                and second["seat"] != first["seat"] and steps[i].kind == steps[i + 1].kind == "play":
            out.append(i)
    return out


def test_a_build_and_the_next_roll_in_one_picture_are_two_legal_moves_in_every_such_pair():
    game, _, states, moves, steps = script_states("ville-des-nains")
    pairs = build_then_roll(game, states, moves, steps)
    assert len(pairs) >= 6
    for i in pairs:
        d = decide(game, states[i], game.expected_observation(states[i + 2]))
        # the builder rolling again explains the picture too, but breaks a rule
        assert d.kind == "chain", (i, d.kind, [game.notation(states[i], o.candidate.move)
                                               for o in d.options])
        assert d.chosen.candidate.move == moves[i] and d.chosen.candidate.verdict.legal


def test_an_undecided_moment_then_the_build_and_the_next_roll_are_recorded_as_played(data_dir):
    game, script, states, moves, _ = script_states("ville-des-nains")
    log = EventLog.in_dir(data_dir)
    referee = Referee.start(log, game.name, list(script.players), dict(script.options),
                            seed=script.seed, actor="test")
    try:
        for k in (1, 2, 3):  # green rolls, builds; white rolls
            referee.observe(game.expected_observation(states[k]))
        assert referee.state == states[3]
        assert game.notation(states[3], moves[3]) == \
            "white take red-cylinder@0,orange-long@1,yellow-long@1"
        # a still moment with white's first stone set down: white may go on building, so the
        # referee waits (a move started, not settled)
        first = game.apply(states[3], game.parse_notation(states[3], "white take red-cylinder@0"))
        assert referee.observe(game.expected_observation(first)) == []
        assert referee.state == states[3] and referee.tentative is not None
        # the next still moment: white's other two stones, and green's roll already made (one
        # move explains it too: white rolling again to build them, which the rules forbid)
        events = referee.observe(game.expected_observation(states[5]))
        judged = [e for e in events if e.type == ev.MOVE_JUDGED]
        assert [e.data["notation"] for e in judged] == [
            "white take red-cylinder@0,orange-long@1,yellow-long@1", "green roll orange,red,white"]
        assert all(e.data["legal"] for e in judged)
        assert referee.state == states[5] and referee.session.pending_illegal is None
    finally:
        log.close()


def test_a_card_unseen_in_the_first_of_two_moves_is_asked_not_guessed():
    """Green finishes two buildings and white rolls before the camera sees the table still:
    which card green took cannot be seen, so the referee asks which (the build is the first
    move of the pair in every choice), never settling a card silently."""
    game, _, states, moves, steps = script_states("ville-des-nains")
    i = next(k for k, s in enumerate(steps) if s.kind == "ask"
             and game.move_to_json(moves[k + 1])["type"] == "roll")
    d = decide(game, states[i], game.expected_observation(states[i + 2]))
    assert d.kind == "ask" and len(d.options) > 1
    assert moves[i] in [o.candidate.move for o in d.options]
    assert all(o.candidate.verdict.legal for o in d.options)


def test_a_finished_building_and_the_kobolds_roll_are_asked_by_card_not_unexplained():
    """Game 2: green finishes a building (which card it takes the camera cannot see) and the
    kobold rolls before the table is still. No single move explains that picture; the pairs
    differ only by the card, so the referee asks which, instead of saying nothing explains it."""
    game, script, states, moves, steps = script_states("ville-des-nains", kobold_script())
    asked = [k for k, s in enumerate(steps[:-1]) if s.kind == "ask"
             and game.move_to_json(moves[k + 1])["seat"] == "blue"]
    assert asked
    for i in asked:
        d = decide(game, states[i], game.expected_observation(states[i + 2]))
        assert d.kind == "ask" and len(d.options) > 1, (i, d.kind)
        assert moves[i] in [o.candidate.move for o in d.options]
        assert all(o.candidate.verdict.legal for o in d.options)


# -- Haut les Cubes: a card played, then the next player's move ---------------------------------

def test_a_cube_taken_then_the_next_players_giant_are_two_moves_not_one_out_of_turn():
    game, _, states, moves, _ = script_states("haut-les-cubes")
    i = next(k for k in range(len(moves) - 1)
             if game.move_to_json(moves[k]) == {"seat": "blue", "card": "nenlevsa",
                                                "cube": [1, -2, 0]})
    assert game.notation(states[i + 1], moves[i + 1]) == "red: M 1,0"
    picture = game.expected_observation(states[i + 2])
    # red moving out of turn explains everything but the cube blue took
    alone = game.check(states[i], moves[i + 1])
    assert not alone.legal and alone.rule.id == "hlc.turn.order"
    d = decide(game, states[i], picture)
    assert d.kind == "chain" and d.chosen.candidate.move == moves[i]


def test_a_move_out_of_turn_that_no_legal_pair_explains_is_still_flagged():
    game, _, states, moves, _ = script_states("haut-les-cubes")
    i = next(k for k in range(len(moves) - 1)
             if game.move_to_json(moves[k]) == {"seat": "blue", "card": "nenlevsa",
                                                "cube": [1, -2, 0]})
    # red moves while blue is to play, and blue's cube is still there
    out_of_turn = game.apply(states[i], moves[i + 1])
    d = decide(game, states[i], game.expected_observation(out_of_turn))
    assert d.kind == "settle" and d.chosen.candidate.move == moves[i + 1]
    assert not d.chosen.candidate.verdict.legal
    assert d.chosen.candidate.verdict.rule.id == "hlc.turn.order"


# -- both games: the scripts' illegal moves -----------------------------------------------------

@pytest.mark.parametrize("name", ["ville-des-nains", "haut-les-cubes"])
def test_every_illegal_move_of_the_demo_is_flagged_with_its_rule(name):
    game = get_game(name)
    script = demo_script(name)
    state = game.setup(script.players, game.options_from_json(dict(script.options)),
                       seed=script.seed)
    flagged = 0
    for step in script.steps:
        move = game.move_from_json(step.move)
        after = game.apply(state, move)
        if step.kind in ("illegal", "let_stand"):
            d = decide(game, state, game.expected_observation(after))
            assert d.kind == "settle" and d.chosen.candidate.move == move, step
            verdict = d.chosen.candidate.verdict
            assert not verdict.legal and (step.rule is None or verdict.rule.id == step.rule)
            flagged += 1
        if step.kind != "illegal":
            state = after
    assert flagged >= 3
