"""The score and the end of the game.

A player scores the étages of their mountain (avalanches count for the height), plus one per
animal laid from the 4th étage up, plus, once they have shown their hand at the end, one per
Saint-Bernard kept and one more when nothing but Saint-Bernards is left in hand. The highest
total wins; players tied for it share the win (ruling).
"""

from __future__ import annotations

from companion.games.altitude import mountain as geo
from companion.games.altitude.state import PHASE_OVER, AltitudeState
from companion.games.base import Outcome


def breakdown(state: AltitudeState, i: int) -> dict[str, int]:
    """One player's score, item by item."""
    mountain = state.mountains[i]
    kept = state.kept[i] if state.kept else None
    parts = {
        "etages": geo.height(mountain),
        "animals": geo.animals_counted(state.manifest, mountain),
        "saint_bernards": kept.saint_bernards if kept is not None else 0,
        "empty_hand": kept.bonus if kept is not None else 0,
    }
    parts["total"] = sum(parts.values())
    return parts


def scores(state: AltitudeState) -> dict[str, int]:
    return {seat: breakdown(state, i)["total"] for i, seat in enumerate(state.players)}


def outcome(state: AltitudeState) -> Outcome | None:
    if state.phase != PHASE_OVER:
        return None
    table = scores(state)
    best = max(table.values())
    winners = tuple(seat for seat in state.players if table[seat] == best)
    if len(state.players) == 1:
        return Outcome(winners, f"Réussite terminée : {best} points.",
                       f"Solitaire finished: {best} points.", table)
    if len(winners) == 1:
        return Outcome(winners, f"La pioche est épuisée : {winners[0]} gagne avec {best} points.",
                       f"The deck is out: {winners[0]} wins with {best} points.", table)
    names = ", ".join(winners)
    return Outcome(winners, f"La pioche est épuisée : égalité à {best} points ({names}), la "
                            "victoire est partagée.",
                   f"The deck is out: {names} tie at {best} points and share the win.", table)
