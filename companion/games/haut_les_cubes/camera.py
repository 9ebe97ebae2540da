"""From what the camera sees to the moves that could explain it.

The camera reports cubes and giants on *its* lattice (found from the cubes, which are not glued
to anything), so before comparing, the observation is *registered* against the tracked state:
the whole-lattice translation that makes the most observed cubes coincide with known ones. A
mountain nudged by half a cell therefore never reads as a move.

Then the difference between what the state predicts and what was seen says which moves to
consider: a new cube is a Napozla, a missing one a Nenlèvsa, a giant that moved is one of the
giant cards, two giants that moved are a push. Each is judged by the rules and scored by how
well its resulting state explains the picture; the card in the played-card zone, when it can be
read, is part of that picture, so the card decides between moves that look alike on the board
(a two-level drop with Moavéou scores, with Hoplà it does not). When the card cannot be read,
both stay as candidates of equal cost and the referee asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable

from companion.games.base import Candidate, MalformedMove
from companion.games.matching import MISS, MISS_HIDDEN, mismatch_cost
from companion.games.haut_les_cubes import actions
from companion.games.haut_les_cubes.cards import (
    CARDS, HOPLA, MOAVEOU, NAPOZLA, NENLEVSA, POUSSTOIA, TVAVOARTOA,
)
from companion.games.haut_les_cubes.geometry import Cell, top_covered
from companion.games.haut_les_cubes.moves import Move, Pile, Place, Play
from companion.games.haut_les_cubes.state import PHASE_PLACEMENT, PHASE_PLAY, HlcState
from companion.observation import Observation, Piece

GAME = "haut-les-cubes"
#: how far (in cells) the whole mountain may have drifted between two readings
MAX_SHIFT = 3
#: a card read with less confidence than this is treated as unread
CARD_READ = 0.5


def expected_keys(state: HlcState) -> list[tuple[Hashable, float]]:
    """What an ideal camera sees if ``state`` is true, each with the cost of missing it: a cube
    whose top is wholly covered may be invisible, so missing it costs little."""
    keys: list[tuple[Hashable, float]] = []
    for cube in state.cubes:
        hidden = top_covered(cube, state.cubes)
        keys.append((("cube",) + cube, MISS_HIDDEN if hidden else MISS))
    for seat, pos in zip(state.players, state.giants):
        if pos is not None:
            keys.append((("giant", seat, pos[0], pos[1], state.height(pos)), MISS))
    if state.last_card is not None:
        keys.append((("card", state.last_card), MISS))
    return keys


@dataclass(frozen=True)
class Reading:
    """An observation in the engine's coordinates: keys with confidences."""

    cubes: tuple[tuple[tuple[int, int, int], float], ...]
    giants: dict[str, tuple[Cell, int, float]]
    card: str | None
    card_conf: float
    keys: tuple[tuple[Hashable, float], ...]
    shift: tuple[int, int]
    #: cubes the reader saw laid off the lattice (squares not lined up)
    aligned: dict[tuple[int, int, int], bool]


def _raw(observation: Observation) -> tuple[list, list, tuple[str | None, float], set]:
    cubes, giants = [], []
    misaligned = set()
    card: tuple[str | None, float] = (None, 0.0)
    for p in observation.pieces:
        if p.kind == "cube" and p.cell is not None and p.level is not None:
            cubes.append(((p.cell[0], p.cell[1], p.level), p.conf))
            if p.get("aligned") is False:
                misaligned.add((p.cell[0], p.cell[1], p.level))
        elif p.kind == "giant" and p.cell is not None and p.get("colour"):
            giants.append((p.get("colour"), p.cell, p.level or 0, p.conf))
        elif p.kind == "card" and p.zone == "played" and p.get("card") in CARDS:
            if p.conf > card[1]:
                card = (p.get("card"), p.conf)
    return cubes, giants, card, misaligned


def register(state: HlcState, observation: Observation) -> Reading:
    """Translate the observation onto the state's lattice (see the module's docstring)."""
    cubes, giants, (card, card_conf), misaligned = _raw(observation)
    known = state.cubes
    best, best_shift = -1.0, (0, 0)
    if cubes and known:
        for dx in range(-MAX_SHIFT, MAX_SHIFT + 1):
            for dy in range(-MAX_SHIFT, MAX_SHIFT + 1):
                score = sum(c for (x, y, z), c in cubes if (x + dx, y + dy, z) in known)
                score -= 1e-3 * (abs(dx) + abs(dy))  # prefer no drift on a tie
                if score > best:
                    best, best_shift = score, (dx, dy)
    dx, dy = best_shift
    moved_cubes = tuple(((x + dx, y + dy, z), c) for (x, y, z), c in cubes)
    moved_giants = {}
    for colour, cell, level, conf in giants:
        if colour not in moved_giants or conf > moved_giants[colour][2]:
            moved_giants[colour] = ((cell[0] + dx, cell[1] + dy), level, conf)
    keys: list[tuple[Hashable, float]] = [(("cube",) + cube, c) for cube, c in moved_cubes]
    keys += [(("giant", colour, cell[0], cell[1], level), conf)
             for colour, (cell, level, conf) in moved_giants.items()]
    if card is not None and card_conf >= CARD_READ:
        keys.append((("card", card), card_conf))
    else:
        card = None
    aligned = {(x + dx, y + dy, z): False for x, y, z in misaligned}
    return Reading(moved_cubes, moved_giants, card, card_conf, tuple(keys), best_shift, aligned)


