"""The demo layer draws the engine's states exactly: the synthetic table's ideal reading of
``scene_for(state)`` is what the engine expects to see for ``state``, and a scripted game
becomes a video with every still position the script passes through."""

from __future__ import annotations

from companion.demo.terra import DEMO_BOARD, demo_positions, scene_for
from companion.games import get_game
from companion.games.terra_turrium.scripts import demo_script
from companion.synth.terra.truth import ideal_observation


def _pieces(obs):
    return sorted((p.kind, p.cell, p.level if p.kind == "tower" else None, p.get("colour")) for p in obs.pieces)


def test_the_scene_of_a_state_is_read_as_the_engine_expects():
    script = demo_script()
    game = get_game(script.game)
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    for step in script.steps[:8]:
        state = game.apply(state, game.move_from_json(step.move)) if step.kind != "illegal" else state
        scene = scene_for(state)
        assert scene.board_origin == DEMO_BOARD.board_origin
        assert _pieces(ideal_observation(scene)) == _pieces(game.expected_observation(state))


def test_illegal_steps_are_followed_by_the_pieces_put_back():
    script = demo_script()
    scenes, steps = demo_positions(script)
    illegal = [n for n, s in enumerate(script.steps) if s.kind == "illegal"]
    assert len(scenes) == len(steps) == 1 + len(script.steps) + len(illegal)
    for n in illegal:
        k = next(i for i, s in enumerate(steps) if s.step == n and not s.put_back)
        assert steps[k + 1].put_back and steps[k + 1].step == n
        assert scenes[k + 1] == scenes[k - 1]  # the table as before the illegal move
