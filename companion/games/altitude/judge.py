"""Judging a move: can it happen at all (else :class:`MalformedMove`), and which rule does it
break (a :class:`RuleRef`, or None when it is legal).

The two questions are kept apart because an illegal move still happens at a real table (and the
table may let it stand), while a physically impossible one (a card nobody can hold, a card
floating above the mountain) is a misreading or a typo and is refused.

When a move breaks several rules, the one named is the first in this order: whose turn it is,
where the card came from, the kind of card, the opponent's mountain, the replaced or removed
card, the shape of the mountain, the value rule.
"""

from __future__ import annotations

from companion.games.altitude import mountain as geo
from companion.games.altitude import rules
from companion.games.altitude.manifest import AVALANCHE, SAINT_BERNARD
from companion.games.altitude.moves import (
    BUILD, DISCARD, DRAW, DRAWN, FROM_DISCARD, GIVE, HAND, HOLD, LAY, PASS, REPLACE, RESCUE,
    Move,
)
from companion.games.altitude.state import PHASE_END, PHASE_MAIN, AltitudeState
from companion.games.base import MalformedMove, RuleRef


def mover_index(state: AltitudeState, move: Move) -> int:
    if move.seat not in state.players:
        raise MalformedMove(f"{move.seat!r} is not playing; the players are "
                            f"{', '.join(state.players)}")
    return state.players.index(move.seat)


def target_index(state: AltitudeState, move: Move) -> int:
    """The mountain the move lays in or takes from."""
    if move.target is None:
        return mover_index(state, move)
    if move.target not in state.players:
        raise MalformedMove(f"{move.target!r} is not playing; the players are "
                            f"{', '.join(state.players)}")
    return state.players.index(move.target)


def validate(state: AltitudeState, move: Move) -> None:
    """Raise :class:`MalformedMove` unless ``move`` can physically be made from ``state``."""
    if state.phase not in (PHASE_MAIN, PHASE_END):
        raise MalformedMove("the game is over")
    i = mover_index(state, move)
    if move.card is not None and move.card not in state.manifest:
        raise MalformedMove(f"no card {move.card!r} in the deck {state.manifest.name!r}")
    for card, _ in move.lays:
        if card not in state.manifest:
            raise MalformedMove(f"no card {card!r} in the deck {state.manifest.name!r}")
    if state.drawn is not None and i != state.active:
        raise MalformedMove(f"{state.active_seat} has shown the drawn card {state.drawn} and "
                            "plays it first")
    if state.phase == PHASE_MAIN:
        _validate_main(state, move)
    else:
        _validate_end(state, move, i)
    _validate_slot(state, move)


def _validate_main(state: AltitudeState, move: Move) -> None:
    if move.kind == LAY:
        raise MalformedMove("cards are laid from hand with 'lay' only once the deck is out")
    if move.kind == DRAW:
        if state.drawn is not None:
            raise MalformedMove(f"the drawn card {state.drawn} is already shown")
        if state.unseen_count(move.card) == 0:
            raise MalformedMove(f"{move.card} cannot be drawn: it has already been seen")
        return
    if move.kind == PASS:
        if state.drawn is not None:
            raise MalformedMove("a card was drawn: a player who keeps it without laying "
                                "anything 'holds'")
        return
    if move.kind == HOLD:
        return
    if move.source == FROM_DISCARD:
        if move.kind == DISCARD:
            raise MalformedMove("a card taken from the discard and thrown back is no move")
        if not state.discard or state.discard[-1] != move.card:
            top = state.discard[-1] if state.discard else "nothing"
            raise MalformedMove(f"{move.card} is not on top of the discard pile ({top} is)")
        return
    if state.drawn is not None:
        if move.source == DRAWN and move.card != state.drawn:
            raise MalformedMove(f"the drawn card is {state.drawn}, not {move.card}; a hand "
                                "card is played 'from hand'")
        if move.source == HAND and state.unseen_count(move.card) == 0:
            raise MalformedMove(f"{move.card} cannot be in a hand: it has already been seen")
        return
    if state.unseen_count(move.card) == 0:
        raise MalformedMove(f"{move.card} cannot be drawn or in a hand: it has already been seen")


