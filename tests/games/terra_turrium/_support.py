"""Helpers shared by the Terra Turrium tests: the engine, positions drawn as diagrams, moves read
from notation, and verdict assertions naming the rule."""

from __future__ import annotations

from companion.games import get_game
from companion.games.terra_turrium.diagram import position
from companion.games.terra_turrium.state import TerraTurriumState

GAME = get_game("terra-turrium")

#: two players' table: the inner 8×8 at height 1, a small staircase in red's corner
#: (c2 = 2, d2 = 3, e2 = 4) and a tower of 3 on e4
BOARD_2P = """
10 ..........
 9 .11111111.
 8 .11111111.
 7 .11111111.
 6 .11111111.
 5 .11111111.
 4 .11131111.
 3 .11111111.
 2 .12341111.
 1 ..........
"""

RED_FLAGS = {"b3": "red", "c3": "red", "b4": "red", "c4": "red", "b5": "red", "c5": "red"}
BLUE_FLAGS = {"h8": "blue", "i8": "blue", "h9": "blue", "i9": "blue", "g9": "blue", "g8": "blue"}


#: red's staircase in its corner (b2 1, c2 2, d2 3, e2 4, d3 5, c3 6, and c4 5 beside c3), and
#: blue's mirrored in its own (i9 1, h9 2, g9 3, f9 4, g8 5, h8 6, and h7 5 beside h8)
STAIRS = """
10 ..........
 9 .11114321.
 8 .11111561.
 7 .11111151.
 6 .11111111.
 5 .11111111.
 4 .15111111.
 3 .16511111.
 2 .12341111.
 1 ..........
"""
RED_READY = {"b2": "red", "c2": "red", "d2": "red", "e2": "red", "d3": "red", "c4": "red"}
BLUE_READY = {"i9": "blue", "h9": "blue", "g9": "blue", "f9": "blue", "g8": "blue",
              "h7": "blue"}


def stairs(**kw) -> TerraTurriumState:
    """Both staircases built, each player one step from the win."""
    return pos(STAIRS, flags={**RED_READY, **BLUE_READY}, **kw)


def pos(diagram: str = BOARD_2P, flags=None, players=("red", "blue"), **kw) -> TerraTurriumState:
    """A play-phase position; ``players[active]`` to play (``active=0`` by default)."""
    if flags is None:
        flags = {**RED_FLAGS, **BLUE_FLAGS}
    return position(players, diagram, flags, **kw)


def move(state: TerraTurriumState, text: str):
    return GAME.parse_notation(state, text)


def verdict(state: TerraTurriumState, text: str):
    return GAME.check(state, move(state, text))


def after(state: TerraTurriumState, text: str) -> TerraTurriumState:
    return GAME.apply(state, move(state, text))


def assert_legal(state: TerraTurriumState, text: str):
    v = verdict(state, text)
    assert v.legal, f"{text} should be legal, got {v.rule.id if v.rule else None}"
    assert v.rule is None
    return v


def assert_breaks(state: TerraTurriumState, text: str, rule_id: str):
    v = verdict(state, text)
    assert not v.legal, f"{text} should break {rule_id}"
    assert v.rule is not None and v.rule.id == rule_id, (text, v.rule.id)
    return v


def observe(state: TerraTurriumState, text: str):
    """What an ideal camera sees after ``text`` is played from ``state``."""
    return GAME.expected_observation(after(state, text))


def top_reading(state: TerraTurriumState, text: str):
    """The referee's best reading of the table after ``text``."""
    candidates = GAME.candidates(state, observe(state, text))
    assert candidates, f"nothing explains the table after {text}"
    return candidates[0]
