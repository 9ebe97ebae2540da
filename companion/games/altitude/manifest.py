"""The deck as a manifest: which cards the box holds, each with its value and kind.

The composition of the real Altitude deck is not published, so the engine never assumes one:
each box is *enrolled* once (every card shown to the camera, which learns its picture and gives
it an id) and the enrolment writes a manifest, a JSON file::

    {"name": "my-box",
     "cards": [
       {"id": "m07a", "kind": "mountain", "value": 7},
       {"id": "chamois", "kind": "animal", "value": 11, "animal": "chamois"},
       {"id": "tel1", "kind": "telepherique"},
       {"id": "ava1", "kind": "avalanche"},
       {"id": "stb1", "kind": "saint-bernard"},
       {"id": "m02", "kind": "mountain", "value": 2, "copies": 2}]}

``kind`` is one of :data:`KINDS`. Mountain and animal cards carry a ``value`` ≥ 1, a téléphérique
is worth 0 (the rule text: « elles portent la valeur « 0 » »), avalanches and Saint-Bernards
carry no value. An animal card names its ``animal``. ``copies`` (default 1) is for cards the
camera cannot tell apart: they share one id. Ids are short lower-case words (letters, digits,
``-`` and ``_``): they appear in notations and observations.

Two made-up manifests ship with the package (``manifests/``), for tests and the demo: ``demo``
(52 cards, the default) and ``mini`` (24 cards, for short whole games). They are inventions,
not the real deck.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Mapping

from companion.errors import BadInput
from companion.games.base import BadSetup

MOUNTAIN = "mountain"
ANIMAL = "animal"
TELEPHERIQUE = "telepherique"
AVALANCHE = "avalanche"
SAINT_BERNARD = "saint-bernard"
#: the kinds of card, as written in a manifest
KINDS = (MOUNTAIN, ANIMAL, TELEPHERIQUE, AVALANCHE, SAINT_BERNARD)
#: the manifests shipped with the package, by name
SHIPPED = ("demo", "mini")

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


class ManifestError(BadInput, BadSetup):
    """A manifest that cannot be used: says which file, which card and which field."""


@dataclass(frozen=True)
class CardType:
    """One card of the deck (or several identical ones, ``copies``)."""

    id: str
    kind: str
    value: int | None = None
    animal: str | None = None
    copies: int = 1

    @property
    def buildable(self) -> bool:
        """Can this card be laid in a mountain at all (avalanches only in an opponent's)."""
        return self.kind != SAINT_BERNARD

    def label(self) -> str:
        """How a player names the card: its value, the animal and value, or the special."""
        if self.kind == MOUNTAIN:
            return str(self.value)
        if self.kind == ANIMAL:
            return f"{self.animal} {self.value}"
        return {TELEPHERIQUE: "téléphérique 0", AVALANCHE: "avalanche",
                SAINT_BERNARD: "Saint-Bernard"}[self.kind]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.value is not None:
            out["value"] = self.value
        if self.animal is not None:
            out["animal"] = self.animal
        if self.copies != 1:
            out["copies"] = self.copies
        return out


@dataclass(frozen=True)
class Manifest:
    """A whole deck. Hashable and comparable (it is part of every game state), with its hash
    computed once, since states are hashed often."""

    name: str
    cards: tuple[CardType, ...]
    _index: Mapping[str, CardType] = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {c.id: c for c in self.cards})
        object.__setattr__(self, "_hash", hash((self.name, self.cards)))

    def __hash__(self) -> int:
        return self._hash

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._index

    def __getitem__(self, card_id: str) -> CardType:
        return self._index[card_id]

    def get(self, card_id: str) -> CardType | None:
        return self._index.get(card_id)

    def __iter__(self) -> Iterator[CardType]:
        return iter(self.cards)

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)

    def counts(self) -> dict[str, int]:
        """Copies of each id."""
        return {c.id: c.copies for c in self.cards}

    def kind(self, card_id: str) -> str:
        return self._index[card_id].kind

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cards": [c.to_json() for c in self.cards]}


