"""Small helpers for the referee tests (Haut les Cubes as the example game)."""

from __future__ import annotations

from dataclasses import replace

from companion.games import get_game
from companion.games.haut_les_cubes.cards import DECK_SIZE
from companion.observation import Observation, Piece

HLC = get_game("haut-les-cubes")
PLAYERS = ["red", "blue", "green"]


def placed(referee):
    """Place the three giants through the referee, from observations."""
    for seat, cell in (("red", (-4, 0)), ("blue", (-4, -1)), ("green", (3, 1))):
        state = referee.state
        after = HLC.apply(state, HLC.parse_notation(state, f"{seat}: @{cell[0]},{cell[1]}"))
        referee.observe(HLC.expected_observation(after), actor="camera")
    return referee


def seen_after(state, notation: str, *, card: bool = True) -> Observation:
    after = HLC.apply(state, HLC.parse_notation(state, notation))
    obs = HLC.expected_observation(after)
    if not card:
        obs = replace(obs, pieces=tuple(p for p in obs.pieces if p.kind != "card"))
    return obs


def shifted(obs: Observation, dx: int, dy: int) -> Observation:
    return replace(obs, pieces=tuple(
        replace(p, cell=(p.cell[0] + dx, p.cell[1] + dy)) if p.cell else p for p in obs.pieces))


def with_piece(obs: Observation, piece: Piece) -> Observation:
    return replace(obs, pieces=obs.pieces + (piece,))


def total_cards(state) -> int:
    return state.cards_total() == DECK_SIZE


def play(referee, notation: str, *, card: bool = True):
    """The active player clears the zone (if a card lies there) and makes a move, as the
    camera sees it. Returns the events of the move itself."""
    if referee.state.last_card is not None:
        referee.observe(seen_after(referee.state, "pile"))
    return referee.observe(seen_after(referee.state, notation, card=card))
