"""Card faces for the synthetic table: made-up artwork, drawn by the program.

The real games' artwork is not ours to copy, and the referee only needs cards that look
different from each other the way real designs do: each face has its own colour field, a big
pictogram and its name, inside a white border. The synthetic table draws these in the
played-card zone, and the card library enrols them exactly as it would enrol printed cards.

Faces are drawn at 4 px/mm (a 59 × 92 mm card is 236 × 368 px) and resized with area
averaging to the size asked for, so a small face is a faithful downsampling, not a re-layout.
"""

from __future__ import annotations

import hashlib
import math
from functools import lru_cache

import numpy as np

from companion.errors import BadInput

#: Card size in millimetres (width, height), portrait.
CARD_MM: tuple[float, float] = (59.0, 92.0)
_PX_PER_MM = 4
_W, _H = int(CARD_MM[0] * _PX_PER_MM), int(CARD_MM[1] * _PX_PER_MM)
_BORDER = 3 * _PX_PER_MM

#: Haut les Cubes's six action cards: identifier → (name printed, BGR colour field).
HLC_CARDS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "moaveou": ("MOAVEOU", (70, 150, 40)),       # green: walk, climb, jump down
    "napozla": ("NAPOZLA", (40, 120, 220)),      # orange: place a cube
    "pousstoia": ("POUSSTOIA", (50, 40, 190)),   # red: push a giant
    "nenlevsa": ("NENLEVSA", (170, 90, 30)),     # blue: take a cube away
    "hopla": ("HOPLA", (40, 200, 230)),          # yellow: giant leap
    "tvavoartoa": ("TVAVOARTOA", (140, 50, 120)),  # violet: slingshot
}

_INK = (30, 30, 30)
_WHITE = (250, 250, 250)


def _target_size(size_px: int | tuple[int, int]) -> tuple[int, int]:
    """``size_px``: the card's height in pixels (width follows the 59:92 aspect), or (w, h)."""
    if isinstance(size_px, (int, np.integer)):
        h = int(size_px)
        w = max(1, round(h * CARD_MM[0] / CARD_MM[1]))
    else:
        try:
            w, h = (int(v) for v in size_px)
        except (TypeError, ValueError):
            raise BadInput(f"a card size is a height in pixels or (width, height), got {size_px!r}") from None
    if w < 8 or h < 8 or w > 4000 or h > 4000:
        raise BadInput(f"card size {w}×{h} px is out of range (8 to 4000 px a side)")
    return w, h


def _resize(img: np.ndarray, size_px: int | tuple[int, int]) -> np.ndarray:
    import cv2

    w, h = _target_size(size_px)
    if (w, h) == (img.shape[1], img.shape[0]):
        return img.copy()
    interp = cv2.INTER_AREA if w < img.shape[1] else cv2.INTER_CUBIC
    return cv2.resize(img, (w, h), interpolation=interp)


