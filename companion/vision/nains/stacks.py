"""Reading a stack of stones: a dwarf's building, stone by stone from the bottom, and the
kobold's blue tower.

A stack is a list of stones on one spot, each squared to the ones below (a player lines them up
with the building's card): level ``k`` stands on ``z = 20 k``; a long block or a roof's ridge
runs along the area's axis or across it; a roof only on top. A hypothesis for a stack is scored
as a whole (:func:`stack_score`) against the class log-posteriors of a top-down picture
(:mod:`.fitting`): each stone's visible points (its faces that face the camera, less the part of
its top the stone above sits on, less what the stone above hides from the camera when it
overhangs) should show one colour, the stone's; past the top stone's far edge and around the
foot, the table. Each stone must earn its place (its points' mean log-posterior above
:data:`LEVEL_COST`): a stone imagined on top of a stack makes its top's far half land on the
table, and it is refused.

The search (:func:`fit_stack`) finds the foot first (where a stone-sized column of "not table"
stands), then grows the stack level by level, keeping the few best stacks at each height (a
beam), and returns the best stack of all heights with each stone's colour and the confidence
its points give it. A stone the camera cannot see (straight down, under a wider stone) is still
reported (its level is known from the stones above) with the confidence its few points allow:
the referee knows the lower stones from the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.nains.fitting import SHADE_SIGMA, Fitter, facing, samples
from companion.vision.nains.kit import SHAPES, STONE_MM, stone_height
from companion.vision.nains.solids import place
from companion.vision.nains.solids import shape as solid_shape

#: the class the table around a stack's foot shows: the table, or the deep shadow the stack
#: casts on it (:class:`~companion.vision.nains.fitting.Fitter`)
GROUND = -3
#: a stone must explain its points at least this well (mean log-posterior) to be part of a stack
LEVEL_COST = -0.55
#: a roof whose ridge does not show (a darker line along its middle, or its two slopes lit
#: unlike) is doubted by this much: a flat top explains the same colours as a roof on it
ROOF_DOUBT = 0.6
RIDGE_LEVEL = 0.05
#: how much less a point too dark to show a colour counts for a stone than one of its colour
SHADOW_DOUBT = 1.0
#: what a stone costs when the camera sees none of it
HIDDEN_COST = 0.35
#: the weight of the faces' unevenness (see :meth:`_Levels._uneven`)
SHADE_WEIGHT = 0.15
#: the stones above a stone that may hide it (higher ones stand on these, squared to them)
OCCLUDERS = 2
#: stacks kept at each height
BEAM = 8
FILL_BEAM = 4
#: the turns a stone may take relative to the stack's square (a long block or a roof across)
TURNS = {"cube": (0.0,), "cylinder": (0.0,), "long": (0.0, 90.0), "roof": (0.0, 90.0)}
#: half-sizes (mm) of each shape's footprint in its own frame (cylinder: radius)
HALF = {"cube": (10.0, 10.0), "long": (20.0, 10.0), "roof": (10.0, 10.0), "cylinder": (10.0, 10.0), "die": (8.0, 8.0)}


@dataclass(frozen=True)
class Stone:
    """One stone of a stack hypothesis: shape, base centre (table mm), turn (degrees), and
    ``turn``: 0, or 90 for a long block or a roof lying across the stack's square."""

    shape: str
    x: float
    y: float
    yaw: float
    turn: float = 0.0


@dataclass(frozen=True)
class StackReading:
    """A stack read: its stones bottom first with each one's colour class, confidence, and the
    share of its sample points the camera could see."""

    stones: tuple[Stone, ...]
    classes: tuple[int, ...]
    conf: tuple[float, ...]
    seen: tuple[float, ...]
    score: float
    #: each stone's shape confidence, apart from its colour (:func:`shape_confidence`)
    shape_conf: tuple[float, ...] = ()


def _inside(xy: np.ndarray, stone: Stone, grow: float = 0.0) -> np.ndarray:
    """Whether points (… × 2) lie within the footprint of ``stone`` (grown by ``grow`` mm)."""
    c, s = _trig(stone.yaw)
    d = xy - np.array([stone.x, stone.y])
    u = d[..., 0] * c + d[..., 1] * s
    v = -d[..., 0] * s + d[..., 1] * c
    if stone.shape == "cylinder":
        return u * u + v * v <= (10.0 + grow) ** 2
    hx, hy = HALF[stone.shape]
    return (np.abs(u) <= hx + grow) & (np.abs(v) <= hy + grow)


_TRIG: dict = {}


def _trig(yaw_deg: float) -> tuple[np.float64, np.float64]:
    """The cosine and sine of a turn (degrees), kept: stones turn a few ways in a search."""
    hit = _TRIG.get(yaw_deg)
    if hit is None:
        a = np.radians(yaw_deg)
        hit = (np.cos(a), np.sin(a))
        if len(_TRIG) < 100000:
            _TRIG[yaw_deg] = hit
    return hit


def _facing(fitter: Fitter, stone: Stone, level: int) -> tuple[np.ndarray, np.ndarray]:
    """A stone's sample points at ``level`` (table mm) and how much each counts with nothing
    on the stone (:func:`~companion.vision.nains.fitting.facing`)."""
    X = _turned(stone.shape, "face_pts", stone.yaw) + np.array([stone.x, stone.y, level * STONE_MM])
    N = _turned(stone.shape, "face_normal", stone.yaw)
    return X, facing(N, fitter.C - X)


@lru_cache(maxsize=8192)
def _turned(shape: str, which: str, yaw: float) -> np.ndarray:
    """A shape's sample points (or their directions), ``which`` of its
    :class:`~companion.vision.nains.fitting.Samples`, turned ``yaw`` degrees about its base
    centre: a search tries a stone at many places turned a few ways (read only)."""
    out = Fitter._place(getattr(samples(shape), which), np.array([[0.0, 0.0, 0.0, yaw]]))[0]
    out.flags.writeable = False
    return out


def _hidden_by(fitter: Fitter, S, X: np.ndarray, level: int, j: int, up: Stone) -> np.ndarray:
    """Which of a stone's points ``X`` (at ``level``) the stone ``up`` standing ``j`` stones
    above the next one hides: the part of its top the next stone sits on, and whatever an
    upper stone hides when it overhangs."""
    C = fitter.C
    if j == 0:
        z0 = (level + 1) * STONE_MM
        top = S.face_top & (np.abs(X[:, 2] - z0) < 0.5)
        hide = top & _inside(X[:, :2], up)
    else:
        hide = np.zeros(len(X), bool)
    lo = (level + 1 + j) * STONE_MM
    return hide | _behind(C, X, up, lo)


