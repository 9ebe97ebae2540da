"""Places on a drawn board: the one vocabulary shared by the drawings, the highlight of the last
move and the correction of a misreading.

A *place* is a short string naming something a person can tap:

* ``cell:X,Y``: a square or lattice cell (Haut les Cubes, Terra Turrium, Gleeb's and Grues);
* ``card:SEAT:ETAGE:POS``: a card slot of a player's mountain (Altitude);
* ``building:SEAT:INDEX``: a building of a player (La Ville des Nains);
* ``zone:NAME``: a named area of the table (``played``, ``discard``, ``pool``, ``tray``, ...).

The server computes which places the last move changed (by comparing the game's own
``board_view`` before and after it, so no game needs to say it), and which pieces of the camera's
last reading lie at each place; the browser draws each place with a ``data-place`` attribute.
"""

from __future__ import annotations

from typing import Any, Mapping

#: positional fields of an observed piece (the rest says *what* the piece is)
POSITION_KEYS = ("cell", "level", "zone", "xyz", "etage", "pos", "building", "conf")


def view_places(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """What each place holds in a game's ``board_view``, comparable between two views."""
    if not view:
        return {}
    kind = view.get("kind")
    out: dict[str, Any] = {}
    if kind == "haut-les-cubes":
        for x, y, h in view.get("heights", []):
            out[f"cell:{x},{y}"] = [h, None]
        for g in view.get("giants", []):
            x, y = g["cell"]
            out.setdefault(f"cell:{x},{y}", [0, None])[1] = g["seat"]
        out["zone:played"] = view.get("last_card")
    elif kind == "terra-turrium":
        for c in view.get("cells", []):
            out[f"cell:{c['x']},{c['y']}"] = [c.get("height"), c.get("flags")]
    elif kind == "gleebs-and-grues":
        for c in view.get("cells", []):
            x, y = c["cell"]
            out[f"cell:{x},{y}"] = c.get("stack")
    elif kind == "altitude":
        for seat, mountain in (view.get("mountains") or {}).items():
            for card in mountain.get("cards", []):
                out[f"card:{seat}:{card['etage']}:{card['pos']}"] = card.get("card")
        out["zone:discard"] = (view.get("discard") or {}).get("top")
    elif kind == "ville-des-nains":
        for player in view.get("players", []):
            for b in player.get("buildings", []):
                out[f"building:{player['seat']}:{b['index']}"] = b.get("stones")
        out["zone:kobold"] = (view.get("kobold") or {}).get("height")
        out["zone:tray"] = view.get("tray")
    return out


def changed_places(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """Places whose content differs between two board views of the same game, sorted."""
    a, b = view_places(before), view_places(after)
    return sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))


def piece_place(piece: Mapping[str, Any]) -> str:
    """The place of one observed piece (its JSON form, docs/observation.md)."""
    cell = piece.get("cell")
    if isinstance(cell, (list, tuple)) and len(cell) == 2:
        return f"cell:{cell[0]},{cell[1]}"
    zone = piece.get("zone")
    if isinstance(zone, str):
        if zone.startswith("player:") and "etage" in piece and "pos" in piece:
            return f"card:{zone[7:]}:{piece['etage']}:{piece['pos']}"
        if zone.startswith("player:") and "building" in piece:
            return f"building:{zone[7:]}:{piece['building']}"
        return f"zone:{zone}"
    return "table"


def place_kind(place: str) -> str:
    """``cell``, ``card``, ``building`` or ``zone:NAME``: which templates fit a place."""
    head = place.split(":", 1)[0]
    return place if head == "zone" else head


def what(piece: Mapping[str, Any]) -> dict[str, Any]:
    """A piece without where it is: the template a person picks to say "this is here"."""
    return {k: v for k, v in piece.items() if k not in POSITION_KEYS}


def positioned(template: Mapping[str, Any], place: str, level: int | None = None) -> dict[str, Any]:
    """A template put at a place (the inverse of :func:`piece_place` and :func:`what`)."""
    piece = dict(what(template))
    head, _, rest = place.partition(":")
    if head == "cell":
        x, y = (int(v) for v in rest.split(","))
        piece["cell"] = [x, y]
        if level is not None:
            piece["level"] = int(level)
    elif head == "card":
        seat, etage, pos = rest.rsplit(":", 2)
        piece.update(zone=f"player:{seat}", etage=int(etage), pos=int(pos))
    elif head == "building":
        seat, index = rest.rsplit(":", 1)
        piece.update(zone=f"player:{seat}", building=int(index))
        if level is not None:
            piece["level"] = int(level)
    elif head == "zone":
        piece["zone"] = rest
        if level is not None:
            piece["level"] = int(level)
    return piece
