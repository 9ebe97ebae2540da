"""The geometry of a card mountain: a brick pyramid of étages.

A slot is ``(étage, pos)``. The base is étage 1; its cards lie side by side at consecutive
positions. A card of étage k+1 at position p rests across the two adjacent cards ``(k, p)`` and
``(k, p+1)`` of the étage below, like a brick: "9 on 8 and 5" is ``8 @1:0, 5 @1:1, 9 @2:0``.

Positions are counted from the leftmost card of the base (position 0), which is also how the
camera numbers them: a card laid to the left of the base is laid at position -1, and once it is
down the whole mountain is renumbered so that it is position 0 (:func:`normalise`). A mountain is
stored as a sorted tuple of ``(étage, pos, card id)``.

Everything here is structure and the value rule; who may lay what where (turns, hands, special
cards' owners) is in ``judge``.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from companion.games.altitude import rules
from companion.games.altitude.manifest import AVALANCHE, SAINT_BERNARD, TELEPHERIQUE, Manifest
from companion.games.base import MalformedMove, RuleRef

Slot = tuple[int, int]
Placed = tuple[int, int, str]
Mountain = tuple[Placed, ...]

#: the most cards a base may hold (rule text)
BASE_MAX = 10
#: a mountain this high gives its player two plays a turn (rule text)
DOUBLE_TURN_HEIGHT = 5
#: animals count from this étage up (rule text)
ANIMAL_ETAGE = 4


def as_dict(mountain: Mountain) -> dict[Slot, str]:
    return {(k, p): card for k, p, card in mountain}


def from_dict(cards: Mapping[Slot, str]) -> Mountain:
    """The stored form, renumbered so that the leftmost base card is at position 0."""
    return normalise(tuple(sorted((k, p, c) for (k, p), c in cards.items())))


def normalise(mountain: Mountain) -> Mountain:
    base = [p for k, p, _ in mountain if k == 1]
    if not base:
        return tuple(sorted(mountain))
    shift = min(base)
    if shift == 0:
        return tuple(sorted(mountain))
    return tuple(sorted((k, p - shift, c) for k, p, c in mountain))


def supports(slot: Slot) -> tuple[Slot, ...]:
    """The slots a card in ``slot`` rests on (none for the base)."""
    k, p = slot
    if k <= 1:
        return ()
    return ((k - 1, p), (k - 1, p + 1))


def covering(slot: Slot) -> tuple[Slot, Slot]:
    """The slots whose cards would cover (even by half) a card in ``slot``."""
    k, p = slot
    return ((k + 1, p - 1), (k + 1, p))


def is_covered(cards: Mapping[Slot, str], slot: Slot) -> bool:
    return any(s in cards for s in covering(slot))


def height(mountain: Mountain | Mapping[Slot, str]) -> int:
    """The highest occupied étage (avalanches count: rule text), 0 for no mountain."""
    if isinstance(mountain, Mapping):
        return max((k for k, _ in mountain), default=0)
    return max((k for k, _, _ in mountain), default=0)


def animals_counted(manifest: Manifest, mountain: Mountain) -> int:
    """Animals laid from the 4th étage up: only those score."""
    return sum(1 for k, _, c in mountain if k >= ANIMAL_ETAGE and manifest.kind(c) == "animal")


def base_count(cards: Mapping[Slot, str]) -> int:
    return sum(1 for (k, _) in cards if k == 1)


def structural_slots(cards: Mapping[Slot, str]) -> list[Slot]:
    """Every empty slot where a card may lie by the shape rules alone: the first card, a base
    card touching the base (while it holds fewer than 10), a card across two adjacent cards."""
    if not cards:
        return [(1, 0)]
    out: list[Slot] = []
    base = sorted(p for (k, p) in cards if k == 1)
    if len(base) < BASE_MAX:
        free = {p + d for p in base for d in (-1, 1)} - set(base)
        out.extend((1, p) for p in sorted(free))
    for (k, p) in sorted(cards):
        right = (k, p + 1)
        if right in cards and (k + 1, p) not in cards:
            out.append((k + 1, p))
    return out


def shape_problem(cards: Mapping[Slot, str], slot: Slot) -> RuleRef | None:
    """Why a card cannot lie in the empty ``slot`` by shape, or None.

    Raises :class:`MalformedMove` for what cannot physically happen: a card on an occupied slot,
    a card floating above the table with nothing under it, the first card of a mountain anywhere
    but ``1:0``.
    """
    k, p = slot
    if k < 1:
        raise MalformedMove(f"étage {k} does not exist: the base is étage 1")
    if slot in cards:
        raise MalformedMove(f"slot {k}:{p} already holds {cards[slot]}; a replacement names "
                            "the card it replaces")
    if not cards:
        if slot != (1, 0):
            raise MalformedMove("the first card of a mountain is laid at 1:0")
        return None
    if k == 1:
        if base_count(cards) >= BASE_MAX:
            return rules.BASE_MAX
        if (1, p - 1) not in cards and (1, p + 1) not in cards:
            return rules.TOUCH
        return None
    under = [s for s in supports(slot) if s in cards]
    if not under:
        raise MalformedMove(f"nothing under {k}:{p}: a card cannot float above the mountain")
    if len(under) == 1:
        return rules.STRUCTURE_TWO
    return None


def value_problem(manifest: Manifest, cards: Mapping[Slot, str], slot: Slot,
                  card: str) -> RuleRef | None:
    """Why ``card`` may not cover the cards under ``slot`` by value, or None.

    A téléphérique (0) goes anywhere, avalanches included. Nothing else covers an avalanche, an
    avalanche included. An avalanche itself may cover any other card (it blocks, it has no
    value). Any other card must be strictly higher than *each* card it covers, not their sum.
    """
    laid = manifest[card]
    if laid.kind == TELEPHERIQUE:
        return None
    under = [manifest[cards[s]] for s in supports(slot) if s in cards]
    if any(u.kind == AVALANCHE for u in under):
        return rules.AVALANCHE_COVER
    if laid.kind == AVALANCHE:
        return None
    for u in under:
        if u.value is None or laid.value is None or laid.value <= u.value:
            return rules.VALUE_HIGHER
    return None


def kind_problem(manifest: Manifest, card: str, own: bool) -> RuleRef | None:
    """Cards that never go where they are laid: a Saint-Bernard in any mountain, an avalanche in
    one's own."""
    kind = manifest.kind(card)
    if kind == SAINT_BERNARD:
        return rules.SAINT_BERNARD_BUILD
    if kind == AVALANCHE and own:
        return rules.AVALANCHE_OWN
    return None


