"""Drawing a Terra Turrium table as a webcam sees it, with an id map for the ground truth.

The same camera model, optics, lights, table tops and arms as the Haut les Cubes renderer
(:mod:`companion.synth.render`): everything is drawn on a pinhole canvas with the shared
:class:`~companion.vision.camera.View`, then bent by the lens (:mod:`companion.synth.optics`), so
a board point lands exactly where ``View.project`` puts it.

The towers are a height field on the board's grid, which gives a simple exact painter's order:
a ray from the camera crosses the squares between the camera's foot and its target in order,
so squares are drawn by decreasing grid distance from the camera's foot, each tower bottom block
first, its flag after it; the arm, held above every tower, comes last.

Each block is drawn on its own (it sits a little off its square, a little turned), so the
seams between blocks show on a tower's sides. Every face is a small texture warped into place:
the kit's colour with a faint mottle, darkened along its rounded edges, lit by the ambient light
(less of it deep in the 2 mm cracks between towers, where a face sees little sky) and by the
directional light where no tower, flag or arm casts a shadow on it. The board, its markers and
the table are one plane shaded the same way, with a soft contact darkening at every tower's foot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.synth import bodies as B
from companion.synth import optics
from companion.synth.canvas import Canvas
from companion.synth.scene import Shot
from companion.synth.terra import sheets
from companion.synth.terra.scene import BLOCK_KITS, FLAG_ALBEDO, POLE_ALBEDO, TerraScene
from companion.vision.terra.kit import (
    BLOCK_MM, HEAD_DIAMETER, HEAD_HEIGHT, POLE_DIAMETER, POLE_HEIGHT, SIZE, SQUARE_MM,
)

#: id map values: the top face of square s is TOP_ID + s, its sides SIDE_ID + s, flag n's
#: head FLAG_ID + n and pole POLE_ID + n; 0 is the table, BOARD_ID the board sheet
TOP_ID, SIDE_ID, FLAG_ID, POLE_ID, HAND_ID, BOARD_ID, MARKER_ID = 1000, 2000, 3000, 3100, 20_000, 500, 600
#: texture resolution of block faces (px per mm)
FACE_PPM = 2.5
#: where the default table's markers lie (table mm, marker centres): the 600 × 600 play area
TABLE_MARKERS = {0: (0.0, 0.0), 1: (600.0, 0.0), 2: (600.0, 600.0), 3: (0.0, 600.0)}
CYLINDER_SEGMENTS = 14


@dataclass(frozen=True)
class RenderedTerra:
    """A rendered frame: ``image`` (BGR uint8) and the ``ids`` map (which piece each pixel
    shows), both at the camera's size."""

    image: np.ndarray
    ids: np.ndarray


@dataclass(frozen=True)
class _Block:
    square: int
    level: int
    corners: np.ndarray  # 8×3 table mm: bottom four counter-clockwise, then top four
    centre: np.ndarray   # table mm of the bottom face's centre


def _sky(normal: np.ndarray) -> float:
    """Share of the ambient light a surface facing ``normal`` receives (as the Haut les Cubes
    renderer: a face turned up sees the whole sky, a vertical one about half)."""
    return float(0.6 + 0.4 * max(0.0, float(normal[2])))


