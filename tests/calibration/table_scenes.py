"""Test scenes drawn with a known View: a table texture with markers (and boards, cards, colour
pieces) projected into a camera image, so every reading can be checked against exact truth.

The texture is a map of the table plane (z = 0) at ``PX_PER_MM``; each camera pixel's ray is cut
with the plane (``View.unproject_to_plane``, lens distortion included) and the texture sampled
there with cv2.remap, at twice the resolution then averaged down, like a sensor's pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.boards import CHARUCO, MARKER_CELLS, MarkerPlacement, TableLayout
from companion.vision.camera import CameraModel, TablePose, View

PX_PER_MM = 3.0


@dataclass
class TableTexture:
    """The table plane as an image: pixel (u, v) ↔ table mm (x0 + u/ppm, y1 - v/ppm)."""

    image: np.ndarray
    x0: float
    y1: float
    ppm: float = PX_PER_MM

    def pixel_of(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x_mm - self.x0) * self.ppm, (self.y1 - y_mm) * self.ppm

    def mm_grid(self, x0: float, y0: float, x1: float, y1: float):
        """Table mm coordinates of the texture pixels inside a box, and their slices."""
        h, w = self.image.shape[:2]
        u0, u1 = int(max(0, (x0 - self.x0) * self.ppm)), int(min(w, (x1 - self.x0) * self.ppm + 1))
        v0, v1 = int(max(0, (self.y1 - y1) * self.ppm)), int(min(h, (self.y1 - y0) * self.ppm + 1))
        us, vs = np.meshgrid(np.arange(u0, u1), np.arange(v0, v1))
        return self.x0 + (us + 0.5) / self.ppm, self.y1 - (vs + 0.5) / self.ppm, (slice(v0, v1), slice(u0, u1))


def wood_table(x0: float, y0: float, x1: float, y1: float, seed: int = 0,
               colour=(70, 110, 150)) -> TableTexture:
    """A wooden-looking table top: grain along x, low-contrast noise."""
    rng = np.random.default_rng(seed)
    w, h = int((x1 - x0) * PX_PER_MM), int((y1 - y0) * PX_PER_MM)
    grain = rng.normal(0, 1, (h // 8 + 2, 1)).repeat(w // 64 + 2, axis=1)
    grain = cv2.resize(grain.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2.0)
    tone = 1.0 + 0.08 * grain + 0.05 * noise
    img = np.clip(np.array(colour, np.float32)[None, None, :] * tone[..., None], 0, 255).astype(np.uint8)
    return TableTexture(img, x0, y1)


def _marker_bits(marker_id: int, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.generateImageMarker(d, marker_id, MARKER_CELLS, borderBits=1) > 127  # True = white


def draw_marker(tex: TableTexture, m: MarkerPlacement, paper_mm: float = 70.0) -> None:
    """A marker printed on a square of white paper, lying at its placement."""
    half = paper_mm / 2 + 1
    r = math.hypot(half, half)
    X, Y, sl = tex.mm_grid(m.centre[0] - r, m.centre[1] - r, m.centre[0] + r, m.centre[1] + r)
    a = math.radians(m.yaw_deg)
    dx, dy = X - m.centre[0], Y - m.centre[1]
    u = math.cos(a) * dx + math.sin(a) * dy      # marker-local, x right
    v = -math.sin(a) * dx + math.cos(a) * dy     # marker-local, y up
    region = tex.image[sl]
    paper = (np.abs(u) <= paper_mm / 2) & (np.abs(v) <= paper_mm / 2)
    region[paper] = (235, 238, 240)
    bits = _marker_bits(m.id)
    cell = m.size_mm / MARKER_CELLS
    col = np.floor((u + m.size_mm / 2) / cell).astype(int)
    row = np.floor((m.size_mm / 2 - v) / cell).astype(int)
    inside = (col >= 0) & (col < MARKER_CELLS) & (row >= 0) & (row < MARKER_CELLS)
    black = np.zeros_like(inside)
    black[inside] = ~bits[row[inside], col[inside]]
    region[black] = (25, 25, 25)


def paste_image(tex: TableTexture, image: np.ndarray, centre: tuple[float, float],
                size_mm: tuple[float, float], yaw_deg: float = 0.0) -> None:
    """Lay a flat picture (a card, a printed sheet) on the table: ``size_mm`` (w, h), upright
    picture's top toward +y, turned by ``yaw_deg``."""
    w, h = size_mm
    r = math.hypot(w, h) / 2 + 1
    X, Y, sl = tex.mm_grid(centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
    a = math.radians(yaw_deg)
    dx, dy = X - centre[0], Y - centre[1]
    u = math.cos(a) * dx + math.sin(a) * dy
    v = -math.sin(a) * dx + math.cos(a) * dy
    map_x = ((u + w / 2) / w * image.shape[1] - 0.5).astype(np.float32)
    map_y = ((h / 2 - v) / h * image.shape[0] - 0.5).astype(np.float32)
    inside = (np.abs(u) <= w / 2) & (np.abs(v) <= h / 2)
    sampled = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    region = tex.image[sl]
    region[inside] = sampled[inside]


def table_with_markers(layout: TableLayout, seed: int = 0, margin: float = 250.0) -> TableTexture:
    """A wooden table with the layout's markers on it (a fresh copy: draw on it freely)."""
    base = _table_with_markers(layout, seed, margin)
    return TableTexture(base.image.copy(), base.x0, base.y1, base.ppm)


@lru_cache(maxsize=4)
def _table_with_markers(layout: TableLayout, seed: int, margin: float) -> TableTexture:
    x0, y0, x1, y1 = layout.extent_mm
    tex = wood_table(x0 - margin, y0 - margin, x1 + margin, y1 + margin, seed)
    for m in layout.markers:
        draw_marker(tex, m)
    return tex


def render(tex: TableTexture, view: View, *, supersample: int = 2, blur: float = 0.0,
           noise: float = 0.0, light=(1.0, 1.0, 1.0), seed: int = 0, jpeg: int | None = None) -> np.ndarray:
    """The camera's picture of the table texture (BGR uint8, at ``view.camera.size``)."""
    w, h = view.camera.size
    W, H = w * supersample, h * supersample
    # The pixel → texture map is smooth (a homography bent by the lens), so it is computed
    # exactly on a grid every STEP fine pixels and interpolated in between (error < 0.01 px).
    step = 4
    gx = np.arange(0, W + step, step, dtype=np.float64)
    gy = np.arange(0, H + step, step, dtype=np.float64)
    us, vs = np.meshgrid(gx, gy)
    pix = np.stack([us.ravel(), vs.ravel()], axis=1)
    pix_c = (pix + 0.5) / supersample - 0.5  # each fine sample at the centre of its fine pixel
    origin, dirs = view.ray(pix_c)
    s = -origin[2] / dirs[:, 2]
    pts = origin + dirs * s[:, None]
    mx, my = tex.pixel_of(pts[:, 0], pts[:, 1])
    mx[s <= 0] = -1e6
    coarse_x = (mx - 0.5).reshape(len(gy), len(gx)).astype(np.float32)
    coarse_y = (my - 0.5).reshape(len(gy), len(gx)).astype(np.float32)
    fx, fy = np.meshgrid(np.arange(W, dtype=np.float32) / step, np.arange(H, dtype=np.float32) / step)
    map_x = cv2.remap(coarse_x, fx, fy, cv2.INTER_LINEAR)
    map_y = cv2.remap(coarse_y, fx, fy, cv2.INTER_LINEAR)
    img = cv2.remap(tex.image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(40, 40, 40))
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    img *= np.array(light, np.float32)[None, None, :]
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        img += np.random.default_rng(seed).normal(0, noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg is not None:
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1], cv2.IMREAD_COLOR)
    return out


