"""Terra Turrium on the game contract (see the package docstring for the rulings)."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from companion.games.base import (
    BadOptions, BadSetup, Candidate, Game, MalformedMove, Outcome, Verdict,
)
from companion.games.terra_turrium import board, camera, movegen, moves
from companion.games.terra_turrium.moves import Move
from companion.games.terra_turrium.state import (
    CAPTURE_TABLES, PHASE_LAYOUT, PHASE_OVER, PHASE_PLAY, TerraTurriumOptions,
    TerraTurriumState, initial_state, progress,
)
from companion.games.terra_turrium.table import Table, run
from companion.observation import Observation


class TerraTurrium(Game[TerraTurriumState, Move]):
    name = "terra-turrium"
    title = "Terra Turrium"
    rules_file = "terra-turrium.fr.txt"
    min_players = 2
    max_players = 4
    seats = board.SEATS
    options_type = TerraTurriumOptions

    # -- parameters ---------------------------------------------------------------------------

    def options_from_json(self, data: Mapping[str, Any] | None) -> TerraTurriumOptions:
        options = super().options_from_json(data)
        self._check_options(options)
        return options

    @staticmethod
    def _check_options(options: TerraTurriumOptions) -> None:
        if options.capture_costs not in CAPTURE_TABLES:
            raise BadOptions(f"option capture_costs must be one of "
                             f"{', '.join(sorted(CAPTURE_TABLES))}, not "
                             f"{options.capture_costs!r}")

    def setup(self, players: Sequence[str], options: Any = None, *,
              seed: int = 0) -> TerraTurriumState:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise BadSetup("players must be a list of seats, such as [\"red\", \"blue\"]")
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(f"Terra Turrium is played by 2 to 4 players, not {len(players)}")
        unknown = [p for p in players if p not in board.SEATS]
        if unknown:
            raise BadSetup(f"unknown seat(s) {', '.join(map(str, unknown))}; the seats are "
                           f"{', '.join(board.SEATS)}")
        if len(set(players)) != len(players):
            raise BadSetup("each seat can be taken only once")
        if options is None:
            options = self.default_options()
        elif isinstance(options, Mapping):
            options = self.options_from_json(options)
        elif not isinstance(options, TerraTurriumOptions):
            raise BadOptions(f"options must be TerraTurriumOptions or a JSON object, not "
                             f"{type(options).__name__}")
        self._check_options(options)
        return initial_state(players, options)

    # -- the game -----------------------------------------------------------------------------

    def to_move(self, state: TerraTurriumState) -> str | None:
        if state.phase == PHASE_OVER:
            return None
        if state.phase == PHASE_LAYOUT:
            return next(seat for seat, left in zip(state.players, state.reserve) if left)
        return state.active_seat

    def legal_moves(self, state: TerraTurriumState) -> list[Move]:
        return movegen.legal_moves(state)

    def physical_moves(self, state: TerraTurriumState) -> list[Move]:
        return movegen.physical_moves(state)

    def check(self, state: TerraTurriumState, move: Move) -> Verdict:
        self._is_move(move)
        return run(state, move).verdict(move)

    def apply(self, state: TerraTurriumState, move: Move) -> TerraTurriumState:
        self._is_move(move)
        return run(state, move).freeze()

    @staticmethod
    def _is_move(move: Any) -> None:
        if not isinstance(move, Move):
            raise MalformedMove(f"not a Terra Turrium move: {move!r}")

    def scores(self, state: TerraTurriumState) -> dict[str, int]:
        return {seat: progress(state.heights, state.flags, seat) for seat in state.players}

    def outcome(self, state: TerraTurriumState) -> Outcome | None:
        if state.phase != PHASE_OVER:
            return None
        names = ", ".join(state.winners)
        several = len(state.winners) > 1
        return Outcome(
            winners=state.winners,
            reason_fr=(f"{names} : six drapeaux sur des tours de hauteurs 1 à 6"
                       + (" (vainqueurs ex aequo, tour de table terminé)" if several else "")),
            reason_en=(f"{names}: six flags on towers of heights 1 to 6"
                       + (" (co-winners, the round completed)" if several else "")),
            scores=self.scores(state),
        )

    # -- the camera ---------------------------------------------------------------------------

    def explain(self, state: TerraTurriumState, observation: Observation) -> float:
        return camera.explain(state, observation)

    def candidates(self, state: TerraTurriumState, observation: Observation) -> list[Candidate]:
        return camera.candidates(state, observation, self.notation)

    def expected_observation(self, state: TerraTurriumState) -> Observation:
        return camera.expected_observation(state)

    # -- notation and JSON --------------------------------------------------------------------

    def notation(self, state: TerraTurriumState, move: Move) -> str:
        table = Table(state)
        try:
            table.play_move(move)
        except MalformedMove:
            # a move that cannot be played from here is still written, without its seats
            seats = [None] * len(move.actions)
            return moves.render(move, seats, [False] * len(move.actions))
        return moves.render(move, table.seats, table.captures)

    def parse_notation(self, state: TerraTurriumState, text: str) -> Move:
        move, prefixes = moves.parse(text)
        table = Table(state)
        table.play_move(move)
        for index, seat in prefixes:
            if index < len(table.seats) and table.seats[index] not in (None, seat):
                raise MalformedMove(f"{text!r}: {seat} is written where it is "
                                    f"{table.seats[index]}'s turn")
        return move

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return moves.to_json(move)

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return moves.from_json(data)

    # -- for the dashboard and the board -------------------------------------------------------

    def status(self, state: TerraTurriumState) -> dict[str, Any]:
        phase = state.phase if state.phase != PHASE_PLAY else state.stage
        return {
            "players": list(state.players),
            "active": self.to_move(state),
            "scores": self.scores(state),
            "round": state.round,
            "phase": phase,
            "taken": [board.name(s) for s in state.taken],
            "in_hand": state.in_hand,
            "movement_points": state.mp if state.phase == PHASE_PLAY else None,
            "attacks": dict(zip(state.players, state.attacks)),
            "attacks_left": {seat: max(0, board.MAX_ATTACKS - n)
                             for seat, n in zip(state.players, state.attacks)},
            "flags_off_board": dict(zip(state.players, state.reserve)),
            "winners": list(state.winners),
            "final_round": bool(state.winners) and state.phase != PHASE_OVER,
            "blocks": {"on_board": state.blocks_on_board(), "off_board": state.off_board,
                       "total": state.start_blocks},
            "options": dataclasses.asdict(state.options),
        }

    def board_view(self, state: TerraTurriumState) -> dict[str, Any]:
        cells = []
        for sq in range(board.SQUARES):
            x, y = board.xy(sq)
            here = state.flags_at(sq)
            cells.append({
                "x": x, "y": y, "name": board.name(sq), "height": state.heights[sq],
                "territory": board.territory(sq),
                "neutral": board.territory(sq) not in state.players,
                "exterior": state.heights[sq] > 0 and board.is_exterior(state.heights, sq),
                "flag": here[0] if here else None,
                "flags": list(here),
            })
        return {
            "kind": self.name,
            "size": board.SIZE,
            "columns": board.COLUMNS,
            "territories": {colour: {"x": [0, 4] if colour in ("red", "green") else [5, 9],
                                     "y": [0, 4] if colour in ("red", "yellow") else [5, 9],
                                     "player": colour in state.players}
                            for colour in board.SEATS},
            "cells": cells,
            "flags": [{"colour": c, "cell": list(board.xy(s)), "name": board.name(s),
                       "height": state.heights[s]} for s, c in state.flags],
            "aggression": dict(zip(state.players, state.attacks)),
            "flags_off_board": dict(zip(state.players, state.reserve)),
            "active": self.to_move(state),
            "stage": state.stage if state.phase == PHASE_PLAY else state.phase,
            "taken": [board.name(s) for s in state.taken],
            "in_hand": state.in_hand,
            "movement_points": state.mp if state.phase == PHASE_PLAY else None,
            "blocks": {"on_board": state.blocks_on_board(), "off_board": state.off_board,
                       "total": state.start_blocks},
            "winners": list(state.winners),
        }
