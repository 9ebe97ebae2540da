"""Playing a scripted game through the referee and checking every verdict against the script.

Used by the whole-game tests of every game and by ``companion bench referee``: the script says
what happened at the table; the referee, seeing only observations, must arrive at the same
moves, the same verdicts (with the same broken rules) and the same scores, and must ask where
the script says the picture is ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from companion import events as ev
from companion.games import Game
from companion.games.script import Script, ScriptStep
from companion.store.log import Event


@dataclass(frozen=True)
class Expected:
    """What the referee must record for one step."""

    step: int
    kind: str
    move: Any
    legal: bool
    rule: str | None
    score_delta: dict[str, int]


@dataclass
class Comparison:
    expected: list[Expected]
    judged: list[dict[str, Any]]
    mismatches: list[str] = field(default_factory=list)
    questions: int = 0
    unexplained: int = 0

    @property
    def correct(self) -> int:
        return len(self.expected) - len(self.mismatches)


def expectations(game: Game, script: Script) -> list[Expected]:
    state = game.setup(script.players, game.options_from_json(dict(script.options)), seed=script.seed)
    out = []
    for i, step in enumerate(script.steps):
        move = game.move_from_json(step.move)
        verdict = game.check(state, move)
        out.append(Expected(i, step.kind, move, verdict.legal,
                            verdict.rule.id if verdict.rule else None, dict(verdict.score_delta)))
        if step.kind != "illegal":
            state = game.apply(state, move)
    return out


def judged_moves(game: Game, events: Iterable[Event]) -> list[dict[str, Any]]:
    """The moves the referee recorded, in order, after folding revisions and corrections: one
    dict per judged move (move, legal, rule id, score delta, how it was decided)."""
    record: list[dict[str, Any]] = []
    for event in events:
        d = event.data
        if event.type in (ev.MOVE_JUDGED, ev.QUESTION_ANSWERED) and not d.get("withdrawn"):
            record.append({"seq": event.seq, "move": game.move_from_json(d["move"]),
                           "legal": d["legal"], "rule": (d.get("rule") or {}).get("id"),
                           "score_delta": d.get("score_delta") or {},
                           "asked": event.type == ev.QUESTION_ANSWERED, "actor": event.actor})
        elif event.type in (ev.MOVE_REVISED, ev.MOVE_CORRECTED) and record:
            record[-1] = {"seq": event.seq, "move": game.move_from_json(d["move"]),
                          "legal": d["legal"], "rule": (d.get("rule") or {}).get("id"),
                          "score_delta": d.get("score_delta") or {},
                          "asked": record[-1]["asked"], "actor": event.actor}
        elif event.type == ev.MOVE_UNDONE and d.get("target") != "illegal" and record:
            record.pop()
    return record


def compare(game: Game, script: Script, events: list[Event]) -> Comparison:
    expected = expectations(game, script)
    judged = judged_moves(game, events)
    result = Comparison(expected, judged)
    result.questions = sum(1 for e in events if e.type == ev.QUESTION_ASKED)
    result.unexplained = sum(1 for e in events if e.type == ev.UNEXPLAINED)
    for i, exp in enumerate(expected):
        if i >= len(judged):
            result.mismatches.append(f"step {i} ({exp.kind}): nothing recorded")
            continue
        got = judged[i]
        problems = []
        if got["move"] != exp.move:
            problems.append(f"move {got['move']} instead of {exp.move}")
        if got["legal"] != exp.legal or got["rule"] != exp.rule:
            problems.append(f"verdict {got['legal']}/{got['rule']} instead of {exp.legal}/{exp.rule}")
        if {k: v for k, v in got["score_delta"].items() if v} != \
                {k: v for k, v in exp.score_delta.items() if v}:
            problems.append(f"score {got['score_delta']} instead of {exp.score_delta}")
        if exp.kind == "ask" and not got["asked"]:
            problems.append("settled without asking")
        if exp.kind != "ask" and got["asked"]:
            problems.append("asked although the picture was clear")
        if problems:
            result.mismatches.append(f"step {i} ({exp.kind}): " + "; ".join(problems))
    if len(judged) > len(expected):
        result.mismatches.append(f"{len(judged) - len(expected)} move(s) recorded beyond the script")
    return result


def step_summary(steps: Iterable[ScriptStep]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.kind] = counts.get(step.kind, 0) + 1
    return counts
