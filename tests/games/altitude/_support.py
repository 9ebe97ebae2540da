"""Shared helpers for the Altitude tests: a game, short ways to reach a position, a tiny deck."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.altitude import Altitude
from companion.games.base import Verdict

GAME = Altitude()
RED, YELLOW, BLUE, GREEN = GAME.seats

#: cards the helpers throw away to pass a turn, highest first; tests build with the others
FILLER = ("m15b", "m14b", "m13b", "m12b", "m11b", "m10b", "m09b", "m08b", "m07b", "m06b",
          "m05b", "m04b", "m03b", "m02b", "m01b", "m15a", "m14a", "m13a")

#: a deck of 12 cards: two players get to the end phase after four plays
TINY = {"name": "tiny", "cards": [
    {"id": f"m{v:02d}", "kind": "mountain", "value": v} for v in range(1, 8)] + [
    {"id": "lynx", "kind": "animal", "value": 9, "animal": "lynx"},
    {"id": "tel1", "kind": "telepherique"},
    {"id": "ava1", "kind": "avalanche"},
    {"id": "stb1", "kind": "saint-bernard"},
    {"id": "stb2", "kind": "saint-bernard"},
]}


def start(players=(RED, BLUE), deck: str = "demo"):
    return GAME.setup(players, {"manifest": deck})


def tiny_deck(tmp_path: Path) -> str:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return str(path)


def play(state, *texts: str):
    """Each notation in turn, each required to be legal."""
    for text in texts:
        state = GAME.push(state, GAME.parse_notation(state, text))
    return state


def judge(state, text: str) -> Verdict:
    return GAME.check(state, GAME.parse_notation(state, text))


def rule_of(state, text: str) -> str | None:
    verdict = judge(state, text)
    return None if verdict.legal else verdict.rule.id


def pass_until(state, seat: str):
    """The other players throw away a filler card until it is ``seat``'s play."""
    while GAME.to_move(state) != seat:
        card = next(c for c in FILLER if state.unseen_count(c))
        state = play(state, f"{GAME.to_move(state)} discards {card}")
    return state


def lay_for(state, seat: str, *texts: str):
    """``seat`` plays each notation (its seat name is added), the others discarding between."""
    for text in texts:
        state = pass_until(state, seat)
        state = play(state, f"{seat} {text}")
    return state


#: red's five-étage mountain of the demo deck (as the solitaire script, with the eagle on top)
FIVE_ETAGES = (
    "builds m03a 1:0", "builds tel1 1:-1", "builds m02a 1:-1", "builds m04a 1:3",
    "builds m06a 2:0", "builds m01a 1:-1", "builds m05a 2:0", "builds m07a 2:2",
    "builds m08a 2:3", "builds m09a 3:0", "builds m10a 3:1", "builds chamois 3:2",
    "builds m11a 4:0", "builds m12a 4:1", "builds aigle 5:0",
)


def five_etages(state, seat: str = RED):
    return lay_for(state, seat, *FIVE_ETAGES)
