"""Card faces for the synthetic table: six distinct HLC designs, manifest cards, exact sizes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from companion.errors import BadInput
from companion.synth.card_faces import CARD_MM, HLC_CARDS, face_for, hlc_face


def test_six_hlc_faces_at_the_card_aspect():
    assert set(HLC_CARDS) == {"moaveou", "napozla", "pousstoia", "nenlevsa", "hopla", "tvavoartoa"}
    for name in HLC_CARDS:
        img = hlc_face(name, 184)
        assert img.dtype == np.uint8 and img.shape == (184, round(184 * CARD_MM[0] / CARD_MM[1]), 3)
    assert hlc_face("hopla", (50, 80)).shape == (80, 50, 3)


def test_hlc_faces_differ_in_colour_and_in_drawing():
    faces = {n: hlc_face(n, 184).astype(np.float32) for n in HLC_CARDS}
    for a, b in itertools.combinations(faces, 2):
        mean_gap = np.abs(faces[a].mean(axis=(0, 1)) - faces[b].mean(axis=(0, 1))).max()
        ga, gb = faces[a].mean(axis=2), faces[b].mean(axis=2)
        corr = np.corrcoef(ga.ravel(), gb.ravel())[0, 1]
        assert mean_gap > 15 or corr < 0.6, (a, b, mean_gap, corr)


def test_faces_are_deterministic_and_callers_cannot_spoil_the_cache():
    a = hlc_face("napozla", 200)
    a[:] = 0
    assert hlc_face("napozla", 200).max() > 0
    assert np.array_equal(face_for("c7", "marmotte", 7, "animal", 120),
                          face_for("c7", "marmotte", 7, "animal", 120))


def test_manifest_faces_show_their_value_and_kind():
    seven = face_for("c1", "", 7, "number", 184).astype(np.float32)
    eight = face_for("c2", "", 8, "number", 184).astype(np.float32)
    animal = face_for("c3", "bouquetin", 7, "animal", 184).astype(np.float32)
    assert np.abs(seven - eight).mean() > 3
    assert np.abs(seven - animal).mean() > 3
    for kind in ("cable-car", "avalanche", "saint-bernard", "something-new"):
        assert face_for("k-" + kind, "", None, kind, 92).shape == (92, 59, 3)


@pytest.mark.parametrize("call,match", [
    (lambda: hlc_face("teleport"), "no Haut les Cubes card"),
    (lambda: hlc_face("hopla", 2), "out of range"),
    (lambda: face_for("", "x", 1, "number"), "non-empty"),
    (lambda: face_for("c", "x", "seven", "number"), "integer"),
])
def test_bad_card_requests_are_refused(call, match):
    with pytest.raises(BadInput, match=match):
        call()
