"""Recognising a card laid in a zone of the table, against cards enrolled once.

A game's cards are not known in advance (made-up artwork for the synthetic table, the real
game's cards at the user's table), so the program learns them: each card is shown once to the
camera (``companion calibrate cards``), its face is cut out of the image and kept. Later, the
card in the played-card zone is cut out the same way and compared with every enrolled face.

The comparison is made to survive what a camera does to a card:

* the zone is rectified from table millimetres (the table :class:`View`), and the card found in
  it as the large card-shaped blob that differs from the table, so an offset or a turn of the
  card within the zone is undone before comparing;
* a card laid upside down is compared both ways;
* light: the face is white-balanced on its own brightest pixels, the drawing compared by
  normalised correlation (insensitive to brightness and contrast) over a few pixels of slack, and
  the colours as a histogram of chroma (insensitive to brightness);
* blur and JPEG noise: everything is compared at low resolution.

``confusion_check`` reports enrolled cards too alike to tell apart, so the user hears about it
at enrolment, not in the middle of a game. Cards printed alike (a deck's copies of one card,
*twins*) are meant to look the same: the library records which design each belongs to
(:meth:`CardLibrary.set_twins`, saved with the faces), the check treats them as one design, and
readers count a near tie between copies as no doubt (telling copies apart matters to nobody at
the table). Two cards that look alike but are not declared twins are named by
:meth:`CardLibrary.look_alike_groups`, for the user to declare or to enrol again.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from companion.errors import BadInput

#: Card size (width, height) in millimetres, portrait.
CARD_MM: tuple[float, float] = (59.0, 92.0)
#: Resolution of rectified zones and stored faces.
PX_PER_MM = 2.0
#: Grey template size (w, h) the drawing is compared at.
_TEMPLATE = (40, 62)
#: Pixels of slack each way when correlating (an imperfect cut-out).
_SLACK = 3
#: Below this score nothing is recognised (an empty zone, a card never enrolled).
REJECT_SCORE = 0.5
#: Two enrolled faces scoring this alike are reported by :meth:`CardLibrary.confusion_check`.
CONFUSION_SCORE = 0.8
#: Two enrolled faces scoring this alike look printed alike (:meth:`CardLibrary.look_alike_groups`).
TWIN_SCORE = 0.95


@dataclass(frozen=True)
class CardMatch:
    """The best match for a card: its name (None when nothing matches well enough), a
    confidence in 0–1, the raw score, and the runner-up."""

    name: str | None
    confidence: float
    score: float
    runner_up: str | None = None
    runner_up_score: float = 0.0

    def __iter__(self):
        return iter((self.name, self.confidence))


@dataclass(frozen=True)
class _Face:
    """An enrolled face and its descriptors."""

    name: str
    image: np.ndarray = field(repr=False)    # canonical BGR, portrait
    grey: np.ndarray = field(repr=False)     # normalised template
    hist: np.ndarray = field(repr=False)     # chroma histogram, sums to 1


def canonical_size(card_mm: tuple[float, float] = CARD_MM) -> tuple[int, int]:
    return int(round(card_mm[0] * PX_PER_MM)), int(round(card_mm[1] * PX_PER_MM))


def _white_balance(img: np.ndarray) -> np.ndarray:
    """Divide by the face's own white (its brightest pixels): a warm or cold light, or a
    brighter or dimmer one, then changes little."""
    f = img.astype(np.float32)
    lum = f.sum(axis=2).ravel()
    k = max(20, lum.size // 30)
    top = f.reshape(-1, 3)[np.argpartition(lum, -k)[-k:]]
    white = np.maximum(np.median(top, axis=0), 1.0)
    return np.clip(f / white * 235.0, 0, 255).astype(np.uint8)


def _normalised(grey: np.ndarray) -> np.ndarray:
    g = grey.astype(np.float32)
    g -= g.mean()
    return g / max(float(g.std()), 1e-3)


def _describe(name: str, image: np.ndarray, size: tuple[int, int]) -> _Face:
    import cv2

    canon = _to_canonical(image, size)
    balanced = _white_balance(canon)
    grey = cv2.cvtColor(balanced, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(cv2.GaussianBlur(grey, (0, 0), 1.2), _TEMPLATE, interpolation=cv2.INTER_AREA)
    return _Face(name, canon, _normalised(grey), _chroma_hist(balanced))


def _chroma_hist(balanced: np.ndarray) -> np.ndarray:
    import cv2

    h, w = balanced.shape[:2]
    inner = balanced[h // 20: h - h // 20, w // 20: w - w // 20]
    lab = cv2.cvtColor(inner, cv2.COLOR_BGR2Lab)
    hist = cv2.calcHist([lab], [1, 2], None, [12, 12], [64, 192, 64, 192]).ravel()
    hist = cv2.GaussianBlur(hist.reshape(12, 12), (3, 3), 0.7).ravel()
    return hist / max(float(hist.sum()), 1e-6)


def _to_canonical(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    import cv2

    img = np.asarray(image)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim != 3 or img.shape[2] != 3 or min(img.shape[:2]) < 8:
        raise BadInput(f"not a card image: an array of shape {img.shape}")
    if img.dtype != np.uint8:
        img = cv2.convertScaleAbs(img)
    if img.shape[1] > img.shape[0]:  # landscape: turn to portrait
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    interp = cv2.INTER_AREA if img.shape[1] > size[0] else cv2.INTER_LINEAR
    return cv2.resize(img, size, interpolation=interp)


def _grey_score(query: np.ndarray, face: _Face) -> float:
    """Best normalised correlation of the face's drawing (trimmed by the slack) within the
    query's."""
    import cv2

    s = _SLACK
    tmpl = face.grey[s:-s, s:-s]
    res = cv2.matchTemplate(query, tmpl, cv2.TM_CCOEFF_NORMED)
    return float(res.max())


