"""``companion.games.script.states``: the state each scripted step is judged from. An illegal
step is flagged and put right by the players, so the game goes on from the state before it;
every other step is applied."""

import pytest

from companion.games import available, get_game
from companion.games.script import states


def _demo(name):
    from companion.demo.play import demo_script

    return demo_script(name)


@pytest.mark.parametrize("name", available())
def test_each_step_is_judged_from_the_state_the_steps_before_it_leave(name):
    game = get_game(name)
    script = _demo(name)
    out = states(game, script)
    assert len(out) == len(script.steps) + 1
    assert out[0] == game.setup(script.players, game.options_from_json(dict(script.options)),
                                seed=script.seed)
    for k, step in enumerate(script.steps):
        move = game.move_from_json(step.move)
        if step.kind == "illegal":
            assert not game.check(out[k], move).legal  # flagged from the state it is judged in
            assert out[k + 1] == out[k]  # and put right
        else:
            assert out[k + 1] == game.apply(out[k], move)
