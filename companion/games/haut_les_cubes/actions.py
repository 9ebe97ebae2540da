"""What each card can legally do from a state: the action generators.

Each generator yields the *legal, effective* actions of one card for one seat. A card with no
such action is discarded without effect; a card with one must be used (the "compulsory when
possible" principle), which is why :func:`possible` matters as much as the lists themselves.
"""

from __future__ import annotations

from typing import Iterator

from companion.games.haut_les_cubes.cards import (
    HOPLA, MOAVEOU, NAPOZLA, NENLEVSA, POUSSTOIA, TVAVOARTOA,
)
from companion.games.haut_les_cubes.geometry import (
    NEIGHBOURS, Cell, Cube, adjacent, footprint, is_square, king_distance, neighbours,
    push_targets,
)
from companion.games.haut_les_cubes.mountain import after_change
from companion.games.haut_les_cubes.moves import Place, Play
from companion.games.haut_les_cubes.state import HlcState


def placements(state: HlcState) -> list[Place]:
    """First placements of the active seat's giant: free table squares touching a cube."""
    seat = state.active
    assert seat is not None
    taken = state.occupied()
    return [Place(seat, c) for c in sorted(state.mountain.ring) if c not in taken]


# -- Napozla ----------------------------------------------------------------------------------

def bbox(state: HlcState, margin: int) -> tuple[range, range]:
    xs = [c[0] for c in state.heights] or [0]
    ys = [c[1] for c in state.heights] or [0]
    return range(min(xs) - margin, max(xs) + margin), range(min(ys) - margin, max(ys) + margin)


def cube_level(state: HlcState, x: int, y: int) -> int:
    """The level a cube laid at (x, y) comes to rest at: on the highest cell under it."""
    return max(state.height(c) for c in footprint(x, y))


def napozla_actions(state: HlcState, seat: int) -> Iterator[Play]:
    """Every full-base placement touching the mountain, off the giants' squares."""
    if state.reserves[seat] == 0:
        return
    player = state.players[seat]
    giants = state.occupied()
    for x, y, z in state.mountain.sites:
        if giants and any(c in giants and state.height(c) == z for c in footprint(x, y)):
            continue
        yield Play(player, NAPOZLA, cube=(x, y, z))


# -- Nenlèvsa ---------------------------------------------------------------------------------

def removable(state: HlcState, cube: Cube) -> bool:
    """No cube (even offset) and no giant on top."""
    if cube not in state.mountain.free_tops:
        return False
    giants = state.occupied()
    return not any(c in giants and state.height(c) == cube[2] + 1 for c in footprint(cube[0], cube[1]))


_RELOCATIONS: dict[tuple, list[tuple[tuple[str, Cell], ...]]] = {}
_RELOCATIONS_LIMIT = 1_024


def removable_tops(state: HlcState) -> list[Cube]:
    """Every cube :func:`removable` allows (in the mountain's sorted order of free tops)."""
    heights = state.mountain.heights
    under = {(g, heights.get(g, 0) - 1) for g in state.giants if g is not None}
    return [c for c in state.mountain.free_tops
            if not any((cell, c[2]) in under for cell in footprint(c[0], c[1]))]


def relocation_options(state: HlcState, removed: Cube,
                       active: int) -> list[tuple[tuple[str, Cell], ...]]:
    """Where isolated giants go after a removal (RULINGS: isolated giants): the set of isolated
    giants is fixed right after the removal; each then moves, in turn order from the active
    player, to a nearest square free at that moment (king distance, then Euclidean). Ties are
    the owner's choice, so every combination of tied choices is an option.

    The answer depends only on the cubes, the giants, the removed cube and the active seat, and
    the same question is asked twice for every removal (once to list or draw the move, once to
    judge it), so answers are remembered. The list returned is shared: do not change it."""
    x, y = removed[0], removed[1]
    heights = state.mountain.heights
    for g in state.giants:  # is any giant on the ground beside the removed cube?
        if g is not None and x - 1 <= g[0] <= x + 2 and y - 1 <= g[1] <= y + 2 \
                and g not in heights:
            break
    else:
        return [()]  # nobody can be isolated
    key = (state.cubes, state.giants, state.players, removed, active)
    found = _RELOCATIONS.get(key)
    if found is None:
        if len(_RELOCATIONS) >= _RELOCATIONS_LIMIT:
            _RELOCATIONS.clear()
        found = _RELOCATIONS[key] = _relocation_options(state, removed, active)
    return found


