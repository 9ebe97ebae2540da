"""The Altitude reader on rendered frames with exact ground truth: every mountain card by card in
its slot, the discard's top, the card shown on the deck and the cards kept at the end; an arm
never read as a position; a bad image refused clearly; no table, no observation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.errors import BadInput
from companion.synth.altitude.corpus import score
from companion.synth.altitude.generate import random_hand, table_layout
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.scene import AltitudeScene, Mountain, MountainCard, PileCard
from companion.synth.scene import Light, Shot
from companion.vision.altitude.layout import DEFAULT_LAYOUT
from companion.vision.altitude.reader import AltitudeReader, make_reader
from companion.vision.camera import CameraModel, TablePose, View

LAY = DEFAULT_LAYOUT


def _camera_view(tilt: float, az_deg: float, *, height: float = 950.0, hfov: float = 76.0) -> View:
    w, h = 1280, 720
    f = (w / 2) / math.tan(math.radians(hfov) / 2)
    cam = CameraModel(f, f, (w - 1) / 2 + 6.0, (h - 1) / 2 - 4.0, (w, h), (-0.12, 0.04, 0.0, 0.0, 0.0),
                      source="synthetic")
    tw, td = LAY.table_mm
    a = math.radians(az_deg)
    back = height * math.tan(math.radians(tilt))
    eye = (tw / 2 - math.cos(a) * back, td / 2 - math.sin(a) * back, height)
    return View(cam, TablePose.look_at(eye, (tw / 2, td / 2, 0.0), (math.cos(a), math.sin(a), 0.0)))


def _shot(view: View, seed: int, light: str = "daylight") -> Shot:
    return Shot(view=view, light=Light(35.0, 60.0, (0.75, 0.72, 0.68), (0.33, 0.33, 0.35), light),
                table="wood", table_variant=seed % 3, noise=2.0, blur=0.6, jpeg=88, exposure=0.45, seed=seed)


def _mountains() -> tuple[Mountain, ...]:
    # red: the rule text's mountain, laid from pos -1 (the reader counts from its leftmost base
    # card); yellow: two cards; blue: a base of four with two cards on it
    red = Mountain("red", (150.0, 56.0), (
        MountainCard(1, -1, "m08", (1.0, -0.5, 1.5)), MountainCard(1, 0, "m05", (-1.2, 0.4, -1.0)),
        MountainCard(1, 1, "m02", (0.3, 1.1, 0.5)), MountainCard(2, -1, "m09", (0.8, 0.2, -2.0)),
        MountainCard(2, 0, "tel2", (-0.6, -0.9, 1.0)), MountainCard(3, -1, "m13", (0.0, 0.7, 0.3))))
    yellow = Mountain("yellow", (180.0, 58.0), (
        MountainCard(1, 0, "m03", (0.5, 0.5, -1.0)), MountainCard(1, 1, "ava1", (-1.0, 1.5, 2.0))))
    blue = Mountain("blue", (120.0, 55.0), (
        MountainCard(1, 0, "m10", (2.0, -1.0, 0.5)), MountainCard(1, 1, "m12", (-0.4, 0.8, -2.5)),
        MountainCard(1, 2, "chamois", (1.4, 0.0, 1.0)), MountainCard(1, 3, "m01", (0.0, -1.8, -0.5)),
        MountainCard(2, 0, "m14", (-1.0, 1.0, 2.0)), MountainCard(2, 2, "stb1", (0.6, 0.4, -1.5))))
    return red, yellow, blue


def _scene(deck) -> AltitudeScene:
    return AltitudeScene(deck, _mountains(), discard=(PileCard("m11", (-3.0, 2.0), -7.0),
                                                      PileCard("ava2", (2.0, -1.0), 5.0)),
                         deck_size=9, deck_jitter=(1.0, -1.0, 2.0), drawn=PileCard("m06", (1.5, 1.0), 3.0))


def _keys(observation) -> list[tuple]:
    return sorted((p.kind, p.zone, p.get("card"), p.get("etage"), p.get("pos")) for p in observation.pieces)


def _reader(library, view: View, seats=("red", "yellow", "blue")) -> AltitudeReader:
    return make_reader(camera=view.camera, table_layout=table_layout(LAY), cards=library, seats=seats)


@pytest.mark.parametrize("tilt,az,seed", [(4.0, 90.0, 1), (14.0, 200.0, 2), (22.0, 310.0, 3)])
def test_every_card_is_read_in_its_slot(mini_deck, mini_library, tilt, az, seed):
    scene = _scene(mini_deck)
    view = _camera_view(tilt, az)
    photo = photograph(scene, _shot(view, seed))
    seen = _reader(mini_library, view).read(photo.image)
    assert seen is not None and not seen.hand
    s = score(photo.truth, seen)
    # every card in its slot, nothing extra; of the cards others rest on, at most one misread
    # (a 10 and a 13 differ, under the card on the 10's upper half, by two small print marks
    # and their field's colour: measured, one view in three takes the one for the other)
    assert s["extra"] == 0 and s["cards"] == 16
    assert s["full_right"] == s["full"] and s["discard_right"] == 1 and s["drawn_right"] == 1
    assert s["cards_right"] >= s["cards"] - 1
    slots = sorted(k[1:] for k in _keys(seen))
    assert slots == sorted(k[1:] for k in _keys(photo.truth.observation)) or \
        len(set(slots) ^ set(k[1:] for k in _keys(photo.truth.observation))) == 2
    # the discard's top only, the shown card, and nothing for the deck's back
    assert [p.get("card") for p in seen.pieces if p.zone == "discard"] == ["ava2"]
    assert [p.get("card") for p in seen.pieces if p.zone == "drawn"] == ["m06"]
    # confidences are probabilities, and a card read whole is read surely
    assert all(0.0 < p.conf <= 0.995 for p in seen.pieces)
    top = next(p for p in seen.pieces if p.get("card") == "m13")
    assert top.conf > 0.9
    # each card lies where the truth has it (a few millimetres: hand-laid cards)
    laid = {(t.piece.zone, t.piece.get("etage"), t.piece.get("pos")): c.centre
            for c, t in zip(scene.laid(), photo.truth.cards) if c.role == "mountain"}
    for p in seen.pieces:
        if p.zone.startswith("player:"):
            x, y = laid[(p.zone, p.get("etage"), p.get("pos"))]
            assert np.hypot(p.xyz[0] - x, p.xyz[1] - y) < 6.0


def test_the_cards_kept_at_the_end_are_read_face_up_or_as_backs(mini_deck, mini_library):
    scene = AltitudeScene(mini_deck, _mountains()[:1], discard=(PileCard("m04"),),
                          kept=(("red", (PileCard("stb2", (1.0, 0.5), 2.0), PileCard(None, (-1.0, 0.0), -2.0),
                                         PileCard("m07", (0.0, 1.0), 1.0))),))
    view = _camera_view(10.0, 120.0)
    photo = photograph(scene, _shot(view, 5))
    seen = _reader(mini_library, view, seats=("red",)).read(photo.image)
    assert seen is not None and not seen.hand
    assert _keys(seen) == _keys(photo.truth.observation)
    kept = sorted((p.kind, p.get("card")) for p in seen.pieces if p.zone == "hand:red")
    assert kept == [("card", "m07"), ("card", "stb2"), ("card_back", None)]


@pytest.mark.parametrize("seed,where", [(1, (180.0, 90.0)), (2, (400.0, 400.0)), (3, (600.0, 250.0))])
def test_an_arm_over_the_table_is_never_read_as_a_position(mini_deck, mini_library, seed, where):
    scene = _scene(mini_deck)
    rng = np.random.default_rng(seed)
    arm = scene.with_hand(random_hand(rng, scene, where))
    view = _camera_view(12.0, 90.0 + 60.0 * seed)
    photo = photograph(arm, _shot(view, seed))
    assert photo.truth.hand_over_table
    seen = _reader(mini_library, view).read(photo.image)
    assert seen is not None and seen.hand and seen.pieces == ()


def test_a_bad_image_is_refused_clearly(mini_library):
    reader = _reader(mini_library, _camera_view(5.0, 90.0))
    for bad in (np.zeros((720, 1280), np.uint8), np.zeros((720, 1280, 4), np.uint8), None, "frame.png"):
        with pytest.raises(BadInput, match="colour \\(BGR\\) image"):
            reader.read(bad)


def test_no_table_in_view_gives_no_observation(mini_library):
    reader = _reader(mini_library, _camera_view(5.0, 90.0))
    rng = np.random.default_rng(0)
    assert reader.read(np.full((720, 1280, 3), 128, np.uint8)) is None
    assert reader.read(rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8)) is None


def test_a_reader_without_enrolled_cards_or_with_a_wrong_seat_says_what_to_do(mini_library):
    with pytest.raises(BadInput) as err:
        make_reader(camera=_camera_view(5.0, 90.0).camera)
    assert "calibrate cards --game altitude" in str(err.value.hint)
    with pytest.raises(BadInput, match="unknown seat"):
        AltitudeReader(cards=mini_library, seats=("purple",))
