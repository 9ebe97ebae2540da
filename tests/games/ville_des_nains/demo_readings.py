"""Readings of the Nains demo game as the camera made them, for the referee tests that replay a
misread step: the state the step is judged from, the state after it, and an observation of that
position with some of white's buildings replaced by what the camera read, stone by stone."""

from __future__ import annotations

from companion.games import get_game
from companion.games.script import states
from companion.games.ville_des_nains import camera
from companion.games.ville_des_nains.scripts import demo_script
from companion.observation import Observation, Piece

#: a building as read: (colour, shape, confidence) per stone, bottom first, or (colour, shape,
#: confidence, shape confidence) where the reader says how sure it is of the shape apart
Stones = list[tuple]


def demo_step(number: int):
    """(game, script, state before step ``number``, state after it)."""
    game = get_game("ville-des-nains")
    script = demo_script()
    before = states(game, script)[number]
    return game, script, before, game.apply(before, game.move_from_json(script.steps[number].move))


def white_reading(state, read: dict[int, Stones]) -> Observation:
    """The ideal observation of ``state`` with white's buildings in ``read`` as read there."""
    return reading(state, {("white", b): stones for b, stones in read.items()})


def reading(state, read: dict[tuple[str, int], Stones]) -> Observation:
    """The ideal observation of ``state`` with the buildings in ``read`` ((seat, building):
    stones) as read there."""
    pieces = [p for p in camera.expected_pieces(state)
              if not ((p.zone or "")[len("player:"):], p.get("building")) in read]
    for (seat, building), stones in read.items():
        for k, stone in enumerate(stones):
            attrs = {"building": building, "colour": stone[0], "shape": stone[1]}
            if len(stone) > 3:
                attrs["shape_conf"] = stone[3]
            pieces.append(Piece("stone", conf=stone[2], zone=f"player:{seat}", level=k, attrs=attrs))
    return Observation(game="ville-des-nains", pieces=tuple(pieces))
