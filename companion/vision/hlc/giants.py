"""Finding the giants: a coloured pawn standing on a square of the mountain or of the table.

Once the heights are known, every square a giant could stand on is known too: the top of every
column, and the table cells touching a cube. For each, the pixels where a pawn standing there
would show (points inside it from foot to head, its head) are read and their colours named by
the colour model, white-referenced on the markers' paper. Only the points the camera can see
past the mountain count: a pawn is judged by the part of it that shows.

A pawn's side turned from the light shows its paint darker, not another colour: the same
reflectance times a smaller share of the light (a white one's side is grey, which says nothing:
:data:`UNTOLD`). In L*a*b* that is ``L* + 16`` and ``(a*, b*)``
shrinking together (the cube root of a scaled tristimulus), so each chromatic colour of the model
(and the cubes' wood) is also given in shade (:func:`shaded_model`); a red pawn's dark side is then red, not the brown
it would otherwise be nearer to, and a yellow one's is not wood. A side in deep shade (a light
overhead, little ambient) keeps no hue at all: points darker than :data:`DARK_L` are evidence
only for or against the dark colour (black), and say nothing about the others.

The confidence of a reading is calibrated on what the camera can see: the share of the pawn's
visible points that agree with its colour (each point's posterior for it, lowered when the pixel
is far from every colour), with one point's worth of doubt added, so a pawn judged on a few
pixels is a little less sure than one seen whole. How much of the pawn is hidden does not lower
it further: a giant behind a cube whose visible head is all red is a red giant. Among the squares
showing one colour, the one whose pawn explains the most points wins (agreeing points less
three times the disagreeing ones): a pawn on a cube and one on the table square behind it can show the same
pixels, and the one that predicts more of them and contradicts fewer is what stands there.

A dark colour (black) is also what a shadow or the gap between two cubes shows. A pawn's paint
ends at its outline, and what surrounds a black pawn reflects about ten times more light; a
shadow or a gap goes on past the outline it is read in. A black giant is kept only where the
lighter three quarters of its surround are clearly lighter than its paint
(:func:`surround_contrast`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.camera import View
from companion.vision.colours import ColourModel, lab_features, mahalanobis2
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.appearance import _FEATURE_SCALE
from companion.vision.hlc.layout import GIANT_COLOURS, Layout

#: colours a square may show besides a giant's (the cubes' wood, the table, shade)
_BACKGROUND = ("wood", "grey", "brown")
#: a square whose visible points agree with a giant colour less than this holds no giant
_MIN_CONF = 0.5
#: fewer visible points than this: too little of the pawn shows to say anything
_MIN_POINTS = 6
#: the points' worth of doubt added to a reading (see the module's docstring)
_DOUBT = 1.0
#: what a visible point of a pawn that does not show its colour weighs against the pawn, in
#: points that do: a pawn standing there shows its colour at nearly every visible point, so a
#: point that does not is strong evidence that it stands elsewhere on the same line of sight
_CONTRADICTION = 3.0
#: evidences (points) this close are a tie
_TIE = 0.5
#: the shares of the light (in the cube-root scale of L*a*b*: ``(L*+16)`` and ``(a*, b*)``
#: multiplied by it) a pawn's side may get: half-lit to the side in the pawn's own shade (the
#: renderer's and a real pawn's dark side come out near 0.55–0.6 of the lit colour)
SHADES = (0.8, 0.6)
#: a colour whose chroma (a*, b*) is below this is neutral (white, black): its deep shade is
#: another neutral colour of the model
_NEUTRAL_CHROMA = 12.0
#: the colours given in shade: the giants' and the cubes' wood (a cube's side in shade is not a
#: yellow pawn's); the brown of the background is already dark, and in shade it would be black
_SHADED_COLOURS = tuple(GIANT_COLOURS) + ("wood",)
#: colours of the model that anything neutral takes in shade: white paint turned from the light
#: is grey (its side comes out near L* 45 against 99 on its top), and so is a pale cube's side
#: or the table in a shadow; a point of this colour says nothing for or against any giant
UNTOLD = ("grey",)
#: L* (white-referenced) under which a pixel is too dark to show a hue: only a dark colour's
#: (black's) evidence (see :func:`colour_votes`)
DARK_L = 22.0
#: Mahalanobis distance from the nearest colour beyond which a pixel starts to count as none of
#: them (as :meth:`ColourModel.classify` counts it)
OUTLIER_START = 3.0
#: the giant colour a cube's pale top can be named under a cool or bright light (a yellow pawn
#: is told from the wood by its colour model; testing it against the wood would lose it)
_PALE = ("white",)
#: how far from the mountain (cells) a giant on the table is looked for
REACH = 3
#: how far (mm) over a column's edge a pawn's point must be to count as seen past it: a point
#: just over the edge shows the cube's edge as often as the pawn (the blur, the lattice read a
#: millimetre or two off), and would hold against the pawn what it does not show
_CLEARANCE = 2.5
#: a table square whose pawn pixels the table model explains this often holds no giant
_MAX_TABLE_SHARE = 0.5
#: log-density below the table's typical one still counted as table (the table model is fitted
#: on a few hundred points and is tight on a plain top; a pawn is far off it)
_TABLE_SLACK = 4.0
#: a face standing up receives about this share of the ambient light a face turned up does
#: (half the sky and a little bounced off the table), in feature units (log brightness × 20):
#: the cubes' side turned from the light lies this much further below their top than the
#: table's full shade lies below the lit table
_SIDE_SKY = 10.0
#: brightness (feature units) a point may lie below the frame's deepest table shade and still be
#: taken for table (a contact shadow at a foot, a face lit a little, the sensor's noise)
_SHADE_SLACK = 8.0
#: how far (mm) outside a pawn's outline its surround is read (:func:`surround_contrast`): past
#: the blur and the lattice's millimetre or two of error, near enough to be in the same light
_SURROUND_MM = 3.0
#: contrast (feature units, log brightness × 20) a dark pawn's paint shows against the lighter
#: three quarters of its surround: black paint reflects a tenth of what the wood, the table or
#: any other pawn does (about 45 units in one light; a pawn lit beside a shaded surround, or in
#: a pit of shaded sides, keeps 11–45 on the corpus), where a shadow or a gap between cubes
#: taken for a pawn goes on past the outline it was read in (−9 to 4)
_SURROUND_CONTRAST = 8.0
#: under this contrast (a pawn's fainter than usual: 12 units is ×1.8) the dark must also fill
#: nearly all of the pawn's visible outline (its confidence): a shadow's edge, or a gap's end
#: beside a pawn, fills part of it (0.52–0.80 on the corpus, true pawns 0.93–0.96)
_FAINT_CONTRAST = 15.0
_FAINT_CONF = 0.9


@dataclass(frozen=True)
class GiantReading:
    colour: str
    cell: tuple[int, int]
    level: int
    conf: float


def default_model() -> ColourModel:
    return ColourModel.default(tuple(GIANT_COLOURS) + _BACKGROUND)


@dataclass(frozen=True)
class ShadedModel:
    """A colour model's colours, each chromatic one also in shade (:data:`SHADES`): variant
    ``k`` has mean ``mu[k]``, inverse covariance ``inv[k]`` and is a shade of colour
    ``base[k]`` of ``names``."""

    names: tuple[str, ...]
    white: tuple[float, float, float]
    #: the colours (indices into ``names``) whose own lit L* is under :data:`DARK_L`
    dark: np.ndarray
    mu: np.ndarray
    inv: np.ndarray
    logdet: np.ndarray
    base: np.ndarray


_SHADED: dict[int, tuple[ColourModel, ShadedModel]] = {}


def shaded_model(model: ColourModel) -> ShadedModel:
    """``model`` with its chromatic colours also in shade (see the module's docstring); made
    once per model."""
    hit = _SHADED.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    means, covs, base = [], [], []
    for k, (name, mu, cov) in enumerate(zip(model.names, model.means, model.covs)):
        means.append(mu), covs.append(cov)
        base.append(k)
        if name not in _SHADED_COLOURS:
            continue
        # a neutral colour's shade is a darker neutral: only the half-lit one, between the lit
        # colour and the darker neutrals of the model (white's deep shade is the model's grey)
        neutral = math.hypot(mu[1], mu[2]) < _NEUTRAL_CHROMA
        for f in SHADES[:1] if neutral else SHADES:
            means.append(((mu[0] + 16.0) * f - 16.0, mu[1] * f, mu[2] * f))
            covs.append(cov)
            base.append(k)
    c = np.asarray(covs, np.float64)
    dark = np.array([k for k, mu in enumerate(model.means) if mu[0] < DARK_L], int)
    shaded = ShadedModel(model.names, model.white, dark, np.asarray(means, np.float64), np.linalg.inv(c),
                         np.linalg.slogdet(c)[1], np.array(base))
    _SHADED[id(model)] = (model, shaded)
    return shaded


def agreement(shaded: ShadedModel, bgr: np.ndarray, white) -> tuple[np.ndarray, np.ndarray]:
    """How much each of N×3 BGR pixels agrees with each colour of the model (N×colours): the
    colour's posterior, lit or in any shade (its variants' posteriors summed), lowered as
    :meth:`ColourModel.classify` lowers it for a pixel far from every colour; and each pixel's
    L* (white-referenced)."""
    agree, lightness, _ = _agreement_d2(shaded, bgr, white)
    return agree, lightness


def _agreement_d2(shaded: ShadedModel, bgr: np.ndarray, white
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`agreement`, and each pixel's squared distance to the nearest colour variant
    (:func:`_nearest_d2`, from the same distances)."""
    feats = lab_features(bgr, shaded.white if white is None else white).astype(np.float64)
    diff = feats[:, None, :] - shaded.mu[None, :, :]
    d2 = mahalanobis2(diff, shaded.inv)
    loglik = -0.5 * d2 - 0.5 * shaded.logdet[None, :]
    loglik -= loglik.max(axis=1, keepdims=True)
    post = np.exp(loglik)
    post /= post.sum(axis=1, keepdims=True)
    # each colour's variants' posteriors summed in order (as a product with the 0/1 matrix of
    # variants to colours sums them; without the threads a large product would start)
    out = np.zeros((len(post), len(shaded.names)))
    for k, b in enumerate(shaded.base):
        out[:, b] += post[:, k]
    nearest = d2.min(axis=1)
    far = np.clip(np.sqrt(nearest) - OUTLIER_START, 0.0, None)
    return out * np.exp(-0.5 * far * far)[:, None], feats[:, 0], nearest