def _relocation_options(state: HlcState, removed: Cube,
                        active: int) -> list[tuple[tuple[str, Cell], ...]]:
    n = len(state.players)
    after = after_change(state.cubes, removed, added=False)
    heights = after.heights
    order = [(active + k) % n for k in range(n)]
    isolated = [
        i for i in order
        if state.giants[i] is not None and heights.get(state.giants[i], 0) == 0
        and not is_square(state.giants[i], heights)  # type: ignore[arg-type]
    ]
    if not isolated:
        return [()]
    squares = sorted(after.ring)
    options: list[tuple[tuple[str, Cell], ...]] = []

    def place(k: int, positions: dict[int, Cell], chosen: tuple[tuple[str, Cell], ...]) -> None:
        if k == len(isolated):
            options.append(chosen)
            return
        seat = isolated[k]
        origin = state.giants[seat]
        assert origin is not None
        taken = {p for s, p in positions.items() if s != seat}
        free = [c for c in squares if c not in taken]
        if not free:  # nowhere to go (only after a removal the rules forbid): stays put
            place(k + 1, positions, chosen)
            return

        ox, oy = origin
        keys = [(max(abs(cx - ox), abs(cy - oy)), (cx - ox) ** 2 + (cy - oy) ** 2)
                for cx, cy in free]
        best = min(keys)
        for cell, k_cell in zip(free, keys):
            if k_cell == best:
                place(k + 1, {**positions, seat: cell}, chosen + ((state.players[seat], cell),))

    place(0, {i: p for i, p in enumerate(state.giants) if p is not None}, ())
    return options


def nenlevsa_actions(state: HlcState, seat: int) -> Iterator[Play]:
    if len(state.cubes) <= 1:
        return
    player = state.players[seat]
    for cube in removable_tops(state):
        for option in relocation_options(state, cube, seat):
            yield Play(player, NENLEVSA, cube=cube, relocate=option)


# -- giant moves ------------------------------------------------------------------------------

def _free_square(state: HlcState, cell: Cell, taken: set[Cell]) -> bool:
    return cell not in taken and (cell in state.mountain.heights or cell in state.mountain.ring)


def moaveou_destinations(state: HlcState, seat: int) -> list[Cell]:
    """The squares a Moavéou may take ``seat``'s giant to: a free neighbouring square at most
    one level up (orthogonal neighbours first)."""
    pos = state.giants[seat]
    if pos is None:
        return []
    heights = state.mountain.heights
    ring = state.mountain.ring
    level = heights.get(pos, 0)
    giants = state.giants
    x, y = pos
    out = []
    for dx, dy in NEIGHBOURS:
        n = (x + dx, y + dy)
        if n in giants:
            continue
        h = heights.get(n)
        if (h is not None and h <= level + 1) or (h is None and n in ring):
            out.append(n)
    return out


def moaveou_actions(state: HlcState, seat: int) -> Iterator[Play]:
    player = state.players[seat]
    for n in moaveou_destinations(state, seat):
        yield Play(player, MOAVEOU, to=n)


def pushes(state: HlcState, seat: int) -> list[Play]:
    """Pushes of a neighbouring giant at the same height (both pusher choices)."""
    pos = state.giants[seat]
    if pos is None:
        return []
    level = state.height(pos)
    taken = state.occupied()
    player = state.players[seat]
    out = []
    for v, vpos in enumerate(state.giants):
        if v == seat or vpos is None or not adjacent(pos, vpos) or state.height(vpos) != level:
            continue
        for t in push_targets(pos, vpos):
            if not _free_square(state, t, taken):
                continue
            if state.height(t) > level and not state.options.push_uphill:
                continue
            out.append(Play(player, POUSSTOIA, to=t, target=state.players[v]))
            out.append(Play(player, POUSSTOIA, to=t, target=state.players[v], take=True))
    return out