def _behind(C: np.ndarray, X: np.ndarray, up: Stone, lo: float, margin: float = 0.0) -> np.ndarray:
    """Which points ``X`` the stone ``up`` standing at height ``lo`` hides from the camera at
    ``C``: those below it whose line of sight crosses its footprint (grown by ``margin``) at
    its foot, its middle or its top."""
    hi = lo + stone_height(up.shape)
    z = np.array([lo + 0.5, (lo + hi) / 2, hi])[:, None]
    t = (z - X[:, 2]) / np.maximum(C[2] - X[:, 2], 1e-6)
    xy = X[:, :2] + (C[:2] - X[:, :2]) * t[..., None]
    return ((X[:, 2] < z - 0.5) & _inside(xy, up, margin)).any(axis=0)


class _Levels:
    """Per-stone evidence of one stack search, kept between hypotheses (a stone's evidence only
    depends on it, its level and the stones above it)."""

    def __init__(self, fitter: Fitter, colour_classes: list[int], lit_alike: bool = True):
        self.fitter = fitter
        self.cls = list(colour_classes)
        #: whether faces turned one way on different stones must be lit alike (see
        #: :func:`_lit_alike`; not in a tower of cubes alone, see :func:`fit_stack`)
        self.lit_alike = lit_alike
        #: each stone's evidence and its flat faces as the picture lights them (see
        #: :meth:`level`, :meth:`faces`), by the stone, its level and the stones on it
        self.cache: dict = {}
        #: whole stacks' scores (:func:`stack_score`) and the ring terms of their ends
        #: (:func:`_ring`), kept: the search scores a stack again (its best place, its shape
        #: confidence) and fills in many stacks under one top stone
        self.stacks: dict = {}
        self.rings: dict = {}
        #: what a stone shows whatever stands on it (:meth:`_stone`), what each stone above
        #: hides of it (:func:`_hidden_by`), a roof's ridge (:func:`ridge`)
        self.stones: dict = {}
        self.hidden: dict = {}
        self.ridges: dict = {}
        #: a flat face's normal turned as its stone (:meth:`_uneven_flat`)
        self.normals: dict = {}
        #: a stone's ring points (:func:`_ring_points`) and what each stone over it hides of
        #: them (:func:`_ring_end`)
        self.rings_at: dict = {}
        self.ring_hidden: dict = {}

    def level(self, stone: Stone, level: int, above: tuple[Stone, ...]):
        return self._level(stone, level, above[:OCCLUDERS], not above)[0]

    def _level(self, stone: Stone, level: int, above: tuple[Stone, ...], bare: bool):
        """:meth:`level` and :meth:`faces` of a stone under the stones ``above`` (the
        :data:`OCCLUDERS` next ones; ``bare``: none at all)."""
        key = (stone, level, above)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        X, vis0, vals, L, S = self._stone(stone, level)
        hide = None
        for j, up in enumerate(above):
            hkey = (stone, level, j, up)
            m = self.hidden.get(hkey)
            if m is None:
                m = self.hidden[hkey] = _hidden_by(self.fitter, S, X, level, j, up)
            hide = m if hide is None else hide | m
        vis = vis0 if hide is None else vis0 * ~hide
        n = float(vis.sum())
        faces: tuple[tuple[np.ndarray, float, float], ...] = ()
        if n < 0.5:
            out = (self.cls[0], LEVEL_COST, 0.0, 0.0, 0.0)
        else:
            keep = vis > 0
            wv = vis[keep]
            m = (vals[:, keep] * wv).sum(axis=1) / wv.sum()
            uneven, faces = self._uneven(stone, None if L is None else L[keep], wv, keep)
            m = m - SHADE_WEIGHT * uneven
            if stone.shape == "roof" and bare:
                r = self.ridges.get((stone, level))
                if r is None:
                    r = self.ridges[(stone, level)] = ridge(self.fitter, stone, level)
                m = m - ROOF_DOUBT * (r < RIDGE_LEVEL)
            order = np.argsort(-m)
            b = int(order[0])
            margin = float(m[b] - m[order[1]]) if len(m) > 1 else 9.0
            out = (self.cls[b], float(m[b]), margin, n / len(vis), n)
        hit = self.cache[key] = (out, faces)
        return hit

    def ring_points(self, stone: Stone, level: int):
        """:func:`_ring_points`, kept."""
        key = (stone, level)
        hit = self.rings_at.get(key)
        if hit is None:
            hit = self.rings_at[key] = _ring_points(self.fitter, stone, level)
        return hit

    def _stone(self, stone: Stone, level: int):
        """What a stone at ``level`` shows whatever stands on it: its sample points, how much
        each counts (:func:`_facing`), each colour class's evidence at each point (a point too
        dark to show a colour weak evidence for every colour) and the picture's lightness
        there."""
        key = (stone, level)
        hit = self.stones.get(key)
        if hit is not None:
            return hit
        fitter = self.fitter
        S = samples(stone.shape)
        X, vis0 = _facing(fitter, stone, level)
        base = fitter._index(X, 0)
        off = len(fitter.table) - 1
        cols = np.asarray(self.cls + ([fitter.dark] if fitter.dark is not None else []))
        vals = np.take(fitter.table, np.where(base == off, off, base[None, :] + cols[:, None]))
        if fitter.dark is not None:
            # a side turned from the light can be too dark to show any colour: such a point
            # is weak evidence for every colour, never evidence against the stone
            vals = np.maximum(vals[:-1], vals[-1:] - SHADOW_DOUBT)
        L = None
        if fitter.L is not None:
            pix = np.where(base == off, len(fitter.L) - 1, base // fitter.stride)
            L = fitter.L[pix]
        hit = self.stones[key] = (X, vis0, vals, L, S)
        return hit

    def faces(self, stone: Stone, level: int, above: tuple[Stone, ...]
              ) -> tuple[tuple[np.ndarray, float, float], ...]:
        """The flat faces of a stone (as :meth:`level` saw them) that show enough points: each
        face's outward normal, its points' weight and their mean lightness; and, last, the
        weight they all share (what a stone's unevenness is divided by)."""
        return self._level(stone, level, above[:OCCLUDERS], not above)[1]

    def _uneven(self, stone: Stone, L: np.ndarray | None, wv: np.ndarray, keep: np.ndarray
                ) -> tuple[float, tuple[tuple[np.ndarray, float, float], ...]]:
        """How unevenly lit the stone's flat faces look (0 without the picture's lightness): a
        face is evenly lit, so a shape that puts an edge inside one of its faces (a stack of
        short stones laid over a long block lying towards the camera) is wrong. Also each
        face's normal, weight and mean lightness, for :func:`_lit_alike`. ``L``: the
        lightness at the points seen, ``wv`` their weights, ``keep`` which they are."""
        if L is None:
            return 0.0, ()
        S = samples(stone.shape)
        groups = S.face_group[keep]
        if stone.shape != "cylinder":
            return self._uneven_flat(stone, S, L, wv, keep, groups)
        normals = S.face_normal[keep]
        a = np.radians(stone.yaw)
        rot = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])
        total, weight = 0.0, 0.0
        faces = []
        for g in _groups(stone.shape):
            sel = groups == g
            if sel.sum() < 3:
                continue
            w = wv[sel]
            sw = float(w.sum())
            mu = float((L[sel] * w).sum() / sw)
            total += float((w * (L[sel] - mu) ** 2).sum())
            weight += sw
            normal = rot @ normals[sel].mean(axis=0)
            faces.append((normal / max(float(np.linalg.norm(normal)), 1e-9), sw, mu))
        return total / max(weight, 1e-9) / SHADE_SIGMA ** 2, tuple(faces)

    def _uneven_flat(self, stone: Stone, S, L: np.ndarray, wv: np.ndarray, keep: np.ndarray,
                     groups: np.ndarray) -> tuple[float, tuple[tuple[np.ndarray, float, float], ...]]:
        """:meth:`_uneven` for a shape whose faces are flat, one face to a group, its points in
        the order of their groups (all but the cylinder): each group's points seen are a run of
        the points seen, all with one normal."""
        gs = _groups(stone.shape)
        ends = np.searchsorted(groups, gs, side="right")
        starts = np.searchsorted(groups, gs, side="left")
        runs = ends > starts
        # each face's sums over its run of points (np.add.reduceat sums a run as .sum() does)
        at = starts[runs]
        sw_all = np.add.reduceat(wv, at)
        lw_all = np.add.reduceat(L * wv, at)
        total, weight = 0.0, 0.0
        faces = []
        big = (ends[runs] - at >= 3).tolist()
        if not any(big):
            return 0.0, ()
        sws = sw_all.tolist()
        mus = [float(lw / sw) for lw, sw in zip(lw_all, sws)]
        mu_each = np.repeat(np.asarray(mus), (ends[runs] - at))
        spread = np.add.reduceat(wv * (L - mu_each) ** 2, at).tolist()
        for g, a, b, sw, mu, sq, ok in zip(np.asarray(gs)[runs].tolist(), at.tolist(), ends[runs].tolist(),
                                           sws, mus, spread, big):
            if not ok:
                continue
            total += sq
            weight += sw
            nkey = (stone.shape, g, b - a, stone.yaw)
            normal = self.normals.get(nkey)
            if normal is None:
                c, s = np.cos(np.radians(stone.yaw)), np.sin(np.radians(stone.yaw))
                rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
                normal = rot @ S.face_normal[keep][a:b].mean(axis=0)
                normal = self.normals[nkey] = normal / max(float(np.linalg.norm(normal)), 1e-9)
            faces.append((normal, sw, mu))
        return total / max(weight, 1e-9) / SHADE_SIGMA ** 2, tuple(faces)