def relit(bgr: np.ndarray, table) -> np.ndarray | None:
    """These pixels (N×3 BGR) as they would look in the light outside the table's learned
    shade (:meth:`~companion.vision.hlc.appearance.TableModel.learn_shadow`): each channel
    divided by the shade's own ratio of it (a shade's light is the same on every surface, so
    a white pawn in a low sun's blue shade, re-lit, is white again). None when no shade of
    another colour than the light's was learned."""
    if table is None or getattr(table, "shadow", None) is None:
        return None
    s0, s1 = (float(v) / _FEATURE_SCALE for v in table.shadow_shift)
    depth = float(table.shadow_depth) / _FEATURE_SCALE
    dlog = np.array([s0 - depth, -depth - s0 - s1, s1 - depth])  # B, G, R
    return np.clip((bgr.astype(np.float64) + 4.0) * np.exp(-dlog) - 4.0, 0.0, 255.0)


def agreement_lit_or_shaded(shaded: ShadedModel, bgr: np.ndarray, white, table
                            ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`agreement`, each pixel read as it is or re-lit out of the table's learned shade
    (:func:`relit`), whichever a colour of the model explains better: a pawn in a tower's
    shadow, or its side turned from a low sun, is lit by the sky alone."""
    agree, lightness, near = _agreement_d2(shaded, bgr, white)
    lit = relit(bgr, table)
    if lit is None:
        return agree, lightness
    agree2, lightness2, near2 = _agreement_d2(shaded, lit, white)
    use = near2 < near
    return np.where(use[:, None], agree2, agree), np.where(use, lightness2, lightness)


def _nearest_d2(shaded: ShadedModel, bgr: np.ndarray, white) -> np.ndarray:
    feats = lab_features(bgr, shaded.white if white is None else white).astype(np.float64)
    diff = feats[:, None, :] - shaded.mu[None, :, :]
    return mahalanobis2(diff, shaded.inv).min(axis=1)


def colour_votes(shaded: ShadedModel, agree: np.ndarray, lightness: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """For each colour of the model: the agreement of the points it is judged on, summed, and
    how many those are. A point darker than :data:`DARK_L` is judged only by the dark colours
    (black): so deep a shade keeps no hue (a red, blue or white pawn's side away from a
    light overhead comes out near L* 5–17, where black is), and says nothing for or against
    a colour it cannot show; a dark colour is judged on every point. A point of an
    :data:`UNTOLD` colour is judged by none."""
    untold = [k for k, name in enumerate(shaded.names) if name in UNTOLD]
    light = (lightness >= DARK_L) & ~np.isin(agree.argmax(axis=1), untold)
    votes = agree[light].sum(axis=0)
    counts = np.full(len(shaded.names), float(light.sum()))
    votes[shaded.dark] = agree[:, shaded.dark].sum(axis=0)
    counts[shaded.dark] = len(agree)
    return votes, counts


def squares(heights: dict[tuple[int, int], int], reach: int = REACH) -> list[tuple[tuple[int, int], int]]:
    """(cell, level) of every square a giant may be seen on: the column tops, and the table
    cells up to ``reach`` cells (king distance) from a cube. The rules put giants on table cells
    touching a cube only, but a giant put wrongly further off must be seen to be judged."""
    out = [(c, h) for c, h in heights.items() if h > 0]
    table = set()
    for (i, j), h in heights.items():
        if h <= 0:
            continue
        for a in range(-reach, reach + 1):
            for b in range(-reach, reach + 1):
                c = (i + a, j + b)
                if heights.get(c, 0) == 0:
                    table.add(c)
    out += [(c, 0) for c in sorted(table)]
    return out


#: heights (shares of the pawn's) of the points on its axis, and of the rings round it
_AXIS = (0.2, 0.32, 0.44, 0.56, 0.68, 0.8, 0.92, 1.0)
_RINGS = (0.35, 0.65, 0.85, 1.0)


def _pawn_points(lattice: Lattice, cell: tuple[int, int], level: int, layout: Layout) -> np.ndarray:
    """Table points inside a pawn standing on ``cell`` (its axis, and rings half-way to its
    side at four heights, the top one in its head): every one projects onto the pawn's own
    image, and where the mountain hides part of the pawn, enough of them are left to judge the
    part that shows."""
    centre = lattice.cell_centre(cell)
    z0 = level * layout.cube
    hgt = layout.giant_height
    r = layout.giant_diameter / 2 * 0.55
    pts = [[centre[0], centre[1], z0 + f * hgt] for f in _AXIS]
    for f in _RINGS:
        for a in np.linspace(0, 2 * math.pi, 8, endpoint=False):
            pts.append([centre[0] + r * math.cos(a), centre[1] + r * math.sin(a), z0 + f * hgt])
    return np.array(pts)


#: the directions of a ring's points (as :func:`_pawn_points` turns them)
_RING_COS = np.array([math.cos(a) for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)])
_RING_SIN = np.array([math.sin(a) for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)])


def _pawn_points_all(lattice: Lattice, squares: list[tuple[tuple[int, int], int]], layout: Layout
                     ) -> np.ndarray:
    """:func:`_pawn_points` of every square, one after the other (N·40×3), computed at once:
    the same points, the same arithmetic."""
    n = len(squares)
    centres = lattice.to_table(np.array([[c[0] + 0.5, c[1] + 0.5] for c, _ in squares], np.float64))
    z0 = np.array([lvl * layout.cube for _, lvl in squares], np.float64)
    hgt = layout.giant_height
    r = layout.giant_diameter / 2 * 0.55
    axis = np.empty((n, len(_AXIS), 3))
    axis[:, :, 0] = centres[:, :1]
    axis[:, :, 1] = centres[:, 1:]
    axis[:, :, 2] = z0[:, None] + np.array([f * hgt for f in _AXIS])[None, :]
    rings = np.empty((n, len(_RINGS), len(_RING_COS), 3))
    rings[:, :, :, 0] = (centres[:, 0, None] + r * _RING_COS[None, :])[:, None, :]
    rings[:, :, :, 1] = (centres[:, 1, None] + r * _RING_SIN[None, :])[:, None, :]
    rings[:, :, :, 2] = (z0[:, None] + np.array([f * hgt for f in _RINGS])[None, :])[:, :, None]
    return np.concatenate([axis, rings.reshape(n, -1, 3)], axis=1).reshape(-1, 3)


def _sample(image: np.ndarray, q: np.ndarray, rows: int = 32000) -> np.ndarray:
    """The pixels (N×3) of ``image`` at the points ``q`` (N×1×2 float32), bilinear; in runs of
    at most ``rows`` points (OpenCV's remap takes fewer than 32767 rows)."""
    if len(q) == 0:
        return np.zeros((0, 3), image.dtype)
    parts = [cv2.remap(image, q[k:k + rows, :, 0], q[k:k + rows, :, 1], cv2.INTER_LINEAR).reshape(-1, 3)
             for k in range(0, len(q), rows)]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _features(bgr: np.ndarray) -> np.ndarray:
    lg = np.log(bgr.astype(np.float32) + 4.0)
    mean = lg.mean(axis=1, keepdims=True)
    return np.concatenate([lg[:, [0]] - mean, lg[:, [2]] - mean, mean], axis=1) * _FEATURE_SCALE


def _bare_table(bgr: np.ndarray, table) -> np.ndarray:
    """Which of these pixels (N×3 BGR) the table's own model explains (lit or in shade): a
    square of the table where a pawn stands shows mostly pawn, not table."""
    return table.logp(_features(bgr)) > table.typical - _TABLE_SLACK


def _bare_table_share(bgr: np.ndarray, table) -> float:
    return float(np.mean(_bare_table(bgr, table)))


def _bare_wood_share(bgr: np.ndarray, wood) -> float:
    """The share of these pixels (N×3 BGR) that the frame's model of the cubes' tops explains:
    a cube's top under a cool or bright light is nearly white, and a white giant's colour
    alone cannot tell it from one; a top where a pawn stands shows mostly pawn, not wood."""
    model, typical = wood
    return float(np.mean(model.logp(_features(bgr)) > typical - _TABLE_SLACK))


def _brightness(model) -> float:
    w = np.exp(model.logw)
    return float((model.mu[:, 2] * w).sum() / w.sum())


def shade_floor(table, faces) -> float | None:
    """How dark (brightness, feature units) the table's deepest shade can be in this frame: a
    point darker than this is no table in shade, whatever its chroma (a black pawn on a grey
    cloth or a neutral top has the table's chroma, and the table model takes any brightness
    under the lit table for shade). The table in full shade gets the ambient light only, as
    the cubes' side turned from the light does, which gets :data:`_SIDE_SKY` less of it: the
    gap between the cubes' top and their darkest side (``faces``: the frame's face models, top
    first) less that says how deep the shade of this light is; a learned shade is as deep as
    it was found. None when the frame's models are not known."""
    if table is None or not faces:
        return None
    bright = [_brightness(m) for m in faces]
    depth = max(bright[0] - min(bright[1:] or bright) - _SIDE_SKY, 0.0)
    if getattr(table, "shadow", None) is not None:
        depth = max(depth, float(table.shadow_depth))
    return float(table.bright_lit) - depth - _SHADE_SLACK


def _off_limits(point, layout: Layout) -> bool:
    """Whether a table point lies on the played-card zone or a marker's paper (a card's or a
    marker's colours are no giant)."""
    x, y = float(point[0]), float(point[1])
    cx, cy = layout.card_zone_centre
    w, h = layout.card_zone_size
    r = layout.giant_diameter / 2
    if abs(x - cx) <= w / 2 + r and abs(y - cy) <= h / 2 + r:
        return True
    m = layout.marker_size * 0.9 + r
    return any(abs(x - mx) <= m and abs(y - my) <= m for mx, my in layout.marker_centres().values())


def _unhidden(points: np.ndarray, camera: np.ndarray, lattice: Lattice,
              heights: dict[tuple[int, int], int], cube: float, steps: int = 24,
              clearance: float = 0.0) -> np.ndarray:
    """Which table points (N×3, mm) the camera sees past the mountain read: the ray from each
    point to the camera must pass over every column it crosses, ``clearance`` mm above its top
    (a pawn behind a column is not seen, and the pixels where it would be show whatever stands
    in front)."""
    if not heights:
        return np.ones(len(points), bool)
    keys = np.array(list(heights), dtype=int)
    i0, j0 = keys.min(axis=0)
    i1, j1 = keys.max(axis=0)
    grid = np.zeros((i1 - i0 + 1, j1 - j0 + 1), np.float64)
    for (i, j), hgt in heights.items():
        grid[i - i0, j - j0] = hgt * cube
    # only the first stretch of each ray can meet the mountain (no higher than its top, and the
    # clearance over it)
    top = float(grid.max()) + clearance
    d = camera[None, :] - points
    reach = np.clip((top - points[:, 2]) / np.maximum(d[:, 2], 1e-6), 0.0, 1.0)
    t = np.linspace(0.02, 1.0, steps)
    q = points[:, None, :] + (t[None, :, None] * reach[:, None, None]) * d[:, None, :]
    cells = np.floor(lattice.to_cells(q[..., :2].reshape(-1, 2))).astype(int)
    ci, cj = cells[:, 0] - i0, cells[:, 1] - j0
    inside = (ci >= 0) & (ci < grid.shape[0]) & (cj >= 0) & (cj < grid.shape[1])
    under = np.zeros(len(cells), np.float64)
    under[inside] = grid[ci[inside], cj[inside]]
    blocked = (q[..., 2].reshape(-1) < under + clearance).reshape(len(points), steps)
    return ~blocked.any(axis=1)


def find_giants(image: np.ndarray, view: View, lattice: Lattice, heights: dict[tuple[int, int], int],
                layout: Layout, model: ColourModel, white: tuple[float, float, float] | None,
                table=None, wood=None, faces=None, surround: bool = True) -> list[GiantReading]:
    """The giants on the squares ``heights`` makes. ``table``: the frame's table model
    (:class:`~companion.vision.hlc.appearance.TableModel`), when known: a table square whose
    pixels the table explains holds no giant, whatever colour the table has (a grey table is not
    a white giant, its shadow is not a black one). ``wood``: (model, typical log-density) of
    the cubes' tops in this frame, when known: a cube's top whose pixels it explains holds no
    white giant (a pale top is not a white giant). ``faces``: the frame's face models (top
    first), when known: a point darker than the table's deepest shade can be in this light
    (:func:`shade_floor`) is not table, whatever its chroma (a black pawn on a grey table).
    ``surround``: a dark giant is kept only where its paint ends at its outline
    (:func:`surround_contrast`: a shadow or a gap between cubes goes on past it); off for a first
    look whose giants are only left out of the mountain's evidence (a pawn read a square off
    along the line of sight is still better left out than read as wood)."""
    cands = [(c, lvl) for c, lvl in squares(heights)
             if lvl > 0 or not _off_limits(lattice.cell_centre(c), layout)]
    if not cands:
        return []
    h, w = image.shape[:2]
    shaded = shaded_model(model)
    floor = shade_floor(table, faces)
    pts_all = _pawn_points_all(lattice, cands, layout)
    px_all = view.project(pts_all).reshape(len(cands), -1, 2)
    camera = view.pose.camera_position
    seen_all = _unhidden(pts_all, camera, lattice, heights, layout.cube,
                         clearance=_CLEARANCE).reshape(len(cands), -1)
    inside = ((px_all[..., 0] >= 0) & (px_all[..., 0] < w - 1)
              & (px_all[..., 1] >= 0) & (px_all[..., 1] < h - 1))
    seen_all &= inside
    # every point any square can be judged on, read and named once (a point's colour, its
    # agreement and whether the table explains it are its own: judged alone or with others,
    # the same values); the squares then pick their points
    npts = px_all.shape[1]
    at = seen_all.reshape(-1)
    q = px_all.reshape(-1, 2)[at].astype(np.float32).reshape(-1, 1, 2)
    # the frame blurred only round the points read: a margin wider than the blur's reach and
    # the bilinear read's gives each point the very values the whole frame blurred gives
    x0 = y0 = 0
    blurred = image
    if len(q):
        x0 = max(int(q[..., 0].min()) - 8, 0)
        y0 = max(int(q[..., 1].min()) - 8, 0)
        x1 = min(int(q[..., 0].max()) + 9, w)
        y1 = min(int(q[..., 1].max()) + 9, h)
        blurred = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), 0.7)
    bgr_at = _sample(blurred, q - np.array([x0, y0], np.float32))
    agree_at, lightness_at = agreement_lit_or_shaded(shaded, bgr_at, white, table)
    bgr_sq = np.zeros((len(cands) * npts, 3), bgr_at.dtype)
    agree_sq = np.zeros((len(cands) * npts, agree_at.shape[1]), agree_at.dtype)
    lightness_sq = np.zeros(len(cands) * npts, lightness_at.dtype)
    bgr_sq[at], agree_sq[at], lightness_sq[at] = bgr_at, agree_at, lightness_at
    bgr_sq = bgr_sq.reshape(len(cands), npts, 3)
    agree_sq = agree_sq.reshape(len(cands), npts, -1)
    lightness_sq = lightness_sq.reshape(len(cands), npts)
    if table is not None:
        bare_at = _bare_table(bgr_at, table)
        if floor is not None:
            bare_at &= _features(bgr_at)[:, 2] >= floor
        bare_sq = np.zeros(len(cands) * npts, bool)
        bare_sq[at] = bare_at
        bare_sq = bare_sq.reshape(len(cands), npts)

    #: each square's points as judged: how much each agrees with each colour (NaN: not seen),
    #: and whether it is light enough to show a hue
    shown: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def judge(i: int, seen: np.ndarray) -> tuple[float, GiantReading] | None:
        """The giant square ``i`` holds, judged on the points ``seen``, and its evidence."""
        (cell, level), px = cands[i], px_all[i]
        shown.pop(i, None)
        if seen.sum() < _MIN_POINTS:
            return None
        bgr, agree, lightness = bgr_sq[i][seen], agree_sq[i][seen], lightness_sq[i][seen]
        full = np.full((len(px), len(shaded.names)), np.nan)
        light = np.zeros(len(px), bool)
        full[seen], light[seen] = agree, lightness >= DARK_L
        if table is not None:
            bare = bare_sq[i][seen]
            if level == 0 and float(bare.mean()) > _MAX_TABLE_SHARE:
                return None
            # a point the table's own model explains (a pawn on a cube shows the table behind
            # it above the pawn's head's line when it is not there) says nothing for or
            # against a pawn: it may be the table seen past the square as well as paint
            agree, lightness = agree[~bare], lightness[~bare]
        votes, counts = colour_votes(shaded, agree, lightness)
        confs = np.where(counts >= _MIN_POINTS, votes / (counts + _DOUBT), 0.0)
        k = int(np.argmax(confs))
        name = shaded.names[k]
        if name not in GIANT_COLOURS:
            return None
        if wood is not None and level > 0 and name in _PALE:
            # a pale top in the learned shade, re-lit, is the wood too
            lit = relit(bgr, table)
            if max(_bare_wood_share(bgr, wood),
                   0.0 if lit is None else _bare_wood_share(lit, wood)) > _MAX_TABLE_SHARE:
                return None
        n = float(counts[k])
        conf = float(confs[k])
        if conf < _MIN_CONF:
            return None
        if surround and k in shaded.dark:
            # dark paint is darker than what surrounds the pawn; a shadow or a gap is not
            contrast = surround_contrast(image, view, lattice, cell, level, layout, bgr)
            if contrast is not None and (contrast < _SURROUND_CONTRAST
                                         or (contrast < _FAINT_CONTRAST and conf < _FAINT_CONF)):
                return None
        # what this square's pawn explains: the points agreeing with it, less those that
        # contradict it (two squares on one line of sight can show the same pixels; the pawn
        # that predicts more of them and fewer it does not find is what stands there)
        evidence = float(votes[k]) - _CONTRADICTION * (n - float(votes[k]))
        shown[i] = (full, light)
        return evidence, GiantReading(name, cell, level, round(conf, 4))

    judged = [judge(i, seen_all[i]) for i in range(len(cands))]
    found = _best(judged)
    if found:
        # the giants found hide what stands behind them too (a pawn behind another shows the
        # front one's colour low down): the squares they hide part of are judged again on what
        # is left, each square leaving out only the other giants
        # (only the points a square can be judged on: the others are left out anyway)
        hidden = np.zeros((len(pts_all), len(found)), bool)
        hidden[at] = _behind_giants(pts_all[at], camera, lattice, found, layout)
        hidden = hidden.reshape(len(cands), -1, len(found))
        for i, (cell, level) in enumerate(cands):
            others = [g for g, f in enumerate(found) if (f.cell, f.level) != (cell, level)]
            cover = hidden[i][:, others].any(axis=1) & seen_all[i] if others else None
            if cover is not None and cover.any():
                judged[i] = judge(i, seen_all[i] & ~cover)
        found = _best(judged)
    judged = _duels(judged, found, cands, pts_all, shown, shaded, camera, lattice, layout, heights)
    found = _best(judged)
    return sorted(found, key=lambda g: GIANT_COLOURS.index(g.colour))


