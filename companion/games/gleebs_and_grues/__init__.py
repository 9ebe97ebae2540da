"""Gleeb's and Grues: two players, a Rainbow set of pyramids, a 4×4 board, three grues.

Registry name ``gleebs-and-grues``; the class is :class:`GleebsAndGrues`.

Seats and play order
    ``blue-yellow`` (player A of the rulings: blue and yellow gleebs) and ``green-red``
    (player B: green and red). ``setup(players)`` takes both seats in play order; the first is
    first in the placement and in the movement phase. ``status()["led"]`` gives each seat two RGB
    colours for the LED board (a one-colour light uses the first: blue, green).

The grues' squares
    are **the first move**, :class:`SetGrues` (``grues Ks@a1 Km@c2 Kl@d4``): the table drops the
    three black pyramids at random and the camera reads where they fell. ``random_move`` draws it
    uniformly over three distinct squares; ``setup``'s ``seed`` is unused.

Stages
    ``grues`` (the setting), ``place`` (12 placements, alternately, one gleeb at a time on an
    empty square), ``gleeb`` then ``grue`` for each movement turn (skipped when nothing can make
    that step), ``over``. A move let stand takes the place of the step it was made in.

``board_view(state)``::

    {"kind": "gleebs-and-grues", "size": [4, 4],
     "cells": [                       # 16 squares, a1 first, row by row ([col, row])
       {"cell": [0, 0], "name": "a1",
        "role": "empty" | "gleeb" | "grue" | "pinned",
        "owner": "blue-yellow" | "green-red" | null,     # the seat topping a gleeb stack
        "pips": 3,                                       # all pyramids of the stack
        "stack": [{"colour": "blue", "size": "large"}, ...],   # bottom to top, as tracked
        "visible": [...]},                               # what the camera can see of it
       ...],
     "eaten": [{"colour": ..., "size": ...}, ...],       # in the order they were eaten
     "hands": {"blue-yellow": [...], "green-red": [...]},   # gleebs not yet placed
     "grues_to_set": [...],                              # black pyramids not yet set
     "active": "blue-yellow" | "green-red" | null,
     "stage": "grues" | "place" | "gleeb" | "grue" | "over"}

``status(state)`` adds to the contract's keys: ``stage``, ``turn``, ``seat_colours``, ``led``,
``to_place``, ``stacks`` (stacks each seat tops), ``can_move``, ``free_grues``, ``pinned``,
``eaten``, ``empty_squares`` and ``outcome``.
"""

from companion.games.gleebs_and_grues.engine import GleebsAndGrues
from companion.games.gleebs_and_grues.moves import Place, SetGrues, Step
from companion.games.gleebs_and_grues.state import GGState, GleebsOptions

__all__ = ["GleebsAndGrues", "GGState", "GleebsOptions", "Place", "SetGrues", "Step"]
