"""The printable sheets: table markers, ChArUco board, chessboard, game boards, colour sheet.

Everything is drawn in millimetres at the requested resolution and placed on A4 or A3 paper
(whichever is the smallest that holds it with a printer's margin), with its scale written on the
sheet: a 100 mm bar and "print at 100 %". Geometry comes from :mod:`calibration.boards`, the same
module the readers use, so what is printed is what is looked for.

``companion calibrate targets --out DIR`` writes each sheet as ``NAME.png`` (with its DPI) and
``NAME.pdf`` (exact paper size), and all of them in ``all-targets.pdf``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from calibration.boards import (ARUCO_DICT, CHARUCO, COLOUR_SHEET, GLEEBS_BOARD, MARKER_MM,
                                TERRA_TURRIUM_BOARD, BoardSpec, CharucoSpec, ChessboardSpec,
                                ColourSheetSpec)
from calibration.printing import Page, write_pdf, write_png
from companion.errors import BadInput

PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0)}
MARGIN_MM = 10.0
GAP_MM = 6.0
CAPTION_MM = (125.0, 30.0)  # the caption block: title, instruction, 100 mm bar
INK = (0, 0, 0)
GREY = (110, 110, 110)
WHITE = (255, 255, 255)


class Canvas:
    """A white drawing surface addressed in millimetres (x right, y down the paper)."""

    def __init__(self, w_mm: float, h_mm: float, px_per_mm: float):
        self.w_mm, self.h_mm, self.ppm = w_mm, h_mm, px_per_mm
        self.image = np.full((round(h_mm * px_per_mm), round(w_mm * px_per_mm), 3), 255, np.uint8)

    def px(self, mm: float) -> int:
        return int(round(mm * self.ppm))

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour=INK) -> None:
        """A filled rectangle whose edges land on the nearest pixel boundaries (sizes exact to
        half a pixel wherever they are)."""
        a, b, c, d = self.px(x0), self.px(y0), self.px(x1), self.px(y1)
        self.image[max(b, 0):max(d, 0), max(a, 0):max(c, 0)] = colour

    def frame(self, x0: float, y0: float, x1: float, y1: float, width_mm: float, colour=INK) -> None:
        w = width_mm
        self.rect(x0, y0, x1, y0 + w, colour)
        self.rect(x0, y1 - w, x1, y1, colour)
        self.rect(x0, y0, x0 + w, y1, colour)
        self.rect(x1 - w, y0, x1, y1, colour)

    def dashed_frame(self, x0: float, y0: float, x1: float, y1: float, dash_mm: float = 3.0) -> None:
        w = 0.25
        for start, end, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True),
                                              (y0, y1, x0, False), (y0, y1, x1, False)):
            t = start
            while t < end:
                u = min(t + dash_mm, end)
                if horizontal:
                    self.rect(t, fixed - w / 2, u, fixed + w / 2, GREY)
                else:
                    self.rect(fixed - w / 2, t, fixed + w / 2, u, GREY)
                t += 2 * dash_mm

    def line(self, p0: tuple[float, float], p1: tuple[float, float], width_mm: float, colour=INK) -> None:
        import cv2

        cv2.line(self.image, (self.px(p0[0]), self.px(p0[1])), (self.px(p1[0]), self.px(p1[1])),
                 colour, max(1, self.px(width_mm)), cv2.LINE_AA)

    def arrow(self, p0: tuple[float, float], p1: tuple[float, float], width_mm: float = 0.6,
              head_mm: float = 3.0) -> None:
        import cv2

        length = float(np.hypot(p1[0] - p0[0], p1[1] - p0[1]))
        cv2.arrowedLine(self.image, (self.px(p0[0]), self.px(p0[1])), (self.px(p1[0]), self.px(p1[1])),
                        INK, max(1, self.px(width_mm)), cv2.LINE_AA, tipLength=head_mm / max(length, 1e-6))

    def disc(self, centre: tuple[float, float], diameter_mm: float, colour) -> None:
        import cv2

        cv2.circle(self.image, (self.px(centre[0]), self.px(centre[1])), self.px(diameter_mm / 2),
                   colour, -1, cv2.LINE_AA)

    def text(self, x: float, y: float, text: str, height_mm: float, colour=INK,
             anchor: str = "left", bold: bool = False) -> float:
        """Text with its baseline at y and capitals ``height_mm`` tall; returns its width, mm."""
        import cv2

        font = cv2.FONT_HERSHEY_DUPLEX if bold else cv2.FONT_HERSHEY_SIMPLEX
        (_, cap), _ = cv2.getTextSize("H", font, 1.0, 1)
        scale = height_mm * self.ppm / cap
        thick = max(1, int(round(scale * (2.2 if bold else 1.6))))
        (w, _), _ = cv2.getTextSize(text, font, scale, thick)
        x_px = self.px(x) - (w // 2 if anchor == "centre" else w if anchor == "right" else 0)
        cv2.putText(self.image, text, (x_px, self.px(y)), font, scale, colour, thick, cv2.LINE_AA)
        return w / self.ppm

    def marker(self, marker_id: int, x0: float, y0: float, size_mm: float = MARKER_MM,
               dictionary: str = ARUCO_DICT) -> None:
        """An ArUco marker, upright, its top-left corner at (x0, y0): cell edges snap to pixels
        one by one, so the whole marker is exact to half a pixel."""
        import cv2

        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
        cells = d.markerSize + 2
        bits = cv2.aruco.generateImageMarker(d, int(marker_id), cells, borderBits=1)
        step = size_mm / cells
        for r in range(cells):
            for c in range(cells):
                if bits[r, c] < 128:
                    self.rect(x0 + c * step, y0 + r * step, x0 + (c + 1) * step, y0 + (r + 1) * step)

    def paste(self, other: "Canvas", x_mm: float, y_mm: float) -> None:
        x, y = self.px(x_mm), self.px(y_mm)
        h, w = other.image.shape[:2]
        self.image[y:y + h, x:x + w] = other.image


def ruler(canvas: Canvas, x0: float, y0: float) -> None:
    """A 100 mm bar with a tick every 10 mm, its top-left at (x0, y0), labelled."""
    canvas.rect(x0, y0, x0 + 100.0, y0 + 2.0)
    for k in range(11):
        tick = 4.5 if k % 5 == 0 else 3.0
        canvas.rect(x0 + k * 10.0 - 0.15, y0, x0 + k * 10.0 + 0.15, y0 + tick)
    canvas.text(x0, y0 + 8.5, "0", 2.5)
    canvas.text(x0 + 100.0, y0 + 8.5, "100 mm", 2.5, anchor="right")


def caption(px_per_mm: float, title: str, detail: str) -> Canvas:
    c = Canvas(*CAPTION_MM, px_per_mm)
    c.text(0, 4.5, title, 4.0, bold=True)
    c.text(0, 10.5, detail, 2.6, GREY)
    c.text(0, 16.0, "Print at 100 % (actual size, no 'fit to page'). Check: this bar is 100 mm.", 2.6)
    ruler(c, 0.0, 19.5)
    return c


@dataclass(frozen=True)
class Sheet:
    """A named sheet, ready to print."""

    name: str
    title: str
    page: Page


def _place(content: Canvas, cap: Canvas | None, px_per_mm: float, title: str) -> Page:
    """Put the content (and its caption, below it or turned along its left side) on the
    smallest paper that holds them within the margins."""
    cw, ch = content.w_mm, content.h_mm
    kw, kh = CAPTION_MM if cap is not None else (0.0, 0.0)
    gap = GAP_MM if cap is not None else 0.0
    for paper in ("A4", "A3"):
        for w, h in (PAPER_MM[paper], PAPER_MM[paper][::-1]):
            room_w, room_h = w - 2 * MARGIN_MM, h - 2 * MARGIN_MM
            if cw <= room_w and ch + gap + kh <= room_h and kw <= room_w:
                page = Canvas(w, h, px_per_mm)
                top = (h - (ch + gap + kh)) / 2
                page.paste(content, (w - cw) / 2, top)
                if cap is not None:
                    page.paste(cap, (w - max(cw, kw)) / 2, top + ch + gap)
                return Page(page.image, (w, h), title)
            if cap is not None and cw + gap + kh <= room_w and ch <= room_h and kw <= ch:
                page = Canvas(w, h, px_per_mm)
                left = (w - (cw + gap + kh)) / 2
                turned = Canvas(kh, kw, px_per_mm)
                turned.image = np.ascontiguousarray(np.rot90(cap.image))  # reads bottom to top
                page.paste(turned, left, (h - kw) / 2)
                page.paste(content, left + kh + gap, (h - ch) / 2)
                return Page(page.image, (w, h), title)
    raise BadInput(f"{title} ({cw:.0f} × {ch:.0f} mm) does not fit on A3 paper")


# ------------------------------------------------------------------------------------- sheets
TABLE_MARKER_ROLES = {0: "origin", 1: "along +x", 2: "opposite 0", 3: "along +y"}


def table_markers_sheet(px_per_mm: float, layout_mm: tuple[float, float] = (600.0, 600.0)) -> Sheet:
    """Markers 0–3, each on its own square to cut out, with arrows showing how to lay it."""
    cell = 85.0
    c = Canvas(2 * cell, 2 * cell, px_per_mm)
    order = {3: (0, 0), 2: (1, 0), 0: (0, 1), 1: (1, 1)}  # as they lie on the table, seen from above
    for marker_id, (col, row) in order.items():
        x0, y0 = col * cell, row * cell
        c.dashed_frame(x0 + 1, y0 + 1, x0 + cell - 1, y0 + cell - 1)
        mx, my = x0 + (cell - MARKER_MM) / 2 + 4.0, y0 + 20.0
        c.marker(marker_id, mx, my)
        c.arrow((mx - 12, my + MARKER_MM), (mx - 12, my + 4))
        c.text(mx - 12, my + 1, "+y", 3.0, anchor="centre")
        c.arrow((mx, my + MARKER_MM + 12), (mx + MARKER_MM - 4, my + MARKER_MM + 12))
        c.text(mx + MARKER_MM - 1, my + MARKER_MM + 13.5, "+x", 3.0)
        c.text(x0 + cell / 2, y0 + 12.0, f"marker {marker_id}: {TABLE_MARKER_ROLES[marker_id]}",
               3.6, anchor="centre", bold=True)
        c.text(x0 + cell / 2, y0 + cell - 6.0, "cut on the dashed line", 2.4, GREY, anchor="centre")
    w, d = layout_mm
    cap = caption(px_per_mm, "Table markers 0-3 (ArUco 4x4, 40 mm)",
                  f"Lay flat at the corners, arrows all the same way; centres {w:.0f} x {d:.0f} mm apart.")
    return Sheet("table-markers", "Table markers", _place(c, cap, px_per_mm, "Table markers"))


def charuco_sheet(px_per_mm: float, spec: CharucoSpec = CHARUCO) -> Sheet:
    import cv2

    c = Canvas(spec.width_mm, spec.height_mm, px_per_mm)
    size = c.image.shape[1], c.image.shape[0]
    board = spec.board().generateImage(size, marginSize=0, borderBits=1)
    c.image[:] = cv2.cvtColor(board, cv2.COLOR_GRAY2BGR)
    cap = caption(px_per_mm, f"ChArUco board {spec.squares_x}x{spec.squares_y}",
                  f"squares {spec.square_mm:g} mm, markers {spec.marker_mm:g} mm ({spec.dictionary}); "
                  "glue it flat on card.")
    return Sheet("charuco", "ChArUco calibration board", _place(c, cap, px_per_mm, "ChArUco board"))


def chessboard_sheet(px_per_mm: float, spec: ChessboardSpec = ChessboardSpec(9, 6, 24.0)) -> Sheet:
    cols, rows, s = spec.cols + 1, spec.rows + 1, spec.square_mm
    c = Canvas(cols * s, rows * s, px_per_mm)
    for r in range(rows):
        for k in range(cols):
            if (r + k) % 2 == 0:
                c.rect(k * s, r * s, (k + 1) * s, (r + 1) * s)
    cap = caption(px_per_mm, f"Chessboard {spec.cols}x{spec.rows} inner corners",
                  f"squares {s:g} mm: --chessboard {spec.cols}x{spec.rows} --square {s:g}")
    return Sheet(f"chessboard-{spec.cols}x{spec.rows}", "Chessboard",
                 _place(c, cap, px_per_mm, "Chessboard"))


TERRITORY_TINTS = [(225, 225, 250), (250, 232, 215), (215, 245, 220), (205, 240, 250)]


def board_sheet(px_per_mm: float, spec: BoardSpec) -> Sheet:
    """A game board: its squares, territories shaded, markers 4–7 beside its corners."""
    x0, y0, x1, y1 = spec.extent_mm
    c = Canvas(x1 - x0, y1 - y0, px_per_mm)

    def paper(bx: float, by: float) -> tuple[float, float]:  # board frame (y up) → paper (y down)
        return bx - x0, y1 - by

    s = spec.square_mm
    for row in range(spec.rows):
        for col in range(spec.cols):
            terr = spec.territory_of(col, row)
            if terr is not None:
                px0, py1 = paper(col * s, row * s)
                c.rect(px0, py1 - s, px0 + s, py1, TERRITORY_TINTS[terr % len(TERRITORY_TINTS)])
    line = 0.5
    for k in range(spec.cols + 1):
        px, _ = paper(k * s, 0)
        heavy = spec.territory and k % spec.territory == 0
        w = 1.2 if heavy or k in (0, spec.cols) else line
        c.rect(px - w / 2, paper(0, spec.height_mm)[1] - w / 2, px + w / 2, paper(0, 0)[1] + w / 2)
    for k in range(spec.rows + 1):
        _, py = paper(0, k * s)
        heavy = spec.territory and k % spec.territory == 0
        w = 1.2 if heavy or k in (0, spec.rows) else line
        c.rect(paper(0, 0)[0] - w / 2, py - w / 2, paper(spec.width_mm, 0)[0] + w / 2, py + w / 2)
    for m in spec.markers:
        cx, cy = paper(*m.centre)
        c.marker(m.id, cx - m.size_mm / 2, cy - m.size_mm / 2, m.size_mm)
    cap = caption(px_per_mm, f"{spec.title} board",
                  f"{spec.cols} x {spec.rows} squares of {s:g} mm; markers 4-7 ({MARKER_MM:g} mm) "
                  "locate it anywhere on the table.")
    return Sheet(f"{spec.name}-board", f"{spec.title} board",
                 _place(c, cap, px_per_mm, f"{spec.title} board"))


def colour_sheet(px_per_mm: float, spec: ColourSheetSpec = COLOUR_SHEET) -> Sheet:
    """Numbered grey spots for one piece of each colour; its white paper is the white
    reference."""
    c = Canvas(spec.width_mm, spec.height_mm, px_per_mm)
    c.dashed_frame(0.5, 0.5, spec.width_mm - 0.5, spec.height_mm - 0.5)

    def paper(x: float, y: float) -> tuple[float, float]:
        return x, spec.height_mm - y

    for m in spec.markers:
        cx, cy = paper(*m.centre)
        c.marker(m.id, cx - m.size_mm / 2, cy - m.size_mm / 2, m.size_mm)
    for number, (sx, sy) in enumerate(spec.spots(), start=1):
        px, py = paper(sx, sy)
        c.disc((px, py), spec.spot_mm, (150, 150, 150))
        c.text(px - spec.spot_mm / 2 - 1.5, py - spec.spot_mm / 2 + 3.5, str(number), 4.5,
               anchor="right", bold=True)
    c.text(spec.width_mm / 2, 11.0, "Colour sheet", 5.0, anchor="centre", bold=True)
    c.text(spec.width_mm / 2, 18.0, "one piece of each colour on its spot, as "
           "`companion calibrate colours` asks", 2.6, GREY, anchor="centre")
    c.text(spec.width_mm / 2, spec.height_mm - 25.0, "Print at 100 %. Check: this bar is 100 mm.",
           2.6, anchor="centre")
    ruler(c, spec.width_mm / 2 - 50.0, spec.height_mm - 21.0)
    return Sheet("colour-sheet", "Colour sheet", _place(c, None, px_per_mm, "Colour sheet"))


SHEETS: dict[str, Callable[[float], Sheet]] = {
    "table-markers": table_markers_sheet,
    "charuco": charuco_sheet,
    "chessboard-9x6": chessboard_sheet,
    "gleebs-and-grues-board": lambda ppm: board_sheet(ppm, GLEEBS_BOARD),
    "terra-turrium-board": lambda ppm: board_sheet(ppm, TERRA_TURRIUM_BOARD),
    "colour-sheet": colour_sheet,
}


def make_sheets(dpi: float = 300.0, names: list[str] | None = None,
                layout_mm: tuple[float, float] = (600.0, 600.0)) -> list[Sheet]:
    if not (72.0 <= dpi <= 1200.0):
        raise BadInput(f"{dpi:g} dpi is out of range", hint="use 150 to 600 dpi; 300 is a good default")
    chosen = list(SHEETS) if not names else names
    unknown = [n for n in chosen if n not in SHEETS]
    if unknown:
        raise BadInput(f"no sheet named {', '.join(unknown)}", hint=f"sheets: {', '.join(SHEETS)}")
    ppm = dpi / 25.4
    out = []
    for name in chosen:
        if name == "table-markers":
            out.append(table_markers_sheet(ppm, layout_mm))
        else:
            out.append(SHEETS[name](ppm))
    return out


def write_targets(out_dir: str | Path, dpi: float = 300.0, names: list[str] | None = None,
                  layout_mm: tuple[float, float] = (600.0, 600.0),
                  progress: Callable[[int, int, str], None] | None = None) -> list[Path]:
    """Write each sheet as PNG and PDF, and all of them in one PDF; returns the files."""
    out = Path(out_dir).expanduser()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create {out} ({exc.strerror or exc})") from None
    sheets = make_sheets(dpi, names, layout_mm)
    written: list[Path] = []
    for k, sheet in enumerate(sheets):
        if progress:
            progress(k, len(sheets), sheet.name)
        written.append(write_png(out / f"{sheet.name}.png", sheet.page))
        written.append(write_pdf(out / f"{sheet.name}.pdf", [sheet.page], sheet.title))
    if len(sheets) > 1:
        written.append(write_pdf(out / "all-targets.pdf", [s.page for s in sheets], "companion targets"))
    if progress:
        progress(len(sheets), len(sheets), "done")
    return written


def sheet_scale_check(sheet: Sheet) -> float:
    """Millimetres per pixel of a sheet (for the checks that measure what was drawn)."""
    return sheet.page.size_mm[0] / sheet.page.image.shape[1]