def _duels(judged: list, found: list[GiantReading], cands: list, pts_all: np.ndarray,
           shown: dict[int, tuple[np.ndarray, np.ndarray]], shaded: ShadedModel, camera: np.ndarray,
           lattice: Lattice, layout: Layout, heights: dict[tuple[int, int], int]) -> list:
    """Each colour's square found against the other squares showing that colour on the same
    line of sight (a pawn on a cube, and the table square behind it whose pawn would show
    only above the cube): each pawn is also held to the other's points that fall outside its
    own visible outline where the picture would show the mountain. A pawn standing on the
    cube shows its colour low down, where the pawn behind it would show the cube; each such
    point of the colour counts against the pawn that cannot show it as a point of its own that
    does not would (:data:`_CONTRADICTION`). Where all either shows lies where the other
    would show (a head over a tower), the picture cannot tell them apart: a tie, which
    :func:`_best` gives to the nearer, higher square."""
    out = list(judged)
    index = {(c, lvl): i for i, (c, lvl) in enumerate(cands)}
    npts = pts_all.shape[0] // max(len(cands), 1)
    for g in found:
        a = index.get((g.cell, g.level))
        if a is None or a not in shown:
            continue
        k = shaded.names.index(g.colour)
        rivals = [i for i, item in enumerate(judged) if item is not None and i != a
                  and item[1].colour == g.colour and i in shown]
        for b in rivals:
            pa = pts_all[a * npts:(a + 1) * npts]
            pb = pts_all[b * npts:(b + 1) * npts]
            # points of each that the other's pawn covers in the picture
            a_in_b = _in_outline(pa, camera, lattice, cands[b], layout, heights)
            b_in_a = _in_outline(pb, camera, lattice, cands[a], layout, heights)
            if not (a_in_b.any() or b_in_a.any()):
                continue  # not on one line of sight
            ea, ga = out[a]
            eb, gb = out[b]
            seen_a, seen_b = ~np.isnan(shown[a][0][:, 0]), ~np.isnan(shown[b][0][:, 0])
            if (a_in_b | ~seen_a).all() and (b_in_a | ~seen_b).all():
                # all either shows lies where the other would show: the picture cannot tell
                # them apart (a head over a tower), a tie (the nearer, higher square is kept)
                out[a], out[b] = (max(ea, eb), ga), (max(ea, eb), gb)
                continue
            # only where the other pawn's pixel would show the mountain: the table seen past
            # a pawn may have any colour (a green cloth), a cube's wood has none of theirs
            against_a = _colour_points(shown[b], k, shaded, ~b_in_a & ~_unhidden(
                _on_table(pb, camera), camera, lattice, heights, layout.cube))
            against_b = _colour_points(shown[a], k, shaded, ~a_in_b & ~_unhidden(
                _on_table(pa, camera), camera, lattice, heights, layout.cube))
            out[a] = (ea - _CONTRADICTION * against_a, ga)
            out[b] = (eb - _CONTRADICTION * against_b, gb)
    return out


