"""The scripted games through the referee and its event log, as
``companion referee --game gleebs-and-grues --observations FILE.jsonl`` runs them."""

from __future__ import annotations

import json

import pytest

from companion.games.gleebs_and_grues.scripts import SCRIPTS
from companion.games.script import observation_lines
from companion.referee import Referee
from companion.referee.script_lines import feed
from companion.store import EventLog

from ._support import GAME


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_refereed_from_observations_and_resumed_from_the_log(name, data_dir):
    script = SCRIPTS[name]()
    lines = [json.dumps(line) for line in observation_lines(GAME, script)]
    log = EventLog.in_dir(data_dir)
    try:
        referee = Referee.start(log, GAME.name, list(script.players), actor="file")
        events = list(feed(referee, lines, source=f"{name}.jsonl"))
        judged = [e for e in events if e.type == "move.judged"]
        illegal = [e for e in judged if not e.data["legal"]]
        assert len(illegal) == sum(1 for s in script.steps if s.kind == "illegal")
        assert [e.data["rule"]["id"] for e in illegal] == \
            [s.rule for s in script.steps if s.kind == "illegal"]
        assert events[-1].type == "game.ended"
        state = referee.state
        assert GAME.outcome(state).to_json() == events[-1].data["outcome"]
        resumed = Referee.resume(log, referee.session.game_id)
        assert resumed.state == state
    finally:
        log.close()
