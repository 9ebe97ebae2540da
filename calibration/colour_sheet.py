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

#: a sheet whose paper reads this bright in two channels or more clips in the camera
CLIPPED_WHITE = 250.0
#: on a clipped sheet, how far (camera pixels) inside a piece's outline its pixels may be
#: taken as its own colour, for the readers that want the pieces' own colours
#: (:data:`RIM_BY_GAME`). Along the outline the lens and the sensor blend the piece with the grey
#: spot round it, and a small piece seen from afar is largely that rim. On a sheet whose
#: paper clips, the exposure clips the grey in some channels too, or nearly, while the white
#: it is divided by is the clip: the grey reads strongly tinted (peach under a warm lamp),
#: and so do its blends with the piece, far from the piece's colour (a black pyramid learned
#: at L* 42-59 with them, 4-8 without; a blue one learned grey). Where the paper does not
#: clip, the grey is neutral and its blends are the piece's colour paler, kept as before
RIM_PX = 1.0
#: the games whose readers learn a clipped sheet's pieces without their rims: Gleeb's and
#: Grues (small pyramids, a few pixels across on the sheet, whose learned black and blue the
#: rim turned warm greys). La Ville des Nains' reader is tuned to the spread the rim gives its
#: larger stones (34 of its demo's 34 steps right with it, 1 without)
RIM_BY_GAME = {"gleebs-and-grues": RIM_PX}
#: the fewest samples of a piece's inside (sheet samples, 0.6 mm apart) worth keeping alone
MIN_CORE_SAMPLES = 40

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


def _px_per_mm(H: np.ndarray, at: tuple[float, float]) -> float:
    """The camera's pixels per sheet millimetre around ``at`` (from the homography)."""
    p = _to_image(H, np.array([at, (at[0] + 1.0, at[1]), (at[0], at[1] + 1.0)]))
    return float(np.sqrt(abs(np.cross(p[1] - p[0], p[2] - p[0]))))


def _piece_pixels(img: np.ndarray, H: np.ndarray, centre: tuple[float, float], radius: float,
                  grey: np.ndarray, threshold: float, rim_px: float = 0.0,
                  step: float = 0.6) -> np.ndarray:
    """The pixels of the piece on the spot at ``centre``: what is not the spot's grey within
    ``radius`` (mm) of it; with ``rim_px``, less what lies within that many camera pixels of
    the piece's outline (:data:`RIM_PX`), unless that leaves fewer than
    :data:`MIN_CORE_SAMPLES`."""
    px = _pixels_at(img, _to_image(H, _disc(centre, 0.0, radius, step)))
    if rim_px <= 0:
        return px[np.abs(px - grey).sum(axis=1) > threshold]
    import cv2

    xs = np.arange(-radius, radius + step, step)
    gx, gy = np.meshgrid(xs, xs)
    pts = np.column_stack([gx.ravel() + centre[0], gy.ravel() + centre[1]])
    ij = np.round(_to_image(H, pts)).astype(int)
    h, w = img.shape[:2]
    ok = (np.hypot(gx, gy).ravel() <= radius) & (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
    px = np.zeros((len(pts), 3), np.float32)
    px[ok] = img[ij[ok, 1], ij[ok, 0]].astype(np.float32)
    fg = ok & (np.abs(px - grey).sum(axis=1) > threshold)
    # each sample's distance (mm) to the nearest one that is not the piece
    mask = np.pad(fg.reshape(gx.shape).astype(np.uint8), 1)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)[1:-1, 1:-1].ravel() * step
    core = fg & (dist > rim_px / max(_px_per_mm(H, centre), 1e-3))
    return px[core] if np.count_nonzero(core) >= MIN_CORE_SAMPLES else px[fg]


def read_sheet(image: np.ndarray, spec: ColourSheetSpec = COLOUR_SHEET, *,
               rim_px: float = 0.0) -> SheetReading:
    """Locate the sheet, read its white and grey, and cut out each spot's piece. ``rim_px``:
    on a sheet whose paper clips, leave out each piece's rim that wide (:data:`RIM_PX`)."""
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
    # paper the exposure clips (two channels or more): the spots' grey reads tinted, and the
    # blends of each piece with it along its outline are left out (see RIM_PX)
    rim = rim_px if sum(v >= CLIPPED_WHITE for v in white) >= 2 else 0.0
    samples: dict[int, np.ndarray] = {}
    for number, s in enumerate(spots, start=1):
        fg = _piece_pixels(img, H, s, 0.7 * r, grey, threshold, rim)
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
                     min_pixels: int = 30, *, rim_px: float = 0.0) -> tuple[ColourModel, SheetReading]:
    """Learn ``names`` (``names[i]`` lies on spot i+1) from one or more frames of the sheet.
    ``rim_px``: see :data:`RIM_PX` (the games whose readers want it: :data:`RIM_BY_GAME`)."""
    if not names:
        raise BadInput("no colours to learn")
    if len(names) > len(spec.spots()):
        raise BadInput(f"{len(names)} colours but the sheet has {len(spec.spots())} spots",
                       hint="calibrate the colours in two rounds")
    readings = [read_sheet(im, spec, rim_px=rim_px) for im in images]
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
