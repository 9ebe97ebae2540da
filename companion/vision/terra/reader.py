"""The Terra Turrium camera reader: a frame in, the towers' heights and the flags out.

``make_reader(**kwargs)`` builds a :class:`TerraReader` (see :mod:`companion.vision.readers`);
``read(frame)`` returns an :class:`~companion.observation.Observation` in the format of
``docs/observation/terra-turrium.md``, an observation with ``hand=True`` and no pieces when an
arm is over the board, or None when the board cannot be seen (its markers are not in view).
``annotate(image, observation)`` draws a reading over the frame for a person to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.boards import TableLayout
from companion.observation import Observation, Piece
from companion.vision.camera import CameraModel
from companion.vision.colours import ColourModel
from companion.vision.frames import Frame
from companion.vision.terra.features import (
    FEATURE_NAMES, Palette, estimate_top, paper_colours, sample, white_reference,
)
from companion.vision.terra.heights import SECOND_NAMES, HeightReading, decode
from companion.vision.terra.kit import GAME, SIZE
from companion.vision.terra.locate import BoardLocator, Located
from companion.vision.terra.model import HeightModel


@dataclass
class TerraReader:
    """Reads Terra Turrium frames. ``camera``: the lens calibration (recommended: heights are
    read through perspective); ``layout``: where the table markers lie (measured by
    ``companion calibrate table``); ``colours``: the flags' colours learned under the table's
    light (``companion calibrate colours --game terra-turrium``); ``model``: the height scorer
    (the one shipped with the program by default)."""

    camera: CameraModel | None = None
    layout: TableLayout | None = None
    colours: ColourModel | None = None
    model: HeightModel | None = None
    locator: BoardLocator = field(init=False)

    def __post_init__(self) -> None:
        self.locator = BoardLocator(self.camera, self.layout)
        if self.model is None:
            self.model = HeightModel.load(first=FEATURE_NAMES, second=SECOND_NAMES)

    def locate(self, image: np.ndarray) -> Located:
        return self.locator.locate(image)

    def read_heights(self, image: np.ndarray, located: Located) -> HeightReading:
        geo = located.geometry
        assert geo is not None and self.model is not None
        smp = sample(image, geo)
        white = white_reference(image, located.detections)
        palette = Palette(paper_colours(white), estimate_top(smp))
        return decode(smp, geo, self.model, palette)

    def read(self, frame: Frame | np.ndarray) -> Observation | None:
        image = frame.image if isinstance(frame, Frame) else frame
        located = self.locate(image)
        if not located.ok:
            return None
        heights = self.read_heights(image, located)
        pieces = []
        for sq in range(SIZE * SIZE):
            h = int(heights.heights[sq])
            if h > 0:
                pieces.append(Piece("tower", cell=(sq % SIZE, sq // SIZE), level=h,
                                    conf=float(np.clip(heights.conf[sq], 0.0, 0.999))))
        idx = frame.index if isinstance(frame, Frame) else None
        t = frame.t if isinstance(frame, Frame) else None
        return Observation(game=GAME, pieces=tuple(pieces), frame=idx, t=t)

    def features_for_tuning(self, image: np.ndarray, truth_heights: np.ndarray) -> list | None:
        """(square, first features, second features) of every square, read as :meth:`read`
        does but with the towers painted at their true heights (for fitting the scorers)."""
        located = self.locate(image)
        if not located.ok:
            return None
        geo = located.geometry
        assert geo is not None and self.model is not None
        smp = sample(image, geo)
        white = white_reference(image, located.detections)
        palette = Palette(paper_colours(white), estimate_top(smp))
        rows: list = []
        decode(smp, geo, self.model, palette, forced=truth_heights, collect=rows)
        return rows


def make_reader(**kwargs: Any) -> TerraReader:
    return TerraReader(**kwargs)
