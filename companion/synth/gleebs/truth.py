"""Ground truth of a rendered Gleeb's and Grues frame: what is on the board, what the camera can
see of it, and the observation an ideal reader would make.

Each drawn pyramid gets a *visible fraction*: the pixels showing it over the pixels it would show
if its own stack stood alone (so a lower pyramid whose rim shows fully below the one above it
counts as wholly visible, and one half hidden behind a taller neighbour as half). A pyramid is
*expected* from a reader when at least :data:`MIN_VISIBLE` of it shows (and a few pixels at
least); nested pyramids are never drawn and never expected (``docs/observation/gleebs-and-grues.md``).
A frame is a *hand* frame when the arm covers part of the board's squares (or the rim just
around them) at least as large as a fingertip: the ideal reading is then ``hand: true`` and
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.observation import Observation, Piece
from companion.synth.gleebs.scene import BoardPlacement, GleebsScene
from companion.synth.scene import Shot
from companion.vision.camera import View

if TYPE_CHECKING:
    from companion.synth.gleebs.render import Solid

GAME = "gleebs-and-grues"
MIN_VISIBLE = 0.3
MIN_PIXELS = 12
#: the arm counts as over the board when it covers this many pixels (a fingertip) of the squares
#: or of the ring of :data:`HAND_RING_MM` around them
HAND_PIXELS = 120
HAND_RING_MM = 5.0
#: id map values (kept equal to the renderer's)
PYRAMID_ID, HAND_ID = 1000, 20_000


@dataclass(frozen=True)
class PyramidTruth:
    """One drawn pyramid: ``cell`` and ``level`` (its place in its square's visible chain; None
    off the board), its ``visible`` fraction, whether a reader is ``expected`` to report it,
    and ``xyz``: the table point (mm) under its apex at its base height."""

    colour: str
    size: str
    cell: tuple[int, int] | None
    level: int | None
    xyz: tuple[float, float, float]
    visible: float
    pixels: int
    expected: bool


@dataclass(frozen=True)
class GleebsTruth:
    """Ground truth of one frame. ``nested``: pyramids inside others, never visible, as
    (cell, colour, size). ``hand``: an arm over the board; ``hand_in_view``: an arm anywhere in
    the frame."""

    observation: Observation
    pyramids: tuple[PyramidTruth, ...]
    nested: tuple[tuple[tuple[int, int], str, str], ...]
    hand: bool
    hand_in_view: bool
    hand_pixels: int
    view: View
    board: BoardPlacement
    ids: np.ndarray

    def to_json(self) -> dict[str, Any]:
        """Plain data for :class:`~companion.vision.frames.Frame.truth`."""
        return {
            "observation": self.observation.to_json(),
            "pyramids": [{"colour": p.colour, "size": p.size,
                          "cell": None if p.cell is None else list(p.cell), "level": p.level,
                          "xyz": [round(v, 2) for v in p.xyz], "visible": round(p.visible, 4),
                          "expected": p.expected} for p in self.pyramids],
            "nested": [{"cell": list(c), "colour": col, "size": s} for c, col, s in self.nested],
            "hand": self.hand, "hand_in_view": self.hand_in_view,
            "view": self.view.to_json(),
            "board": {"origin": list(self.board.origin), "yaw_deg": self.board.yaw_deg},
        }


def _hull_mask(px: np.ndarray, off: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    hull = cv2.convexHull(np.round((px - off) * 16).astype(np.int32))
    cv2.fillConvexPoly(mask, hull, 1, cv2.LINE_8, 4)
    return mask


def _own_visible(view: View, solids: list["Solid"]) -> dict[int, int]:
    """For each solid, the pixels it would show with only its own stack on the table."""
    out: dict[int, int] = {}
    w, h = view.camera.size
    groups: dict[Any, list["Solid"]] = {}
    for s in solids:
        groups.setdefault(s.cell if s.cell is not None else ("loose", s.ident), []).append(s)
    for group in groups.values():
        group.sort(key=lambda s: (s.level or 0))
        pxs = [view.project(s.points) for s in group]
        allpx = np.concatenate(pxs)
        if not np.all(np.isfinite(allpx)):
            for s in group:
                out[s.ident] = 0
            continue
        x0 = max(int(np.floor(allpx[:, 0].min())) - 2, 0)
        y0 = max(int(np.floor(allpx[:, 1].min())) - 2, 0)
        x1 = min(int(np.ceil(allpx[:, 0].max())) + 3, w)
        y1 = min(int(np.ceil(allpx[:, 1].max())) + 3, h)
        if x1 <= x0 or y1 <= y0:
            for s in group:
                out[s.ident] = 0
            continue
        off = np.array([x0, y0], float)
        masks = [_hull_mask(px, off, (y1 - y0, x1 - x0)) for px in pxs]
        above = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for k in range(len(group) - 1, -1, -1):
            out[group[k].ident] = int(np.count_nonzero(masks[k] & (1 - above)))
            above |= masks[k]
    return out


def board_region_px(view: View, board: BoardPlacement, spec_w: float, spec_h: float,
                    ring_mm: float) -> np.ndarray:
    """The board's squares and a ring around them, as an image polygon (z = 0)."""
    r = ring_mm
    corners = np.array([[-r, -r], [spec_w + r, -r], [spec_w + r, spec_h + r], [-r, spec_h + r]])
    edges = []
    for k in range(4):  # sample the edges: the lens bends them
        a, b = corners[k], corners[(k + 1) % 4]
        edges.append(a + (b - a) * np.linspace(0, 1, 12, endpoint=False)[:, None])
    pts = board.to_table(np.concatenate(edges))
    return view.project(np.column_stack([pts, np.zeros(len(pts))]))


