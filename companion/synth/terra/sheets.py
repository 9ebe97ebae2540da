"""The flat printed things on a Terra Turrium table, as albedo textures: the board sheet (its
squares, shaded territories, grid lines and markers 4–7 on white paper) and the table markers.

Drawn from :mod:`calibration.boards` with the printed sheet's own tints
(:data:`calibration.targets.TERRITORY_TINTS`), so the synthetic board is the one users print.
Textures are float32 BGR albedo (white paper about 0.9) at :data:`SHEET_PPM` pixels per mm, made
once per process, and offered pre-blurred for far cameras (a thin line drawn at four pixels a
millimetre would otherwise alias when the camera sees one pixel a millimetre).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from calibration.boards import MARKER_MM, BoardSpec
from calibration.targets import TERRITORY_TINTS
from companion.vision.terra.kit import BOARD

SHEET_PPM = 3.0
PAPER_ALBEDO = 0.90
INK_ALBEDO = 0.06
#: white paper around the printed area of the board sheet (mm)
BOARD_MARGIN_MM = 12.0
#: the square of paper a table marker is cut out with (mm)
MARKER_PAPER_MM = 60.0


def _marker_bits(marker_id: int) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.generateImageMarker(d, int(marker_id), d.markerSize + 2, borderBits=1)


def _draw_marker(sheet: np.ndarray, marker_id: int, x0_px: float, y0_px: float, size_px: float) -> None:
    """An upright marker on the sheet (pixel coordinates, y down), cell edges on pixel bounds."""
    bits = _marker_bits(marker_id)
    cells = bits.shape[0]
    step = size_px / cells
    for r in range(cells):
        for c in range(cells):
            if bits[r, c] < 128:
                a, b = int(round(x0_px + c * step)), int(round(y0_px + r * step))
                e, f = int(round(x0_px + (c + 1) * step)), int(round(y0_px + (r + 1) * step))
                sheet[b:f, a:e] = INK_ALBEDO


@lru_cache(maxsize=2)
def board_sheet(spec: BoardSpec = BOARD) -> tuple[np.ndarray, tuple[float, float]]:
    """The board sheet's albedo and the board-frame millimetres of its top-left pixel's corner
    (the sheet's pixel (u, v) covers board x = x0 + u/ppm, y = y1 − v/ppm)."""
    ppm = SHEET_PPM
    x0, y0, x1, y1 = spec.extent_mm
    x0, y0, x1, y1 = x0 - BOARD_MARGIN_MM, y0 - BOARD_MARGIN_MM, x1 + BOARD_MARGIN_MM, y1 + BOARD_MARGIN_MM
    w, h = int(round((x1 - x0) * ppm)), int(round((y1 - y0) * ppm))
    sheet = np.full((h, w, 3), PAPER_ALBEDO, np.float32)

    def px(bx: float, by: float) -> tuple[int, int]:
        return int(round((bx - x0) * ppm)), int(round((y1 - by) * ppm))

    s = spec.square_mm
    for row in range(spec.rows):
        for col in range(spec.cols):
            terr = spec.territory_of(col, row)
            if terr is None:
                continue
            tint = np.array(TERRITORY_TINTS[terr % len(TERRITORY_TINTS)], np.float32) / 255.0
            a, b = px(col * s, (row + 1) * s)
            c, d = px((col + 1) * s, row * s)
            sheet[b:d, a:c] = tint * PAPER_ALBEDO
    for k in range(spec.cols + 1):
        heavy = spec.territory and k % spec.territory == 0
        wmm = 1.2 if heavy or k in (0, spec.cols) else 0.5
        a, b = px(k * s - wmm / 2, spec.height_mm + wmm / 2)
        c, d = px(k * s + wmm / 2, -wmm / 2)
        sheet[b:d, a:max(c, a + 1)] = INK_ALBEDO
    for k in range(spec.rows + 1):
        heavy = spec.territory and k % spec.territory == 0
        wmm = 1.2 if heavy or k in (0, spec.rows) else 0.5
        a, b = px(-wmm / 2, k * s + wmm / 2)
        c, d = px(spec.width_mm + wmm / 2, k * s - wmm / 2)
        sheet[b:max(d, b + 1), a:c] = INK_ALBEDO
    for m in spec.markers:
        cx, cy = m.centre
        a, b = px(cx - m.size_mm / 2, cy + m.size_mm / 2)
        _draw_marker(sheet, m.id, a, b, m.size_mm * ppm)
    sheet.setflags(write=False)
    return sheet, (x0, y1)


@lru_cache(maxsize=4)
def table_marker_sheet(marker_id: int) -> np.ndarray:
    """A table marker on its square of paper (albedo), :data:`MARKER_PAPER_MM` wide."""
    ppm = SHEET_PPM
    side = int(round(MARKER_PAPER_MM * ppm))
    sheet = np.full((side, side, 3), PAPER_ALBEDO, np.float32)
    inner = MARKER_MM * ppm
    o = (side - inner) / 2
    _draw_marker(sheet, marker_id, o, o, inner)
    sheet.setflags(write=False)
    return sheet


@lru_cache(maxsize=16)
def blurred(which: str, sigma_px: float) -> np.ndarray:
    """A sheet pre-blurred by ``sigma_px`` texture pixels (``which``: "board" or "marker:N")."""
    sheet = board_sheet()[0] if which == "board" else table_marker_sheet(int(which.split(":")[1]))
    if sigma_px <= 0.3:
        return sheet
    out = cv2.GaussianBlur(sheet, (0, 0), sigma_px)
    out.setflags(write=False)
    return out