class _Painter(Canvas):
    def __init__(self, scene: TerraScene, shot: Shot):
        super().__init__(shot, salt=5)
        self.scene = scene
        self.albedo = np.asarray(BLOCK_KITS[scene.blocks], np.float32)
        # how many canvas pixels a millimetre of the board covers (for texture filtering)
        centre = np.append(scene.board_centre(), 0.0)
        self.px_per_mm = float(self.K[0, 0] / max(np.linalg.norm(centre - self.C), 1.0))

    def sheet(self, which: str, tex_shape: tuple[int, int], top_left_board: tuple[float, float],
              to_table, ident: int) -> None:
        """Lay a flat sheet: its pixel (u, v) lies at board-frame point
        ``top_left + ((u+0.5)/ppm, −(v+0.5)/ppm)``; ``to_table`` maps such points to the table."""
        ppm = sheets.SHEET_PPM
        sigma = 0.45 * ppm / max(self.px_per_mm, 1e-3)
        tex = sheets.blurred(which, round(sigma * 4) / 4)
        x0, y1 = top_left_board
        o = to_table(np.array([[x0 + 0.5 / ppm, y1 - 0.5 / ppm]]))[0]
        ax = to_table(np.array([[x0 + 1.0, y1]]))[0] - to_table(np.array([[x0, y1]]))[0]
        ay = to_table(np.array([[x0, y1 - 1.0]]))[0] - to_table(np.array([[x0, y1]]))[0]
        origin = np.array([o[0], o[1], 0.0])
        a = np.array([ax[0], ax[1], 0.0]) / ppm
        b = np.array([ay[0], ay[1], 0.0]) / ppm
        H = self.plane_homography(origin, a, b)
        hs, ws = tex_shape
        corners = np.array([[-0.5, -0.5], [ws - 0.5, -0.5], [ws - 0.5, hs - 0.5], [-0.5, hs - 0.5]])
        quad = cv2.perspectiveTransform(corners[None], H)[0]
        self.warp_into(tex, H, quad)
        self.fill(self.ids, quad, int(ident))

    def board_and_markers(self) -> None:
        for mid, (cx, cy) in TABLE_MARKERS.items():
            half = sheets.MARKER_PAPER_MM / 2
            tex = sheets.table_marker_sheet(mid)
            self.sheet(f"marker:{mid}", tex.shape[:2], (cx - half, cy + half), lambda p: p, MARKER_ID + mid)
        tex, top_left = sheets.board_sheet()
        self.sheet("board", tex.shape[:2], top_left, self.scene.to_table, BOARD_ID)

    def shade_plane(self, occluders: "_Occluders", footprints: list[np.ndarray]) -> None:
        """Ambient plus direct light on the table plane, shadows and contact darkening."""
        self.light_plane([self.project(p) for p in occluders.shadows_on_plane(self.L)],
                         [self.project(f) for f in footprints], pad=(16, 16),
                         shadow_blur=max(0.6, 0.8 * self.px_per_mm),
                         contact_blur=max(1.0, 2.5 * self.px_per_mm), contact_strength=0.55)

    # ------------------------------------------------------------------------ block faces
    def face(self, corner: np.ndarray, a: np.ndarray, b: np.ndarray, normal: np.ndarray,
             w: float, h: float, occluders: "_Occluders", skip: int, ident: int,
             ao: "tuple[float, float, float] | None", top: bool) -> None:
        """One face of a block: ``corner + s·a + u·b``, s in [0, w], u in [0, h] (mm).
        ``ao``: (gap mm, height of the facing wall above the face's bottom, mm) for a side
        face with a neighbouring tower close in front of it."""
        pw, ph = max(2, int(round(w * FACE_PPM))), max(2, int(round(h * FACE_PPM)))
        lam = max(0.0, -float(normal @ self.L))
        shadow = np.zeros((ph, pw), np.float32)
        if lam > 0:
            occluders.shadow_on_face(corner, a, b, normal, w, h, self.L, skip, shadow, FACE_PPM)
            shadow = cv2.GaussianBlur(shadow, (0, 0), 1.0)
        alb = _face_albedo(self.rng, pw, ph) * self.albedo[None, None, :] * _edges(pw, ph)
        sky = np.full((ph, 1), _sky(normal), np.float32)
        if ao is not None:
            gap, wall = ao
            u = h - (np.arange(ph, dtype=np.float32) + 0.5) / FACE_PPM  # height above the bottom
            depth = np.clip(wall - u, 0.0, None)
            sky = sky * np.maximum(1.0 - depth / np.sqrt(depth * depth + gap * gap), 0.06)[:, None]
        light = self.ambient[None, None, :] * sky[:, :, None] + self.light[None, None, :] * (lam * (1.0 - shadow))[:, :, None]
        tex = alb * light
        origin = corner + a * (0.5 / FACE_PPM) + b * (h - 0.5 / FACE_PPM)
        H = self.plane_homography(origin, a / FACE_PPM, -b / FACE_PPM)
        quad = self.project(np.array([corner, corner + a * w, corner + a * w + b * h, corner + b * h]))
        self.warp_into(tex, H, quad)
        self.fill(self.ids, quad, ident)

    def block(self, blk: _Block, is_top: bool, occluders: "_Occluders",
              neighbours: dict[tuple[int, int], int]) -> None:
        c = blk.corners
        x, y = blk.square % SIZE, blk.square // SIZE
        for k in range(4):
            p0, p1 = c[k], c[(k + 1) % 4]
            a = p1 - p0
            w = float(np.linalg.norm(a))
            a = a / w
            n = np.array([a[1], -a[0], 0.0])  # outward: bottom corners run counter-clockwise
            mid = (p0 + p1) / 2 + np.array([0, 0, BLOCK_MM / 2])
            if float(n @ (self.C - mid)) <= 0:
                continue
            # the neighbouring tower this face looks at, if any: it shades the face's crack
            nb = self.scene.to_board(np.array([n[0], n[1]]) + self.scene.board_origin)
            dx, dy = int(round(nb[0])), int(round(nb[1]))
            nh = neighbours.get((x + dx, y + dy), 0) if abs(dx) + abs(dy) == 1 else 0
            ao = None
            if nh * BLOCK_MM > blk.level * BLOCK_MM:
                ao = (SQUARE_MM - BLOCK_MM, nh * BLOCK_MM - blk.level * BLOCK_MM)
            self.face(p0, a, np.array([0.0, 0.0, 1.0]), n, w, BLOCK_MM, occluders, blk.square,
                      SIDE_ID + blk.square, ao, False)
        top = c[4:]
        a = top[1] - top[0]
        b = top[3] - top[0]
        wa, wb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
        if is_top:
            self.face(top[0], a / wa, b / wb, np.array([0.0, 0.0, 1.0]), wa, wb, occluders,
                      blk.square, TOP_ID + blk.square, None, True)
        else:  # covered by the block above but for a sliver: a flat fill is enough
            lam = max(0.0, -float(self.L[2]))
            col = self.albedo * (self.ambient + self.light * lam * 0.5)
            self.fill(self.img, self.project(top), tuple(float(v) for v in col))

    # ------------------------------------------------------------------------ flags and arm
    def cylinder(self, base: np.ndarray, r: float, z0: float, z1: float, albedo: np.ndarray,
                 lit: float, ident: int) -> None:
        ang = np.linspace(0, 2 * math.pi, CYLINDER_SEGMENTS + 1)
        strips = []
        for k in range(CYLINDER_SEGMENTS):
            am = (ang[k] + ang[k + 1]) / 2
            nrm = np.array([math.cos(am), math.sin(am), 0.0])
            mid = base + r * nrm + np.array([0, 0, (z0 + z1) / 2])
            if float(nrm @ (self.C - mid)) <= 0:
                continue
            p0 = base + np.array([math.cos(ang[k]) * r, math.sin(ang[k]) * r, 0.0])
            p1 = base + np.array([math.cos(ang[k + 1]) * r, math.sin(ang[k + 1]) * r, 0.0])
            quad = np.array([p0 + [0, 0, z0], p1 + [0, 0, z0], p1 + [0, 0, z1], p0 + [0, 0, z1]])
            strips.append((float(np.linalg.norm(mid - self.C)), quad, nrm))
        strips.sort(key=lambda s: -s[0])
        for _, quad, nrm in strips:
            lam = max(0.0, -float(nrm @ self.L))
            col = albedo * (self.ambient * 0.6 + self.light * lam * lit)
            self.fill(self.img, self.project(quad), tuple(float(c) for c in col))
            self.fill(self.ids, self.project(quad), ident)
        lam_top = max(0.0, -float(self.L[2]))
        col = albedo * (self.ambient + self.light * lam_top * lit)
        disk = base + np.stack([r * np.cos(ang[:-1]), r * np.sin(ang[:-1]), np.full(CYLINDER_SEGMENTS, z1)], axis=1)
        self.fill(self.img, self.project(disk), tuple(float(c) for c in col))
        self.fill(self.ids, self.project(disk), ident)

    def flag(self, index: int, base: np.ndarray, occluders: "_Occluders") -> None:
        colour = self.scene.flags[index].colour
        top = POLE_HEIGHT
        lit = occluders.lit(base + np.array([0, 0, top - HEAD_HEIGHT / 2]), self.L, _flag_owner(index))
        self.cylinder(base, POLE_DIAMETER / 2, 0.0, top - HEAD_HEIGHT, np.asarray(POLE_ALBEDO, np.float32),
                      lit, POLE_ID + index)
        self.cylinder(base, HEAD_DIAMETER / 2, top - HEAD_HEIGHT, top,
                      np.asarray(FLAG_ALBEDO[colour], np.float32), lit, FLAG_ID + index)

    def hand_part(self, cap: B.Capsule) -> None:
        pts = self.project(cap.points())
        lam = max(0.0, -float(self.L[2]))
        albedo = np.asarray(cap.colour, np.float32)
        dark = albedo * (self.ambient + self.light * lam * 0.55)
        self.fill(self.img, pts, tuple(float(c) for c in dark))
        shift = -np.array([self.L[0], self.L[1], 0.0]) * 0.25 * min(cap.r0, cap.r1)
        core = B.Capsule(cap.p0 + shift, cap.p1 + shift, cap.r0 * 0.6, cap.r1 * 0.6, cap.colour, cap.flat)
        bright = albedo * (self.ambient + self.light * lam)
        self.fill(self.img, self.project(core.points()), tuple(float(c) for c in bright))
        self.fill(self.ids, pts, HAND_ID)