def void_pushes(state: HlcState, seat: int) -> list[Play]:
    """Steps 'into the void': a free neighbouring square at exactly the same level."""
    pos = state.giants[seat]
    if pos is None:
        return []
    level = state.height(pos)
    taken = state.occupied()
    player = state.players[seat]
    return [Play(player, POUSSTOIA, to=n) for n in neighbours(pos)
            if _free_square(state, n, taken) and state.height(n) == level]


def pousstoia_actions(state: HlcState, seat: int) -> list[Play]:
    found = pushes(state, seat)
    return found if found else void_pushes(state, seat)


def hopla_actions(state: HlcState, seat: int) -> Iterator[Play]:
    pos = state.giants[seat]
    if pos is None:
        return
    level = state.height(pos)
    taken = state.occupied()
    player = state.players[seat]
    for n in neighbours(pos):  # high jumps
        if _free_square(state, n, taken) and state.height(n) > level:
            yield Play(player, HOPLA, to=n)
    for c in state.mountain.squares_up_to(level):  # long jumps
        if c not in taken:
            yield Play(player, HOPLA, to=c)


def tvavoartoa_actions(state: HlcState, seat: int) -> Iterator[Play]:
    pos = state.giants[seat]
    if pos is None:
        return
    taken = state.occupied()
    player = state.players[seat]
    for t, tpos in enumerate(state.giants):
        if t == seat or tpos is None or adjacent(pos, tpos):
            continue
        level = state.height(tpos)
        for n in neighbours(tpos):
            if not _free_square(state, n, taken):
                continue
            if state.height(n) > level and not state.options.slingshot_uphill:
                continue
            yield Play(player, TVAVOARTOA, to=n, target=state.players[t])


GENERATORS = {
    NAPOZLA: napozla_actions, NENLEVSA: nenlevsa_actions, MOAVEOU: moaveou_actions,
    POUSSTOIA: pousstoia_actions, HOPLA: hopla_actions, TVAVOARTOA: tvavoartoa_actions,
}


def sample(state: HlcState, seat: int, card: str, rng) -> Play | None:
    """One legal effective action of ``card`` drawn uniformly, or None when there is none: the
    same distribution as a choice from :func:`actions`, without listing them all when the list
    is long (Napozla's sites are drawn by rejection)."""
    if card == NAPOZLA and state.reserves[seat] > 0:
        sites = state.mountain.sites
        giants = state.occupied()
        for _ in range(16 if sites else 0):
            x, y, z = rng.choice(sites)
            if not any(c in giants and state.height(c) == z for c in footprint(x, y)):
                return Play(state.players[seat], NAPOZLA, cube=(x, y, z))
    if card == HOPLA and state.giants[seat] is not None:
        pos = state.giants[seat]
        level = state.height(pos)
        taken = state.occupied()
        high = [n for n in neighbours(pos) if _free_square(state, n, taken) and state.height(n) > level]
        low = state.mountain.squares_up_to(level)
        free_low = len(low) - sum(1 for c in taken if state.height(c) <= level
                                  and c in state.mountain.squares)
        if not high and free_low <= 0:
            return None
        while True:  # uniform over high jumps and free long-jump squares, by rejection
            k = rng.randrange(len(high) + len(low))
            if k < len(high):
                return Play(state.players[seat], HOPLA, to=high[k])
            cell = low[k - len(high)]
            if cell not in taken:
                return Play(state.players[seat], HOPLA, to=cell)
    if card == MOAVEOU:  # the commonest card: draw the destination, build one move
        found_cells = moaveou_destinations(state, seat)
        return Play(state.players[seat], MOAVEOU, to=rng.choice(found_cells)) if found_cells else None
    found = actions(state, seat, card)
    return rng.choice(found) if found else None


def actions(state: HlcState, seat: int, card: str) -> list[Play]:
    """Every legal effective action of ``card`` for ``seat``."""
    return list(GENERATORS[card](state, seat))


def possible(state: HlcState, seat: int, card: str) -> bool:
    """Whether ``card`` has an effect available, so that discarding it is not allowed."""
    if card == POUSSTOIA and state.options.push_void_optional:
        return bool(pushes(state, seat))
    return next(iter(GENERATORS[card](state, seat)), None) is not None
