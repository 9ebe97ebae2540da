"""Procedural surfaces for the synthetic table: table tops (wood planks, cloth, laminate) and the
natural wood of the cubes.

Textures are periodic (made in the frequency domain), so the table can be tiled without seams and
a texture of a metre covers any view. They are made once per process and kept in memory: a
texture is a few megabytes and takes a fraction of a second to make.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

TABLE_KINDS = ("wood", "cloth", "laminate")
#: table textures are this many pixels square, one pixel per millimetre
TABLE_TEXTURE_PX = 1024
TABLE_PX_PER_MM = 1.0
#: the cube wood sheet: pixels square, and its resolution
CUBE_SHEET_PX = 512
CUBE_PX_PER_MM = 2.0


def _periodic_noise(rng: np.random.Generator, shape: tuple[int, int], scale_px: tuple[float, float],
                    power: float = 2.0) -> np.ndarray:
    """Zero-mean unit-variance noise that tiles, with features about ``scale_px`` (y, x) large.

    A Gaussian-filtered spectrum of white noise: elongate features by giving the two axes
    different scales (wood grain runs along x when scale_px[1] >> scale_px[0])."""
    h, w = shape
    white = rng.standard_normal(shape)
    fy = np.fft.fftfreq(h)[:, None] * scale_px[0]
    fx = np.fft.rfftfreq(w)[None, :] * scale_px[1]
    envelope = np.exp(-(fx * fx + fy * fy) * power)
    out = np.fft.irfft2(np.fft.rfft2(white) * envelope, s=shape)
    out -= out.mean()
    std = out.std()
    return (out / std if std > 0 else out).astype(np.float32)


def _to_bgr(base_bgr: tuple[float, float, float], shade: np.ndarray) -> np.ndarray:
    """Colour a shading field (around 1.0) with a base colour: float32 BGR in [0, 1]."""
    out = shade[:, :, None] * np.asarray(base_bgr, np.float32)[None, None, :]
    return np.clip(out, 0.0, 1.0).astype(np.float32)


def _wood_table(rng: np.random.Generator, size: int) -> np.ndarray:
    plank = size // int(rng.choice([6, 8, 10]))
    base = np.array([[0.30, 0.45, 0.62], [0.22, 0.34, 0.50], [0.42, 0.58, 0.72],
                     [0.16, 0.24, 0.36]][rng.integers(0, 4)], np.float32)
    grain = _periodic_noise(rng, (size, size), (14.0, 260.0))
    fine = _periodic_noise(rng, (size, size), (1.5, 40.0))
    shade = 1.0 + 0.10 * grain + 0.05 * fine
    rows = np.arange(size)
    plank_index = rows // plank
    offsets = rng.normal(0.0, 0.07, size=plank_index.max() + 1).astype(np.float32)
    shade = shade + offsets[plank_index][:, None]
    seam = (rows % plank) < 2
    shade[seam, :] *= 0.55
    return _to_bgr(tuple(base), shade)


def _cloth_table(rng: np.random.Generator, size: int) -> np.ndarray:
    base = np.array([[0.25, 0.45, 0.20], [0.45, 0.25, 0.12], [0.40, 0.40, 0.42],
                     [0.18, 0.16, 0.50], [0.30, 0.30, 0.30]][rng.integers(0, 5)], np.float32)
    mottle = _periodic_noise(rng, (size, size), (60.0, 60.0))
    fuzz = _periodic_noise(rng, (size, size), (1.0, 1.0))
    shade = 1.0 + 0.05 * mottle + 0.06 * fuzz
    return _to_bgr(tuple(base), shade)


def _laminate_table(rng: np.random.Generator, size: int) -> np.ndarray:
    base = np.array([[0.80, 0.82, 0.84], [0.62, 0.70, 0.76], [0.55, 0.55, 0.55],
                     [0.70, 0.78, 0.86]][rng.integers(0, 4)], np.float32)
    cloud = _periodic_noise(rng, (size, size), (120.0, 120.0))
    speck = _periodic_noise(rng, (size, size), (0.8, 0.8))
    shade = 1.0 + 0.03 * cloud + 0.025 * speck
    return _to_bgr(tuple(base), shade)


@lru_cache(maxsize=12)
def table_texture(kind: str, variant: int = 0) -> np.ndarray:
    """The albedo of a table top (float32 BGR, 1 px/mm, periodic), one of :data:`TABLE_KINDS`."""
    makers = {"wood": _wood_table, "cloth": _cloth_table, "laminate": _laminate_table}
    if kind not in makers:
        raise ValueError(f"unknown table kind {kind!r}; choose one of {', '.join(TABLE_KINDS)}")
    rng = np.random.default_rng([TABLE_KINDS.index(kind), variant, 7])
    tex = makers[kind](rng, TABLE_TEXTURE_PX)
    tex.setflags(write=False)
    return tex


@lru_cache(maxsize=4)
def cube_wood(variant: int = 0) -> np.ndarray:
    """A sheet of the cubes' natural wood (float32 BGR, 2 px/mm, periodic): light beech with a
    fine straight grain and a few growth rings, to be cut into faces."""
    rng = np.random.default_rng([variant, 11])
    size = CUBE_SHEET_PX
    grain = _periodic_noise(rng, (size, size), (3.0, 90.0))
    rings = _periodic_noise(rng, (size, size), (30.0, 400.0))
    fine = _periodic_noise(rng, (size, size), (1.0, 6.0))
    shade = 1.0 + 0.035 * grain + 0.05 * np.sin(rings * 2.5) + 0.02 * fine
    tex = _to_bgr((0.50, 0.66, 0.80), shade)
    tex.setflags(write=False)
    return tex


def cube_face_albedo(rng: np.random.Generator, side_px: tuple[int, int], variant: int = 0) -> np.ndarray:
    """A random cut of the cube wood, ``side_px`` (w, h) pixels, grain along either axis."""
    sheet = cube_wood(variant)
    w, h = side_px
    if rng.random() < 0.5:
        sheet = sheet.transpose(1, 0, 2)
    y = int(rng.integers(0, sheet.shape[0] - h))
    x = int(rng.integers(0, sheet.shape[1] - w))
    tint = 1.0 + rng.normal(0.0, 0.04)
    return np.ascontiguousarray(sheet[y:y + h, x:x + w] * np.float32(tint))


def blurred(image: np.ndarray, sigma: float) -> np.ndarray:
    if sigma <= 0:
        return image
    return cv2.GaussianBlur(image, (0, 0), sigma)
