"""A card the reader could not read, its colour field parted in two by the pale band across its
face, is no arm (issue 8).

On a table top as light as a card's white border (a pale laminate in dim light), a card left
unread shows as its colour field alone, and the band across its face (the mountain drawn on a
pale ground) looks like the table: the field is two patches, a square above the band and a strip
below it, neither shaped like a card, and the larger (about 2200 mm²) was taken for an arm. The
patches a card's band parts are judged together."""

from __future__ import annotations

import numpy as np

from companion.vision.altitude import hands
from companion.vision.altitude.layout import CARD_MM

PPM = 0.5  # the reader's hand check looks at half a pixel a millimetre
TABLE = np.array([150.0, 140.0, 135.0], np.float32)   # a pale grey laminate (BGR)
WHITE = np.array([235.0, 235.0, 235.0], np.float32)


def _table(seed: int, size_mm=(400, 300)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    h, w = int(size_mm[1] * PPM), int(size_mm[0] * PPM)
    img = TABLE[None, None, :] + rng.normal(0, 2.0, (h, w, 3)).astype(np.float32)
    return np.clip(img, 0, 255)


def _split_card(img: np.ndarray, x_mm: float, y_mm: float, field=(120.0, 80.0, 30.0)) -> None:
    """An upright card whose border and band look like the table: its blue field shows as a
    square above the band and a strip below it."""
    w, h = CARD_MM
    px = lambda v: int(round(v * PPM))  # noqa: E731
    b = 3.5
    img[px(y_mm + b):px(y_mm + h - b), px(x_mm + b):px(x_mm + w - b)] = np.array(field, np.float32)
    band0, band1 = y_mm + 0.58 * h, y_mm + 0.58 * h + 21.0
    img[px(band0):px(band1), px(x_mm + b):px(x_mm + w - b)] = TABLE


def _measure(img: np.ndarray, card_aware: bool = True) -> float:
    inside = np.ones(img.shape[:2], bool)
    cards = np.zeros(img.shape[:2], bool)
    return hands.unexplained(img.astype(np.uint8), inside, cards, WHITE, PPM, CARD_MM if card_aware else None)


def test_a_card_parted_by_its_band_is_no_arm():
    img = _table(3)
    _split_card(img, 160.0, 90.0)
    # the part above the band alone is no card's shape and larger than an arm's least patch ...
    assert _measure(img, card_aware=False) >= hands.PATCH_MM2
    # ... but with the strip below the band it is a card's field
    assert _measure(img) < hands.PATCH_MM2


def test_a_hand_beside_a_card_parted_by_its_band_is_still_an_arm():
    img = _table(4)
    _split_card(img, 160.0, 90.0)
    # a forearm reaching in from the area's edge towards the card, and a fist beside it
    skin = np.array([90.0, 120.0, 190.0], np.float32)
    y0, y1 = int(120 * PPM), int(160 * PPM)
    img[y0:y1, :int(150 * PPM)] = skin
    assert _measure(img) >= hands.PATCH_MM2
    img = _table(5)
    _split_card(img, 160.0, 90.0)
    img[int(100 * PPM):int(170 * PPM), int(60 * PPM):int(130 * PPM)] = skin
    assert _measure(img) >= hands.PATCH_MM2
