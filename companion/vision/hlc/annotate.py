"""Drawing a Haut les Cubes reading over the frame, for a person to check it.

Each cube's top is outlined where the reading puts it (its level written at its centre), each
giant ringed in its colour with its level, the played-card zone outlined with the card's name,
and the lattice's cell [0, 0] marked. Colours: cubes by level (cool low, warm high).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.observation import Observation
from companion.vision.camera import View
from companion.vision.hlc.lattice import Lattice
from companion.vision.hlc.layout import DEFAULT_LAYOUT, Layout

_GIANT_BGR = {"red": (40, 40, 230), "yellow": (40, 220, 240), "blue": (230, 120, 30),
              "green": (60, 200, 60), "white": (250, 250, 250), "black": (20, 20, 20)}


def _level_colour(level: int) -> tuple[int, int, int]:
    hue = int(max(0, 120 - level * 20))
    hsv = np.uint8([[[hue, 230, 255]]])
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def _poly(img: np.ndarray, px: np.ndarray, colour, thickness: int = 1) -> None:
    if np.all(np.isfinite(px)):
        cv2.polylines(img, [np.round(px * 4).astype(np.int32)], True, colour, thickness, cv2.LINE_AA, 2)


def annotate(image: np.ndarray, view: View, obs: Observation, layout: Layout = DEFAULT_LAYOUT) -> np.ndarray:
    out = image.copy()
    lat_json = obs.board.get("lattice") if obs.board else None
    if obs.hand:
        cv2.putText(out, "hand over the table: not read", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (0, 0, 255), 2, cv2.LINE_AA)
    if lat_json:
        lattice = Lattice.from_json(lat_json)
        cubes = sorted(obs.of_kind("cube"), key=lambda p: (p.level or 0))
        for p in cubes:
            if p.cell is None or p.level is None:
                continue
            i, j = p.cell
            z = (p.level + 1) * layout.cube
            corners = lattice.to_table(np.array([[i, j], [i + 2, j], [i + 2, j + 2], [i, j + 2]], float))
            px = view.project(np.column_stack([corners, np.full(4, z)]))
            col = _level_colour(p.level)
            _poly(out, px, col, 2)
            c = px.mean(axis=0)
            if np.all(np.isfinite(c)):
                cv2.putText(out, str(p.level), (int(c[0]) - 4, int(c[1]) + 4), cv2.FONT_HERSHEY_SIMPLEX,
                            0.4, col, 1, cv2.LINE_AA)
        for p in obs.of_kind("giant"):
            if p.cell is None:
                continue
            c = lattice.to_table(np.array([[p.cell[0] + 0.5, p.cell[1] + 0.5]]))[0]
            z0 = (p.level or 0) * layout.cube
            foot, head = view.project(np.array([[c[0], c[1], z0], [c[0], c[1], z0 + layout.giant_height]]))
            colour = _GIANT_BGR.get(str(p.get("colour")), (255, 0, 255))
            if np.all(np.isfinite(head)):
                cv2.circle(out, tuple(np.round(head).astype(int)), 9, (0, 0, 0), 3, cv2.LINE_AA)
                cv2.circle(out, tuple(np.round(head).astype(int)), 9, colour, 2, cv2.LINE_AA)
                cv2.putText(out, f"{str(p.get('colour'))[0].upper()}{p.level}",
                            (int(head[0]) + 10, int(head[1]) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                            colour, 1, cv2.LINE_AA)
        o = view.project(np.array([[*lattice.origin, 0.0]]))[0]
        if np.all(np.isfinite(o)):
            cv2.drawMarker(out, tuple(np.round(o).astype(int)), (255, 0, 255), cv2.MARKER_CROSS, 12, 1)
    zone = np.column_stack([layout.card_zone_corners(), np.zeros(4)])
    zpx = view.project(zone)
    _poly(out, zpx, (255, 255, 0), 1)
    card = next((p.get("card") for p in obs.in_zone("played")), None)
    if card and np.all(np.isfinite(zpx)):
        top = zpx[np.argmin(zpx[:, 1])]
        cv2.putText(out, str(card), (int(top[0]) - 20, int(top[1]) - 8), cv2.FONT_HERSHEY_SIMPLEX,
                    0.55, (255, 255, 0), 1, cv2.LINE_AA)
    return out