@lru_cache(maxsize=None)
def _groups(shape: str) -> tuple[int, ...]:
    """The flat faces' groups of a shape's sample points, in order."""
    return tuple(int(g) for g in np.unique(samples(shape).face_group))


#: two faces whose normals' cosine is at least this face the same way (:func:`_lit_alike`)
SAME_WAY = 0.95


def _lit_alike(faces: list[tuple[np.ndarray, float, float]], colours: list[int], owner: list[int],
               stones: int) -> np.ndarray:
    """For each stone, how unlike the faces of its colour that face the same way on the other
    stones of the stack its own are lit (in :meth:`_Levels._uneven`'s units): one light lights
    faces of one colour turned one way alike, whether on one stone or on several. A column of
    cubes imagined over a long block lying towards the camera shows this: its cubes' near
    faces, all of one colour and turned one way, fall on the block's lit top and on its shaded
    end alike."""
    out = np.zeros(stones)
    if len(faces) < 2:
        return out
    normals = np.array([f[0] for f in faces])
    sw = np.array([f[1] for f in faces])
    mu = np.array([f[2] for f in faces])
    col = np.asarray(colours)[owner]
    same = (normals @ normals.T >= SAME_WAY) & (col[:, None] == col[None, :])
    group_mu = (same * (sw * mu)[None, :]).sum(axis=1) / (same * sw[None, :]).sum(axis=1)
    spread = sw * (mu - group_mu) ** 2
    # each stone's sums in the faces' order (as np.add.at adds them)
    out = np.bincount(owner, spread, minlength=stones)
    weight = np.bincount(owner, sw, minlength=stones)
    return out / np.maximum(weight, 1e-9) / SHADE_SIGMA ** 2


def stack_score(fitter: Fitter, stones: list[Stone], colour_classes: list[int],
                background: int = 0, levels: "_Levels | None" = None, base: int = 0
                ) -> tuple[float, list[int], list[float], list[float], list[float]]:
    """The score of a whole stack (see the module docstring), or of its upper part from level
    ``base``: the total, and for each stone its best colour class, its mean log-posterior for
    it, the margin over the next colour, and the share of its points the camera sees."""
    levels = levels or _Levels(fitter, colour_classes)
    key = (tuple(stones), background, base)
    hit = levels.stacks.get(key)
    if hit is None:
        hit = levels.stacks[key] = _stack_score(fitter, stones, levels, background, base)
    total, chosen, means, margins, seen = hit
    return total, list(chosen), list(means), list(margins), list(seen)