def surround_contrast(image: np.ndarray, view: View, lattice: Lattice, cell: tuple[int, int],
                      level: int, layout: Layout, bgr: np.ndarray) -> float | None:
    """How much darker (feature units) a pawn standing on (``cell``, ``level``) shows (the
    median brightness of its visible points ``bgr``, N×3) than the lighter three quarters of
    what surrounds its outline in the picture (points :data:`_SURROUND_MM` outside the pawn, all
    round it and over its head). A pawn's paint ends at its outline; a shadow or a gap between
    cubes read as a dark pawn goes on past it, and shows about the same darkness round it. None
    when too little of the surround is in the frame."""
    cx, cy = lattice.cell_centre(cell)
    z0 = level * layout.cube
    hgt = layout.giant_height
    r = layout.giant_diameter / 2
    ring_x = np.concatenate([_RING16_COS, _RING16_COS])
    ring_y = np.concatenate([_RING16_SIN, _RING16_SIN])
    body = np.column_stack([cx + r * ring_x, cy + r * ring_y,
                            np.repeat([z0, z0 + hgt], len(_RING16_COS))])
    outline = cv2.convexHull(view.project(body).astype(np.float32))
    rr = r + _SURROUND_MM
    zs = np.linspace(z0 + 2.0, z0 + hgt + _SURROUND_MM, 6)
    around = np.column_stack([np.tile(cx + rr * _RING24_COS, len(zs)), np.tile(cy + rr * _RING24_SIN, len(zs)),
                              np.repeat(zs, len(_RING24_COS))])
    px = view.project(around)
    h, w = image.shape[:2]
    ok = np.isfinite(px).all(axis=1)
    ok &= (px[:, 0] >= 1) & (px[:, 0] < w - 2) & (px[:, 1] >= 1) & (px[:, 1] < h - 2)
    ok &= np.array([cv2.pointPolygonTest(outline, (float(x), float(y)), True) < -1.0 if o else False
                    for (x, y), o in zip(px, ok)])
    if ok.sum() < 8 or len(bgr) == 0:
        return None
    q = px[ok].astype(np.float32)
    x0, y0 = max(int(q[:, 0].min()) - 8, 0), max(int(q[:, 1].min()) - 8, 0)
    x1, y1 = min(int(q[:, 0].max()) + 9, w), min(int(q[:, 1].max()) + 9, h)
    blurred = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), 0.7)
    outside = _features(_sample(blurred, (q - np.array([x0, y0], np.float32)).reshape(-1, 1, 2)))[:, 2]
    inside = float(np.median(_features(bgr)[:, 2]))
    return float(np.percentile(outside, 25)) - inside


