"""Board millimetres to pixels, quickly, and the order in which towers can hide each other.

The reader works in the board's own frame (``docs/observation/terra-turrium.md``): x towards
marker 5, y towards marker 7, z up, millimetres. :class:`BoardGeometry` holds the camera seen
from that frame and projects many points at once with OpenCV's lens model written out in numpy
(one call for tens of thousands of points costs a few milliseconds).

Occlusion has a simple structure on a grid of towers seen from above: a ray from the camera
crosses the squares between the camera's foot (the point of the board plane under the camera)
and its target in order. So a tower can only hide towers farther from the foot, and squares at
the same grid distance from it never hide one another. :meth:`BoardGeometry.wavefronts` groups
the squares by that distance, nearest first: reading them in this order, every tower that could
hide a square has been read before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.vision.camera import View
from companion.vision.terra.kit import BLOCK_MM, SIZE, SQUARE_MM


@dataclass(frozen=True)
class BoardGeometry:
    """The camera ``view`` in board coordinates (board mm → pixels)."""

    view: View
    _R: np.ndarray = field(init=False, repr=False)
    _t: np.ndarray = field(init=False, repr=False)
    _waves: list = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_R", self.view.pose.R)
        object.__setattr__(self, "_t", self.view.pose.t)
        object.__setattr__(self, "_waves", [])

    @property
    def camera_position(self) -> np.ndarray:
        """Where the camera is, board millimetres."""
        return -self._R.T @ self._t

    @property
    def foot(self) -> np.ndarray:
        """The board point under the camera (x, y mm)."""
        return self.camera_position[:2]

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Board points (…×3, mm) to pixels (…×2), with the lens's distortion."""
        p = np.asarray(pts, dtype=np.float64)
        shape = p.shape[:-1]
        p = p.reshape(-1, 3)
        cam = p @ self._R.T + self._t
        z = np.maximum(cam[:, 2], 1e-6)
        x, y = cam[:, 0] / z, cam[:, 1] / z
        c = self.view.camera
        k1, k2, p1, p2, k3 = c.dist
        if k1 or k2 or p1 or p2 or k3:
            r2 = x * x + y * y
            radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
            xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        else:
            xd, yd = x, y
        out = np.stack([c.fx * xd + c.cx, c.fy * yd + c.cy], axis=1)
        return out.reshape(*shape, 2)

    def project_layers(self, xy: np.ndarray, zs: np.ndarray) -> np.ndarray:
        """Board points ``xy`` (…×2, mm) lifted to each height of ``zs`` (K), to pixels:
        (K, …, 2). The rotation of the in-plane part is done once for all heights, and the
        arithmetic in float32: this is the reader's bulk projection (a hundred thousand
        points a frame)."""
        xy = np.asarray(xy, np.float32)
        R = self._R.astype(np.float32)
        a = xy @ R[:, :2].T                                                   # …×3
        b = np.asarray(zs, np.float32)[:, None] * R[:, 2] + self._t.astype(np.float32)  # K×3
        # the camera coordinates one at a time, each a contiguous K×… array: the arithmetic
        # below on every third number of a K×…×3 array took six times as long
        lift = (len(b),) + (1,) * (a.ndim - 1)
        cx, cy, cz = (a[..., i][None] + b[:, i].reshape(lift) for i in range(3))
        z = np.maximum(cz, np.float32(1e-3))
        x = cx / z
        y = cy / z
        c = self.view.camera
        k1, k2, p1, p2, k3 = (np.float32(v) for v in c.dist)
        if k1 or k2 or p1 or p2 or k3:
            r2 = x * x + y * y
            radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
            xy2 = 2 * x * y
            xd = x * radial + p1 * xy2 + p2 * (r2 + 2 * x * x)
            yd = y * radial + p1 * (r2 + 2 * y * y) + p2 * xy2
        else:
            xd, yd = x, y
        return np.stack([np.float32(c.fx) * xd + np.float32(c.cx), np.float32(c.fy) * yd + np.float32(c.cy)], axis=-1)

    def px_per_mm(self, z: float = 0.0) -> float:
        """How many pixels a millimetre at the board's centre, height ``z``, covers."""
        centre = np.array([SIZE * SQUARE_MM / 2, SIZE * SQUARE_MM / 2, z])
        d = float(np.linalg.norm(centre - self.camera_position))
        return self.view.camera.fx / max(d, 1.0)

    def visible_sides(self) -> np.ndarray:
        """For each square (index y·10 + x) and each side (+x, −x, +y, −y): whether a tower's
        face on that side looks towards the camera (100×4 booleans)."""
        cx, cy = self.foot
        xs = np.arange(SIZE * SIZE) % SIZE
        ys = np.arange(SIZE * SIZE) // SIZE
        half = BLOCK_MM / 2
        centre_x = (xs + 0.5) * SQUARE_MM
        centre_y = (ys + 0.5) * SQUARE_MM
        return np.stack([cx > centre_x + half, cx < centre_x - half,
                         cy > centre_y + half, cy < centre_y - half], axis=1)

    def wavefronts(self) -> list[list[int]]:
        """Squares grouped by grid distance from the camera's foot, nearest first (see the
        module docstring). Computed once per pose: every occlusion image of a frame needs it."""
        if not self._waves:
            self._waves.extend(self._wavefronts())
        return [list(w) for w in self._waves]

    def _wavefronts(self) -> list[list[int]]:
        fx, fy = self.foot / SQUARE_MM
        keys: dict[float, list[int]] = {}
        for sq in range(SIZE * SIZE):
            x, y = sq % SIZE, sq // SIZE
            dx = max(x - fx, 0.0, fx - (x + 1))
            dy = max(y - fy, 0.0, fy - (y + 1))
            keys.setdefault(round(dx + dy, 6), []).append(sq)
        return [keys[k] for k in sorted(keys)]

    def towers_corners(self, squares: np.ndarray, heights: np.ndarray) -> np.ndarray:
        """:meth:`tower_corners` of many towers at once (len × 8 × 3)."""
        sq = np.asarray(squares)
        cx = (sq % SIZE + 0.5) * SQUARE_MM
        cy = (sq // SIZE + 0.5) * SQUARE_MM
        half = BLOCK_MM / 2
        dx = np.array([-half, half, half, -half] * 2)
        dy = np.array([-half, -half, half, half] * 2)
        top = np.asarray(heights, float)[:, None] * BLOCK_MM
        z = np.concatenate([np.zeros((len(sq), 4)), np.repeat(top, 4, axis=1)], axis=1)
        return np.stack([cx[:, None] + dx, cy[:, None] + dy, z], axis=2)

    def tower_corners(self, square: int, height: int) -> np.ndarray:
        """The 8 board-frame corners of a tower's box (nominal place)."""
        x, y = square % SIZE, square // SIZE
        cx, cy = (x + 0.5) * SQUARE_MM, (y + 0.5) * SQUARE_MM
        half = BLOCK_MM / 2
        foot = np.array([[cx - half, cy - half], [cx + half, cy - half],
                         [cx + half, cy + half], [cx - half, cy + half]])
        return np.concatenate([np.column_stack([foot, np.zeros(4)]),
                               np.column_stack([foot, np.full(4, height * BLOCK_MM)])])
