"""Where things lie on a Haut les Cubes table, and how big the pieces are.

These are the table kit's defaults (``shared/table-kit.md``): the four table markers at the
corners of the play area, the played-card zone inside it, and the *mountain anchor* from which the
reader counts lattice cells (``docs/observation.md``). The synthetic table draws with the same
numbers the reader reads with, so a change here moves both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: giant colours, in the order used by the rules and the observation format
GIANT_COLOURS = ("red", "yellow", "blue", "green", "white", "black")
#: the six action-card designs (``docs/observation.md``)
CARD_NAMES = ("moaveou", "napozla", "pousstoia", "nenlevsa", "hopla", "tvavoartoa")


@dataclass(frozen=True)
class Layout:
    """The table layout for Haut les Cubes, in table millimetres (z up, origin at marker 0).

    ``play_area`` is the rectangle whose corners carry the table markers 0, 1, 2, 3
    (counter-clockwise from the origin). The played-card zone is a rectangle inside it, its long
    side along y; ``anchor`` is the point the reader counts cells from (the lattice point nearest
    to it is the corner of cell [0, 0]). ``mountain_radius`` bounds where the reader looks for
    cubes: cube footprints further than this from the anchor are not searched.
    """

    play_area: tuple[float, float] = (540.0, 380.0)
    marker_size: float = 40.0
    card_zone_centre: tuple[float, float] = (448.0, 190.0)
    card_zone_size: tuple[float, float] = (70.0, 104.0)
    anchor: tuple[float, float] | None = None
    mountain_radius: float = 150.0
    cube: float = 40.0
    giant_diameter: float = 14.0
    giant_height: float = 28.0
    card_size: tuple[float, float] = (59.0, 92.0)
    #: the band along the play area's edge that every arm reaching in must cross: (inset from
    #: the edge, width), clear of the markers' paper and of the played-card zone
    hand_band: tuple[float, float] = (36.0, 18.0)

    @property
    def pitch(self) -> float:
        """Lattice cell size: a cube top carries a 2×2 grid of squares."""
        return self.cube / 2.0

    @property
    def anchor_xy(self) -> tuple[float, float]:
        if self.anchor is not None:
            return self.anchor
        return (self.play_area[0] / 2.0, self.play_area[1] / 2.0)

    def marker_centres(self) -> dict[int, tuple[float, float]]:
        w, h = self.play_area
        return {0: (0.0, 0.0), 1: (w, 0.0), 2: (w, h), 3: (0.0, h)}

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The table coordinates (4×3, mm) of a marker's corners in ArUco's order (the printed
        marker's top-left, top-right, bottom-right, bottom-left). Markers lie with their printed
        top towards +y and their right towards +x."""
        cx, cy = self.marker_centres()[marker_id]
        s = self.marker_size / 2.0
        return np.array([[cx - s, cy + s, 0.0], [cx + s, cy + s, 0.0],
                         [cx + s, cy - s, 0.0], [cx - s, cy - s, 0.0]])

    def card_zone_corners(self) -> np.ndarray:
        """The played-card zone's corners (4×2, mm): the card's top-left, top-right,
        bottom-right, bottom-left as a player laying it upright (top towards +y) sees it."""
        cx, cy = self.card_zone_centre
        w, h = self.card_zone_size[0] / 2.0, self.card_zone_size[1] / 2.0
        return np.array([[cx - w, cy + h], [cx + w, cy + h], [cx + w, cy - h], [cx - w, cy - h]])

    def paper_polygons(self, marker_scale: float, card_scale: float = 1.15) -> list[np.ndarray]:
        """Table polygons (4×3, mm) where nothing of the game stands: each marker's paper and
        the played-card zone, grown about their centres by these factors (the margin a
        caller needs round them)."""
        out = []
        for m in range(4):
            c = self.marker_corners(m)
            ctr = c.mean(axis=0)
            out.append(ctr + (c - ctr) * marker_scale)
        z = np.column_stack([self.card_zone_corners(), np.zeros(4)])
        ctr = z.mean(axis=0)
        out.append(ctr + (z - ctr) * card_scale)
        return out

    def band_loop(self, step: float = 3.0, outside: bool = False) -> np.ndarray:
        """Points (N×2, mm) along the middle of the hand band, all the way round; ``outside``:
        the band of the same width round the outside of the markers instead."""
        w, h = self.play_area
        m = self.hand_band[0] + self.hand_band[1] / 2
        if outside:
            m = -(self.marker_size + self.hand_band[1] / 2 + 12.0)
        corners = np.array([[m, m], [w - m, m], [w - m, h - m], [m, h - m], [m, m]])
        pts = []
        for a, b in zip(corners[:-1], corners[1:]):
            n = max(2, int(np.linalg.norm(b - a) / step))
            t = np.arange(n) / n
            pts.append(a + t[:, None] * (b - a))
        return np.concatenate(pts)

    def card_corners(self, centre: tuple[float, float] | None = None, angle_deg: float = 0.0) -> np.ndarray:
        """Corners (4×2, mm) of a card lying at ``centre`` turned by ``angle_deg``, in the same
        order as :meth:`card_zone_corners`."""
        cx, cy = centre if centre is not None else self.card_zone_centre
        w, h = self.card_size[0] / 2.0, self.card_size[1] / 2.0
        a = np.radians(angle_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        local = np.array([[-w, h], [w, h], [w, -h], [-w, -h]])
        return local @ rot.T + np.array([cx, cy])


DEFAULT_LAYOUT = Layout()
