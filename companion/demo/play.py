"""Playing a scripted game at a demo table."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, TextIO

from companion import events as ev
from companion.games import get_game
from companion.games.script import Script, observation_lines
from companion.referee.script_lines import feed
from companion.runtime.board import OpenBoard, open_board
from companion.runtime.table import Table


def demo_script(game: str) -> Script:
    """The scripted game a game package ships for the demo."""
    import importlib

    module = importlib.import_module(get_game(game).__class__.__module__.rsplit(".", 1)[0]
                                     + ".scripts")
    return module.demo_script()


@dataclass
class Summary:
    game_id: str
    moves: int
    illegal: int
    questions: int
    scores: dict[str, int]
    outcome: dict[str, Any] | None
    board: dict[str, Any] | None

    def lines(self) -> list[str]:
        out = [f"game {self.game_id}: {self.moves} moves judged, {self.illegal} illegal moves "
               f"flagged, {self.questions} questions asked"]
        out.append("scores: " + ", ".join(f"{k} {v}" for k, v in self.scores.items()))
        if self.outcome:
            out.append("winner: " + ", ".join(self.outcome["winners"]) + " — "
                       + self.outcome["reason"]["en"])
        if self.board and "scores" in self.board:
            out.append("the board shows the scores " + " ".join(str(v) for v in self.board["scores"])
                       + " and lights " + " ".join(self.board["leds"][:len(self.scores)]))
        return out


def _table_move(move: dict[str, Any]) -> bool:
    """Moves that are the table's housekeeping, not a player's (the card moved to the pile)."""
    return move == {"pile": True}


def open_demo_table(data_dir: str, board: str | None) -> tuple[Table, OpenBoard | None]:
    table: Table | None = None

    def on_status(status: str, detail: str) -> None:
        if table is not None:
            table.set_device(status, detail)

    opened = open_board(board, on_status)
    table = Table(data_dir, board=opened.driver if opened else None,
                  board_view=opened.view if opened else None)
    if opened is not None:
        table.set_device(opened.link.status, opened.link.detail)
    return table, opened


def play_observations(table: Table, script: Script, *, pace: float = 0.0) -> None:
    """Referee the script from ideal camera readings (no rendering): the quickest whole chain."""
    game = get_game(script.game)
    referee = table.start_game(script.game, list(script.players), dict(script.options),
                               seed=script.seed, actor="script",
                               source={"demo": script.title or script.game})
    lines = [json.dumps(line) for line in observation_lines(game, script)]
    for _ in feed(referee, lines, source="demo script"):
        if pace:
            time.sleep(pace)


def summarise(table: Table, opened: OpenBoard | None) -> Summary:
    referee = table.require_game()
    events = table.log.events(referee.session.game_id)
    if opened is not None:
        opened.link.wait_idle(5.0)
    status = referee.status()
    return Summary(
        game_id=referee.session.game_id,
        moves=sum(1 for e in events if e.type in (ev.MOVE_JUDGED, ev.QUESTION_ANSWERED)
                  and e.data.get("move") and not _table_move(e.data["move"])),
        illegal=sum(1 for e in events if e.type == ev.MOVE_JUDGED and not e.data.get("legal")),
        questions=sum(1 for e in events if e.type == ev.QUESTION_ASKED),
        scores=status["scores"],
        outcome=status.get("outcome"),
        board=opened.view() if opened else None,
    )


def print_summary(summary: Summary, out: TextIO) -> None:
    print("", file=out)
    for line in summary.lines():
        print(line, file=out)
