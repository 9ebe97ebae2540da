"""A giant standing on a cube its own body hides.

Two giants side by side on one cube, or one in the middle of a cube's top seen nearly straight
down, can cover most of that top: the height search, with the giants' pixels left out of its
evidence, then finds too little of the cube to keep it, and the giants are read standing on
whatever lies under it, a level low. Their pawns say otherwise: a pawn's points projected from
a level too low fall partly beside its image, so it is read unsure, and from the true level
they fall on it. So an unsure giant is also judged a level up, on each cube that could hold it
there (a cube lying flat on what the heights read under its square); where its pawn fits
clearly better up there, that cube is put in and the giants are read again on the new heights.
"""

from __future__ import annotations

from typing import Callable

from companion.vision.hlc.giants import GiantReading
from companion.vision.hlc.mountain import MountainReading, finish
from companion.vision.hlc.structure import cells_of

#: only giants read less sure than this are judged a level up (a pawn seen whole on its true
#: level is read at 0.9 and more; a level low, 0.70-0.76 in the corpus frames that showed it)
UNSURE = 0.85
#: and the pawn must fit this much better up there (0.22-0.23 where it stood on a hidden
#: cube; every giant of the corpus's first 40 positions at its true level gained under 0.01)
GAIN = 0.15

FindGiants = Callable[[dict[tuple[int, int], int]], list[GiantReading]]


def lift_giants(mountain: MountainReading, giants: list[GiantReading], find: FindGiants
                ) -> tuple[MountainReading, list[GiantReading]]:
    """``mountain`` and ``giants`` with each unsure giant that stands clearly better on a hidden
    cube put up there, the cube added to the mountain (changed in place) and the giants read
    again (``find``: the giants on a height map, as the reader finds them)."""
    search = mountain.search
    for g in sorted(giants, key=lambda gr: gr.conf):
        if g.conf >= UNSURE or g.level + 1 > search.levels:
            continue
        if mountain.heights.get(g.cell, 0) != g.level:
            continue  # a giant lifted before stands on this cube already
        # the cubes that could hold the pawn up there (its cell one of their four), each with
        # how well the pawn fits on it and how well the mountain's own evidence takes it (the
        # pawn fits alike on any of them: the one the picture round the pawn shows is kept)
        best: tuple[float, tuple[int, int]] | None = None
        for pos in ((g.cell[0] - a, g.cell[1] - b) for a in (0, 1) for b in (0, 1)):
            cells = cells_of(*pos)
            if any(c not in search.grid.cellset or mountain.heights.get(c, 0) != g.level for c in cells):
                continue  # no cube lies flat there at the giant's level
            lifted = dict(mountain.heights)
            lifted.update({c: g.level + 1 for c in cells})
            conf = _fit(find(lifted), g, g.level + 1)
            if conf < g.conf + GAIN:
                continue
            gain = search.gain(search.tower_move(pos, g.level + 1))[0]
            if best is None or gain > best[0]:
                best = (gain, pos)
        if best is None:
            continue
        before_towers, before_heights = dict(search.towers), dict(search.heights)
        pos = best[1]
        search.towers[pos] = g.level + 1
        search.apply(search.tower_move(pos, g.level + 1))
        finish(mountain)
        found = find(mountain.heights)
        # kept only if the giants read on the new heights have the pawn up there and lose
        # none of the others (a pawn behind the mountain whose head alone shows fits a level
        # up as well, as its lower points then fall on the head: the cube it would need there
        # changes what the other pawns are judged on)
        others = {gr.colour for gr in giants if gr is not g}
        conf = _fit(found, g, g.level + 1)
        if conf >= g.conf + GAIN and others <= {gr.colour for gr in found}:
            cube = (pos[0], pos[1], g.level)
            if cube in mountain.conf:  # seen through the pawn it holds up more than its sliver
                mountain.conf[cube] = max(mountain.conf[cube], round(conf, 4))
            giants = found
            continue
        search.towers = before_towers
        back = tuple((c, before_heights.get(c, 0)) for c in sorted(set(search.heights) | set(before_heights))
                     if search.heights.get(c, 0) != before_heights.get(c, 0))
        if back:
            search.apply(back)
        finish(mountain)
    return mountain, giants


def _fit(found: list[GiantReading], g: GiantReading, level: int) -> float:
    """How surely ``found`` has ``g``'s pawn on its square at ``level`` (0: not there)."""
    return max((f.conf for f in found if f.colour == g.colour and f.cell == g.cell and f.level == level),
               default=0.0)

