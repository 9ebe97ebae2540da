"""Judging a move of Haut les Cubes: which rule, if any, it breaks, and what it scores.

The order of the checks matters only when a move breaks several rules at once: the most basic
one is cited (turn, then the card pool, then the card's own rules), so the message a player reads
is the first thing they would have to fix.

:class:`MalformedMove` is raised only for moves that cannot happen on a real table (two giants on
one square, a cube floating in the air or removed from under another): those are misreadings,
not rule breaks.
"""

from __future__ import annotations

from companion.games.base import MalformedMove, RuleRef, Verdict
from companion.games.haut_les_cubes import actions, rules
from companion.games.haut_les_cubes.cards import (
    CARDS, DECK, HOPLA, MOAVEOU, NAPOZLA, NENLEVSA, POUSSTOIA, TVAVOARTOA, TITLE, jump_points,
)
from companion.games.haut_les_cubes.geometry import (
    adjacent, cube_contact, cubes_on_top, footprint, king_distance, push_targets, touches_mountain,
)
from companion.games.haut_les_cubes.moves import Move, Pile, Place, Play
from companion.games.haut_les_cubes.state import PHASE_PLACEMENT, PHASE_PLAY, HlcState


def _illegal(move: Move, rule: RuleRef, *notes: str) -> Verdict:
    return Verdict(move=move, legal=False, rule=rule, notes=tuple(notes))


def _legal(move: Move, score: dict[str, int] | None = None, *notes: str) -> Verdict:
    return Verdict(move=move, legal=True, score_delta=score or {}, notes=tuple(notes))


def seat_index(state: HlcState, seat: str) -> int:
    if seat not in state.players:
        raise MalformedMove(f"{seat} is not playing (players: {', '.join(state.players)})")
    return state.players.index(seat)


def check(state: HlcState, move: Move) -> Verdict:
    if isinstance(move, Pile):
        if state.last_card is None:
            raise MalformedMove("the played-card zone is already empty")
        return _legal(move, None, "card moved onto the played pile")
    if isinstance(move, Place):
        return _check_place(state, move)
    if not isinstance(move, Play):
        raise MalformedMove(f"not a Haut les Cubes move: {move!r}")
    if state.phase != PHASE_PLAY:
        raise MalformedMove(
            "cards are played once every giant is placed" if state.phase == PHASE_PLACEMENT
            else "the game is over")
    if move.card not in CARDS:
        raise MalformedMove(f"unknown card {move.card!r}")
    seat = seat_index(state, move.seat)
    _physical(state, move, seat)
    if seat != state.turn:
        return _illegal(move, rules.TURN_ORDER)
    if state.seen[CARDS.index(move.card)] >= DECK[move.card]:
        return _illegal(move, rules.CARD_POOL)
    if move.is_null:
        if actions.possible(state, seat, move.card):
            return _illegal(move, rules.COMPULSORY)
        return _legal(move, None, f"{TITLE[move.card]}: no possible action, card discarded")
    return _CHECKS[move.card](state, move, seat)


def _check_place(state: HlcState, move: Place) -> Verdict:
    if state.phase != PHASE_PLACEMENT:
        raise MalformedMove("giants are placed only before the first round")
    seat = seat_index(state, move.seat)
    if state.giants[seat] is not None:
        raise MalformedMove(f"{move.seat}'s giant is already on the table")
    if move.cell in state.occupied():
        raise MalformedMove(f"another giant already stands on {move.cell}")
    if seat != state.turn:
        return _illegal(move, rules.PLACEMENT_ORDER)
    if state.height(move.cell) > 0:
        return _illegal(move, rules.PLACEMENT_GROUND)
    if not touches_mountain(move.cell, state.heights):
        return _illegal(move, rules.PLACEMENT_CONTACT)
    return _legal(move)


def _physical(state: HlcState, move: Play, seat: int) -> None:
    """Raise MalformedMove for what cannot happen on a table."""
    if move.cube is not None:
        x, y, z = move.cube
        if move.card == NAPOZLA:
            if z != actions.cube_level(state, x, y):
                raise MalformedMove(f"a cube at {move.cube} would float or cut into another; "
                                    f"it would rest at level {actions.cube_level(state, x, y)}")
        elif move.card == NENLEVSA:
            if move.cube not in state.cubes:
                raise MalformedMove(f"there is no cube at {move.cube}")
    giant_moves = []
    if move.card in (MOAVEOU, HOPLA) or (move.card == POUSSTOIA and move.target is None):
        if move.to is not None:  # one giant moves (the common case, checked directly)
            giants = state.giants
            if giants[seat] is None:
                raise MalformedMove(f"{state.players[seat]}'s giant is not on the table")
            if move.to in giants and giants.index(move.to) != seat:
                raise MalformedMove("two giants cannot stand on one square")
        return
    if move.card in (POUSSTOIA, TVAVOARTOA) and move.target is not None:
        victim = seat_index(state, move.target)
        if victim == seat and move.card == POUSSTOIA:
            raise MalformedMove("a giant cannot push itself")
        assert move.to is not None
        giant_moves.append((victim, move.to))
        if move.take:
            giant_moves.append((seat, state.giants[victim]))
        elif move.pusher_to is not None:
            giant_moves.append((seat, move.pusher_to))
    for who, _ in giant_moves:
        if state.giants[who] is None:
            raise MalformedMove(f"{state.players[who]}'s giant is not on the table")
    moving = {who for who, _ in giant_moves}
    staying = {p for i, p in enumerate(state.giants) if p is not None and i not in moving}
    landing = [cell for _, cell in giant_moves]
    if len(set(landing)) != len(landing) or any(c in staying for c in landing):
        raise MalformedMove("two giants cannot stand on one square")


