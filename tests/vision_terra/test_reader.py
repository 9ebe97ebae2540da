"""The Terra Turrium reader on rendered frames: heights and flags read exactly where the camera
sees them, arms never read as positions, bad frames refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import BadInput
from companion.observation import Observation
from companion.synth.terra.corpus import score
from companion.vision.frames import Frame
from companion.vision.readers import make_reader
from companion.vision.terra.reader import annotate


def test_heights_and_flags_are_read_from_tilted_cameras(tilted_frames):
    totals: dict[str, int] = {}
    for item, reader in tilted_frames:
        seen = reader.read(Frame(item.image, 0, 0.0))
        assert seen is not None and not seen.hand
        assert seen.game == "terra-turrium"
        for k, v in score(item.truth, seen).items():
            totals[k] = totals.get(k, 0) + v
    # a reader guessing the commonest height would be right on about a third of the squares
    assert totals["squares_right"] / totals["squares"] >= 0.93
    assert totals["towers_right"] / totals["towers"] >= 0.92
    assert totals["flags_right"] / totals["flags"] >= 0.9
    assert totals["flags_read_right"] / totals["flags_read"] >= 0.9


def test_readings_carry_confidences_that_mean_something(tilted_frames):
    right, wrong = [], []
    for item, reader in tilted_frames:
        seen = reader.read(item.image)
        truth = {p.cell: p.level for p in item.truth.observation.of_kind("tower")}
        for p in seen.of_kind("tower"):
            sq = p.cell[1] * 10 + p.cell[0]
            if not item.truth.readable(sq):
                continue
            (right if truth.get(p.cell) == p.level else wrong).append(p.conf)
        assert all(0.0 < p.conf <= 1.0 for p in seen.pieces)
    assert np.mean(right) > 0.9
    if wrong:
        assert np.mean(wrong) < np.mean(right) - 0.1


#: an arm covering at least this many squares' tops (a hand reaching in to move blocks) is always
#: caught in a single frame; a hand barely over the board (one or two squares, e.g. a dark arm
#: over dark wood held high) is not always: BENCHMARKS.md reports those frames. In the live loop
#: a moving hand is also kept out by the stillness gate.
ARM_SQUARES = 3.0


def test_an_arm_reaching_over_the_board_is_never_read_as_a_position(hand_frames):
    reaching = [(item, reader) for item, reader in hand_frames
                if sum(item.truth.hand_cover) >= ARM_SQUARES]
    assert len(reaching) >= 4, [round(sum(i.truth.hand_cover), 1) for i, _ in hand_frames]
    for item, reader in reaching:
        seen = reader.read(item.image)
        assert seen is None or (seen.hand and not seen.pieces), f"frame {item.index}: {seen}"


def test_a_frame_without_the_board_gives_nothing(tilted_frames):
    item, reader = tilted_frames[0]
    blank = np.full_like(item.image, 128)
    assert reader.read(blank) is None


def test_a_frame_that_is_not_a_colour_image_is_refused(tilted_frames):
    _, reader = tilted_frames[0]
    with pytest.raises(BadInput, match="colour"):
        reader.read(np.zeros((20, 20), np.uint8))


def test_the_reading_is_drawn_over_the_frame(tilted_frames):
    item, reader = tilted_frames[0]
    seen = reader.read(item.image)
    out = annotate(item.image, seen, reader=reader)
    assert out.shape == item.image.shape and out.dtype == np.uint8
    changed = np.any(out != item.image, axis=2)
    assert changed.sum() > 2000  # every tower's outline and every flag's ring
    assert not np.array_equal(annotate(item.image, Observation("terra-turrium", hand=True)), item.image)


def test_the_registry_builds_the_reader_from_a_calibration(tilted_frames):
    from calibration.store import Calibration
    from companion.synth.terra.generate import table_layout

    item, _ = tilted_frames[1]
    cal = Calibration(camera=item.shot.view.camera, layout=table_layout())
    reader = make_reader("terra-turrium", calibration=cal, size=(1280, 720))
    seen = reader.read(item.image)
    assert seen is not None and len(list(seen.of_kind("tower"))) > 20
    with pytest.raises(BadInput, match="takes no"):
        make_reader("terra-turrium", lattice=1)
