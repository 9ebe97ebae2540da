"""What players and the dashboard see of a game: scores, status, the board, the outcome.

The game is cooperative (the dwarves win or lose together against the kobold), so a dwarf's
score is a tally of progress, their finished buildings; the kobold player's (game 2) is the
height of its tower.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Outcome
from companion.games.ville_des_nains import rules
from companion.games.ville_des_nains.components import BLUE_STONES, COLOURS, SHAPES, STONE_KINDS
from companion.games.ville_des_nains.state import DWARVES, OVER, VdnState


def scores(state: VdnState) -> dict[str, int]:
    out = {}
    for i, seat in enumerate(state.players):
        if state.is_dwarf(i):
            out[seat] = sum(1 for b in state.buildings[i] if state.finished(b))
        else:
            out[seat] = state.tower
    return out


def outcome(state: VdnState) -> Outcome | None:
    if state.stage != OVER:
        return None
    if state.winner == DWARVES:
        rule = rules.END_BEACH if state.options.beach and not state.options.beach_all_cards \
            else rules.END_CITY
        winners = tuple(state.players[i] for i in state.dwarf_indices())
        return Outcome(winners=winners,
                       reason_fr="La ville est terminée : les nains gagnent tous ensemble. "
                                 f"({rule.paragraph})",
                       reason_en="The city is finished: the dwarves win together. "
                                 f"({rule.paragraph})",
                       scores=scores(state))
    k = state.kobold_index()
    rule = rules.END_KOBOLD if k is None else rules.END_KOBOLD_PLAYER
    return Outcome(winners=("kobold",) if k is None else (state.players[k],),
                   reason_fr=f"La tour du kobold a ses {BLUE_STONES} pierres : le kobold gagne, "
                             f"les nains perdent ensemble. ({rule.paragraph})",
                   reason_en=f"The kobold's tower has its {BLUE_STONES} stones: the kobold wins, "
                             f"the dwarves lose together. ({rule.paragraph})",
                   scores=scores(state))


def _buildings(state: VdnState, i: int) -> list[dict[str, Any]]:
    out = []
    for b, building in enumerate(state.buildings[i]):
        card = state.card(building.card)
        out.append({
            "index": b,
            "card": None if state.options.beach else building.card,
            "name": {"fr": card.name_fr, "en": card.name_en} if not state.options.beach
            else {"fr": "tour de plage", "en": "beach tower"},
            "plan": None if state.options.beach else list(card.shapes),
            "need": state.need(building),
            "stones": [{"colour": c, "shape": s} for c, s in building.stones],
            "finished": state.finished(building),
        })
    return out


def status(state: VdnState, active: str | None) -> dict[str, Any]:
    return {
        "players": list(state.players),
        "active": active,
        "scores": scores(state),
        "round": state.round,
        "phase": state.stage,
        "game": state.options.game,
        "side": state.options.side,
        "turn": state.players[state.turn],
        "dice": {"colour": list(state.colour_dice), "kobold": state.kobold_face},
        "dice_left": list(state.dice_left),
        "blue_to_draw": state.blue_left,
        "kobold_to_add": state.kobold_left,
        "kobold_may_destroy": state.destroy_left,
        "nothing_to_take": state.blocked,
        "kobold_tower": state.tower,
        "kobold_tower_max": BLUE_STONES,
        "marked_seen": state.marked,
        "talon": len(state.talon),
        "pool": sum(state.pool),
        "buildings": {state.players[i]: [
            {"stones": len(b.stones), "need": state.need(b), "finished": state.finished(b)}
            for b in state.buildings[i]] for i in state.dwarf_indices()},
        "winner": state.winner,
    }


def board_view(state: VdnState) -> dict[str, Any]:
    pool: dict[str, dict[str, int]] = {c: {s: 0 for s in SHAPES} for c in COLOURS}
    for (colour, shape), n in zip(STONE_KINDS, state.pool):
        pool[colour][shape] = n
    k = state.kobold_index()
    return {
        "kind": "ville-des-nains",
        "game": state.options.game,
        "side": state.options.side,
        "stage": state.stage,
        "turn": state.players[state.turn],
        "tray": {"colour": list(state.colour_dice), "kobold": state.kobold_face,
                 "unused": list(state.dice_left)},
        "pool": pool,
        "kobold": {"height": state.tower, "max": BLUE_STONES, "marked": state.marked,
                   "player": None if k is None else state.players[k]},
        "talon": len(state.talon),
        "players": [{"seat": seat, "role": "dwarf" if state.is_dwarf(i) else "kobold",
                     "buildings": _buildings(state, i) if state.is_dwarf(i) else []}
                    for i, seat in enumerate(state.players)],
        "winner": state.winner,
    }
