"""The kobold die's marks, drawn once for the synthetic table and the reader alike.

The kobold die is ivory with black marks (``docs/table-kit.md`` leaves its design to the kit; the
product prints none, so these are the shapes it expects): one pip (4 mm across) in the middle;
two pips on a diagonal; the kobold's head, a round face with two horns, its eyes and grin left
bare. A face is ``DIE_MM`` square; pictures are y up (row 0 at the face's top edge).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from companion.vision.nains.kit import DIE_MM

PIP_MM = 2.0
#: the pips of the two face, from the face's centre (mm)
TWO_AT = 4.0


@lru_cache(maxsize=32)
def marks(label: str, ppm: float) -> np.ndarray:
    """The marks of face ``label`` (``0``, ``1``, ``2``, ``kobold``) at ``ppm`` pixels per mm:
    1 on a mark, 0 on bare ivory (float32, anti-aliased)."""
    n = int(round(DIE_MM * ppm))
    img = np.zeros((n, n), np.uint8)
    s = ppm * 16  # fixed-point shift 4

    def px(x: float, y: float) -> tuple[int, int]:  # face mm from the centre, y up
        return int(round((x + DIE_MM / 2) * s)), int(round((DIE_MM / 2 - y) * s))

    if label == "1":
        cv2.circle(img, px(0, 0), int(round(PIP_MM * s)), 255, -1, cv2.LINE_AA, 4)
    elif label == "2":
        cv2.circle(img, px(-TWO_AT, -TWO_AT), int(round(PIP_MM * s)), 255, -1, cv2.LINE_AA, 4)
        cv2.circle(img, px(TWO_AT, TWO_AT), int(round(PIP_MM * s)), 255, -1, cv2.LINE_AA, 4)
    elif label == "kobold":
        cv2.circle(img, px(0, -0.8), int(round(4.6 * s)), 255, -1, cv2.LINE_AA, 4)
        for sgn in (-1, 1):
            horn = np.array([px(sgn * 2.2, 2.2), px(sgn * 6.2, 6.6), px(sgn * 4.6, 1.0)], np.int32)
            cv2.fillConvexPoly(img, horn, 255, cv2.LINE_AA, 4)
            cv2.circle(img, px(sgn * 1.8, 0.2), int(round(1.0 * s)), 0, -1, cv2.LINE_AA, 4)
        cv2.ellipse(img, px(0, -2.6), (int(2.6 * s), int(1.2 * s)), 0, 0, 180, 0, -1, cv2.LINE_AA, 4)
    elif label != "0":
        raise ValueError(f"the kobold die has no face {label!r}")
    out = img.astype(np.float32) / 255.0
    out.setflags(write=False)
    return out
