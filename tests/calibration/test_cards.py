"""Cards enrolled once are recognised in the played-card zone despite light, turn, blur, JPEG."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scenes import camera_view, paste_image, render, wood_table

from companion.errors import BadInput
from companion.synth.card_faces import HLC_CARDS, face_for, hlc_face
from companion.vision.cards import CardLibrary, library_path, rectify_zone

ZONE = [(240.0, 90.0), (360.0, 90.0), (360.0, 220.0), (240.0, 220.0)]  # table mm, roomy
#: a zone only 5 mm wider than the card all round (the Haut les Cubes layout's played-card zone)
TIGHT_ZONE = [(265.0, 207.0), (335.0, 207.0), (335.0, 103.0), (265.0, 103.0)]
LIGHTS = [(1.0, 1.0, 1.0), (0.6, 0.9, 1.3), (1.2, 1.0, 0.7), (0.5, 0.5, 0.5)]


@pytest.fixture(scope="module")
def library() -> CardLibrary:
    lib = CardLibrary("haut-les-cubes")
    for name in HLC_CARDS:
        lib.enroll(name, hlc_face(name, 368))
    return lib


def table_shot(name_or_face, k: int, rng: np.random.Generator, *, tilt=None, light=None,
               turn: float = 12.0, shift: float = 12.0):
    face = hlc_face(name_or_face, 368) if isinstance(name_or_face, str) else name_or_face
    tex = wood_table(150, 20, 450, 320, seed=k)
    yaw = rng.uniform(-turn, turn) + (180 if k % 4 == 3 else 0)
    centre = (300 + rng.uniform(-shift, shift), 155 + rng.uniform(-shift, shift))
    if face is not None:
        paste_image(tex, face, centre, (59, 92), yaw)
    view = camera_view([0, 20, 35][k % 3] if tilt is None else tilt, target=(300, 200),
                       distance_mm=rng.uniform(700, 1000))
    image = render(tex, view, blur=1.0, noise=3.0, light=LIGHTS[k % 4] if light is None else light,
                   seed=k, jpeg=60, supersample=1)
    return image, view


@pytest.mark.parametrize("zone,turn,shift", [(ZONE, 12.0, 12.0), (TIGHT_ZONE, 5.0, 4.0)])
def test_all_six_faces_are_recognised_on_the_table(library, zone, turn, shift):
    """Straight down, 20° and 35° tilt; white, cold, warm and dim light; blur, noise, JPEG 60;
    the card turned and shifted in the zone, one in four upside down."""
    rng = np.random.default_rng(0)
    for k, name in enumerate(list(HLC_CARDS) * 2):
        image, view = table_shot(name, k, rng, turn=turn, shift=shift)
        match = library.recognise_in_view(image, zone, view)
        assert match.name == name, (k, name, match)
        assert match.confidence > 0.5


def test_cut_out_cards_are_recognised_turned_darker_and_blurred(library):
    rng = np.random.default_rng(1)
    for name in HLC_CARDS:
        face = hlc_face(name, 184).astype(np.float32)
        for turn in (0, 180):
            img = face * np.array([0.7, 0.9, 1.25]) * 0.7            # a dim, warm light
            img = cv2.GaussianBlur(img, (0, 0), 1.5) + rng.normal(0, 5, img.shape)
            img = np.clip(img, 0, 255).astype(np.uint8)
            img = cv2.warpAffine(img, cv2.getRotationMatrix2D((59, 92), 4.0, 1.0), (118, 184),
                                 borderMode=cv2.BORDER_REPLICATE)
            if turn:
                img = cv2.rotate(img, cv2.ROTATE_180)
            got, conf = library.recognise(img)
            assert got == name and conf > 0.5, (name, turn, got, conf)


def test_an_empty_zone_or_a_card_never_enrolled_is_not_named(library):
    rng = np.random.default_rng(2)
    image, view = table_shot(None, 0, rng)
    assert library.recognise_in_view(image, ZONE, view).name is None
    stranger = face_for("alt-7", "marmotte", 7, "animal", 368)
    image, view = table_shot(stranger, 1, rng)
    match = library.recognise_in_view(image, ZONE, view)
    assert match.name is None or match.confidence < 0.3, match


def test_confusion_check_flags_near_identical_cards(library):
    assert library.confusion_check() == []
    lib = CardLibrary("altitude")
    lib.enroll("avalanche-1", face_for("a1", "", None, "avalanche", 184))
    lib.enroll("avalanche-2", face_for("a2", "", None, "avalanche", 184))
    lib.enroll("seven", face_for("s7", "", 7, "number", 184))
    flagged = lib.confusion_check()
    assert [(a, b) for a, b, _ in flagged] == [("avalanche-1", "avalanche-2")]
    assert flagged[0][2] > 0.8


def test_enrolling_by_showing_each_card_to_the_camera(tmp_path: Path):
    rng = np.random.default_rng(3)
    lib = CardLibrary("haut-les-cubes")
    for k, name in enumerate(HLC_CARDS):
        frames = [table_shot(name, 10 + k, np.random.default_rng(k), tilt=20, light=(1, 1, 1))[0]
                  for _ in range(2)]
        view = table_shot(name, 10 + k, np.random.default_rng(k), tilt=20, light=(1, 1, 1))[1]
        face = lib.enroll_from_view(name, frames, ZONE, view)
        assert face.shape == (184, 118, 3)
    assert lib.confusion_check() == []
    path = lib.save(library_path("haut-les-cubes", tmp_path))
    again = CardLibrary.load(path)
    assert again.names == lib.names and again.game == "haut-les-cubes"
    for k, name in enumerate(HLC_CARDS):
        image, view = table_shot(name, 40 + k, rng)
        assert again.recognise_in_view(image, ZONE, view).name == name


def test_bad_inputs_are_refused_clearly(tmp_path: Path, library):
    with pytest.raises(BadInput, match="no card enrolled"):
        CardLibrary().recognise(hlc_face("hopla", 184))
    with pytest.raises(BadInput, match="not a card image"):
        library.enroll("x", np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(BadInput, match="needs a name"):
        library.enroll("  ", hlc_face("hopla", 184))
    rng = np.random.default_rng(4)
    image, view = table_shot(None, 0, rng)
    with pytest.raises(BadInput, match="no card seen in the zone"):
        CardLibrary().enroll_from_view("hopla", [image], ZONE, view)
    with pytest.raises(BadInput, match="too small or too large"):
        rectify_zone(image, [(0, 0), (2, 0), (2, 2)], view)
    with pytest.raises(BadInput, match="no enrolled cards"):
        CardLibrary.load(tmp_path / "none.npz")
    broken = tmp_path / "cards-x.npz"
    broken.write_bytes(b"PK\x03\x04 this is not a real archive")
    with pytest.raises(BadInput, match="damaged card library"):
        CardLibrary.load(broken)
