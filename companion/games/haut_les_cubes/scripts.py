"""Scripted games of Haut les Cubes: whole games as a table plays them, for the demo and tests.

The games are played by a seeded *sensible player*: it draws cards with their real odds and,
with each, does what a player trying to win would do (the highest bravery jump it can, climbing
where it can jump from later, building next to its own giant), with some randomness. Before laying a card it
usually moves the last one onto the played pile, as the table convention asks. Along the
way it makes the mistakes players make (a cube on a half-empty base, a Moavéou climb of two
levels, a push uphill ...) which the referee must flag before the player puts it right, and now
and then the played card cannot be read, so the referee must ask.
"""

from __future__ import annotations

import random

from companion.games.haut_les_cubes import actions
from companion.games.haut_les_cubes.cards import CARDS, DECK, HOPLA, MOAVEOU, NAPOZLA
from companion.games.haut_les_cubes.engine import HautLesCubes
from companion.games.haut_les_cubes.geometry import king_distance
from companion.games.haut_les_cubes.moves import Move, Pile, Play
from companion.games.haut_les_cubes.state import PHASE_PLAY, HlcState
from companion.games.script import Script, ScriptStep

GAME = HautLesCubes()
#: the sensible player builds no higher than this (a level-5 cube tops out at 24 cm)
MAX_LEVEL = 5


def _value(state: HlcState, move: Move, rng: random.Random) -> float:
    """How much a sensible player likes a move (higher is better), with a little noise."""
    noise = rng.random()
    if not isinstance(move, Play) or move.is_null or state.turn is None:
        return noise
    seat = state.turn
    pos = state.giants[seat]
    if move.card == MOAVEOU and move.to is not None and pos is not None:
        drop = state.height(pos) - state.height(move.to)
        return 10 * drop + noise if drop > 0 else 2 * (-drop) + noise
    if move.card == HOPLA and move.to is not None and pos is not None:
        return 3 * (state.height(move.to) - state.height(pos)) + noise
    if move.card == NAPOZLA and move.cube is not None and pos is not None:
        x, y, z = move.cube
        if z >= MAX_LEVEL:  # towers taller than a camera over the table can read well
            return -10 + noise
        near = min(king_distance(pos, c) for c in ((x, y), (x + 1, y + 1)))
        spread = max(abs(x), abs(y))  # keep the mountain in the middle of the table
        return z + (2 if near <= 2 else 0) - (3 if spread > 6 else 0) + noise
    return noise


def sensible_move(state: HlcState, rng: random.Random) -> Move:
    """The sensible player's move: a card with its real odds, then its best-liked action."""
    if state.phase != PHASE_PLAY or state.turn is None:
        return GAME.random_move(state, rng)
    cards = [c for i, c in enumerate(CARDS) if state.seen[i] < DECK[c]]
    card = rng.choices(cards, weights=[DECK[c] - state.seen[CARDS.index(c)] for c in cards])[0]
    options = actions.actions(state, state.turn, card)
    if not options:
        return Play(state.players[state.turn], card)
    return max(options, key=lambda m: _value(state, m, rng))


def _mistake(state: HlcState, move: Move, rng: random.Random) -> tuple[Move, str] | None:
    """An illegal move a player might make instead of ``move`` (same card), if there is one."""
    if not isinstance(move, Play) or move.is_null:
        return None
    wrong = []
    for other in GAME.physical_moves(state):
        if isinstance(other, Play) and other.card == move.card and not other.is_null \
                and other.seat == move.seat:
            verdict = GAME.check(state, other)
            if not verdict.legal and verdict.rule is not None:
                wrong.append((other, verdict.rule.id))
    return rng.choice(wrong) if wrong else None


def _ambiguous_without_card(state: HlcState, move: Move) -> bool:
    """Whether hiding the card makes the referee unable to tell this move from another with a
    different verdict or score (a drop by Moavéou or Hoplà)."""
    if not isinstance(move, Play) or move.card != MOAVEOU or move.to is None or state.turn is None:
        return False
    pos = state.giants[state.turn]
    hopla_left = state.seen[CARDS.index(HOPLA)] < DECK[HOPLA]
    return pos is not None and hopla_left and state.height(pos) > state.height(move.to)


def sensible_game(players: tuple[str, ...], seed: int, *, mistakes: float = 0.06,
                  questions: float = 0.3, max_moves: int = 2000) -> Script:
    """A whole game played to its end by the sensible player."""
    rng = random.Random(seed)
    state = GAME.setup(players, seed=seed)
    steps: list[ScriptStep] = []
    while GAME.outcome(state) is None and len(steps) < max_moves:
        move = sensible_move(state, rng)
        if isinstance(move, Play) and state.last_card is not None and (
                rng.random() < 0.85 or (move.is_null and move.card == state.last_card)):
            # the next player clears the zone first (always, when a card of the same design
            # with no effect would otherwise go unseen)
            steps.append(ScriptStep(GAME.move_to_json(Pile()), "play"))
            state = GAME.apply(state, Pile())
        if rng.random() < mistakes:
            wrong = _mistake(state, move, rng)
            if wrong is not None:
                steps.append(ScriptStep(GAME.move_to_json(wrong[0]), "illegal", rule=wrong[1]))
        kind = "ask" if _ambiguous_without_card(state, move) and rng.random() < questions else "play"
        steps.append(ScriptStep(GAME.move_to_json(move), kind))
        state = GAME.apply(state, move)
    return Script(game=GAME.name, players=tuple(players), steps=tuple(steps), seed=seed,
                  title=f"Haut les Cubes, {len(players)} players, seed {seed}")


def demo_script() -> Script:
    """The game `companion demo` plays: three players, 69 cards and placements, six mistakes
    flagged and put right, four moments where the card cannot be read and the referee asks."""
    return sensible_game(("red", "blue", "green"), seed=9)
