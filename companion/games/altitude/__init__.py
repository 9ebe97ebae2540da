"""Altitude, the card mountain: each player builds a brick pyramid of cards (1 to 4 players).

The package is split by job: ``manifest`` (the deck, enrolled per box: the real composition is
not published, two made-up decks ship in ``manifests/``), ``mountain`` (étages, slots, the value
rule), ``state`` (options and what the table knows), ``moves`` (moves, notation, JSON),
``rules`` (every rule a verdict can cite), ``judge`` (possible? legal?), ``transitions``
(applying a move: turns, double turns, the end phase), ``verdict`` (both, with the score
change), ``movegen`` (legal and illegal-but-physical moves), ``scoring``, ``camera`` (from
observations to candidate moves), ``playout``
(random moves with the real odds of hidden cards), ``scripts`` (whole scripted games) and
``engine`` (all of it on the game contract).

``board_view(state)`` gives the dashboard::

    {"kind": "altitude",
     "players": ["red", "blue"], "active": "red", "phase": "main" | "end" | "over",
     "mountains": {"red": {"height": 2, "base": 3,
                           "cards": [{"card": "m08a", "etage": 1, "pos": 0, "x": 0.0,
                                      "kind": "mountain", "value": 8, "animal": null,
                                      "label": "8", "covered": true}, ...]}, ...},
     "discard": {"top": "ava2" | null, "count": 7},
     "deck": 31, "drawn": "m13b" | null, "hands": {"red": 4, "blue": 4}}

``x`` is the card's centre in card widths from the leftmost base card's centre (a card of étage
k at position p sits at ``p + (k - 1) / 2``); ``covered`` says another card rests on it.
"""

from companion.games.altitude.engine import Altitude  # noqa: F401
from companion.games.altitude.manifest import Manifest, load_manifest  # noqa: F401
from companion.games.altitude.moves import Move  # noqa: F401
from companion.games.altitude.state import AltitudeOptions, AltitudeState  # noqa: F401