def make_truth(scene: GleebsScene, shot: Shot, solids: list["Solid"], ids: np.ndarray) -> GleebsTruth:
    view = shot.view
    counts = np.bincount(ids.ravel().astype(np.int64), minlength=HAND_ID + 1)
    own = _own_visible(view, solids)
    pyramids = []
    for s in solids:
        seen = int(counts[s.ident]) if s.ident < len(counts) else 0
        area = own.get(s.ident, 0)
        vis = min(1.0, seen / area) if area > 0 else 0.0
        expected = s.cell is not None and vis >= MIN_VISIBLE and seen >= MIN_PIXELS
        apex = s.points[4]
        pyramids.append(PyramidTruth(s.pyramid.colour, s.pyramid.size, s.cell, s.level,
                                     (float(apex[0]), float(apex[1]), float(s.points[0, 2])),
                                     vis, seen, expected))
    nested = []
    for stack in scene.stacks:
        shown = set(stack.chain())
        nested += [(stack.cell, p.colour, p.size) for i, p in enumerate(stack.pyramids)
                   if i not in shown]
    hand_pixels = int(counts[HAND_ID]) if HAND_ID < len(counts) else 0
    over = False
    if hand_pixels:
        poly = board_region_px(view, scene.board, scene.spec.width_mm, scene.spec.height_mm,
                               HAND_RING_MM)
        mask = np.zeros(ids.shape, np.uint8)
        if np.all(np.isfinite(poly)):
            cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
        over = int(np.count_nonzero((ids == HAND_ID) & (mask > 0))) >= HAND_PIXELS
    if over:
        obs = Observation(game=GAME, pieces=(), hand=True)
    else:
        pieces = [Piece(kind="pyramid", cell=p.cell, level=p.level,
                        attrs={"colour": p.colour, "size": p.size})
                  for p in sorted(pyramids, key=lambda p: (p.cell or (9, 9), p.level or 0))
                  if p.expected]
        obs = Observation(game=GAME, pieces=tuple(pieces))
    return GleebsTruth(obs, tuple(pyramids), tuple(nested), over, hand_pixels > 0, hand_pixels,
                       view, scene.board, ids)
