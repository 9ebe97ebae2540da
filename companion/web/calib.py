"""The calibration steps run from the dashboard, with a live preview on the latest camera frame.

Three steps, each a *look* (what the camera shows now, as JSON and as an annotated JPEG) and a
*save* (the referee keeps what was found):

* ``table``: the table markers found (:func:`calibration.pose.locate_table`), the fit's error
  and confidence; saving stores the table pose (and the measured marker layout when all four
  were seen, and the lens estimated from the markers when no lens calibration was made);
* ``colours``: the colour sheet (markers 8–11) found, each of its spots sampled and named by the
  current colour model (:mod:`companion.vision.colours`); saving learns the colours the referee
  assigned to the spots and stores them for the game;
* ``cards``: the played-card zone of Haut les Cubes seen from above
  (:mod:`companion.vision.cards`), the card found in it and which enrolled card it reads as;
  saving enrols the card under the name the referee chose.

All of it goes through the calibration package's public functions. The frame is the camera
feed's latest JPEG (the Table does not expose the raw frame): about 960 pixels wide and, when
the overlay is on, with the reader's drawings on it, which the look reports.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import BadInput
from companion.web.errors import ApiError

STEPS = ("table", "colours", "cards")
#: games whose played-card zone the dashboard knows (the vision layout of the game)
CARD_GAMES = ("haut-les-cubes",)


class Frame:
    """One camera frame as the calibration steps see it."""

    def __init__(self, image: np.ndarray, seq: int, overlay: bool, source: str):
        self.image = image
        self.seq = seq
        self.overlay = overlay
        self.source = source

    def info(self) -> dict[str, Any]:
        h, w = self.image.shape[:2]
        return {"seq": self.seq, "size": [w, h], "overlay": self.overlay, "source": self.source}


def latest_frame(table: Any) -> Frame | None:
    """The newest camera frame: the Table's raw frame when it offers one (a ``latest_frame()``
    returning a :class:`companion.vision.frames.Frame`, full size and without drawings), else
    the feed's JPEG."""
    import cv2

    raw = getattr(table, "latest_frame", None)
    if callable(raw):
        got = raw()
        if got is not None:
            image = getattr(got, "image", got)
            seq = getattr(got, "index", getattr(got, "seq", 0))
            return Frame(np.asarray(image), int(seq), False, "camera")
    jpeg = table.feed.latest()
    if jpeg is None:
        return None
    image = cv2.imdecode(np.frombuffer(jpeg.jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        return None
    return Frame(image, jpeg.seq, jpeg.overlay, "feed")


def _hex(bgr: np.ndarray) -> str:
    b, g, r = (int(round(float(v))) for v in bgr)
    return f"#{max(0, min(255, r)):02x}{max(0, min(255, g)):02x}{max(0, min(255, b)):02x}"


def _norm(pt: np.ndarray, size: tuple[int, int]) -> list[float]:
    return [round(float(pt[0]) / size[0], 4), round(float(pt[1]) / size[1], 4)]


class Calibrator:
    """The calibration steps for one table; results cached per frame (many tablets, one look)."""

    def __init__(self, table: Any):
        self.table = table
        self._cache: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    # -- where things are kept -----------------------------------------------------------------

    @property
    def calibration_path(self) -> Path:
        return Path(self.table.data_dir) / "calibration.json"

    def _saved(self):
        from calibration.store import load_calibration

        path = self.calibration_path
        if not path.exists():
            return None
        try:
            return load_calibration(path)
        except BadInput:
            return None

    # -- the frame -----------------------------------------------------------------------------

    def frame(self) -> Frame:
        frame = latest_frame(self.table)
        if frame is None:
            raise ApiError(409, "no_frame", "no camera frame yet: connect the camera (or wait for "
                                            "it) before calibrating")
        return frame

    def _cached(self, key: tuple, compute):
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        value = compute()
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > 12:
                self._cache.pop(next(iter(self._cache)))
        return value

    # -- looks ---------------------------------------------------------------------------------

    def check(self, step: str, game: str | None) -> str | None:
        """The step's game, checked before any frame is looked at (bad input first)."""
        if step == "table":
            return None
        if step == "colours":
            return self._colour_game(game)
        if step == "cards":
            return self._card_game(game)
        raise ApiError(404, "no_step", f"no calibration step {step!r}; one of {', '.join(STEPS)}")

    def look(self, step: str, game: str | None = None) -> dict[str, Any]:
        """What a step finds on the latest frame, as JSON."""
        game = self.check(step, game)
        frame = self.frame()
        result = self._look(step, game, frame)
        return {k: v for k, v in result.items() if not k.startswith("_")}

    def _look(self, step: str, game: str | None, frame: Frame) -> dict[str, Any]:
        if step == "table":
            return self._cached(("table", frame.seq, frame.source), lambda: self._table(frame))
        if step == "colours":
            game = self._colour_game(game)
            return self._cached(("colours", frame.seq, frame.source, game),
                                lambda: self._colours(frame, game))
        if step == "cards":
            game = self._card_game(game)
            return self._cached(("cards", frame.seq, frame.source, game),
                                lambda: self._cards(frame, game))
        raise ApiError(404, "no_step", f"no calibration step {step!r}; one of {', '.join(STEPS)}")

    def _table(self, frame: Frame) -> dict[str, Any]:
        from calibration.markers import detect_markers
        from calibration.pose import locate_table

        size = (frame.image.shape[1], frame.image.shape[0])
        saved = self._saved()
        camera = saved.camera_for(size) if saved is not None else None
        detections = detect_markers(frame.image, camera=camera)
        loc = locate_table(frame.image, camera, saved.layout if saved else None,
                           detections=detections, size=size)
        return {
            "step": "table", "frame": frame.info(), "ok": loc.ok, "message": loc.message,
            "markers": list(loc.markers), "other_markers": list(loc.other_markers),
            "reprojection_px": None if loc.reprojection_px is None else round(loc.reprojection_px, 3),
            "confidence": loc.confidence, "focal_estimated": loc.focal_estimated,
            "found": [{"id": d.id, "centre": _norm(d.centre, size)} for d in detections],
            "_detections": detections, "_location": loc,
        }

    @staticmethod
    def _colour_game(game: str | None) -> str:
        from companion.vision.colours import GAME_PALETTES

        if game not in GAME_PALETTES:
            raise ApiError(400, "bad_game", f"choose the game whose colours to sample: one of "
                                            f"{', '.join(GAME_PALETTES)}")
        return game

    def _model(self, game: str):
        from calibration.store import load_colours
        from companion.vision.colours import GAME_PALETTES, ColourModel

        try:
            model = load_colours(game, self.calibration_path)
        except BadInput:
            model = None
        return model if model is not None else ColourModel.default(GAME_PALETTES[game])

    def _colours(self, frame: Frame, game: str) -> dict[str, Any]:
        import cv2

        from calibration.boards import COLOUR_SHEET, COLOUR_SHEET_MARKER_IDS
        from calibration.markers import detect_markers, marker_white

        size = (frame.image.shape[1], frame.image.shape[0])
        found = detect_markers(frame.image, ids=COLOUR_SHEET_MARKER_IDS)
        out: dict[str, Any] = {"step": "colours", "game": game, "frame": frame.info(),
                               "markers": sorted(d.id for d in found), "spots": [], "ok": False,
                               "white": None, "model": None}
        if not found:
            out["message"] = ("no colour-sheet marker (ids 8-11) seen: lay the colour sheet "
                              "flat in view, one piece of each colour on its numbered spots")
            return out
        placements = {m.id: m for m in COLOUR_SHEET.markers}
        sheet = np.concatenate([placements[d.id].corners()[:, :2] for d in found])
        image = np.concatenate([d.corners for d in found])
        H, _ = cv2.findHomography(sheet.astype(np.float64), image.astype(np.float64))
        if H is None:
            out["message"] = "the colour sheet's markers could not be fitted: hold it flat"
            return out
        white = marker_white(frame.image, found)
        model = self._model(game)
        r = COLOUR_SHEET.spot_mm * 0.3
        grid = np.array([(dx, dy) for dx in np.linspace(-r, r, 9) for dy in np.linspace(-r, r, 9)
                         if dx * dx + dy * dy <= r * r])
        spots = []
        for number, centre in enumerate(COLOUR_SHEET.spots(), start=1):
            pts = (grid + np.array(centre)).reshape(-1, 1, 2)
            px = cv2.perspectiveTransform(pts, H).reshape(-1, 2)
            inside = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < size[0] - 1) & (px[:, 1] < size[1] - 1)
            centre_px = cv2.perspectiveTransform(np.array([[centre]], np.float64), H).reshape(2)
            spot: dict[str, Any] = {"spot": number, "centre": _norm(centre_px, size),
                                    "pixels": int(inside.sum())}
            if inside.sum() >= 10:
                pixels = frame.image[px[inside, 1].round().astype(int), px[inside, 0].round().astype(int)]
                idx, conf = model.classify_region(pixels, white)
                spot.update(colour=_hex(np.median(pixels, axis=0)), reads_as=model.names[idx],
                            confidence=round(float(conf), 3))
                spot["_pixels"] = pixels
            spots.append(spot)
        out.update(ok=True, message="", white=None if white is None else _hex(np.array(white)),
                   model=model.source, spots=[{k: v for k, v in s.items() if k != "_pixels"}
                                              for s in spots],
                   _spots=spots, _white=white, _homography=H)
        return out

    @staticmethod
    def _card_game(game: str | None) -> str:
        if game not in CARD_GAMES:
            raise ApiError(400, "bad_game", "cards are enrolled from the dashboard for: "
                                            f"{', '.join(CARD_GAMES)}; for other games use "
                                            "`companion calibrate cards`")
        return game

    def _library(self, game: str):
        from companion.vision.cards import CardLibrary, library_path

        path = library_path(game, self.table.data_dir)
        if not path.exists():
            return CardLibrary(game), path
        try:
            return CardLibrary.load(path), path
        except BadInput as exc:
            raise ApiError(409, "bad_library", exc.message) from None

    def _view(self, frame: Frame):
        table = self._look("table", None, frame)
        loc = table["_location"]
        if loc.ok:
            return loc.view, table
        saved = self._saved()
        return (saved.view if saved is not None else None), table

    def _cards(self, frame: Frame, game: str) -> dict[str, Any]:
        from companion.vision.cards import find_card, rectify_zone
        from companion.vision.hlc.layout import CARD_NAMES, DEFAULT_LAYOUT

        library, _ = self._library(game)
        out: dict[str, Any] = {"step": "cards", "game": game, "frame": frame.info(), "ok": False,
                               "enrolled": list(library.names), "names": list(CARD_NAMES),
                               "card": False, "reads_as": None, "confidence": 0.0}
        view, table = self._view(frame)
        if view is None:
            out["message"] = "the table is not located: " + (table["message"] or "show the markers")
            return out
        zone_mm = DEFAULT_LAYOUT.card_zone_corners()
        try:
            zone = rectify_zone(frame.image, zone_mm, view)
        except BadInput as exc:
            out["message"] = exc.message
            return out
        card = find_card(zone)
        out.update(ok=True, card=card is not None, message="" if card is not None else
                   "no card in the played-card zone: lay one card flat in the zone",
                   _zone=zone, _card=card, _view=view, _zone_mm=zone_mm)
        if card is not None and len(library):
            match = library.match(card, find=False)
            out.update(reads_as=match.name, confidence=match.confidence)
        return out

    # -- previews ------------------------------------------------------------------------------

    def preview(self, step: str, game: str | None = None) -> bytes:
        """The latest frame with what the step found drawn over it, as a JPEG."""
        import cv2

        game = self.check(step, game)
        frame = self.frame()
        result = self._look(step, game, frame)
        image = frame.image.copy()
        if step == "table":
            for det in result["_detections"]:
                ok = det.id in result["markers"]
                colour = (60, 200, 60) if ok else (0, 160, 255)
                cv2.polylines(image, [det.corners.astype(np.int32)], True, colour, 3)
                c = det.centre.astype(int)
                cv2.putText(image, str(det.id), (int(c[0]) - 10, int(c[1]) + 10),
                            cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3, cv2.LINE_AA)
        elif step == "colours":
            h, w = image.shape[:2]
            for spot in result["spots"]:
                c = (int(spot["centre"][0] * w), int(spot["centre"][1] * h))
                cv2.circle(image, c, 18, (255, 255, 255), 3)
                label = f"{spot['spot']}" + (f" {spot['reads_as']}" if spot.get("reads_as") else "")
                cv2.putText(image, label, (c[0] + 22, c[1] + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                            (255, 255, 255), 4, cv2.LINE_AA)
                cv2.putText(image, label, (c[0] + 22, c[1] + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                            (20, 20, 20), 2, cv2.LINE_AA)
        elif step == "cards" and result.get("_zone") is not None:
            zone = result["_zone"]
            panels = [zone]
            if result.get("_card") is not None:
                card = result["_card"]
                panels.append(cv2.resize(card, (int(card.shape[1] * zone.shape[0] / card.shape[0]),
                                                zone.shape[0])))
            strip = np.concatenate(panels, axis=1)
            scale = min(1.0, image.shape[1] * 0.5 / strip.shape[1])
            strip = cv2.resize(strip, (max(1, int(strip.shape[1] * scale)),
                                       max(1, int(strip.shape[0] * scale))))
            image[:strip.shape[0], :strip.shape[1]] = strip
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            raise ApiError(500, "encode", "the preview could not be encoded")
        return buf.tobytes()

    # -- saving --------------------------------------------------------------------------------

    def save_table(self) -> dict[str, Any]:
        from calibration.boards import TableLayout
        from calibration.pose import measured_layout
        from calibration.store import update_calibration

        frame = self.frame()
        result = self._look("table", None, frame)
        loc = result["_location"]
        if not loc.ok:
            raise ApiError(409, "not_located", f"the table is not located: {loc.message}")
        changes: dict[str, Any] = {"pose": loc.view.pose,
                                   "table": {"reprojection_px": round(loc.reprojection_px or 0.0, 3),
                                             "markers": list(loc.markers)}}
        saved = self._saved()
        if saved is None or saved.camera is None:
            changes["camera"] = loc.view.camera
        if loc.fit is not None:
            layout = measured_layout(loc.fit, (saved.layout if saved and saved.layout else
                                               TableLayout.rectangle()))
            if layout.measured:
                changes["layout"] = layout
        update_calibration(self.calibration_path, **changes)
        summary = (f"{len(loc.markers)} markers, {loc.reprojection_px:.2f} px"
                   + (", lens estimated" if "camera" in changes and loc.focal_estimated else ""))
        parts: dict[str, Any] = {"table": summary}
        if "camera" in changes:
            parts["camera"] = "estimated from the markers" if loc.focal_estimated else "calibrated"
        self.table.set_calibration(**parts)
        return {"saved": sorted(k for k in changes if k != "table"), "summary": summary}

    def save_colours(self, game: str | None, assign: Any) -> dict[str, Any]:
        from calibration.store import save_colours
        from companion.vision.colours import GAME_PALETTES, ColourModel

        game = self._colour_game(game)
        if not isinstance(assign, dict) or not assign:
            raise ApiError(400, "bad_assign", "say which colour lies on which spot: "
                                              "{\"spots\": {\"1\": \"red\", \"2\": \"blue\"}}")
        palette = GAME_PALETTES[game]
        frame = self.frame()
        result = self._look("colours", game, frame)
        if not result["ok"]:
            raise ApiError(409, "no_sheet", result["message"])
        by_number = {str(s["spot"]): s for s in result["_spots"]}
        samples: dict[str, np.ndarray] = {}
        for number, name in assign.items():
            if str(number) not in by_number:
                raise ApiError(400, "bad_spot", f"no spot {number!r} on the colour sheet "
                                                f"(spots 1 to {len(by_number)})")
            if name not in palette:
                raise ApiError(400, "bad_colour", f"{name!r} is not a colour of {game}: "
                                                  f"{', '.join(palette)}")
            spot = by_number[str(number)]
            if "_pixels" not in spot:
                raise ApiError(409, "spot_hidden", f"spot {number} is not fully in view")
            samples[name] = np.concatenate([samples[name], spot["_pixels"]]) if name in samples \
                else spot["_pixels"]
        try:
            learned = ColourModel.learn(samples, result["_white"])
        except BadInput as exc:
            raise ApiError(400, "bad_samples", exc.message) from None
        model = learned
        current = self._model(game)
        if current.source == "learned":
            keep = [i for i, n in enumerate(current.names) if n not in samples]
            model = replace(learned, names=learned.names + tuple(current.names[i] for i in keep),
                            means=learned.means + tuple(current.means[i] for i in keep),
                            covs=learned.covs + tuple(current.covs[i] for i in keep))
        save_colours(game, model, self.calibration_path)
        with self._lock:
            self._cache.clear()
        summary = f"{game}: {len(model.names)} colours learned"
        self.table.set_calibration(colours=summary)
        return {"saved": sorted(samples), "summary": summary}

    def save_card(self, game: str | None, name: Any) -> dict[str, Any]:
        from companion.vision.hlc.layout import CARD_NAMES

        game = self._card_game(game)
        if name not in CARD_NAMES:
            raise ApiError(400, "bad_card", f"which card is it? one of {', '.join(CARD_NAMES)}")
        frame = self.frame()
        result = self._look("cards", game, frame)
        if not result["ok"] or result.get("_card") is None:
            raise ApiError(409, "no_card", result.get("message") or "no card in the zone")
        library, path = self._library(game)
        try:
            library.enroll_from_view(name, [frame.image], result["_zone_mm"], result["_view"])
        except BadInput as exc:
            raise ApiError(409, "no_card", exc.message) from None
        library.save(path)
        confusions = library.confusion_check()
        summary = f"{game}: {len(library)} cards enrolled"
        self.table.set_calibration(cards=summary)
        with self._lock:
            self._cache.clear()
        return {"saved": name, "summary": summary, "enrolled": list(library.names),
                "confusions": [list(c) for c in confusions]}
