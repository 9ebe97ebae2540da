"""Low sun: long hard shadows lit by the blue sky alone, so the table in a tower's shadow is
bluer as well as darker. The table model learns that shade from the frame (it is table, not
wood), the reader reads the cubes, not their shadows, and takes no shadow for an arm, and a
pawn in that shade is judged by its colour re-lit out of it."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.generate import random_scene, random_shot
from companion.synth.render import render
from companion.synth.scoring import Tally, score
from companion.vision.hlc.appearance import SHADOW_MIN_PIXELS, TableModel, features
from companion.vision.hlc.giants import relit
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader

from tests.vision_hlc.conftest import RANGES

_TABLE = np.array([-1.0, 1.5, 97.0], np.float32)


def _table_samples(rng: np.random.Generator, n: int = 1500) -> np.ndarray:
    return (_TABLE + rng.normal(0.0, [0.3, 0.3, 0.8], (n, 3))).astype(np.float32)


def _crop(rng: np.random.Generator, shade: np.ndarray, bright_sd: float = 0.8) -> np.ndarray:
    """A 120×200 crop of lit table whose left half is ``shade`` (a chroma shift and a darkening
    added to the table's look; the brightness varying by ``bright_sd``)."""
    f = _TABLE + rng.normal(0.0, [0.3, 0.3, 0.8], (120, 200, 3))
    half = f[:, :100]
    half += shade
    half[..., 2] += rng.normal(0.0, bright_sd, half.shape[:2])
    return f.astype(np.float32)


def test_a_blue_shade_is_learned_as_table():
    rng = np.random.default_rng(3)
    table = TableModel(_table_samples(rng))
    crop = _crop(rng, np.array([5.0, -5.0, -17.0]))
    assert table.logp(crop[:, :100]).mean() < table.typical - 3.0  # the shade unlike the lit table
    assert table.learn_shadow(crop, np.ones(crop.shape[:2], np.float32))
    assert np.allclose(table.shadow_shift, [5.0, -5.0], atol=0.5)
    assert 14.0 < table.shadow_depth < 20.0
    # the shade is now as likely as the lit table, and the lit table is unchanged
    assert np.median(table.logp(crop[:, :100])) > table.typical
    assert np.median(table.logp(crop[:, 100:])) > table.typical


@pytest.mark.parametrize("shade, bright_sd, pixels", [
    ((0.5, -0.5, -17.0), 0.8, 12000),  # a shade of the light's own colour: the loose shade model's
    ((-5.0, 5.0, -17.0), 0.8, 12000),  # redder, not bluer: the shaded sides of orange wood
    ((5.0, -3.0, -17.0), 0.8, 12000),  # off the blue-red diagonal: no light's shade is so
    ((3.0, -3.0, -24.0), 0.8, 12000),  # little change of colour for so deep a shade: faces
    ((5.0, -5.0, -17.0), 6.0, 12000),  # brightness all over the place: faces, not the table's texture
    ((5.0, -5.0, -17.0), 0.8, SHADOW_MIN_PIXELS // 2),  # too few pixels
])
def test_no_shade_is_learned_from_what_is_not_the_table_in_shade(shade, bright_sd, pixels):
    rng = np.random.default_rng(4)
    table = TableModel(_table_samples(rng))
    crop = _crop(rng, np.array(shade), bright_sd)
    care = np.ones(crop.shape[:2], np.float32)
    care[:, :100].flat[pixels:] = 0.0
    assert not table.learn_shadow(crop, care)
    assert table.shadow is None


def _low_sun_readings(seed: int, count: int):
    out = []
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        scene = random_scene(rng, RANGES, DEFAULT_LAYOUT)
        shot = random_shot(rng, RANGES, DEFAULT_LAYOUT, light="low-sun")
        rendered = render(scene, shot)
        reader = HlcReader(camera=shot.view.camera)
        seen = reader.read(rendered.image)
        out.append((seen, rendered, reader))
    return out


@pytest.fixture(scope="module")
def low_sun():
    return _low_sun_readings(57, 4)


def test_low_sun_frames_are_read_and_none_is_taken_for_a_hand(low_sun):
    assert all(seen is not None and not seen.hand for seen, _, _ in low_sun)


def test_low_sun_shadows_are_not_read_as_cubes(low_sun):
    cubes = Tally()
    for seen, rendered, reader in low_sun:
        cubes.add(score(seen, rendered.truth).cubes)
    assert cubes.expected > 30
    assert cubes.precision >= 0.9, cubes
    assert cubes.recall >= 0.8, cubes
    # the shade was learned where the shadows are long (a sun 25-38° high)
    learned = sum(1 for _, _, reader in low_sun if reader.last.mountain.search.evidence.table.shadow is not None)
    assert learned >= 2


def test_a_pawn_in_the_learned_shade_is_re_lit_to_its_own_colour():
    """The shade's light is the same on every surface: learned on the table, it turns a white
    pawn in a low sun's blue shade (grey-blue, saying nothing) back into white."""
    rng = np.random.default_rng(5)
    ratio = np.array([0.54, 0.43, 0.32])  # B, G, R: the sky's light over the sun's and the sky's
    lit = np.array([150.0, 140.0, 130.0])
    img = np.clip(lit + rng.normal(0.0, 1.5, (120, 200, 3)), 0, 255)
    img[:, :100] *= ratio
    img = img.astype(np.uint8)
    feats = features(img)
    table = TableModel(feats[:, 150:].reshape(-1, 3)[::5])
    assert table.learn_shadow(feats, np.ones(feats.shape[:2], np.float32))
    white = np.array([[230.0, 232.0, 235.0]])
    back = relit(white * ratio, table)
    assert np.allclose(back, white, rtol=0.08), back
    # no shade learned: nothing to re-light
    assert relit(white * ratio, TableModel(feats[:, 150:].reshape(-1, 3)[::5])) is None