def camera_view(tilt_deg: float, distance_mm: float = 1000.0, target=(300.0, 300.0),
                size=(1280, 720), hfov_deg: float = 70.0, heading_deg: float = 0.0,
                dist=(0.0, 0.0, 0.0, 0.0, 0.0)) -> View:
    """A camera ``distance_mm`` from ``target`` on the table, tilted ``tilt_deg`` from straight
    down, looking from the side ``heading_deg`` (0: from −y, the players' side)."""
    t, hd = math.radians(tilt_deg), math.radians(heading_deg)
    back = np.array([math.sin(hd), -math.cos(hd)])
    eye = (target[0] + back[0] * distance_mm * math.sin(t), target[1] + back[1] * distance_mm * math.sin(t),
           distance_mm * math.cos(t))
    up = (-back[0], -back[1], 0.0)
    cam = CameraModel.nominal(size, hfov_deg)
    cam = CameraModel(cam.fx, cam.fy, cam.cx, cam.cy, cam.size, tuple(dist), None, "synthetic")
    return View(cam, TablePose.look_at(eye, (target[0], target[1], 0.0), up))


def projection_error_px(a: View, b: View, area=(0.0, 0.0, 600.0, 600.0), z_mm: float = 0.0) -> float:
    """Largest pixel distance between where two views put the points of a table area."""
    xs, ys = np.meshgrid(np.linspace(area[0], area[2], 7), np.linspace(area[1], area[3], 7))
    pts = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, z_mm)], axis=1)
    return float(np.max(np.linalg.norm(a.project(pts) - b.project(pts), axis=1)))


class BoardTexture(TableTexture):
    """The ChArUco board as OpenCV lays out its corners: x along the image, y down it."""

    def pixel_of(self, x_mm, y_mm):
        return (x_mm - self.x0) * self.ppm, (y_mm - self.y1) * self.ppm


def charuco_views(camera: CameraModel, n: int = 9) -> list[np.ndarray]:
    ppm = 5.0
    margin = 15.0
    w, h = CHARUCO.width_mm + 2 * margin, CHARUCO.height_mm + 2 * margin
    art = CHARUCO.board().generateImage((int(CHARUCO.width_mm * ppm), int(CHARUCO.height_mm * ppm)), marginSize=0)
    paper = np.full((int(h * ppm), int(w * ppm)), 255, np.uint8)
    m = int(margin * ppm)
    paper[m:m + art.shape[0], m:m + art.shape[1]] = art
    tex = BoardTexture(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR), -margin, -margin, ppm)
    centre = np.array([CHARUCO.width_mm / 2, CHARUCO.height_mm / 2, 0.0])
    rng = np.random.default_rng(11)
    images = []
    for k in range(n):
        # the board held in front of the camera at varied angles, distances and image positions
        tilt, heading = math.radians(rng.uniform(15, 40)), 2 * math.pi * k / n
        dist = rng.uniform(320, 450)
        eye = centre + dist * np.array([math.sin(tilt) * math.cos(heading), math.sin(tilt) * math.sin(heading),
                                        -math.cos(tilt)])
        aim = centre + np.array([rng.uniform(-60, 60), rng.uniform(-40, 40), 0.0])
        pose = TablePose.look_at(tuple(eye), tuple(aim), up_hint=(0.0, -1.0, 0.0))
        images.append(render(tex, View(camera, pose), blur=0.5, noise=1.5, seed=k))
    return images