def _validate_end(state: AltitudeState, move: Move, i: int) -> None:
    if move.kind in (DRAW, PASS, HOLD):
        raise MalformedMove("the deck is out: nothing is drawn any more")
    if move.kind == BUILD:
        raise MalformedMove("once the deck is out, hand cards are laid with 'lay'")
    if move.kind != LAY and move.source != HAND:
        raise MalformedMove("the deck is out: every card played now comes from a hand "
                            "('from hand')")
    if state.kept[i] is not None:
        raise MalformedMove(f"{move.seat} has already shown the cards left in hand")
    cards = [move.card] if move.kind != LAY else [c for c, _ in move.lays]
    if len(cards) > state.hands[i]:
        raise MalformedMove(f"{move.seat} has only {state.hands[i]} card(s) in hand")
    sb, other = state.end_pool()
    unseen = state.unseen_counter()
    for card in cards:
        if unseen[card] == 0:
            raise MalformedMove(f"{card} cannot be in a hand: it has already been seen")
        unseen[card] -= 1
        if state.manifest.kind(card) == SAINT_BERNARD:
            sb -= 1
        else:
            other -= 1
        if sb < 0 or other < 0:
            raise MalformedMove(f"{card} cannot be in {move.seat}'s hand: the cards shown by "
                                "the others account for all such cards")
    if move.kind == LAY and move.shows is not None:
        left = state.hands[i] - len(cards)
        low, high = max(0, left - other), min(left, sb)
        if not low <= move.shows <= high:
            raise MalformedMove(f"{move.seat} keeps {left} card(s): the Saint-Bernards among "
                                f"them can only number {low} to {high}")


def _validate_slot(state: AltitudeState, move: Move) -> None:
    if move.kind in (REPLACE, RESCUE):
        cards = geo.as_dict(state.mountains[target_index(state, move)])
        if move.slot not in cards:
            raise MalformedMove(f"there is no card at {move.slot[0]}:{move.slot[1]}")
    if move.kind == BUILD or move.kind == GIVE:
        cards = geo.as_dict(state.mountains[target_index(state, move)])
        geo.shape_problem(cards, move.slot)  # raises for the impossible
    if move.kind == LAY:
        cards = geo.as_dict(state.mountains[mover_index(state, move)])
        for card, slot in move.lays:
            geo.shape_problem(cards, slot)
            cards[slot] = card


# -- rules ------------------------------------------------------------------------------------

def turn_problem(state: AltitudeState, i: int) -> RuleRef | None:
    if state.phase == PHASE_END:
        return None if state.end_queue and state.end_queue[0] == i else rules.TURN_ORDER
    if i == state.active:
        return None
    if state.turn_plays == 2 and state.plays_left == 1:
        return rules.TURN_DOUBLE
    return rules.TURN_ORDER


def problem(state: AltitudeState, move: Move) -> RuleRef | None:
    """The rule ``move`` breaks, or None. ``validate`` must have passed."""
    i = mover_index(state, move)
    rule = turn_problem(state, i)
    if rule is not None:
        return rule
    if move.kind == PASS:
        return rules.TURN_DRAW
    if move.kind == HOLD:
        return rules.HAND_FOUR
    if move.kind == DRAW:
        return None
    if move.source == FROM_DISCARD:
        return rules.DISCARD_TAKE
    end = state.phase == PHASE_END
    manifest = state.manifest
    if move.kind == DISCARD:
        return rules.DISCARD_HAND if move.source == HAND else None
    if move.kind == LAY:
        cards = geo.as_dict(state.mountains[i])
        for card, slot in move.lays:
            rule = _placement(state, cards, slot, card, own=True)
            if rule is not None:
                return rule
            cards[slot] = card
        return None
    t = target_index(state, move)
    cards = geo.as_dict(state.mountains[t])
    if move.kind == BUILD:
        return _placement(state, cards, move.slot, move.card, own=True)
    if move.kind == GIVE:
        if move.source == HAND or end:
            return rules.HAND_OWN
        if not cards:
            return rules.OPPONENT_STARTED
        return _placement(state, cards, move.slot, move.card, own=False)
    if move.kind == REPLACE:
        if t != i:
            return rules.REPLACE_OWN
        if move.source == HAND or end:
            return rules.REPLACE_HAND
        rule = geo.kind_problem(manifest, move.card, own=True)
        if rule is not None:
            return rule
        if geo.is_covered(cards, move.slot):
            return rules.REPLACE_COVERED
        if manifest.kind(cards[move.slot]) == AVALANCHE:
            return rules.REPLACE_AVALANCHE
        return geo.value_problem(manifest, cards, move.slot, move.card)
    # rescue
    if end:
        return rules.RESCUE_DRAW
    if t != i:
        return rules.RESCUE_OWN
    if manifest.kind(move.card) != SAINT_BERNARD:
        return rules.RESCUE_SAINT_BERNARD
    if manifest.kind(cards[move.slot]) != AVALANCHE:
        return rules.RESCUE_AVALANCHE
    if geo.is_covered(cards, move.slot):
        return rules.RESCUE_UNCOVERED
    return None


def _placement(state: AltitudeState, cards: dict, slot, card: str, own: bool) -> RuleRef | None:
    return (geo.kind_problem(state.manifest, card, own)
            or geo.shape_problem(cards, slot)
            or geo.value_problem(state.manifest, cards, slot, card))