def _check_napozla(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.cube is not None
    x, y, z = move.cube
    if state.reserves[seat] == 0:
        return _illegal(move, rules.NAPOZLA_RESERVE)
    cells = footprint(x, y)
    if any(c in state.occupied() and state.height(c) == z for c in cells):
        return _illegal(move, rules.NAPOZLA_GIANT)
    if any(state.height(c) < z for c in cells):
        return _illegal(move, rules.NAPOZLA_FULL_BASE)
    if z == 0 and not cube_contact(x, y, state.heights):
        return _illegal(move, rules.NAPOZLA_CONTACT)
    if not move.aligned:
        return _illegal(move, rules.NAPOZLA_ALIGN)
    return _legal(move)


def _check_nenlevsa(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.cube is not None
    if not actions.removable(state, move.cube):
        return _illegal(move, rules.NENLEVSA_FREE_TOP)
    if len(state.cubes) <= 1:
        return _illegal(move, rules.NENLEVSA_LAST_CUBE)
    options = actions.relocation_options(state, move.cube, seat)
    if move.relocate not in options:
        return _illegal(move, rules.NENLEVSA_ISOLATED)
    return _legal(move)


def _land(state: HlcState, move: Play) -> RuleRef | None:
    """A giant must land on a square (a cube top or table touching a cube)."""
    assert move.to is not None
    if move.card == NENLEVSA:
        return None
    facts = state.mountain  # a square: a cube top, or a ring cell (is_square, precomputed)
    if move.to not in facts.heights and move.to not in facts.ring:
        return rules.SQUARE_VALID
    return None


def _check_moaveou(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.to is not None
    pos = state.giants[seat]
    assert pos is not None
    bad = _land(state, move)
    if bad:
        return _illegal(move, bad)
    if not adjacent(pos, move.to):
        return _illegal(move, rules.MOAVEOU_ADJACENT)
    level, new = state.height(pos), state.height(move.to)
    if new > level + 1:
        return _illegal(move, rules.MOAVEOU_CLIMB)
    drop = level - new
    if drop > 0:
        points = jump_points(drop)
        return _legal(move, {move.seat: points}, f"bravery jump of {drop}: +{points}")
    return _legal(move)


def _check_pousstoia(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.to is not None
    pos = state.giants[seat]
    assert pos is not None
    level = state.height(pos)
    bad = _land(state, move)
    if move.target is None:  # into the void
        if actions.pushes(state, seat):
            return _illegal(move, rules.POUSSTOIA_VOID)
        if bad:
            return _illegal(move, bad)
        if not adjacent(pos, move.to) or state.height(move.to) != level:
            return _illegal(move, rules.POUSSTOIA_VOID)
        return _legal(move, None, "pushed into the void")
    victim = state.players.index(move.target)
    vpos = state.giants[victim]
    assert vpos is not None
    if not adjacent(pos, vpos) or state.height(vpos) != level:
        return _illegal(move, rules.POUSSTOIA_SAME_HEIGHT)
    if bad:
        return _illegal(move, bad)
    if move.to not in push_targets(pos, vpos):
        return _illegal(move, rules.POUSSTOIA_DIRECTION)
    if state.height(move.to) > level and not state.options.push_uphill:
        return _illegal(move, rules.POUSSTOIA_UPHILL)
    if move.pusher_to is not None and move.pusher_to != vpos:
        return _illegal(move, rules.POUSSTOIA_PUSHER)
    drop = level - state.height(move.to)
    notes = (f"{move.target} falls {drop}: no points",) if drop > 0 else ()
    return _legal(move, None, *notes)


def _check_hopla(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.to is not None
    pos = state.giants[seat]
    assert pos is not None
    bad = _land(state, move)
    if bad:
        return _illegal(move, bad)
    level, new = state.height(pos), state.height(move.to)
    if new > level:
        distance = king_distance(pos, move.to)
        if distance == 2:  # a high jump reaches a neighbouring square, no further
            return _illegal(move, rules.HOPLA_HIGH)
        if distance > 2:  # a long jump never lands higher
            return _illegal(move, rules.HOPLA_LONG)
        return _legal(move, None, "high jump")
    if move.to == pos:
        raise MalformedMove("a jump leaves its square")
    return _legal(move, None, "long jump: no points" if new < level else "long jump")


def _check_tvavoartoa(state: HlcState, move: Play, seat: int) -> Verdict:
    assert move.to is not None and move.target is not None
    pos = state.giants[seat]
    target = state.players.index(move.target)
    tpos = state.giants[target]
    assert pos is not None and tpos is not None
    if target == seat:
        return _illegal(move, rules.TVAVOARTOA_SELF)
    if adjacent(pos, tpos):
        return _illegal(move, rules.TVAVOARTOA_TARGET)
    bad = _land(state, move)
    if bad:
        return _illegal(move, bad)
    if not adjacent(tpos, move.to):
        return _illegal(move, rules.TVAVOARTOA_LANDING)
    level = state.height(tpos)
    if state.height(move.to) > level and not state.options.slingshot_uphill:
        return _illegal(move, rules.TVAVOARTOA_UPHILL)
    drop = level - state.height(move.to)
    return _legal(move, None, *((f"{move.target} falls {drop}: no points",) if drop > 0 else ()))


_CHECKS = {
    NAPOZLA: _check_napozla, NENLEVSA: _check_nenlevsa, MOAVEOU: _check_moaveou,
    POUSSTOIA: _check_pousstoia, HOPLA: _check_hopla, TVAVOARTOA: _check_tvavoartoa,
}


def removal_blocked(state: HlcState, cube: tuple[int, int, int]) -> bool:
    """A cube with a cube on it cannot be pulled out from under it on a real table."""
    return bool(cubes_on_top(cube, state.cubes))
