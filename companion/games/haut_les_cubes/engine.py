"""Haut les Cubes on the game contract."""

from __future__ import annotations

import bisect
import random
from typing import Any, Mapping, Sequence

from companion.games.base import (
    AmbiguousMove, BadSetup, Candidate, Game, MalformedMove, Outcome, Verdict,
)
from companion.games.haut_les_cubes import actions, camera, judge, moves, transitions
from companion.games.haut_les_cubes.cards import CARDS, DECK, DECK_SIZE, MOAVEOU, NENLEVSA
from companion.games.haut_les_cubes.geometry import (
    cube_contact, footprint, neighbours,
)
from companion.games.haut_les_cubes.moves import Move, Pile, Place, Play
from companion.games.haut_les_cubes.state import (
    PHASE_OVER, PHASE_PLACEMENT, PHASE_PLAY, SEATS, HlcOptions, HlcState, start_layout,
    start_reserve,
)
from companion.observation import Observation


#: copies of each card design, in CARDS order
_COPIES = tuple(DECK[c] for c in CARDS)


def _draw_card(seen: tuple[int, ...], rng: random.Random) -> str:
    """A card drawn with the odds of the copies not yet seen since the last shuffle.

    This is ``rng.choices(available, weights=copies left)`` written out (one ``rng.random()``
    and a bisection, exactly as :meth:`random.Random.choices` does, so the same seed draws the
    same card): random playouts call it once a move."""
    cards: list[str] = []
    cumulative: list[int] = []
    total = 0
    for card, copies, used in zip(CARDS, _COPIES, seen):
        if copies > used:
            total += copies - used
            cards.append(card)
            cumulative.append(total)
    return cards[bisect.bisect(cumulative, rng.random() * (total + 0.0), 0, len(cards) - 1)]