def _stack_score(fitter: Fitter, stones: list[Stone], levels: "_Levels", background: int, base: int
                 ) -> tuple[float, tuple[int, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    total = 0.0
    chosen, means, margins, seen, counts = [], [], [], [], []
    faces, owner = [], []
    for k, stone in enumerate(stones):
        (c, m, g, share, n), lit = levels._level(stone, base + k, tuple(stones[k + 1:k + 1 + OCCLUDERS]),
                                                 k == len(stones) - 1)
        chosen.append(c)
        means.append(m)
        margins.append(g)
        seen.append(share)
        counts.append(n)
        for f in lit:
            faces.append(f)
            owner.append(k)
    unlike = _lit_alike(faces, chosen, owner, len(stones)) if levels.lit_alike else np.zeros(len(stones))
    for k in range(len(stones)):
        means[k] -= SHADE_WEIGHT * float(unlike[k])
        # a stone's evidence counts for as many points as the camera sees of it (up to a
        # face's worth), so a stone half hidden weighs less than one in full view; a stone the
        # camera cannot see at all is not free: nothing shows it is there
        w = min(1.0, counts[k] / 12.0)
        total += w * (means[k] - LEVEL_COST) - (1.0 - w) * HIDDEN_COST
    total += _ring(fitter, stones, background, chosen[-1] if chosen else background, base, levels)
    return total, tuple(chosen), tuple(means), tuple(margins), tuple(seen)


def _ring(fitter: Fitter, stones: list[Stone], background: int, top_class: int, base: int = 0,
          levels: "_Levels | None" = None) -> float:
    """Past the top stone's far edge (and across): anything but the top stone's colour; around
    the foot, on the camera's side and across: the table. A stack too tall, or too far, puts a
    stone where the camera sees past it. (Each end's term depends on that stone, its level,
    whether it is the top or the foot, and for the foot the stones over it: ``levels`` keeps
    them.)"""
    if not stones:
        return 0.0
    out = 0.0
    ends = [(len(stones) - 1, stones[-1])] if base else [(0, stones[0]), (len(stones) - 1, stones[-1])]
    for k, stone in ends:
        top = k == len(stones) - 1
        foot = k == 0 and not base
        over = tuple(stones[1:]) if k == 0 and len(stones) > 1 else ()
        key = (stone, base + k, top, foot, top_class if top else None, background, over)
        term = levels.rings.get(key) if levels is not None else None
        if term is None:
            term = _ring_end(fitter, stone, base + k, top, foot, top_class, background, over, levels)
            if levels is not None:
                levels.rings[key] = term
        out += term
    return out


def _ring_end(fitter: Fitter, stone: Stone, level: int, top: bool, foot: bool, top_class: int,
              background: int, over: tuple[Stone, ...], levels: "_Levels | None" = None) -> float:
    """One end's term of :func:`_ring`: the ring of ``stone`` at ``level``, the top's (past its
    far edge) and/or the foot's (``foot``), less what the stones ``over`` the foot hide."""
    X, along, past, S, pix, inside = (levels.ring_points(stone, level) if levels is not None
                                      else _ring_points(fitter, stone, level))
    keep = (past & (along > -0.3)) if top else (~S.ring_top & (along < 0.3))
    if top and foot:
        keep = keep | (~S.ring_top & (along < 0.3))
    if over:  # the foot's ring, where no upper stone hides it
        hide = None
        for j, up in enumerate(over):
            key = (stone, level, j, up)
            m = levels.ring_hidden.get(key) if levels is not None else None
            if m is None:
                m = _behind(fitter.C, X, up, (level + 1 + j) * STONE_MM, HIDE_MARGIN_MM)
                if levels is not None:
                    levels.ring_hidden[key] = m
            hide = m if hide is None else hide | m
        keep &= ~hide
    if keep.any():
        cls = np.where(past[keep] & top, -10 - top_class, background)
        idx = np.where(inside[keep], pix[keep] + fitter._column(cls), len(fitter.table) - 1)
        return float(np.take(fitter.table, idx).mean())
    return 0.0


def _ring_points(fitter: Fitter, stone: Stone, level: int):
    """A stone's ring points at ``level``, how far each one's outward direction runs away from
    the camera, which show what lies past its top, and where they fall in the picture."""
    S = samples(stone.shape)
    X = _turned(stone.shape, "ring_pts", stone.yaw) + np.array([stone.x, stone.y, level * STONE_MM])
    D = _turned(stone.shape, "ring_dir", stone.yaw)
    u = np.array([stone.x, stone.y]) - fitter.C[:2]
    u = u / max(float(np.linalg.norm(u)), 1e-9)
    along = D[:, :2] @ u
    past = S.ring_top | (_eaves(stone.shape) & (along > 0.3))
    pix, inside = fitter._pixels(X)
    return X, along, past, S, pix, inside


#: what a stone face's worth of the picture showing a stone, and left out by a stack, costs it
UNEXPLAINED_WEIGHT = 1.0


def _silhouette(fitter: Fitter, stones: list[Stone]) -> np.ndarray:
    """The plane picture's pixels a stack covers (each stone's corners projected, filled)."""
    mask = np.zeros((fitter.h, fitter.w), np.uint8)
    for k, st in enumerate(stones):
        solid = place(st.shape, st.x, st.y, k * STONE_MM, st.yaw, sides=12)
        px = fitter.to_px(solid.points)
        hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
    return mask > 0


def _solid(fitter: Fitter) -> np.ndarray:
    """How surely each pixel of the plane picture shows a piece: not the table, nor a shadow
    too dark to tell."""
    lp = fitter.lp
    ground = np.exp(lp[:, :, 0])
    if fitter.dark is not None:
        ground = ground + np.exp(lp[:, :, fitter.dark])
    return np.clip(1.0 - ground, 0.0, 1.0)


def _off_place(foot: Stone, near: tuple[float, float], search_mm: float) -> float:
    """How unlikely a stack's place is, ``search_mm`` being about two spreads of where stacks
    stand about their spot: a building of two stones whose lower one hides under a long
    block's overhang looks, from the camera, like the long block alone standing a level lower
    and farther off; only its place tells them apart."""
    d2 = (foot.x - near[0]) ** 2 + (foot.y - near[1]) ** 2
    return 0.5 * d2 / max(search_mm / 2.0, 1.0) ** 2


def _eaves(shape: str) -> np.ndarray:
    """The ring points of a shape that show what lies past its top on the far side besides
    its top's own ring: for a roof, the foot ring past its eaves (its top is only a ridge, so
    without these a roof on top would leave the far side unexplained, and a roof would fit the
    near end of any flat top)."""
    S = samples(shape)
    if shape != "roof":
        return np.zeros(len(S.ring_top), bool)
    return ~S.ring_top & (np.abs(S.ring_dir[:, 1]) > 0.5)  # the eaves run along the ridge


def fit_stack(fitter: Fitter, near: tuple[float, float], square_deg: float | None, colour_classes: list[int],
              *, max_levels: int, shapes: tuple[str, ...] = SHAPES, search_mm: float = 8.0,
              background: int = GROUND, under: tuple[Stone, ...] = (),
              unders: tuple[tuple[Stone, ...], ...] = ()) -> StackReading | None:
    """The stack standing near ``near`` (table mm), squared to ``square_deg`` (None: turned any
    way), or None when nothing stands there (see the module docstring).

    The top stone is in full view, so the search starts there: for each height, the place of
    a top stone of each shape that explains the picture best; the likeliest few are then
    filled in below, level by level (a beam), and the whole stack is moved to where it fits
    best. ``under``: the stack read there at the last still moment, if any: a stone put on a
    building leaves the ones under it as they were, so each top above it is also tried on
    those stones (:func:`_on_before`), beside the stones filled in under it; ``unders``: other
    stacks it may have been (its lowest stone barely seen under a long block taken out, see
    :func:`~companion.vision.nains.buildings.earlier_stacks`), tried the same way; and each is
    tried as it was too (a building untouched, read again because its neighbour's picture
    reaches over its slot)."""
    foot = _foot(fitter, near, square_deg, search_mm)
    if foot is None:
        return None
    # a stack of cubes alone has no long block to mistake for a column of cubes, and a shadow
    # across its lower cubes would only mislead the check that tells them apart
    levels = _Levels(fitter, colour_classes, lit_alike=set(shapes) != {"cube"})
    # the top is looked for about the stack's place, not about the foot: a stone-sized box
    # fits anywhere along a long block (or in front of it, on its near face), so the foot
    # tells the stack's turn and that it stands there better than where
    # a foot turned as far from the slot's square as its search reaches tells no turn (a
    # cube-sized box on a long block's end: 7.5° one way, the blocks 2–4° the other): the top
    # is then turned about the square as well
    loose = square_deg is not None and abs(foot[2] - square_deg) >= FOOT_TURN_REACH - 1e-6
    tops = _tops(fitter, (near[0], near[1], foot[2]), colour_classes, max_levels, shapes, search_mm,
                 square_deg if loose else None)
    filled = []
    for _, n, top in tops:
        for stones in _fills(fitter, levels, top, n, colour_classes, shapes, background):
            filled.append((stack_score(fitter, stones, colour_classes, background, levels)[0]
                           - _off_place(stones[0], near, search_mm), stones))
    if not filled:
        return None
    solid = _solid(fitter)
    # the likeliest few are each moved to where they fit best before they are compared: a
    # stack a millimetre or two off shows its lower stones' thin near faces on the table.
    # Likeliest as they are compared after, their place and what they leave out counted: a
    # lone roof fits the top of a stack a few millimetres nearer the camera than the stack's
    # foot and scores above the whole stack filled in under it (a violet cube, a yellow
    # cylinder and a violet roof came fourth by their stones alone, behind a lone roof, a
    # roof across and a cylinder that leave the cube and the cylinder out)
    window = _window(fitter, [stones for _, stones in filled])
    filled = [(score - _left_out(fitter, solid, window, stones), stones) for score, stones in filled]
    filled.sort(key=lambda t: -t[0])
    shifted = []
    for score, stones in filled[:SHIFTED]:
        if score < filled[0][0] - SHIFT_SPREAD:
            break
        stones = _shift(fitter, levels, stones, colour_classes, background, 1.0)
        score = stack_score(fitter, stones, colour_classes, background, levels)[0]
        shifted.append((score - _off_place(stones[0], near, search_mm), stones))
    window = _window(fitter, [stones for _, stones in shifted])
    # the stack read before with new stones on it, each moved to its best place, compared
    # with the others where they stand (the window theirs alone: a proposal does not change
    # how the fresh readings compare)
    for before in (under,) + tuple(unders):
        if before:
            # and as it was, nothing put on it: a slot is read again whenever anything in its
            # picture changes (a stone put on the building behind it as well), and the fresh
            # search may miss an unchanged stack that explains the picture best
            stones = _shift(fitter, levels, list(before), colour_classes, background, 1.0)
            score = stack_score(fitter, stones, colour_classes, background, levels)[0]
            shifted.append((score - _off_place(stones[0], near, search_mm), stones))
        proposed = []
        for _, n, top in tops:
            if not before or not len(before) < n <= len(before) + BUILT_LEVELS:
                continue
            # squared to the top as found, and to the stack under it as read before (a stone
            # put on a building is squared to it; a roof's top, found turned 5° off the two
            # long blocks it was put on, was filled in over them 5° off too)
            square = before[-1].yaw - before[-1].turn
            for t in (top, Stone(top.shape, top.x, top.y, square + top.turn, top.turn)):
                stones = _on_before(fitter, levels, t, n, before, colour_classes, shapes, background)
                score = stack_score(fitter, stones, colour_classes, background, levels)[0]
                proposed.append((score - _off_place(stones[0], near, search_mm)
                                 - _left_out(fitter, solid, window, stones), stones))
        if proposed:
            stones = _shift(fitter, levels, max(proposed, key=lambda t: t[0])[1], colour_classes, background, 1.0)
            score = stack_score(fitter, stones, colour_classes, background, levels)[0]
            shifted.append((score - _off_place(stones[0], near, search_mm), stones))
    best: tuple[float, list[Stone]] | None = None
    for score, stones in shifted:
        # what stands there and the stack leaves out: the near faces of lower stones a stack
        # too short (its top taken a level lower and farther off) does not explain
        score -= _left_out(fitter, solid, window, stones)
        if best is None or score > best[0]:
            best = (score, stones)
    assert best is not None
    stones = _cube_or_cylinder(fitter, levels, solid, window, best, near, search_mm, colour_classes, background)
    total, chosen, means, margins, seen = stack_score(fitter, stones, colour_classes, background, levels)
    conf = tuple(_confidence(m, g, s) for m, g, s in zip(means, margins, seen))
    shape_conf = shape_confidence(fitter, levels, stones, colour_classes, background, shapes)
    return StackReading(tuple(stones), tuple(chosen), conf, tuple(seen), total, shape_conf)


#: how sharply a stone's shape confidence rises with the score its shape wins by over the
#: next shape in its place (:func:`shape_confidence`)
SHAPE_SLOPE = 2.0


def shape_confidence(fitter: Fitter, levels: "_Levels", stones: list[Stone], colour_classes: list[int],
                     background: int = GROUND, shapes: tuple[str, ...] = SHAPES) -> tuple[float, ...]:
    """How sure each stone's shape is, apart from its colour (the stone's ``conf`` says how
    well its points show its colour): the whole stack scored with that stone of each other
    shape in its place (a roof only on top), and the margin the stone's own shape wins by
    turned into a probability. A stone under a long block lying across shows a sliver of its
    sides, and a cube there explains them about as well as a cylinder does."""
    if not stones:
        return ()
    base = stack_score(fitter, stones, colour_classes, background, levels)[0]
    out = []
    for i, s in enumerate(stones):
        square = s.yaw - s.turn
        best = -np.inf
        for shape in shapes:
            if shape == s.shape or (shape == "roof" and i != len(stones) - 1):
                continue
            for turn in TURNS[shape]:
                alt = list(stones[:i]) + [Stone(shape, s.x, s.y, square + turn, turn)] + list(stones[i + 1:])
                best = max(best, stack_score(fitter, alt, colour_classes, background, levels)[0])
        margin = base - best
        SHAPE_MARGINS.append(margin)
        out.append(float(1.0 / (1.0 + np.exp(-SHAPE_SLOPE * margin))) if np.isfinite(margin) else 1.0)
    return tuple(out)


SHAPE_MARGINS: list = []


def _cube_or_cylinder(fitter: Fitter, levels: "_Levels", solid: np.ndarray, window: np.ndarray,
                      best: tuple[float, list[Stone]], near: tuple[float, float], search_mm: float,
                      colour_classes: list[int], background: int) -> list[Stone]:
    """The stack with each cube or cylinder the other when the whole stack, what it leaves out
    counted, is likelier so. Filled in level by level, a stone is chosen by its own points: a
    cylinder's lie inside a cube's, away from the edges where a stone's colour blends with what
    is beside it, so a cube under another stone (its top hidden) fits as a cylinder, and the
    picture its corners cover is left unexplained (of the reader corpus's building stones, cubes
    read as cylinders were a third of the misread ones, the other way round none)."""
    score, stones = best
    for i, s in enumerate(list(stones)):
        if s.shape not in ("cube", "cylinder"):
            continue
        other = "cylinder" if s.shape == "cube" else "cube"
        alt = list(stones)
        alt[i] = Stone(other, s.x, s.y, s.yaw, s.turn)
        sc = (stack_score(fitter, alt, colour_classes, background, levels)[0] - _off_place(alt[0], near, search_mm)
              - _left_out(fitter, solid, window, alt))
        if sc > score:
            score, stones = sc, alt
    return stones


def _window(fitter: Fitter, stacks: list[list[Stone]]) -> np.ndarray:
    """Where the readings of one slot stand in the plane picture, and a little around."""
    masks = [_silhouette(fitter, stones) for stones in stacks]
    return cv2.dilate(np.any(masks, axis=0).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0


def _left_out(fitter: Fitter, solid: np.ndarray, window: np.ndarray, stones: list[Stone]) -> float:
    """What a stack leaves out of what stands in ``window`` (where it and the other readings
    of its slot stand), in stone faces' worth of the picture (:data:`UNEXPLAINED_WEIGHT`
    each)."""
    face_px = (STONE_MM * fitter.plane.ppm) ** 2
    return UNEXPLAINED_WEIGHT * float(solid[window & ~_silhouette(fitter, stones)].sum()) / face_px


#: filled-in stacks moved to their best place before the best is chosen, and how far below
#: the best one (score) a stack may be and still be tried: a stack filled in under its top
#: stands where that top was found, a millimetre or two and a few degrees off, which costs a
#: tall stack's many faces more than a single stone's (a long block, a cylinder and a roof
#: scored 2.3 below a lone roof beside them until moved, 3.4 above it after)
SHIFTED = 3
SHIFT_SPREAD = 2.5
#: top stones kept for filling in below
TOPS_KEPT = 8
#: about how many places are scored in one batch: each batch's arrays stay in the processor's
#: cache (one batch of all eight heights, 648 places, took half as long again)
BATCH = 256
#: tops scoring this much below the best are not filled in
TOP_SPREAD = 1.5
#: turns (degrees) tried about the foot's square for a top stone: a cube-sized foot on a long
#: block tells its turn poorly, and a long block's ends show a few degrees clearly
TOP_TURNS = np.array([-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0])
#: the turns (degrees) also tried for a top stone about its slot's square where the slot has
#: one: a building stands a few degrees off its card, each stone a few more (the table kit's 6
#: and 3), and a cube-sized foot on a long block lying towards the camera took its turn 7.5°
#: off the truth's other way (the top, turned about it alone, could not come within 6° of the
#: blocks)
SQUARE_TURNS = np.arange(-8.0, 8.01, 2.0)


def _tops(fitter: Fitter, foot: tuple[float, float, float], colour_classes: list[int], max_levels: int,
          shapes: tuple[str, ...], span: float, square_deg: float | None = None
          ) -> list[tuple[float, int, Stone]]:
    """The likeliest top stones: for each height and shape, the place near the foot where a
    stone of that shape at that height explains the picture best (its faces one colour, what
    lies past its top not that colour). ``square_deg``: the slot's square (the card's), which
    a building stands within :data:`SQUARE_TURNS` of whatever turn its foot seemed to have."""
    x0, y0, square = foot
    offs = np.arange(-span, span + 1e-9, 3.0)
    gx, gy = np.meshgrid(x0 + offs, y0 + offs, indexing="ij")
    # a few heights of a shape and turn scored at once (the same places one level up each), in
    # batches of about BATCH places
    m = gx.size
    per = max(1, BATCH // m)
    scored = {}
    for shape in shapes:
        for turn in TURNS[shape]:
            poses = np.column_stack([np.tile(gx.ravel(), max_levels), np.tile(gy.ravel(), max_levels),
                                     np.repeat(np.arange(max_levels) * STONE_MM, m),
                                     np.full(m * max_levels, square + turn)])
            sc = np.concatenate([fitter.score_colours(shape, poses[i:i + per * m], colour_classes).max(axis=1)
                                 for i in range(0, len(poses), per * m)])
            scored[shape, turn] = (poses, sc)
    found = []
    for n in range(1, max_levels + 1):
        for shape in shapes:
            for turn in TURNS[shape]:
                poses, sc = scored[shape, turn]
                poses, sc = poses[(n - 1) * m:n * m], sc[(n - 1) * m:n * m]
                k = int(np.argmax(sc))
                found.append((float(sc[k]), n, shape, turn, poses[k]))
    found.sort(key=lambda t: -t[0])
    # the best top of each height (a higher top farther off looks like a lower one nearer:
    # only the stones below tell them apart), then the best of all
    kept, seen = [], set()
    for f in found:
        # a roof's top fits inside a flat one, and a roof along inside one across: keep each;
        # and a short stone's top fits inside a long block's (a mean over its points, it
        # scores as well or better while it explains half the block): keep the best long
        # block of each height too (two long blocks lying towards the camera, the upper one's
        # top a 40 mm strip of one colour: a cylinder came first on the coarse grid and the
        # block was never filled in below)
        key = (f[1], f[2] == "roof", f[3] if f[2] == "roof" else 0.0, f[2] == "long")
        if key not in seen:
            kept.append(f)
            seen.add(key)
    # each is placed and turned finely before they are compared: on the coarse grid a long
    # block a millimetre and a few degrees off scores below tops of the wrong height
    out = []
    fine = np.arange(-1.5, 1.51, 0.75)
    for _, n, shape, turn, pose in kept:
        turns = pose[3] + TOP_TURNS
        if square_deg is not None:
            turns = np.union1d(turns, square_deg + turn + SQUARE_TURNS)
        fx, fy, fa = np.meshgrid(pose[0] + fine, pose[1] + fine, turns, indexing="ij")
        poses = np.column_stack([fx.ravel(), fy.ravel(), np.full(fx.size, pose[2]), fa.ravel()])
        sc = fitter.score_colours(shape, poses, colour_classes).max(axis=1)
        k = int(np.argmax(sc))
        yaw = float(poses[k, 3])
        out.append((float(sc[k]), n, Stone(shape, float(poses[k, 0]), float(poses[k, 1]), yaw, turn)))
    out.sort(key=lambda t: -t[0])
    out = [t for t in out if t[0] > out[0][0] - TOP_SPREAD]
    # a roof's top fits inside a flat one at any height (its two turns, two places each), so
    # roofs crowd the flat tops out of the first few: each height's flat top is kept as well
    # (an orange cylinder on a red one in the shade, its sides too dark to show a colour: the
    # two-cylinder top came ninth, behind seven roofs and a cylinder of the wrong heights)
    kept = out[:TOPS_KEPT]
    flat = {n for _, n, top in kept if top.shape != "roof"}
    for t in out[TOPS_KEPT:]:
        if t[2].shape != "roof" and t[1] not in flat:
            kept.append(t)
            flat.add(t[1])
    return kept


#: a stack filled in under a top stone within this (score) of the best one filled in under it
#: is kept beside it (:func:`_fills`), at most :data:`FILL_KEPT` in all
FILL_CLOSE = 0.5
FILL_KEPT = 2


def _fill(fitter: Fitter, levels: "_Levels", top: Stone, n: int, colour_classes: list[int],
          shapes: tuple[str, ...], background: int, lowest: int = 0) -> list[Stone]:
    """The stones under a top stone at level ``n - 1`` down to level ``lowest``, chosen level
    by level downwards (a beam of the best few): each level is judged with everything above it
    known, which is all its picture depends on."""
    return _fills(fitter, levels, top, n, colour_classes, shapes, background, lowest, kept=1)[0]


def _fills(fitter: Fitter, levels: "_Levels", top: Stone, n: int, colour_classes: list[int],
           shapes: tuple[str, ...], background: int, lowest: int = 0, kept: int = FILL_KEPT
           ) -> list[list[Stone]]:
    """:func:`_fill`, with the next best stacks filled in under the same top when they come
    within :data:`FILL_CLOSE` of the best (up to ``kept`` in all): filled in where its top was
    found, a millimetre and a few degrees off, a stack's lower stones are told apart by their
    thin near faces, and a long block lying towards the camera under another came 0.03 behind
    a cube there (its foot ring on its own near edge); moved to its place it wins by 0.5."""
    square = top.yaw - top.turn
    beam: list[tuple[float, list[Stone]]] = [(0.0, [top])]
    for level in range(n - 2, lowest - 1, -1):
        grown = []
        for _, stack in beam:
            for shape in shapes:
                if shape == "roof":
                    continue
                for turn in TURNS[shape]:
                    cand = [Stone(shape, top.x, top.y, square + turn, turn)] + stack
                    grown.append((stack_score(fitter, cand, colour_classes, background, levels, level)[0], cand))
        grown.sort(key=lambda t: -t[0])
        beam = grown[:FILL_BEAM]
    return [stack for score, stack in beam[:kept] if score >= beam[0][0] - FILL_CLOSE]


#: the most stones a turn is taken to put on a building read before (:func:`_on_before`): one a
#: colour die
BUILT_LEVELS = 3


def _on_before(fitter: Fitter, levels: "_Levels", top: Stone, n: int, under: tuple[Stone, ...],
               colour_classes: list[int], shapes: tuple[str, ...], background: int) -> list[Stone]:
    """The stack read before (``under``, its shapes and turns) with a top stone at level
    ``n - 1`` over it, the levels between filled in (:func:`_fill`), all squared to the top:
    two long blocks lying across read a moment ago keep their shapes under a roof put on them,
    where filled in afresh under the roof they may be read as a column of cubes."""
    square = top.yaw - top.turn
    upper = _fill(fitter, levels, top, n, colour_classes, shapes, background, lowest=len(under))
    return [Stone(s.shape, top.x, top.y, square + s.turn, s.turn) for s in under] + upper


def _grow(fitter: Fitter, levels: "_Levels", foot: tuple[float, float, float], colour_classes: list[int],
          max_levels: int, shapes: tuple[str, ...], background: int) -> list[Stone]:
    """The best stack grown level by level from ``foot`` (a beam of the best few at each
    height; taller stacks stop being tried once they only get worse)."""
    x0, y0, square = foot
    beam: list[tuple[float, list[Stone]]] = [(0.0, [])]
    best: tuple[float, list[Stone]] | None = None
    for level in range(max_levels):
        grown: list[tuple[float, list[Stone]]] = []
        for _, stack in beam:
            if stack and stack[-1].shape == "roof":
                continue
            bx, by = (stack[-1].x, stack[-1].y) if stack else (x0, y0)
            for shape in shapes:
                for turn in TURNS[shape]:
                    for dx, dy in _nudges(level, shape, square + turn):
                        cand = stack + [Stone(shape, bx + dx, by + dy, square + turn, turn)]
                        grown.append((stack_score(fitter, cand, colour_classes, background, levels)[0], cand))
        if not grown:
            break
        grown.sort(key=lambda t: -t[0])
        beam = grown[:BEAM]
        if best is None or beam[0][0] > best[0]:
            best = beam[0]
        elif beam[0][0] < best[0] - 3.0:
            break
    return best[1] if best is not None else []


def _shift(fitter: Fitter, levels: "_Levels", stones: list[Stone], colour_classes: list[int],
           background: int, span: float) -> list[Stone]:
    """The whole stack moved (and turned a little) to where it explains the picture best:
    the top stone, in full view, fixes the place better than the foot. A pattern search:
    single steps along x, y and the turn while one improves, then half steps (about as good as
    a grid over the same reach, at a third of the hypotheses)."""
    best = (stack_score(fitter, stones, colour_classes, background, levels)[0], stones)
    for step, turn in ((span, 2.0), (span / 2, 0.0)):
        moves = [(step, 0.0, 0.0), (-step, 0.0, 0.0), (0.0, step, 0.0), (0.0, -step, 0.0)]
        if turn:
            moves += [(0.0, 0.0, turn), (0.0, 0.0, -turn)]
        total = np.zeros(3)
        for _ in range(SHIFT_ROUNDS):
            found = None
            for dx, dy, dt in moves:
                move = total + (dx, dy, dt)
                if abs(move[0]) > span + 1e-9 or abs(move[1]) > span + 1e-9 or abs(move[2]) > turn + 1e-9:
                    continue
                cand = [Stone(s.shape, s.x + dx, s.y + dy, s.yaw + dt, s.turn) for s in best[1]]
                sc = stack_score(fitter, cand, colour_classes, background, levels)[0]
                if sc > best[0] and (found is None or sc > found[0]):
                    found = (sc, cand, (dx, dy, dt))
            if found is None:
                break
            best = (found[0], found[1])
            total += found[2]
    return best[1]


#: rounds of the pattern search at each step size
SHIFT_ROUNDS = 2


def _nudges(level: int, shape: str, yaw: float) -> list[tuple[float, float]]:
    """Small shifts tried for a stone on the one below (hands line stones up to a millimetre or
    two; a long block on a narrower stone may sit a little off along its length)."""
    if level == 0:
        return [(0.0, 0.0)]
    out = [(0.0, 0.0)]
    if shape == "long":
        a = np.radians(yaw)
        for s in (-3.0, 3.0):
            out.append((s * np.cos(a), s * np.sin(a)))
    return out




#: a ring point whose line of sight passes this close (mm) to an upper stone's outline is
#: taken as hidden by it: blur mixes the two there, and a tall stack's top leans out over the
#: ring around its foot by about that much
HIDE_MARGIN_MM = 1.5


def ridge(fitter: Fitter, stone: Stone, level: int) -> float:
    """How much a roof's top looks like a ridge: its middle line darker than the slopes beside
    it, and the two slopes lit unlike (0: a flat, evenly lit top; -1 when the picture's
    lightness is not known)."""
    if fitter.L is None:
        return 1.0
    a = np.radians(stone.yaw)
    along = np.array([np.cos(a), np.sin(a)])
    across = np.array([-np.sin(a), np.cos(a)])
    z0 = level * STONE_MM

    def at(offset: float, z: float) -> float:
        ts = np.linspace(-6.0, 6.0, 7)
        xy = np.array([stone.x, stone.y]) + ts[:, None] * along + offset * across
        X = np.column_stack([xy, np.full(len(xy), z0 + z)])
        px = fitter.to_px(X)
        ix = np.round(px[:, 0]).astype(int)
        iy = np.round(px[:, 1]).astype(int)
        ok = (ix >= 0) & (ix < fitter.w) & (iy >= 0) & (iy < fitter.h)
        if not ok.any():
            return 50.0
        return float(np.mean(fitter.L[:-1].reshape(fitter.h, fitter.w)[iy[ok], ix[ok]]))

    mid = at(0.0, 15.0)
    left, right = at(-5.0, 7.5), at(5.0, 7.5)
    side = max((left + right) / 2, 1.0)
    return float((side - mid) / side + abs(left - right) / side)


#: how far (degrees) from the slot's square :func:`_foot` turns a foot: its coarse turns and
#: its fine ones
FOOT_TURNS = (-5.0, 0.0, 5.0)
FOOT_FINE_TURNS = (-2.5, 0.0, 2.5)
FOOT_TURN_REACH = FOOT_TURNS[-1] + FOOT_FINE_TURNS[-1]


def _foot(fitter: Fitter, near: tuple[float, float], square_deg: float | None, search_mm: float
          ) -> tuple[float, float, float] | None:
    """Where a stack's foot stands: the place near ``near`` where a stone-sized box's visible
    faces show the most "not table", with table around its foot (None: only table there)."""
    offs = np.arange(-search_mm, search_mm + 1e-9, 2.0)
    yaws = np.arange(0.0, 90.0, 10.0) if square_deg is None else square_deg + np.array(FOOT_TURNS)
    gx, gy, gz = np.meshgrid(near[0] + offs, near[1] + offs, yaws, indexing="ij")
    poses = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size), gz.ravel()])
    scores = fitter.score("cube", poses, -2, -2, ring=False)
    k = int(np.argmax(scores))
    if scores[k] < np.log(0.5):
        return None
    # among the places a box of "not table" fits, the one with table around its foot
    scores = scores + _foot_ring(fitter, poses)
    k = int(np.argmax(scores))
    x, y, _, yaw = poses[k]
    fine = np.arange(-2.0, 2.01, 1.0)
    gx, gy, gz = np.meshgrid(x + fine, y + fine, yaw + np.array(FOOT_FINE_TURNS), indexing="ij")
    poses = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size), gz.ravel()])
    scores = fitter.score("cube", poses, -2, -2, ring=False) + _foot_ring(fitter, poses)
    k = int(np.argmax(scores))
    return float(poses[k, 0]), float(poses[k, 1]), float(poses[k, 3])


