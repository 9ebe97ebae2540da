"""What the dashboard reads: status at a glance and the board drawn from the state."""

from __future__ import annotations

import json

from ._support import GAME, after, pos


def test_status_has_the_contract_keys_and_the_game_counts():
    state = after(pos(attacks={"red": 2}), "red: -d3 -f2")
    status = GAME.status(state)
    assert status["players"] == ["red", "blue"] and status["active"] == "red"
    assert status["round"] == 1 and status["phase"] == "take"
    assert status["scores"] == {"red": 1, "blue": 1}  # every flag on a tower of height 1
    assert status["taken"] == ["f2", "d3"] and status["in_hand"] == 2
    assert status["movement_points"] == 5
    assert status["attacks"] == {"red": 2, "blue": 0}
    assert status["attacks_left"] == {"red": 3, "blue": 5}
    assert status["flags_off_board"] == {"red": 0, "blue": 0}
    assert status["blocks"] == {"on_board": state.start_blocks - 2, "off_board": 2,
                                "total": state.start_blocks}
    assert status["winners"] == [] and status["final_round"] is False
    json.dumps(status)


def test_round_counts_each_players_turns():
    state = after(pos(), "red: / blue: /")
    assert GAME.status(state)["round"] == 2 and GAME.to_move(state) == "red"


def test_board_view_draws_every_square():
    state = pos()
    view = GAME.board_view(state)
    json.dumps(view)
    assert view["kind"] == "terra-turrium" and view["size"] == 10
    assert len(view["cells"]) == 100
    e2 = next(c for c in view["cells"] if c["name"] == "e2")
    assert (e2["x"], e2["y"], e2["height"], e2["territory"]) == (4, 1, 4, "red")
    assert e2["exterior"] is True and e2["flag"] is None
    c3 = next(c for c in view["cells"] if c["name"] == "c3")
    assert c3["flag"] == "red" and c3["exterior"] is False
    f2 = next(c for c in view["cells"] if c["name"] == "f2")
    assert f2["neutral"] is True  # yellow does not play
    assert view["territories"]["yellow"] == {"x": [5, 9], "y": [0, 4], "player": False}
    assert len(view["flags"]) == 12
    assert view["aggression"] == {"red": 0, "blue": 0}
    assert view["stage"] == "take" and view["movement_points"] == 5


def test_views_of_the_layout_and_the_end():
    state = GAME.setup(["red", "blue"])
    assert GAME.board_view(state)["stage"] == "layout"
    assert GAME.status(state)["movement_points"] is None
