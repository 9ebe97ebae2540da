"""Printed targets come out at true scale, and the detectors find what was printed."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from calibration.boards import (CHARUCO, COLOUR_SHEET, GLEEBS_BOARD, MARKER_MM,
                                TERRA_TURRIUM_BOARD, TableLayout)
from calibration.markers import detect_markers, unique_by_id
from calibration.printing import png_dpi
from calibration.targets import make_sheets, write_targets
from companion.errors import BadInput

DPI = 150.0
MM_PER_PX = 25.4 / DPI


@pytest.fixture(scope="module")
def sheets():
    return {s.name: s for s in make_sheets(DPI)}


def test_table_markers_are_40_mm(sheets):
    found = unique_by_id(detect_markers(sheets["table-markers"].page.image))
    assert set(found) == {0, 1, 2, 3}
    for det in found.values():
        assert det.side_px * MM_PER_PX == pytest.approx(MARKER_MM, abs=0.2)
    # laid out on the sheet as on the table, seen from above: 1 right of 0, 3 above 0
    assert found[1].centre[0] > found[0].centre[0] and found[3].centre[1] < found[0].centre[1]


@pytest.mark.parametrize("name,spec", [("gleebs-and-grues-board", GLEEBS_BOARD),
                                       ("terra-turrium-board", TERRA_TURRIUM_BOARD)])
def test_board_markers_lie_where_the_board_module_says(sheets, name, spec):
    found = unique_by_id(detect_markers(sheets[name].page.image))
    assert set(found) == {4, 5, 6, 7}
    origin = found[4].centre
    for m in spec.markers:
        seen = (found[m.id].centre - origin) * MM_PER_PX * np.array([1.0, -1.0])  # paper y is down
        expected = np.array(m.centre) - np.array(spec.marker(4).centre)
        assert np.allclose(seen, expected, atol=0.3), (m.id, seen, expected)
        assert found[m.id].side_px * MM_PER_PX == pytest.approx(m.size_mm, abs=0.2)


def test_charuco_board_is_found_whole(sheets):
    import cv2

    detector = cv2.aruco.CharucoDetector(CHARUCO.board())
    corners, ids, _, _ = detector.detectBoard(cv2.cvtColor(sheets["charuco"].page.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and len(ids) == (CHARUCO.squares_x - 1) * (CHARUCO.squares_y - 1)
    # corner spacing is the square size
    c = corners.reshape(-1, 2)
    assert np.linalg.norm(c[1] - c[0]) * MM_PER_PX == pytest.approx(CHARUCO.square_mm, abs=0.2)


def test_chessboard_sheet_is_found(sheets):
    import cv2

    grey = cv2.cvtColor(sheets["chessboard-9x6"].page.image, cv2.COLOR_BGR2GRAY)
    ok, corners = cv2.findChessboardCorners(grey, (9, 6))
    assert ok and np.linalg.norm(corners[1, 0] - corners[0, 0]) * MM_PER_PX == pytest.approx(24.0, abs=0.2)


def test_colour_sheet_markers(sheets):
    found = unique_by_id(detect_markers(sheets["colour-sheet"].page.image))
    assert set(found) == {8, 9, 10, 11}
    d = np.linalg.norm(found[9].centre - found[8].centre) * MM_PER_PX
    assert d == pytest.approx(COLOUR_SHEET.markers[1].centre[0] - COLOUR_SHEET.markers[0].centre[0], abs=0.3)


def pdf_pages(data: bytes) -> list[dict]:
    """Reads back the pages of the PDFs we write: media box and the inflated image."""
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    objs = {int(m.group(1)): m.group(2) for m in
            re.finditer(rb"(\d+) 0 obj\n(.*?)\nendobj\n", data, re.S)}
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    count = int(re.match(rb"xref\n0 (\d+)\n", data[start:]).group(1))
    entries = data[start:].split(b"\n")[3:3 + count - 1]   # after "xref", "0 N", the free entry
    for number, entry in enumerate(entries, start=1):        # every object where the table says
        offset = int(entry[:10])
        assert data[offset:].startswith(b"%d 0 obj" % number), number
    pages = []
    for body in objs.values():
        if body.startswith(b"<< /Type /Page "):
            box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", body).group(1).split()]
            img = objs[int(re.search(rb"/Im0 (\d+) 0 R", body).group(1))]
            w = int(re.search(rb"/Width (\d+)", img).group(1))
            h = int(re.search(rb"/Height (\d+)", img).group(1))
            raw = zlib.decompress(img.split(b"stream\n", 1)[1].rsplit(b"\nendstream", 1)[0])
            pages.append({"box": box, "rgb": np.frombuffer(raw, np.uint8).reshape(h, w, 3)})
    return pages


def test_written_files_carry_their_scale(tmp_path: Path):
    import cv2

    files = write_targets(tmp_path, dpi=DPI, names=["table-markers", "terra-turrium-board"])
    names = sorted(p.name for p in files)
    assert names == ["all-targets.pdf", "table-markers.pdf", "table-markers.png",
                     "terra-turrium-board.pdf", "terra-turrium-board.png"]
    png = (tmp_path / "table-markers.png").read_bytes()
    assert png_dpi(png) == pytest.approx(DPI, rel=1e-3)
    [page] = pdf_pages((tmp_path / "table-markers.pdf").read_bytes())
    assert page["box"] == pytest.approx([0, 0, 210 / 25.4 * 72, 297 / 25.4 * 72], abs=0.01)  # A4
    from_png = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(page["rgb"][:, :, ::-1], from_png)
    both = pdf_pages((tmp_path / "all-targets.pdf").read_bytes())
    assert len(both) == 2
    assert both[1]["box"][2:] == pytest.approx([420 / 25.4 * 72, 297 / 25.4 * 72], abs=0.01)  # A3


def test_table_sheet_states_the_layout():
    layout = TableLayout.rectangle(500, 700)
    assert layout.marker(2).centre == (500.0, 700.0)
    with pytest.raises(BadInput, match="out of range"):
        TableLayout.rectangle(10, 700)


@pytest.mark.parametrize("kwargs,match", [({"dpi": 20}, "out of range"),
                                          ({"names": ["poster"]}, "no sheet named")])
def test_bad_target_requests(tmp_path, kwargs, match):
    with pytest.raises(BadInput, match=match):
        write_targets(tmp_path, **kwargs)