def manifest_from_json(data: Any, *, where: str = "manifest") -> Manifest:
    """A manifest from its JSON form; :class:`ManifestError` names the card and field at fault."""
    if not isinstance(data, Mapping):
        raise ManifestError("a manifest is a JSON object with \"name\" and \"cards\"", where=where)
    name = data.get("name", "")
    if not isinstance(name, str) or not name:
        raise ManifestError("\"name\" must be a non-empty string", where=where)
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise ManifestError("\"cards\" must be a non-empty list of cards", where=where)
    cards: list[CardType] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        at = f"{where}: cards[{i}]"
        if not isinstance(entry, Mapping):
            raise ManifestError("each card is a JSON object", where=at)
        unknown = sorted(set(entry) - {"id", "kind", "value", "animal", "copies"})
        if unknown:
            raise ManifestError(f"unknown field(s) {', '.join(unknown)}; a card has id, kind, "
                                "value, animal, copies", where=at)
        card_id = entry.get("id")
        if not isinstance(card_id, str) or not _ID.match(card_id):
            raise ManifestError(f"id {card_id!r} must be a short lower-case word (letters, "
                                "digits, - and _)", where=at)
        if card_id in seen:
            raise ManifestError(f"id {card_id!r} appears twice; give identical cards one entry "
                                "with \"copies\"", where=at)
        seen.add(card_id)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise ManifestError(f"kind {kind!r} of {card_id} is not one of {', '.join(KINDS)}",
                                where=at)
        value = entry.get("value")
        if kind in (MOUNTAIN, ANIMAL):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ManifestError(f"{card_id}: a {kind} card needs an integer value ≥ 1, "
                                    f"not {value!r}", where=at)
        elif kind == TELEPHERIQUE:
            if value not in (None, 0) or isinstance(value, bool):
                raise ManifestError(f"{card_id}: a téléphérique is worth 0, not {value!r}",
                                    where=at)
            value = 0
        elif value is not None:
            raise ManifestError(f"{card_id}: a {kind} card has no value", where=at)
        animal = entry.get("animal")
        if kind == ANIMAL:
            if not isinstance(animal, str) or not animal:
                raise ManifestError(f"{card_id}: an animal card names its animal", where=at)
        elif animal is not None:
            raise ManifestError(f"{card_id}: only animal cards name an animal", where=at)
        copies = entry.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise ManifestError(f"{card_id}: copies must be an integer ≥ 1, not {copies!r}",
                                where=at)
        cards.append(CardType(card_id, kind, value, animal, copies))
    return Manifest(name=name, cards=tuple(cards))


def load_manifest(path: str | Path) -> Manifest:
    """Read a manifest file (JSON)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ManifestError("no such manifest file", where=str(path),
                            hint="enrol the box's cards, or use a shipped manifest: "
                                 + ", ".join(SHIPPED)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read the manifest ({exc})", where=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})",
                            where=str(path)) from None
    return manifest_from_json(data, where=str(path))


@lru_cache(maxsize=None)
def shipped_manifest(name: str) -> Manifest:
    """One of the made-up manifests shipped with the package (:data:`SHIPPED`)."""
    if name not in SHIPPED:
        raise ManifestError(f"no shipped manifest called {name!r}",
                            hint=f"one of {', '.join(SHIPPED)}, or the path of a JSON file")
    text = resources.files(__package__).joinpath("manifests", f"{name}.json").read_text("utf-8")
    return manifest_from_json(json.loads(text), where=f"manifests/{name}.json")


def resolve_manifest(spec: str) -> Manifest:
    """The manifest an option names: a shipped name, or the path of a JSON file."""
    if spec in SHIPPED:
        return shipped_manifest(spec)
    return load_manifest(spec)
