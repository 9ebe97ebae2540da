"""Scripted games: a game's parameters and a list of steps, as a table would play them.

A script is what the demo plays on the synthetic table, what the observation files of the tests
are generated from, and what whole-game tests check move by move. Each game package provides
``demo_script()`` (and may provide more scripts for tests) returning a :class:`Script`.

A step is a move in its JSON form and what happens at the table:

* ``play``: the move is made and judged; it must be legal;
* ``illegal``: the move is made, the referee must flag it (``rule`` is the id of the broken rule),
  and the players then put the pieces back; the game goes on from the state before it;
* ``let_stand``: an illegal move is made and flagged, and the table lets it stand;
* ``ask``: the move is made but the camera cannot tell it from another (a hidden fact); the
  referee must ask, and the script answers with this move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

STEP_KINDS = ("play", "illegal", "let_stand", "ask")


@dataclass(frozen=True)
class ScriptStep:
    move: Mapping[str, Any]
    kind: str = "play"
    rule: str | None = None  # for illegal / let_stand: the id of the rule the move breaks
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise ValueError(f"unknown step kind {self.kind!r}; one of {STEP_KINDS}")
        if self.kind in ("illegal", "let_stand") and not self.rule:
            raise ValueError("an illegal step names the rule it breaks")


@dataclass(frozen=True)
class Script:
    game: str
    players: tuple[str, ...]
    steps: tuple[ScriptStep, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    title: str = ""
