"""How well a drawn hypothesis explains the frame, pixel by pixel.

Each pixel of the crop gets, for each class (table, top, side along u, side along v), a *regret*:
how much less likely its colour is under that class than under the best explanation of it
(clipped, and zero where the pixel is not to be judged: the card zone, the markers, a giant, the
edge of the frame). A second pair of maps does the same for the engraved grid: a pixel on a
predicted line should show a dark line or an edge, a pixel inside a face should not. The score
of a drawn class and line map is the sum of the regrets it picks, so the true mountain, which
explains every pixel with its best class, scores highest, and a box can be re-scored alone.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.hlc.appearance import Gaussians, TableModel
from companion.vision.hlc.geometry import CLASSES, TABLE, TOP

#: the line-strength bins and the log-likelihood ratios of "on a line" and "inside a face"
#: against any pixel of the mountain's area (measured on rendered frames of the synthetic table)
_LINE_EDGES = np.array([0.01, 0.02, 0.03, 0.045, 0.06, 0.08, 0.1, 0.13, 0.17, 0.22, 0.3], np.float32)
_LLR_LINE = np.array([-3.3, -3.1, -1.7, -0.6, 0.4, 1.0, 1.2, 1.2, 1.2, 1.2, 1.2, 1.5], np.float32)
_LLR_FACE = np.array([0.8, 0.4, 0.0, -0.2, -0.4, -0.6, -0.8, -1.0, -1.2, -1.4, -1.6, -1.8], np.float32)
#: a pixel no class explains is an outlier at this log-density (a giant, a glint)
_OUTLIER = -12.0
REGRET_CAP = 4.0


def line_strength(bgr: np.ndarray) -> np.ndarray:
    """Local contrast of thin lines and edges: gradient of log brightness, 1-pixel max filter."""
    g = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lg = cv2.GaussianBlur(np.log(g + 8.0), (0, 0), 0.7)
    gx = cv2.Sobel(lg, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(lg, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return cv2.dilate(cv2.magnitude(gx, gy), np.ones((3, 3), np.uint8))


class Evidence:
    """Regret maps for one frame's crop."""

    def __init__(self, feats: np.ndarray, lines: np.ndarray, care: np.ndarray, table: TableModel,
                 *, line_weight: float = 0.5):
        self.feats = feats
        self.care = care.astype(np.float32)
        self.table = table
        self.table_ll = table.logp(feats)
        self.line_weight = line_weight
        self._line_raw = self._line_maps(lines)
        self.regret = np.zeros((CLASSES,) + feats.shape[:2], np.float32)
        self.top_model: Gaussians | None = None
        self.top_typical = -20.0
        #: the face models (classes 1..3) the regrets were last computed with
        self.models: list[Gaussians] = []
        self.wood_only()

    def _line_maps(self, lines: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(_LINE_EDGES, lines)
        on, face = _LLR_LINE[idx], _LLR_FACE[idx]
        best = np.maximum(on, face)
        return np.stack([np.zeros_like(on), (face - best), (on - best)]) * self.line_weight

    def wood_only(self) -> None:
        """Before the faces are told apart: one 'wood' model for every face, fitted to what the
        table model does not explain."""
        cand = self._not_table()
        wood = Gaussians(self._subsample(self.feats[cand]), k=4)
        ll_t = self.table_ll
        ll_w = wood.logp(self.feats)
        self.models = [wood, wood, wood]
        self._set(np.stack([ll_t, ll_w, ll_w, ll_w]))

    def fit(self, labels: np.ndarray) -> None:
        """Fit one model per face orientation to the pixels ``labels`` gives it."""
        ok = self._not_table()
        lls = [self.table_ll]
        self.models = []
        for k in range(1, CLASSES):
            sel = (labels == k) & ok
            if sel.sum() < 40:  # too few pixels of this face: share the other faces' model
                sel = (labels > TABLE) & ok
            model = Gaussians(self._subsample(self.feats[sel]), k=3)
            self.models.append(model)
            lls.append(model.logp(self.feats))
            if k == TOP:
                tops = lls[-1][sel]
                #: what the cubes' tops look like in this frame, and the log-density most of
                #: their pixels reach (a pawn's pixels on a top that this explains are wood)
                self.top_model = model
                self.top_typical = float(np.quantile(tops, 0.05)) if tops.size else -20.0
        self._set(np.stack(lls))

    def _not_table(self) -> np.ndarray:
        """Pixels to learn the wood from: judged, and not like the table."""
        return (self.care > 0) & (self.table_ll < self.table.typical - 1.0)

    def refresh(self, feats: np.ndarray, lines: np.ndarray, care: np.ndarray,
                box: tuple[int, int, int, int] | None = None) -> None:
        """Judge another frame of the same crop with the models already fitted (the light and
        the table are those of the frame they were fitted on): a warm reading's evidence.
        ``box`` (x0, y0, x1, y1): only its pixels changed since; the rest keep their values."""
        x0, y0, x1, y1 = box if box is not None else (0, 0, feats.shape[1], feats.shape[0])
        part = (slice(y0, y1), slice(x0, x1))
        self.feats = feats
        if x1 <= x0 or y1 <= y0:
            self.set_care(care)
            return
        self.table_ll[part] = self.table.logp(feats[part])
        self._line_raw[(slice(None),) + part] = self._line_maps(lines[part])
        lls, seen = [self.table_ll[part]], {}
        for model in self.models:
            if id(model) not in seen:
                seen[id(model)] = model.logp(feats[part])
            lls.append(seen[id(model)])
        lls = np.stack(lls)
        best = np.maximum(lls.max(axis=0), _OUTLIER)
        self._raw_regret[(slice(None),) + part] = np.clip(lls - best[None], -REGRET_CAP, 0.0)
        self.set_care(care)

    def set_care(self, care: np.ndarray) -> None:
        """Judge other pixels (a giant's found or gone), the models and the frame unchanged."""
        self.care = care.astype(np.float32)
        self.regret = (self._raw_regret * self.care[None]).astype(np.float32)
        self._table()

    def _set(self, lls: np.ndarray) -> None:
        best = np.maximum(lls.max(axis=0), _OUTLIER)
        self._raw_regret = np.clip(lls - best[None], -REGRET_CAP, 0.0)
        self.regret = (self._raw_regret * self.care[None]).astype(np.float32)
        self._table()

    @staticmethod
    def _subsample(x: np.ndarray, n: int = 3000) -> np.ndarray:
        if len(x) <= n:
            return x
        step = len(x) / n
        return x[(np.arange(n) * step).astype(int)]

    def _table(self) -> None:
        """Per pixel, the score of each (class, line) pair: code = 3 × class + line."""
        h, w = self.feats.shape[:2]
        self.line_regret = self._line_raw * self.care[None]
        t = np.empty((h, w, CLASSES * 3), np.float32)
        for k in range(CLASSES):
            for ln in range(3):
                t[:, :, 3 * k + ln] = self.regret[k] + self.line_regret[ln]
        self.flat = t.reshape(-1)
        self.index = (np.arange(h * w, dtype=np.int64) * (CLASSES * 3)).reshape(h, w)

    def pixel_scores(self, labels: np.ndarray, lines: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The score of each pixel of ``box`` under the given class and line maps."""
        idx = self.index if box is None else self.index[box[1]:box[3], box[0]:box[2]]
        # the code (3 × class + line, at most 11) in bytes; the index sum in 64 bits
        code = labels * np.uint8(3) + lines
        return self.flat[idx + code]

    def score(self, labels: np.ndarray, lines: np.ndarray, box: tuple[int, int, int, int] | None = None) -> float:
        return float(self.pixel_scores(labels, lines, box).sum())
