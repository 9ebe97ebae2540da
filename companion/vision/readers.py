"""The camera readers, one per game, looked up by the game's name.

A reader turns one frame into an :class:`~companion.observation.Observation` in the game's
documented format (``docs/observation.md``), or None when it cannot read the frame (the markers
are not visible, the image is black). A frame with a hand over the play area gives an
observation with ``hand=True`` and no pieces. Readers know optics and pieces, never rules.

Every reader is built the same way: ``make_reader(game, calibration=..., layout=...)`` (the
factory also receives ``game``) where
``calibration`` is what ``calibration.store.load_calibration`` gives (lens, table pose, colours,
enrolled cards; any of them may be missing: a reader then estimates what it can from the
markers in the frame).
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.errors import UserError

#: game name -> "module:factory"; the factory takes keyword arguments and returns a reader
READERS: dict[str, str] = {
    "haut-les-cubes": "companion.vision.hlc.reader:make_reader",
    "gleebs-and-grues": "companion.vision.gleebs.reader:make_reader",
    "terra-turrium": "companion.vision.terra.reader:make_reader",
    "ville-des-nains": "companion.vision.nains.reader:make_reader",
    "altitude": "companion.vision.altitude.reader:make_reader",
}


def make_reader(game: str, **kwargs: Any) -> Any:
    """The camera reader for ``game``."""
    target = READERS.get(game)
    if target is None:
        raise UserError(f"no camera reader for {game!r}", hint=f"games: {', '.join(READERS)}")
    module_name, factory = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if not module_name.startswith(str(exc.name or "")):
            raise
        raise UserError(f"the camera reader for {game} is not installed in this version",
                        hint="referee from observation files: companion referee --observations") from None
    return getattr(module, factory)(game=game, **kwargs)
