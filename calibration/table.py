"""``companion calibrate table``: where the camera sees the table from, and where the markers
really lie.

A few frames of the still table are read; each marker's corners are averaged over them (less
noise than any one frame), the table is located with the markers' positions left free, and the
positions found become the measured layout that later runs hold fixed. Without a lens
calibration, the focal length and distortion come from the markers too (best from a tilted
camera; straight down, they stay near a typical webcam's and the result says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from calibration.boards import TableLayout
from calibration.markers import Detection, detect_markers
from calibration.pose import NO_MARKER_HELP, TableLocation, average_detections, locate_table, measured_layout
from companion.errors import BadInput, UserError
from companion.vision.camera import CameraModel, View


@dataclass(frozen=True)
class TableCalibration:
    location: TableLocation
    layout: TableLayout
    camera: CameraModel
    frames: int
    detections: tuple[Detection, ...]

    @property
    def view(self) -> View:
        assert self.location.view is not None
        return self.location.view

    def missing(self) -> list[int]:
        return [i for i in self.layout.ids if i not in self.location.markers]


def calibrate_table(images: Sequence[np.ndarray], camera: CameraModel | None,
                    nominal: TableLayout) -> TableCalibration:
    """Locate the table in still frames and measure its markers' layout (see the module
    docstring). Raises :class:`UserError` saying which markers to show when it cannot."""
    if not images:
        raise BadInput("no frames to calibrate the table from")
    sizes = {(im.shape[1], im.shape[0]) for im in images}
    if len(sizes) != 1:
        raise BadInput(f"the frames differ in size ({', '.join(f'{w}×{h}' for w, h in sorted(sizes))})")
    size = sizes.pop()
    per_frame = [detect_markers(im, camera=_lens_for(camera, size)) for im in images]
    dets = average_detections(per_frame)
    table_ids = [d.id for d in dets if d.id in nominal.ids]
    if not table_ids:
        seen = sorted({d.id for d in dets})
        extra = f" (saw only markers {', '.join(map(str, seen))})" if seen else ""
        raise UserError(f"no table marker seen{extra}", hint=NO_MARKER_HELP)
    free = TableLayout(nominal.markers, measured=False)
    loc = locate_table(None, camera, free, detections=dets, size=size)
    if not loc.ok or loc.fit is None:
        raise UserError(loc.message or "the table could not be located",
                        hint="lay the markers flat, all facing the same way (arrows toward +y)")
    layout = measured_layout(loc.fit, nominal)
    return TableCalibration(loc, layout, loc.fit.camera, len(images), tuple(dets))


def _lens_for(camera: CameraModel | None, size: tuple[int, int]) -> CameraModel | None:
    if camera is None or tuple(camera.size) == tuple(size):
        return camera
    return camera.scaled(size)


def draw_check(image: np.ndarray, view: View, layout: TableLayout,
               detections: Sequence[Detection] = (), grid_mm: float = 100.0) -> np.ndarray:
    """The image with what calibration understood drawn over it, for a person to check: the
    markers found (green), the table grid every ``grid_mm`` projected back (yellow), the axes
    at the origin (x red, y green, z blue, 100 mm). If the grid does not lie flat on the
    table, or the axes do not stand on marker 0, calibrate again."""
    import cv2

    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    x0, y0, x1, y1 = layout.extent_mm
    xs = np.arange(np.floor(x0 / grid_mm) * grid_mm, x1 + 1e-6, grid_mm)
    ys = np.arange(np.floor(y0 / grid_mm) * grid_mm, y1 + 1e-6, grid_mm)
    for x in xs:
        line = np.column_stack([np.full(40, x), np.linspace(y0, y1, 40), np.zeros(40)])
        cv2.polylines(out, [view.project(line).astype(np.int32)], False, (0, 220, 255), 1, cv2.LINE_AA)
    for y in ys:
        line = np.column_stack([np.linspace(x0, x1, 40), np.full(40, y), np.zeros(40)])
        cv2.polylines(out, [view.project(line).astype(np.int32)], False, (0, 220, 255), 1, cv2.LINE_AA)
    for det in detections:
        cv2.polylines(out, [det.corners.astype(np.int32)], True, (0, 200, 0), 2, cv2.LINE_AA)
        c = det.centre.astype(int)
        cv2.putText(out, str(det.id), (int(c[0]) - 6, int(c[1]) + 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (0, 0, 255), 2, cv2.LINE_AA)
    axes = view.project(np.array([[0, 0, 0], [100, 0, 0], [0, 100, 0], [0, 0, 100]], dtype=np.float64))
    o = tuple(int(v) for v in axes[0])
    for tip, colour in zip(axes[1:], ((0, 0, 255), (0, 200, 0), (255, 80, 0))):
        cv2.arrowedLine(out, o, tuple(int(v) for v in tip), colour, 2, cv2.LINE_AA, tipLength=0.15)
    return out
