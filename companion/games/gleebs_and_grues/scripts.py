"""Scripted games of Gleeb's and Grues, one per way a game can end.

Each script is written in the game's notation, as a referee would read it aloud, and turned into
a :class:`~companion.games.script.Script` (moves in JSON) by replaying it on the engine, so a
script that stopped matching the rules would fail to build. The illegal steps are mistakes
players make at the table (a grue onto a gleeb of another size, a gleeb onto its own colour, a
diagonal, a grue to an empty square when it had to cover, a pinned stack moved, a gleeb put down
on an empty square); the referee flags each and the pieces are put back.

There is no ``ask`` step: every fact of this game is on the board in view (the grues' squares,
each placement, each step), and what the camera cannot see inside a stack the history tells.

* :func:`demo_script` — the text's own ending: red/green wins with 7 points against 4.
* :func:`no_stack_script` — blue/yellow tops no stack after a grue step and loses.
* :func:`tie_script` — no gleeb can move and both score 6: the grues win.
* :func:`all_eaten_script` — every gleeb eaten or pinned: the grues win at 0 to 0.
"""

from __future__ import annotations

from typing import Callable

from companion.games.gleebs_and_grues.engine import GleebsAndGrues
from companion.games.script import Script, ScriptStep

# (notation, kind, rule id, note); a bare string is a step played as it should be
Entry = str | tuple[str, str, str, str]


def _build(title: str, players: tuple[str, str], entries: list[Entry]) -> Script:
    game = GleebsAndGrues()
    state = game.setup(players)
    steps = []
    for entry in entries:
        text, kind, rule, note = (entry, "play", None, "") if isinstance(entry, str) else entry
        move = game.parse_notation(state, text)
        steps.append(ScriptStep(move=game.move_to_json(move), kind=kind, rule=rule, note=note))
        if kind in ("play", "let_stand", "ask"):
            state = game.apply(state, move)
    return Script(game=game.name, players=players, steps=tuple(steps), title=title)


def demo_script() -> Script:
    """Blue/yellow first; green/red ends on top with 7 points against 4, as in the rule text.
    Shows eating, pinning, a turn whose gleeb step is skipped, and eight mistakes."""
    return _build("Red/green wins 7 to 4", ("blue-yellow", "green-red"), [
        "grues Ks@a4 Km@c3 Kl@d2",
        "Bm@a3", "Rm@c2", "Bs@d3", "Gl@c1",
        ("Ys@c1", "illegal", "gg.place.empty-square", "a gleeb put on the large green"),
        "Ym@a2", "Rs@b4", "Ys@c4", "Rl@b3", "Bl@b1", "Gm@b2", "Yl@d4", "Gs@d1",
        ("Bm a3xd3", "illegal", "gg.gleeb.same-colour", "blue onto blue"),
        ("Bl b1xa2", "illegal", "gg.move.no-diagonal", "a diagonal step"),
        "Bl b1xb4",
        ("Kl d2xd1", "illegal", "gg.grue.same-size", "the large grue onto a small gleeb"),
        ("Ks a4-a1", "illegal", "gg.grue.must-cover", "an empty square while a cover was open"),
        "Km c3xa3",
        "Rm c2xa2", "Kl d2xd4",
        ("Bs d3-d2", "illegal", "gg.gleeb.land-on-gleeb", "a gleeb put down on an empty square"),
        "Ys c4xc1", "Kl d4xb4",
        "Gs d1xd3",
        ("Kl b4-a1", "illegal", "gg.grue.pinned", "the pinned stack on b4 moved like a grue"),
        "Km a3xa2",
        "Ks a4-d4",  # blue/yellow has no gleeb that can move: straight to the grue step
        ("Gs d3-a1 split", "illegal", "gg.gleeb.whole-stack", "the top lifted off its stack"),
        "Gs d3xb3", "Ks d4-c4",
    ])


def no_stack_script() -> Script:
    """Green/red first; after the last grue step blue/yellow tops no stack and loses, while a
    green/red gleeb could still move."""
    return _build("Blue/yellow tops no stack and loses", ("green-red", "blue-yellow"), [
        "grues Ks@b2 Km@d3 Kl@b4",
        ("Bm@b3", "illegal", "gg.place.in-turn", "blue/yellow placed out of turn"),
        "Gm@b3", "Ys@d4", "Gs@b1", "Bs@c3", "Rl@a2", "Ym@d2", "Rs@a1", "Bm@c2", "Gl@a4",
        "Yl@a3", "Rm@c1", "Bl@c4",
        ("Ks b2xa1", "illegal", "gg.turn.gleeb-first", "a grue moved before the gleeb"),
        "Rl a2xa3", "Km d3xd2",
        ("Bm c2xb1", "illegal", "gg.move.no-diagonal", "a diagonal step"),
        "Bl c4xd4",
        ("Ks b2xd2", "illegal", "gg.grue.not-on-grue", "a grue onto a pinned stack"),
        "Kl b4xa4",
        "Gm b3xc3", "Km d2xc2",
        "Km c2xc1",  # blue/yellow has no gleeb that can move: straight to the grue step
        "Rs a1xb1",
        ("Km c1-a1", "illegal", "gg.grue.must-cover", "the large grue could cover d4"),
        "Kl a4xd4",
    ])


def tie_script() -> Script:
    """Green/red first; no gleeb can move and both seats score 6: the grues win."""
    return _build("A tie at 6: the grues win", ("green-red", "blue-yellow"), [
        "grues Ks@a1 Km@c3 Kl@b4",
        "Rl@d3", "Ys@d1", "Gs@a4", "Bm@d2", "Gm@c2", "Yl@d4", "Rm@c4", "Ym@b1", "Rs@a2",
        "Bl@c1", "Gl@b2", "Bs@b3",
        ("Ym b1xa1", "illegal", "gg.gleeb.own", "green/red moved a yellow gleeb"),
        "Rl d3xd4", "Ks a1xa4",
        "Ys d1xd4",
        ("Ym b1-a1", "illegal", "gg.turn.grue-second", "a second gleeb instead of the grue"),
        "Ks a4xd4",
        ("Gl b2xb4", "illegal", "gg.gleeb.not-on-grue", "a gleeb onto a grue"),
        "Gl b2xd2", "Km c3xc4",
        "Ym b1xb3", "Km c4xc2",
        "Gl d2xa2", "Kl b4-b1",
    ])


def all_eaten_script() -> Script:
    """Blue/yellow first; every gleeb ends eaten or pinned, nobody tops a stack: the grues win."""
    return _build("Every gleeb eaten or pinned: the grues win", ("blue-yellow", "green-red"), [
        "grues Ks@a1 Km@d2 Kl@d4",
        "Bm@b4", "Gs@a4", "Ys@b2", "Rm@c2", "Yl@c3", "Rs@d3", "Bs@a2", "Gl@c1", "Bl@b1",
        "Rl@a3", "Ym@c4", "Gm@b3",
        "Ym c4xc2", "Ks a1xa4",
        "Gm b3xc3", "Ks a4xa2",
        "Ym c2xc3", "Ks a2xb2",
        "Gl c1xb1", "Kl d4-c4",
        "Ym c3xa3", "Kl c4-a4",
        "Gl b1xb4", "Kl a4xb4",
        "Ym a3xd3", "Km d2xd3",
    ])


#: every script of this package, by name (for the demo's chooser and the whole-game tests)
SCRIPTS: dict[str, Callable[[], Script]] = {
    "demo": demo_script,
    "no-stack": no_stack_script,
    "tie": tie_script,
    "all-eaten": all_eaten_script,
}
