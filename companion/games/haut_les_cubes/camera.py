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

When the reader says where the camera stands (``board.camera``), each state is judged by what
that camera could see of it (:class:`Sight`): a piece the state's mountain hides costs little
when the reading misses it, and a giant read along the line of sight of a state's giant whose
square the reading lacks (the cube under it hidden behind a tower) is that giant, the cube
under it missed with it. Without the camera's place every piece counts as in plain view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping

import numpy as np

from companion.games.base import Candidate, MalformedMove
from companion.games.matching import MISS, MISS_HIDDEN, mismatch_cost
from companion.games.haut_les_cubes import actions
from companion.games.haut_les_cubes.cards import (
    CARDS, HOPLA, MOAVEOU, NAPOZLA, NENLEVSA, POUSSTOIA, TVAVOARTOA,
)
from companion.games.haut_les_cubes.geometry import Cell, all_squares, heights_of, top_covered
from companion.games.haut_les_cubes.moves import Move, Pile, Place, Play
from companion.games.haut_les_cubes.state import PHASE_PLACEMENT, PHASE_PLAY, HlcState
from companion.observation import Observation, Piece

GAME = "haut-les-cubes"
#: how far (in cells) the whole mountain may have drifted between two readings
MAX_SHIFT = 3
#: a card read with less confidence than this is treated as unread
CARD_READ = 0.5


#: the table kit's pieces in cells (a cell is half a cube): a cube is two cells high, a giant
#: 28 mm high and 14 mm wide on 20 mm cells
CUBE_H = 2.0
GIANT_H = 1.4
GIANT_R = 0.35
#: a piece the camera sees less of than ``SEEN_LOW`` (past the mountain of the state judged)
#: costs :data:`MISS_HIDDEN` when missed; one it sees ``SEEN_HIGH`` of or more :data:`MISS`,
#: linearly between (the reader finds a cube from a third of its faces)
SEEN_LOW, SEEN_HIGH = 0.1, 0.3
#: the points a cube's face is judged on (:meth:`Sight.cube_faces`): a grid this many across,
#: and on a side this many up
FACE_GRID, FACE_GRID_UP = 6, 4
#: how far apart (cells, across the line of sight) two giants' images may lie and still be
#: the same picture: half a square (a giant is 0.7 squares wide; the next square at the same
#: level is a whole square off, and a giant one level up and one square nearer than the one
#: behind it about a third of a square)
GIANT_LOOKALIKE = 0.5


