"""The cheapest way a flag could have gone from one square to another.

The camera sees where a flag stood and where it stands now, never the squares in between. The
referee assumes the path most favourable to the player: the one breaking the fewest rules, then
costing the fewest movement points. Only when no legal path exists does the flag's move read as
illegal, and then it names the rule the best path breaks (a two-level climb, an empty square, a
tower that carries a flag, ...).
"""

from __future__ import annotations

import heapq

from companion.games.terra_turrium import board
from companion.games.terra_turrium.table import Table

#: (rules broken, movement points, steps)
Cost = tuple[int, int, int]


def _occupants(table: Table, moving_from: int | None, colour: str) -> dict[int, list[str]]:
    occupied: dict[int, list[str]] = {}
    skipped = False
    for sq, c in table.flags:
        if not skipped and sq == moving_from and c == colour:
            skipped = True  # the moving flag itself
            continue
        occupied.setdefault(sq, []).append(c)
    return occupied


def best_path(table: Table, colour: str, starts: dict[int, Cost], target: int,
              moving_from: int | None) -> tuple[tuple[int, ...], Cost] | None:
    """The best path to ``target`` from one of ``starts`` (square -> cost already spent), as
    the squares walked and its cost; ``moving_from`` is the square the moving flag leaves (its
    own presence there is no obstacle). Reaching ``target`` where an enemy flag stands is a
    capture, priced by the capture table."""
    heights = table.heights
    occupied = _occupants(table, moving_from, colour)
    attacks_left = table.attacks[table.players.index(colour)] < board.MAX_ATTACKS \
        if colour in table.players else True

    def final_cost(a: int) -> Cost:
        here = occupied.get(target, [])
        enemy = any(c != colour for c in here)
        vio = (heights[target] == 0) + (abs(heights[target] - heights[a]) > 1) + (colour in here)
        if enemy and board.territory(target) != colour and not attacks_left:
            vio += 1
        return vio, table.step_cost(a, target, enemy), 1

    best: dict[int, Cost] = {}
    parent: dict[int, int | None] = {}
    heap: list[tuple[Cost, int]] = []
    for sq, cost in starts.items():
        if sq not in best or cost < best[sq]:
            best[sq], parent[sq] = cost, None
            heapq.heappush(heap, (cost, sq))
    done: set[int] = set()
    result: tuple[Cost, int] | None = None
    while heap:
        cost, a = heapq.heappop(heap)
        if a in done:
            continue
        done.add(a)
        if a == target:
            if result is None or cost < result[0]:
                result = (cost, a)
            continue
        for b in board.neighbours(a):
            if b == target:
                step = final_cost(a)
            else:
                step = ((heights[b] == 0) + (abs(heights[b] - heights[a]) > 1)
                        + (b in occupied), 1, 1)
            new = (cost[0] + step[0], cost[1] + step[1], cost[2] + step[2])
            if b not in best or new < best[b]:
                best[b], parent[b] = new, a
                heapq.heappush(heap, (new, b))
    if target not in best:
        return None
    path = [target]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])  # type: ignore[arg-type]
    return tuple(reversed(path)), best[target]
