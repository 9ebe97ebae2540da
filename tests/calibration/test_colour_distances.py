"""``ColourModel.classify`` names each pixel by its Mahalanobis distance to every colour (taken
through the Cholesky factors of the inverse covariances at once): the same names and confidences
as the distances computed colour by colour from the definition."""

from __future__ import annotations

import math
import pickle

import numpy as np

from companion.vision.colours import _OUTLIER_START, ColourModel, lab_features


def _direct(model: ColourModel, px: np.ndarray, white) -> tuple[np.ndarray, np.ndarray]:
    feats = lab_features(px, white).astype(np.float64)
    d2 = np.empty((len(feats), len(model.names)))
    logdet = np.empty(len(model.names))
    for k, (mu, cov) in enumerate(zip(model.means, model.covs)):
        inv = np.linalg.inv(np.asarray(cov))
        diff = feats - np.asarray(mu)
        d2[:, k] = np.sum((diff @ inv) * diff, axis=1)
        logdet[k] = np.linalg.slogdet(np.asarray(cov))[1]
    loglik = -0.5 * d2 - 0.5 * logdet
    post = np.exp(loglik - loglik.max(axis=1, keepdims=True))
    post /= post.sum(axis=1, keepdims=True)
    idx = np.argmax(post, axis=1)
    rows = np.arange(len(idx))
    far = np.clip(np.sqrt(d2[rows, idx]) - _OUTLIER_START, 0.0, None)
    return idx, post[rows, idx] * np.exp(-0.5 * far * far)


def test_classify_matches_the_distances_colour_by_colour():
    rng = np.random.default_rng(5)
    light = np.array([0.5, 0.8, 1.2])
    samples = {}
    for name, refl in (("red", (0.16, 0.16, 0.78)), ("yellow", (0.15, 0.8, 0.92)),
                       ("blue", (0.68, 0.32, 0.1)), ("black", (0.08, 0.08, 0.08))):
        shade = 1.0 - 0.4 * rng.random((400, 1))
        px = np.array(refl) * light * 200.0 * shade + rng.normal(0, 4, (400, 3))
        samples[name] = np.clip(px, 0, 255)
    white = tuple(float(v) for v in light * 210.0)
    model = ColourModel.learn(samples, white=white)
    px = rng.integers(0, 256, (3000, 3)).astype(np.float32)
    idx, conf = model.classify(px)
    want_idx, want_conf = _direct(model, px, model.white)
    assert np.array_equal(idx, want_idx)
    assert np.allclose(conf, want_conf, rtol=1e-9, atol=1e-12)
    # a model stored and read back, or unpickled, classifies the same
    again = ColourModel.from_json(model.to_json())
    assert np.array_equal(again.classify(px)[0], idx)
    state = dict(model.__dict__)
    del state["_whiten"], state["_whiten_mu"]           # as pickled by an older version
    old = ColourModel.__new__(ColourModel)
    old.__setstate__(state)
    assert np.allclose(old.classify(px)[1], conf, rtol=1e-12)
    assert np.array_equal(pickle.loads(pickle.dumps(model)).classify(px)[0], idx)
    assert math.isclose(float(conf.max()), float(want_conf.max()), rel_tol=1e-9)