_RING16_COS = np.cos(np.linspace(0, 2 * math.pi, 16, endpoint=False))
_RING16_SIN = np.sin(np.linspace(0, 2 * math.pi, 16, endpoint=False))
_RING24_COS = np.cos(np.linspace(0, 2 * math.pi, 24, endpoint=False))
_RING24_SIN = np.sin(np.linspace(0, 2 * math.pi, 24, endpoint=False))


def _on_table(points: np.ndarray, camera: np.ndarray) -> np.ndarray:
    """Where the lines from the camera through these points (N×3, mm) meet the table."""
    d = points - camera[None, :]
    t = -camera[2] / np.minimum(d[:, 2:3], -1e-6)
    out = camera[None, :] + t * d
    out[:, 2] = 0.0
    return out


def _colour_points(shown: tuple[np.ndarray, np.ndarray], k: int, shaded: ShadedModel,
                   where: np.ndarray) -> float:
    """How many of a square's judged points among ``where`` show colour ``k`` (summed
    agreement; a dark point counts only for a dark colour, as :func:`colour_votes` counts)."""
    agree, light = shown
    use = where & ~np.isnan(agree[:, 0])
    if k not in shaded.dark:
        use &= light
    return float(np.nansum(agree[use, k]))


def _in_outline(points: np.ndarray, camera: np.ndarray, lattice: Lattice, square: tuple,
                layout: Layout, heights: dict[tuple[int, int], int], samples: int = 12) -> np.ndarray:
    """Which table points (N×3, mm) fall, in the picture, where a pawn standing on ``square``
    (cell, level) would show: the line from the camera through the point, in front of it or
    beyond, meets the pawn first where the camera sees it past the mountain read
    (``heights``)."""
    cell, level = square
    cx, cy = lattice.cell_centre(cell)
    z0 = level * layout.cube
    z1 = z0 + layout.giant_height
    r2 = (layout.giant_diameter / 2) ** 2
    d = points - camera[None, :]
    z = np.linspace(z1, z0, samples)  # from the head down: the first met from the camera
    t = (z[None, :] - camera[2]) / np.where(np.abs(d[:, 2:3]) < 1e-6, -1e-6, d[:, 2:3])
    x = camera[0] + t * d[:, :1]
    y = camera[1] + t * d[:, 1:2]
    inside = ((x - cx) ** 2 + (y - cy) ** 2) < r2
    hit = inside.any(axis=1)
    first = np.argmax(inside, axis=1)
    rows = np.arange(len(points))
    q = np.column_stack([x[rows, first], y[rows, first], z[first]])
    return hit & _unhidden(q, camera, lattice, heights, layout.cube)