class Sight:
    """What a camera at ``eye`` (lattice cells, heights in cells; from the observation's
    ``board.camera``) can see of a state's pieces: a point is seen when the straight line from
    it to the camera passes over every column of the mountain it crosses. The reader reports
    what it sees; a piece the mountain hides from this camera cannot be held against a state
    for not being seen, nor a giant read where its visible part points (along the same line of
    sight a mostly hidden giant on a cube and one on the table behind it look alike)."""

    def __init__(self, eye: tuple[float, float, float], heights: Mapping[Cell, int],
                 giants: Iterable[tuple[Cell, int]] = ()):
        self.eye = np.asarray(eye, float)
        self.heights = heights
        #: the giants standing (cell, level): they hide what is behind them too, and the reader
        #: leaves their pixels out of the mountain's evidence
        self.giants = [(c[0] + 0.5, c[1] + 0.5, level * CUBE_H) for c, level in giants]
        if heights:
            keys = np.array(list(heights), dtype=int)
            self.i0, self.j0 = keys.min(axis=0)
            i1, j1 = keys.max(axis=0)
            self.grid = np.zeros((i1 - self.i0 + 1, j1 - self.j0 + 1))
            for (i, j), h in heights.items():
                self.grid[i - self.i0, j - self.j0] = h * CUBE_H
            self.top = float(self.grid.max())
        else:
            self.grid = None

    def seen(self, points: np.ndarray, steps: int = 20, *, giants: bool = False,
             but: tuple[Cell, int] | None = None) -> np.ndarray:
        """Which points (N×3, cells) the camera sees past the mountain (and, with ``giants``,
        past the giants standing, but the one standing at ``but`` (cell, level): a giant's
        own points)."""
        if self.grid is None or len(points) == 0:
            return np.ones(len(points), bool)
        top = self.top
        if giants and self.giants:
            top = max(top, max(g[2] for g in self.giants) + GIANT_H)
        d = self.eye[None, :] - points
        reach = np.clip((top - points[:, 2]) / np.maximum(d[:, 2], 1e-6), 0.0, 1.0)
        t = np.linspace(0.03, 1.0, steps)
        q = points[:, None, :] + (t[None, :, None] * reach[:, None, None]) * d[:, None, :]
        ci = np.floor(q[..., 0]).astype(int) - self.i0
        cj = np.floor(q[..., 1]).astype(int) - self.j0
        inside = (ci >= 0) & (ci < self.grid.shape[0]) & (cj >= 0) & (cj < self.grid.shape[1])
        under = np.zeros(q.shape[:2])
        under[inside] = self.grid[ci[inside], cj[inside]]
        blocked = q[..., 2] < under - 0.05
        if giants:
            own = None if but is None else (but[0][0] + 0.5, but[0][1] + 0.5, but[1] * CUBE_H)
            for gx, gy, gz in self.giants:
                if own is not None and (gx, gy, gz) == own:
                    continue
                blocked |= (((q[..., 0] - gx) ** 2 + (q[..., 1] - gy) ** 2 < GIANT_R ** 2)
                            & (q[..., 2] >= gz) & (q[..., 2] <= gz + GIANT_H))
        return ~blocked.any(axis=1)

    def share(self, points: np.ndarray) -> float:
        return float(self.seen(points).mean()) if len(points) else 1.0

    def exposed(self, points: np.ndarray) -> np.ndarray:
        """Which points (N×3, cells) lie in the open, not inside a column of the mountain (a
        cube's side against its neighbour's, a top under the cube above: no camera sees
        those)."""
        if self.grid is None or len(points) == 0:
            return np.ones(len(points), bool)
        ci = np.floor(points[:, 0]).astype(int) - self.i0
        cj = np.floor(points[:, 1]).astype(int) - self.j0
        inside = (ci >= 0) & (ci < self.grid.shape[0]) & (cj >= 0) & (cj < self.grid.shape[1])
        under = np.zeros(len(points))
        under[inside] = self.grid[ci[inside], cj[inside]]
        return points[:, 2] >= under

    @staticmethod
    def giant_points(cell: Cell, level: int) -> np.ndarray:
        """Points of a giant standing on ``cell`` at ``level``: its axis and a ring round it."""
        cx, cy, z0 = cell[0] + 0.5, cell[1] + 0.5, level * CUBE_H
        pts = [(cx, cy, z0 + f * GIANT_H) for f in (0.3, 0.6, 0.9, 1.0)]
        for a in range(6):
            ang = a * math.pi / 3
            for f in (0.3, 0.75):
                pts.append((cx + GIANT_R * math.cos(ang), cy + GIANT_R * math.sin(ang), z0 + f * GIANT_H))
        return np.array(pts)

    def cube_points(self, cube: tuple[int, int, int]) -> np.ndarray:
        """Points of a cube's faces that look towards the camera (its top, and the sides on
        the camera's side), a grid on each just outside the face."""
        return self.cube_faces(cube)[0]

    def cube_faces(self, cube: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`cube_points` (a grid of :data:`FACE_GRID` × :data:`FACE_GRID` points on the
        top, :data:`FACE_GRID` × :data:`FACE_GRID_UP` on each side) and what each point stands
        for in the picture: its share of its face, times how squarely the face looks at the
        camera (the cosine between the face's normal and the way to the camera). A side the
        camera sees edge-on (the camera nearly in its plane) draws as a sliver, however many of
        its points are in sight."""
        x, y, z = cube
        z0, z1 = z * CUBE_H, (z + 1) * CUBE_H
        across = (np.arange(FACE_GRID) + 0.5) * (CUBE_H / FACE_GRID)
        up = z0 + (np.arange(FACE_GRID_UP) + 0.5) * (CUBE_H / FACE_GRID_UP)
        a, b = (m.ravel() for m in np.meshgrid(across, across, indexing="ij"))
        s, h = (m.ravel() for m in np.meshgrid(across, up, indexing="ij"))
        ex, ey, _ = self.eye
        faces = [(np.column_stack([x + a, y + b, np.full(len(a), z1 + 0.02)]), (0.0, 0.0, 1.0))]
        if ey < y:
            faces.append((np.column_stack([x + s, np.full(len(s), y - 0.02), h]), (0.0, -1.0, 0.0)))
        if ey > y + 2:
            faces.append((np.column_stack([x + s, np.full(len(s), y + 2.02), h]), (0.0, 1.0, 0.0)))
        if ex < x:
            faces.append((np.column_stack([np.full(len(s), x - 0.02), y + s, h]), (-1.0, 0.0, 0.0)))
        if ex > x + 2:
            faces.append((np.column_stack([np.full(len(s), x + 2.02), y + s, h]), (1.0, 0.0, 0.0)))
        points, weights = [], []
        for p, normal in faces:
            way = self.eye[None, :] - p
            cos = np.clip(way @ np.array(normal) / np.linalg.norm(way, axis=1), 0.0, 1.0)
            points.append(p)
            weights.append(cos / len(p))
        return np.concatenate(points), np.concatenate(weights)

    def cube_seen(self, cube: tuple[int, int, int], *, giants: bool = True) -> float | None:
        """The share of a cube this camera sees, as the picture draws it: of its faces turned
        to the camera (each point weighted as :meth:`cube_faces` says: the cube's outline in
        the picture), the part in the open (a side against a neighbour, a top under a cube,
        shows nothing) that the line to the camera finds past the mountain (and the giants
        standing, with ``giants``). None when no part of it is in the open."""
        points, weights = self.cube_faces(cube)
        return self.weighted_share(self.seen(points, giants=giants), self.exposed(points), weights)

    @staticmethod
    def weighted_share(seen: np.ndarray, bare: np.ndarray, weights: np.ndarray) -> float | None:
        """:meth:`cube_seen` from its points' sight, openness and weights."""
        total = float(weights.sum())
        if not bare.any() or total <= 1e-9:
            return None
        return float((weights * (seen & bare)).sum()) / total

    def directions(self, points: np.ndarray) -> np.ndarray:
        d = points - self.eye[None, :]
        return d / np.linalg.norm(d, axis=1, keepdims=True)

    def looks_like(self, seen_at: tuple[Cell, int], truth: tuple[Cell, int]) -> bool:
        """Whether a giant read at ``seen_at`` (cell, level) is what a giant standing at
        ``truth`` shows this camera: the part of it the mountain lets through and the
        reading's giant lie on the same lines of sight (:data:`GIANT_LOOKALIKE`)."""
        tp = self.giant_points(*truth)
        visible = tp[self.seen(tp)]
        if len(visible) == 0:
            return False
        a = self.directions(visible).mean(axis=0)
        b = self.directions(self.giant_points(*seen_at)).mean(axis=0)
        dist = float(np.linalg.norm(self.eye - visible.mean(axis=0)))
        gap = float(np.linalg.norm(a / np.linalg.norm(a) - b / np.linalg.norm(b))) * dist
        return gap <= GIANT_LOOKALIKE


def _miss_weight(share: float) -> float:
    u = min(1.0, max(0.0, (share - SEEN_LOW) / (SEEN_HIGH - SEEN_LOW)))
    return MISS_HIDDEN + u * (MISS - MISS_HIDDEN)


def expected_keys(state: HlcState, sight: Sight | None = None,
                  excused: Iterable[tuple[int, int, int]] = ()) -> list[tuple[Hashable, float]]:
    """What an ideal camera sees if ``state`` is true, each with the cost of missing it: a cube
    whose top is wholly covered may be invisible, so missing it costs little; with ``sight``
    (the camera's place is known), so does any piece the mountain hides from that camera.
    ``excused``: cubes whose absence from the reading is already explained (the cube under a
    giant read on the square behind it) and cost as little as a hidden one."""
    keys: list[tuple[Hashable, float]] = []
    open_cubes = [c for c in state.cubes if not top_covered(c, state.cubes)]
    weights = dict.fromkeys(open_cubes, MISS)
    if sight is not None and open_cubes:
        # every open cube's points judged in one pass
        faces = [sight.cube_faces(c) for c in open_cubes]
        allp = np.concatenate([p for p, _ in faces])
        seen = sight.seen(allp, giants=True)
        bare = sight.exposed(allp)
        ends = np.cumsum([len(p) for p, _ in faces])[:-1]
        for cube, (_, w), part, open_ in zip(open_cubes, faces, np.split(seen, ends),
                                             np.split(bare, ends)):
            share = Sight.weighted_share(part, open_, w)
            weights[cube] = MISS_HIDDEN if share is None else _miss_weight(share)
    weights.update(dict.fromkeys(excused, MISS_HIDDEN))
    for cube in state.cubes:
        keys.append((("cube",) + cube, weights.get(cube, MISS_HIDDEN)))
    for seat, pos in zip(state.players, state.giants):
        if pos is not None:
            level = state.height(pos)
            # a giant behind another giant (its pawn in front, from this camera) is hidden as
            # one behind a tower is
            weight = MISS if sight is None else _miss_weight(float(sight.seen(
                Sight.giant_points(pos, level), giants=True, but=(pos, level)).mean()))
            keys.append((("giant", seat, pos[0], pos[1], level), weight))
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
    #: the camera's place in the state's lattice cells (heights in cells), when the reader gave it
    eye: tuple[float, float, float] | None = None


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
    eye = _eye(observation.board, best_shift)
    return Reading(moved_cubes, moved_giants, card, card_conf, tuple(keys), best_shift, aligned, eye)


def _eye(board: Mapping[str, Any], shift: tuple[int, int]) -> tuple[float, float, float] | None:
    """The camera's place in lattice cells, from the reader's ``board`` (its lattice and the
    camera's table position, both in mm), moved by the registration's shift."""
    lat, cam = board.get("lattice"), board.get("camera")
    try:
        ox, oy = (float(v) for v in lat["origin"])
        a = math.radians(float(lat["angle_deg"]))
        pitch = float(lat["pitch"])
        x, y, z = (float(v) for v in cam)
    except (TypeError, KeyError, ValueError):
        return None
    if pitch <= 0 or not all(math.isfinite(v) for v in (ox, oy, a, x, y, z)):
        return None
    u = ((x - ox) * math.cos(a) + (y - oy) * math.sin(a)) / pitch
    v = (-(x - ox) * math.sin(a) + (y - oy) * math.cos(a)) / pitch
    return (u + shift[0], v + shift[1], z / pitch)


def cost(state: HlcState, reading: Reading) -> float:
    if reading.eye is None:
        return mismatch_cost(expected_keys(state), reading.keys)
    standing = [(pos, state.height(pos)) for pos in state.giants if pos is not None]
    sight = Sight(reading.eye, heights_of(state.cubes), standing)
    keys = list(reading.keys)
    read_heights = heights_of(cube for cube, _ in reading.cubes)
    excused: list[tuple[int, int, int]] = []
    # a giant read where one of its colour shows, standing on a square the reading does not
    # have at its level (the cube under it not seen), is that giant
    for seat, pos in zip(state.players, state.giants):
        seen = reading.giants.get(seat)
        if pos is None or seen is None:
            continue
        level = state.height(pos)
        if (seen[0], seen[1]) == (pos, level) or read_heights.get(pos, 0) == level:
            continue
        if sight.looks_like((seen[0], seen[1]), (pos, level)):
            old = ("giant", seat, seen[0][0], seen[0][1], seen[1])
            keys = [(("giant", seat, pos[0], pos[1], level), c) if k == old else (k, c) for k, c in keys]
            # the giant read lower than it stands: the cube holding it was not seen, which is
            # the same misreading, not a second one
            excused += [(x, y, level - 1) for x in (pos[0] - 1, pos[0]) for y in (pos[1] - 1, pos[1])
                        if (x, y, level - 1) in state.cubes and seen[1] < level]
    return mismatch_cost(expected_keys(state, sight, excused), keys)


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
    out.extend(_hidden_giant_moves(state, reading, reading.card))
    if reading.card == NAPOZLA and not new_cubes:
        out.extend(_hidden_cubes(state, reading))
    out.extend(Play(active, card) for card in cards)  # laid without (yet) an action
    out.extend(pile)
    unique: dict[Move, None] = dict.fromkeys(out)
    return list(unique)


#: the cards that move giants, with the giant each moves: the player's own, or another's
GIANT_CARDS = (MOAVEOU, HOPLA, POUSSTOIA, TVAVOARTOA)


def _hidden_giant_moves(state: HlcState, reading: Reading, card: str | None) -> list[Move]:
    """The giant moves that would take a giant the reading lacks to a square the camera cannot
    see: a giant gone from a square in plain view has gone somewhere, and behind the mountain is
    where the camera would lose it; a giant already out of sight may have been taken from one
    hidden square to another, which shows nothing but the card. Only the active player's legal
    actions with the giant card read in the zone are tried, to squares the camera sees too
    little of to be sure to find a giant there (one such destination settles; several that
    differ in what matters are a question, and so is a hidden giant's one destination against
    the card laid alone, the giant not moved yet)."""
    if reading.eye is None or state.turn is None:
        return []
    vanished = {seat for seat, pos in zip(state.players, state.giants)
                if pos is not None and seat not in reading.giants}
    if not vanished:
        return []
    active = state.players[state.turn]
    standing = [(pos, state.height(pos)) for pos in state.giants if pos is not None]
    sight = Sight(reading.eye, heights_of(state.cubes), standing)
    if card in GIANT_CARDS:
        # every giant read nowhere may have gone to a hidden square: one gone from plain view,
        # and one standing where the camera cannot see it (taken from one hidden square to
        # another, the picture shows only the card)
        movers, cards = vanished, (card,)
    elif card is None and reading.card is None:
        # no card is read in the zone: a giant gone from plain view may have been taken out of
        # sight by a giant card the camera cannot read (hidden under a sleeve, or one the reader
        # fails on, laid in the empty zone or over the last card), as well as misread (the
        # table unchanged, or the last card moved to the pile); which, the picture cannot say
        # (see :attr:`HautLesCubes.asks_out_of_sight`). A giant already out of sight shows
        # nothing.
        movers = {seat for seat in vanished if sight.share(Sight.giant_points(
            state.giants[state.players.index(seat)],
            state.height(state.giants[state.players.index(seat)]))) >= SEEN_HIGH}
        cards = GIANT_CARDS
    else:
        # another card read in the zone: its move is what happened
        return []
    out: list[Move] = []
    for c in cards:
        for move in actions.actions(state, state.turn, c):
            mover = move.target if move.target is not None else active
            if mover not in movers or move.to is None:
                continue
            pts = Sight.giant_points(move.to, state.height(move.to))
            if float(sight.seen(pts, giants=True).mean()) < SEEN_HIGH:
                out.append(move)
    if card in (MOAVEOU, HOPLA) and active in movers and not out:
        # the player's own giant gone out of sight with its own giant card, and no square the
        # card allows is out of sight: it went where the card does not allow (a mistake), to
        # one of the squares the camera cannot see
        here = state.giants[state.turn]
        taken = {pos for pos in state.giants if pos is not None}
        for square in sorted(all_squares(heights_of(state.cubes)) - taken - {here}):
            pts = Sight.giant_points(square, state.height(square))
            if float(sight.seen(pts, giants=True).mean()) < SEEN_HIGH:
                out.append(Play(active, card, to=square))
    return out


def _hidden_cubes(state: HlcState, reading: Reading) -> list[Move]:
    """The active player's legal Napozla placements the camera would not see: with a Napozla
    read and no new cube, the cube may have been laid behind the mountain (one such place, or
    several, is asked about against the card laid alone, the cube not laid yet)."""
    if reading.eye is None or state.turn is None:
        return []
    standing = [(pos, state.height(pos)) for pos in state.giants if pos is not None]
    out: list[Move] = []
    for move in actions.actions(state, state.turn, NAPOZLA):
        cubes = state.cubes | {move.cube}
        sight = Sight(reading.eye, heights_of(cubes), standing)
        share = sight.cube_seen(move.cube)
        if share is None or share < SEEN_HIGH:
            out.append(move)
    return out


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
