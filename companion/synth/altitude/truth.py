"""Ground truth of a rendered Altitude frame: the observation an ideal reader makes, and how much
of each card the camera can see.

The ideal observation is the engine's format (``docs/observation/altitude.md``): every card of
every mountain in its slot (étage, and position counted from the leftmost base card), the
discard pile's top card, the drawn card while it is shown on the deck, and the cards a player
keeps at the end (a face-down one as ``card_back``). Each card also gets its *visible fraction*
(pixels showing it over the pixels it would cover with nothing on it, counted on the renderer's
id map) and whether another card rests on it (``covered``): the figures count covered cards
apart, since half of their face is hidden by design.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.observation import Observation, Piece
from companion.synth.altitude.render import CARD_ID, HAND_ID, RenderedTable
from companion.synth.altitude.scene import AltitudeScene
from companion.synth.scene import Shot
from companion.vision.altitude.layout import GAME, card_corners
from companion.vision.camera import View

#: a card is expected from a reader when at least this share of it shows
MIN_VISIBLE = 0.2
#: a frame has an arm over the play area when at least this many of its pixels lie over it
MIN_HAND_PX = 150


@dataclass(frozen=True)
class CardTruth:
    """One card on the table: its ``piece`` as the ideal observation has it (None for the
    deck's back and buried discards), ``visible`` fraction, ``covered`` by another card."""

    role: str
    card: str | None
    piece: Piece | None
    visible: float
    covered: bool = False


@dataclass(frozen=True)
class AltitudeTruth:
    observation: Observation
    cards: tuple[CardTruth, ...]
    hand: bool              # an arm is in the scene
    hand_over_table: bool   # ... and shows over the play area
    view: View

    def to_json(self) -> dict[str, Any]:
        """Plain data for :class:`~companion.vision.frames.Frame.truth`."""
        return {"observation": self.observation.to_json(),
                "cards": [{"role": c.role, "card": c.card, "visible": round(c.visible, 3),
                           "covered": c.covered,
                           "piece": c.piece.to_json() if c.piece is not None else None}
                          for c in self.cards],
                "hand": self.hand, "hand_over_table": self.hand_over_table,
                "view": self.view.to_json()}


def _area(view: View, corners: np.ndarray, z: float) -> float:
    w, h = view.camera.size
    px = view.project(np.column_stack([corners, np.full(len(corners), z)])).astype(np.float32)
    if not np.all(np.isfinite(px)):
        return 0.0
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, _ = cv2.intersectConvexConvex(cv2.convexHull(px), frame)
    return float(area)


def play_mask(scene: AltitudeScene, view: View) -> np.ndarray:
    """The pixels of the play area (seat areas, the strips in front of them, the middle)."""
    w, h = view.camera.size
    mask = np.zeros((h, w), np.uint8)
    for poly in scene.layout.play_polygons():
        px = view.project(np.column_stack([poly, np.zeros(len(poly))]))
        if np.all(np.isfinite(px)):
            cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    mid = scene.layout.table_mm
    centre = np.array([[mid[0] * 0.4, mid[1] * 0.4], [mid[0] * 0.6, mid[1] * 0.4],
                       [mid[0] * 0.6, mid[1] * 0.6], [mid[0] * 0.4, mid[1] * 0.6]])
    px = view.project(np.column_stack([centre, np.zeros(4)]))
    cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    return mask


def make_truth(scene: AltitudeScene, shot: Shot, rendered: RenderedTable) -> AltitudeTruth:
    view = shot.view
    ids = rendered.ids
    counts = np.bincount(ids.ravel().astype(np.int64), minlength=CARD_ID + len(rendered.laid) + 1)
    base_pos = {m.seat: min((c.pos for c in m.cards if c.etage == 1), default=0)
                for m in scene.mountains}
    top_discard = len(scene.discard) - 1
    cards: list[CardTruth] = []
    for n, card in enumerate(rendered.laid):
        area = _area(view, card_corners(card.centre, card.angle_deg, scene.layout.card_mm), card.z)
        seen = float(counts[CARD_ID + n]) if CARD_ID + n < len(counts) else 0.0
        vis = min(1.0, seen / area) if area > 0 else 0.0
        piece = None
        covered = False
        if card.role == "mountain" and card.slot is not None and card.seat is not None:
            k, p = card.slot
            mountain = scene.mountain(card.seat)
            covered = bool(mountain is not None and mountain.covered(k, p))
            piece = Piece("card", zone=f"player:{card.seat}",
                          attrs={"card": card.card, "etage": k, "pos": p - base_pos[card.seat]})
        elif card.role == "discard" and card.index == top_discard:
            piece = Piece("card", zone="discard", attrs={"card": card.card})
        elif card.role == "drawn":
            piece = Piece("card", zone="drawn", attrs={"card": card.card})
        elif card.role == "kept":
            zone = f"hand:{card.seat}"
            piece = (Piece("card", zone=zone, attrs={"card": card.card}) if card.card is not None
                     else Piece("card_back", zone=zone))
        cards.append(CardTruth(card.role, card.card, piece, vis, covered))
    hand_px = 0
    if scene.hand is not None:
        hand_px = int(np.count_nonzero((ids == HAND_ID) & (play_mask(scene, view) > 0)))
    pieces = tuple(c.piece for c in cards if c.piece is not None and c.visible >= MIN_VISIBLE)
    obs = Observation(game=GAME, pieces=pieces, hand=scene.hand is not None)
    return AltitudeTruth(obs, tuple(cards), scene.hand is not None, hand_px >= MIN_HAND_PX, view)
