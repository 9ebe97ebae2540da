"""From what changed on the table to the moves that could have changed it.

The camera shows a height map and flags. Between two still moments the difference is a set of
squares that lost blocks, a set that gained blocks, flags that left squares and flags that
appeared. Blocks are identical, so a lost block is a block taken and a gained one a block put
down; a flag that left one square and a flag of the same colour that appeared on another moved
(along the cheapest path, see :mod:`paths`); an enemy flag gone from a square where the mover's
flag now stands was captured; a flag that appeared with none gone is a captured flag re-entered.

What the difference cannot say is who did it when a still moment spans the end of one turn and
the start of the next: so two readings are built, *the same turn goes on* and *the turn ended
and the next player began* (splitting the blocks between the two players, the flags by colour),
each in the order of actions that breaks the fewest rules. The camera layer then judges and
prices them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations
from typing import Iterable, Iterator

from companion.games.base import MalformedMove
from companion.games.terra_turrium import board
from companion.games.terra_turrium.moves import (
    END_TURN, ENTER, GO, Action, Move, enter, go, lay, put, take,
)
from companion.games.terra_turrium.paths import best_path, chain
from companion.games.terra_turrium.state import (
    PHASE_LAYOUT, PHASE_PLAY, STAGE_TAKE, TerraTurriumState,
)
from companion.games.terra_turrium.table import Table

#: orders of takes tried at most
MAX_ORDERS = 24
#: ways of splitting the blocks between two players tried at most
MAX_SPLITS = 120

FlagSet = Counter  # Counter[(square, colour)]


def _unique(items: Iterable[tuple[int, ...]],
            limit: int | None = None) -> list[tuple[int, ...]]:
    """The distinct items, in order, at most ``limit`` of them (read lazily: nine blocks have
    362 880 orders, and only the first few are ever tried)."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
            if limit is not None and len(out) >= limit:
                break
    return out


def _try(state: TerraTurriumState, actions: list[Action]) -> tuple[int, Table] | None:
    """Play ``actions``; (rules broken, table), or None when they cannot be played at all."""
    table = Table(state)
    try:
        for action in actions:
            table.play(action)
    except MalformedMove:
        return None
    return len(table.violations), table


def _ordered_takes(state: TerraTurriumState, squares: list[int]) -> list[Action]:
    """The takes in the order that breaks the fewest rules (an exterior square may become
    interior, or the other way round, as blocks are lifted)."""
    best: tuple[int, list[Action]] | None = None
    for order in _unique(permutations(sorted(squares)), MAX_ORDERS):
        actions = [take(s) for s in order]
        tried = _try(state, actions)
        if tried is not None and (best is None or tried[0] < best[0]):
            best = (tried[0], actions)
            if tried[0] == 0:
                break
    return best[1] if best else [take(s) for s in sorted(squares)]


def _multiset_minus(items: list[int], part: tuple[int, ...]) -> list[int]:
    rest = Counter(items)
    rest.subtract(part)
    return sorted(rest.elements())


# -- flags --------------------------------------------------------------------------------------


class FlagChanges:
    """The flag differences between the state and the observation, attributed by colour."""

    def __init__(self, removed: FlagSet, added: FlagSet):
        self.sources: dict[str, list[int]] = {}
        self.targets: dict[str, list[int]] = {}
        self.vanished: list[tuple[int, str]] = []  # captured on the way (the capturer walked on)
        added_squares: dict[int, set[str]] = {}
        for (sq, colour), n in added.items():
            added_squares.setdefault(sq, set()).add(colour)
            self.targets.setdefault(colour, []).extend([sq] * n)
        for (sq, colour), n in removed.items():
            if added_squares.get(sq, set()) - {colour}:
                continue  # captured where it stood: the capturer's journey ends there
            self.sources.setdefault(colour, []).extend([sq] * n)
        for colour, sources in list(self.sources.items()):
            extra = len(sources) - len(self.targets.get(colour, []))
            if extra > 0:
                self.vanished += [(sq, colour) for sq in sources[-extra:]]
                self.sources[colour] = sources[:-extra]

    def colours(self) -> set[str]:
        return {c for c, v in self.sources.items() if v} | {c for c, v in self.targets.items() if v}


class _Journey:
    def __init__(self, colour: str, source: int | None, target: int, via: tuple[int, ...] = ()):
        self.colour, self.source, self.target, self.via = colour, source, target, via


def _journey_actions(table: Table, j: _Journey) -> list[Action] | None:
    """The actions of one journey on the table as it is now, or None if impossible."""
    actions: list[Action] = []
    here = j.source
    legs = list(j.via) + [j.target]
    for goal in legs:
        if here is None:  # a re-entry: the first leg starts on any square it may enter
            starts = {sq: ((table.reentry_rule(sq, j.colour) is not None), 1, 0)
                      for sq in range(board.SQUARES)}
            found = best_path(table, j.colour, starts, goal, None)
            if found is None:
                return None
            path, _ = found
            if len(path) > 1:
                actions += [go(*leg) for leg in chain(table, j.colour, path)][:-1]
            actions.append(enter(path[0]))
            if len(path) > 1:
                actions.append(go(*chain(table, j.colour, path)[-1]))
        else:
            found = best_path(table, j.colour, {here: (0, 0, 0)}, goal, here)
            if found is None:
                return None
            actions += [go(*leg) for leg in chain(table, j.colour, found[0])]
        here = goal
    return actions


