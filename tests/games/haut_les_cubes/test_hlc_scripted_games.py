"""Whole games of Haut les Cubes, 3 to 6 players, refereed from observation files to the end.

Each game is played by the seeded sensible player (with mistakes the referee must flag and
moments where the played card cannot be read, so the referee must ask). The referee sees only
the observations; every verdict it records must match the script, and the facts the rule text
states are checked independently of the engine: a bravery jump scores the square of the drop
(capped at 6), a push or a Hoplà never scores, and the winner is the highest score, the first to
reach it on a tie.
"""

from __future__ import annotations

import pytest

from companion.games.script import observation_lines
from companion.games.haut_les_cubes.cards import HOPLA, MOAVEOU, POUSSTOIA, TVAVOARTOA
from companion.games.haut_les_cubes.scripts import sensible_game
from companion.referee import Referee
from companion.referee.scripted import compare, step_summary
from companion.referee.script_lines import feed
from companion.store import EventLog

from hlc_positions import GAME

ALL = ("red", "yellow", "blue", "green", "white", "black")
GAMES = {  # players: (seed, ends in a tie at the top)
    3: (171, True),
    4: (1, False),
    5: (1, False),
    6: (1, False),
}


def referee_the_script(script, data_dir):
    lines = [__import__("json").dumps(line) for line in observation_lines(GAME, script)]
    with EventLog.in_dir(data_dir) as log:
        referee = Referee.start(log, GAME.name, list(script.players), seed=script.seed, actor="file")
        list(feed(referee, lines, source="script"))
        events = log.events(referee.session.game_id)
        return referee, events


@pytest.mark.parametrize("n", sorted(GAMES))
def test_whole_game_refereed_move_by_move(n, data_dir):
    seed, tie = GAMES[n]
    script = sensible_game(ALL[:n], seed)
    counts = step_summary(script.steps)
    assert counts.get("illegal", 0) >= 1 and counts.get("ask", 0) >= 1
    referee, events = referee_the_script(script, data_dir)
    result = compare(GAME, script, events)
    assert result.mismatches == []
    assert result.questions == counts["ask"]
    assert result.unexplained == 0

    # independent checks of the scoring and the end, move by move
    state = GAME.setup(script.players)
    for exp, got in zip(result.expected, result.judged):
        move = exp.move
        if exp.kind != "illegal" and getattr(move, "card", None) in (MOAVEOU, HOPLA, POUSSTOIA,
                                                                      TVAVOARTOA):
            seat = state.players.index(move.seat)
            if move.card == MOAVEOU and move.to is not None:
                drop = state.height(state.giants[seat]) - state.height(move.to)
                assert got["score_delta"].get(move.seat, 0) == (min(drop, 6) ** 2 if drop > 0 else 0)
            else:
                assert not any(got["score_delta"].values())
        if exp.kind != "illegal":
            state = GAME.apply(state, move)
    assert referee.state == state
    outcome = GAME.outcome(state)
    assert outcome is not None and max(state.scores) >= 25
    top = max(state.scores)
    tied = [i for i, s in enumerate(state.scores) if s == top]
    assert (len(tied) > 1) == tie
    first = min(tied, key=lambda i: state.reached[i])
    assert outcome.winners == (state.players[first],)
    assert events[-1].type == "game.ended"
