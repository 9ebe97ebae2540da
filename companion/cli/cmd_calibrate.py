"""``companion calibrate targets | camera | table | colours | cards``: set up a table.

The procedure a user follows (docs/calibration.md): print the targets, calibrate the lens (once
per camera), calibrate the table (whenever the camera or the markers move), then the colours
and the cards (once per game and light). Each step saves into the calibration file (or beside
it) that ``companion detect`` and the referee load. Heavy imports stay inside the functions so
``companion --help`` is instant.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

from companion.errors import BadInput, UserError

HELP = "set up a table: print targets, calibrate the lens, the table, piece colours and cards"

SHEET_NAMES = ("table-markers", "charuco", "chessboard-9x6", "gleebs-and-grues-board",
               "terra-turrium-board", "colour-sheet")
COLOUR_GAMES = ("haut-les-cubes", "terra-turrium", "gleebs-and-grues", "ville-des-nains")


# ------------------------------------------------------------------------------- arguments
def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="step", metavar="STEP", required=True)

    p = sub.add_parser("targets", help="write the printable sheets (PNG and PDF, true scale)",
                       description="Write the printable sheets: table markers, ChArUco board, "
                       "chessboard, game boards, colour sheet. Print them at 100 %%.")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the sheets into")
    p.add_argument("--dpi", type=float, default=300.0, help="resolution of the sheets (default 300)")
    p.add_argument("--sheet", action="append", choices=SHEET_NAMES, metavar="NAME",
                   help="only this sheet (repeatable): " + ", ".join(SHEET_NAMES))
    p.add_argument("--table", default="600x600", metavar="WxD",
                   help="distance between the table markers' centres, mm, printed on the sheet")

    p = sub.add_parser("camera", help="calibrate the lens from ChArUco or chessboard pictures",
                       description="Calibrate the lens (focal length, distortion) from 10-20 "
                       "pictures of the ChArUco board or a chessboard held at varied angles.")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--charuco", action="store_true", help="the project's ChArUco board")
    target.add_argument("--chessboard", metavar="COLSxROWS",
                        help="a chessboard with this many INNER corners, e.g. 9x6")
    p.add_argument("--square", type=float, metavar="MM", help="chessboard square size (mm)")
    p.add_argument("images", nargs="*", metavar="IMAGE", help="pictures (files or folders)")
    p.add_argument("--source", metavar="SPEC", help="take pictures from a camera (0), stream or video")
    p.add_argument("--views", type=int, default=15, help="views to collect from --source (default 15)")
    p.add_argument("--timeout", type=float, default=180.0, metavar="S",
                   help="give up collecting from --source after S seconds (default 180)")
    _common(p)

    p = sub.add_parser("table", help="locate the table from its markers and measure their layout",
                       description="Locate the table from markers 0-3 and measure where they "
                       "really lie. Run it again whenever the camera or a marker moves.")
    _frames_args(p, default_frames=10)
    p.add_argument("--table", metavar="WxD", help="nominal distance between marker centres, mm "
                   "(default: the last measured layout, else 600x600)")
    p.add_argument("--check", metavar="OUT.png", help="also write the image with the table grid drawn on it")
    _common(p)

    p = sub.add_parser("colours", help="learn the pieces' colours under this light",
                       description="Learn the colours of a game's pieces: lay one piece of each "
                       "colour on the numbered spots of the colour sheet.")
    p.add_argument("--game", choices=COLOUR_GAMES, metavar="GAME", help="the game: " + ", ".join(COLOUR_GAMES))
    p.add_argument("--colours", metavar="A,B,...", help="the colours, in spot order (default: the game's)")
    _frames_args(p, default_frames=5)
    _common(p)

    p = sub.add_parser("cards", help="enrol a game's cards by showing each one to the camera",
                       description="Enrol each card once: lay it in the played-card zone. "
                       "Needs the table calibration (companion calibrate table).")
    p.add_argument("--game", required=True, metavar="GAME", help="the game, e.g. haut-les-cubes")
    p.add_argument("--cards", metavar="A,B,...", help="the cards' names (default: the game's)")
    p.add_argument("--zone", metavar="X0,Y0,X1,Y1", help="the played-card zone, table mm "
                   "(default: the game's layout)")
    p.add_argument("--from-dir", metavar="DIR", help="camera frames named after their card "
                   "(moaveou.png ...) instead of a live camera")
    p.add_argument("--source", metavar="SPEC", help="camera index, stream URL (default 0)")
    p.add_argument("--frames", type=int, default=5, help="frames averaged per card (default 5)")
    p.add_argument("--twins", metavar="A=B,C=D=E", help="cards printed alike (copies of one card), "
                   "each group joined by '=', groups by ','; they count as one design")
    p.add_argument("--manifest", metavar="NAME|PATH", help="altitude: the deck's manifest (its cards, "
                   "and its copies of one card as cards printed alike); demo and mini are built in")
    _common(p)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--calibration", metavar="FILE",
                   help="the calibration file (default: calibration.json in the data directory)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="where calibration lives (default: $COMPANION_DATA_DIR or ~/.local/share/companion)")


def _frames_args(p: argparse.ArgumentParser, default_frames: int) -> None:
    p.add_argument("--image", action="append", metavar="IMG", help="a still picture (repeatable)")
    p.add_argument("--source", metavar="SPEC", help="camera index, stream URL or video (default 0)")
    p.add_argument("--frames", type=int, default=default_frames,
                   help=f"frames to average from --source (default {default_frames})")


def run(args: argparse.Namespace) -> int:
    steps: dict[str, Callable[[argparse.Namespace], int]] = {
        "targets": _targets, "camera": _camera, "table": _table, "colours": _colours, "cards": _cards}
    return steps[args.step](args)


# --------------------------------------------------------------------------------- helpers
class ProgressBar:
    """A one-line progress bar on the terminal (plain lines when output is not a terminal)."""

    def __init__(self, title: str, stream=None, width: int = 28):
        self.title, self.width = title, width
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = ""

    def __call__(self, done: int, total: int, what: str = "") -> None:
        total = max(total, 1)
        filled = int(round(self.width * min(done, total) / total))
        line = f"{self.title} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {what}"
        if self.tty:
            self.stream.write("\r" + line[:110].ljust(len(self._last)))
            if done >= total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        self._last = line[:110]


def _cal_path(args: argparse.Namespace) -> Path:
    from calibration.store import FILE_NAME
    from companion.paths import data_dir

    if args.calibration:
        return Path(args.calibration).expanduser()
    return data_dir(args.data_dir) / FILE_NAME


def _load(args: argparse.Namespace):
    from calibration.store import Calibration, load_calibration

    path = _cal_path(args)
    return load_calibration(path) if path.exists() else Calibration(path=path)


def _size_mm(text: str, what: str) -> tuple[float, float]:
    try:
        w, d = (float(v) for v in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise UserError(f"{what} {text!r}: write WIDTHxDEPTH in millimetres, e.g. 600x600") from None
    return w, d


def _read_images(paths: list[str]) -> list[Any]:
    from calibration.intrinsics import read_image

    return [read_image(p) for p in paths]


def _grab(spec: str | None, count: int, *, warmup: int = 5) -> list[Any]:
    """``count`` frames from a live source, after letting its exposure settle."""
    from companion.vision.frames import SourceError, open_source

    spec = spec if spec is not None else "0"
    try:
        src = open_source(spec)
    except SourceError as exc:
        raise UserError(str(exc), hint="check the camera is plugged in, or give --source / --image") from None
    frames = []
    try:
        skipped = 0
        while len(frames) < count:
            frame = src.read()
            if frame is None:
                break
            if spec.isdigit() and skipped < warmup:  # a webcam's first frames: exposure settling
                skipped += 1
                continue
            frames.append(frame.image)
    except SourceError as exc:
        raise UserError(f"{spec}: {exc}", hint="check the camera's cable or the stream") from None
    finally:
        src.close()
    if not frames:
        raise UserError(f"no frame came from {spec}")
    return frames


def _frames(args: argparse.Namespace) -> list[Any]:
    if args.image:
        return _read_images(args.image)
    return _grab(args.source, max(1, args.frames))


def _wait_for_user(message: str) -> None:
    print(message, flush=True)
    if sys.stdin.isatty():
        input("press Enter when ready ")


# ------------------------------------------------------------------------------- targets
def _targets(args: argparse.Namespace) -> int:
    from calibration.targets import write_targets

    layout = _size_mm(args.table, "--table")
    bar = ProgressBar("sheets")
    files = write_targets(args.out, dpi=args.dpi, names=args.sheet, layout_mm=layout, progress=bar)
    for f in files:
        print(f)
    print("print at 100 % (actual size) and check the 100 mm bar on each sheet with a ruler")
    return 0


# -------------------------------------------------------------------------------- camera
def _camera(args: argparse.Namespace) -> int:
    from calibration.boards import CHARUCO, ChessboardSpec
    from calibration.intrinsics import IntrinsicsResult, ViewCollector, calibrate_images
    from calibration.store import update_calibration

    if args.charuco:
        target: Any = CHARUCO
    else:
        try:
            cols, rows = (int(v) for v in args.chessboard.lower().split("x"))
        except ValueError:
            raise UserError(f"--chessboard {args.chessboard!r}: give the inner corners as "
                            "COLSxROWS, e.g. 9x6") from None
        if args.square is None or args.square <= 0:
            raise UserError("--square MM is needed with --chessboard (the side of one square)")
        if cols < 3 or rows < 3:
            raise UserError("a chessboard needs at least 3x3 inner corners")
        target = ChessboardSpec(cols, rows, float(args.square))
    if args.images and args.source:
        raise UserError("give pictures or --source, not both")
    if args.images:
        files = _expand(args.images)
        result: IntrinsicsResult = calibrate_images(files, target, progress=ProgressBar("views"))
    else:
        result = _collect_live(args, ViewCollector(target))
    for v in result.views:
        err = f"{v.error_px:.2f} px" if v.error_px is not None else "-"
        print(f"  {v.name:<24} {'found' if v.found else 'not found':<9} {v.corners:>4} corners  {err}"
              + (f"  ({v.note})" if v.note else ""))
    cam = result.camera
    print(f"lens: focal {cam.fx:.1f} x {cam.fy:.1f} px, centre {cam.cx:.1f}, {cam.cy:.1f}, "
          f"distortion {', '.join(f'{d:+.4f}' for d in cam.dist)}; {result.used} views, "
          f"RMS reprojection error {result.rms:.3f} px")
    if result.rms > 1.0:
        print("warning: above 1 px: is the target flat and sharp in every picture?", file=sys.stderr)
    path = update_calibration(_cal_path(args), camera=cam).path
    print(f"saved {path}")
    return 0


def _expand(items: list[str]) -> list[Path]:
    from companion.vision.sources_folder import IMAGE_SUFFIXES, natural_key

    out: list[Path] = []
    for item in items:
        p = Path(item).expanduser()
        if p.is_dir():
            found = sorted((f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES), key=natural_key)
            if not found:
                raise BadInput(f"no images in folder {p}")
            out += found
        else:
            out.append(p)
    return out


def _collect_live(args: argparse.Namespace, collector: Any):
    """Views from a live source: a view counts when the target is found away from the views
    already kept (moved, turned or nearer), so the set covers the image and the angles."""
    import numpy as np

    from companion.vision.frames import SourceError, open_source

    spec = args.source if args.source is not None else "0"
    try:
        src = open_source(spec)
    except SourceError as exc:
        raise UserError(str(exc), hint="check the camera, or give pictures as arguments") from None
    kept: list[np.ndarray] = []
    bar = ProgressBar("views")
    deadline = time.monotonic() + args.timeout
    print("move the target slowly: near the corners, tilted left, right, up and down", flush=True)
    try:
        while collector.count < args.views and time.monotonic() < deadline:
            frame = src.read()
            if frame is None:
                break
            found = collector.detect(frame.image)
            if found is None:
                continue
            sig = _view_signature(found, float(np.hypot(*frame.image.shape[:2])))
            if sig is None or any(np.max(np.linalg.norm(sig - k, axis=1)) < 0.05 for k in kept):
                continue
            kept.append(sig)
            collector.add(frame.image, f"view {len(kept)}")
            bar(collector.count, args.views, "")
    except SourceError as exc:
        raise UserError(f"{spec}: {exc}") from None
    finally:
        src.close()
    return collector.calibrate()


def _view_signature(found: Any, diag: float):
    """Where the target's outline lies in the image (4 corners, in image diagonals): two views
    whose outlines nearly coincide add nothing to a calibration."""
    import cv2
    import numpy as np

    obj, img = found
    if len(obj) < 4:
        return None
    H, _ = cv2.findHomography(obj[:, :2], img)
    if H is None:
        return None
    lo, hi = obj[:, :2].min(axis=0), obj[:, :2].max(axis=0)
    box = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    p = np.hstack([box, np.ones((4, 1))]) @ H.T
    return p[:, :2] / p[:, 2:3] / diag


# --------------------------------------------------------------------------------- table
def _table(args: argparse.Namespace) -> int:
    import cv2

    from calibration.boards import TableLayout
    from calibration.store import update_calibration
    from calibration.table import calibrate_table, draw_check

    current = _load(args)
    if args.table:
        nominal = TableLayout.rectangle(*_size_mm(args.table, "--table"))
    elif current.layout is not None:
        nominal = TableLayout(current.layout.markers, measured=False)
    else:
        nominal = TableLayout.rectangle()
    images = _frames(args)
    size = (images[0].shape[1], images[0].shape[0])
    camera = current.camera_for(size)
    if current.camera is not None and camera is None:
        raise UserError(f"the lens was calibrated at {current.camera.size[0]}x{current.camera.size[1]}, "
                        f"the frames are {size[0]}x{size[1]}",
                        hint="set the camera to the calibrated resolution, "
                             "or run `companion calibrate camera` again")
    lens_known = camera is not None and camera.source != "markers"
    result = calibrate_table(images, camera if lens_known else None, nominal)
    loc = result.location
    pose = loc.view.pose
    print(f"table markers seen: {', '.join(map(str, loc.markers))} in {result.frames} frame(s); "
          f"reprojection {loc.reprojection_px:.2f} px; confidence {loc.confidence:.2f}")
    for m in result.layout.markers:
        n = nominal.marker(m.id)
        tag = "measured" if m.id in loc.markers else "not seen, nominal"
        print(f"  marker {m.id}: ({m.centre[0]:7.1f}, {m.centre[1]:7.1f}) mm, turned {m.yaw_deg:+.1f} deg"
              f"  [{tag}; nominal ({n.centre[0]:.0f}, {n.centre[1]:.0f})]")
    cam_pos = pose.camera_position
    print(f"camera at ({cam_pos[0]:.0f}, {cam_pos[1]:.0f}) mm, {cam_pos[2]:.0f} mm above the table, "
          f"tilted {pose.tilt_deg:.1f} deg")
    if loc.focal_estimated:
        sd = loc.fit.focal_rel_sd if loc.fit and loc.fit.focal_rel_sd is not None else 1.0
        print(f"lens estimated from the markers: focal {result.camera.fx:.0f} px (+/- {100 * sd:.0f} %); "
              "`companion calibrate camera` measures it properly")
    missing = result.missing()
    if missing:
        print(f"markers {', '.join(map(str, missing))} not seen: their places stay nominal; show all "
              "four and run this again to measure them", file=sys.stderr)
    changes: dict[str, Any] = {
        "pose": pose, "layout": result.layout,
        "table": {"reprojection_px": round(float(loc.reprojection_px or 0.0), 4),
                  "markers": list(loc.markers), "confidence": loc.confidence,
                  "image_size": list(size), "focal_estimated": loc.focal_estimated}}
    if not lens_known:
        changes["camera"] = result.camera
    path = update_calibration(_cal_path(args), **changes).path
    print(f"saved {path}")
    if args.check:
        out = draw_check(images[-1], result.view, result.layout, result.detections)
        if not cv2.imwrite(str(args.check), out):
            raise BadInput(f"cannot write {args.check}", hint="check the folder exists and the name ends in .png")
        print(f"check image: {args.check} (the yellow grid must lie flat on the table)")
    return 0


# ------------------------------------------------------------------------------- colours
def _colours(args: argparse.Namespace) -> int:
    import numpy as np

    from calibration.colour_sheet import RIM_BY_GAME, learn_from_sheet
    from calibration.store import save_colours
    from companion.vision.colours import GAME_PALETTES, colour_distance

    if args.colours:
        names = [c.strip() for c in args.colours.split(",") if c.strip()]
    elif args.game:
        names = list(GAME_PALETTES[args.game])
    else:
        raise UserError("say which colours: --game GAME or --colours red,blue,...")
    key = args.game or "custom"
    print("on the colour sheet, lay one piece on each spot:")
    for k, name in enumerate(names, start=1):
        print(f"  spot {k}: {name}")
    if not args.image:
        _wait_for_user("flags and tall pieces may lie on their side; keep hands out of view")
    images = _frames(args)
    model, reading = learn_from_sheet(images, names, rim_px=RIM_BY_GAME.get(args.game or "", 0.0))
    print(f"white reference (BGR) {', '.join(f'{v:.0f}' for v in reading.white)}")
    worst = 1.0
    for k, name in enumerate(names, start=1):
        px = reading.samples[k]
        idx, _ = model.classify(px) if len(px) else (np.zeros(0, int), None)
        ok = float(np.mean(np.array(model.names)[idx] == name)) if len(px) else 0.0
        worst = min(worst, ok)
        print(f"  {name:<8} {len(px):>6} pixels, {100 * ok:5.1f} % read back as {name}")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = colour_distance(model, a, b)
            if d < 3.0:
                print(f"warning: {a} and {b} look alike under this light (separation {d:.1f}); "
                      "more light, or light of a whiter colour, helps", file=sys.stderr)
    if worst < 0.8:
        raise UserError("the colours were not learned well enough to save (a colour read back "
                        "wrong more than 1 time in 5)",
                        hint="check each piece sits on its own spot, in even light, and try again")
    path = save_colours(key, model, _cal_path(args))
    print(f"saved {path} ({key})")
    return 0


# --------------------------------------------------------------------------------- cards
def _default_cards(game: str, manifest: str | None = None) -> tuple[list[str], Any, list[list[str]]]:
    """The card names, the zone a card is laid in to be enrolled, and the groups of cards
    printed alike, of a game whose layout the program knows."""
    if game == "haut-les-cubes":
        from companion.synth.card_faces import HLC_CARDS

        try:
            from companion.vision.hlc.layout import Layout

            zone = Layout().card_zone_corners()
        except ImportError:
            zone = None
        return list(HLC_CARDS), zone, []
    if game == "altitude":
        from companion.vision.altitude.layout import load_layout

        zone = load_layout(None).enrol_zone()
        if manifest is None:
            return [], zone, []
        from companion.synth.altitude.deck import load_deck

        deck = load_deck(manifest)
        designs: dict[tuple, list[str]] = {}
        for c in deck:  # copies of one card share kind, value and label (their face)
            designs.setdefault((c.kind, c.value, c.label), []).append(c.id)
        # and one card face down: the deck's back is read like a face
        return [c.id for c in deck] + ["back"], zone, [g for g in designs.values() if len(g) > 1]
    return [], None, []


def _twin_groups(spec: str) -> list[list[str]]:
    """``A=B,C=D=E`` as groups of names."""
    groups = []
    for part in spec.split(","):
        names = [n.strip() for n in part.split("=") if n.strip()]
        if len(names) == 1:
            raise UserError(f"--twins: {part!r} names one card; join the cards printed alike with '=' "
                            "(A=B), groups with ','")
        if names:
            groups.append(names)
    return groups


def _cards(args: argparse.Namespace) -> int:
    import numpy as np

    from calibration.boards import TableLayout
    from calibration.pose import locate_table
    from companion.vision.cards import CardLibrary, library_path

    if args.manifest and args.game != "altitude":
        raise UserError("--manifest is for altitude, whose deck a manifest describes")
    names, zone, twins = _default_cards(args.game, args.manifest)
    if args.cards:
        names = [c.strip() for c in args.cards.split(",") if c.strip()]
        twins = [[n for n in g if n in names] for g in twins]
    if args.twins:
        twins = _twin_groups(args.twins)
    if not names:
        hint = " or --manifest PATH" if args.game == "altitude" else ""
        raise UserError(f"which cards does {args.game} have? give --cards NAME,NAME,...{hint}")
    if args.zone:
        try:
            x0, y0, x1, y1 = (float(v) for v in args.zone.split(","))
        except ValueError:
            raise UserError(f"--zone {args.zone!r}: write X0,Y0,X1,Y1 in table millimetres") from None
        zone = np.array([[x0, y1], [x1, y1], [x1, y0], [x0, y0]])
    if zone is None:
        raise UserError(f"no played-card zone known for {args.game}: give --zone X0,Y0,X1,Y1 (table mm)")
    unknown = sorted({n for g in twins for n in g} - set(names))
    if unknown:
        raise UserError(f"--twins names cards not enrolled: {', '.join(unknown)}")
    current = _load(args)
    layout = current.layout or _game_layout(args.game) or TableLayout.rectangle()
    frames_by_card = _card_frames(args, names)
    lib = CardLibrary(args.game)
    bar = ProgressBar("cards")
    for k, name in enumerate(names):
        bar(k, len(names), name)
        frames = frames_by_card(name)
        size = (frames[0].shape[1], frames[0].shape[0])
        loc = locate_table(frames[-1], current.camera_for(size), layout)
        if not loc.ok:
            raise UserError(f"while enrolling {name}: {loc.message}")
        lib.enroll_from_view(name, frames, zone, loc.view)
    bar(len(names), len(names), "done")
    lib.set_twins([g for g in twins if len(g) > 1])
    for a, b, s in lib.confusion_check():
        print(f"warning: {a} and {b} look too alike (similarity {s:.2f}); they may be confused",
              file=sys.stderr)
    for group in lib.look_alike_groups():
        print(f"warning: {', '.join(group)} look printed alike; if they are copies of one card, "
              f"enrol them with --twins {'='.join(group)}", file=sys.stderr)
    path = lib.save(library_path(args.game, _cal_path(args).parent))
    designs = len({lib.design(n) for n in lib.names})
    alike = f" ({designs} designs: cards printed alike count as one)" if designs < len(lib) else ""
    print(f"enrolled {len(lib)} cards{alike}: {', '.join(lib.names)}; saved {path}")
    return 0


def _game_layout(game: str):
    """The table layout a game's reader assumes, when the table was never calibrated."""
    if game == "altitude":
        from calibration.boards import TableLayout
        from companion.vision.altitude.layout import load_layout

        return TableLayout.rectangle(*load_layout(None).table_mm)
    if game == "haut-les-cubes":
        try:
            from companion.vision.hlc.layout import Layout
        except ImportError:
            return None
        from calibration.boards import TableLayout

        w, d = Layout().play_area
        return TableLayout.rectangle(w, d)
    return None


def _card_frames(args: argparse.Namespace, names: list[str]) -> Callable[[str], list[Any]]:
    if args.from_dir:
        from companion.vision.sources_folder import IMAGE_SUFFIXES, decode_image

        folder = Path(args.from_dir).expanduser()
        if not folder.is_dir():
            raise BadInput(f"no such folder: {folder}")
        files = {p.stem: p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES}
        missing = [n for n in names if n not in files]
        if missing:
            raise UserError(f"no frame for {', '.join(missing)} in {folder}",
                            hint="name each frame after its card, e.g. moaveou.png")
        return lambda name: [decode_image(files[name])]

    def live(name: str) -> list[Any]:
        _wait_for_user(f"lay the card '{name}' in the played-card zone, face up")
        return _grab(args.source, max(1, args.frames))

    return live
