"""Terra Turrium: towers of identical blocks, six flags each, the first to fly its six flags on
towers of heights 1 to 6 wins (2 to 4 players).

The package is split by job: ``board`` (the printed 10×10 board, territories, exterior squares,
start layouts), ``state`` (options and the immutable state), ``moves`` (actions, moves, notation,
JSON), ``rules`` (every rule a verdict can cite), ``table`` (playing actions: the rules applied
and judged), ``movegen`` (legal and illegal-but-physical moves), ``paths`` and ``planner`` (from
a change on the table to the moves that made it), ``camera`` (observations, costs, candidates),
``engine`` (all of it on the game contract), ``scripts`` (scripted whole games) and ``diagram``
(positions drawn as text, for tests and bug reports).

Rulings (docs/rulings.md, Terra Turrium) are applied as written; the engine adds these:

* **Flag layout (ruling).** The text says only that each player lays out its six flags on its
  territory. Before the first turn, every player lays out its six flags on free constructions
  (height at least 1, no flag) of its own territory, one flag per construction
  (``tt.layout.territory``, ``tt.layout.free``). Players lay them in turn order, but as the
  territories are disjoint the order changes nothing, so the referee accepts a still moment
  showing any players' flags laid out at once (one move may lay out flags of several colours).
  The first turn begins, with the first player in play order, when every flag is down.
* **Turn stages.** A turn is ``take`` (0 to 3 blocks), ``place`` (every block taken, put down),
  ``flags`` (5 movement points), then its end. Stages are explicit in the state. A flag action
  with blocks still in hand, a take after a put or a flag move, or a put after a flag move break
  ``tt.turn.order``; a turn ended with blocks in hand breaks ``tt.place.all`` (the blocks stay
  off the board, and conservation counts them there).
* **End of a turn.** Nothing on the table shows it. A move may therefore carry ``end`` and then
  the next player's actions (``red: c3-c4 / yellow: -h2``); the camera layer adds the end by
  itself when the active player's points are spent or no flag can move.
* **Capture cost.** The capture table is the total cost of the capturing step (up 3, level 2,
  down 1 by default; option ``capture_costs`` "2/1/1"). A capture ends the flag's path (a path
  through a square holding a flag breaks ``tt.flag.through``); the flag may move on with a
  second path.
* **Attack.** Capturing anywhere but on the capturer's own territory is an attack (neutral
  territories included), counted on the aggression track, which is kept from the history.
* **Score.** During the game each seat's score is how many of the heights 1 to 6 its flags
  hold (6 is the win condition, with all six flags on the board).
* **What the camera cannot see** is assumed in the player's favour: a flag's path is the legal
  one costing the fewest points (a path across the mover's own flags is a chain of identical
  flags stepping on), and a captured flag seen on an interior square may have entered on an
  exterior one and walked. A whole pass (a turn with nothing done) is invisible; a still moment
  spanning two turns is read as the end of one and the start of the next, never more.

``board_view(state)`` returns::

    {"kind": "terra-turrium", "size": 10, "columns": "abcdefghij",
     "territories": {"red": {"x": [0, 4], "y": [0, 4], "player": true}, ...},
     "cells": [{"x": 0, "y": 0, "name": "a1", "height": 1, "territory": "red",
                "neutral": false, "exterior": true, "flag": "red" | null,
                "flags": ["red"]}, ...],          # 100 cells, row by row from a1
     "flags": [{"colour": "red", "cell": [2, 2], "name": "c3", "height": 1}, ...],
     "aggression": {"red": 0, ...},               # attacks made (at most 5)
     "flags_off_board": {"red": 0, ...},          # to lay out, or captured
     "active": "red", "stage": "layout" | "take" | "place" | "flags" | "over",
     "taken": ["c4"], "in_hand": 1, "movement_points": 5,
     "blocks": {"on_board": 116, "off_board": 0, "total": 116},
     "winners": []}
"""

from companion.games.terra_turrium.engine import TerraTurrium  # noqa: F401
from companion.games.terra_turrium.moves import Action, Move  # noqa: F401
from companion.games.terra_turrium.state import (  # noqa: F401
    TerraTurriumOptions, TerraTurriumState,
)