class _Occluders:
    """Everything that casts a shadow, as point clouds whose convex hull is the body: each
    tower (its blocks' corners), each flag, each part of the arm. ``owner`` says which square a
    body stands on (a face is not shadowed by its own tower), -1 for the arm."""

    def __init__(self) -> None:
        self.clouds: list[np.ndarray] = []
        self.owner: list[int] = []
        self.boxes: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, pts: np.ndarray, owner: int) -> None:
        self.clouds.append(np.asarray(pts, float))
        self.owner.append(owner)

    def freeze(self) -> None:
        self.starts = np.cumsum([0] + [len(c) for c in self.clouds[:-1]]).astype(np.int64)
        self.all = np.concatenate(self.clouds) if self.clouds else np.zeros((0, 3))
        self.owners = np.asarray(self.owner)
        self.lo = np.array([c.min(axis=0) for c in self.clouds]) if self.clouds else np.zeros((0, 3))
        self.hi = np.array([c.max(axis=0) for c in self.clouds]) if self.clouds else np.zeros((0, 3))

    def shadows_on_plane(self, L: np.ndarray) -> list[np.ndarray]:
        out = []
        if L[2] >= -1e-9:
            return out
        for pts in self.clouds:
            p = pts[pts[:, 2] >= -1e-6]
            if len(p) < 3:
                continue
            t = -p[:, 2] / L[2]
            out.append(p + t[:, None] * L)
        return out

    def shadow_on_face(self, corner, a, b, n, w, h, L, skip, mask, ppm) -> None:
        if not len(self.all):
            return
        nl = float(n @ L)
        if nl >= -1e-9:
            return
        d = float(n @ corner)
        side = self.all @ n - d
        front = np.minimum.reduceat(side, self.starts) >= -1e-6
        front &= self.owners != skip
        if not front.any():
            return
        t = -side / nl
        proj = self.all + t[:, None] * L
        rel = proj - corner
        s = rel @ a
        u = rel @ b
        smin, smax = np.minimum.reduceat(s, self.starts), np.maximum.reduceat(s, self.starts)
        umin, umax = np.minimum.reduceat(u, self.starts), np.maximum.reduceat(u, self.starts)
        hit = front & (smax > 0) & (smin < w) & (umax > 0) & (umin < h)
        ends = np.append(self.starts[1:], len(self.all))
        for k in np.nonzero(hit)[0]:
            sl = slice(self.starts[k], ends[k])
            px = np.stack([s[sl] * ppm - 0.5, (h - u[sl]) * ppm - 0.5], axis=1)
            hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_8, 4)

    def lit(self, point: np.ndarray, L: np.ndarray, skip: int) -> float:
        """1 when the light reaches ``point``, 0 when a body's box (other than ``skip``'s)
        is in the way."""
        if not len(self.clouds):
            return 1.0
        d = -L
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = (self.lo - point) / d
            t1 = (self.hi - point) / d
        tmin = np.nanmax(np.minimum(t0, t1), axis=1)
        tmax = np.nanmin(np.maximum(t0, t1), axis=1)
        blocked = (tmax >= np.maximum(tmin, 1e-3)) & (self.owners != skip)
        return 0.0 if np.any(blocked) else 1.0