def cost(state: HlcState, reading: Reading) -> float:
    return mismatch_cost(expected_keys(state), reading.keys)


def explain(state: HlcState, observation: Observation) -> float:
    return cost(state, register(state, observation))


def expected_observation(state: HlcState) -> Observation:
    pieces = [Piece("cube", cell=(x, y), level=z) for x, y, z in sorted(state.cubes)]
    for seat, pos in zip(state.players, state.giants):
        if pos is not None:
            pieces.append(Piece("giant", cell=pos, level=state.height(pos), attrs={"colour": seat}))
    if state.last_card is not None:
        pieces.append(Piece("card", zone="played", attrs={"card": state.last_card}))
    return Observation(game=GAME, pieces=tuple(pieces))


# -- candidate moves --------------------------------------------------------------------------

def moves_for(state: HlcState, reading: Reading) -> list[Move]:
    """Moves worth judging: those that produce (part of) the difference the camera saw."""
    if state.phase == PHASE_PLACEMENT:
        return [Place(colour, cell) for colour, (cell, _, _) in reading.giants.items()
                if colour in state.players and state.giants[state.players.index(colour)] is None]
    if state.phase != PHASE_PLAY or state.turn is None:
        return []
    active = state.players[state.turn]
    if state.last_card is not None and reading.card is None:
        pile = [Pile()]
    else:
        pile = []
    seen_cubes = {cube for cube, _ in reading.cubes}
    new_cubes = sorted(seen_cubes - state.cubes)
    gone = sorted(c for c in state.cubes if c not in seen_cubes and not top_covered(c, state.cubes))
    moved: dict[str, Cell] = {}
    for seat, pos in zip(state.players, state.giants):
        seen = reading.giants.get(seat)
        if pos is not None and seen is not None and seen[0] != pos:
            moved[seat] = seen[0]
    cards = [reading.card] if reading.card else list(CARDS)
    out: list[Move] = []
    for cube in new_cubes:
        x, y, _ = cube
        aligned = reading.aligned.get(cube, True)
        out.append(Play(active, NAPOZLA, cube=(x, y, actions.cube_level(state, x, y)),
                        aligned=aligned))
    for cube in gone:
        seat = state.turn
        options = actions.relocation_options(state, cube, seat)
        seen_option = tuple((s, moved[s]) for s, _ in (options[0] if options else ()) if s in moved)
        for option in options + ([seen_option] if seen_option not in options else []):
            out.append(Play(active, NENLEVSA, cube=cube, relocate=option))
    out.extend(_giant_moves(state, active, moved))
    out.extend(Play(active, card) for card in cards)  # laid without (yet) an action
    out.extend(pile)
    unique: dict[Move, None] = dict.fromkeys(out)
    return list(unique)


def _giant_moves(state: HlcState, active: str, moved: dict[str, Cell]) -> Iterable[Move]:
    if not moved:
        return
    own = moved.get(active)
    others = {s: c for s, c in moved.items() if s != active}
    if own is not None and not others:
        for card in (MOAVEOU, HOPLA, POUSSTOIA):
            yield Play(active, card, to=own)
    if own is None and len(others) == 1:
        (victim, to), = others.items()
        yield Play(active, TVAVOARTOA, target=victim, to=to)
        yield Play(active, POUSSTOIA, target=victim, to=to)
        for card in (MOAVEOU, HOPLA):  # a giant moved out of turn
            yield Play(victim, card, to=to)
    if own is not None and len(others) == 1:
        (victim, to), = others.items()
        vpos = state.giants[state.players.index(victim)]
        if own == vpos:
            yield Play(active, POUSSTOIA, target=victim, to=to, take=True)
        else:
            yield Play(active, POUSSTOIA, target=victim, to=to, pusher_to=own)


def candidates(game, state: HlcState, observation: Observation) -> list[Candidate]:
    """See :meth:`companion.games.base.Game.candidates`."""
    reading = register(state, observation)
    found = []
    for move in moves_for(state, reading):
        try:
            verdict = game.check(state, move)
            after = game.apply(state, move)
        except MalformedMove:
            continue
        # a card laid whose action is possible is a move begun: the action may still come; a
        # card with nothing to do is a discard, complete at once
        complete = not (isinstance(move, Play) and move.is_null and not verdict.legal)
        found.append(Candidate(move=move, state=after, verdict=verdict,
                               cost=cost(after, reading), complete=complete))
    found.sort(key=lambda c: (c.cost, not c.verdict.legal, not c.complete))
    return found
