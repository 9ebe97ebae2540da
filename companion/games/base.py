"""The game contract: the one interface all five games implement.

A game is *parameters plus a history of moves* (as in OpenSpiel and boardgame.io): ``setup`` makes
the initial state from the players and the named options, and every later state is ``apply`` of a
move to the state before. States are immutable, hashable values, so undo, replay and "did anything
change" are comparisons, never bookkeeping.

The referee never needs to know a game's rules. It asks the game:

* which moves could explain what the camera saw (:meth:`Game.candidates`), each with its resulting
  state, its :class:`Verdict` and a *cost* saying how badly that state explains the observation;
* whether a given move is legal (:meth:`Game.check`), and if not which rule it breaks
  (:class:`RuleRef`, quoted in French and English);
* the scores, whose turn it is and whether the game is over.

Hidden or off-board facts (the card a player laid down, a die roll, where a pushed giant lands)
are *part of the move*: the camera reads them where it can, the referee asks where it cannot.

Errors follow python-chess: a move that is not a move of this game at all is
:class:`MalformedMove`; a well-formed move the rules forbid is :class:`IllegalMove` (with its
:class:`RuleRef`); a notation that fits several moves is :class:`AmbiguousMove`.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from companion.observation import Observation

S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type


# --------------------------------------------------------------------------------------------
# Rules and verdicts


@dataclass(frozen=True)
class RuleRef:
    """A rule of the game, citable in a verdict.

    ``id`` is stable (``hlc.napozla.full-base``) so tests, logs and translations can refer to it;
    ``paragraph`` names the place in the French rule text (section, and the sentence quoted);
    ``fr`` and ``en`` say, to a player, what the move did wrong.
    """

    id: str
    paragraph: str
    fr: str
    en: str

    def message(self, lang: str = "fr") -> str:
        return self.en if lang == "en" else self.fr

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "paragraph": self.paragraph, "fr": self.fr, "en": self.en}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "RuleRef":
        return cls(id=data["id"], paragraph=data["paragraph"], fr=data["fr"], en=data["en"])


@dataclass(frozen=True)
class Verdict:
    """The rules engine's judgement of one move from one state.

    ``legal`` is the engine's advice; the referee decides (a table may let an illegal move stand,
    which the log records as an override). ``score_delta`` maps players to points gained by the
    move; ``notes`` are short facts worth showing (``"card discarded: no cube in reserve"``).
    """

    move: Any
    legal: bool
    rule: RuleRef | None = None
    score_delta: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.legal and self.rule is not None:
            raise ValueError("a legal verdict cites no broken rule")
        if not self.legal and self.rule is None:
            raise ValueError("an illegal verdict must cite the rule it breaks")


@dataclass(frozen=True)
class Candidate:
    """A move that could explain an observation: the move, where it leads, and how well.

    ``cost`` is how badly ``state`` explains the observation (0 is a perfect fit; the unit is the
    game's, comparable between candidates of the same call). Candidates come sorted by cost.
    ``complete`` is False when the move could still grow within the same turn (a player who took
    one block may take another); the referee then waits before settling it. An illegal move
    that going on cannot make legal is complete, so that it is flagged at once; one that the
    rest of the turn can still put right (a card laid whose action has not come yet) is not.

    ``prior`` says how unlikely the reading is beyond what the picture shows, on the same scale
    (minus log odds): two players' actions in one still moment, a broken rule when a legal
    reading explains the picture as well. The referee ranks candidates by ``cost + prior``, but
    compares only ``cost`` with "nothing happened" and with the unexplained threshold, so a
    prior never hides a change the camera saw.
    """

    move: Any
    state: Any
    verdict: Verdict
    cost: float
    complete: bool = True
    prior: float = 0.0

    @property
    def rank(self) -> float:
        return self.cost + self.prior


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` lists seats (several for shared wins and co-winners; a non-seat winner such as
    ``"grues"`` or ``"kobold"`` is named as such). ``reason`` says why, in French and English.
    """

    winners: tuple[str, ...]
    reason_fr: str
    reason_en: str
    scores: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": {"fr": self.reason_fr, "en": self.reason_en},
            "scores": dict(self.scores),
        }


