"""The table in a shadow changes colour only as a shadow can (``hands.shade_chroma_z``).

A shadow is the table lit by the room's ambient light alone. Its colour is computed here the way
the synthetic table lights a surface (``albedo × (ambient + light × cos)`` lit, ``albedo ×
ambient`` in shade), for the lights of the benchmark corpus whose ambient light has another
colour than the lamp's: those shades must pass as table. A green sleeve and bare skin brighter
than the table, which a shadow cannot make, must not.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.hands import THRESHOLD, shade_chroma_z

#: the table's chroma spread the checks use at least (log units × 20)
SPREAD = np.array([0.6, 0.6])
GREY_TABLE = np.array([0.55, 0.52, 0.50])  # BGR albedo


def _features(bgr: np.ndarray) -> np.ndarray:
    """(chroma b, chroma r, brightness) in log units × 20, as the hand checks read a colour."""
    lg = np.log(bgr)
    mean = lg.mean()
    return np.array([lg[0] - mean, lg[2] - mean, mean]) * 20.0


def _z(colour: np.ndarray, table: np.ndarray) -> float:
    d = _features(colour) - _features(table)
    return float(shade_chroma_z(np.array([d[0]]), np.array([d[1]]), np.array([-d[2]]), SPREAD)[0] * 0.8)


@pytest.mark.parametrize("light, ambient", [
    ((0.62, 0.78, 0.95), (0.32, 0.26, 0.20)),  # a low sun, its shade lit by the sky
    ((0.50, 0.72, 0.95), (0.10, 0.15, 0.22)),  # a warm lamp in a warm room
    ((1.00, 0.93, 0.82), (0.28, 0.26, 0.24)),  # a cool LED
])
@pytest.mark.parametrize("cos", [0.45, 0.9])
def test_a_shadow_of_another_colour_is_still_table(light, ambient, cos):
    lit = GREY_TABLE * (np.array(ambient) + np.array(light) * cos)
    shade = GREY_TABLE * np.array(ambient)
    assert _z(shade, lit) < THRESHOLD
    # the soft edge of the shadow, half lit
    assert _z((shade + lit) / 2, lit) < THRESHOLD


def test_a_green_sleeve_is_not_a_shadow():
    lit = GREY_TABLE * 0.9
    sleeve = np.array([0.12, 0.30, 0.12])  # darker than the table, green
    assert _z(sleeve, lit) > THRESHOLD


def test_skin_brighter_than_the_table_is_not_a_shadow():
    lit = GREY_TABLE * 0.9
    skin = np.array([0.45, 0.55, 0.75])  # brighter and redder: no shadow makes a pixel brighter
    assert _z(skin, lit) > THRESHOLD
