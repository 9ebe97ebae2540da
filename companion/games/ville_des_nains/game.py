"""La Ville des Nains on the game contract: setup, and the contract's methods wired to the
modules that hold each job (resolve, movegen, camera, views, moves)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import (
    BadSetup, Candidate, Game, MalformedMove, Outcome, Verdict,
)
from companion.games.ville_des_nains import camera, judge, movegen, moves, views
from companion.games.ville_des_nains.components import (
    CARD_COUNT, DEALT, DWARF_SEATS, KOBOLD_SEAT, MAX_DWARVES, MIN_DWARVES, SEATS, stock,
)
from companion.games.ville_des_nains.moves import Move
from companion.games.ville_des_nains.options import VdnOptions, validate
from companion.games.ville_des_nains.resolve import resolve
from companion.games.ville_des_nains.state import ROLL, Building, VdnState
from companion.observation import Observation


def _deal(options: VdnOptions, dwarves: int, seed: int) -> list[tuple[int, ...]]:
    """Two cards per dwarf: as the table dealt them (option ``deal``), or from the seed."""
    if not options.deal.strip():
        ids = list(range(1, CARD_COUNT + 1))
        random.Random(seed).shuffle(ids)
        return [tuple(ids[DEALT * i:DEALT * (i + 1)]) for i in range(dwarves)]
    groups = [g.strip() for g in options.deal.split(";")]
    hands = []
    for g in groups:
        if not re.fullmatch(r"\d+\s*,\s*\d+", g):
            raise BadSetup(f"option deal: each dwarf's two cards as 'a,b', hands separated by "
                           f"';' in play order (e.g. '3,7;1,12'), not {g!r}")
        hands.append(tuple(int(x) for x in g.split(",")))
    if len(hands) != dwarves:
        raise BadSetup(f"option deal names {len(hands)} hand(s) for {dwarves} dwarves")
    flat = [c for h in hands for c in h]
    if len(set(flat)) != len(flat) or not all(1 <= c <= CARD_COUNT for c in flat):
        raise BadSetup(f"option deal: cards are numbered 1 to {CARD_COUNT}, each dealt once")
    return hands


class VilleDesNains(Game[VdnState, Move]):
    name = "ville-des-nains"
    title = "La Ville des Nains"
    rules_file = "ville-des-nains.fr.txt"
    min_players = MIN_DWARVES
    max_players = MAX_DWARVES + 1
    seats = SEATS
    options_type = VdnOptions

    # -- parameters and setup -----------------------------------------------------------------

    def _options(self, options: Any) -> VdnOptions:
        if options is None:
            options = VdnOptions()
        elif isinstance(options, Mapping):
            options = self.options_from_json(options)
        elif not isinstance(options, VdnOptions):
            raise BadSetup(f"options must be VdnOptions or their JSON, not "
                           f"{type(options).__name__}")
        validate(options)
        return options

    def setup(self, players: Sequence[str], options: Any = None, *, seed: int = 0) -> VdnState:
        opts = self._options(options)
        players = tuple(players)
        unknown = [p for p in players if p not in SEATS]
        if unknown:
            raise BadSetup(f"unknown seat(s) {', '.join(map(repr, unknown))}; dwarves sit at "
                           f"{', '.join(DWARF_SEATS)} and the kobold player (game 2) at "
                           f"{KOBOLD_SEAT}")
        if len(set(players)) != len(players):
            raise BadSetup("each seat can be taken once")
        dwarves = [p for p in players if p != KOBOLD_SEAT]
        if opts.game == 1 and KOBOLD_SEAT in players:
            raise BadSetup(f"in game 1 the kobold is the dice: no one sits at {KOBOLD_SEAT}; "
                           f"choose game 2 to have a kobold player")
        if opts.game == 2 and KOBOLD_SEAT not in players:
            raise BadSetup(f"game 2 needs the kobold player at seat {KOBOLD_SEAT}")
        if not MIN_DWARVES <= len(dwarves) <= MAX_DWARVES:
            raise BadSetup(f"La Ville des Nains is played by {MIN_DWARVES} to {MAX_DWARVES} "
                           f"dwarves (plus the kobold player in game 2), not {len(dwarves)}")
        hands = iter(_deal(opts, len(dwarves), seed))
        buildings = tuple(() if p == KOBOLD_SEAT else tuple(Building(c) for c in next(hands))
                          for p in players)
        dealt = {b.card for row in buildings for b in row}
        pool = stock(opts.cubes, opts.long_blocks, opts.cylinders, opts.roofs)
        return VdnState(players=players, options=opts, pool=pool, buildings=buildings,
                        talon=tuple(c for c in range(1, CARD_COUNT + 1) if c not in dealt),
                        tower=0, marked=0, turn=0, stage=ROLL, colour_dice=(), kobold_face=None,
                        dice_left=(), blue_left=0, kobold_left=0, destroy_left=False,
                        blocked=False, round=0, rolls=0)

    # -- the game -----------------------------------------------------------------------------

    def to_move(self, state: VdnState) -> str | None:
        return movegen.to_move(state)

    def legal_moves(self, state: VdnState) -> list[Move]:
        return movegen.legal_moves(state)

    def physical_moves(self, state: VdnState) -> list[Move]:
        return movegen.physical_moves(state)

    def check(self, state: VdnState, move: Move) -> Verdict:
        return judge.check(state, move)

    def apply(self, state: VdnState, move: Move) -> VdnState:
        return resolve(state, move).state

    def scores(self, state: VdnState) -> dict[str, int]:
        return views.scores(state)

    def outcome(self, state: VdnState) -> Outcome | None:
        return views.outcome(state)

    def random_move(self, state: VdnState, rng: random.Random) -> Move:
        return movegen.random_move(state, rng)

    # -- the camera ---------------------------------------------------------------------------

    def explain(self, state: VdnState, observation: Observation) -> float:
        return camera.explain(state, observation)

    def candidates(self, state: VdnState, observation: Observation) -> list[Candidate]:
        return camera.candidates(state, observation)

    def expected_observation(self, state: VdnState) -> Observation:
        return camera.expected_observation(state)

    # -- notation and JSON --------------------------------------------------------------------

    def notation(self, state: VdnState, move: Move) -> str:
        return moves.notation(move)

    def parse_notation(self, state: VdnState, text: str) -> Move:
        move = moves.parse(text)
        if move.seat not in state.players:
            raise MalformedMove(f"{move.seat} is not playing (players: {', '.join(state.players)})")
        return move

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return moves.to_json(move)

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return moves.from_json(data)

    # -- dashboard ----------------------------------------------------------------------------

    def status(self, state: VdnState) -> dict[str, Any]:
        return views.status(state, self.to_move(state))

    def board_view(self, state: VdnState) -> dict[str, Any]:
        return views.board_view(state)