def _text_fit(img: np.ndarray, text: str, centre: tuple[int, int], max_w: int, max_h: int,
              colour: tuple[int, int, int], thickness: int = 3, flip: bool = False) -> None:
    """Draw ``text`` as large as fits in max_w × max_h around ``centre`` (upside down when
    ``flip``, as on the bottom corner of a playing card)."""
    import cv2

    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), base = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(max_w / max(tw, 1), max_h / max(th + base, 1))
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    pad = thickness + 2
    patch = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(patch, text, (pad, pad + th), font, scale, 255, thickness, cv2.LINE_AA)
    if flip:
        patch = patch[::-1, ::-1]
    ph, pw = patch.shape
    x0, y0 = centre[0] - pw // 2, centre[1] - ph // 2
    x1, y1 = x0 + pw, y0 + ph
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, img.shape[1]), min(y1, img.shape[0])
    if cx1 <= cx0 or cy1 <= cy0:
        return
    alpha = patch[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(np.float32)[..., None] / 255.0
    region = img[cy0:cy1, cx0:cx1].astype(np.float32)
    img[cy0:cy1, cx0:cx1] = (region * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)


def _blank(field: tuple[int, int, int]) -> np.ndarray:
    import cv2

    img = np.full((_H, _W, 3), _WHITE, np.uint8)
    cv2.rectangle(img, (_BORDER, _BORDER), (_W - 1 - _BORDER, _H - 1 - _BORDER), field, -1,
                  cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (_W - 1, _H - 1), (200, 200, 200), 2)
    return img


def _lighter(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(round(c + (255 - c) * k)) for c in colour)  # type: ignore[return-value]


def _darker(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(round(c * (1 - k))) for c in colour)  # type: ignore[return-value]


def _cube(img: np.ndarray, cx: int, cy: int, s: int, face: tuple[int, int, int]) -> None:
    """An isometric cube with the kit's 2×2 grid on its top."""
    import cv2

    dx, dy = int(s * 0.87), s // 2
    top = np.array([[cx, cy - s], [cx + dx, cy - s + dy], [cx, cy], [cx - dx, cy - s + dy]])
    left = np.array([[cx - dx, cy - s + dy], [cx, cy], [cx, cy + s], [cx - dx, cy + dy]])
    right = np.array([[cx, cy], [cx + dx, cy - s + dy], [cx + dx, cy + dy], [cx, cy + s]])
    cv2.fillPoly(img, [top], _lighter(face, 0.35), cv2.LINE_AA)
    cv2.fillPoly(img, [left], face, cv2.LINE_AA)
    cv2.fillPoly(img, [right], _darker(face, 0.3), cv2.LINE_AA)
    for poly in (top, left, right):
        cv2.polylines(img, [poly], True, _INK, 3, cv2.LINE_AA)
    mid = lambda a, b: ((a + b) / 2).astype(int)  # noqa: E731
    cv2.line(img, tuple(mid(top[0], top[1])), tuple(mid(top[3], top[2])), _INK, 2, cv2.LINE_AA)
    cv2.line(img, tuple(mid(top[0], top[3])), tuple(mid(top[1], top[2])), _INK, 2, cv2.LINE_AA)


def _giant(img: np.ndarray, cx: int, cy: int, h: int, colour: tuple[int, int, int]) -> None:
    """A pawn: a head on a body, seen from the side."""
    import cv2

    body = np.array([[cx - h // 4, cy], [cx + h // 4, cy], [cx + h // 8, cy - int(h * 0.6)],
                     [cx - h // 8, cy - int(h * 0.6)]])
    cv2.fillPoly(img, [body], colour, cv2.LINE_AA)
    cv2.polylines(img, [body], True, _INK, 3, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - int(h * 0.75)), h // 6, colour, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - int(h * 0.75)), h // 6, _INK, 3, cv2.LINE_AA)


def _arrow(img: np.ndarray, p0: tuple[int, int], p1: tuple[int, int], colour=_INK, t: int = 9) -> None:
    import cv2

    cv2.arrowedLine(img, p0, p1, colour, t, cv2.LINE_AA, tipLength=0.35)


def _pictogram(name: str, img: np.ndarray, field: tuple[int, int, int]) -> None:
    import cv2

    cx, cy = _W // 2, int(_H * 0.47)
    pale = _lighter(field, 0.75)
    if name == "moaveou":  # a giant climbing a staircase of cubes
        for i in range(3):
            _cube(img, cx - 60 + i * 45, cy + 70 - i * 45, 34, pale)
        _giant(img, cx - 50, cy - 20, 90, _WHITE)
        _arrow(img, (cx - 10, cy - 70), (cx + 60, cy - 110))
    elif name == "napozla":  # a cube coming down onto another
        _cube(img, cx, cy + 80, 48, pale)
        _cube(img, cx, cy - 50, 48, _WHITE)
        _arrow(img, (cx + 68, cy - 120), (cx + 68, cy - 10))
    elif name == "pousstoia":  # one giant shoving another
        _giant(img, cx - 55, cy + 60, 110, _WHITE)
        _giant(img, cx + 60, cy + 60, 110, pale)
        _arrow(img, (cx - 60, cy - 90), (cx + 70, cy - 90), t=12)
    elif name == "nenlevsa":  # a cube lifted away, crossed out
        _cube(img, cx, cy + 10, 60, _WHITE)
        cv2.line(img, (cx - 85, cy - 95), (cx + 85, cy + 115), (20, 20, 200), 14, cv2.LINE_AA)
        cv2.line(img, (cx + 85, cy - 95), (cx - 85, cy + 115), (20, 20, 200), 14, cv2.LINE_AA)
    elif name == "hopla":  # a giant's leap: a big arc
        _giant(img, cx - 70, cy + 100, 80, _WHITE)
        cv2.ellipse(img, (cx, cy + 40), (80, 110), 0, 180, 360, _INK, 10, cv2.LINE_AA)
        _arrow(img, (cx + 80, cy + 20), (cx + 80, cy + 90), t=10)
        for k in range(5):
            a = math.radians(200 + k * 35)
            cv2.circle(img, (int(cx + 40 * math.cos(a)), int(cy - 95 + 25 * math.sin(a))), 7,
                       _WHITE, -1, cv2.LINE_AA)
    elif name == "tvavoartoa":  # a slingshot and its stone
        cv2.line(img, (cx, cy + 120), (cx, cy + 10), _INK, 16, cv2.LINE_AA)
        cv2.line(img, (cx, cy + 10), (cx - 60, cy - 90), _INK, 14, cv2.LINE_AA)
        cv2.line(img, (cx, cy + 10), (cx + 60, cy - 90), _INK, 14, cv2.LINE_AA)
        cv2.line(img, (cx - 60, cy - 90), (cx, cy - 40), pale, 5, cv2.LINE_AA)
        cv2.line(img, (cx + 60, cy - 90), (cx, cy - 40), pale, 5, cv2.LINE_AA)
        cv2.circle(img, (cx, cy - 40), 16, _WHITE, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + 75, cy - 130), 12, _WHITE, -1, cv2.LINE_AA)
    else:  # pragma: no cover - guarded by hlc_face
        raise BadInput(f"no pictogram for {name!r}")


@lru_cache(maxsize=16)
def _hlc_master(name: str) -> np.ndarray:
    import cv2

    title, field = HLC_CARDS[name]
    img = _blank(field)
    inner = (_BORDER + 10, _BORDER + 10, _W - _BORDER - 10, int(_H * 0.78))
    cv2.rectangle(img, inner[:2], inner[2:], _lighter(field, 0.25), -1, cv2.LINE_AA)
    _pictogram(name, img, field)
    _text_fit(img, title, (_W // 2, int(_H * 0.87)), _W - 2 * _BORDER - 16, 44, _WHITE, 3)
    img.setflags(write=False)
    return img


def hlc_face(name: str, size_px: int | tuple[int, int] = _H) -> np.ndarray:
    """The face of one of Haut les Cubes's action cards as a BGR image, ``size_px`` the height
    (the width follows the 59 × 92 mm aspect) or an exact (width, height)."""
    key = name.lower()
    if key not in HLC_CARDS:
        raise BadInput(f"no Haut les Cubes card {name!r}", hint=f"cards: {', '.join(HLC_CARDS)}")
    return _resize(_hlc_master(key), size_px)


# ------------------------------------------------------------------------------------ Altitude
#: The kinds of card the Altitude game's manifest names, and the mark each carries.
CARD_KINDS = ("number", "animal", "cable-car", "avalanche", "saint-bernard")


def _value_colour(value: int | None, kind: str) -> tuple[int, int, int]:
    """Colour field by altitude: low values green valleys, high values rock and snow."""
    if kind == "avalanche":
        return (200, 190, 180)
    if kind == "saint-bernard":
        return (60, 110, 170)
    if kind == "cable-car":
        return (170, 130, 60)
    v = 0 if value is None else max(0, min(int(value), 30))
    stops = [(0, (70, 160, 60)), (10, (60, 170, 190)), (20, (90, 110, 150)), (30, (230, 220, 210))]
    for (v0, c0), (v1, c1) in zip(stops, stops[1:]):
        if v <= v1:
            k = (v - v0) / (v1 - v0)
            return tuple(int(round(a + (b - a) * k)) for a, b in zip(c0, c1))  # type: ignore[return-value]
    return stops[-1][1]


def _kind_mark(img: np.ndarray, kind: str, cx: int, cy: int) -> None:
    import cv2

    if kind == "animal":  # a paw print
        cv2.ellipse(img, (cx, cy + 12), (26, 20), 0, 0, 360, _INK, -1, cv2.LINE_AA)
        for dx, dy in ((-28, -14), (-10, -30), (10, -30), (28, -14)):
            cv2.circle(img, (cx + dx, cy + dy), 9, _INK, -1, cv2.LINE_AA)
    elif kind == "cable-car":  # a cabin on a cable
        cv2.line(img, (cx - 60, cy - 30), (cx + 60, cy - 50), _INK, 4, cv2.LINE_AA)
        cv2.line(img, (cx, cy - 40), (cx, cy - 15), _INK, 4, cv2.LINE_AA)
        cv2.rectangle(img, (cx - 25, cy - 15), (cx + 25, cy + 25), _INK, -1, cv2.LINE_AA)
    elif kind == "avalanche":  # snowballs rolling down a slope
        cv2.line(img, (cx - 60, cy - 40), (cx + 60, cy + 40), _INK, 6, cv2.LINE_AA)
        for k in range(3):
            cv2.circle(img, (cx - 30 + 30 * k, cy - 35 + 20 * k), 10 + 4 * k, _WHITE, -1, cv2.LINE_AA)
    elif kind == "saint-bernard":  # a cross on a barrel
        cv2.circle(img, (cx, cy), 34, _WHITE, -1, cv2.LINE_AA)
        cv2.rectangle(img, (cx - 7, cy - 24), (cx + 7, cy + 24), (30, 30, 200), -1)
        cv2.rectangle(img, (cx - 24, cy - 7), (cx + 24, cy + 7), (30, 30, 200), -1)
    else:  # a plain mountain for numbered cards and unknown kinds
        tri = np.array([[cx - 60, cy + 35], [cx - 10, cy - 40], [cx + 15, cy], [cx + 30, cy - 20],
                        [cx + 65, cy + 35]])
        cv2.fillPoly(img, [tri], _INK, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([[cx - 22, cy - 22], [cx - 10, cy - 40], [cx + 2, cy - 22]])],
                     _WHITE, cv2.LINE_AA)


@lru_cache(maxsize=256)
def _manifest_master(card_id: str, label: str, value: int | None, kind: str) -> np.ndarray:
    import cv2

    field = _value_colour(value, kind)
    img = _blank(field)
    text_colour = _INK if sum(field) > 450 else _WHITE
    big = str(value) if value is not None else kind.upper()[:1]
    _text_fit(img, big, (_W // 2, int(_H * 0.36)), _W - 2 * _BORDER - 40, 150, text_colour, 8)
    corner = str(value) if value is not None else ""
    if corner:
        _text_fit(img, corner, (_BORDER + 26, _BORDER + 24), 40, 32, text_colour, 3)
        _text_fit(img, corner, (_W - _BORDER - 26, _H - _BORDER - 24), 40, 32, text_colour, 3, flip=True)
    band_top, band_bot = int(_H * 0.58), int(_H * 0.80)
    cv2.rectangle(img, (_BORDER + 12, band_top), (_W - _BORDER - 12, band_bot), _lighter(field, 0.7), -1)
    _kind_mark(img, kind, _W // 2, (band_top + band_bot) // 2)
    if label:
        _text_fit(img, label.upper(), (_W // 2, int(_H * 0.855)), _W - 2 * _BORDER - 110, 30, text_colour, 2)
    # a small stripe pattern seeded by the card's id, like a print-run mark on real cards
    digest = hashlib.sha256(card_id.encode("utf-8")).digest()
    for k in range(6):
        if digest[k] & 1:
            x = _BORDER + 14 + k * 9
            cv2.rectangle(img, (x, _H - _BORDER - 14), (x + 5, _H - _BORDER - 6), text_colour, -1)
    img.setflags(write=False)
    return img


def face_for(card_id: str, label: str, value: int | None, kind: str,
             size_px: int | tuple[int, int] = _H) -> np.ndarray:
    """The face of a card described by a game's card manifest (Altitude): a colour field by
    altitude, the big value, the kind's mark and the label (the animal's name for animal cards).
    Cards with the same value, kind and label look the same, as real duplicates do, apart from a
    small print-run mark drawn from ``card_id``."""
    if not isinstance(card_id, str) or not card_id:
        raise BadInput(f"a card id is a non-empty string, got {card_id!r}")
    if value is not None and not isinstance(value, (int, np.integer)):
        raise BadInput(f"card {card_id}: the value is an integer or None, got {value!r}")
    return _resize(_manifest_master(card_id, str(label or ""), None if value is None else int(value),
                                    str(kind or "number")), size_px)
