"""Where a stone can go now, and which stones the dice give: the per-die ruling in one place.

A die gives a stone only if one of its colour (any colour for white) is on the table in a shape
that some building the player may build on accepts right now: stone side, the next shape of the
card (build order); beach side, any shape on a tower under seven. The player builds on their own
buildings, and on a new card's building when a card is due; with nothing of their own left to
build and no card left, on the other dwarves' buildings (they give their colours away).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.ville_des_nains.components import COLOURS, SHAPES, STONE_INDEX, WHITE, Stone
from companion.games.ville_des_nains.state import Building, VdnState


@dataclass(frozen=True)
class Spot:
    """A building that accepts a stone now: ``new_card`` is the card taken to start it (None for
    a building already there), ``shapes`` the shapes it accepts."""

    seat: int
    building: int
    new_card: int | None
    shapes: tuple[str, ...]


def spots(state: VdnState, me: int) -> list[Spot]:
    """Every building ``me``'s dice may build on now, with the shapes each accepts."""
    out: list[Spot] = []
    if state.has_work(me):
        owners = [me]
    else:
        owners = [j for j in state.dwarf_indices() if j != me]
    for j in owners:
        for b, building in enumerate(state.buildings[j]):
            if state.finished(building):
                continue
            shape = state.next_shape(building)
            out.append(Spot(j, b, None, SHAPES if shape is None else (shape,)))
    if state.has_work(me) and state.owed_card(me) and state.talon:
        new = len(state.buildings[me])
        if state.options.beach:
            out.append(Spot(me, new, state.talon[0], SHAPES))
        else:
            for card in state.talon:
                out.append(Spot(me, new, card, (state.card(card).shapes[0],)))
    return out


def die_colours(face: str) -> tuple[str, ...]:
    return COLOURS if face == WHITE else (face,)


def options_for(state: VdnState, me: int) -> list[tuple[Spot, Stone]]:
    """Every (building, stone) that one of ``me``'s unused dice gives now."""
    colours: list[str] = []
    for face in dict.fromkeys(state.dice_left):
        colours += [c for c in die_colours(face) if c not in colours]
    out = []
    for spot in spots(state, me):
        for shape in spot.shapes:
            for colour in colours:
                if state.in_pool((colour, shape)) > 0:
                    out.append((spot, (colour, shape)))
    return out


def place(state: VdnState, spot: Spot, stone: Stone, face: str) -> VdnState:
    """The state after ``stone`` is built on ``spot`` with the die showing ``face`` (no judging:
    used to look ahead)."""
    rows = list(state.buildings)
    row = list(rows[spot.seat])
    talon = state.talon
    if spot.new_card is not None:
        row.append(Building(spot.new_card))
        talon = tuple(c for c in talon if c != spot.new_card)
    old = row[spot.building]
    row[spot.building] = Building(old.card, old.stones + (stone,))
    rows[spot.seat] = tuple(row)
    pool = list(state.pool)
    pool[STONE_INDEX[stone]] -= 1
    left = list(state.dice_left)
    left.remove(face)
    return replace(state, buildings=tuple(rows), pool=tuple(pool), talon=talon,
                   dice_left=tuple(left))


def roll_satisfiable(state: VdnState, me: int) -> bool:
    """Option all_or_nothing: can every unused die give ``me`` a stone, all together, in some
    order (a roof may need the cubes of the other dice under it first)?"""
    if not state.dice_left:
        return True
    for face in dict.fromkeys(state.dice_left):
        for spot in spots(state, me):
            for shape in spot.shapes:
                for colour in die_colours(face):
                    if state.in_pool((colour, shape)) > 0 and roll_satisfiable(
                            place(state, spot, (colour, shape), face), me):
                        return True
    return False
