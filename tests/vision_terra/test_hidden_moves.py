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
