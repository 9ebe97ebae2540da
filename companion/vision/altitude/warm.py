"""A warm reading: what did not change since the last still moment is not read again.

Between two still moments of a game a player takes a card from a mountain, lays it on the
discard pile or draws one; the other mountains, piles and rows are as they were. While the camera
has not moved (the same pose), each part of the reading (a seat's mountain, the discard pile,
the deck, a row of kept cards) is kept with the pixels it was read from, block by block
(:data:`BLOCK` pixels a side, each channel averaged: the sensor's noise averages away, a card
laid, taken or turned, a hand or its shadow changes a block by far more than
:data:`STILL_LEVEL`). A part none of whose blocks changed since it was read is taken as it was;
the others are read again from the frame (a cold reading of that part alone). The blocks a
part depends on are those of every patch of the table its reading looked at (a mountain's
overview and the patches its cards were cut from; a pile's search area), grown by a margin.
A part that changed is read again, but each card whose own cut-out did not change keeps its
reading (:class:`MatchMemo`): the mountain beside the discard pile, whose overview the pile's
edge falls in, costs its outlines and lattices, not its cards' comparisons with every face.

Each part is compared with the frame it was itself read from, not with the last frame, so a
slow drift (the light of a room as the day goes) cannot creep past the threshold a little at a
time. Only readings of frames without an arm over the table are kept. The arm check runs on
every frame but one where no part was read again and none of the blocks it looks at (the seats'
areas, the rows in front of them, the middle) changed: its verdict is the last one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import cv2
import numpy as np

from companion.vision.altitude.rectify import PatchSpec
from companion.vision import blocks as block_compare
from companion.vision.blocks import BLOCK, STILL_LEVEL, block_picture
from companion.vision.camera import View

#: how far around the patches a part looked at its blocks are taken (mm)
MARGIN_MM = 10.0
#: a bare lattice point's refusal holds for a cut-out this close (mm) where nothing changed
NEAR_MM = 4.0


def _corners(spec: PatchSpec, grow: float) -> np.ndarray:
    """The patch's corners (table mm, height ``spec.z``), grown by ``grow`` mm each way."""
    uv = np.array([[spec.u0 - grow, spec.v0 - grow], [spec.u1 + grow, spec.v0 - grow],
                   [spec.u1 + grow, spec.v1 + grow], [spec.u0 - grow, spec.v1 + grow]])
    xy = spec.frame.to_table(uv)
    return np.column_stack([xy, np.full(4, spec.z)])


