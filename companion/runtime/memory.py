"""A reader's memory, kept so that a reading can be taken back.

The loop reads a frame as soon as the table looks still, before the stillness gate has confirmed
it (:mod:`companion.runtime.loop`). When the table moves again before the gate settles, that
early reading never happened as far as the game is concerned, and it must not have happened for
the reader either: readers remember the last still moment (the Haut les Cubes and Altitude
readers read a changed table against it, Terra Turrium keeps the heights it last saw), and a
reader that remembered a moment the referee never judged would read the next one differently
from a loop that had waited, and differently from a game resumed from the log.

So the loop keeps the reader's state before an early reading and puts it back if the reading is
dropped. A reader may say what its memory is (``memory()`` and ``recall()``); otherwise its state
is copied whole (``copy.deepcopy`` of the reader's attributes), which knows
nothing of any reader's internals; objects OpenCV made (ArUco detectors and the like) cannot be
copied and hold no memory of frames, so they are shared, not copied.
"""

from __future__ import annotations

import copy
from typing import Any

#: how deep the search for OpenCV's objects goes (readers keep them a few attributes down)
_DEPTH = 6


def _opencv_objects(root: Any) -> list[Any]:
    """OpenCV's objects reachable from ``root`` through attributes, containers and dataclass
    fields: what ``deepcopy`` cannot copy."""
    found: list[Any] = []
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        obj, depth = stack.pop()
        if id(obj) in seen or depth > _DEPTH:
            continue
        seen.add(id(obj))
        kind = type(obj)
        module = getattr(kind, "__module__", "") or ""
        if module == "cv2" or module.startswith("cv2."):
            found.append(obj)
            continue
        if isinstance(obj, (str, bytes, int, float, bool, type(None))) or module == "numpy":
            continue
        if isinstance(obj, dict):
            children = list(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children = list(obj)
        else:
            children = list(getattr(obj, "__dict__", {}).values())
            for name in getattr(kind, "__slots__", ()):
                if hasattr(obj, name):
                    children.append(getattr(obj, name))
        stack.extend((child, depth + 1) for child in children)
    return found


class Kept:
    """A reader's memory as it was, to be put back with :meth:`restore`.

    A reader that knows what it remembers says so with two methods, ``memory()`` (returning
    what it remembers, which it must not change afterwards) and ``recall(memory)``; that costs
    nothing. Any other reader has all its attributes copied, which is always right but can take
    tens of milliseconds for a reader holding a large last reading."""

    def __init__(self, reader: Any):
        self.reader = reader
        memory = getattr(reader, "memory", None)
        if callable(memory) and callable(getattr(reader, "recall", None)):
            self.own, self.state = True, memory()
        else:
            shared = {id(x): x for x in _opencv_objects(reader)}
            self.own, self.state = False, copy.deepcopy(vars(reader), shared)

    def restore(self) -> None:
        """The reader as it was when kept: what it learned since is forgotten."""
        if self.own:
            self.reader.recall(self.state)
            return
        attributes = vars(self.reader)
        attributes.clear()
        attributes.update(self.state)
