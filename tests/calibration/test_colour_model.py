"""The colour model names piece colours under the table's light, not under an ideal one."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import BadInput
from companion.vision.colours import (GAME_PALETTES, NOMINAL_REFLECTANCE, NOMINAL_WHITE,
                                      ColourModel, colour_distance, estimate_white)

PALETTE = GAME_PALETTES["haut-les-cubes"]  # red yellow blue green white black
WARM_LAMP = np.array([0.45, 0.80, 1.30])    # BGR gains of a strongly orange light


def camera_pixels(name: str, light: np.ndarray, rng: np.random.Generator, n: int = 300,
                  shading: float = 0.25) -> np.ndarray:
    """Pixels of a piece as a camera sees it: reflectance × light × exposure, with shading
    (lit top, darker sides) and sensor noise."""
    refl = np.array(NOMINAL_REFLECTANCE[name])
    shade = 1.0 - shading * rng.random((n, 1))
    px = refl[None, :] * light[None, :] * np.array(NOMINAL_WHITE) * shade
    return np.clip(px + rng.normal(0.0, 3.0, (n, 3)), 0, 255).astype(np.uint8)


def white_paper(light: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    px = np.array([0.97, 0.97, 0.97]) * light * np.array(NOMINAL_WHITE)
    return np.clip(px + rng.normal(0, 2.0, (200, 3)), 0, 255)


def accuracy(model: ColourModel, light: np.ndarray, rng, white=None) -> dict[str, float]:
    out = {}
    for name in PALETTE:
        idx, _ = model.classify(camera_pixels(name, light, rng), white=white)
        out[name] = float(np.mean(np.array(model.names)[idx] == name))
    return out


def test_default_model_names_nominal_colours_under_neutral_light():
    rng = np.random.default_rng(1)
    acc = accuracy(ColourModel.default(PALETTE), np.ones(3), rng)
    assert min(acc.values()) >= 0.98, acc


def test_learned_model_works_under_a_coloured_light_where_the_default_fails():
    rng = np.random.default_rng(2)
    learned = ColourModel.learn({n: camera_pixels(n, WARM_LAMP, rng) for n in PALETTE})
    acc_learned = accuracy(learned, WARM_LAMP, rng)
    acc_default = accuracy(ColourModel.default(PALETTE), WARM_LAMP, rng)
    assert min(acc_learned.values()) >= 0.98, acc_learned
    # the orange lamp turns white pieces yellow and blue ones black for the nominal model
    assert min(acc_default.values()) < 0.5, acc_default
    assert learned.source == "learned"


def test_white_reference_corrects_a_cast_for_the_nominal_model():
    rng = np.random.default_rng(3)
    white = estimate_white(white_paper(WARM_LAMP, rng))
    acc = accuracy(ColourModel.default(PALETTE), WARM_LAMP, rng, white=white)
    assert min(acc.values()) >= 0.95, acc


def test_learned_model_follows_a_dimmer_bluer_light_given_a_fresh_white():
    rng = np.random.default_rng(4)
    learn_light = np.array([0.9, 1.0, 1.1])
    learned = ColourModel.learn({n: camera_pixels(n, learn_light, rng) for n in PALETTE},
                                white=estimate_white(white_paper(learn_light, rng)))
    evening = np.array([1.15, 0.85, 0.6]) * 0.6
    acc = accuracy(learned, evening, rng, white=estimate_white(white_paper(evening, rng)))
    assert min(acc.values()) >= 0.95, acc


def test_a_colour_outside_the_palette_is_not_named_confidently():
    model = ColourModel.learn({n: camera_pixels(n, np.ones(3), np.random.default_rng(5))
                               for n in ("red", "blue")})
    green = camera_pixels("green", np.ones(3), np.random.default_rng(6))
    _, conf = model.classify(green)
    red = camera_pixels("red", np.ones(3), np.random.default_rng(7))
    _, conf_red = model.classify(red)
    assert np.median(conf) < 0.05
    assert np.median(conf_red) > 0.9


def test_classify_region_votes_one_colour_for_a_piece():
    rng = np.random.default_rng(8)
    model = ColourModel.default(PALETTE)
    px = camera_pixels("green", np.ones(3), rng)
    px[:40] = 250  # a glint
    idx, conf = model.classify_region(px)
    assert model.names[idx] == "green" and conf > 0.6


def test_json_round_trip_classifies_the_same():
    rng = np.random.default_rng(9)
    model = ColourModel.learn({n: camera_pixels(n, WARM_LAMP, rng) for n in PALETTE},
                              white=estimate_white(white_paper(WARM_LAMP, rng)))
    again = ColourModel.from_json(json.loads(json.dumps(model.to_json())))
    px = np.concatenate([camera_pixels(n, WARM_LAMP, rng, 50) for n in PALETTE])
    a, ca = model.classify(px)
    b, cb = again.classify(px)
    assert again.names == model.names
    assert np.array_equal(a, b) and np.allclose(ca, cb)


def test_similar_learned_colours_are_measurably_close():
    rng = np.random.default_rng(10)
    model = ColourModel.learn({"red": camera_pixels("red", np.ones(3), rng),
                               "orange": camera_pixels("orange", np.ones(3), rng),
                               "blue": camera_pixels("blue", np.ones(3), rng)})
    assert colour_distance(model, "red", "orange") < colour_distance(model, "red", "blue")


@pytest.mark.parametrize("bad", [np.zeros((5, 4)), np.zeros((2, 3, 3)), np.zeros(7)])
def test_pixels_of_the_wrong_shape_are_refused(bad):
    with pytest.raises(BadInput, match="N×3"):
        ColourModel.default(PALETTE).classify(bad)


def test_bad_models_and_samples_are_refused_clearly():
    with pytest.raises(BadInput, match="no nominal colour"):
        ColourModel.default(["red", "mauve-ish"])
    with pytest.raises(BadInput, match="at least 10"):
        ColourModel.learn({"red": np.full((3, 3), 100)})
    with pytest.raises(BadInput, match="no colour samples"):
        ColourModel.learn({})
    with pytest.raises(BadInput, match="not a colour model"):
        ColourModel.from_json({"names": ["red"]})
    with pytest.raises(BadInput, match="white reference"):
        ColourModel.default(PALETTE).classify(np.zeros((2, 3)), white=(0, 0, 0))
    with pytest.raises(BadInput, match="nearly black"):
        estimate_white(np.zeros((50, 3)))