def _blocks(scene: TerraScene) -> dict[int, list[_Block]]:
    out: dict[int, list[_Block]] = {}
    half = BLOCK_MM / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    for y in range(SIZE):
        for x in range(SIZE):
            h = scene.height(x, y)
            if h == 0:
                continue
            offs = scene.block_offsets(x, y)
            sq = y * SIZE + x
            out[sq] = []
            for k in range(h):
                dx, dy, turn = offs[k]
                a = math.radians(turn)
                rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
                cx, cy = (x + 0.5) * SQUARE_MM + dx, (y + 0.5) * SQUARE_MM + dy
                foot = scene.to_table(local @ rot.T + np.array([cx, cy]))
                e1, e2 = foot[1] - foot[0], foot[2] - foot[1]
                if e1[0] * e2[1] - e1[1] * e2[0] < 0:  # keep counter-clockwise
                    foot = foot[::-1]
                corners = np.vstack([np.column_stack([foot, np.full(4, k * BLOCK_MM)]),
                                     np.column_stack([foot, np.full(4, (k + 1) * BLOCK_MM)])])
                centre = np.append(scene.to_table(np.array([[cx, cy]]))[0], k * BLOCK_MM)
                out[sq].append(_Block(sq, k, corners, centre))
    return out


def _flag_owner(index: int) -> int:
    """The occluder owner of flag ``index`` (it shades its own tower's top, unlike a block)."""
    return -2 - index


