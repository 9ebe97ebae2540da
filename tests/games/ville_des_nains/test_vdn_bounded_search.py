"""The referee's search for the move a picture shows stays small: a picture with more new
stones than one move takes (one a die, and one too many) is no single move, and gives no
candidate at once; one stone too many is still read as a move, and flagged.

After a game has gone wrong, the tracked state lags the table by many stones: each reading of
them was tried with every card for every new building (13 new stones on 7 buildings: 468
readings, up to 12 ** 4 cards each), and a still moment cost minutes."""

from __future__ import annotations

from companion.games import get_game
from companion.games.ville_des_nains import camera
from companion.games.script import states
from companion.games.ville_des_nains.scripts import demo_script
from companion.observation import Observation, Piece
from companion.referee.decide import decide


def _states():
    game = get_game("ville-des-nains")
    script = demo_script()
    return game, script, states(game, script)


def test_a_picture_many_stones_ahead_of_the_game_is_unexplained_at_once():
    game, _, states = _states()
    lagging, table = states[12], states[30]
    obs = camera.expected_observation(table)
    new = camera._Change(lagging, obs).takes
    assert len(new) > camera.MAX_TAKES
    assert camera.candidates(lagging, obs) == []
    assert decide(game, lagging, obs).kind == "unexplained"


def test_one_stone_too_many_is_still_read_and_flagged():
    # green rolled orange, red, red and builds the script's three stones and a fourth (a red
    # cylinder, on a third building: illegal)
    game, script, states = _states()
    before = states[1]
    after = game.apply(before, game.move_from_json(script.steps[1].move))
    pieces = list(camera.expected_pieces(after))
    pool = [p for p in pieces if p.zone == "pool" and p.get("colour") == "red" and p.get("shape") == "cylinder"]
    pieces.remove(pool[0])
    pieces.append(Piece("stone", conf=0.9, zone="player:green", level=0,
                        attrs={"building": 2, "colour": "red", "shape": "cylinder"}))
    obs = Observation(game="ville-des-nains", pieces=tuple(pieces))
    assert len(camera._Change(before, obs).takes) == camera.MAX_TAKES
    cands = camera.candidates(before, obs)
    assert cands and not cands[0].verdict.legal and len(cands[0].move.take) == camera.MAX_TAKES
