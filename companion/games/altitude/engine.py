"""Altitude (the card mountain) on the game contract."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any, Mapping, Sequence

from companion.games.altitude import camera, movegen, moves, playout, scoring, transitions
from companion.games.altitude import mountain as geo
from companion.games.altitude.judge import validate
from companion.games.altitude.manifest import resolve_manifest
from companion.games.altitude.moves import (
    DISCARD, DRAWN, FROM_DISCARD, GIVE, HAND, LAY, REPLACE, RESCUE, Move,
)
from companion.games.altitude.verdict import judge_move
from companion.games.altitude.state import (
    DEAL, HAND as HAND_SIZE, PHASE_END, PHASE_MAIN, AltitudeOptions, AltitudeState,
    counter_tuple,
)
from companion.games.base import BadOptions, BadSetup, Candidate, Game, MalformedMove, Outcome, \
    Verdict
from companion.observation import Observation


class Altitude(Game[AltitudeState, Move]):
    name = "altitude"
    title = "Altitude (la montagne de cartes)"
    rules_file = "montagne-de-cartes.fr.txt"
    min_players = 1
    max_players = 4
    seats = ("red", "yellow", "blue", "green")
    options_type = AltitudeOptions

    # -- parameters and setup -----------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Any = None, *, seed: int = 0
              ) -> AltitudeState:
        """The table after the deal. Each player was dealt 6 cards, kept 4 and put 2 back into
        the deck; none of it is seen, so the state holds the counts: 4 in each hand, the rest
        in the deck, every card unseen. The first seat plays first (the youngest player). The
        shuffle is not modelled (the table never sees the deck's order), so ``seed`` changes
        nothing here; playouts draw with their own random source."""
        if options is None:
            options = self.default_options()
        elif isinstance(options, Mapping):
            options = self.options_from_json(options)
        elif not isinstance(options, AltitudeOptions):
            raise BadOptions(f"options for {self.name} are {AltitudeOptions.__name__}, not "
                             f"{type(options).__name__}")
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(f"{self.name} is played by {self.min_players} to {self.max_players} "
                           f"players, not {len(players)}")
        unknown = [p for p in players if p not in self.seats]
        if unknown:
            raise BadSetup(f"unknown seat(s) {', '.join(map(str, unknown))}; the seats are "
                           f"{', '.join(self.seats)}")
        if len(set(players)) != len(players):
            raise BadSetup("each seat can be taken once")
        manifest = resolve_manifest(options.manifest)
        if manifest.size < DEAL * len(players):
            raise BadSetup(f"the deck {manifest.name!r} has {manifest.size} cards: dealing "
                           f"{DEAL} to each of {len(players)} players needs "
                           f"{DEAL * len(players)}")
        n = len(players)
        return AltitudeState(
            manifest=manifest, players=players, mountains=((),) * n, hands=(HAND_SIZE,) * n,
            unseen=counter_tuple(Counter(manifest.counts())),
            deck=manifest.size - HAND_SIZE * n, kept=(None,) * n)

    # -- the game -----------------------------------------------------------------------------

    def to_move(self, state: AltitudeState) -> str | None:
        return state.active_seat

    def legal_moves(self, state: AltitudeState) -> list[Move]:
        return movegen.legal_moves(state)

    def physical_moves(self, state: AltitudeState) -> list[Move]:
        return movegen.physical_moves(state)

    def check(self, state: AltitudeState, move: Move) -> Verdict:
        if not isinstance(move, Move):
            raise MalformedMove(f"not an Altitude move: {move!r}")
        return judge_move(state, move)[0]

    def apply(self, state: AltitudeState, move: Move) -> AltitudeState:
        if not isinstance(move, Move):
            raise MalformedMove(f"not an Altitude move: {move!r}")
        return transitions.apply(state, move)

    def scores(self, state: AltitudeState) -> dict[str, int]:
        return scoring.scores(state)

    def outcome(self, state: AltitudeState) -> Outcome | None:
        return scoring.outcome(state)

    # -- the camera ---------------------------------------------------------------------------

    def explain(self, state: AltitudeState, observation: Observation) -> float:
        return camera.explain(state, observation)

    def candidates(self, state: AltitudeState, observation: Observation) -> list[Candidate]:
        return camera.candidates(state, observation)

    def expected_observation(self, state: AltitudeState) -> Observation:
        return camera.expected_observation(state)

    # -- notation and JSON --------------------------------------------------------------------

    def notation(self, state: AltitudeState, move: Move) -> str:
        shown = None
        if move.kind == LAY and move.shows is not None and move.seat in state.players:
            shown = state.hands[state.players.index(move.seat)] - len(move.lays)
        return moves.notation(move, shown)

    def parse_notation(self, state: AltitudeState, text: str) -> Move:
        move, stated = moves.parse(text)
        move = self._infer_source(state, move, text)
        validate(state, move)
        if stated is not None and move.kind == LAY:
            left = state.hands[state.players.index(move.seat)] - len(move.lays)
            if stated != left:
                raise MalformedMove(f"{text!r}: {move.seat} keeps {left} card(s), not {stated}")
        return move

    @staticmethod
    def _infer_source(state: AltitudeState, move: Move, text: str) -> Move:
        """A notation without 'from ...' names the drawn card; where that cannot be (after the
        deck is out, or a card other than the one shown), the only place it can come from."""
        if move.source != DRAWN or move.card is None or move.kind == "draw":
            return move
        if state.phase == PHASE_END and move.kind in (DISCARD, GIVE, REPLACE, RESCUE):
            return dataclasses.replace(move, source=HAND)
        if state.phase != PHASE_MAIN:
            return move
        if state.drawn is not None and move.card != state.drawn:
            if state.unseen_count(move.card):
                return dataclasses.replace(move, source=HAND)
        elif state.drawn is None and not state.unseen_count(move.card) and state.discard \
                and state.discard[-1] == move.card:
            return dataclasses.replace(move, source=FROM_DISCARD)
        return move

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return moves.to_json(move)

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return moves.from_json(data)

    # -- for the dashboard and the board --------------------------------------------------------

    def status(self, state: AltitudeState) -> dict[str, Any]:
        outcome = scoring.outcome(state)
        return {
            "players": list(state.players),
            "active": state.active_seat,
            "scores": scoring.scores(state),
            "round": state.round,
            "phase": state.phase,
            "stage": "drawn" if state.drawn is not None else "draw",
            "drawn": state.drawn,
            "plays": {"this_turn": state.turn_plays, "left": state.plays_left},
            "deck": state.deck,
            "hands": dict(zip(state.players, state.hands)),
            "heights": {seat: state.height(i) for i, seat in enumerate(state.players)},
            "discard": {"top": state.discard[-1] if state.discard else None,
                        "count": len(state.discard)},
            "unseen": state.unseen_total,
            "end_queue": [state.players[j] for j in state.end_queue],
            "kept": {seat: (None if k is None else
                            {"cards": k.cards, "saint_bernards": k.saint_bernards})
                     for seat, k in zip(state.players, state.kept)},
            "breakdown": {seat: scoring.breakdown(state, i)
                          for i, seat in enumerate(state.players)},
            "deck_name": state.manifest.name,
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def board_view(self, state: AltitudeState) -> dict[str, Any]:
        m = state.manifest
        mountains = {}
        for seat, mountain in zip(state.players, state.mountains):
            cards = geo.as_dict(mountain)
            mountains[seat] = {
                "height": geo.height(mountain),
                "base": geo.base_count(cards),
                "cards": [{"card": c, "etage": k, "pos": p, "x": p + (k - 1) / 2,
                           "kind": m.kind(c), "value": m[c].value, "animal": m[c].animal,
                           "label": m[c].label(),
                           "covered": geo.is_covered(cards, (k, p))}
                          for k, p, c in mountain],
            }
        return {
            "kind": self.name,
            "players": list(state.players),
            "active": state.active_seat,
            "phase": state.phase,
            "mountains": mountains,
            "discard": {"top": state.discard[-1] if state.discard else None,
                        "count": len(state.discard)},
            "deck": state.deck,
            "drawn": state.drawn,
            "hands": dict(zip(state.players, state.hands)),
        }

    # -- playouts -----------------------------------------------------------------------------

    def random_move(self, state: AltitudeState, rng: random.Random) -> Move:
        return playout.random_move(state, rng)
