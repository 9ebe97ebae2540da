"""The printed sheets on the synthetic table, exactly as the project prints them.

The board page and the colour sheet are made by :mod:`calibration.targets` (the same code a user
prints them with) and laid on the table as albedo textures. Where the sheet's own frame lies on
the page is read back from the page itself (its markers, found in the clean print), so the
synthetic board cannot drift from the printed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.boards import ARUCO_DICT, COLOUR_SHEET, GLEEBS_BOARD, BoardSpec, ColourSheetSpec
from calibration.targets import board_sheet, colour_sheet
from companion.vision.gleebs.board import page_frame_map

#: resolution of the sheet textures (pixels per millimetre)
SHEET_PPM = 4.0
#: albedo of the paper and of the printer's black
PAPER_ALBEDO = 0.92
INK_ALBEDO = 0.05


@dataclass(frozen=True)
class SheetTexture:
    """A printed page as albedo (float32 BGR) and the affine map from its frame (the board's or
    the colour sheet's millimetres, y up) to the page's pixels."""

    albedo: np.ndarray
    frame_to_px: np.ndarray  # 2×3

    def px_to_frame(self) -> np.ndarray:
        """3×3 homogeneous map from page pixels to frame millimetres."""
        A = np.vstack([self.frame_to_px, [0.0, 0.0, 1.0]])
        return np.linalg.inv(A)

    def corners_px(self) -> np.ndarray:
        h, w = self.albedo.shape[:2]
        return np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])

    def halved(self, times: int) -> "SheetTexture":
        """The page at half the resolution ``times`` over, filtered as a lens and a sensor
        average fine print (a texture sampled far below its resolution would show fine lines
        as dashes)."""
        return _halved(self, times)


_HALVED: dict[tuple[int, int], SheetTexture] = {}


def _halved(sheet: SheetTexture, times: int) -> SheetTexture:
    if times <= 0:
        return sheet
    key = (id(sheet.albedo), times)
    if key not in _HALVED:
        smaller = _halved(sheet, times - 1)
        img = cv2.pyrDown(smaller.albedo)
        img.setflags(write=False)
        # level pixel p' shows level-above pixels 2p' + 0.5 around: p' = (p + 0.5)/2 - 0.5
        S = np.array([[0.5, 0.0, -0.25], [0.0, 0.5, -0.25], [0.0, 0.0, 1.0]])
        A = (S @ np.vstack([smaller.frame_to_px, [0.0, 0.0, 1.0]]))[:2]
        _HALVED[key] = SheetTexture(img, A)
    return _HALVED[key]


def _albedo(page: np.ndarray) -> np.ndarray:
    grey = page.astype(np.float32) / 255.0
    out = INK_ALBEDO + (PAPER_ALBEDO - INK_ALBEDO) * grey
    out.setflags(write=False)
    return out


@lru_cache(maxsize=2)
def board_texture(spec: BoardSpec = GLEEBS_BOARD) -> SheetTexture:
    """The board's page (A3, with its caption and 100 mm bar) as the user prints it."""
    page = board_sheet(SHEET_PPM, spec).page.image
    return SheetTexture(_albedo(page), page_frame_map(page, spec.markers))


@lru_cache(maxsize=2)
def colour_sheet_texture(spec: ColourSheetSpec = COLOUR_SHEET) -> SheetTexture:
    """The colour sheet (A4) of ``companion calibrate colours``."""
    page = colour_sheet(SHEET_PPM, spec).page.image
    return SheetTexture(_albedo(page), page_frame_map(page, spec.markers))


@lru_cache(maxsize=8)
def marker_sheet(marker_id: int, size_mm: float, paper_mm: float = 60.0) -> SheetTexture:
    """A table marker cut out on its square of paper, its frame centred on the marker."""
    side = int(round(paper_mm * SHEET_PPM))
    inner = int(round(size_mm * SHEET_PPM))
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))
    marker = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
    sheet = np.full((side, side), 255, np.uint8)
    o = (side - inner) // 2
    sheet[o:o + inner, o:o + inner] = marker
    page = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)
    # frame: origin at the paper's centre, y up
    c = (side - 1) / 2
    A = np.array([[SHEET_PPM, 0.0, c], [0.0, -SHEET_PPM, c]])
    return SheetTexture(_albedo(page), A)
