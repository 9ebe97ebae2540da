"""The referee's side of squares the camera cannot see: a square the reader reports at the
height last seen there, without conviction (``companion.games.terra_turrium.camera``).

No video here: the demo script's states and the readings the camera gives of them, built by
hand (the whole-game test plays them from video)."""

from __future__ import annotations

import dataclasses

from companion.games import get_game
from companion.games.terra_turrium import board
from companion.games.terra_turrium.scripts import demo_script
from companion.observation import Piece

GAME = get_game("terra-turrium")


def _before(step: int):
    """The demo game's state before script step ``step``, and that step's move."""
    script = demo_script()
    state = GAME.setup(script.players, GAME.options_from_json(dict(script.options)), seed=script.seed)
    for s in script.steps[:step]:
        if s.kind != "illegal":
            state = GAME.apply(state, GAME.move_from_json(s.move))
    return state, GAME.move_from_json(script.steps[step].move)


def _remembered(observation, square: str, level: int, conf: float = 0.5):
    """``observation`` with ``square`` reported at ``level`` with the memory's low confidence."""
    cell = board.xy(board.parse_square(square))
    pieces = [p for p in observation.pieces if not (p.kind == "tower" and p.cell == cell)]
    pieces.append(Piece("tower", cell=cell, level=level, conf=conf))
    return dataclasses.replace(observation, pieces=tuple(pieces))


def test_a_block_lifted_from_a_square_the_move_then_hides_is_found():
    # the demo's step 4: blue lifts f7, g7 and h7 and lays two blocks on g8, which then hides
    # g7 from the camera: the reader still reports g7 at its old height, unsurely, so the camera
    # sees two blocks lifted and three laid. The third came off the square it cannot see.
    state, move = _before(4)
    after = GAME.apply(state, move)
    seen = _remembered(GAME.expected_observation(after), "g7", state.heights[board.parse_square("g7")])
    best, *rest = GAME.candidates(state, seen)
    assert best.move == move and best.verdict.legal and best.complete
    assert all(c.rank > best.rank + 5.0 for c in rest)


def test_a_sure_reading_is_not_explained_away_as_a_hidden_take():
    # the same table, but g7 read surely at its old height: nothing lifted there, so no legal
    # move explains three blocks laid from two lifted
    state, move = _before(4)
    after = GAME.apply(state, move)
    seen = _remembered(GAME.expected_observation(after), "g7", state.heights[board.parse_square("g7")],
                       conf=0.95)
    assert all(c.move != move for c in GAME.candidates(state, seen))


def test_a_stale_sighting_of_a_hidden_square_is_no_block_laid():
    # after step 4 (the take from g7 settled), the reader still reports g7 at the height it last
    # saw there, unsurely; step 5 is an illegal take of two blocks from neutral yellow squares:
    # the old sighting of g7 is no block laid there, and the take is named for the rule it breaks
    state, move = _before(5)
    after = GAME.apply(state, move)
    assert after.heights[board.parse_square("g7")] == 0
    seen = _remembered(GAME.expected_observation(after), "g7", 1)
    best = GAME.candidates(state, seen)[0]
    assert best.move == move
    assert not best.verdict.legal and best.verdict.rule.id == "tt.take.one-foreign"


def test_a_flag_walked_onto_a_square_the_camera_cannot_see_is_counted_there():
    # step 20: red walks a flag from b4 onto d2, whose top a taller tower hides: the camera sees
    # the flag leave and arrive nowhere, and d2 reported unsurely at an old height
    state, move = _before(20)
    after = GAME.apply(state, move)
    d2 = board.parse_square("d2")
    assert (d2, "red") in after.flags
    ideal = GAME.expected_observation(after)
    shown = dataclasses.replace(ideal, pieces=tuple(
        p for p in ideal.pieces if not (p.kind == "flag" and p.cell == board.xy(d2))))
    seen = _remembered(shown, "d2", 1)
    best, *rest = GAME.candidates(state, seen)
    assert best.move == move and best.verdict.legal and best.complete
    assert all(c.rank > best.rank + 2.0 for c in rest)
