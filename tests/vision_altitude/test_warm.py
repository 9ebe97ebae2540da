"""The warm reading (:mod:`companion.vision.altitude.warm`): after a move, only the parts of the
table whose pixels changed are read again, and the reading is what a cold reader reads."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.synth.altitude.generate import random_hand
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.scene import PileCard

from .test_reader import _camera_view, _keys, _reader, _scene, _shot


def _noisy(image: np.ndarray, seed: int) -> np.ndarray:
    """Another frame of the same still table: the sensor's noise drawn again."""
    rng = np.random.default_rng(seed)
    return np.clip(image.astype(np.int16) + rng.normal(0.0, 2.0, image.shape).round().astype(np.int16),
                   0, 255).astype(np.uint8)


def _moved(scene):
    """Red's top card (the 13) taken from its mountain and thrown on the discard pile."""
    red = scene.mountains[0]
    red = replace(red, cards=tuple(c for c in red.cards if c.card != "m13"))
    return replace(scene, mountains=(red,) + scene.mountains[1:],
                   discard=scene.discard + (PileCard("m13", (1.0, 1.0), 4.0),))


def test_after_a_move_only_what_it_touched_is_read_again(mini_deck, mini_library):
    scene = _scene(mini_deck)
    view = _camera_view(14.0, 200.0)
    before = photograph(scene, _shot(view, 2))
    after = photograph(_moved(scene), _shot(view, 2))
    reader = _reader(mini_library, view)
    first = reader.read_all(before.image)
    assert first.warm == ()
    # the same table again: every part as it was read
    again = reader.read_all(_noisy(before.image, 1))
    assert set(again.warm) == {"mountain:red", "mountain:yellow", "mountain:blue", "discard", "deck",
                               "kept:red", "kept:yellow", "kept:blue"}
    # the move: red's mountain and the discard pile read again, the rows kept; the mountains
    # whose overviews the discard pile's edge falls in are looked at again, but their cards,
    # whose own pixels did not change, keep their readings (yellow's 2 and blue's 6 at least)
    moved = reader.read_all(_noisy(after.image, 2))
    assert "mountain:red" not in moved.warm and "discard" not in moved.warm
    assert {"kept:red", "kept:yellow", "kept:blue"} <= set(moved.warm)
    assert moved.cards_kept >= 8
    warm_seen = reader.read(_noisy(after.image, 3))
    cold_seen = _reader(mini_library, view).read(after.image)
    assert warm_seen is not None and cold_seen is not None
    assert _keys(warm_seen) == _keys(cold_seen)
    red = sorted((p.get("etage"), p.get("pos"), p.get("card")) for p in warm_seen.pieces
                 if p.zone == "player:red")
    assert (3, 0, "m13") not in red and len(red) == 5
    assert [p.get("card") for p in warm_seen.pieces if p.zone == "discard"] == ["m13"]


def test_an_arm_frame_is_never_kept_and_the_table_after_it_is_read_as_before(mini_deck, mini_library):
    scene = _scene(mini_deck)
    view = _camera_view(12.0, 150.0)
    still = photograph(scene, _shot(view, 1))
    arm = photograph(scene.with_hand(random_hand(np.random.default_rng(1), scene, (180.0, 90.0))),
                     _shot(view, 1))
    assert arm.truth.hand_over_table
    reader = _reader(mini_library, view)
    first = reader.read(still.image)
    seen = reader.read(arm.image)
    assert seen is not None and seen.hand and seen.pieces == ()
    back = reader.read_all(_noisy(still.image, 4))
    assert "mountain:red" in back.warm and back.hand is not None and not back.hand.hand
    assert _keys(reader.read(still.image)) == _keys(first)


def test_a_cold_reader_reads_every_frame_afresh(mini_deck, mini_library):
    scene = _scene(mini_deck)
    view = _camera_view(4.0, 90.0)
    photo = photograph(scene, _shot(view, 1))
    reader = _reader(mini_library, view)
    reader.warm = False
    reader.read_all(photo.image)
    assert reader.read_all(photo.image).warm == ()
    reader.warm = True
    reader.read_all(photo.image)
    assert reader.read_all(photo.image).warm != ()
    reader.forget()
    assert reader.read_all(photo.image).warm == ()
