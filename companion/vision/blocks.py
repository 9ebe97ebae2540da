"""Comparing a still frame with the last still moment, block by block: what the warm readers
(Haut les Cubes, Altitude) share.

A frame is averaged over :data:`BLOCK`-pixel blocks: the sensor's noise averages away, while a
piece laid, lifted or moved changes the blocks it covers by far more than :data:`STILL_LEVEL`.
A reading kept from the last still moment holds only while the camera has not moved: two views
are one when they put the same table points at the same pixels (within :data:`SAME_POSE_PX`).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.camera import View

#: the side of a comparison block, pixels of the frame
BLOCK = 8
#: a block whose mean level moved by more than this (in any channel) has changed
STILL_LEVEL = 6.0
#: two views that put the same table points within this many pixels of each other are one view
SAME_POSE_PX = 0.5


def block_picture(image: np.ndarray) -> np.ndarray:
    """``image`` (grey or colour) averaged over :data:`BLOCK`-pixel blocks, as float32."""
    h, w = image.shape[:2]
    return cv2.resize(image, (w // BLOCK, h // BLOCK), interpolation=cv2.INTER_AREA).astype(np.float32)


def same_view(a: View, b: View, points: np.ndarray) -> bool:
    """Whether two views put the table ``points`` (N×3 mm) at the same pixels."""
    if a is b:
        return True
    if tuple(a.camera.size) != tuple(b.camera.size) or len(points) == 0:
        return False
    pa, pb = a.project(points), b.project(points)
    return bool(np.all(np.isfinite(pa)) and np.all(np.isfinite(pb))
                and float(np.abs(pa - pb).max()) <= SAME_POSE_PX)


def area_corners(width_mm: float, depth_mm: float, height_mm: float = 100.0) -> np.ndarray:
    """The corners of a play area on the table and ``height_mm`` above it (8×3 mm): pieces
    stand up to about that high, so a view that puts these at the same pixels sees them alike."""
    return np.array([[x, y, z] for x in (0.0, width_mm) for y in (0.0, depth_mm)
                     for z in (0.0, height_mm)])
