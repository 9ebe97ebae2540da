"""Printing what happens during a demo or a game, one line an event, for people."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from companion import events as ev


def describe(event_type: str, data: dict[str, Any], lang: str = "en") -> str | None:
    """One line for a record event, or None for the ones not worth a line."""
    e = data.get("event", data)
    if event_type in (ev.MOVE_JUDGED, ev.QUESTION_ANSWERED, ev.MOVE_REVISED, ev.MOVE_CORRECTED):
        if e.get("withdrawn"):
            return "  question withdrawn"
        if not e.get("move"):
            return None
        tag = {ev.MOVE_JUDGED: "", ev.QUESTION_ANSWERED: " (answered)",
               ev.MOVE_REVISED: " (adjusted)", ev.MOVE_CORRECTED: " (corrected)"}[event_type]
        if e.get("legal"):
            gained = ", ".join(f"{k} {v:+d}" for k, v in e.get("score_delta", {}).items() if v)
            return f"  {e['notation']:<34} legal{tag}" + (f"   {gained}" if gained else "")
        rule = e.get("rule") or {}
        message = rule.get(lang) or rule.get("en", "")
        return f"  {e['notation']:<34} ILLEGAL{tag}: {message} [{rule.get('id')}]"
    if event_type == ev.QUESTION_ASKED:
        choices = " | ".join(c["notation"] for c in e.get("choices", []))
        return f"  ? the referee asks: {choices}"
    if event_type == ev.ILLEGAL_RETRACTED:
        return f"  pieces put back after {e.get('notation')}"
    if event_type == ev.VERDICT_OVERRIDDEN:
        return f"  the table lets {e.get('notation')} stand"
    if event_type == ev.MOVE_UNDONE:
        return f"  undone: {e.get('notation')}"
    if event_type == ev.UNEXPLAINED:
        return f"  ! nothing explains the table: {e.get('reason')}"
    if event_type == ev.GAME_ENDED:
        outcome = e.get("outcome", {})
        return f"  game over: {outcome.get('reason', {}).get(lang) or outcome.get('reason', {}).get('en')}"
    return None


class Printer:
    """A table listener that prints a line per event."""

    def __init__(self, out: TextIO = sys.stdout, lang: str = "en"):
        self.out = out
        self.lang = lang

    def __call__(self, event, status) -> None:
        line = describe(event.type, event.data, self.lang)
        if line:
            print(line, file=self.out, flush=True)
