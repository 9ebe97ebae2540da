"""Setting up: the board, the start layouts (64 / 80 / 116 blocks), options and bad input."""

from __future__ import annotations

import pytest

from companion.games import BadOptions, BadSetup, get_game
from companion.games.terra_turrium import board
from companion.games.terra_turrium.state import PHASE_LAYOUT

from ._support import GAME


def test_registry_name_and_class():
    game = get_game("terra-turrium")
    assert type(game).__name__ == "TerraTurrium"
    assert game.name == "terra-turrium"
    assert (game.min_players, game.max_players) == (2, 4)
    assert game.seats == ("red", "yellow", "blue", "green")


def _count(heights, predicate):
    return sum(1 for sq, h in enumerate(heights) if predicate(*board.xy(sq), h))


def test_start_layout_four_players_116_blocks():
    state = GAME.setup(["red", "yellow", "blue", "green"])
    assert state.start_blocks == sum(state.heights) == 116 == board.BLOCKS_IN_BOX
    # every square at 1, the central 4×4 at 2
    assert _count(state.heights, lambda x, y, h: h == 2) == 16
    assert _count(state.heights, lambda x, y, h: h == 2 and 3 <= x <= 6 and 3 <= y <= 6) == 16
    assert _count(state.heights, lambda x, y, h: h == 1) == 84


def test_start_layout_three_players_80_blocks():
    state = GAME.setup(["red", "yellow", "blue"])
    assert sum(state.heights) == 80
    ring = [h for sq, h in enumerate(state.heights) if board.is_edge(sq)]
    assert ring == [0] * 36
    assert _count(state.heights, lambda x, y, h: h == 2 and 3 <= x <= 6 and 3 <= y <= 6) == 16
    assert _count(state.heights, lambda x, y, h: h == 1) == 48


def test_start_layout_two_players_64_blocks():
    state = GAME.setup(["red", "blue"])
    assert sum(state.heights) == 64
    assert _count(state.heights, lambda x, y, h: h == 1 and 1 <= x <= 8 and 1 <= y <= 8) == 64


def test_the_game_starts_with_the_flag_layout():
    state = GAME.setup(["red", "blue"])
    assert state.phase == PHASE_LAYOUT
    assert state.reserve == (6, 6) and state.flags == ()
    assert state.attacks == (0, 0)
    assert GAME.to_move(state) == "red"
    assert GAME.status(state)["phase"] == "layout"


def test_territories_are_four_5x5_quadrants():
    for colour in board.SEATS:
        assert len(board.territory_squares(colour)) == 25
    assert board.territory(board.parse_square("a1")) == "red"
    assert board.territory(board.parse_square("j1")) == "yellow"
    assert board.territory(board.parse_square("j10")) == "blue"
    assert board.territory(board.parse_square("a10")) == "green"
    assert board.territory(board.parse_square("e5")) == "red"
    assert board.territory(board.parse_square("f6")) == "blue"


@pytest.mark.parametrize("players", [["red"], ["red", "yellow", "blue", "green", "red"], []])
def test_wrong_player_count_is_refused(players):
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.setup(players)


def test_unknown_or_repeated_seat_is_refused():
    with pytest.raises(BadSetup, match="unknown seat"):
        GAME.setup(["red", "purple"])
    with pytest.raises(BadSetup, match="only once"):
        GAME.setup(["red", "red"])
    with pytest.raises(BadSetup, match="list of seats"):
        GAME.setup("red,blue")


def test_options_defaults_and_docs():
    options = GAME.default_options()
    assert options.capture_costs == "3/2/1" and options.reentry_own_edge is False
    docs = GAME.option_docs()
    assert set(docs) == {"capture_costs", "reentry_own_edge"}
    assert all(docs.values())


def test_options_from_json():
    options = GAME.options_from_json({"capture_costs": "2/1/1", "reentry_own_edge": True})
    assert options.capture_table() == (2, 1, 1) and options.reentry_own_edge
    state = GAME.setup(["red", "blue"], {"capture_costs": "2/1/1"})
    assert state.options.capture_costs == "2/1/1"
    assert GAME.options_to_json(state.options) == {"capture_costs": "2/1/1",
                                                    "reentry_own_edge": False}


def test_unknown_option_is_refused_with_the_known_ones():
    with pytest.raises(BadOptions, match="unknown option.*capture_costs"):
        GAME.options_from_json({"capture_cost": "3/2/1"})


def test_option_of_wrong_type_or_value_is_refused():
    with pytest.raises(BadOptions, match="true or false"):
        GAME.options_from_json({"reentry_own_edge": "yes"})
    with pytest.raises(BadOptions, match="capture_costs must be one of 2/1/1, 3/2/1"):
        GAME.options_from_json({"capture_costs": "4/4/4"})
    with pytest.raises(BadOptions, match="capture_costs"):
        GAME.setup(["red", "blue"], {"capture_costs": "1/1/1"})

