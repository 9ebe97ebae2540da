"""Feeding a referee from a file: observation lines and referee lines (docs/observation.md)."""

from __future__ import annotations

from typing import Iterable, Iterator

from companion.errors import BadInput
from companion.observation import Observation, ObservationError, read_jsonl
from companion.referee.referee import Referee, RefereeError
from companion.store.log import Event

REFEREE_KEYS = ("answer", "undo", "correct", "let_stand", "confirm")


def feed(referee: Referee, lines: Iterable[str], *, source: str = "<input>",
         skip_to: int = 0) -> Iterator[Event]:
    """Judge each line in order and yield the events. Lines up to ``skip_to`` were already
    judged (a resumed game). A malformed line stops the feed with its line number; the game
    is left as it was before that line."""
    for number, data in read_jsonl(lines, source=source):
        if number <= skip_to:
            continue
        where = f"{source}:{number}"
        if isinstance(data, dict) and "pieces" not in data and any(k in data for k in REFEREE_KEYS):
            yield from _referee_line(referee, data, where, number)
            continue
        try:
            observation = Observation.from_json(data, where="observation")
        except ObservationError as exc:
            raise BadInput(exc.message, where=where) from None
        if observation.game != referee.game.name:
            raise BadInput(f"an observation of {observation.game!r} in a game of "
                           f"{referee.game.name!r}", where=where)
        yield from referee.observe(observation, actor="file", source={"line": number})


def _referee_line(referee: Referee, data: dict, where: str, number: int) -> Iterator[Event]:
    try:
        src = {"line": number}
        if "answer" in data:
            events = referee.answer(data["answer"], actor="file", source=src)
        elif data.get("undo"):
            events = referee.undo(actor="file", source=src)
        elif "correct" in data:
            events = referee.correct(data["correct"], actor="file", source=src)
        elif data.get("let_stand"):
            events = referee.let_stand(actor="file", source=src)
        elif data.get("confirm"):
            events = referee.confirm(actor="file", source=src)
        else:
            raise BadInput(f"not a referee line: {data!r}", where=where)
    except RefereeError as exc:
        raise BadInput(exc.message, where=where) from None
    for event in events:
        yield event
