"""Shadows on paper the camera clips: under a warm lamp, with the sheet overexposed, the edge of a
pyramid's shadow blurs clipped white into a warm shadow channel by channel (blue drops first, green
and red stay clipped), and reads a pale yellow, then tan: no paper the fixed classes know, and the
learned colours, wide under that light, took it for a pyramid (a blue large under each red or green
medium, its shadow's rim). The paper's blends with its shadows are paper
(:meth:`~companion.vision.gleebs.labels.Labeller.clipped_blend`); and a frame whose shadows fall
inside the squares, away from the lines where shadows are studied, keeps the shadows last seen
under the same light.

A set-up of the benchmark corpus (``companion bench vision_gleebs --positions 320 --seed 11``,
session 50: tilted 12–24° under a warm lamp, the paper clipped white)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from companion.synth.gleebs.corpus import corpus
from companion.vision.gleebs.labels import PAPER, Labeller
from companion.vision.gleebs.reader import GleebsReader


def chains(observation):
    out = defaultdict(list)
    for p in sorted(observation.of_kind("pyramid"), key=lambda p: p.level):
        out[tuple(p.cell)].append((p.get("colour"), p.get("size")))
    return dict(out)


def test_shadow_rims_on_clipped_paper_are_not_pyramids():
    items = list(corpus(2, seed=11, first_session=50))
    assert items[0].light == "warm-lamp"
    reader = GleebsReader(items[0].shot.view.camera, items[0].colours)
    # (0, 2) a red medium and (1, 1) a green medium; (0, 3) a red medium in the next frame:
    # each was read on a blue large, its own shadow's rim
    for item, cells in zip(items, [[(0, 2), (1, 1)], [(0, 3)]]):
        seen = reader.read(item.image)
        assert seen is not None and not seen.hand
        truth, read = chains(item.truth.observation), chains(seen)
        for cell in cells:
            assert len(truth[cell]) == 1
            assert read.get(cell) == truth[cell], f"{cell}: read {read.get(cell)}, is {truth[cell]}"


def test_blends_of_clipped_white_and_a_warm_shadow_are_paper():
    model = list(corpus(1, seed=11, first_session=50))[0].colours
    labeller = Labeller(model)
    warm = (0.45, 0.67, 1.0)  # a shadow under a warm lamp, white-referenced (B, G, R)
    table = labeller.table_for((0.2, 0.35, 30.0), clipped_shadow=warm)
    plain = labeller.table_for((0.2, 0.35, 30.0))

    def label(t, bgr):
        q = np.round(63 * np.sqrt(np.clip(np.asarray(bgr, float), 0, 1))).astype(int)
        return int(t[(q[0] << 12) | (q[1] << 6) | q[2]])

    rim = [(0.60, 0.82, 0.88), (0.74, 0.94, 0.97), (0.82, 1.0, 1.0)]  # blue dropping first
    assert any(label(plain, px) != PAPER for px in rim)
    assert all(label(table, px) == PAPER for px in rim)
    # a pyramid's colours stay what they were: saturated yellow, red, blue, a black face
    for px in [(0.15, 0.8, 0.92), (0.12, 0.14, 0.7), (0.6, 0.3, 0.1), (0.02, 0.02, 0.02)]:
        assert label(table, px) == label(plain, px)