def _flag_cloud(base: np.ndarray) -> np.ndarray:
    ang = np.linspace(0, 2 * math.pi, 8, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang), np.zeros(8)], axis=1)
    pole = np.concatenate([base + ring * POLE_DIAMETER / 2, base + ring * POLE_DIAMETER / 2 + [0, 0, POLE_HEIGHT - HEAD_HEIGHT]])
    head = np.concatenate([base + ring * HEAD_DIAMETER / 2 + [0, 0, POLE_HEIGHT - HEAD_HEIGHT],
                           base + ring * HEAD_DIAMETER / 2 + [0, 0, POLE_HEIGHT]])
    return np.concatenate([pole, head])


def flag_base(scene: TerraScene, blocks: dict[int, list[_Block]], cell: tuple[int, int]) -> np.ndarray:
    """Table point where a flag on ``cell`` stands: the middle of its tower's top (the board
    when the square is empty)."""
    sq = cell[1] * SIZE + cell[0]
    if sq in blocks and blocks[sq]:
        top = blocks[sq][-1]
        return np.append(top.corners[4:, :2].mean(axis=0), top.corners[4, 2])
    c = scene.to_table(np.array([[(cell[0] + 0.5) * SQUARE_MM, (cell[1] + 0.5) * SQUARE_MM]]))[0]
    return np.array([c[0], c[1], 0.0])


def _painter_order(scene: TerraScene, camera_table: np.ndarray) -> list[int]:
    """Squares from back to front: decreasing grid distance from the camera's foot (board
    frame), ties by the farther centre first."""
    foot = scene.to_board(camera_table[None, :2])[0] / SQUARE_MM
    keys = []
    for sq in range(SIZE * SIZE):
        x, y = sq % SIZE, sq // SIZE
        dx = max(x - foot[0], 0.0, foot[0] - (x + 1))
        dy = max(y - foot[1], 0.0, foot[1] - (y + 1))
        keys.append((-(dx + dy), -math.hypot(x + 0.5 - foot[0], y + 0.5 - foot[1]), sq))
    return [k[2] for k in sorted(keys)]


