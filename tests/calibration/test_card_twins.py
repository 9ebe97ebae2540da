"""Cards printed alike (a deck's copies of one card) at enrolment: the library records them as
one design, the check that no two cards are confused treats them as one, look-alikes that were
not declared are named, the saved library keeps them, and the Altitude reader uses them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.store import Calibration, load_calibration, save_calibration
from companion.cli import main
from companion.errors import BadInput
from companion.synth.altitude.deck import load_deck
from companion.synth.altitude.enrol import enrolment_frames, enrolment_shot
from companion.synth.altitude.generate import table_layout
from companion.synth.card_faces import face_for
from companion.vision.altitude.faces import CardMatcher
from companion.vision.altitude.reader import make_reader
from companion.vision.cards import CardLibrary, library_path


def _faces() -> dict[str, np.ndarray]:
    """Two copies of the cable car and of the 7 (alike but for a small print-run mark), and a
    12: the copies score as alike as the same card seen twice."""
    out = {}
    for card_id, label, value, kind in (("tel1", "TELEPHERIQUE", None, "cable-car"),
                                        ("tel2", "TELEPHERIQUE", None, "cable-car"),
                                        ("m07a", "", 7, "number"), ("m07b", "", 7, "number"),
                                        ("m12", "", 12, "number")):
        out[card_id] = face_for(card_id, label, value, kind, 184)
    return out


@pytest.fixture(scope="module")
def library() -> CardLibrary:
    lib = CardLibrary("altitude")
    for name, face in _faces().items():
        lib.enroll(name, face)
    return lib


def test_copies_are_found_alike_until_declared_one_design(library):
    library.set_twins([])
    confused = {frozenset((a, b)) for a, b, _ in library.confusion_check()}
    assert frozenset(("tel1", "tel2")) in confused and frozenset(("m07a", "m07b")) in confused
    assert sorted(sorted(g) for g in library.look_alike_groups()) == [["m07a", "m07b"], ["tel1", "tel2"]]
    library.set_twins([["tel1", "tel2"], ["m07a", "m07b"]])
    assert library.twins == {"tel1": "tel1", "tel2": "tel1", "m07a": "m07a", "m07b": "m07a"}
    assert library.design("m12") == "m12"
    # one design each: no confusion left between copies, and nothing more to declare
    assert not any(frozenset((a, b)) <= {"tel1", "tel2"} or frozenset((a, b)) <= {"m07a", "m07b"}
                   for a, b, _ in library.confusion_check())
    assert library.look_alike_groups() == []


def test_twins_must_be_enrolled_and_in_one_group_only(library):
    with pytest.raises(BadInput, match="must be enrolled"):
        library.set_twins([["tel1", "tel9"]])
    with pytest.raises(BadInput, match="two groups"):
        library.set_twins([["tel1", "tel2"], ["tel2", "m12"]])


def test_the_saved_library_keeps_them_and_the_reader_uses_them(library, tmp_path: Path):
    library.set_twins({"tel1": "cable car", "tel2": "cable car"})
    path = library.save(tmp_path / "cards-altitude.npz")
    back = CardLibrary.load(path)
    assert back.twins == {"tel1": "cable car", "tel2": "cable car"}
    assert CardMatcher.from_library(back).twins == back.twins
    # a library saved before designs were recorded: every card its own design
    with np.load(path) as data:
        old = {k: data[k] for k in data.files if k != "designs"}
    np.savez_compressed(tmp_path / "old.npz", **old)
    assert CardLibrary.load(tmp_path / "old.npz").twins == {}


def test_calibrate_cards_for_altitude_records_the_decks_copies(data_dir: Path, tmp_path: Path,
                                                                 monkeypatch, capsys):
    """``companion calibrate cards --game altitude --manifest mini`` on the frames a table
    camera takes of each card: the manifest's copies (cable cars, avalanches, Saint-Bernards)
    are saved as cards printed alike, no warning is given for them, and the reader built from
    the calibration reads with them."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data_dir))
    shot = enrolment_shot(seed=4, height_mm=1000.0, hfov_deg=78.0)
    save_calibration(Calibration(camera=shot.view.camera, layout=table_layout()), data_dir / "calibration.json")
    names = ["m03", "m09", "tel1", "tel2", "ava1", "ava2", "back"]
    deck = tuple(c for c in load_deck("mini") if c.id in names)
    frames = tmp_path / "frames"
    frames.mkdir()
    for name, images in enrolment_frames(deck, shot).items():
        cv2.imwrite(str(frames / f"{name}.png"), images[0])
    code = main(["calibrate", "cards", "--game", "altitude", "--manifest", "mini", "--cards",
                 ",".join(names), "--from-dir", str(frames)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "enrolled 7 cards (5 designs" in out.out
    assert "printed alike" not in out.err and "ava1 and ava2" not in out.err
    lib = CardLibrary.load(library_path("altitude", data_dir))
    assert lib.twins == {"tel1": "tel1", "tel2": "tel1", "ava1": "ava1", "ava2": "ava1"}
    reader = make_reader(calibration=load_calibration(data_dir / "calibration.json"), size=(1280, 720))
    assert reader.matcher.twins == lib.twins


def test_calibrate_cards_refuses_unknown_or_lonely_twins(data_dir: Path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data_dir))
    assert main(["calibrate", "cards", "--game", "altitude", "--cards", "a,b", "--twins", "a=c"]) != 0
    assert "not enrolled: c" in capsys.readouterr().err
    assert main(["calibrate", "cards", "--game", "altitude", "--cards", "a,b", "--twins", "a"]) != 0
    assert "names one card" in capsys.readouterr().err
