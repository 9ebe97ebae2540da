"""Which enrolled card a card on the table is, from the part of its face that shows.

A card in a mountain is half covered by the étage above it, so a card is recognised from its
*visible part*, whatever it is: the lower half of a covered card, the lower half and one upper
corner of a card only one card rests on, the whole face of a card nothing rests on. The faces
enrolled once (``companion calibrate cards``, kept by :class:`~companion.vision.cards.
CardLibrary`) are compared with the card on exactly the pixels that show, so two cards that
differ only in their upper halves are told apart when those show and reported as uncertain when
they do not, and two that differ only in a small print mark are told apart by that mark.

The comparison works on the card cut out square-on at :data:`CANON_PPM` pixels a millimetre,
upright, with its own white border as the white reference (a warm or cold, bright or dim light
then changes little), in CIE L*a*b*: brightness carries the drawing, a* and b* the colours. Three
steps keep it quick:

* **align**: the cut-out is turned and shifted to fit the average of all faces (the white
  border and the colour field every card has) on the visible pixels;
* **shortlist**: every enrolled face is compared at a quarter of the resolution, one matrix
  product for all of them;
* **decide**: the shortlisted faces are compared at full resolution, a pixel either way, by the
  squared difference over the visible pixels, the faces blurred first as much as the camera
  blurs the card (a face enrolled sharper than the camera sees the table would otherwise be
  penalised for its detail); the likeliest faces of three designs each at the blur and shift
  that suit it best. The band along the card's own edge is left out (blurred into what the card
  lies on, it says more about a half-millimetre's misplacement than about the drawing). The
  best face is the reading; how much better it is than the next gives the confidence.

Each channel is fitted with its own brightness and contrast, so an olive field and a green one
look alike to the drawing's comparison. Once the frame's *tint* is known (:func:`tint_of`: how
the sure readings' colours differ from their faces'), :meth:`CardMatcher.decide` weighs each
face's mean colour too (:data:`COLOUR_WEIGHT`), among the faces the drawing shortlisted.

Two things a camera does at enrolment are undone in the decision. A face enrolled over-exposed
has its white, its pale fields and light print clipped to one level in some channels, where
the table's camera sees them apart: a clipped pixel of a face is a bound (the card was at least
that bright), so it costs only where the card is darker than the clipped level
(:func:`residuals`'s ``censored``). Copies of a card printed alike (:attr:`CardMatcher.twins`)
differ by a small print-run mark; each copy's enrolment has its own blur and noise, so over
the whole face the copy enrolled closest to what the camera sees wins whatever the mark says:
the copy is picked on the pixels where the copies differ alone (:meth:`CardMatcher.marks`).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Sequence

import cv2
import numpy as np

from companion.errors import BadInput

#: the name a card's back is enrolled under (``companion calibrate cards`` shows one card face
#: down): a back is read like any face
BACK = "back"
#: resolution of cut-outs and templates (pixels a millimetre): the card library's
CANON_PPM = 2.0
#: white paper in the comparison's planes
FEATURE_SCALE = 4.0
#: how far the alignment turns the cut-out (degrees) and in what steps
ALIGN_TURNS = (-3.0, -1.5, 0.0, 1.5, 3.0)
#: how far it shifts it (mm each way)
ALIGN_SHIFT_MM = 6.0
#: faces kept after the shortlist
SHORTLIST = 6
#: how much the mean colour's misfit (:func:`colour_misfit`) weighs beside the drawing's
#: (mean squared difference a pixel) once the frame's tint is known, per misfit as large as
#: the frame's sure readings show (:attr:`Tint.noise`): a face whose colour is off by ten
#: times that pays 0.02, about what a digit's drawing costs a face at a camera's millimetre
#: a pixel. On the rendered corpus, where cards are enrolled through another camera than the
#: one reading them, colours are far less sure than drawings: weighed more, they cost cards
COLOUR_WEIGHT = 0.002
#: of the shortlist, the likeliest faces of this many designs are each compared at the blur and
#: shift that suit them best
REFINE = 3
#: the camera's blur (in its own pixels) beyond the pixel's footprint, for matching blurs
CAMERA_BLUR_PX = 1.1
#: the blurs (their pixels) faces are kept at, and the extra blur tried beyond what the
#: camera's resolution suggests
BLUR_LEVELS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0)
BLUR_STEPS = (0.0, 0.5, 1.0)
#: a reading's confidence is capped here (a camera is never certain)
MAX_CONF = 0.995
#: how many pixels' worth of better fit (squared difference summed over the pixels compared)
#: make a reading surer than a coin toss between the two best faces
GAP_SCALE = 5.0
#: a card's white border (mm) and the frame the alignment looks at (mm from the edge; the very
#: edge is left out: blurred, it takes the colour of what the card lies on)
BORDER_MM = 3.0
RING_MM = 6.0
EDGE_MM = 1.0
#: the band along the card's own edge (mm) the decision leaves out: at a camera's millimetre
#: a pixel, blurred, it is half card and half what the card lies on, and half a millimetre of
#: misplacement there weighs more than the drawing of a digit (a lone olive 8 fitted a green
#: 5 better through its edges alone)
DECIDE_EDGE_MM = 2.0
#: the card's frame must fit a cut-out at least this well (normalised correlation) for it to
#: hold a card at all
MIN_ALIGN = 0.2
#: when the frame fits worse, the cut-out is aligned on the drawing of this many faces most
#: like it, and must correlate with one of them at least this well
FACE_ALIGN_SHORTLIST = 3
MIN_FACE_ALIGN = 0.5
#: ... which is tried only where a face correlates at least this well at the nominal place
FACE_ALIGN_HINT = 0.25
#: a face must explain at least this share of the cut-out's variance to be a reading (a bare
#: table, or a card that was never enrolled, explains little)
MIN_EXPLAINED = 0.5
#: ... and this share where a card must lie (a card above rests on it)
MUST_HOLD_EXPLAINED = 0.45
#: the best face must explain at least this share of the cut-out at a quarter of the
#: resolution for the full comparison to be made (on rendered corpora, every card read scored
#: 0.49 or more there, and 99.8 % of the points holding no card scored less)
COARSE_EXPLAINED = 0.3
#: ... and this share where a card must lie: on 12 corpus frames every card read where one must
#: lie scored 0.43 or more there, while 85 % of those places that held none (the slots under a
#: mountain's lowest étage, under cards of a wrong lattice) scored less, each a full comparison
MUST_HOLD_COARSE = 0.2
#: a camera value this high is clipped: the pixel is left out of the comparison
SATURATED = 250
#: a face's pixel is taken as clipped at enrolment where this share of the enrolled pixels it
#: stands for were (:data:`SATURATED`): the face there only says "at least this bright"
CLIPPED_FACE = 0.5
#: whether the decision weighs clipped face pixels as bounds (see :func:`residuals`)
CENSOR_CLIPPED = True
#: how many visible pixels a reading needs at least (a sliver says nothing)
MIN_VISIBLE_PX = 600
#: an enrolled face whose drawing lies this far (pixels at :data:`CANON_PPM`) off the card's
#: frame is moved onto it (:func:`registered`)
REGISTER_MIN_PX = 3
#: copies of a design (cards printed alike) differ where their faces differ by more than this
#: share of their largest difference (and than :data:`MARK_NOISE` times the faces' own noise):
#: their print-run mark, a few millimetres; a copy is picked on those pixels alone
MARK_SHARE = 0.3
MARK_NOISE = 6.0
#: ... grown by this much (mm) all round (a mark blurs into its neighbourhood)
MARK_GROW_MM = 1.0
#: ... and a mark covering more than this share of the card is no small mark (copies enrolled
#: out of step with each other differ along every edge): the copies are then told apart as
#: any two faces are
MARK_MAX_SHARE = 0.05
#: a copy's mark is compared once the card's brightness round it (this far, mm) is taken into
#: account, each channel's own
MARK_RING_MM = 3.0
#: how many libraries' registered faces and templates are kept for the readers made from them
#: (one per light a bench enrols under; a referee loads one)
SHARED_LIBRARIES = 6
#: those faces and templates: (names, face shape, digest of the faces) → (registered faces,
#: their blur, the templates' cache)
_SHARED: "OrderedDict[tuple, tuple[tuple[np.ndarray, ...], float, dict]]" = OrderedDict()


@dataclass(frozen=True)
class FaceMatch:
    """The reading of one card: ``name`` (None when no enrolled face fits), ``conf`` (0–1),
    ``mse`` of the best face on the visible pixels, ``runner_up`` and its ``mse``, how the
    cut-out was aligned (``turn`` degrees, ``shift`` mm in the card's frame), how many pixels
    were compared and the share of the cut-out's variance the best face explains."""

    name: str | None
    conf: float
    mse: float
    runner_up: str | None = None
    runner_mse: float = float("inf")
    turn: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    visible_px: int = 0
    explained: float = 0.0
    #: how many pixels the drawings were compared on, the share a reading must explain, the
    #: faces it was decided among, and whether the frame's tint weighed their colours
    compared_px: int = 0
    floor: float = MIN_EXPLAINED
    alternatives: tuple["Alternative", ...] = ()
    tinted: bool = False
    #: for each design compared that has copies printed alike (:attr:`CardMatcher.twins`),
    #: the copy whose print-run mark fits best (:meth:`CardMatcher._pick_copies`): design → name
    copies: tuple[tuple[str, str], ...] = ()
    #: ... and how badly each copy's mark fits (squared difference summed over the mark's
    #: pixels): design → ((name, misfit), ...), for telling apart two cards of a frame that
    #: took the same copy (:func:`distinct_copies`)
    copy_misfits: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()


@dataclass(frozen=True)
class Alternative:
    """A face a card was compared with at the place that suits it: its drawing's misfit away
    from the card's edge (``score``), its ``mse`` and ``explained`` share over every visible
    pixel, the ``shift`` (mm), and the mean colour of the card (``mean_q``) and of the face
    (``mean_f``) there, each divided by its own white."""

    name: str
    score: float
    mse: float
    explained: float
    shift: tuple[float, float]
    mean_q: np.ndarray = field(repr=False)
    mean_f: np.ndarray = field(repr=False)


def features(bgr: np.ndarray, white: np.ndarray | None = None) -> np.ndarray:
    """A BGR image (uint8 or float 0–255) as the planes the comparison uses: each channel
    divided by ``white`` (the card's own white border; the image's brightest pixels when None)
    and scaled so that white paper is :data:`FEATURE_SCALE`. Each channel is later fitted with
    its own brightness and contrast, so the camera's white balance and exposure matter little."""
    f = np.asarray(bgr, np.float32)
    if white is None:
        white = _white_of(f)
    return f * (FEATURE_SCALE / np.maximum(np.asarray(white, np.float32), 1.0))


def _white_of(f: np.ndarray) -> np.ndarray:
    flat = f.reshape(-1, 3)
    lum = _lum(flat)
    k = max(20, len(flat) // 25)
    top = flat[np.argpartition(lum, -k)[-k:]]
    return np.maximum(np.median(top, axis=0), 1.0)


def border_white(bgr: np.ndarray, mask: np.ndarray, ppm: float = CANON_PPM) -> np.ndarray | None:
    """The white of a card's own border, from a cut-out (card filling it, upright) and the mask
    of its visible pixels: the brighter half of the border pixels that show."""
    h, w = mask.shape
    b0, b1 = int(round(0.8 * ppm)), int(round(2.4 * ppm))
    ring = np.zeros((h, w), bool)
    ring[:, b0:b1] = True
    ring[:, w - b1:w - b0] = True
    ring[h - b1:h - b0, :] = True
    ring[b0:b1, :] = True
    ring &= mask
    px = np.asarray(bgr, np.float32)[ring]
    if len(px) < 30:
        return None
    lum = _lum(px)
    keep = px[lum >= np.median(lum)]
    return np.maximum(np.median(keep, axis=0), 1.0)


def edge_sigma(face_bgr: np.ndarray, ppm: float = CANON_PPM) -> float:
    """How blurred an enrolled face is (Gaussian sigma, in its pixels), from the step between
    its white border and its colour field on the left and right sides."""
    g = cv2.cvtColor(np.asarray(face_bgr, np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = g.shape
    rows = g[int(h * 0.3):int(h * 0.5)]
    sigmas = []
    for prof in (rows[:, : int(7 * ppm)].mean(axis=0), rows[:, w - int(7 * ppm):][:, ::-1].mean(axis=0)):
        d = -np.diff(prof)
        d = np.clip(d, 0, None)
        if d.sum() < 20:
            continue
        x = np.arange(len(d)) + 0.5
        m = float((d * x).sum() / d.sum())
        var = float((d * (x - m) ** 2).sum() / d.sum())
        sigmas.append(math.sqrt(max(var - 1.0 / 12.0, 0.0)))
    return float(np.median(sigmas)) if sigmas else 1.0


@dataclass
class _Faces:
    """Templates of every enrolled face at one blur: half and quarter resolution."""

    half: np.ndarray      # n × H/2 × W/2 × 3
    quarter: np.ndarray   # n × (H/4 · W/4 · 3), flattened for the shortlist
    mean_half: np.ndarray  # H/2 × W/2 × 3: every card's frame, for alignment
    light_half: np.ndarray | None = None  # n × H/2 × W/2: each face's whiteness, for alignment
    #: n × H/2 × W/2 × 3: where each face's channel was clipped at enrolment (share of its
    #: pixels), None when no face has a clipped pixel
    clipped_half: np.ndarray | None = None
    #: ``clipped_half`` over :data:`CLIPPED_FACE` (n × pixels × 3), and whether each face has
    #: such a pixel at all (n)
    clipped_mask: np.ndarray | None = None
    clipped_any: np.ndarray | None = None
    #: what a card that shows whole is compared with, built the first time one is
    #: (:meth:`CardMatcher._whole`): most cards read show whole (nothing on them, or a bare
    #: lattice point refused), and the faces' pixels they are compared on are then always the same
    whole: dict = field(default_factory=dict, repr=False)


@dataclass
class CardMatcher:
    """Recognises cards against the faces of a :class:`~companion.vision.cards.CardLibrary`
    (any object with ``names`` and ``face(name)`` giving canonical BGR faces at
    :data:`CANON_PPM`)."""

    names: tuple[str, ...]
    faces_bgr: tuple[np.ndarray, ...] = field(repr=False)
    face_sigma: float = 1.0
    #: cards printed alike (a deck's duplicates: name → the design they share). A reading is as
    #: sure as the gap to the nearest face of *another* design: telling one copy of a design
    #: from another matters to nobody at the table, so a near tie between copies is no doubt.
    twins: dict[str, str] = field(default_factory=dict)
    _cache: dict = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def from_library(cls, library) -> "CardMatcher":
        names = tuple(library.names)
        if not names:
            raise BadInput("no card enrolled yet", hint="run `companion calibrate cards --game altitude`")
        faces = tuple(np.asarray(library.face(n), np.uint8) for n in names)
        shapes = {f.shape for f in faces}
        if len(shapes) != 1:
            raise BadInput("the enrolled faces differ in size: enrol the cards again")
        # the same faces enrolled (a reader made again for another camera or seat, the same
        # library) share their registration and templates: built once, not for each reader
        digest = hashlib.blake2b(digest_size=16)
        for n, f in zip(names, faces):
            digest.update(n.encode() + b"\0" + f.tobytes())
        key = (names, faces[0].shape, digest.hexdigest())
        shared = _SHARED.get(key)
        if shared is None:
            registered_faces = registered(faces)
            shared = (registered_faces, float(np.median([edge_sigma(f) for f in registered_faces])), {})
            _SHARED[key] = shared
            while len(_SHARED) > SHARED_LIBRARIES:
                _SHARED.popitem(last=False)
        else:
            _SHARED.move_to_end(key)
        # the cards printed alike the library records (``companion calibrate cards --twins``)
        twins = {n: d for n, d in dict(getattr(library, "twins", {}) or {}).items() if n in names}
        out = cls(names, shared[0], shared[1], twins)
        out._cache = shared[2]
        return out

    def with_twins(self, twins: dict[str, str]) -> "CardMatcher":
        """The same faces with other cards declared printed alike (their templates shared)."""
        out = replace(self, twins=dict(twins))
        out._cache = self._cache
        return out

    @property
    def size(self) -> tuple[int, int]:
        h, w = self.faces_bgr[0].shape[:2]
        return w, h

    def __len__(self) -> int:
        return len(self.names)

    # -- templates ------------------------------------------------------------------------------

    def templates(self, blur: float) -> _Faces:
        """Every face blurred by ``blur`` (its pixels), as features at three resolutions."""
        key = min(BLUR_LEVELS, key=lambda b: abs(b - blur))
        got = self._cache.get(key)
        if got is not None:
            return got
        half, quarter, clipped = [], [], []
        for face in self.faces_bgr:
            f = face.astype(np.float32)
            c = face >= SATURATED
            if key > 0.2:
                f = cv2.GaussianBlur(f, (0, 0), key)
            f = features(f)
            half.append(_down(f, 2))
            quarter.append(_down(f, 4).ravel())
            if c.any():
                c = c.astype(np.float32)
                clipped.append(_down(cv2.GaussianBlur(c, (0, 0), key) if key > 0.2 else c, 2))
            else:  # nothing clipped: blurred and shrunk, still nothing
                clipped.append(np.zeros(half[-1].shape, np.float32))
        half_a = np.stack(half)
        clip_a = np.stack(clipped)
        clip_mask = clip_a > CLIPPED_FACE
        out = _Faces(half_a, np.stack(quarter), np.stack([_frame_template(half_a.shape[1:3])] * 3, axis=2),
                     np.ascontiguousarray(half_a.min(axis=3)),
                     clip_a if bool(clip_mask.any()) else None,
                     clip_mask.reshape(len(clip_mask), -1, 3), clip_mask.reshape(len(clip_mask), -1).any(axis=1))
        self._cache[key] = out
        return out

    # -- matching -------------------------------------------------------------------------------

    def match(self, crop: np.ndarray, visible: np.ndarray, camera_ppm: float,
              candidates: Sequence[str] | None = None, *, must_hold: bool = False,
              tint: Tint | None = None) -> FaceMatch:
        """Read the card in ``crop``: a BGR cut-out at :data:`CANON_PPM`, upright, the card's
        nominal place in its middle with :data:`ALIGN_SHIFT_MM` of margin all round;
        ``visible`` (H × W, the card's own size) marks the card's pixels that show;
        ``camera_ppm`` is how many camera pixels a millimetre of the card covers.
        ``must_hold``: the place must hold a card (a card above rests on it), so the quick
        refusals that spare the reader most bare lattice points are skipped but the coarse
        one (at :data:`MUST_HOLD_COARSE`), and a face need explain only
        :data:`MUST_HOLD_EXPLAINED` of the cut-out (a hand over it explains far less)."""
        w, h = self.size
        m = int(round(ALIGN_SHIFT_MM * CANON_PPM))
        if crop.shape[0] != h + 2 * m or crop.shape[1] != w + 2 * m:
            raise BadInput(f"a card cut-out is {w + 2 * m}×{h + 2 * m} px, not "
                           f"{crop.shape[1]}×{crop.shape[0]}")
        vis = np.asarray(visible, bool)
        n_vis = int(vis.sum())
        if n_vis < MIN_VISIBLE_PX:
            return FaceMatch(None, 0.0, float("inf"), visible_px=n_vis)
        sigma_q = CAMERA_BLUR_PX * CANON_PPM / max(camera_ppm, 0.2)
        blur_t = math.sqrt(max(sigma_q ** 2 - self.face_sigma ** 2, 0.0))
        blur_q = math.sqrt(max(self.face_sigma ** 2 - sigma_q ** 2, 0.0))
        src = np.asarray(crop, np.float32)
        if blur_q > 0.3:
            src = cv2.GaussianBlur(src, (0, 0), blur_q)
        white = border_white(src[m:m + h, m:m + w], vis)
        feats = features(src, white)
        t = self.templates(blur_t)
        light = _lightness(_down(feats, 2))
        fit, turn, dx, dy = self._align(light, vis, t, m)
        on_faces = fit < MIN_ALIGN
        if on_faces:
            # a pale face (an avalanche's field is nearly as light as its border) shows little
            # of the frame every card has: align it on the faces themselves instead
            fit, turn, dx, dy = self._align_on_faces(light, vis, t, m)
            if fit < MIN_FACE_ALIGN and not must_hold:
                return FaceMatch(None, 0.0, float("inf"), turn=turn, visible_px=n_vis)
        # a clipped channel (over-exposed white, a light colour) says nothing about the drawing
        clipped = (np.asarray(crop) >= SATURATED).astype(np.uint8)
        grown = cv2.dilate(clipped, np.ones((3, 3), np.uint8)).astype(np.float32) if clipped.any() else None
        # shortlist at quarter resolution, at the aligned place
        vq = self._whole(t, vis, "vq", lambda: (_down(vis.astype(np.float32), 4) > 0.99).ravel())
        tv = self._whole(t, vis, "quarter", lambda: t.quarter.reshape(len(self.names), -1, 3)[:, vq])

        def shortlist(turn: float, dx: int, dy: int) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, float]:
            """The cut-out turned, where its clipped pixels are not, and every face's coarse
            misfit at the place (turn, shift) with the share of the cut-out the best explains."""
            turned = _turned(feats, turn)
            x0, y0 = m + dx, m + dy
            keep = None if grown is None else _turned(grown, turn) < 0.5  # (h + 2m) × (w + 2m) × 3
            qv = _down(turned[y0:y0 + h, x0:x0 + w], 4).reshape(-1, 3)[vq]
            wq = None
            if keep is not None:
                wq = (_down(keep[y0:y0 + h, x0:x0 + w].astype(np.float32), 4) > 0.99).reshape(-1, 3)[vq]
                wq = wq.astype(np.float32)
            # every face's centred drawing and its spread, the same for every card shown whole
            plain = wq is None or bool(wq.all())
            coarse = residuals(qv, tv, wq, centred=self._whole(t, vis, "quarter_centred", lambda: _centred(tv))
                               if plain else None)
            return turned, keep, coarse, 1.0 - float(coarse.min()) / max(query_variance(qv, wq), 1e-9)

        least = MUST_HOLD_COARSE if must_hold else COARSE_EXPLAINED
        turned, keep, coarse, near = shortlist(turn, dx, dy)
        if near < least and not on_faces and must_hold:
            # the frame every card has was found off the card (the frame of a card beside or
            # over it fits better than a pale face's own, whose field is nearly as light as its
            # border): a card must lie here, so it is looked for again aligned on the faces
            fit2, turn2, dx2, dy2 = self._align_on_faces(light, vis, t, m)
            if fit2 >= MIN_FACE_ALIGN:
                got = shortlist(turn2, dx2, dy2)
                if got[3] > near:
                    (turned, keep, coarse, near), (turn, dx, dy) = got, (turn2, dx2, dy2)
        x0, y0 = m + dx, m + dy
        if near < least:
            # no face comes near at a quarter of the resolution: no card here (most lattice
            # points a mountain's reading tries are bare table or a card's edge)
            return FaceMatch(None, 0.0, float("inf"), turn=turn, visible_px=n_vis)
        order = [int(i) for i in np.argsort(coarse)]
        if candidates is not None:
            allowed = {self.names.index(c) for c in candidates if c in self.names}
            order = [i for i in order if i in allowed]
        short = order[:SHORTLIST]
        if not short:
            return FaceMatch(None, 0.0, float("inf"), visible_px=n_vis)
        # decide: the blur, then the shift (half a millimetre either way), that best fit the
        # first face of the shortlist; then every shortlisted face there. Compared at half
        # resolution: the camera sees about a pixel a millimetre, finer pixels add nothing.
        vis_h = self._whole(t, vis, "vis_h", lambda: _down(vis.astype(np.float32), 2) > 0.99)
        sel = vis_h.ravel()
        # the pixels the decision weighs: those the card's own edge does not blur
        sub = self._whole(t, vis, "sub", lambda: (vis_h & _inner(vis.shape, DECIDE_EDGE_MM, 2)).ravel()[sel])
        whole = bool(sel.all())
        # the half-resolution pixels the decision weighs, by their index in a face (picking
        # them at once rather than the visible ones first, then those among them)
        weighed = np.flatnonzero(sel)[sub]

        def drawn(bt: float, idx: Sequence[int]) -> np.ndarray:
            """The faces ``idx`` at blur ``bt`` on the pixels the decision weighs (K × N × 3)."""
            tb = self.templates(bt)
            if whole:
                got = tb.whole.get("drawn")
                if got is None:
                    got = tb.whole["drawn"] = tb.half.reshape(len(self.names), -1, 3)[:, sub]
                return got[list(idx)]
            return tb.half.reshape(len(self.names), -1, 3)[np.ix_(list(idx), weighed)]

        windows: dict[tuple[int, int], tuple[np.ndarray, np.ndarray | None]] = {}

        def window(sx: int, sy: int) -> tuple[np.ndarray, np.ndarray | None]:
            got = windows.get((sx, sy))
            if got is not None:
                return got
            win = _down(turned[y0 + sy:y0 + sy + h, x0 + sx:x0 + sx + w], 2).reshape(-1, 3)[sel]
            if keep is None:
                got = (win, None)
            else:
                k = _down(keep[y0 + sy:y0 + sy + h, x0 + sx:x0 + sx + w].astype(np.float32), 2)
                got = (win, (k > 0.99).reshape(-1, 3)[sel].astype(np.float32))
            windows[(sx, sy)] = got
            return got

        def censored(bt: float, idx: Sequence[int]) -> np.ndarray | None:
            """Where the faces ``idx`` (at blur ``bt``) were clipped at enrolment, on the
            pixels the decision weighs (K × N × 3), or None when none was."""
            tb = self.templates(bt)
            c = tb.clipped_half
            if c is None or not CENSOR_CLIPPED or not tb.clipped_any[list(idx)].any():
                return None
            if whole:
                every = tb.whole.get("censored")
                if every is None:
                    every = tb.whole["censored"] = tb.clipped_mask[:, sub]
                got = every[list(idx)]
            else:
                got = tb.clipped_mask[np.ix_(list(idx), weighed)]
            return got if got.any() else None

        weighed_windows: dict[tuple[int, int], tuple[np.ndarray, np.ndarray | None]] = {}

        def window_weighed(sx: int, sy: int) -> tuple[np.ndarray, np.ndarray | None]:
            """:func:`window` on the pixels the decision weighs (each face placed compares
            with the same few windows: picked once)."""
            got = weighed_windows.get((sx, sy))
            if got is None:
                win, wts = window(sx, sy)
                got = weighed_windows[(sx, sy)] = (win[sub], None if wts is None else wts[sub])
            return got

        ring: list[tuple[np.ndarray, np.ndarray | None]] = []
        # the eight shifts a pixel either way, compared with each face placed at once
        shifts = [(sx, sy) for sy in (-1, 0, 1) for sx in (-1, 0, 1) if sx or sy]

        def shifted() -> tuple[np.ndarray, np.ndarray | None]:
            """The windows at the eight shifts, stacked (8 × N × 3) with their weights."""
            if not ring:
                wins = [window_weighed(sx, sy) for sx, sy in shifts]
                ring.append((np.stack([win for win, _ in wins]),
                             None if keep is None else np.stack([wt for _, wt in wins])))
            return ring[0]

        def scores(sx: int, sy: int, faces: np.ndarray, cens: np.ndarray | None = None) -> np.ndarray:
            """How badly each face's drawing (K × N × 3, on the pixels the decision weighs:
            :func:`drawn`) fits, away from the card's edge (``cens``: where each face was
            clipped at enrolment, see :func:`residuals`)."""
            win, wts = window_weighed(sx, sy)
            return residuals(win, faces, wts, cens)

        def place(i: int) -> tuple[float, float, int, int]:
            """(score, blur, sx, sy): the blur, then the shift, that best fit face ``i``."""
            blurs = [blur_t + extra for extra in BLUR_STEPS]
            cs = [censored(bt, [i]) for bt in blurs]
            errs = scores(0, 0, np.concatenate([drawn(bt, [i]) for bt in blurs]),
                          None if all(c is None for c in cs) else
                          np.concatenate([c if c is not None else np.zeros((1, int(sub.sum()), 3), bool)
                                          for c in cs]))
            err0, bt = min(zip(errs.tolist(), blurs))
            face = drawn(bt, [i])[0]
            best = (err0, bt, 0, 0)
            # the eight shifts a pixel either way, compared with the face at once
            wins, wts = shifted()
            c = censored(bt, [i])
            errs = residuals_each(wins, face, wts, None if c is None else c[0])
            for (sx, sy), err in zip(shifts, errs.tolist()):
                if err < best[0]:
                    best = (err, bt, sx, sy)
            return best

        # every shortlisted face at the place that best fits the first; then the likeliest
        # faces of different designs each at its own place (a pixel's shift or a blur step
        # that suits one face can cost another more than the drawings differ)
        placed = {short[0]: place(short[0])}
        _, bt, sx, sy = placed[short[0]]
        errs = scores(sx, sy, drawn(bt, short), censored(bt, short))
        designs: list[str] = []
        for e, i in sorted(zip(errs.tolist(), short)):
            d = self.twins.get(self.names[i], self.names[i])
            if d in designs:
                continue
            designs.append(d)
            if i not in placed:
                placed[i] = place(i)
            if len(designs) == REFINE:
                break
        alternatives = []
        for i, (score, bt, sx, sy) in placed.items():
            win, wts = window(sx, sy)
            face = self.templates(bt).half[i].reshape(-1, 3)[sel]
            # how much of the cut-out the face explains, over every visible pixel (what tells
            # a card from bare table or a hand)
            mse = float(residuals(win, face[None], wts)[0])
            explained = 1.0 - mse / max(query_variance(win, wts), 1e-9)
            k = None if wts is None else wts[sub]
            alternatives.append(Alternative(self.names[i], score, mse, explained,
                                            ((dx + sx) / CANON_PPM, (dy + sy) / CANON_PPM),
                                            _mean(win[sub], k), _mean(face[sub], k)))
        floor = MUST_HOLD_EXPLAINED if must_hold else MIN_EXPLAINED
        misfits = self._pick_copies(placed, turned, keep, x0, y0, vis, window, sel, sub) if self.twins else ()
        copies = tuple((d, min(fits, key=lambda f: f[1])[0]) for d, fits in misfits)
        got = FaceMatch(None, 0.0, float("inf"), turn=turn, visible_px=n_vis, compared_px=int(sub.sum()),
                        floor=floor, alternatives=tuple(sorted(alternatives, key=lambda a: a.score)),
                        copies=copies, copy_misfits=misfits)
        return self.decide(got, tint)

    def decide(self, match: FaceMatch, tint: Tint | None = None) -> FaceMatch:
        """The reading among a match's :attr:`~FaceMatch.alternatives`: the face whose drawing
        fits best, or, given the frame's ``tint`` (:func:`tint_of`), whose drawing and colour
        together fit best (:data:`COLOUR_WEIGHT`). A match with no alternatives is returned
        as it is."""
        alts = match.alternatives
        if not alts:
            return match
        if tint is not None:
            # only among the faces that could be the reading at all
            alts = tuple(a for a in alts if a.explained >= match.floor) or alts
        # the card's colour where its drawing fits best, the same for every face (faces
        # printed alike then differ in drawing alone)
        seen = min(alts, key=lambda a: a.score).mean_q
        scored = sorted(((a.score + (COLOUR_WEIGHT * colour_misfit(seen, a.mean_f, tint.gains) / tint.noise
                                     if tint is not None else 0.0), a) for a in alts),
                        key=lambda t: t[0])
        score, best = scored[0]
        design = self.twins.get(best.name, best.name)
        others = [(e, a) for e, a in scored[1:] if self.twins.get(a.name, a.name) != design]
        base = replace(match, mse=best.mse, shift=best.shift, explained=best.explained, tinted=tint is not None)
        if best.explained < match.floor:
            return replace(base, name=None, conf=0.0, runner_up=best.name, runner_mse=best.mse)
        runner, r_mse = (others[0][1].name, best.mse + others[0][0] - score) if others else (None, float("inf"))
        conf = confidence(best.explained, best.mse, r_mse, match.compared_px)
        # copies printed alike: the one whose print-run mark fits (the rest of their faces is
        # one picture, and a copy enrolled a little sharper would otherwise win every time)
        name = dict(match.copies).get(design, best.name)
        return replace(base, name=name, conf=conf, runner_up=runner, runner_mse=r_mse)

    def marks(self) -> dict[str, tuple[tuple[int, ...], np.ndarray]]:
        """Where the copies of each design printed alike differ (their print-run mark): design →
        (the copies' indices, the mask at :data:`CANON_PPM`), for the designs whose copies
        differ by a small mark only (:data:`MARK_MAX_SHARE`)."""
        key = ("marks", tuple(sorted(self.twins.items())))
        got = self._cache.get(key)
        if got is not None:
            return got
        groups: dict[str, list[int]] = {}
        for i, n in enumerate(self.names):
            d = self.twins.get(n)
            if d is not None:
                groups.setdefault(d, []).append(i)
        out: dict[str, tuple[tuple[int, ...], np.ndarray]] = {}
        offsets: dict[str, np.ndarray] = {}
        g = max(1, int(round(MARK_GROW_MM * CANON_PPM)))
        for d, idx in groups.items():
            if len(idx) < 2:
                continue
            f = [features(cv2.GaussianBlur(self.faces_bgr[i].astype(np.float32), (0, 0), 1.0)) for i in idx]
            # each copy's drawing where it lies against the first copy's: enrolments a fraction
            # of a millimetre apart differ along every edge by more than their marks do
            shift = np.array([(0.0, 0.0)] + [_offset(f[0], fk) for fk in f[1:]])
            f = np.stack([_moved(fk, -sx, -sy) for fk, (sx, sy) in zip(f, shift)])
            dev = np.abs(f - _median_of(f)).max(axis=3).max(axis=0)
            b = int(math.ceil(float(np.abs(shift).max()))) + 1
            dev[:b] = dev[-b:] = 0.0
            dev[:, :b] = dev[:, -b:] = 0.0
            mask = dev > max(MARK_SHARE * float(dev.max()), MARK_NOISE * float(np.median(dev)))
            mask = cv2.dilate(mask.astype(np.uint8), np.ones((2 * g + 1, 2 * g + 1), np.uint8)) > 0
            if 0 < mask.mean() <= MARK_MAX_SHARE:
                out[d] = (tuple(idx), mask)
                offsets[d] = shift
        self._cache[key] = out
        self._cache[("mark_offsets",) + key[1:]] = offsets
        return out

    def _mark_offsets(self) -> dict[str, np.ndarray]:
        """Where each copy's drawing lies against the first copy's (design → K × 2, pixels at
        :data:`CANON_PPM`, x and y), for the designs :meth:`marks` gives."""
        self.marks()
        return self._cache[("mark_offsets", tuple(sorted(self.twins.items())))]

    def _full_at(self, j: int, blur: float, dx: float, dy: float) -> np.ndarray:
        """Face ``j`` as :meth:`_full` gives it, its drawing moved by (``dx``, ``dy``) pixels."""
        if abs(dx) < 0.05 and abs(dy) < 0.05:
            return self._full(j, blur)
        key = ("full_at", j, min(BLUR_LEVELS, key=lambda b: abs(b - blur)), round(dx, 2), round(dy, 2))
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = _moved(self._full(j, blur), dx, dy)
        return got

    def _full(self, i: int, blur: float) -> np.ndarray:
        """Face ``i`` blurred by ``blur`` as features at full resolution (for the marks)."""
        key = ("full", i, min(BLUR_LEVELS, key=lambda b: abs(b - blur)))
        got = self._cache.get(key)
        if got is None:
            f = self.faces_bgr[i].astype(np.float32)
            if key[2] > 0.2:
                f = cv2.GaussianBlur(f, (0, 0), key[2])
            got = self._cache[key] = features(f)
        return got

    def _pick_copies(self, placed: dict, turned: np.ndarray, keep: np.ndarray | None, x0: int, y0: int,
                     vis: np.ndarray, window, sel: np.ndarray, sub: np.ndarray
                     ) -> tuple[tuple[str, tuple[tuple[str, float], ...]], ...]:
        """For each design placed that has copies differing by a small mark (:meth:`marks`),
        how well each copy's mark fits the card (design → ((name, misfit), ...), the best the
        least): compared at full resolution on the mark's
        pixels that show, each channel's brightness and contrast taken from the whole card's
        fit (the mark alone is too small to fit them), at the design's place and a pixel
        either way."""
        marks = self.marks()
        if not marks:
            return ()
        w, h = self.size
        by_design: dict[str, tuple[float, int]] = {}
        for i, (score, *_rest) in placed.items():
            d = self.twins.get(self.names[i])
            if d in marks and (d not in by_design or score < by_design[d][0]):
                by_design[d] = (score, i)
        offsets = self._mark_offsets()
        out = []
        for d, (_, i) in by_design.items():
            idx, mask = marks[d]
            # the copies' drawings and their mark where the placed copy's lies
            shift = offsets[d]
            si = shift[idx.index(i)]
            mask = _moved(mask.astype(np.float32), float(round(si[0])), float(round(si[1]))) > 0.5
            _, bt, sx, sy = placed[i]
            # each channel's brightness and contrast: the card against the placed copy
            win, wts = window(sx, sy)
            face = self.templates(bt).half[i].reshape(-1, 3)[sel]
            q, f = win[sub], face[sub]
            k = np.ones_like(q) if wts is None else wts[sub]
            n = np.maximum(_psum(k), 1.0)
            mq, mf = _psum(q * k) / n, _psum(f * k) / n
            cov = _psum(((q - mq) * (f - mf)) * k)
            gain = np.clip(cov / np.maximum(_psum(((f - mf) ** 2) * k), 1e-9), 0.0, None)
            ys, xs = np.nonzero(mask & vis)
            if len(ys) < 4:
                continue
            # each copy's mark as the card should show it, once; the card at nine places
            pred = np.stack([(self._full_at(j, bt, float(si[0] - sj[0]), float(si[1] - sj[1]))[ys, xs] - mf)
                             * gain + mq for j, sj in zip(idx, shift)])   # K × P × 3
            # the light round the mark: the card's brightness there, where every copy is alike
            # (a light falling unevenly across the card shifts it from the whole card's fit by
            # as much as a stripe of the mark weighs, and the copy with more ink, or less, won)
            ring = _mark_ring(mask, vis, g=int(round(MARK_RING_MM * CANON_PPM)),
                              edge=int(round(DECIDE_EDGE_MM * CANON_PPM)))
            if ring is not None:
                ry, rx = ring
                seen_ring = (self._full(i, bt)[ry, rx] - mf) * gain + mq
            # the card at the design's place and a pixel either way, all at once (S places)
            at = np.array([(y0 + sy + ey, x0 + sx + ex) for ey in (-1, 0, 1) for ex in (-1, 0, 1)])
            at = at[(at[:, 0] >= 0) & (at[:, 1] >= 0) & (at[:, 0] + h <= turned.shape[0])
                    & (at[:, 1] + w <= turned.shape[1])]
            errs = np.full(len(idx), np.inf)
            if len(at):
                off: np.ndarray | float = 0.0
                if ring is not None:
                    py, px = at[:, 0:1] + ry[None], at[:, 1:2] + rx[None]   # S × R
                    dr = turned[py, px] - seen_ring
                    if keep is not None:
                        kr = keep[py, px].astype(np.float32)
                        off = (dr * kr).sum(axis=1) / np.maximum(kr.sum(axis=1), 1.0)
                    else:
                        off = dr.mean(axis=1)
                    off = off[:, None, None, :]
                py, px = at[:, 0:1] + ys[None], at[:, 1:2] + xs[None]       # S × P
                r = (turned[py, px][:, None] - off - pred[None]) ** 2       # S × K × P × 3
                if keep is not None:
                    r = r * keep[py, px][:, None]
                errs = r.sum(axis=(2, 3)).min(axis=0)
            if np.isfinite(errs).all():
                out.append((d, tuple((self.names[j], float(e)) for j, e in zip(idx, errs))))
        return tuple(out)

    def _whole(self, t: _Faces, vis: np.ndarray, name: str, make):
        """``make()``, kept in ``t`` when the card shows whole (``vis`` all set): what depends
        on the visible pixels alone is then the same for every such card."""
        if not vis.all():
            return make()
        got = t.whole.get(name)
        if got is None:
            got = t.whole[name] = make()
        return got

    def _align(self, light: np.ndarray, vis: np.ndarray, t: _Faces, m: int) -> tuple[float, float, int, int]:
        """How well, and with what turn (degrees) and shift (full-resolution pixels), the
        card's frame (its white border and the edge of the colour field inside it, which
        every card has) fits the cut-out where the card shows (``light``: the cut-out's
        :func:`_lightness` at half resolution)."""
        # the frame's template and mask, prepared once for the five turns (and for every card
        # that shows whole: its mask is the whole frame, whose sums come from integral images)
        ncc = self._whole(t, vis, "ring_ncc", lambda: _MaskedNcc(
            t.mean_half[:, :, 0], self._ring(vis), self._ring_bounds() if vis.all() else None))
        hm = m // 2
        best = (-np.inf, 0.0, 0, 0)
        for turn in ALIGN_TURNS:
            r = ncc(_turned(light, turn))
            j = np.unravel_index(int(np.argmax(r)), r.shape)
            if r[j] > best[0]:
                best = (float(r[j]), turn, int(j[1]), int(j[0]))
        fit, turn, jx, jy = best
        return fit, turn, int(np.clip(2 * (jx - hm), -m + 1, m - 1)), int(np.clip(2 * (jy - hm), -m + 1, m - 1))

    def _align_on_faces(self, light: np.ndarray, vis: np.ndarray, t: _Faces, m: int
                        ) -> tuple[float, float, int, int]:
        """Like :meth:`_align`, on the drawing of the few faces most like the cut-out (its
        lightness correlated, where the card shows, with each face's at the nominal place)
        rather than on the frame all cards share; the fit is that correlation."""
        hm = m // 2
        faces = t.light_half if t.light_half is not None else t.half.min(axis=3)  # n × h2 × w2
        h2, w2 = faces.shape[1:3]
        mask = self._whole(t, vis, "face_mask", lambda: _down(vis.astype(np.float32), 2)[:h2, :w2] > 0.99)
        if mask.sum() < 50:
            return -np.inf, 0.0, 0, 0
        q = light[hm:hm + h2, hm:hm + w2][mask]
        q = q - q.mean()

        def centred() -> tuple[np.ndarray, np.ndarray]:
            f = faces[:, mask]
            f = f - f.mean(axis=1, keepdims=True)
            return f, np.linalg.norm(f, axis=1)

        f, f_norm = self._whole(t, vis, "faces_centred", centred)
        corr = (f @ q) / (f_norm * max(float(np.linalg.norm(q)), 1e-9) + 1e-9)
        order = np.argsort(-corr)
        if float(corr[order[0]]) < FACE_ALIGN_HINT:
            # nothing like a face even roughly in place: a bare lattice point, not worth aligning
            return float(corr[order[0]]), 0.0, 0, 0
        weights = mask.astype(np.float32)
        best = (-np.inf, 0.0, 0, 0)

        def fit_at(i: int, turns: Sequence[float]) -> None:
            nonlocal best
            ncc = _MaskedNcc(faces[i], weights)
            for turn in turns:
                r = ncc(_turned(light, turn))
                j = np.unravel_index(int(np.argmax(r)), r.shape)
                if r[j] > best[0]:
                    best = (float(r[j]), turn, int(j[1]), int(j[0]))

        # the turn on the likeliest face, then the next faces at that turn
        fit_at(int(order[0]), ALIGN_TURNS)
        for i in order[1:FACE_ALIGN_SHORTLIST]:
            fit_at(int(i), (best[1],))
        fit, turn, jx, jy = best
        return fit, turn, int(np.clip(2 * (jx - hm), -m + 1, m - 1)), int(np.clip(2 * (jy - hm), -m + 1, m - 1))

    @staticmethod
    def _ring_bounds() -> tuple[int, int]:
        """How far in (half-resolution pixels) the card's frame :meth:`_ring` looks at starts
        and ends."""
        return max(1, int(round(EDGE_MM * CANON_PPM / 2))), int(round(RING_MM * CANON_PPM / 2))

    def _ring(self, vis: np.ndarray) -> np.ndarray:
        """The card's frame at half resolution (from :data:`EDGE_MM` to :data:`RING_MM` in from
        its edge), where it shows."""
        w, h = self.size
        e, r = self._ring_bounds()
        ring = np.ones((h // 2, w // 2), np.float32)
        ring[r:-r, r:-r] = 0.0
        ring[:e, :] = ring[-e:, :] = 0.0
        ring[:, :e] = ring[:, -e:] = 0.0
        return ring * (_down(vis.astype(np.float32), 2) > 0.99)


def registered(faces: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The enrolled faces, each moved onto the card's frame where its cut-out was off by a
    millimetre or more (:data:`REGISTER_MIN_PX`): an enrolment's cut-out can take in a strip of
    the table along one side (the card found a little larger or off centre), and the face's
    drawing then lies off the place every card read is aligned to, so that every card of its
    design fits better a face of another design that was cut out true. Each face is aligned on
    the frame every card has (white border, colour field), as a card read is."""
    faces = tuple(np.asarray(f, np.uint8) for f in faces)
    if not faces:
        return faces
    probe = CardMatcher(tuple(str(i) for i in range(len(faces))), faces[:1], 1.0)
    m = int(round(ALIGN_SHIFT_MM * CANON_PPM))
    h, w = faces[0].shape[:2]
    t = probe.templates(0.0)
    vis = np.ones((h, w), bool)
    out = []
    for f in faces:
        pad = cv2.copyMakeBorder(f, m, m, m, m, cv2.BORDER_REPLICATE)
        light = _lightness(_down(features(pad.astype(np.float32)), 2))
        fit, turn, dx, dy = probe._align(light, vis, t, m)
        if fit < MIN_ALIGN or max(abs(dx), abs(dy)) < REGISTER_MIN_PX:
            out.append(f)
            continue
        out.append(np.ascontiguousarray(_turned(pad, turn)[m + dy:m + dy + h, m + dx:m + dx + w]))
    return tuple(out)


def _mark_ring(mask: np.ndarray, vis: np.ndarray, g: int, edge: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The pixels (rows, columns) round a print-run mark (``mask``), within ``g`` pixels of it,
    that show (``vis``) and lie ``edge`` pixels or more in from the card's edge; None when
    fewer than 20 do."""
    if g <= 0:
        return None
    h, w = mask.shape
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((2 * g + 1, 2 * g + 1), np.uint8)) > 0
    inner = np.zeros_like(grown)
    inner[edge:h - edge, edge:w - edge] = True
    ry, rx = np.nonzero(grown & ~mask & vis & inner)
    return (ry, rx) if len(ry) >= 20 else None


def _offset(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """How far (x, y pixels) the drawing of ``b`` lies from that of ``a`` (two faces' feature
    planes, the same card printed twice): ``b`` is ``a`` moved by it."""
    ga, gb = np.ascontiguousarray(_lightness(a)), np.ascontiguousarray(_lightness(b))
    (dx, dy), _ = cv2.phaseCorrelate(ga, gb)
    warp = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], np.float32)
    try:
        _, warp = cv2.findTransformECC(ga, gb, warp, cv2.MOTION_TRANSLATION,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4), None, 1)
    except cv2.error:
        pass
    dx, dy = float(warp[0, 2]), float(warp[1, 2])
    if not (math.isfinite(dx) and math.isfinite(dy)) or max(abs(dx), abs(dy)) > 3.0:
        return 0.0, 0.0
    return dx, dy


def _moved(img: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """``img`` with its content moved by (``dx``, ``dy``) pixels (its edge repeated)."""
    if abs(dx) < 1e-6 and abs(dy) < 1e-6:
        return img
    h, w = img.shape[:2]
    M = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], np.float32)
    return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class _MaskedNcc:
    """The normalised correlation of a ``template`` where a ``mask`` (0 or 1) holds, at every
    place in an image, −1 where it is undefined (a flat window), for many images (a cut-out at
    several turns): what depends on the template alone is prepared once, and each image costs one plain
    correlation with the template centred on the mask, and the mask's sums of the image and of
    its square (OpenCV's masked ``TM_CCOEFF_NORMED`` prepares the template at each call and
    takes those sums by two more correlations). ``frame`` (``e``, ``r``): the mask is the frame
    from ``e`` to ``r`` pixels in from the template's edge, whose sums come from the image's
    integral images instead."""

    def __init__(self, template: np.ndarray, mask: np.ndarray, frame: tuple[int, int] | None = None):
        t = np.asarray(template, np.float32)
        self.mask = np.ascontiguousarray(mask, np.float32)
        self.n = max(float(self.mask.sum(dtype=np.float64)), 1.0)
        mean = float((t * self.mask).sum(dtype=np.float64)) / self.n
        self.centred = np.ascontiguousarray((t - np.float32(mean)) * self.mask)
        self.norm = math.sqrt(float(np.square(self.centred, dtype=np.float64).sum()))
        self.frame = frame

    def __call__(self, image: np.ndarray) -> np.ndarray:
        num = cv2.matchTemplate(image, self.centred, cv2.TM_CCORR)
        if self.frame is not None:
            s, sq = cv2.integral2(image, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
            e, r = self.frame
            s1 = _box(s, e, self.centred.shape, num.shape) - _box(s, r, self.centred.shape, num.shape)
            s2 = _box(sq, e, self.centred.shape, num.shape) - _box(sq, r, self.centred.shape, num.shape)
        else:
            s1 = cv2.matchTemplate(image, self.mask, cv2.TM_CCORR)
            s2 = cv2.matchTemplate(image * image, self.mask, cv2.TM_CCORR)
        spread = np.sqrt(np.maximum(s2 - s1 * s1 / self.n, 0.0)) * self.norm
        with np.errstate(divide="ignore", invalid="ignore"):
            res = num / spread
        return np.nan_to_num(res, nan=-1.0, posinf=-1.0, neginf=-1.0)


def _box(integral: np.ndarray, a: int, size: tuple[int, int], out: tuple[int, int]) -> np.ndarray:
    """At every place of a window of ``size`` (rows, columns) in an image (``out``: how many
    places down and across), the sum over the window less ``a`` pixels all round, from the
    image's ``integral``."""
    (h, w), (ny, nx) = size, out
    y1, x1 = h - a, w - a
    return (integral[y1:y1 + ny, x1:x1 + nx] - integral[a:a + ny, x1:x1 + nx]
            - integral[y1:y1 + ny, a:a + nx] + integral[a:a + ny, a:a + nx])


def _inner(shape: tuple[int, ...], edge_mm: float, k: int) -> np.ndarray:
    """The pixels of a card-sized mask (``shape`` at :data:`CANON_PPM`) seen at 1/``k`` of
    the resolution that lie at least ``edge_mm`` in from the card's edge."""
    h, w = shape[0] // k, shape[1] // k
    e = int(round(edge_mm * CANON_PPM / k))
    out = np.zeros((h, w), bool)
    out[e:h - e, e:w - e] = True
    return out


def _frame_template(shape: tuple[int, int]) -> np.ndarray:
    """What every card's frame looks like in whiteness at half resolution: white paper for
    :data:`BORDER_MM`, then a darker field."""
    h, w = shape
    b = int(round(BORDER_MM * CANON_PPM / 2))
    out = np.full((h, w), 0.4 * FEATURE_SCALE, np.float32)
    out[:b, :] = out[-b:, :] = FEATURE_SCALE
    out[:, :b] = out[:, -b:] = FEATURE_SCALE
    return cv2.GaussianBlur(out, (0, 0), 0.7)


def residuals(query: np.ndarray, faces: np.ndarray, weights: np.ndarray | None = None,
              censored: np.ndarray | None = None,
              centred: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Mean squared difference per pixel between ``query`` (N × 3) and each of ``faces``
    (K × N × 3) after the best brightness and contrast change of each channel (a light, an
    exposure or a white balance that differs from the enrolment's changes nothing), counting
    only the channels ``weights`` (N × 3, 0 or 1) keeps: a clipped channel says nothing.

    ``censored`` (K × N × 3, bool): where each face was clipped at enrolment (an over-exposed
    card). There the face holds a bound, not a value: the card was at least that bright, so
    the channel's brightness and contrast are fitted on the other pixels, and a clipped
    pixel costs only where the card is darker than the fit says the clipped level is.

    ``centred``: :func:`_centred` of ``faces``, when already known (used where every channel
    counts)."""
    if censored is not None:
        return _residuals_censored(query[None], faces, weights, censored)
    if weights is None or bool(weights.all()):
        q = query - _psum(query) / len(query)
        f, vf = centred if centred is not None else _centred(faces)
        vq = _psum(q * q)
        cov = _psum(f * q)
        gain = np.clip(cov / np.maximum(vf, 1e-9), 0.0, None)
        return (vq[None, :] - gain * cov).sum(axis=1) / max(float(len(query)), 1.0)
    n = np.maximum(_psum(weights), 1.0)                         # 3
    mq = _psum(query * weights) / n
    q = (query - mq) * weights
    mf = _psum(faces * weights) / n                             # K × 3
    f = (faces - mf[:, None, :]) * weights[None]
    vq = _psum(q * q)                                           # 3
    vf = _psum(f * f)                                           # K × 3
    cov = _psum(f * q)                                          # K × 3
    gain = np.clip(cov / np.maximum(vf, 1e-9), 0.0, None)
    resid = vq[None, :] - gain * cov
    return resid.sum(axis=1) / max(float(len(query)), 1.0)


def _centred(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Faces (K × N × 3) less each channel's mean, and each channel's sum of squares (K × 3)."""
    f = faces - (_psum(faces) / faces.shape[1])[:, None, :]
    return f, _psum(f * f)


def residuals_each(queries: np.ndarray, face: np.ndarray, weights: np.ndarray | None = None,
                   censored: np.ndarray | None = None) -> np.ndarray:
    """:func:`residuals` of each of ``queries`` (K × N × 3: the card at K places) against one
    ``face`` (N × 3), ``weights`` (K × N × 3, 0 or 1) for each place or None, ``censored``
    (N × 3) where the face was clipped: one pass."""
    if censored is not None:
        return _residuals_censored(queries, face[None], weights, censored[None])
    if weights is None:
        q = queries - (_psum(queries) / queries.shape[1])[:, None, :]
        f = face - _psum(face) / len(face)
        vq = _psum(q * q)
        vf = _psum(f * f)
        cov = _psum(q * f)
        gain = np.clip(cov / np.maximum(vf, 1e-9), 0.0, None)
        return (vq - gain * cov).sum(axis=1) / max(float(queries.shape[1]), 1.0)
    n = np.maximum(_psum(weights), 1.0)                         # K × 3
    mq = _psum(queries * weights) / n
    q = (queries - mq[:, None, :]) * weights
    mf = _psum(face * weights) / n
    f = (face[None] - mf[:, None, :]) * weights
    vq = _psum(q * q)
    vf = _psum(f * f)
    cov = _psum(f * q)
    gain = np.clip(cov / np.maximum(vf, 1e-9), 0.0, None)
    return (vq - gain * cov).sum(axis=1) / max(float(queries.shape[1]), 1.0)


def _residuals_censored(queries: np.ndarray, faces: np.ndarray, weights: np.ndarray | None,
                        censored: np.ndarray) -> np.ndarray:
    """:func:`residuals` with faces clipped at enrolment (``censored``), queries (Q × N × 3)
    and faces (F × N × 3) broadcast against each other (one of Q and F is 1)."""
    n_px = max(float(max(queries.shape[1], faces.shape[1])), 1.0)
    if weights is None:
        u = np.logical_not(censored).astype(np.float32)        # K × N × 3: fitted on
        cw = censored                                          # K × N × 3: bounds
    else:
        w = (weights if weights.ndim == 3 else weights[None]).astype(np.float32)
        u = np.where(censored, np.float32(0.0), w)
        cw = censored & (w > 0.0)
    n = np.maximum(_psum(u), 1.0)                              # K × 3
    mq = _psum(queries * u) / n
    mf = _psum(faces * u) / n
    dq = queries - mq[:, None, :]
    df = faces - mf[:, None, :]
    dfu = df * u
    cov = _psum(dq * dfu)
    gain = np.clip(cov / np.maximum(_psum(df * dfu), 1e-9), 0.0, None)
    r = dq - gain[:, None, :] * df
    r2 = r * r
    e = (r2 * u).sum(axis=(1, 2)) + (r2 * (cw & (r < 0.0))).sum(axis=(1, 2))
    return e / n_px


def _mean(px: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    """The mean of each channel of ``px`` (N × 3) over the pixels ``weights`` keeps."""
    if weights is None:
        return _psum(px) / len(px)
    return _psum(px * weights) / np.maximum(_psum(weights), 1.0)


def colour_misfit(mean_q: np.ndarray, mean_f: np.ndarray, gains: np.ndarray | None = None) -> float:
    """How far a face's mean colour (``mean_f``, divided by its white), seen through the
    frame's tint (``gains``, per channel), is from the card's (``mean_q``), once one exposure common
    to the channels is fitted: the squared difference summed over the channels (feature units
    squared, like :func:`residuals` a pixel). :func:`residuals` fits each channel's brightness
    and contrast apart, so it cannot tell an olive field from a green one; their colours can."""
    f = np.asarray(mean_f, np.float64) * (1.0 if gains is None else np.asarray(gains, np.float64))
    q = np.asarray(mean_q, np.float64)
    s = float(f @ q) / max(float(f @ f), 1e-12)
    return float(((q - s * f) ** 2).sum())


#: readings this sure tell the frame's tint, and at least this many of them are needed
TINT_CONF = 0.9
TINT_MIN = 3
#: the least colour misfit a frame's tint is credited with (feature units squared): below it,
#: the faces' own enrolment noise
TINT_NOISE_FLOOR = 0.002


@dataclass(frozen=True)
class Tint:
    """How a frame's cards' colours differ from the enrolled faces' (``gains``, per channel)
    and how closely its sure readings follow that (``noise``: their median
    :func:`colour_misfit`)."""

    gains: np.ndarray
    noise: float


#: the most cards of one design a frame's copies are shared out among at once (every
#: assignment of them is tried)
DISTINCT_MAX = 6


def distinct_copies(matches: Sequence[FaceMatch | None], twins: dict[str, str]) -> list[FaceMatch | None]:
    """The readings of one frame with no copy printed alike read twice: each enrolled name is
    one card, so where two cards of a frame took the same copy of a design, the copies of
    that design are shared out among the frame's cards read as it so that their print-run
    marks fit best together: the least sum of the logarithms of their misfits
    (:attr:`FaceMatch.copy_misfits`), each card's misfits taken relative to one another (a
    card whose face the light or a neighbour's edge disturbs misfits every copy more, and
    tells them apart less; a card whose mark was not compared fits every copy alike). A design
    read on more cards than it has copies, or on cards none of whose marks was compared, is
    left as read. ``matches`` come back in their order, changed only where their copy did."""
    out = list(matches)
    groups: dict[str, list[int]] = {}
    for k, m in enumerate(out):
        if m is not None and m.name is not None and m.name in twins:
            groups.setdefault(twins[m.name], []).append(k)
    for design, ks in groups.items():
        names = [out[k].name for k in ks]  # type: ignore[union-attr]
        if len(set(names)) == len(names):
            continue
        copies = sorted(n for n, d in twins.items() if d == design)
        if len(ks) > len(copies) or len(ks) > DISTINCT_MAX:
            continue
        cost = np.zeros((len(ks), len(copies)))
        for r, k in enumerate(ks):
            fits = dict(dict(out[k].copy_misfits).get(design, ()))  # type: ignore[union-attr]
            if fits:
                worst = max(fits.values())
                cost[r] = np.log1p([fits.get(c, worst) for c in copies])
        if not cost.any():
            continue  # no mark compared: nothing tells which card is which copy
        rows = np.arange(len(ks))
        best = min(itertools.permutations(range(len(copies)), len(ks)),
                   key=lambda p: (round(float(cost[rows, list(p)].sum()), 6),
                                  sum(copies[c] != n for c, n in zip(p, names)), p))
        for r, k in enumerate(ks):
            name = copies[best[r]]
            m = out[k]
            if m is not None and name != m.name:
                out[k] = replace(m, name=name, copies=tuple((d, name if d == design else n) for d, n in m.copies))
    return out


def tint_of(matches: Sequence[FaceMatch]) -> Tint | None:
    """The frame's tint: how the cards' colours (divided by their own white) differ, channel
    by channel, from those of the faces enrolled, once exposure is set aside, and how surely.
    Each white reference is only nearly white (light falls on a card and on the enrolled faces
    with its own colour and gradients, and a camera's colours are not quite linear), so an
    olive field may look a little greener on the table than when enrolled; every card of a
    frame shows much the same shift, more closely the more evenly the frame is lit and the
    more alike the camera saw the table and the enrolled cards. The median over the sure
    readings (None with fewer than :data:`TINT_MIN`)."""
    sure = []
    for m in matches:
        if m.name is None or m.conf < TINT_CONF:
            continue
        a = next((a for a in m.alternatives if a.name == m.name), None)
        if a is not None:
            sure.append(a)
    if len(sure) < TINT_MIN:
        return None
    ratios = np.array([np.log(np.maximum(a.mean_q, 1e-6) / np.maximum(a.mean_f, 1e-6)) for a in sure])
    gains = np.exp(np.median(ratios - ratios.mean(axis=1, keepdims=True), axis=0))
    noise = float(np.median([colour_misfit(a.mean_q, a.mean_f, gains) for a in sure]))
    return Tint(gains, max(noise, TINT_NOISE_FLOOR))


def query_variance(query: np.ndarray, weights: np.ndarray | None = None) -> float:
    """The query's own variance per pixel (summed over channels), what :func:`residuals` leaves
    when no face explains anything."""
    if weights is None:
        q = query - _psum(query) / len(query)
        return float(np.einsum("nc,nc->", q, q)) / max(float(len(query)), 1.0)
    n = np.maximum(_psum(weights), 1.0)
    q = (query - _psum(query * weights) / n) * weights
    return float((q * q).sum()) / max(float(len(query)), 1.0)


def confidence(explained: float, mse: float, runner_mse: float, compared_px: int) -> float:
    """How sure a reading is, as a probability (measured on rendered corpora, see
    ``BENCHMARKS.md``): the best face must fit (explain most of the cut-out), and fit better
    than the next face over the pixels compared. Two cards that differ only in a small mark
    differ by a few pixels' worth; the gap then decides less surely, and the reading says so."""
    fit = min(1.0, max(0.0, (explained - MIN_EXPLAINED) / 0.3))
    gap = (runner_mse - mse) * compared_px if math.isfinite(runner_mse) else 1e9
    margin = 0.5 + 0.45 * (1.0 - math.exp(-max(gap, 0.0) / GAP_SCALE))
    return round(min(MAX_CONF, fit * margin), 4)


def _psum(x: np.ndarray) -> np.ndarray:
    """``x`` (… × N × C: pixels by channel) summed over its pixels, as a matrix product: numpy's
    reduction over a middle axis of C = 3 runs element by element, twenty times slower."""
    key = (x.shape[-2], x.dtype)
    ones = _ONES.get(key)
    if ones is None:
        if len(_ONES) > 64:
            _ONES.clear()
        ones = _ONES[key] = np.ones(key[0], key[1])
    return ones @ x


_ONES: dict[tuple[int, np.dtype], np.ndarray] = {}


def _lum(px: np.ndarray) -> np.ndarray:
    """The sum of each pixel's three channels (``px``: N × 3), added in the order numpy's
    ``sum(axis=1)`` adds them (the same values), a column at a time: numpy's reduction over
    three channels runs element by element, fifteen times slower."""
    return px[:, 0] + px[:, 1] + px[:, 2]


def _median_of(f: np.ndarray) -> np.ndarray:
    """``np.median(f, axis=0)`` (the same values), element by element for two or three copies:
    numpy's median along a short first axis is hundreds of times slower."""
    if len(f) == 2:
        return (f[0] + f[1]) / 2
    if len(f) == 3:
        return np.maximum(np.minimum(f[0], f[1]), np.minimum(np.maximum(f[0], f[1]), f[2]))
    return np.median(f, axis=0)


def _down(img: np.ndarray, k: int) -> np.ndarray:
    h, w = img.shape[:2]
    return cv2.resize(img, (w // k, h // k), interpolation=cv2.INTER_AREA)


def _lightness(img: np.ndarray) -> np.ndarray:
    """The darkest channel of a three-channel image (white paper is light in all three)."""
    return np.minimum(np.minimum(img[..., 0], img[..., 1]), img[..., 2])


def _turned(img: np.ndarray, deg: float) -> np.ndarray:
    if abs(deg) < 1e-6:
        return img
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), deg, 1.0)
    return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
