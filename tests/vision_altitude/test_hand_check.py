"""The hand check on random tables: a frame with no arm is read (a card the reader could not read
is no arm), and an arm over the table is never read as a position.

The unexplained-patch measure is tested on drawn patches (what is and is not card-shaped), then
the whole reader on a few rendered tables of the corpus (the ``mini`` deck, the table kit's range
of cameras and lights, a third of the frames with an arm)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.synth.altitude.corpus import corpus, score
from companion.synth.altitude.generate import table_layout
from companion.vision.altitude import hands
from companion.vision.altitude.layout import CARD_MM
from companion.vision.altitude.reader import make_reader

PPM = 0.5  # the reader's hand check looks at half a pixel a millimetre
WHITE = np.array([235.0, 235.0, 235.0], np.float32)


def _table(seed: int, size_mm=(400, 300)) -> np.ndarray:
    """A brownish table top with some grain and noise (BGR, at :data:`PPM`)."""
    rng = np.random.default_rng(seed)
    h, w = int(size_mm[1] * PPM), int(size_mm[0] * PPM)
    base = np.array([60.0, 95.0, 140.0], np.float32)
    grain = 8.0 * np.sin(np.arange(h, dtype=np.float32)[:, None] * 0.9 + rng.uniform(0, 6))
    img = base[None, None, :] + grain[..., None] + rng.normal(0, 3.0, (h, w, 3)).astype(np.float32)
    return np.clip(img, 0, 255)


def _card(img: np.ndarray, x_mm: float, y_mm: float, field=(200.0, 195.0, 190.0), lower_half=False) -> None:
    """A pale card (an avalanche: its field nearly as light as its border) drawn upright."""
    w, h = CARD_MM[0], CARD_MM[1] / (2 if lower_half else 1)
    x0, y0, x1, y1 = (int(round(v * PPM)) for v in (x_mm, y_mm, x_mm + w, y_mm + h))
    img[y0:y1, x0:x1] = WHITE
    b = int(round(3 * PPM))
    img[y0 + b:y1 - b, x0 + b:x1 - b] = np.array(field, np.float32)


def _measure(img: np.ndarray, card_aware: bool = True) -> float:
    inside = np.ones(img.shape[:2], bool)
    cards = np.zeros(img.shape[:2], bool)
    return hands.unexplained(img.astype(np.uint8), inside, cards, WHITE, PPM,
                             CARD_MM if card_aware else None)


@pytest.mark.parametrize("lower_half", [False, True])
def test_a_card_not_read_is_no_arm(lower_half):
    img = _table(1)
    _card(img, 150.0, 100.0, lower_half=lower_half)
    # unexplained it is (neither the table nor a card read) ...
    assert _measure(img, card_aware=False) >= hands.PATCH_MM2
    # ... but shaped like a card (or a card's lower half, the rest under the cards above)
    assert _measure(img) < hands.PATCH_MM2


def test_an_arm_reaching_in_or_a_fist_is_still_an_arm():
    skin = np.array([90.0, 120.0, 190.0], np.float32)
    sleeve = np.array([160.0, 60.0, 40.0], np.float32)
    arm = _table(2)
    # a forearm from the edge of the area to a hand over the table
    arm[60:95, 0:110] = sleeve
    arm[62:93, 110:150] = skin
    assert _measure(arm) >= hands.PATCH_MM2
    # a fist alone, away from the edges: about as big as a card's lower half, but round
    fist = _table(3)
    yy, xx = np.mgrid[0:fist.shape[0], 0:fist.shape[1]]
    fist[(yy - 75) ** 2 + (xx - 100) ** 2 <= 14 ** 2] = skin
    assert _measure(fist) >= hands.PATCH_MM2


def test_random_tables_clean_frames_read_and_arms_refused(mini_library):
    """Ten tables of the corpus (seed 11): measured, the four arm frames are all refused and
    five of the six clean frames are read (the sixth: a camera so far that no card is read);
    the cards of the frames read are nearly all right."""
    arms = refused = clean = right = total = 0
    for item in corpus(10, 11, deck="mini", hand_probability=0.35):
        seats = tuple(m.seat for m in item.scene.mountains)
        reader = make_reader(camera=item.shot.view.camera, table_layout=table_layout(item.scene.layout),
                             cards=mini_library, seats=seats)
        seen = reader.read(item.image)
        assert seen is not None
        if item.truth.hand_over_table:
            arms += 1
            assert seen.hand and seen.pieces == ()
            continue
        clean += 1
        if seen.hand:
            refused += 1
            continue
        s = score(item.truth, seen)
        right += s["cards_right"]
        total += s["cards"]
        assert s["extra"] == 0
    assert arms >= 3 and clean >= 5
    assert refused <= 1
    assert right >= 0.9 * total