class HautLesCubes(Game[HlcState, Move]):
    """Haut les Cubes: build mountains of cubes, jump from them, first to 25 (3–6 players).

    Seats are the giants' colours; ``players`` lists them clockwise from the first player (the
    tallest, says the rule). The rulings that fill the text's gaps are in ``docs/rulings.md``.

    ``board_view`` gives ``{"kind": "haut-les-cubes", "cubes": [[x, y, z], ...], "heights":
    [[x, y, h], ...], "giants": [{"seat", "cell": [x, y], "level"}], "squares": [[x, y], ...]
    (free squares a giant may stand on), "last_card"}`` in lattice cells (half a cube wide).
    """

    name = "haut-les-cubes"
    title = "Haut les Cubes"
    rules_file = "haut-les-cubes.fr.txt"
    min_players = 3
    max_players = 6
    seats = SEATS
    options_type = HlcOptions
    #: a giant gone from plain view with no card read in the empty zone may have been taken out
    #: of sight by a card the camera cannot read: the referee asks where it went
    #: (:func:`companion.referee.decide.decide`) rather than take the giant for misread
    asks_out_of_sight = True

    # -- the game -----------------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Any = None, *, seed: int = 0) -> HlcState:
        players = tuple(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(f"Haut les Cubes is played by 3 to 6 players, not {len(players)}")
        unknown = [p for p in players if p not in SEATS]
        if unknown:
            raise BadSetup(f"unknown giant colour(s): {', '.join(unknown)}; "
                           f"the giants are {', '.join(SEATS)}")
        if len(set(players)) != len(players):
            raise BadSetup("each player takes a different giant")
        if options is None:
            options = HlcOptions()
        elif isinstance(options, Mapping):
            options = self.options_from_json(options)
        n = len(players)
        return HlcState(
            players=players, options=options, cubes=start_layout(n), giants=(None,) * n,
            reserves=(start_reserve(n),) * n, scores=(0,) * n, reached=(0,) * n,
            hands=(0,) * n, phase=PHASE_PLACEMENT, round=0, first=0, turn=0, deck=DECK_SIZE,
            discard=0, played_round=0, seen=(0,) * len(CARDS), clock=0,
        )

    def to_move(self, state: HlcState) -> str | None:
        return state.active

    def legal_moves(self, state: HlcState) -> list[Move]:
        if state.phase == PHASE_PLACEMENT:
            return list(actions.placements(state))
        if state.phase != PHASE_PLAY or state.turn is None:
            return []
        out: list[Move] = [Pile()] if state.last_card is not None else []
        for card in self._available_cards(state):
            found = actions.actions(state, state.turn, card)
            if not found or (card == "pousstoia" and state.options.push_void_optional
                             and not actions.pushes(state, state.turn)):
                found.append(Play(state.players[state.turn], card))
            out.extend(found)
        return out

    def physical_moves(self, state: HlcState) -> list[Move]:
        """Legal moves plus the illegal ones players make: a cube on a half-empty base or away
        from the mountain, a Moavéou climb of two levels or a step too far, a push uphill or
        sideways, a long Hoplà upwards, a slingshot on a neighbour, a card's action left undone."""
        out = list(self.legal_moves(state))
        if state.phase != PHASE_PLAY or state.turn is None:
            return out
        seat = state.turn
        player = state.players[seat]
        pos = state.giants[seat]
        xr, yr = actions.bbox(state, 3)
        for x in xr:
            for y in yr:
                z = actions.cube_level(state, x, y)
                hs = [state.height(c) for c in footprint(x, y)]
                if (z > 0 and hs.count(z) >= 2 and min(hs) < z) or (
                        z == 0 and not cube_contact(x, y, state.heights)
                        and any(state.height((cx, cy)) > 0 for cx in range(x - 2, x + 4)
                                for cy in range(y - 2, y + 4))):
                    out.append(Play(player, "napozla", cube=(x, y, z)))
        if pos is not None:
            taken = state.occupied()
            level = state.height(pos)
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    to = (pos[0] + dx, pos[1] + dy)
                    if to == pos or to in taken:
                        continue
                    far = max(abs(dx), abs(dy)) == 2
                    if far or state.height(to) > level + 1:
                        out.append(Play(player, MOAVEOU, to=to))
            for v, vpos in enumerate(state.giants):
                if v != seat and vpos is not None and max(abs(vpos[0] - pos[0]), abs(vpos[1] - pos[1])) == 1:
                    for n in neighbours(vpos):
                        if n not in taken and n != pos:
                            out.append(Play(player, "pousstoia", target=state.players[v], to=n))
        for card in self._available_cards(state):
            if actions.possible(state, seat, card):
                out.append(Play(player, card))
        return list(dict.fromkeys(m for m in out if self._physically_possible(state, m)))

    def _physically_possible(self, state: HlcState, move: Move) -> bool:
        try:
            self.apply(state, move)
        except MalformedMove:
            return False
        return True

    def _available_cards(self, state: HlcState) -> list[str]:
        return [c for i, c in enumerate(CARDS) if state.seen[i] < DECK[c]]

    def check(self, state: HlcState, move: Move) -> Verdict:
        return judge.check(state, move)

    def apply(self, state: HlcState, move: Move) -> HlcState:
        verdict = judge.check(state, move)
        return transitions.apply(state, move, verdict)

    def scores(self, state: HlcState) -> dict[str, int]:
        return dict(zip(state.players, state.scores))

    def outcome(self, state: HlcState) -> Outcome | None:
        if state.phase != PHASE_OVER:
            return None
        top = max(state.scores)
        tied = [i for i, s in enumerate(state.scores) if s == top]
        winner = min(tied, key=lambda i: state.reached[i])
        name = state.players[winner]
        if len(tied) > 1:
            fr = (f"{name} gagne avec {top} points : à égalité, c'est le premier à avoir atteint "
                  "ce score qui l'emporte.")
            en = f"{name} wins with {top} points: on a tie, the first to reach that score wins."
        else:
            fr, en = f"{name} gagne avec {top} points.", f"{name} wins with {top} points."
        if top < 25:
            fr += " (Plus aucune carte ne peut être distribuée.)"
            en += " (No card is left to deal.)"
        return Outcome(winners=(name,), reason_fr=fr, reason_en=en, scores=self.scores(state))

    # -- the camera ---------------------------------------------------------------------------

    def explain(self, state: HlcState, observation: Observation) -> float:
        return camera.explain(state, observation)

    def candidates(self, state: HlcState, observation: Observation) -> list[Candidate]:
        return camera.candidates(self, state, observation)

    def expected_observation(self, state: HlcState) -> Observation:
        return camera.expected_observation(state)

    def display_word(self, state: HlcState, move: Move) -> str | None:
        """PUSH for a push, SLING for the slingshot, HOPLA for a jump, JUMP for a scoring one."""
        if not isinstance(move, Play) or move.is_null:
            return None
        if move.card == "pousstoia" and move.target is not None:
            return "PUSH"
        if move.card == "tvavoartoa":
            return "SLING"
        if move.card == "hopla":
            return "HOPLA"
        if move.card == MOAVEOU and judge.check(state, move).score_delta:
            return "JUMP"
        return None

    def hide_for_question(self, state: HlcState, observation: Observation) -> Observation:
        """The played card unreadable (laid face down, or covered)."""
        from dataclasses import replace
        return replace(observation, pieces=tuple(p for p in observation.pieces if p.kind != "card"))

    # -- notation and JSON --------------------------------------------------------------------

    def notation(self, state: HlcState, move: Move) -> str:
        text = moves.notation(move)
        if isinstance(move, Play) and move.card == MOAVEOU and move.to is not None:
            seat = state.players.index(move.seat) if move.seat in state.players else None
            pos = state.giants[seat] if seat is not None else None
            if pos is not None:
                drop = state.height(pos) - state.height(move.to)
                if drop > 0:
                    verdict = judge.check(state, move)
                    points = verdict.score_delta.get(move.seat, 0)
                    text += f" (↓{drop} +{points})" if points else f" (↓{drop})"
        return text

    def parse_notation(self, state: HlcState, text: str) -> Move:
        def level(x: int, y: int) -> int:
            return actions.cube_level(state, x, y)

        move = moves.parse(text, default_level=level)
        if isinstance(move, Play) and move.card == NENLEVSA and move.cube is not None:
            x, y, z = move.cube
            if move.cube not in state.cubes and "^" not in text:
                tops = [c for c in state.cubes if c[0] == x and c[1] == y]
                if tops:
                    move = Play(move.seat, move.card, cube=max(tops, key=lambda c: c[2]),
                                relocate=move.relocate)
            if (not move.relocate and move.cube in state.cubes and move.seat in state.players
                    and actions.removable(state, move.cube)):
                options = actions.relocation_options(
                    state, move.cube, state.players.index(move.seat))
                if len(options) > 1:
                    raise AmbiguousMove(
                        f"{text!r}: say where the isolated giants go",
                        [Play(move.seat, move.card, cube=move.cube, relocate=o) for o in options])
                if options and options[0]:
                    move = Play(move.seat, move.card, cube=move.cube, relocate=options[0])
        return move

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return moves.to_json(move)

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        return moves.from_json(data)

    # -- for the dashboard and the board -------------------------------------------------------

    def status(self, state: HlcState) -> dict[str, Any]:
        return {
            "players": list(state.players),
            "active": state.active,
            "scores": self.scores(state),
            "round": state.round,
            "phase": state.phase,
            "first": state.players[state.first],
            "hands": dict(zip(state.players, state.hands)),
            "reserves": dict(zip(state.players, state.reserves)),
            "levels": {p: state.level_of(i) for i, p in enumerate(state.players)},
            "deck": state.deck,
            "discard": state.discard,
            "played": state.played_round,
            "cards_played": state.clock,
            "last_card": state.last_card,
            "zone": state.last_card,
        }

    def board_view(self, state: HlcState) -> dict[str, Any]:
        taken = state.occupied()
        return {
            "kind": self.name,
            "cubes": [list(c) for c in sorted(state.cubes, key=lambda c: (c[2], c[1], c[0]))],
            "heights": [[x, y, h] for (x, y), h in sorted(state.heights.items())],
            "giants": [{"seat": s, "cell": list(p), "level": state.height(p)}
                       for s, p in zip(state.players, state.giants) if p is not None],
            "squares": [list(c) for c in sorted(state.mountain.squares) if c not in taken],
            "last_card": state.last_card,
        }

    # -- playouts -----------------------------------------------------------------------------

    def random_move(self, state: HlcState, rng: random.Random) -> Move:
        """The card is drawn with the odds of the cards not yet seen since the last shuffle, then
        one of its effects at random (or the discard when it has none): for Nenlèvsa a removable
        cube, then where its isolated giants go; for the others one of the legal actions."""
        if state.phase == PHASE_PLACEMENT:
            return rng.choice(actions.placements(state))
        if state.phase != PHASE_PLAY or state.turn is None:
            raise MalformedMove("no move: the game is over")
        card = _draw_card(state.seen, rng)
        seat = state.turn
        if card == NENLEVSA:
            cubes = actions.removable_tops(state)
            if cubes and len(state.cubes) > 1:
                cube = rng.choice(cubes)
                option = rng.choice(actions.relocation_options(state, cube, seat))
                return Play(state.players[seat], card, cube=cube, relocate=option)
            return Play(state.players[seat], card)
        return actions.sample(state, seat, card, rng) or Play(state.players[seat], card)
