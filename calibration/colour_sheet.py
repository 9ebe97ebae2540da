"""``companion calibrate colours``: learning the pieces' colours on the printed colour sheet.

The user lays one piece of each colour on the sheet's numbered grey spots. The sheet is found by
its markers 8–11 (a homography from sheet millimetres to the image), so it can lie anywhere on
the table at any angle. Each spot's piece is the part of the spot that is not spot-grey; the
sheet's white paper, read in the same frame, is the white reference the colour model keeps
(see :mod:`companion.vision.colours`). A camera at a tilt sees a standing piece's side rise out of
its spot; sampling close around the spot's centre keeps to the piece's lower part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from calibration.boards import COLOUR_SHEET, COLOUR_SHEET_MARKER_IDS, ColourSheetSpec
from calibration.markers import detect_markers, unique_by_id
from companion.errors import BadInput, UserError
from companion.vision.colours import ColourModel, estimate_white

SHEET_HELP = ("print the colour sheet (`companion calibrate targets --sheet colour-sheet`), lay it "
              "flat in view with its four corner markers (ids 8-11) uncovered")


@dataclass(frozen=True)
class SheetReading:
    """What was read off the colour sheet in one image."""

    homography: np.ndarray                 # sheet mm (x, y up) → image px
    white: tuple[float, float, float]      # the paper under this light
    grey: tuple[float, float, float]       # the spots' grey under this light
    samples: dict[int, np.ndarray]         # spot number (1..) → BGR pixels of its piece
    markers: tuple[int, ...]


def locate_sheet(image: np.ndarray, spec: ColourSheetSpec = COLOUR_SHEET) -> tuple[np.ndarray, tuple[int, ...]]:
    """Homography from sheet millimetres to image pixels, from at least two of its markers."""
    import cv2

    found = unique_by_id(detect_markers(image, ids=COLOUR_SHEET_MARKER_IDS))
    if len(found) < 2:
        seen = f" (only marker {', '.join(map(str, found))} seen)" if found else ""
        raise UserError(f"the colour sheet is not in view{seen}", hint=SHEET_HELP)
    ids = sorted(found)
    placements = {m.id: m for m in spec.markers}
    src = np.concatenate([placements[i].corners()[:, :2] for i in ids])
    dst = np.concatenate([found[i].corners for i in ids])
    H, _ = cv2.findHomography(src, dst)
    if H is None:
        raise UserError("the colour sheet's markers do not fit a flat sheet", hint=SHEET_HELP)
    return H, tuple(ids)


def _to_image(H: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    p = np.hstack([pts_mm, np.ones((len(pts_mm), 1))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def _pixels_at(image: np.ndarray, px: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    ij = np.round(px).astype(int)
    ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
    return image[ij[ok, 1], ij[ok, 0]].reshape(-1, 3).astype(np.float32)


def _disc(centre: tuple[float, float], r0: float, r1: float, step: float = 0.6) -> np.ndarray:
    xs = np.arange(-r1, r1 + step, step)
    gx, gy = np.meshgrid(xs, xs)
    d = np.hypot(gx, gy)
    keep = (d >= r0) & (d <= r1)
    return np.column_stack([gx[keep] + centre[0], gy[keep] + centre[1]])


def read_sheet(image: np.ndarray, spec: ColourSheetSpec = COLOUR_SHEET) -> SheetReading:
    """Locate the sheet, read its white and grey, and cut out each spot's piece."""
    import cv2

    img = np.asarray(image)
    if img.ndim != 3 or img.shape[2] != 3:
        raise BadInput("colour calibration needs a colour (BGR) image")
    H, ids = locate_sheet(img, spec)
    spots = spec.spots()
    r = spec.spot_mm / 2
    # white paper: a band between the spot rows and the sheet's edges, away from print
    paper = []
    for (sx, sy) in spots:
        paper.append(_disc((sx, sy), r + 2.5, r + 6.0))
    white_px = _pixels_at(img, _to_image(H, np.concatenate(paper)))
    white = estimate_white(white_px, top_fraction=0.5)
    rings = np.concatenate([_to_image(H, _disc(s, 0.88 * r, 0.97 * r)) for s in spots])
    grey_px = _pixels_at(img, rings)
    grey = np.median(grey_px, axis=0)
    spread = float(np.median(np.abs(grey_px - grey).sum(axis=1)))
    threshold = max(40.0, 4.0 * spread)
    samples: dict[int, np.ndarray] = {}
    for number, s in enumerate(spots, start=1):
        px = _pixels_at(img, _to_image(H, _disc(s, 0.0, 0.7 * r)))
        fg = px[np.abs(px - grey).sum(axis=1) > threshold]
        if len(fg) >= 10:
            lab = cv2.cvtColor((np.clip(fg / np.asarray(white), 0, 1)).astype(np.float32).reshape(-1, 1, 3),
                               cv2.COLOR_BGR2Lab).reshape(-1, 3)
            chroma = np.hypot(lab[:, 1], lab[:, 2])
            if np.median(chroma) > 15:  # a coloured piece: drop its grey shadow and white glints
                fg = fg[chroma > 8]
        samples[number] = fg
    return SheetReading(H, white, tuple(float(v) for v in grey), samples, ids)  # type: ignore[arg-type]


def learn_from_sheet(images: Sequence[np.ndarray], names: Sequence[str],
                     spec: ColourSheetSpec = COLOUR_SHEET,
                     min_pixels: int = 30) -> tuple[ColourModel, SheetReading]:
    """Learn ``names`` (``names[i]`` lies on spot i+1) from one or more frames of the sheet."""
    if not names:
        raise BadInput("no colours to learn")
    if len(names) > len(spec.spots()):
        raise BadInput(f"{len(names)} colours but the sheet has {len(spec.spots())} spots",
                       hint="calibrate the colours in two rounds")
    readings = [read_sheet(im, spec) for im in images]
    if not readings:
        raise BadInput("no image of the colour sheet")
    samples = {}
    for k, name in enumerate(names, start=1):
        px = np.concatenate([rd.samples[k] for rd in readings])
        if len(px) < min_pixels:
            raise UserError(f"nothing seen on spot {k}: put a {name} piece on it",
                            hint="each piece must sit inside its grey spot, not hidden by a hand or another piece")
        samples[name] = px
    white = np.median(np.array([rd.white for rd in readings]), axis=0)
    return ColourModel.learn(samples, white=white), readings[-1]