def region_blocks(view: View, specs: Iterable[PatchSpec], shape: tuple[int, int],
                  grow: float = MARGIN_MM) -> np.ndarray:
    """The blocks (bool, ``shape`` of a :func:`block_picture`) that the patches' pixels, grown
    by ``grow`` mm and a block, fall in."""
    out = np.zeros(shape, np.uint8)
    for spec in specs:
        px = view.project(_corners(spec, grow)) / BLOCK
        if not np.all(np.isfinite(px)):
            out[:] = 1
            break
        cv2.fillConvexPoly(out, np.round(px * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return cv2.dilate(out, np.ones((3, 3), np.uint8)).astype(bool)


def same_view(a: View, b: View, specs: Iterable[PatchSpec]) -> bool:
    """Whether two views see the patches in the same place (:func:`blocks.same_view`)."""
    specs = list(specs)
    pts = np.concatenate([_corners(s, 0.0) for s in specs]) if specs else np.zeros((0, 3))
    return block_compare.same_view(a, b, pts)


def _refusal(value: Any) -> bool:
    """A reading that found no card without comparing faces (a bare lattice point)."""
    return getattr(value, "name", 1) is None and not getattr(value, "alternatives", (1,))


class MatchMemo:
    """The card readings of a part's last reading, by the place a card was cut out at and what
    of it showed (its visible pixels' mask), each with the frame's blocks its cut-out covers: a
    card cut out at the same place where none of those blocks changed is the same reading, and
    is not compared with the enrolled faces again. A lattice point of bare table (a reading
    that refused it before comparing faces) holds as well for a cut-out a few millimetres off
    (:data:`NEAR_MM`: the outline peak a bare point is cut out at wanders with the sensor's
    noise). A part whose pixels changed somewhere is read again (its outlines and lattices
    looked for anew), and only the cards whose own cut-outs changed are matched.

    ``view`` and ``blocks``: the frame's view and block picture; ``before``: the entries of the
    part's last reading."""

    def __init__(self, view: View, blocks: np.ndarray, before: dict | None = None):
        self.view = view
        self.blocks = blocks.reshape(-1, blocks.shape[-1])
        self.shape = blocks.shape[:2]
        self.before: dict = dict(before or {})
        self._near: dict[tuple, list] | None = None
        self.now: dict = {}
        self.hits = 0

    def _footprint(self, spec: PatchSpec) -> np.ndarray:
        """The blocks (flat indices) of the box around the cut-out's picture in the frame."""
        px = self.view.project(_corners(spec, 0.0)) / BLOCK
        rows, cols = self.shape
        x0, y0 = np.clip(np.floor(px.min(axis=0)).astype(int), 0, [cols - 1, rows - 1])
        x1, y1 = np.clip(np.ceil(px.max(axis=0)).astype(int), 0, [cols - 1, rows - 1])
        ys, xs = np.mgrid[y0:y1 + 1, x0:x1 + 1]
        return (ys * cols + xs).ravel()

    def _holds(self, entry: tuple) -> bool:
        idx, ref, _ = entry
        return not bool((np.abs(self.blocks[idx] - ref) > STILL_LEVEL).any())

    def match(self, place: tuple[float, float], extra: tuple, spec: PatchSpec, vis: np.ndarray,
              read: Any) -> Any:
        """The reading of the card cut out as ``spec`` (its ``place``, mm, and ``extra``:
        anything else the reading depends on) with ``vis`` showing: ``read()`` when new."""
        vkey = np.packbits(np.asarray(vis, bool)).tobytes()
        key = (round(place[0] * 4), round(place[1] * 4), extra, vkey)
        got = self.before.get(key)
        if got is not None and self._holds(got):
            self.hits += 1
            self.now[key] = got
            return got[2]
        near = self._near_refusal(key)
        if near is not None:
            self.hits += 1
            return near[2]
        idx = self._footprint(spec)
        value = read()
        self.now[key] = (idx, self.blocks[idx].copy(), value)
        return value

    def _near_refusal(self, key: tuple) -> tuple | None:
        if self._near is None:
            self._near = {}
            for k, entry in self.before.items():
                if _refusal(entry[2]):
                    self._near.setdefault(k[2:], []).append((k[0], k[1], entry))
        r = NEAR_MM * 4
        for u, v, entry in self._near.get(key[2:], ()):
            if abs(u - key[0]) <= r and abs(v - key[1]) <= r and self._holds(entry):
                return entry
        return None


@dataclass
class Kept:
    """One part of the last readings: what it read (``value``), the block picture of the frame
    it was read from, the blocks it depends on, and its cards' readings (:class:`MatchMemo`)."""

    value: Any
    blocks: np.ndarray
    region: np.ndarray
    memo: dict | None = None

    def holds(self, blocks: np.ndarray) -> bool:
        """Whether none of the part's blocks changed (``blocks``: the new frame's picture)."""
        if blocks.shape != self.blocks.shape:
            return False
        diff = np.abs(blocks[self.region] - self.blocks[self.region])
        return not bool((diff > STILL_LEVEL).any())


@dataclass
class WarmState:
    """The parts of the last still readings, for the frames of one view."""

    view: View
    parts: dict[str, Kept]
    #: the arm check's verdict (no arm), with the blocks of the table it looked at
    hand: Kept | None = None

    def get(self, name: str, blocks: np.ndarray) -> tuple[bool, Any]:
        """(True, the part's reading) when it holds in the frame of ``blocks``."""
        kept = self.parts.get(name)
        if kept is not None and kept.holds(blocks):
            return True, kept.value
        return False, None

    def memo(self, name: str) -> dict | None:
        """The card readings of the part's last reading."""
        kept = self.parts.get(name)
        return None if kept is None else kept.memo
