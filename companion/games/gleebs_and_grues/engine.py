"""Gleeb's and Grues on the game contract: the class the referee, the log and the dashboard use.

The modules beside this one each hold one part (pieces, state, moves, move generation, judging,
transitions, camera); this class wires them to :class:`companion.games.base.Game`.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from companion.games.base import (
    BadOptions,
    BadSetup,
    Candidate,
    Game,
    MalformedMove,
    Outcome,
    Verdict,
)
from companion.games.gleebs_and_grues import camera, judge, movegen, transition
from companion.games.gleebs_and_grues.moves import (
    Move,
    SetGrues,
    Step,
    move_from_json,
    move_to_json,
    notation,
    parse,
)
from companion.games.gleebs_and_grues.pieces import (
    CELLS,
    GRUES,
    SEAT_COLOURS,
    SEAT_LED,
    SEATS,
    cell_name,
    on_board,
)
from companion.games.gleebs_and_grues.state import (
    GGState,
    GleebsOptions,
    controller,
    is_free_grue,
    is_pinned,
    pips,
    seat_scores,
    stacks_of,
    unplaced,
    unplaced_of,
)
from companion.games.matching import MISS
from companion.observation import Observation

#: candidates more expensive than the best by more than this are not offered
CANDIDATE_WINDOW = 3 * MISS
#: and never more than this many
MAX_CANDIDATES = 16


class GleebsAndGrues(Game[GGState, Move]):
    """Two players, each controlling two colours of gleebs, and three grues moved by both."""

    name = "gleebs-and-grues"
    title = "Gleeb's and Grues"
    rules_file = "gleebs-and-grues.fr.txt"
    min_players = 2
    max_players = 2
    seats = SEATS
    options_type = GleebsOptions

    # -- parameters -------------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Any = None, *, seed: int = 0) -> GGState:
        """``players`` are the two seats in play order: the first is first in the placement and
        the movement phase. ``seed`` is unused: the grues' squares are not a parameter but the
        first move (:class:`SetGrues`), which the camera reads off the table."""
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise BadSetup(f"players must be a list of seats, e.g. {list(SEATS)}")
        players = tuple(players)
        if len(players) != 2:
            raise BadSetup(f"Gleeb's and Grues is for 2 players, not {len(players)}: "
                           f"give both seats {SEATS[0]!r} and {SEATS[1]!r}, first player first")
        unknown = [p for p in players if p not in SEATS]
        if unknown:
            raise BadSetup(f"unknown seat(s) {', '.join(map(repr, unknown))}: the seats are "
                           f"{SEATS[0]!r} (blue and yellow) and {SEATS[1]!r} (green and red)")
        if players[0] == players[1]:
            raise BadSetup(f"both players took {players[0]!r}: one takes {SEATS[0]!r}, "
                           f"the other {SEATS[1]!r}")
        return GGState(players=(players[0], players[1]), options=self._options(options))

    def _options(self, options: Any) -> GleebsOptions:
        if options is None:
            return GleebsOptions()
        if isinstance(options, GleebsOptions):
            return options
        if isinstance(options, Mapping):
            return self.options_from_json(options)
        raise BadOptions(f"options must be a mapping of option names to values, not {options!r}")

    # -- the game ---------------------------------------------------------------------------

    def to_move(self, state: GGState) -> str | None:
        return state.active_seat

    def legal_moves(self, state: GGState) -> list[Move]:
        return movegen.legal_moves(state)

    def physical_moves(self, state: GGState) -> list[Move]:
        return movegen.physical_moves(state)

    def check(self, state: GGState, move: Move) -> Verdict:
        rule = judge.broken_rule(state, move)
        after = transition.apply(state, move)
        before_scores = seat_scores(state.board, state.players)
        after_scores = seat_scores(after.board, state.players)
        delta = {seat: after_scores[seat] - before_scores[seat] for seat in state.players
                 if after_scores[seat] != before_scores[seat]}
        return Verdict(move=move, legal=rule is None, rule=rule, score_delta=delta,
                       notes=tuple(self._notes(state, move, after)))

    def _notes(self, state: GGState, move: Move, after: GGState) -> list[str]:
        notes = []
        for eaten in after.eaten[len(state.eaten):]:
            notes.append(f"eaten: the {eaten.describe()}")
        if isinstance(move, Step) and is_free_grue(state.stack(move.frm)):
            target = state.stack(move.to)
            if len(target) > 1 and not is_pinned(target):
                notes.append(f"pinned: the stack of {len(target)} on {cell_name(move.to)}")
        if state.stage == "place" and after.stage in ("gleeb", "grue", "over"):
            notes.append("placement over: the movement phase begins")
        if after.stage == "grue" and state.stage != "gleeb":
            notes.append(f"{after.players[after.active]} has no gleeb that can move: "
                         f"straight to the grue step")
        if state.stage == "gleeb" and after.stage != "grue":
            notes.append("no grue can move: the grue step is skipped")
        if after.stage != "over" and state.stage in ("gleeb", "grue") \
                and after.turn > state.turn + 1:
            notes.append(f"{after.players[1 - after.active]} can do nothing this turn: "
                         f"{after.players[after.active]} plays on")
        if after.stage == "over":
            outcome = self.outcome(after)
            if outcome is not None:
                notes.append(f"game over: {outcome.reason_en}")
        return notes

    def apply(self, state: GGState, move: Move) -> GGState:
        return transition.apply(state, move)

    def scores(self, state: GGState) -> dict[str, int]:
        return seat_scores(state.board, state.players)

    def outcome(self, state: GGState) -> Outcome | None:
        if state.stage != "over":
            return None
        scores = self.scores(state)
        first, second = state.players
        if state.ending == "no-stack":
            loser = first if not stacks_of(state.board, first) else second
            winner = second if loser == first else first
            return Outcome(
                winners=(winner,), scores=scores,
                reason_fr=f"{loser} ne contrôle plus aucune pile : {loser} perd",
                reason_en=f"{loser} tops no stack any more: {loser} loses")
        a, b = scores[first], scores[second]
        if a == b:
            nobody = not stacks_of(state.board, first) and not stacks_of(state.board, second)
            if nobody:
                return Outcome(winners=(GRUES,), scores=scores,
                               reason_fr="tous les blaireaux ont été dévorés ou immobilisés : "
                                         "les grues gagnent",
                               reason_en="every gleeb has been eaten or pinned: the grues win")
            return Outcome(winners=(GRUES,), scores=scores,
                           reason_fr=f"égalité à {a} points : les grues gagnent",
                           reason_en=f"a tie at {a} points: the grues win")
        winner, loser = (first, second) if a > b else (second, first)
        return Outcome(winners=(winner,), scores=scores,
                       reason_fr=f"plus aucun blaireau ne peut bouger : {winner} gagne avec "
                                 f"{scores[winner]} points contre {scores[loser]}",
                       reason_en=f"no gleeb can move: {winner} wins with {scores[winner]} points "
                                 f"against {scores[loser]}")

    # -- the camera -------------------------------------------------------------------------

    def expected_observation(self, state: GGState) -> Observation:
        return camera.expected_observation(state.board)

    def explain(self, state: GGState, observation: Observation) -> float:
        return camera.Reading(observation).cost(state.board)

    def candidates(self, state: GGState, observation: Observation) -> list[Candidate]:
        """Every physical move is scored by the squares it changes only (the cost is a sum over
        squares); the cheapest, within :data:`CANDIDATE_WINDOW` of the best, are applied and
        judged. At setup the grue settings are drawn from the squares where black was seen."""
        if state.stage == "over":
            return []
        reading = camera.Reading(observation)
        if state.stage == "grues":
            moves: list[Move] = list(_settings_near(reading.black_cells()))
        else:
            moves = movegen.physical_moves(state)
        scored = []
        for move in moves:
            changes, _ = transition.effect(state, move)
            scored.append((reading.changed_cost(state.board, changes), move))
        if not scored:
            return []
        best = min(cost for cost, _ in scored)
        kept = [(cost, move) for cost, move in scored if cost <= best + CANDIDATE_WINDOW]
        out = []
        for cost, move in kept:
            verdict = self.check(state, move)
            out.append(Candidate(move=move, state=self.apply(state, move), verdict=verdict,
                                 cost=cost, complete=True))
        out.sort(key=lambda c: (round(c.cost, 9), not c.verdict.legal,
                                self.notation(state, c.move)))
        return out[:MAX_CANDIDATES]

    # -- notation and JSON ------------------------------------------------------------------

    def notation(self, state: GGState, move: Move) -> str:
        if isinstance(move, Step):
            stack = state.stack(move.frm) if on_board(move.frm) else ()
            target = state.stack(move.to) if on_board(move.to) else ()
            return notation(move, stack[-1] if stack else None, bool(target))
        return notation(move, None, False)

    def parse_notation(self, state: GGState, text: str) -> Move:
        move, piece = parse(text)
        if isinstance(move, Step):
            stack = state.stack(move.frm)
            if not stack:
                raise MalformedMove(f"{text!r}: there is nothing on {cell_name(move.frm)}")
            if piece is not None and piece != stack[-1]:
                raise MalformedMove(f"{text!r}: {cell_name(move.frm)} shows the "
                                    f"{stack[-1].describe()} ({stack[-1].code}), not {piece.code}")
        return move

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return move_from_json(data)

    # -- dashboard and board ----------------------------------------------------------------

    def status(self, state: GGState) -> dict[str, Any]:
        board = state.board
        outcome = self.outcome(state)
        if state.stage == "place":
            placed = 12 - sum(len(unplaced_of(board, state.eaten, s)) for s in state.players)
            round_ = placed // 2 + 1
        elif state.stage in ("gleeb", "grue", "over"):
            round_ = state.turn // 2 + 1
        else:
            round_ = 0
        return {
            "players": list(state.players),
            "active": state.active_seat,
            "scores": self.scores(state),
            "round": round_,
            "turn": state.turn,
            "phase": state.phase,
            "stage": state.stage,
            "seat_colours": {s: list(SEAT_COLOURS[s]) for s in state.players},
            "led": {s: list(SEAT_LED[s]) for s in state.players},
            "to_place": {s: len(unplaced_of(board, state.eaten, s)) for s in state.players},
            "stacks": {s: len(stacks_of(board, s)) for s in state.players},
            "can_move": {s: movegen.can_move(board, s) for s in state.players},
            "free_grues": sum(1 for stack in board if is_free_grue(stack)),
            "pinned": sum(1 for stack in board if is_pinned(stack)),
            "eaten": [p.to_json() for p in state.eaten],
            "empty_squares": sum(1 for stack in board if not stack),
            "outcome": outcome.to_json() if outcome else None,
        }

    def board_view(self, state: GGState) -> dict[str, Any]:
        cells = []
        for cell in CELLS:
            stack = state.stack(cell)
            seen = camera.visible(stack)
            if not stack:
                role = "empty"
            elif is_free_grue(stack):
                role = "grue"
            elif is_pinned(stack):
                role = "pinned"
            else:
                role = "gleeb"
            cells.append({
                "cell": [cell[0], cell[1]],
                "name": cell_name(cell),
                "role": role,
                "owner": controller(stack),
                "pips": pips(stack),
                "stack": [p.to_json() for p in stack],
                "visible": [p.to_json() for p in seen],
            })
        return {
            "kind": self.name,
            "size": [4, 4],
            "cells": cells,
            "eaten": [p.to_json() for p in state.eaten],
            "hands": {s: [p.to_json() for p in unplaced_of(state.board, state.eaten, s)]
                      for s in state.players},
            "grues_to_set": [p.to_json() for p in unplaced(state.board, state.eaten)
                             if p.is_grue],
            "active": state.active_seat,
            "stage": state.stage,
        }

    # -- playouts ---------------------------------------------------------------------------

    def random_move(self, state: GGState, rng: random.Random) -> Move:
        """The grues' setting is drawn uniformly over three distinct squares, as a table that
        drops them at random would; later moves are uniform over the legal ones."""
        if state.stage == "grues":
            small, medium, large = rng.sample(CELLS, 3)
            return SetGrues(small, medium, large)
        moves = self.legal_moves(state)
        if not moves:
            raise MalformedMove("no move: the game is over")
        return rng.choice(moves)


def _settings_near(black: set) -> list[SetGrues]:
    """Grue settings worth scoring for an observation showing black on ``black`` squares: all
    settings using only those squares when there are three or more; otherwise every setting
    that uses each of them (the rest of the squares free), so a grue the camera missed is still
    offered."""
    cells = sorted(black)
    if len(cells) >= 3:
        return [SetGrues(a, b, c) for a in cells for b in cells for c in cells]
    out = []
    for a in CELLS:
        for b in CELLS:
            for c in CELLS:
                used = {a, b, c}
                if all(cell in used for cell in cells):
                    out.append(SetGrues(a, b, c))
    return out

