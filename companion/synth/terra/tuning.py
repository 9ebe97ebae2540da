"""Fitting the Terra Turrium height scorers on rendered frames with exact ground truth.

``python -m companion.synth.terra.tuning [--frames N] [--seed S]`` renders a corpus
(:func:`companion.synth.terra.generate.corpus_item`, every tilt, light and block colour),
reads each frame's hypotheses' features exactly as the reader does (the board located from its
markers with the lens known, the flags' colours learned under the frame's light, but the towers
painted into the occlusion image at their true heights so that one misreading does not spoil
the squares behind it), and fits the scorer of :mod:`companion.vision.terra.model` by
maximising the probability of the true height of every square (a softmax over the heights; Adam on mini-batches
in numpy). It writes ``companion/vision/terra/weights.npz`` and prints the held-out accuracy. The corpus seed differs from the benchmark's, so figures are not measured on
the frames the scorer was fitted on.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.synth.terra.colour_shot import learn_colours
from companion.synth.terra.generate import corpus_item, table_layout
from companion.synth.terra.photo import photograph
from companion.vision.terra.features import FEATURE_NAMES
from companion.vision.terra.model import WEIGHTS_FILE, HeightModel, Scorer

#: the corpus the scorers are fitted on (the benchmark uses other seeds)
TUNING_SEED = 20_240
TILTS = (0.0, 7.0, 14.0, 21.0, 28.0, 35.0)


@dataclass
class Dataset:
    features: np.ndarray  # N × NH × F
    heights: np.ndarray
    visible: np.ndarray
    frame: np.ndarray


def fit_scorer(X: np.ndarray, Y: np.ndarray, *, hidden: int = 16, iters: int = 1200,
               l2: float = 1e-4, seed: int = 0, weight: np.ndarray | None = None,
               batch: int = 4096, log=None) -> Scorer:
    """Fit ``score = u·z + v·tanh(W z + b)`` so that the softmax over each row's hypotheses
    gives the true one (``Y``) a high probability (Adam on mini-batches of ``batch`` rows)."""
    rng = np.random.default_rng(seed)
    N, H, F = X.shape
    flat = X.reshape(-1, F)
    mean = flat.mean(axis=0)
    std = flat.std(axis=0) + 1e-6
    Zall = ((X - mean) / std).astype(np.float32)
    wall = np.ones(N) if weight is None else np.asarray(weight, float)
    params = {"u": np.zeros(F), "W": rng.normal(0, 0.3 / np.sqrt(F), (hidden, F)),
              "b": np.zeros(hidden), "v": rng.normal(0, 0.1, hidden)}
    m = {k: np.zeros_like(p) for k, p in params.items()}
    s2 = {k: np.zeros_like(p) for k, p in params.items()}
    lr, b1, b2 = 0.03, 0.9, 0.999
    for it in range(1, iters + 1):
        pick = rng.choice(N, size=min(batch, N), replace=False) if batch < N else np.arange(N)
        Z, Yb, w = Zall[pick], Y[pick], wall[pick] / wall[pick].sum()
        rows = np.arange(len(pick))
        a = Z @ params["W"].T + params["b"]
        h = np.tanh(a)
        score = Z @ params["u"] + h @ params["v"]
        score -= score.max(axis=1, keepdims=True)
        p = np.exp(score)
        p /= p.sum(axis=1, keepdims=True)
        ds = p.copy()
        ds[rows, Yb] -= 1.0
        ds *= w[:, None]
        grads = {"u": np.einsum("nh,nhf->f", ds, Z), "v": np.einsum("nh,nhk->k", ds, h)}
        da = ds[..., None] * params["v"] * (1.0 - h * h)
        grads["W"] = np.einsum("nhk,nhf->kf", da, Z)
        grads["b"] = da.sum(axis=(0, 1))
        for k in params:
            g = grads[k] + l2 * params[k]
            m[k] = b1 * m[k] + (1 - b1) * g
            s2[k] = b2 * s2[k] + (1 - b2) * g * g
            params[k] -= lr * (m[k] / (1 - b1 ** it)) / (np.sqrt(s2[k] / (1 - b2 ** it)) + 1e-8)
        if log is not None and it % 500 == 0:
            loss = -np.sum(w * np.log(p[rows, Yb] + 1e-12))
            log(f"  iteration {it}: loss {loss:.4f}")
    return Scorer(mean, std, params["u"], params["W"], params["b"], params["v"])


def collect(frames: int, seed: int, log=print) -> Dataset:
    """Features of every square of ``frames`` rendered frames (see the module docstring)."""
    from companion.vision.terra.reader import TerraReader

    # features are collected before any scorer is fitted: a neutral one stands in for it
    untrained = HeightModel(Scorer.linear(np.zeros(len(FEATURE_NAMES))), FEATURE_NAMES)
    feats, heights, visible, frame = [], [], [], []
    t0 = time.perf_counter()
    for i in range(frames):
        scene, shot = corpus_item(seed, i, tilt_deg=TILTS[i % len(TILTS)])
        photo = photograph(scene, shot)
        reader = TerraReader(camera=shot.view.camera, layout=table_layout(), model=untrained,
                             colours=learn_colours(scene, shot))
        rows = reader.features_for_tuning(photo.image, np.asarray(photo.truth.heights))
        if rows is None:
            continue
        for sq, F in rows:
            feats.append(F)
            heights.append(photo.truth.heights[sq])
            visible.append(photo.truth.visible[sq])
            frame.append(i)
        if log and (i + 1) % 25 == 0:
            log(f"  {i + 1}/{frames} frames ({time.perf_counter() - t0:.0f} s)")
    return Dataset(np.array(feats), np.array(heights), np.array(visible), np.array(frame))


def accuracy(scorer: Scorer, X: np.ndarray, Y: np.ndarray, visible: np.ndarray) -> tuple[float, float]:
    pred = np.argmax(scorer(X), axis=1)
    seen = visible >= 0.25
    return float((pred == Y).mean()), float((pred[seen] == Y[seen]).mean()) if seen.any() else float("nan")


def weights(data: Dataset) -> np.ndarray:
    """How much each square counts: squares the camera can read, fully; hidden ones less."""
    return 0.3 + 0.7 * (data.visible >= 0.25)


def tune(frames: int = 240, seed: int = TUNING_SEED, *, hidden: int = 24, iters: int = 4000,
         dataset: str | None = None, log=print) -> HeightModel:
    if dataset and Path(dataset).exists():
        log(f"features from {dataset}")
        z = np.load(dataset)
        data = Dataset(z["features"], z["heights"], z["visible"], z["frame"])
    else:
        log(f"collecting features on {frames} frames")
        data = collect(frames, seed, log)
        if dataset:
            np.savez(dataset, features=data.features, heights=data.heights, visible=data.visible,
                     frame=data.frame)
    hold = data.frame % 5 == 4
    weight = weights(data)
    log("fitting the scorer")
    scorer = fit_scorer(data.features[~hold], data.heights[~hold], hidden=hidden, iters=iters,
                        weight=weight[~hold], log=log)
    log("held out: all %.4f, readable %.4f" % accuracy(scorer, data.features[hold], data.heights[hold],
                                                       data.visible[hold]))
    return HeightModel(scorer, FEATURE_NAMES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=240)
    parser.add_argument("--seed", type=int, default=TUNING_SEED)
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--iters", type=int, default=4000)
    parser.add_argument("--dataset", help="keep the collected features in this .npz (and reuse them)")
    parser.add_argument("--out", default=str(WEIGHTS_FILE))
    args = parser.parse_args(argv)
    model = tune(args.frames, args.seed, hidden=args.hidden, iters=args.iters, dataset=args.dataset)
    path = model.save(args.out)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
