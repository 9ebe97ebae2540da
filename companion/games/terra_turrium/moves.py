"""Moves of Terra Turrium, their notation and their JSON form.

A turn is several physical actions that the camera sees at separate still moments (blocks
lifted, blocks put down, flags moved), so a move is a *sequence of actions*:

* ``lay``: a flag laid out before the first turn (``colour`` and square);
* ``take``: the top block of a square lifted off the board (phase 1);
* ``put``: a block in hand put down on a square (phase 2);
* ``go``: a flag moved along a path of orthogonal steps (phase 3); reaching a square that holds
  an enemy flag captures it;
* ``enter``: a captured flag re-entered on a square (phase 3, 1 movement point);
* ``end``: the active player's turn ends (nothing changes on the table).

The smallest moves (one action) are what :meth:`legal_moves` lists and what playouts use. A move
of several actions is what the camera sees when a still moment shows more than one action at
once: a whole turn, or the end of one player's turn and the start of the next one's.

Notation: actions separated by spaces, each segment of a turn led by its seat::

    R@c3 R@d4 B@g7            flags laid out (colour initial, @, square)
    red: -c4 -f2 +c3 +c3      red takes from c4 and f2, puts both on c3
    red: c3-c4-d4 *a2         red's flag walks c3→c4→d4, a captured red flag re-enters on a2
    red: d4xe4                the step onto e4 captures the flag there (x or - both parse)
    red: d4-d5 / yellow: -h2  red's turn ends, yellow takes a block from h2

Squares are ``a1`` (column a–j, row 1–10; ``a1`` is cell ``[0, 0]``). A seat prefix must be the
player whose turn it is at that point; anything from ``(`` on is a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.games.base import MalformedMove
from companion.games.terra_turrium import board

LAY, TAKE, PUT, GO, ENTER, END = "lay", "take", "put", "go", "enter", "end"
KINDS = (LAY, TAKE, PUT, GO, ENTER, END)
_LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}
_BY_LETTER = {v: k for k, v in _LETTER.items()}


@dataclass(frozen=True)
class Action:
    """One physical action. ``squares`` holds one square, or the path of a ``go``."""

    kind: str
    squares: tuple[int, ...] = ()
    colour: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise MalformedMove(f"unknown action {self.kind!r}; one of {', '.join(KINDS)}")
        want = {LAY: 1, TAKE: 1, PUT: 1, ENTER: 1, END: 0}.get(self.kind)
        if want is not None and len(self.squares) != want:
            raise MalformedMove(f"a {self.kind} action names {want} square(s)")
        if self.kind == GO and len(self.squares) < 2:
            raise MalformedMove("a flag move names a path of at least two squares")
        if any(not 0 <= s < board.SQUARES for s in self.squares):
            raise MalformedMove("a square is off the 10×10 board")
        if self.kind == LAY and self.colour not in board.SEATS:
            raise MalformedMove("a flag laid out needs its colour: one of "
                                f"{', '.join(board.SEATS)}")
        if self.kind != LAY and self.colour:
            raise MalformedMove("only a flag laid out names a colour")

    @property
    def square(self) -> int:
        return self.squares[-1]


@dataclass(frozen=True)
class Move:
    """A sequence of actions, as one still moment of the table shows them."""

    actions: tuple[Action, ...]

    def __post_init__(self) -> None:
        if not self.actions:
            raise MalformedMove("a move has at least one action")


def lay(colour: str, sq: int) -> Action:
    return Action(LAY, (sq,), colour)


def take(sq: int) -> Action:
    return Action(TAKE, (sq,))


def put(sq: int) -> Action:
    return Action(PUT, (sq,))


def go(*path: int) -> Action:
    return Action(GO, tuple(path))


def enter(sq: int) -> Action:
    return Action(ENTER, (sq,))


END_TURN = Action(END)


def single(action: Action) -> Move:
    return Move((action,))


# -- notation ---------------------------------------------------------------------------------


def action_text(action: Action, capture: bool = False) -> str:
    if action.kind == LAY:
        return f"{_LETTER[action.colour]}@{board.name(action.square)}"
    if action.kind == TAKE:
        return f"-{board.name(action.square)}"
    if action.kind == PUT:
        return f"+{board.name(action.square)}"
    if action.kind == ENTER:
        return f"*{board.name(action.square)}"
    if action.kind == END:
        return "/"
    names = [board.name(s) for s in action.squares]
    return "-".join(names[:-1]) + ("x" if capture else "-") + names[-1]


def render(move: Move, seats: Sequence[str | None], captures: Sequence[bool]) -> str:
    """The notation of ``move``: ``seats[i]`` is the seat acting at action ``i`` (None during the
    layout), ``captures[i]`` whether action ``i`` ends in a capture."""
    parts: list[str] = []
    current: str | None = None
    for action, seat, capture in zip(move.actions, seats, captures):
        if seat is not None and seat != current and action.kind != LAY:
            parts.append(f"{seat}:")
        current = seat if action.kind != END else None
        parts.append(action_text(action, capture))
    return " ".join(parts)


def _square(token: str, text: str) -> int:
    try:
        return board.parse_square(token)
    except ValueError as exc:
        raise MalformedMove(f"{exc} in move {text!r}") from None


def parse(text: str) -> tuple[Move, tuple[tuple[int, str], ...]]:
    """The move ``text`` names, and the seat prefixes it carries as ``(index of the action they
    lead, seat)`` (the engine checks them against the turn order)."""
    if not isinstance(text, str):
        raise MalformedMove(f"a move's notation is text, not {type(text).__name__}")
    body = text.split("(", 1)[0]
    actions: list[Action] = []
    prefixes: list[tuple[int, str]] = []
    for token in body.split():
        low = token.lower()
        if low.endswith(":"):
            seat = low[:-1]
            if seat not in board.SEATS:
                raise MalformedMove(f"{token!r} is not a seat ({', '.join(board.SEATS)}) in "
                                    f"move {text!r}")
            prefixes.append((len(actions), seat))
        elif token == "/":
            actions.append(END_TURN)
        elif token[0] in "-+*":
            kind = {"-": TAKE, "+": PUT, "*": ENTER}[token[0]]
            actions.append(Action(kind, (_square(token[1:], text),)))
        elif "@" in token:
            letter, _, where = token.partition("@")
            colour = _BY_LETTER.get(letter.upper()) or (letter.lower() if letter.lower()
                                                        in board.SEATS else None)
            if colour is None:
                raise MalformedMove(f"{token!r}: a flag laid out is written R@c3 (R, Y, B or G) "
                                    f"in move {text!r}")
            actions.append(lay(colour, _square(where, text)))
        else:
            path = [_square(part, text) for part in low.replace("x", "-").split("-")]
            if len(path) < 2:
                raise MalformedMove(f"{token!r} is not an action: -c3 takes, +c3 puts, c3-c4 moves "
                                    f"a flag, *c3 re-enters one, R@c3 lays one out, / ends the "
                                    f"turn (in move {text!r})")
            actions.append(Action(GO, tuple(path)))
    if not actions:
        raise MalformedMove(f"no action in move {text!r}")
    return Move(tuple(actions)), tuple(prefixes)


# -- JSON -------------------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    if action.kind == END:
        return {END: True}
    if action.kind == GO:
        return {GO: [board.name(s) for s in action.squares]}
    out: dict[str, Any] = {action.kind: board.name(action.square)}
    if action.kind == LAY:
        out["colour"] = action.colour
    return out


def to_json(move: Move) -> dict[str, Any]:
    return {"actions": [action_to_json(a) for a in move.actions]}


def _action_from_json(data: Any, where: str) -> Action:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"{where} must be an object like {{\"take\": \"c3\"}}")
    kinds = [k for k in KINDS if k in data]
    extra = sorted(set(data) - set(KINDS) - {"colour"})
    if len(kinds) != 1 or extra:
        raise MalformedMove(f"{where} must have exactly one of {', '.join(KINDS)}"
                            + (f" (unknown keys: {', '.join(extra)})" if extra else ""))
    kind = kinds[0]
    value = data[kind]
    if kind == END:
        if value is not True:
            raise MalformedMove(f"{where}: \"end\" must be true")
        return END_TURN
    if kind == GO:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise MalformedMove(f"{where}: \"go\" is a list of squares like [\"c3\", \"c4\"]")
        return Action(GO, tuple(_square(v, where) for v in value))
    if not isinstance(value, str):
        raise MalformedMove(f"{where}: \"{kind}\" is a square like \"c3\", not {value!r}")
    sq = _square(value, where)
    if kind == LAY:
        colour = data.get("colour")
        if colour not in board.SEATS:
            raise MalformedMove(f"{where}: a flag laid out needs \"colour\": one of "
                                f"{', '.join(board.SEATS)}")
        return lay(colour, sq)
    if "colour" in data:
        raise MalformedMove(f"{where}: only \"lay\" takes a colour")
    return Action(kind, (sq,))


def from_json(data: Mapping[str, Any]) -> Move:
    if not isinstance(data, Mapping):
        raise MalformedMove(f"a move is a JSON object {{\"actions\": [...]}}, not "
                            f"{type(data).__name__}")
    actions = data.get("actions")
    extra = sorted(set(data) - {"actions"})
    if extra:
        raise MalformedMove(f"unknown key(s) in move: {', '.join(extra)}; a move is "
                            f"{{\"actions\": [...]}}")
    if not isinstance(actions, list) or not actions:
        raise MalformedMove("a move needs \"actions\": a non-empty list such as "
                            "[{\"take\": \"c3\"}, {\"put\": \"d4\"}]")
    return Move(tuple(_action_from_json(a, f"actions[{i}]") for i, a in enumerate(actions)))
