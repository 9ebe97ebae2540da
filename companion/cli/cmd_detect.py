"""``companion detect IMAGE --game G``: read one photograph of the table and print what the
camera sees, as the observation JSON of ``docs/observation.md``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "read one photograph of the table and print the observation (JSON)"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a photograph of the table (JPEG, PNG, ...)")
    parser.add_argument("--game", required=True, help="the game on the table, e.g. haut-les-cubes")
    parser.add_argument("--calibration", metavar="FILE",
                        help="calibration file (default: the data directory's, if any)")
    parser.add_argument("--annotate", metavar="OUT.png",
                        help="also draw what was found over the image and save it here")


def _load_image(path: str):
    import cv2
    import numpy as np

    from companion.errors import BadInput

    p = Path(path).expanduser()
    if not p.is_file():
        raise BadInput(f"no image file at {p}")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise BadInput(f"{p} is not an image OpenCV can read (empty, truncated or another format)",
                       hint="give a JPEG or PNG photograph")
    return image


def run(args: argparse.Namespace) -> int:
    import cv2

    from calibration.store import load_calibration
    from companion.errors import BadInput, UserError
    from companion.vision.readers import READERS, make_reader

    if args.game not in READERS:
        raise UserError(f"unknown game {args.game!r}", hint=f"games: {', '.join(READERS)}")
    image = _load_image(args.image)
    calibration = load_calibration(args.calibration)
    reader = make_reader(args.game, calibration=calibration, size=(image.shape[1], image.shape[0]))
    obs = reader.read(image)
    if obs is None:
        why = getattr(getattr(reader, "last", None), "message", "") or "no table marker found"
        raise UserError(f"cannot read {args.image}: {why}",
                        hint="the four table markers should be in view, flat and well lit")
    print(obs.dumps())
    if args.annotate:
        view = getattr(getattr(reader, "last", None), "view", None)
        if args.game == "haut-les-cubes" and view is not None:
            from companion.vision.hlc.annotate import annotate

            drawn = annotate(image, view, obs)
        elif hasattr(reader, "annotate"):
            drawn = reader.annotate(image, obs)
        else:
            raise UserError(f"drawing a reading over the image is not available for {args.game}")
        out = Path(args.annotate).expanduser()
        if out.parent and not out.parent.exists():
            raise BadInput(f"no folder {out.parent} to save {out.name} in")
        if not cv2.imwrite(str(out), drawn):
            raise BadInput(f"could not write {out}", hint="use a .png or .jpg file name")
        print(f"annotated image: {out}", file=sys.stderr)
    return 0