def placement_ok(manifest: Manifest, cards: Mapping[Slot, str], slot: Slot, card: str,
                 own: bool) -> bool:
    """Shape, value and kind all allow ``card`` in ``slot`` (no exceptions: for move lists)."""
    try:
        if shape_problem(cards, slot) is not None:
            return False
    except MalformedMove:
        return False
    return kind_problem(manifest, card, own) is None and \
        value_problem(manifest, cards, slot, card) is None


def value_rule_holds(manifest: Manifest, mountain: Mountain) -> bool:
    """Every card obeys the value rule against the cards it covers (the invariant of a mountain
    built by legal moves)."""
    cards = as_dict(mountain)
    return all(value_problem(manifest, cards, (k, p), c) is None
               for k, p, c in mountain if k > 1)


def order_lays(cards: Mapping[Slot, str], new: Iterable[tuple[Slot, str]]) -> list[tuple[Slot, str]]:
    """An order in which cards seen at once can have been laid one by one: lower étages first,
    base cards outwards from the existing base."""
    pending = dict(new)
    have = dict(cards)
    out: list[tuple[Slot, str]] = []
    while pending:
        ready = []
        for slot in sorted(pending):
            k, p = slot
            if k == 1:
                ok = not have or (1, p - 1) in have or (1, p + 1) in have
            else:
                ok = all(s in have for s in supports(slot))
            if ok:
                ready.append(slot)
        if not ready:  # nothing can go next by shape: lay the rest lowest first
            ready = sorted(pending)[:1]
        slot = ready[0]
        have[slot] = pending.pop(slot)
        out.append((slot, have[slot]))
    return out