def _journey_cost(table: Table, j: _Journey) -> tuple[int, int]:
    if j.source is None:
        starts = {sq: ((table.reentry_rule(sq, j.colour) is not None), 1, 0)
                  for sq in range(board.SQUARES)}
        found = best_path(table, j.colour, starts, j.target, None)
    else:
        found = best_path(table, j.colour, {j.source: (0, 0, 0)}, j.target, j.source)
    if found is None:
        return (99, 99)
    return found[1][0], found[1][1]


def _assign(table: Table, colour: str, sources: list[int], targets: list[int],
            reentry: bool) -> list[_Journey]:
    """Pair sources with targets at the least total cost; spare targets are re-entries (when
    ``reentry``; otherwise they stay unexplained)."""
    sources = sources[:len(targets)]
    if not targets:
        return []
    if len(targets) > 6:
        pairs = list(zip(sources, targets))
        rest = targets[len(sources):]
    else:
        cost = {(s, t): _journey_cost(table, _Journey(colour, s, t))
                for s in set(sources) for t in set(targets)}
        entry = {t: _journey_cost(table, _Journey(colour, None, t)) for t in set(targets)}
        best: tuple[tuple[int, int], tuple[int, ...]] | None = None
        for chosen in _unique(permutations(targets, len(sources)), 720):
            rest_t = _multiset_minus(targets, chosen)
            total = [0, 0]
            for s, t in zip(sources, chosen):
                total[0] += cost[s, t][0]
                total[1] += cost[s, t][1]
            if reentry:
                for t in rest_t:
                    total[0] += entry[t][0]
                    total[1] += entry[t][1]
            key = (total[0], total[1])
            if best is None or key < best[0]:
                best = (key, chosen)
        assert best is not None
        pairs = list(zip(sources, best[1]))
        rest = _multiset_minus(targets, best[1])
    journeys = [_Journey(colour, s, t) for s, t in pairs]
    if reentry:
        journeys += [_Journey(colour, None, t) for t in rest]
    return journeys


def plan_flags(state: TerraTurriumState, mover: str, changes: FlagChanges,
               colours: Iterable[str], vanished: list[tuple[int, str]]) -> list[Action]:
    """The flag actions of ``mover``'s turn explaining ``changes`` for ``colours`` (its own, and
    others' flags it moved), with the flags in ``vanished`` captured on the way."""
    table = Table(state)
    journeys: list[_Journey] = []
    for colour in sorted(colours, key=lambda c: (c != mover, c)):
        journeys += _assign(table, colour, changes.sources.get(colour, []),
                            changes.targets.get(colour, []), reentry=colour == mover)
    for sq, colour in vanished:
        own = [j for j in journeys if j.colour == mover]
        if not own or colour == mover:
            continue  # nobody walked there, or a player's own flag: no capture explains it
        # the journey that makes the smallest detour through the captured square
        def detour(j: _Journey) -> tuple[int, int]:
            a = _journey_cost(table, _Journey(mover, j.source, sq))
            b = _journey_cost(table, _Journey(mover, sq, j.target))
            return a[0] + b[0], a[1] + b[1]
        chosen = min(own, key=detour)
        chosen.via = chosen.via + (sq,)
    if not journeys:
        return []
    count = len(journeys)
    orders = list(permutations(range(count))) if count <= 3 \
        else [tuple(range(count)), tuple(reversed(range(count)))]
    best: tuple[tuple[int, int], list[Action]] | None = None
    for order in orders:
        table = Table(state)
        actions: list[Action] = []
        possible = True
        for index in order:
            part = _journey_actions(table, journeys[index])
            if part is None:
                possible = False
                break
            try:
                for action in part:
                    table.play(action)
            except MalformedMove:
                possible = False
                break
            actions += part
        if not possible:
            continue
        key = (len(table.violations), -table.mp)
        if best is None or key < best[0]:
            best = (key, actions)
            if key[0] == 0:
                break
    return best[1] if best else []


# -- whole plans --------------------------------------------------------------------------------


def _put_sets(puts: list[int], capacity: int) -> list[tuple[int, ...]]:
    """The blocks seen put down, or, when more appeared than can have been carried (a misread
    square), each choice of the ones that were."""
    if len(puts) <= capacity:
        return [tuple(puts)]
    return _unique(combinations(puts, capacity), 10)


def _segment(state: TerraTurriumState, takes: list[int], puts: tuple[int, ...],
             changes: FlagChanges, colours: Iterable[str], vanished: list[tuple[int, str]],
             flag_actions: list[Action] | None = None,
             ) -> tuple[list[Action], TerraTurriumState] | None:
    """One player's part: blocks taken, blocks put, flags moved (planned here, unless given);
    and the state after it."""
    actions = _ordered_takes(state, takes) + [put(s) for s in puts]
    tried = _try(state, actions)
    if tried is None:
        return None
    after_blocks = tried[1].freeze()
    if flag_actions is None:
        flag_actions = plan_flags(after_blocks, state.active_seat, changes, colours, vanished)
    tried = _try(after_blocks, flag_actions)
    if tried is None:
        return None
    return actions + flag_actions, tried[1].freeze()


