"""Vision proposes, rules dispose: deciding what an observation means.

Given the tracked state, what the camera saw, the last move (which the player may still be
adjusting) and a tentative move (a card laid whose action has not happened yet), the game lists
the candidate moves and how well each explains the picture. This module turns that list into
one decision:

* ``nothing``: the table is as the state says (or too uncertain to say otherwise yet);
* ``settle``: one clear winner, legal or not;
* ``revise``: the last move was adjusted within the same turn; the new reading replaces it;
* ``tentative``: the player has started a move that is not complete yet (wait and see);
* ``withdrawn``: the started move was taken back (the table is as it was before it);
* ``ask``: several candidates explain the picture about equally and differ in what matters
  (the position, the verdict or the score): a person must choose;
* ``chain``: no single move explains the picture but two in a row clearly do (a player's two
  steps, or a move and the next player's first action, made between two still moments), or
  the single move that explains it best breaks a rule and two legal moves in a row clearly
  explain it better, the game's priors counted (a build, then the next roll, rather than the
  builder rolling again): the first is settled, and the picture judged again from there; when
  several pairs explain it about equally (a card unseen in the first move), the referee asks;
* ``unexplained``: nothing explains the picture (a knocked-over stack, a move the rules cannot
  produce): say so with the nearest candidates and wait.

Nothing here changes state or writes anything; :mod:`companion.referee.referee` acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games import Candidate, Game
from companion.games.matching import CLEAR_MARGIN, MISS, MISS_HIDDEN, unexplained_threshold
from companion.observation import Observation

#: how options from the different starting points rank when they explain the picture equally:
#: a single move from the tracked state first, then a move after the tentative one, then a
#: revision of the last move
BASE_RANK = {"current": 0, "after_tentative": 1, "revision": 2}


@dataclass(frozen=True)
class Option:
    """A candidate and the state it starts from."""

    candidate: Candidate
    base: str  # "current", "revision" or "after_tentative"

    @property
    def cost(self) -> float:
        return self.candidate.cost

    @property
    def rank(self) -> float:
        """Cost plus the reading's prior: what candidates are compared by."""
        return self.candidate.rank


@dataclass
class Decision:
    kind: str
    chosen: Option | None = None
    options: list[Option] = field(default_factory=list)
    reason: str = ""
    nothing_cost: float = 0.0


def signature(game: Game, option: Option) -> tuple[Any, ...]:
    """What distinguishes two interpretations for the players: where the pieces end up, the
    verdict and the score. Options with the same signature need no question."""
    v = option.candidate.verdict
    return (option.candidate.state, v.legal, v.rule.id if v.rule else None,
            tuple(sorted(v.score_delta.items())))


def _groups(game: Game, options: list[Option]) -> list[list[Option]]:
    groups: dict[tuple[Any, ...], list[Option]] = {}
    for opt in sorted(options, key=lambda o: (o.rank, BASE_RANK[o.base],
                                              not o.candidate.verdict.legal)):
        groups.setdefault(signature(game, opt), []).append(opt)
    return sorted(groups.values(), key=lambda g: g[0].rank)


def problem_pieces(observation: Observation) -> str | None:
    """Pieces the reader flagged as unreadable where they stand (a giant across a line)."""
    for p in observation.pieces:
        if p.get("on_line"):
            what = p.get("colour") or p.kind
            return f"the {what} {p.kind} stands across a line: set it straight on a square"
    return None


