"""Helpers shared by the Gleeb's and Grues tests: the engine, positions drawn as diagrams, and
moves read from notation."""

from __future__ import annotations

from companion.games import get_game
from companion.games.gleebs_and_grues.diagram import position
from companion.games.gleebs_and_grues.state import GGState

GAME = get_game("gleebs-and-grues")
BY = "blue-yellow"
GR = "green-red"
PLAYERS = (BY, GR)


def pos(diagram: str, *, active: int = 0, stage: str | None = None, eaten=(),
        players=PLAYERS, turn: int = 0) -> GGState:
    """A movement-phase position; ``players[active]`` to play."""
    return position(players, diagram, active=active, stage=stage, eaten=eaten, turn=turn)


def verdict(state: GGState, text: str):
    return GAME.check(state, GAME.parse_notation(state, text))


def after(state: GGState, text: str) -> GGState:
    return GAME.apply(state, GAME.parse_notation(state, text))


def assert_legal(state: GGState, text: str):
    v = verdict(state, text)
    assert v.legal, f"{text} should be legal, got {v.rule.id if v.rule else None}"
    assert v.rule is None
    return v


def assert_breaks(state: GGState, text: str, rule_id: str):
    v = verdict(state, text)
    assert not v.legal, f"{text} should break {rule_id}"
    assert v.rule is not None and v.rule.id == rule_id, (text, v.rule.id)
    return v
