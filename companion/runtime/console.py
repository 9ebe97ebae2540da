"""The referee at the terminal: questions answered, moves undone or corrected by typing.

When the referee asks, the choices are printed numbered; typing a number answers. Other lines:
``undo``, ``let`` (let the illegal move stand), ``confirm``, ``correct <move in notation>``,
``help``. Everything goes through :meth:`Table.act` with the actor ``cli``, as the dashboard's
buttons do with ``referee``.
"""

from __future__ import annotations

import threading
from typing import TextIO

from companion import events as ev
from companion.errors import UserError
from companion.runtime.table import Table

HELP = ("type the number of a choice to answer the referee; 'undo'; 'let' (let the illegal move "
        "stand); 'confirm'; 'correct <move>'; 'help'")


class Console:
    def __init__(self, table: Table, stdin: TextIO, stdout: TextIO):
        self.table = table
        self.stdin = stdin
        self.stdout = stdout
        self._thread: threading.Thread | None = None
        table.add_listener(self._on_event)

    def _on_event(self, event, status) -> None:
        if event.type == ev.QUESTION_ASKED:
            print(f"  the referee asks ({event.data.get('reason', '')}):", file=self.stdout)
            for i, choice in enumerate(event.data.get("choices", []), start=1):
                print(f"    {i}. {choice['notation']}", file=self.stdout)
            print("  type its number to answer", file=self.stdout, flush=True)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="console", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for line in self.stdin:
            reply = self.handle(line)
            if reply:
                print(f"  {reply}", file=self.stdout, flush=True)

    def handle(self, line: str) -> str:
        """Carry out one typed line; returns what to tell the person."""
        text = line.strip()
        if not text:
            return ""
        word, _, rest = text.partition(" ")
        try:
            if word.isdigit():
                self.table.act("answer", {"choice": int(word) - 1}, actor="cli")
                return "answered"
            if word == "undo":
                self.table.act("undo", actor="cli")
                return "undone"
            if word in ("let", "let_stand"):
                self.table.act("let_stand", actor="cli")
                return "the illegal move stands"
            if word == "confirm":
                self.table.act("confirm", actor="cli")
                return "confirmed"
            if word == "correct" and rest.strip():
                self.table.act("correct", {"move": rest.strip()}, actor="cli")
                return "corrected"
            if word == "help":
                return HELP
        except UserError as exc:
            return f"cannot: {exc.message}"
        return f"not understood: {text!r} ({HELP})"