def decide(game: Game, state: Any, observation: Observation, *,
           revisable: tuple[Any, Any] | None = None,
           tentative: Candidate | None = None) -> Decision:
    """Decide what ``observation`` means from ``state``.

    ``revisable`` is (state before, move) of the last move, which the same player may still be
    adjusting; ``tentative`` is a started, incomplete move not yet settled.
    """
    problem = problem_pieces(observation)
    if problem:
        return Decision("unexplained", reason=problem)
    nothing = game.explain(state, observation)
    withdrawn = None
    options = [Option(c, "current") for c in game.candidates(state, observation)]
    if tentative is not None:
        # with a move started, "nothing new" means it still stands; the table back as it was
        # before it means it was taken back, which must be clearly the better explanation
        withdrawn, nothing = nothing, game.explain(tentative.state, observation)
        options += [Option(c, "after_tentative")
                    for c in game.candidates(tentative.state, observation)]
    if revisable is not None:
        before, move = revisable
        options += [Option(c, "revision") for c in game.candidates(before, observation)
                    if c.move != move]
    revisions = [o for o in options if o.base == "revision"]
    if revisions:
        # a revision must explain the table clearly better than any new move: players adjust
        # their own move now and then, but the next player moving is the normal course
        others = [o.rank for o in options if o.base != "revision"]
        if others and min(o.rank for o in revisions) > min(others) - CLEAR_MARGIN:
            options = [o for o in options if o.base != "revision"]
    if withdrawn is not None and withdrawn < min([nothing] + [o.rank for o in options]) - CLEAR_MARGIN:
        return Decision("withdrawn", nothing_cost=withdrawn, reason="the started move was taken back")
    threshold = unexplained_threshold(len(observation.pieces))
    if not options:
        if nothing > threshold:
            return Decision("unexplained", nothing_cost=nothing,
                            reason="no move of the rules explains the table")
        return Decision("nothing", nothing_cost=nothing)
    groups = _groups(game, options)
    best = groups[0][0]
    seen_best = min(o.cost for o in options)  # what the picture alone supports, priors aside
    if min(nothing, seen_best) > threshold:
        chain = _chain(game, groups, observation, threshold)
        if chain is not None:
            return Decision("chain", chosen=chain, options=[chain], nothing_cost=nothing)
        tied = _tied_pairs(game, groups, observation, threshold)
        if tied:
            return Decision("ask", options=tied, nothing_cost=nothing,
                            reason="two moves in a row explain the table: which was the first?")
        return Decision("unexplained", options=[g[0] for g in groups[:3]], nothing_cost=nothing,
                        reason="no move of the rules explains the table")
    if nothing <= seen_best + CLEAR_MARGIN:
        unseen = _out_of_sight(game, groups, nothing)
        if unseen:
            return Decision("ask", options=unseen, nothing_cost=nothing,
                            reason="a piece the camera saw is gone where it cannot see: "
                                   "which move was made?")
        return Decision("nothing", options=[g[0] for g in groups[:3]], nothing_cost=nothing,
                        reason="unchanged" if nothing <= seen_best else "uncertain")
    if not best.candidate.verdict.legal:
        # one broken rule explains the picture best: two legal moves in a row may explain it
        # as well (a move, then the next player's, between two still moments)
        instead = _legal_chain(game, groups, observation, threshold, best, nothing)
        if instead is not None:
            return instead
    close = [g[0] for g in groups if g[0].rank - best.rank < CLEAR_MARGIN]
    if len(close) > 1:
        if all(not o.candidate.complete for o in close):
            return Decision("tentative", chosen=None, options=close, nothing_cost=nothing,
                            reason="a card was laid; which one cannot be read")
        return Decision("ask", options=close, nothing_cost=nothing,
                        reason="several moves explain the table equally well")
    if not best.candidate.complete:
        kind = "tentative"
    elif best.base == "revision":
        kind = "revise"
    else:
        kind = "settle"
    return Decision(kind, chosen=best, options=[g[0] for g in groups[:3]], nothing_cost=nothing)


def _out_of_sight(game: Game, groups: list[list[Option]], nothing: float) -> list[Option]:
    """The moves to ask about when a piece the camera saw is gone and the table may be unchanged
    (the piece misread) as well as changed where the camera cannot see (the piece moved out of
    sight by a card it cannot read): complete, legal moves from the tracked state that explain
    the picture as well as "nothing" does but for pieces the camera may not see. Only for a game
    that says such moves are worth a question (``asks_out_of_sight``); elsewhere "nothing"
    stands, as a flickering reading must not make questions."""
    if not game.asks_out_of_sight or nothing < MISS:
        return []
    return [g[0] for g in groups
            if g[0].base == "current" and g[0].candidate.complete
            and g[0].candidate.verdict.legal and g[0].cost <= nothing + MISS_HIDDEN]


