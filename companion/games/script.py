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
from typing import Any, Iterator, Mapping

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


def states(game: Any, script: Script) -> list[Any]:
    """The game's state as each step of ``script`` is played: ``states(...)[i]`` is the state
    step ``i`` is judged from, and the last item the state after the whole script. Each step is
    applied from the one before; an illegal one is put right by the players, so the state after
    it is the state before it."""
    state = game.setup(script.players, game.options_from_json(dict(script.options)),
                       seed=script.seed)
    out = [state]
    for step in script.steps:
        if step.kind != "illegal":
            state = game.apply(state, game.move_from_json(step.move))
        out.append(state)
    return out


def observation_lines(game: Any, script: Script) -> Iterator[dict[str, Any]]:
    """The lines of an observation file for ``script``: what an ideal camera would report after
    each step, and what the people at the table would say (answers, let-stand).

    * ``play``: the position after the move;
    * ``illegal``: the position after the illegal move (the referee flags it); the next step is
      then judged from the position before it, as when the players put things right;
    * ``let_stand``: the position after the illegal move, then ``{"let_stand": true}``;
    * ``ask``: the position after the move with the hidden fact not visible (the game's
      ``hide_for_question`` removes it), then the answer in notation.
    """
    state = game.setup(script.players, game.options_from_json(dict(script.options)),
                       seed=script.seed)
    for step in script.steps:
        move = game.move_from_json(step.move)
        after = game.apply(state, move)
        observation = game.expected_observation(after)
        if step.kind == "ask":
            observation = game.hide_for_question(after, observation)
        yield observation.to_json()
        if step.kind == "let_stand":
            yield {"let_stand": True}
        if step.kind == "ask":
            yield {"answer": game.notation(state, move)}
        if step.kind != "illegal":
            state = after