# --------------------------------------------------------------------------------------------
# Errors


class GameError(Exception):
    """Base of the errors a game raises about moves and parameters."""


class MalformedMove(GameError):
    """Not a move of this game, or not one that can be made physically from this state."""


class IllegalMove(GameError):
    """A well-formed move that the rules forbid; ``rule`` says which rule."""

    def __init__(self, rule: RuleRef, move: Any = None):
        self.rule = rule
        self.move = move
        super().__init__(f"{rule.id}: {rule.en}")


class AmbiguousMove(GameError):
    """A notation or observation that fits several moves; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: Sequence[Any]):
        self.candidates = tuple(candidates)
        super().__init__(message)


class BadOptions(GameError):
    """Unknown option name or a value of the wrong type."""


class BadSetup(GameError):
    """Players or parameters the game cannot be played with (wrong count, unknown colour)."""


# --------------------------------------------------------------------------------------------
# The contract


class Game(ABC, Generic[S, M]):
    """One game's rules, as a stateless object: all state is in the ``S`` values it returns.

    Subclasses set the class attributes and implement the abstract methods. Everything the
    referee, the log, the dashboard and the board need goes through this interface.
    """

    #: registry name, used on the command line and in logs (``haut-les-cubes``)
    name: ClassVar[str]
    #: display title
    title: ClassVar[str]
    #: the French rule text in ``shared/rules/``
    rules_file: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: the seats players may take (colours), in the order the dashboard offers them
    seats: ClassVar[tuple[str, ...]]
    #: a frozen dataclass whose fields are the named options of RULINGS.md, with their defaults
    options_type: ClassVar[type]
    #: whether a piece the camera saw, gone with nothing else changed, may have been moved where
    #: the camera cannot see (the referee then asks which move was made instead of taking the
    #: piece for misread): True where a hidden card can take a piece out of sight
    asks_out_of_sight: ClassVar[bool] = False

    # -- parameters ---------------------------------------------------------------------------

    def default_options(self) -> Any:
        return self.options_type()

    def options_from_json(self, data: Mapping[str, Any] | None) -> Any:
        """Options from their JSON form; unknown names and wrong types raise :class:`BadOptions`."""
        data = dict(data or {})
        known = {f.name: f for f in dataclasses.fields(self.options_type)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise BadOptions(
                f"unknown option(s) for {self.name}: {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known)) or 'none'}"
            )
        defaults = self.options_type()
        for key, value in data.items():
            expected = type(getattr(defaults, key))
            if expected is bool and not isinstance(value, bool):
                raise BadOptions(f"option {key} must be true or false, not {value!r}")
            if expected is not bool and not isinstance(value, expected):
                raise BadOptions(f"option {key} must be a {expected.__name__}, not {value!r}")
        return dataclasses.replace(defaults, **data)

    def options_to_json(self, options: Any) -> dict[str, Any]:
        return dataclasses.asdict(options)

    def option_docs(self) -> dict[str, str]:
        """One line per option for the new-game wizard and ``--help`` (field metadata ``doc``)."""
        return {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(self.options_type)}

    # -- the game -----------------------------------------------------------------------------

    @abstractmethod
    def setup(self, players: Sequence[str], options: Any = None, *, seed: int = 0) -> S:
        """The initial state, including the physical start layout. ``seed`` fixes any chance
        in the setup itself (a shuffle the engine models); it is recorded in the log."""

    @abstractmethod
    def to_move(self, state: S) -> str | None:
        """The seat whose action the referee is waiting for, or None when the game is over."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal move from ``state``, hidden facts included (each card that could have been
        played, each landing square). Empty only when the game is over."""

    def physical_moves(self, state: S) -> list[M]:
        """Legal moves plus the illegal-but-physically-possible ones players actually make, so
        that an illegal move is recognised and named rather than mistaken for noise."""
        return self.legal_moves(state)

    @abstractmethod
    def check(self, state: S, move: M) -> Verdict:
        """Judge ``move`` from ``state``. Raises :class:`MalformedMove` only when the move cannot
        be made at all (wrong player's piece does not exist, a cube floating in the air)."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; pure. Illegal-but-physical moves apply too (the referee may
        let one stand); physically impossible ones raise :class:`MalformedMove`."""

    def push(self, state: S, move: M) -> S:
        """``apply`` after ``check``: raises :class:`IllegalMove` for an illegal move."""
        verdict = self.check(state, move)
        if not verdict.legal:
            assert verdict.rule is not None
            raise IllegalMove(verdict.rule, move)
        return self.apply(state, move)

    @abstractmethod
    def scores(self, state: S) -> dict[str, int]:
        """Each seat's score now (a game scored only at the end gives its current tally)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    # -- the camera ---------------------------------------------------------------------------

    @abstractmethod
    def explain(self, state: S, observation: Observation) -> float:
        """How badly ``state`` explains ``observation`` (0 = perfectly): what the camera should
        see if ``state`` were true, against what it saw, weighted by the reader's confidences."""

    @abstractmethod
    def candidates(self, state: S, observation: Observation) -> list[Candidate]:
        """Moves (legal or not) from ``state`` that lead to something consistent with
        ``observation``, each with its resulting state, verdict and cost, sorted by cost. Hidden
        facts the observation does not show are expanded into one candidate each, so that the
        referee can ask rather than guess."""

    @abstractmethod
    def expected_observation(self, state: S) -> Observation:
        """What an ideal camera would report for ``state`` (every confidence 1): used to write
        observation files, to tell the synthetic table what to draw, and in tests."""

    def display_word(self, state: S, move: M) -> str | None:
        """A short word (at most 8 letters, readable on a 7-segment display) for a legal move
        worth announcing on the table board: ``PUSH``, ``JUMP`` ... None for most moves."""
        return None

    def hide_for_question(self, state: S, observation: Observation) -> Observation:
        """``observation`` as the camera would report it if the hidden fact of the move that led
        to ``state`` could not be read (the card face not visible, the die hidden by a hand):
        scripted games use it to make the referee ask. By default nothing is hidden."""
        return observation

    # -- notation and JSON --------------------------------------------------------------------

    @abstractmethod
    def notation(self, state: S, move: M) -> str:
        """A short human notation (like chess's SAN), read in the log and on the dashboard."""

    @abstractmethod
    def parse_notation(self, state: S, text: str) -> M:
        """The move ``text`` names from ``state``; :class:`MalformedMove` or
        :class:`AmbiguousMove` when it names none or several."""

    @abstractmethod
    def move_to_json(self, move: M) -> dict[str, Any]:
        """The move as JSON; :meth:`move_from_json` gives it back equal."""

    @abstractmethod
    def move_from_json(self, data: Mapping[str, Any]) -> M:
        """A move from JSON; :class:`MalformedMove` when the data is not a move of this game."""

    # -- for the dashboard and the board -------------------------------------------------------

    @abstractmethod
    def status(self, state: S) -> dict[str, Any]:
        """What the players see at a glance, as JSON: at least ``players`` (seats in play order),
        ``active`` (seat or None), ``scores``, ``round`` and ``phase``; games add their own
        (cards in hand, attacks left, ...)."""

    @abstractmethod
    def board_view(self, state: S) -> dict[str, Any]:
        """The board drawn from the state (not the camera), as JSON for the dashboard's drawing
        code for this game. ``{"kind": <game name>, ...}``."""

    # -- playouts -----------------------------------------------------------------------------

    def random_move(self, state: S, rng: random.Random) -> M:
        """A move for random playouts (tests, benchmarks). Games with chance (dice, a shuffled
        deck) override this to draw hidden facts with their real odds."""
        moves = self.legal_moves(state)
        if not moves:
            raise MalformedMove("no move: the game is over")
        return rng.choice(moves)