#: how many first moves are tried when looking for two moves that explain a picture
CHAIN_WIDTH = 8


def _chain(game: Game, groups: list[list[Option]], observation: Observation,
           threshold: float) -> Option | None:
    """The first move of the one clear two-move explanation, if there is one. Only legal,
    complete first moves from the tracked state are tried (an illegal move is never assumed to
    have stood), and the pair must beat every other pair by the clear margin."""
    pairs: list[tuple[float, Option]] = []
    for group in groups[:CHAIN_WIDTH]:
        first = group[0]
        cand = first.candidate
        if first.base != "current" or not cand.complete or not cand.verdict.legal:
            continue
        seconds = game.candidates(cand.state, observation)
        if seconds:
            pairs.append((min(c.cost for c in seconds) + cand.prior, first))
    if not pairs:
        return None
    pairs.sort(key=lambda p: p[0])
    cost, first = pairs[0]
    if cost > threshold or (len(pairs) > 1 and pairs[1][0] - cost < CLEAR_MARGIN):
        return None
    return first


def _legal_pairs(game: Game, groups: list[list[Option]], observation: Observation,
                 threshold: float) -> list[tuple[float, Option]]:
    """Legal two-move explanations of the picture, likeliest first, each as (rank, first move):
    the first move legal from the tracked state (it may be incomplete: the player could have
    gone on, but the next move ended the turn), the second legal, complete (a card laid whose
    action has not come, which a card hidden under it could also explain, is no evidence of a
    second move) and explaining the picture under the unexplained threshold; a pair is ranked
    by its second move's rank plus its first move's prior. At most :data:`CHAIN_WIDTH` first
    moves are tried."""
    firsts = [g[0] for g in groups
              if g[0].base == "current" and g[0].candidate.verdict.legal][:CHAIN_WIDTH]
    pairs: list[tuple[float, Option]] = []
    for first in firsts:
        cand = first.candidate
        seconds = [c for c in game.candidates(cand.state, observation)
                   if c.verdict.legal and c.complete and c.cost <= threshold]
        if seconds:
            pairs.append((min(c.rank for c in seconds) + cand.prior, first))
    pairs.sort(key=lambda p: p[0])
    return pairs


def _tied_pairs(game: Game, groups: list[list[Option]], observation: Observation,
                threshold: float) -> list[Option]:
    """When nothing single explains the picture and no two moves clearly do: the first moves of
    the legal pairs that explain it about equally (a card taken that the camera cannot see, in
    the first of two moves), to ask which; empty when there are not several."""
    pairs = _legal_pairs(game, groups, observation, threshold)
    if len(pairs) < 2:
        return []
    return [o for r, o in pairs if r - pairs[0][0] < CLEAR_MARGIN] if \
        pairs[1][0] - pairs[0][0] < CLEAR_MARGIN else []


def _legal_chain(game: Game, groups: list[list[Option]], observation: Observation,
                 threshold: float, best: Option, nothing: float) -> Decision | None:
    """When the best single explanation of the picture is illegal: the legal two-move chains
    that explain it (:func:`_legal_pairs`), when the likeliest is clearly likelier than the
    broken rule (by the clear margin, the game's priors counted: La Ville des Nains weighs a
    broken rule as a missed piece, so a build then the next roll beats the builder rolling
    again, which looks the same). One such pair is a ``chain`` (its first move settled, the
    picture judged again from there); several about equally likely are asked about (a card
    unseen in the first move). Otherwise None: the illegal move stands, flagged as before (a
    pair that only ties with it, such as a card hidden under the next player's and a giant
    moved out of sight, is no reason to doubt what the camera saw)."""
    pairs = _legal_pairs(game, groups, observation, threshold)
    if not pairs or pairs[0][0] > best.rank - CLEAR_MARGIN:
        return None
    rank, first = pairs[0]
    close = [o for r, o in pairs if r - rank < CLEAR_MARGIN]
    if len(close) == 1:
        return Decision("chain", chosen=first, options=[first], nothing_cost=nothing,
                        reason="two legal moves in a row explain the table")
    return Decision("ask", options=close, nothing_cost=nothing,
                    reason="two legal moves in a row explain the table: which was the first?")
