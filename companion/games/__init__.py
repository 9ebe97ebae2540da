"""The games the referee knows, each a plug-in implementing :class:`companion.games.base.Game`.

Games are imported lazily by name, so asking for one never loads the others.
"""

from __future__ import annotations

import importlib
import importlib.util

from companion.errors import UserError
from companion.games.base import (  # noqa: F401  (re-exported: the public API)
    AmbiguousMove,
    BadOptions,
    BadSetup,
    Candidate,
    Game,
    GameError,
    IllegalMove,
    MalformedMove,
    Outcome,
    RuleRef,
    Verdict,
)

#: registry name -> "module:Class"
GAMES: dict[str, str] = {
    "haut-les-cubes": "companion.games.haut_les_cubes:HautLesCubes",
    "altitude": "companion.games.altitude:Altitude",
    "terra-turrium": "companion.games.terra_turrium:TerraTurrium",
    "gleebs-and-grues": "companion.games.gleebs_and_grues:GleebsAndGrues",
    "ville-des-nains": "companion.games.ville_des_nains:VilleDesNains",
}

_instances: dict[str, Game] = {}


def available() -> list[str]:
    """Names of the games whose engine is installed."""
    names = []
    for name, target in GAMES.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_game(name: str) -> Game:
    """The game called ``name`` (``haut-les-cubes``, ``altitude``, ...)."""
    if name not in _instances:
        target = GAMES.get(name)
        if target is None:
            raise UserError(f"unknown game {name!r}", hint=f"choose one of: {', '.join(GAMES)}")
        module_name, cls_name = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            raise UserError(f"the {name} rules engine is not installed in this version") from None
        _instances[name] = getattr(module, cls_name)()
    return _instances[name]
