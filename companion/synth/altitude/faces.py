"""Card faces and backs as albedo textures for the renderer.

Faces come from :func:`companion.synth.card_faces.face_for` (the made-up artwork every card of a
manifest gets); the back is drawn here: a dark blue field with a white border and a pale
mountain, the same on every card, as a real deck's backs are. Textures are float32 BGR albedo
(white paper about 0.9) at :data:`SHEET_PPM` pixels a millimetre, made once per process, and
offered pre-blurred for far cameras (fine print drawn at four pixels a millimetre would alias
when the camera sees one pixel a millimetre).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from companion.synth.altitude.deck import CardSpec
from companion.synth.card_faces import CARD_MM, face_for

SHEET_PPM = 4.0
PAPER_ALBEDO = 0.90
SIZE_PX = (int(round(CARD_MM[0] * SHEET_PPM)), int(round(CARD_MM[1] * SHEET_PPM)))
BACK = "__back__"


@lru_cache(maxsize=128)
def face_albedo(spec: CardSpec) -> np.ndarray:
    """A card's face as albedo (float32 BGR, :data:`SIZE_PX`)."""
    img = face_for(spec.id, spec.label, spec.value, spec.face_kind, SIZE_PX)
    out = img.astype(np.float32) * np.float32(PAPER_ALBEDO / 250.0)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def back_albedo() -> np.ndarray:
    """The back every card shares (float32 BGR, :data:`SIZE_PX`)."""
    w, h = SIZE_PX
    img = np.full((h, w, 3), 250, np.uint8)
    b = 12
    cv2.rectangle(img, (b, b), (w - 1 - b, h - 1 - b), (110, 45, 25), -1, cv2.LINE_AA)
    cv2.rectangle(img, (b + 10, b + 10), (w - 11 - b, h - 11 - b), (200, 170, 140), 3, cv2.LINE_AA)
    cx, cy = w // 2, h // 2
    peak = np.array([[cx - 70, cy + 45], [cx - 15, cy - 50], [cx + 10, cy - 10], [cx + 35, cy - 35],
                     [cx + 75, cy + 45]])
    cv2.fillPoly(img, [peak], (205, 185, 165), cv2.LINE_AA)
    cv2.fillPoly(img, [np.array([[cx - 29, cy - 26], [cx - 15, cy - 50], [cx - 1, cy - 26]])],
                 (250, 250, 250), cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (200, 200, 200), 2)
    out = img.astype(np.float32) * np.float32(PAPER_ALBEDO / 250.0)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=512)
def sheet(spec: CardSpec | None, sigma_px: float) -> np.ndarray:
    """A face (``spec``) or the back (None) pre-blurred by ``sigma_px`` texture pixels."""
    tex = back_albedo() if spec is None else face_albedo(spec)
    if sigma_px <= 0.3:
        return tex
    out = cv2.GaussianBlur(tex, (0, 0), sigma_px)
    out.setflags(write=False)
    return out