def _hist_score(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.minimum(a, b).sum())


def _score(query: _Face, face: _Face) -> float:
    return 0.7 * _grey_score(query.grey, face) + 0.3 * _hist_score(query.hist, face.hist)


# -------------------------------------------------------------------------------- zone work
def rectify_zone(image: np.ndarray, zone_polygon_mm: Sequence[Sequence[float]], view: Any,
                 z_mm: float = 0.0, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """The zone seen from straight above: the bounding box of ``zone_polygon_mm`` (table mm)
    resampled at ``px_per_mm``, +y at the top (the far side from the players), lens distortion
    undone through ``view``."""
    import cv2

    poly = np.asarray(zone_polygon_mm, dtype=np.float64).reshape(-1, 2)
    if len(poly) < 3:
        raise BadInput("a zone needs at least three corners (table millimetres)")
    x0, y0 = poly.min(axis=0)
    x1, y1 = poly.max(axis=0)
    w, h = int(round((x1 - x0) * px_per_mm)), int(round((y1 - y0) * px_per_mm))
    if w < 16 or h < 16 or w * h > 4_000_000:
        raise BadInput(f"a zone of {x1 - x0:.0f} × {y1 - y0:.0f} mm is too small or too large")
    step = 4
    gx = np.arange(0, w + step, step, dtype=np.float64)
    gy = np.arange(0, h + step, step, dtype=np.float64)
    us, vs = np.meshgrid(gx, gy)
    pts = np.stack([x0 + (us.ravel() + 0.5) / px_per_mm, y1 - (vs.ravel() + 0.5) / px_per_mm,
                    np.full(us.size, z_mm)], axis=1)
    px = view.project(pts)
    cx = px[:, 0].reshape(len(gy), len(gx)).astype(np.float32)
    cy = px[:, 1].reshape(len(gy), len(gx)).astype(np.float32)
    fx, fy = np.meshgrid(np.arange(w, dtype=np.float32) / step, np.arange(h, dtype=np.float32) / step)
    map_x = cv2.remap(cx, fx, fy, cv2.INTER_LINEAR)
    map_y = cv2.remap(cy, fx, fy, cv2.INTER_LINEAR)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def find_card(zone: np.ndarray, card_mm: tuple[float, float] = CARD_MM,
              px_per_mm: float = PX_PER_MM) -> np.ndarray | None:
    """Cut the card out of a rectified zone (portrait, canonical size), or None when no
    card-shaped blob stands out from the table. The table's colour is read on the zone's rim,
    so the zone should be a little larger than the card.

    How far the card must differ from the table is not known beforehand: a yellow card on a
    pale table differs less than its own black drawing does, and a wood table's grain differs
    a lot. So several thresholds are tried, from just above the table's own variation to the
    image's Otsu split, and the blob most like a card (its size closest to the card's) wins."""
    import cv2

    img = cv2.GaussianBlur(zone, (0, 0), 1.0).astype(np.float32)
    h, w = img.shape[:2]
    rim = np.concatenate([img[:3].reshape(-1, 3), img[-3:].reshape(-1, 3),
                          img[:, :3].reshape(-1, 3), img[:, -3:].reshape(-1, 3)])
    table = np.median(rim, axis=0)
    spread = max(float(np.median(np.abs(rim - table).sum(axis=1))), 4.0)
    diff = np.clip(np.abs(img - table).sum(axis=2), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(diff, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    want = card_mm[0] * card_mm[1] * px_per_mm ** 2
    thresholds = sorted({max(40.0, 4.0 * spread, float(otsu)), max(40.0, 4.0 * spread),
                         max(25.0, 2.0 * spread), max(25.0, 3.0 * spread)})
    best = None
    for threshold in thresholds:
        found = _card_blob(diff > threshold, card_mm, px_per_mm)
        if found is not None and (best is None or abs(found[0] / want - 1) < abs(best[0] / want - 1)):
            best = found
    if best is None:
        return None
    # the zone is rectified to table millimetres, so the card's size is known: a blob a little
    # smaller is the card's print without its pale rim (a white border on a pale table), and is
    # cut out at the card's true size about its centre
    (cx, cy), (rw, rh), angle = best[1]
    cw, ch = card_mm[0] * px_per_mm, card_mm[1] * px_per_mm
    if rw * rh < want:
        rw, rh = (cw, ch) if rw < rh else (ch, cw)
    box = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float32)
    # order the rectangle's corners so the long side runs top to bottom
    centre = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(ang)]  # clockwise in image coordinates, from the upper-left quadrant
    sides = [np.linalg.norm(box[i] - box[(i + 1) % 4]) for i in range(4)]
    if sides[0] > sides[1]:  # first side is a long one: start one corner later
        box = np.roll(box, -1, axis=0)
    size = canonical_size(card_mm)
    dst = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    M = cv2.getPerspectiveTransform(box, dst)
    return cv2.warpPerspective(zone, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _card_blob(differs: np.ndarray, card_mm: tuple[float, float], px_per_mm: float,
               ) -> tuple[float, Any] | None:
    """The largest card-shaped blob of ``differs`` (where the zone differs from the table):
    its area and its rotated rectangle, or None."""
    import cv2

    h, w = differs.shape
    mask = differs.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # a card whose face is close to the table's colour shows only its rim: fill it in, then cut
    # away thin things (wood grain, a shadow's edge) that cling to it
    outside = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 255)
    mask = mask | cv2.bitwise_not(outside[1:-1, 1:-1])
    k = max(5, int(round(card_mm[0] * px_per_mm * 0.12)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    want = card_mm[0] * card_mm[1] * px_per_mm ** 2
    best = None
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if not (0.6 * want < area < 1.5 * want):
            continue
        rect = cv2.minAreaRect(hull)
        (rw, rh) = rect[1]
        if min(rw, rh) <= 0:
            continue
        aspect = min(rw, rh) / max(rw, rh)
        fill = area / (rw * rh)
        if abs(aspect - card_mm[0] / card_mm[1]) > 0.12 or fill < 0.85:
            continue
        if best is None or area > best[0]:
            best = (area, rect)
    return best


# --------------------------------------------------------------------------------- library
class CardLibrary:
    """The enrolled faces of one game's cards."""

    def __init__(self, game: str = "", card_mm: tuple[float, float] = CARD_MM):
        self.game = game
        self.card_mm = card_mm
        self._size = canonical_size(card_mm)
        self._faces: dict[str, _Face] = {}
        self._twins: dict[str, str] = {}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._faces)

    @property
    def twins(self) -> dict[str, str]:
        """Cards printed alike: name → the design they share, for every card of a design
        that has two copies or more (the form :class:`companion.vision.altitude.faces.
        CardMatcher` takes). Cards not named are each their own design."""
        return dict(self._twins)

    def design(self, name: str) -> str:
        """The design a card belongs to (its own name when it has no twin)."""
        return self._twins.get(name, name)

    def set_twins(self, groups: Iterable[Iterable[str]] | dict[str, str]) -> None:
        """Declare cards printed alike: groups of names (each group one design, named after
        its first card), or a mapping name → design. Every name must be enrolled; a card in
        two groups is refused. Replaces what was declared before."""
        if isinstance(groups, dict):
            by_design: dict[str, list[str]] = {}
            for name, design in groups.items():
                by_design.setdefault(str(design), []).append(str(name))
            named = list(by_design.items())
        else:
            named = []
            for g in groups:
                members = [str(n) for n in g]
                if members:
                    named.append((members[0], members))
        twins: dict[str, str] = {}
        for design, members in named:
            unknown = [n for n in members if n not in self._faces]
            if unknown:
                raise BadInput(f"cards printed alike must be enrolled: {', '.join(unknown)} is not",
                               hint=f"enrolled: {', '.join(self.names)}")
            if len(set(members)) < 2:
                continue
            for n in members:
                if n in twins and twins[n] != design:
                    raise BadInput(f"card {n} is declared printed alike in two groups")
                twins[n] = design
        self._twins = twins

    def __len__(self) -> int:
        return len(self._faces)

    def face(self, name: str) -> np.ndarray:
        """The stored face of an enrolled card (canonical BGR)."""
        return self._faces[name].image.copy()

    def enroll(self, name: str, image_of_card_rectified: np.ndarray) -> None:
        """Enrol (or replace) a card from an image of the card alone, seen square-on (its top
        upwards; landscape images are turned to portrait)."""
        if not isinstance(name, str) or not name.strip():
            raise BadInput("a card needs a name")
        self._faces[name] = _describe(name, image_of_card_rectified, self._size)

    def enroll_from_view(self, name: str, frames: Iterable[Any], zone_polygon_mm: Sequence[Sequence[float]],
                         view: Any) -> np.ndarray:
        """Enrol a card shown in a zone of the table: each frame's zone is rectified, the card
        cut out, and the cut-outs' median kept (less noise than any one frame). Returns the
        face stored. Raises :class:`BadInput` when no frame shows a card in the zone."""
        cuts = []
        for frame in frames:
            image = getattr(frame, "image", frame)
            card = find_card(rectify_zone(image, zone_polygon_mm, view), self.card_mm)
            if card is not None:
                cuts.append(card)
        if not cuts:
            raise BadInput(f"no card seen in the zone while enrolling {name!r}",
                           hint="lay the card flat inside the marked zone, fully visible, and keep hands away")
        face = np.median(np.stack(cuts), axis=0).astype(np.uint8)
        self.enroll(name, face)
        return face

    def match(self, rectified_or_region: np.ndarray, *, find: bool = True) -> CardMatch:
        """The enrolled card that best matches an image of a card (or of a zone holding one,
        which is searched for the card when ``find``)."""
        if not self._faces:
            raise BadInput("no card enrolled yet", hint="run `companion calibrate cards` first")
        img = np.asarray(rectified_or_region)
        card = img
        if find:
            cut = find_card(img, self.card_mm)
            if cut is not None:
                card = cut
            elif not _looks_like_a_card(img, self.card_mm):
                return CardMatch(None, 0.0, 0.0)
        import cv2

        q = _describe("?", card, self._size)
        q_flip = _describe("?", cv2.rotate(q.image, cv2.ROTATE_180), self._size)
        scores = sorted(((max(_score(q, f), _score(q_flip, f)), n) for n, f in self._faces.items()),
                        reverse=True)
        best, name = scores[0]
        second, runner = scores[1] if len(scores) > 1 else (0.0, None)
        if best < REJECT_SCORE:
            return CardMatch(None, 0.0, best, name, best)
        absolute = min(1.0, (best - REJECT_SCORE) / 0.25)
        margin = min(1.0, max(0.0, best - second) / 0.2)
        return CardMatch(name, round(absolute * margin, 4), best, runner, second)

    def recognise(self, rectified_or_region: np.ndarray) -> tuple[str | None, float]:
        """(name or None, confidence) for an image of a card or of the zone holding it."""
        m = self.match(rectified_or_region)
        return m.name, m.confidence

    def recognise_in_view(self, image: np.ndarray, zone_polygon_mm: Sequence[Sequence[float]],
                          view: Any) -> CardMatch:
        """Read the card lying in a zone of a camera image."""
        return self.match(rectify_zone(image, zone_polygon_mm, view))

    def similarity(self, a: str, b: str) -> float:
        """How alike two enrolled faces are, as the recogniser scores them (1 = identical),
        after the blur and noise of a camera."""
        fa, fb = self._faces[a], self._faces[b]
        seen = _describe(a, _camera_like(fa.image), self._size)
        import cv2

        flipped = _describe(a, cv2.rotate(seen.image, cv2.ROTATE_180), self._size)
        return max(_score(seen, fb), _score(flipped, fb))

    def confusion_check(self, threshold: float = CONFUSION_SCORE) -> list[tuple[str, str, float]]:
        """Pairs of enrolled cards of different designs too alike to be told apart reliably:
        (a, b, similarity), most alike first. Cards printed alike (:attr:`twins`) are one
        design: their likeness is expected and not reported, and a design is compared with
        another through the copy most like it. Empty when every design is distinct."""
        names = self.names
        out: dict[tuple[str, str], tuple[str, str, float]] = {}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                da, db = self.design(a), self.design(b)
                if da == db:
                    continue
                s = max(self.similarity(a, b), self.similarity(b, a))
                if s < threshold:
                    continue
                key = (min(da, db), max(da, db))
                if key not in out or s > out[key][2]:
                    out[key] = (a, b, round(s, 4))
        return sorted(out.values(), key=lambda t: -t[2])

    def look_alike_groups(self, threshold: float = TWIN_SCORE) -> list[tuple[str, ...]]:
        """Groups of enrolled cards that look printed alike (every pair scoring at least
        ``threshold`` with a member of its group) and that :attr:`twins` does not already
        make one design: copies of one card to declare, or two cards to enrol again."""
        names = self.names
        parent = {n: n for n in names}

        def root(n: str) -> str:
            while parent[n] != n:
                parent[n] = parent[parent[n]]
                n = parent[n]
            return n

        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if self.design(a) == self.design(b):
                    continue
                if max(self.similarity(a, b), self.similarity(b, a)) >= threshold:
                    parent[root(a)] = root(b)
        groups: dict[str, list[str]] = {}
        for n in names:
            groups.setdefault(root(n), []).append(n)
        out = []
        for members in groups.values():
            if len({self.design(n) for n in members}) > 1:
                out.append(tuple(members))
        return out

    # ----------------------------------------------------------------------------- storage
    def save(self, path: str | Path) -> Path:
        """Write the faces (the descriptors are recomputed on load) atomically."""
        p = Path(path).expanduser()
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp.npz")
        np.savez_compressed(tmp, format=np.array("companion-cards-1"), game=np.array(self.game),
                            card_mm=np.array(self.card_mm, dtype=np.float64),
                            names=np.array(list(self.names), dtype=object).astype(str),
                            designs=np.array([self.design(n) for n in self.names], dtype=object).astype(str),
                            faces=np.stack([f.image for f in self._faces.values()]) if self._faces
                            else np.zeros((0, self._size[1], self._size[0], 3), np.uint8))
        tmp.replace(p)
        return p

    @classmethod
    def load(cls, path: str | Path) -> "CardLibrary":
        p = Path(path).expanduser()
        hint = "enrol the cards again with `companion calibrate cards`"
        if not p.is_file():
            raise BadInput(f"no enrolled cards at {p}", hint=hint)
        try:
            with np.load(p, allow_pickle=False) as data:
                if str(data["format"]) != "companion-cards-1":
                    raise BadInput("not a card library", where=str(p), hint=hint)
                lib = cls(str(data["game"]), tuple(float(v) for v in data["card_mm"]))  # type: ignore[arg-type]
                names, faces = [str(n) for n in data["names"]], data["faces"]
                # libraries saved before cards printed alike were recorded have no designs
                designs = [str(d) for d in data["designs"]] if "designs" in data.files else list(names)
        except BadInput:
            raise
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise BadInput(f"damaged card library ({exc})", where=str(p), hint=hint) from None
        if len(names) != len(faces) or len(designs) != len(names):
            raise BadInput("damaged card library (names and faces differ)", where=str(p), hint=hint)
        for name, face in zip(names, faces):
            lib.enroll(name, face)
        lib.set_twins({n: d for n, d in zip(names, designs)})
        return lib


def library_path(game: str, data: str | Path | None = None) -> Path:
    """Where a game's enrolled cards are kept: ``cards-<game>.npz`` in the data directory."""
    from companion.paths import data_dir

    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in game) or "cards"
    return data_dir(data) / f"cards-{safe}.npz"


def _looks_like_a_card(img: np.ndarray, card_mm: tuple[float, float]) -> bool:
    """An image given as "the card" (no card cut out of it) must at least have a card's shape."""
    h, w = img.shape[:2]
    aspect = min(h, w) / max(h, w)
    return abs(aspect - card_mm[0] / card_mm[1]) < 0.1


def _camera_like(face: np.ndarray) -> np.ndarray:
    """A face as a camera would deliver it: slightly blurred, noisy, recompressed (fixed
    seed, so the confusion check is repeatable)."""
    import cv2

    img = cv2.GaussianBlur(face, (0, 0), 1.0).astype(np.float32)
    img += np.random.default_rng(0).normal(0, 4.0, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)