def _best(judged: list[tuple[float, GiantReading] | None]) -> list[GiantReading]:
    """For each colour, the square whose pawn explains the most (on a tie, the nearer, higher
    square: what the camera meets first)."""
    best: dict[str, tuple[float, GiantReading]] = {}
    for item in judged:
        if item is None:
            continue
        evidence, g = item
        prev = best.get(g.colour)
        if prev is None or evidence > prev[0] + _TIE or (evidence >= prev[0] - _TIE
                                                         and g.level > prev[1].level):
            best[g.colour] = item
    return [g for _, g in best.values()]


def _behind_giants(points: np.ndarray, camera: np.ndarray, lattice: Lattice,
                   giants: list[GiantReading], layout: Layout, steps: int = 16) -> np.ndarray:
    """Which table points (N×3, mm) each giant hides from the camera (N × giants): the ray from the point to the camera crosses the giant's pawn
    (a cylinder of the kit's size on its square)."""
    r2 = (layout.giant_diameter / 2) ** 2
    d = camera[None, :] - points
    out = np.zeros((len(points), len(giants)), bool)
    t = np.linspace(0.0, 1.0, steps)
    r_near = layout.giant_diameter / 2 + 0.5
    for g_i, g in enumerate(giants):
        cx, cy = lattice.cell_centre(g.cell)
        z0 = g.level * layout.cube
        z1 = z0 + layout.giant_height
        # only the stretch of each ray below the pawn's head can cross it
        reach = np.clip((z1 - points[:, 2]) / np.maximum(d[:, 2], 1e-6), 0.0, 1.0)
        # the samples lie on that stretch: a ray whose stretch passes the pawn's axis farther
        # off than its radius (and a margin over rounding) cannot have one inside it, so
        # only the rays that come near are sampled (the same answer, a few rays of thousands)
        seg = reach[:, None] * d[:, :2]
        rel = np.array([cx, cy]) - points[:, :2]
        s = np.clip((rel * seg).sum(axis=1) / np.maximum((seg * seg).sum(axis=1), 1e-12), 0.0, 1.0)
        off = rel - s[:, None] * seg
        near = np.flatnonzero((off * off).sum(axis=1) < r_near * r_near)
        if not len(near):
            continue
        p, dn, rn = points[near], d[near], reach[near]
        q = p[:, None, :] + (t[None, :, None] * rn[:, None, None]) * dn[:, None, :]
        hit = (((q[..., 0] - cx) ** 2 + (q[..., 1] - cy) ** 2 < r2)
               & (q[..., 2] >= z0) & (q[..., 2] <= z1))
        out[near, g_i] = hit[:, 1:].any(axis=1)
    return out


def giant_mask(image_shape: tuple[int, int], view: View, lattice: Lattice, giants: list[GiantReading],
               layout: Layout) -> np.ndarray:
    """Pixels covered by the giants found (uint8, frame size): the mountain's evidence leaves
    them out."""
    mask = np.zeros(image_shape[:2], np.uint8)
    r = layout.giant_diameter / 2 + 1.5
    ang = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    for g in giants:
        c = lattice.cell_centre(g.cell)
        z0 = g.level * layout.cube
        ring = np.column_stack([c[0] + r * np.cos(ang), c[1] + r * np.sin(ang)])
        pts = np.concatenate([np.column_stack([ring, np.full(16, z0)]),
                              np.column_stack([ring, np.full(16, z0 + layout.giant_height + 1.5)])])
        px = view.project(pts)
        if np.all(np.isfinite(px)):
            cv2.fillConvexPoly(mask, cv2.convexHull(np.round(px).astype(np.int32)), 1)
    return mask
