"""The cards a deck holds, as the synthetic table needs them: an id and what its face shows.

A deck is described by a manifest (``docs/observation/altitude.md``): a JSON file listing each
card's id, kind, value and animal. The synthetic table reads that file format itself rather
than importing the rules engine (vision and the synthetic table never import the games), so a
:class:`CardSpec` holds only what a face shows. The two made-up manifests shipped with the game
(``demo``, 52 cards, and ``mini``, 24) are found by name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from companion.errors import BadInput

#: the made-up manifests shipped with the game, by name (data files, read as JSON)
SHIPPED = ("demo", "mini")
_SHIPPED_DIR = Path(__file__).resolve().parents[2] / "games" / "altitude" / "manifests"

#: a manifest's kinds and the mark :func:`companion.synth.card_faces.face_for` draws for each
FACE_KIND = {"mountain": "number", "animal": "animal", "telepherique": "cable-car",
             "avalanche": "avalanche", "saint-bernard": "saint-bernard"}
#: what is printed at the foot of a special card
SPECIAL_LABEL = {"telepherique": "TELEPHERIQUE", "avalanche": "AVALANCHE",
                 "saint-bernard": "SAINT-BERNARD"}


@dataclass(frozen=True)
class CardSpec:
    """One card: its ``id`` and what its face shows (``kind`` as in a manifest, ``value``,
    ``label`` printed at its foot)."""

    id: str
    kind: str
    value: int | None = None
    label: str = ""

    @property
    def face_kind(self) -> str:
        return FACE_KIND.get(self.kind, "number")


def spec_of(entry: Mapping[str, Any]) -> CardSpec:
    kind = str(entry.get("kind", "mountain"))
    value = entry.get("value")
    if kind == "telepherique":
        value = None  # the face shows the cable car, the value 0 is the kind's
    label = SPECIAL_LABEL.get(kind, "")
    if kind == "animal":
        label = str(entry.get("animal", "")).upper()
    return CardSpec(str(entry["id"]), kind, None if value is None else int(value), label)


def deck_from_json(data: Any, *, where: str = "manifest") -> tuple[CardSpec, ...]:
    """The cards of a manifest's JSON form (each id once; ``copies`` look alike and cannot be
    told apart, so one face stands for them all)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise BadInput("a manifest is a JSON object with a \"cards\" list", where=where)
    out = []
    for i, entry in enumerate(data["cards"]):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            raise BadInput(f"cards[{i}] has no id", where=where)
        out.append(spec_of(entry))
    if not out:
        raise BadInput("the manifest lists no card", where=where)
    return tuple(out)


@lru_cache(maxsize=8)
def load_deck(name_or_path: str = "demo") -> tuple[CardSpec, ...]:
    """A deck by the name of a shipped manifest (``demo``, ``mini``) or a manifest file's path."""
    path = _SHIPPED_DIR / f"{name_or_path}.json" if name_or_path in SHIPPED else Path(name_or_path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput("no such manifest", where=str(path),
                       hint=f"a manifest file, or one of {', '.join(SHIPPED)}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInput(f"cannot read the manifest ({exc})", where=str(path)) from None
    return deck_from_json(data, where=str(path))


def by_id(deck: tuple[CardSpec, ...]) -> dict[str, CardSpec]:
    return {c.id: c for c in deck}
