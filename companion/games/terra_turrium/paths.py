"""The cheapest way a flag could have gone from one square to another.

The camera sees where a flag stood and where it stands now, never the squares in between. The
referee assumes the path most favourable to the player: the one breaking the fewest rules
(spending more movement points than are left counts as one), then costing the fewest points.
Only when no legal path exists does the flag's move read as illegal, and then it names the rule
the best path breaks (a two-level climb, an empty square, a tower that carries a flag, ...).

Flags of one colour are identical, so a path across a square holding one of the mover's own
flags is a *chain*: that flag stepped on ahead and the mover took its square. The board ends the
same, for the same points, so the chain is what the referee assumes (:func:`chain`); only an
enemy flag in the way makes a path illegal.
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
              moving_from: int | None,
              budget: int | None = None) -> tuple[tuple[int, ...], Cost] | None:
    """The best path to ``target`` from one of ``starts`` (square -> cost already spent), as
    the squares walked and its cost; ``moving_from`` is the square the moving flag leaves (its
    own presence there is no obstacle); ``budget`` the movement points left (the table's, by
    default). Reaching ``target`` where an enemy flag stands is a capture, priced by the capture
    table."""
    heights = table.heights
    budget = table.mp if budget is None else budget
    over = budget + 1
    occupied = _occupants(table, moving_from, colour)
    attacks_left = (colour not in table.players
                    or table.attacks[table.players.index(colour)] < board.MAX_ATTACKS)

    def final_step(a: int) -> tuple[int, int]:
        here = occupied.get(target, [])
        enemy = any(c != colour for c in here)
        vio = (heights[target] == 0) + (abs(heights[target] - heights[a]) > 1) + (colour in here)
        if enemy and board.territory(target) != colour and not attacks_left:
            vio += 1
        return vio, table.step_cost(a, target, enemy)

    # a node is (square, points spent, capped at one over the budget)
    Node = tuple[int, int]
    best: dict[Node, Cost] = {}
    parent: dict[Node, Node | None] = {}
    heap: list[tuple[Cost, Node]] = []
    for sq, cost in starts.items():
        spent = min(cost[1], over)
        cost = (cost[0] + (spent == over), cost[1], cost[2])
        node = (sq, spent)
        if node not in best or cost < best[node]:
            best[node], parent[node] = cost, None
            heapq.heappush(heap, (cost, node))
    done: set[Node] = set()
    found: Node | None = None
    while heap:
        cost, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        a, spent = node
        if a == target:
            found = node
            break
        for b in board.neighbours(a):
            if b == target:
                vio, mp = final_step(a)
            else:
                # an own flag on the way is no obstacle: it steps on ahead (a chain)
                vio = ((heights[b] == 0) + (abs(heights[b] - heights[a]) > 1)
                       + any(c != colour for c in occupied.get(b, ())))
                mp = 1
            now = min(spent + mp, over)
            vio += (now == over and spent < over)
            new = (cost[0] + vio, cost[1] + mp, cost[2] + 1)
            child = (b, now)
            if child not in best or new < best[child]:
                best[child], parent[child] = new, node
                heapq.heappush(heap, (new, child))
    if found is None:
        return None
    path = [found]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])  # type: ignore[arg-type]
    return tuple(sq for sq, _ in reversed(path)), best[found]


def chain(table: Table, colour: str, path: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The flag moves of ``path`` as a chain: the path is cut at each square holding an own
    flag, and the cuts are walked from the far end, each flag stepping on ahead before the one
    behind it arrives."""
    own = {sq for sq, c in table.flags if c == colour}
    cuts = [0] + [i for i in range(1, len(path) - 1) if path[i] in own and path[i] != path[0]]
    cuts.append(len(path) - 1)
    legs = [path[cuts[k]:cuts[k + 1] + 1] for k in range(len(cuts) - 1)]
    return list(reversed(legs))