def render_terra(scene: TerraScene, shot: Shot, frame: int | None = None) -> RenderedTerra:
    """Draw ``scene`` as ``shot``'s camera sees it: the frame and its id map. ``frame``: the
    frame's number in a video (its sensor noise is its own; the table and its pieces, drawn
    from ``shot.seed``, stay the same from frame to frame, as a still table does)."""
    p = _Painter(scene, shot)
    blocks = _blocks(scene)
    occ = _Occluders()
    for sq, blks in blocks.items():
        occ.add(np.concatenate([b.corners for b in blks]), sq)
    bases = [flag_base(scene, blocks, f.cell) for f in scene.flags]
    for n, base in enumerate(bases):
        occ.add(_flag_cloud(base), _flag_owner(n))
    hand = B.hand_capsules(scene.hand) if scene.hand is not None else []
    for cap in hand:
        occ.add(cap.points(), -1)
    occ.freeze()

    p.table()
    p.board_and_markers()
    footprints = []
    for blks in blocks.values():
        b0 = blks[0]
        ctr = b0.corners[:4].mean(axis=0)
        footprints.append(ctr + (b0.corners[:4] - ctr) * 1.06)
    p.shade_plane(occ, footprints)

    neighbours = {(sq % SIZE, sq // SIZE): len(b) for sq, b in blocks.items()}
    flags_on = {f.cell[1] * SIZE + f.cell[0]: n for n, f in enumerate(scene.flags)}
    for sq in _painter_order(scene, p.C):
        for k, blk in enumerate(blocks.get(sq, ())):
            p.block(blk, k == len(blocks[sq]) - 1, occ, neighbours)
        if sq in flags_on:
            n = flags_on[sq]
            p.flag(n, bases[n], occ)
    for cap in hand:
        p.hand_part(cap)

    size = shot.view.camera.size
    linear = optics.distort(p.canvas, p.img, size)
    ids = optics.distort(p.canvas, p.ids, size, nearest=True)
    noise_rng = np.random.default_rng([shot.seed, 2] if frame is None else [shot.seed, 2, frame])
    image = optics.sensor(linear, noise_rng, exposure=shot.exposure,
                          noise=shot.noise, blur=shot.blur, jpeg=shot.jpeg)
    return RenderedTerra(image, ids)


_MOTTLE_CACHE: dict[int, np.ndarray] = {}


def _face_albedo(rng: np.random.Generator, pw: int, ph: int) -> np.ndarray:
    """A face's paint: uniform but for a faint mottle and a per-face tint (float, ~1)."""
    sheet = _MOTTLE_CACHE.get(0)
    if sheet is None:
        r = np.random.default_rng(99)
        noise = cv2.GaussianBlur(r.standard_normal((256, 256)).astype(np.float32), (0, 0), 2.0)
        sheet = 1.0 + 0.03 * noise / max(float(noise.std()), 1e-6)
        _MOTTLE_CACHE[0] = sheet
    y = int(rng.integers(0, 256 - ph)) if ph < 256 else 0
    x = int(rng.integers(0, 256 - pw)) if pw < 256 else 0
    tint = np.float32(1.0 + rng.normal(0.0, 0.025))
    patch = sheet[y:y + ph, x:x + pw]
    if patch.shape != (ph, pw):
        patch = cv2.resize(sheet, (pw, ph))
    return (patch * tint)[:, :, None]


_EDGE_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _edges(pw: int, ph: int) -> np.ndarray:
    """Darkening along a block face's rounded edges (1 inside)."""
    m = _EDGE_CACHE.get((pw, ph))
    if m is None:
        m = np.ones((ph, pw), np.float32)
        m[:, [0, pw - 1]] *= 0.55
        m[[0, ph - 1], :] *= 0.55
        m[:, [1, pw - 2]] *= 0.85
        m[[1, ph - 2], :] *= 0.85
        m = m[:, :, None]
        _EDGE_CACHE[(pw, ph)] = m
    return m
