"""The calibration file: what later runs load.

One JSON file, ``calibration.json`` in the data directory by default (``--calibration FILE``
elsewhere), written atomically::

    {"format": "companion-calibration", "version": 1,
     "camera": {...CameraModel...},          # the lens, with the RMS error that measured it
     "table": {"pose": {...TablePose...},    # where the table was last seen from
               "layout": {...TableLayout...},  # where the table markers really lie
               "reprojection_px": 0.4, "markers": [0, 1, 2, 3]},
     "extra": {...}}                         # anything else a later step records

Colour models live beside it in ``colours.json`` (one per game) and enrolled cards in
``cards-<game>.npz``, so recalibrating the lens never loses them.

:func:`load_calibration` returns a :class:`Calibration`; it also unpacks as the three parts
most callers want: ``camera, pose, extra = load_calibration()``. A missing default file is not
an error (nothing was calibrated yet: every part is None); a missing file that was named, or a
damaged one, is a :class:`BadInput` that says what to do. A failed save never leaves half a file,
and a damaged file is never silently overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, Mapping

from calibration.boards import TableLayout
from companion.errors import BadInput
from companion.paths import data_dir
from companion.vision.camera import CameraModel, TablePose, View, load_json, save_json

FORMAT = "companion-calibration"
VERSION = 1
FILE_NAME = "calibration.json"
COLOURS_NAME = "colours.json"


@dataclass(frozen=True)
class Calibration:
    """Everything calibration measured; any part may be None when it was not measured."""

    camera: CameraModel | None = None
    pose: TablePose | None = None
    layout: TableLayout | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    table: Mapping[str, Any] = field(default_factory=dict)  # reprojection error, markers seen
    path: Path | None = None

    def __iter__(self) -> Iterator[Any]:
        """``camera, pose, extra = calibration``."""
        return iter((self.camera, self.pose, self.extra))

    def camera_for(self, size: tuple[int, int]) -> CameraModel | None:
        """The lens at the resolution of the frames in hand (a camera calibrated at 1080p and
        run at 720p), or None when the aspect differs (another mode crops the sensor: the
        calibration does not apply)."""
        if self.camera is None:
            return None
        w, h = self.camera.size
        if (w, h) == tuple(size):
            return self.camera
        if abs(w / h - size[0] / size[1]) > 0.01:
            return None
        return self.camera.scaled((int(size[0]), int(size[1])))

    @property
    def view(self) -> View | None:
        return View(self.camera, self.pose) if self.camera and self.pose else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.camera is not None:
            out["camera"] = self.camera.to_json()
        table: dict[str, Any] = dict(self.table)
        if self.pose is not None:
            table["pose"] = self.pose.to_json()
        if self.layout is not None:
            table["layout"] = self.layout.to_json()
        if table:
            out["table"] = table
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Any, path: Path | None = None) -> "Calibration":
        where = str(path) if path else None
        hint = "run `companion calibrate camera` (and `table`) again, or move the file away"
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadInput("not a companion calibration file", where=where, hint=hint)
        if not isinstance(data.get("version"), int) or data["version"] > VERSION:
            raise BadInput(f"calibration format version {data.get('version')!r} is not one this "
                           f"program reads (it reads up to {VERSION})", where=where,
                           hint="update the program, or calibrate again")
        try:
            camera = CameraModel.from_json(data["camera"]) if "camera" in data else None
            table = dict(data.get("table") or {})
            pose = TablePose.from_json(table.pop("pose")) if "pose" in table else None
            layout = TableLayout.from_json(table.pop("layout")) if "layout" in table else None
            extra = dict(data.get("extra") or {})
        except BadInput as exc:
            raise BadInput(exc.message, where=where, hint=hint) from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise BadInput(f"damaged calibration ({exc})", where=where, hint=hint) from None
        return cls(camera, pose, layout, extra, table, path)


def default_path(data: str | Path | None = None) -> Path:
    return data_dir(data) / FILE_NAME


def load_calibration(path: str | Path | None = None) -> Calibration:
    """The calibration at ``path`` (default: the data directory's). See the module docstring."""
    if path is None:
        p = default_path()
        if not p.exists():
            return Calibration(path=p)
    else:
        p = Path(path).expanduser()
        if not p.is_file():
            raise BadInput(f"no calibration file at {p}",
                           hint="run `companion calibrate camera` or `companion calibrate table` first")
    return Calibration.from_json(load_json(p), p)


def save_calibration(calibration: Calibration, path: str | Path | None = None) -> Path:
    p = Path(path).expanduser() if path is not None else (calibration.path or default_path())
    save_json(p, calibration.to_json())
    return p


def update_calibration(path: str | Path | None = None, **changes: Any) -> Calibration:
    """Load (or start) the calibration file, change some parts, save it. A damaged file is
    refused rather than overwritten (it may be the only copy of a good lens calibration).
    Changing the lens drops the last table pose (it was measured through the old lens)."""
    p = Path(path).expanduser() if path is not None else default_path()
    current = load_calibration(p) if p.exists() else Calibration(path=p)
    if "camera" in changes and "pose" not in changes:
        changes["pose"] = None
        changes.setdefault("table", {})
    updated = replace(current, path=p, **changes)
    save_calibration(updated, p)
    return updated


# --------------------------------------------------------------------------------- colours
def colours_path(calibration_path: str | Path | None = None) -> Path:
    base = Path(calibration_path).expanduser() if calibration_path is not None else default_path()
    return base.with_name(COLOURS_NAME)


def save_colours(game: str, model: "Any", calibration_path: str | Path | None = None) -> Path:
    """Store a game's :class:`~companion.vision.colours.ColourModel` beside the calibration."""
    p = colours_path(calibration_path)
    data = load_json(p) if p.exists() else {"format": "companion-colours", "games": {}}
    if not isinstance(data, dict) or not isinstance(data.get("games"), dict):
        raise BadInput("not a colour calibration file", where=str(p),
                       hint="move it away and run `companion calibrate colours` again")
    data["games"][game] = model.to_json()
    save_json(p, data)
    return p


def load_colours(game: str, calibration_path: str | Path | None = None):
    """The learned colour model of a game, or None when its colours were never calibrated."""
    from companion.vision.colours import ColourModel

    p = colours_path(calibration_path)
    if not p.exists():
        return None
    data = load_json(p)
    if not isinstance(data, dict) or not isinstance(data.get("games"), dict):
        raise BadInput("not a colour calibration file", where=str(p),
                       hint="move it away and run `companion calibrate colours` again")
    entry = data["games"].get(game)
    if entry is None:
        return None
    try:
        return ColourModel.from_json(entry)
    except BadInput as exc:
        raise BadInput(exc.message, where=str(p), hint="run `companion calibrate colours` again") from None
