"""Ground truth of a rendered La Ville des Nains frame: the observation an ideal reader makes,
and how much of each piece the camera can see.

The ideal observation is the engine's own format (``docs/observation/ville-des-nains.md``): the
dice in the tray (``die``, ``face``), every stone of the pool (``colour``, ``shape``), every
stone of every building (``building``, ``level``, ``colour``, ``shape``) and one blue stone per
level of the kobold's tower. Dice resting outside the tray are not part of it.

Each piece also gets its *visible fraction*: the pixels showing it over the pixels its silhouette
would cover with nothing in front, counted on the renderer's id map. A piece under
:data:`MIN_VISIBLE` cannot be read from this one picture (a building's lower stones seen straight
down, a pool stone behind a tall tower): the figures count those apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observation import Observation, Piece
from companion.synth.nains.render import HAND_ID, PIECE_ID, RenderedNains
from companion.synth.nains.scene import NainsScene, pieces
from companion.synth.scene import Shot
from companion.vision.camera import View
from companion.vision.nains.kit import GAME

#: a piece is readable from one picture when at least this share of it shows
MIN_VISIBLE = 0.2
#: a frame has a hand over the play area when at least this many pixels of arm lie over it
MIN_HAND_PX = 150


@dataclass(frozen=True)
class PieceTruth:
    """One piece: what it is (as the observation names it) and how much of it shows."""

    piece: Piece
    visible: float

    @property
    def readable(self) -> bool:
        return self.visible >= MIN_VISIBLE


@dataclass(frozen=True)
class NainsTruth:
    """Ground truth of one frame: ``observation`` (the ideal reading, every piece on the
    table), ``pieces`` with their visibility (same order), ``tower`` (the kobold's height),
    whether an arm is in the scene and whether it shows over the play area."""

    observation: Observation
    pieces: tuple[PieceTruth, ...]
    tower: int
    hand: bool
    hand_over_table: bool
    view: View

    def to_json(self) -> dict[str, Any]:
        """Plain data for :class:`~companion.vision.frames.Frame.truth`."""
        return {"observation": self.observation.to_json(),
                "visible": [round(p.visible, 3) for p in self.pieces], "tower": self.tower,
                "hand": self.hand, "hand_over_table": self.hand_over_table,
                "view": self.view.to_json()}


def ideal_pieces(scene: NainsScene) -> list[Piece]:
    """The documented pieces of ``scene`` (the dice at rest apart), in :func:`pieces` order,
    with None for a piece the observation does not name."""
    out: list[Piece | None] = []
    for p in pieces(scene):
        if p.kind == "die":
            out.append(Piece("die", zone="tray", attrs={"die": p.die, "face": p.face})
                       if p.zone == "tray" else None)
        elif p.zone == "pool":
            out.append(Piece("stone", zone="pool", attrs={"colour": p.colour, "shape": p.shape}))
        elif p.zone == "kobold":
            out.append(Piece("stone", zone="kobold", level=p.level, attrs={"colour": p.colour}))
        else:
            out.append(Piece("stone", zone=p.zone, level=p.level,
                             attrs={"building": p.building, "colour": p.colour, "shape": p.shape}))
    return out  # type: ignore[return-value]


def ideal_observation(scene: NainsScene) -> Observation:
    """What a perfect reader reports for ``scene`` (documented format)."""
    return Observation(game=GAME, pieces=tuple(p for p in ideal_pieces(scene) if p is not None))


def _silhouette_area(view: View, points: np.ndarray) -> float:
    w, h = view.camera.size
    px = view.project(points).astype(np.float32)
    if not np.all(np.isfinite(px)):
        return 0.0
    hull = cv2.convexHull(px)
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, _ = cv2.intersectConvexConvex(hull, frame)
    return float(area)


def make_truth(scene: NainsScene, shot: Shot, rendered: RenderedNains) -> NainsTruth:
    view = shot.view
    ids = rendered.ids
    all_pieces = pieces(scene)
    counts = np.bincount(ids.ravel().astype(np.int64), minlength=PIECE_ID + len(all_pieces) + 1)
    ideal = ideal_pieces(scene)
    out = []
    for n, (p, named) in enumerate(zip(all_pieces, ideal)):
        if named is None:
            continue
        area = _silhouette_area(view, p.solid.points)
        seen = float(counts[PIECE_ID + n])
        out.append(PieceTruth(named, min(1.0, seen / area) if area > 0 else 0.0))
    hand_over = False
    if scene.hand is not None and counts[HAND_ID] > 0:
        z = scene.zones
        outline = np.array([[0.0, 0.0, 0.0], [z.width_mm, 0.0, 0.0], [z.width_mm, z.depth_mm, 0.0],
                            [0.0, z.depth_mm, 0.0]])
        poly = view.project(outline).astype(np.float32)
        mask = np.zeros(ids.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 1)
        hand_over = int(((ids == HAND_ID) & (mask > 0)).sum()) >= MIN_HAND_PX
    obs = Observation(game=GAME, pieces=tuple(p.piece for p in out))
    return NainsTruth(obs, tuple(out), scene.tower, scene.hand is not None, hand_over, view)