def layout_plans(state: TerraTurriumState, takes: list[int], puts: list[int],
                 added: FlagSet) -> list[Move]:
    actions: list[Action] = []
    table = Table(state)
    for index, colour in enumerate(state.players):
        squares = sorted(sq for (sq, c), n in added.items() if c == colour for _ in range(n))
        for sq in squares[:state.reserve[index]]:
            actions.append(lay(colour, sq))
    try:
        for action in actions:
            table.play(action)
    except MalformedMove:
        return []
    if table.phase == PHASE_PLAY and (takes or puts):
        after = table.freeze()
        return [Move(tuple(actions + _ordered_takes(after, takes) + [put(s) for s in chosen]))
                for chosen in _put_sets(puts, len(takes))]
    return [Move(tuple(actions))] if actions else []


def same_turn_plans(state: TerraTurriumState, takes: list[int], puts: list[int],
                    removed: FlagSet, added: FlagSet) -> Iterator[Move]:
    """The active player's turn goes on: every change is theirs."""
    changes = FlagChanges(removed, added)
    flags: list[Action] | None = None  # planned once: the choice of puts hardly changes them
    for chosen in _put_sets(puts, state.in_hand + len(takes)):
        seg = _segment(state, takes, chosen, changes, changes.colours(), changes.vanished,
                       flags)
        if seg is not None and seg[0]:
            flags = [a for a in seg[0] if a.kind in (GO, ENTER)]
            yield Move(tuple(seg[0]))


def _splits(state: TerraTurriumState, takes: list[int],
            puts: list[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Ways the active player's share ``(takes, puts)`` can be cut out of the blocks seen,
    largest share first: they must put down every block they hold before ending."""
    sizes = range(min(board.MAX_TAKES, len(takes)), -1, -1) if state.stage == STAGE_TAKE \
        else (0,)
    count = 0
    for size in sizes:
        need = state.in_hand + size
        if need > len(puts):
            continue
        for t1 in _unique(combinations(sorted(takes), size)):
            for p1 in _unique(combinations(sorted(puts), need)):
                if len(puts) - need > len(takes) - size:
                    continue  # the next player put down more than they took
                yield t1, p1
                count += 1
                if count >= MAX_SPLITS:
                    return


def next_turn_plans(state: TerraTurriumState, takes: list[int], puts: list[int],
                    removed: FlagSet, added: FlagSet) -> Iterator[Move]:
    """The active player's turn ended and the next player began: blocks are split between them
    (the split breaking the fewest rules), flags go by colour."""
    if state.phase != PHASE_PLAY:
        return
    nxt = state.players[(state.active + 1) % len(state.players)]
    changes = FlagChanges(removed, added)
    next_colours = {nxt} & changes.colours()
    if not takes and not next_colours:
        return  # nothing the next player did
    first_colours = changes.colours() - {nxt}
    # the blocks alone rank the splits; the flags are planned for the best few
    ranked: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
    for n, (t1, p1) in enumerate(_splits(state, takes, puts)):
        t2 = _multiset_minus(takes, t1)
        p2 = _multiset_minus(puts, p1)
        blocks = (_ordered_takes(state, list(t1)) + [put(s) for s in p1] + [END_TURN]
                  + [take(s) for s in t2] + [put(s) for s in p2])
        tried = _try(state, blocks)
        if tried is not None:
            ranked.append((tried[0], n, t1, p1))
    ranked.sort()
    best: tuple[int, list[Action]] | None = None
    for _vio, _n, t1, p1 in ranked[:2]:
        first = _segment(state, list(t1), p1, changes, first_colours, changes.vanished)
        if first is None:
            continue
        ended = _try(first[1], [END_TURN])
        if ended is None:
            continue
        after_end = ended[1].freeze()
        t2 = _multiset_minus(takes, t1)
        p2 = tuple(_multiset_minus(puts, p1))
        second = _segment(after_end, t2, p2, changes, next_colours, [])
        if second is None or not second[0]:
            continue
        actions = first[0] + [END_TURN] + second[0]
        tried = _try(state, actions)
        if tried is None:
            continue
        if best is None or tried[0] < best[0]:
            best = (tried[0], actions)
            if tried[0] == 0:
                break
    if best is not None:
        yield Move(tuple(best[1]))


def plans(state: TerraTurriumState, takes: list[int], puts: list[int], removed: FlagSet,
          added: FlagSet) -> list[Move]:
    if state.phase == PHASE_LAYOUT:
        return layout_plans(state, takes, puts, added)
    if state.phase != PHASE_PLAY:
        return []
    out = list(same_turn_plans(state, takes, puts, removed, added))
    out += list(next_turn_plans(state, takes, puts, removed, added))
    return out
