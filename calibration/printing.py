"""Writing sheets so they print at true scale: PNG with its resolution, and a minimal PDF.

A printed marker is only useful at the size the software assumes, so every sheet carries its
scale: the PNG says its dots per inch in a ``pHYs`` chunk (image viewers and print dialogs use
it), and the PDF gives each page its exact paper size in points with the image stretched over
the whole page, and asks viewers not to scale it when printing. The PDF is written by hand: one
image per page, Flate-compressed RGB, no dependency beyond zlib.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


@dataclass(frozen=True)
class Page:
    """One printed page: the sheet's pixels (BGR, as OpenCV holds them) covering the whole paper
    of ``size_mm`` (width, height)."""

    image: np.ndarray
    size_mm: tuple[float, float]
    title: str = ""

    @property
    def dpi(self) -> float:
        return self.image.shape[1] / (self.size_mm[0] / MM_PER_INCH)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(image: np.ndarray, dpi: float) -> bytes:
    """PNG of a BGR image with its physical resolution recorded (pixels per metre)."""
    import cv2

    ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:
        raise RuntimeError("OpenCV could not encode the sheet as PNG")
    data = buf.tobytes()
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then IHDR: length, type, 13 bytes, CRC
    ppm = int(round(dpi / MM_PER_INCH * 1000.0))
    phys = _png_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    return data[:ihdr_end] + phys + data[ihdr_end:]


def png_dpi(data: bytes) -> float | None:
    """The resolution a PNG declares, in dots per inch (None when it declares none)."""
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            x, _, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            return x * MM_PER_INCH / 1000.0 if unit == 1 else None
        if kind == b"IDAT":
            return None
        pos += 12 + length
    return None


def write_png(path: str | Path, page: Page) -> Path:
    path = Path(path)
    path.write_bytes(png_bytes(page.image, page.dpi))
    return path


def _pdf_string(text: str) -> bytes:
    safe = text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + safe + b")"


def pdf_bytes(pages: Sequence[Page], title: str = "") -> bytes:
    """A PDF with one page per sheet, each page exactly its paper size, the image covering it."""
    if not pages:
        raise ValueError("a PDF needs at least one page")
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    tree = add(b"")
    info = add(b"<< /Title " + _pdf_string(title or "companion targets") +
               b" /Producer (companion calibrate targets) >>")
    kids = []
    for page in pages:
        h_px, w_px = page.image.shape[:2]
        rgb = np.ascontiguousarray(page.image[:, :, ::-1])
        data = zlib.compress(rgb.tobytes(), 6)
        image = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                    b"/BitsPerComponent 8 /Interpolate false /Filter /FlateDecode /Length %d >>\nstream\n"
                    % (w_px, h_px, len(data)) + data + b"\nendstream")
        w_pt = page.size_mm[0] / MM_PER_INCH * POINTS_PER_INCH
        h_pt = page.size_mm[1] / MM_PER_INCH * POINTS_PER_INCH
        content = b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q\n" % (w_pt, h_pt)
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.4f %.4f] "
                        b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
                        % (tree, w_pt, h_pt, image, stream)))
    objects[catalog - 1] = (b"<< /Type /Catalog /Pages %d 0 R "
                            b"/ViewerPreferences << /PrintScaling /None >> >>" % tree)
    objects[tree - 1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) +
                         b"] /Count %d >>" % len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += (b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objects) + 1, catalog, info, xref))
    return bytes(out)


def write_pdf(path: str | Path, pages: Sequence[Page], title: str = "") -> Path:
    path = Path(path)
    path.write_bytes(pdf_bytes(pages, title))
    return path