def _foot_ring(fitter: Fitter, poses: np.ndarray) -> np.ndarray:
    """The background's mean log-posterior just outside a box's foot on the camera's side and
    across (the sides it shows rise from there; the far side is hidden by the box)."""
    S = samples("cube")
    X = fitter._place(S.ring_pts, poses)
    D = fitter._place(S.ring_dir, np.column_stack([np.zeros((len(poses), 3)), poses[:, 3]]))
    u = poses[:, :2] - fitter.C[:2]
    u = u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-9)
    along = D[..., 0] * u[:, None, 0] + D[..., 1] * u[:, None, 1]
    keep = ~S.ring_top[None, :] & (along < 0.3)
    v = fitter.values(X, GROUND)
    return (v * keep).sum(axis=1) / np.maximum(keep.sum(axis=1), 1)


def _confidence(mean: float, margin: float, seen: float) -> float:
    """A stone's confidence: how well its points show its colour, how clearly that colour beats
    the next, and how much of it the camera sees."""
    good = 1.0 / (1.0 + np.exp(-4.0 * (mean - LEVEL_COST)))
    clear = 1.0 / (1.0 + np.exp(-6.0 * margin))
    view = min(1.0, 0.35 + seen * 2.0)
    return float(np.clip(good * clear * view, 0.0, 0.995))
