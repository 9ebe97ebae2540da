"""Giants read from a tilted camera in the six-player game, position by position (cold).

Three positions of rendered six-player games, 18–20° off the vertical under an overcast sky on
cloth, where a giant used to be lost or put on the wrong square:

* a black giant on the grey cloth, which the table's model took for the cloth in shade (it
  takes any brightness under the lit table for shade, and a black pawn has a grey table's
  chroma): the light's shade cannot be that deep (:func:`shade_floor`);
* a green giant on a cube, read on the table square behind it, whose pawn would show the same
  green above the cube: the pawn on the cube shows it below, where the one behind would show
  the cube;
* a black giant behind the mountain, its head alone showing over a cube: its lower points were
  taken for seen just past the cube's edge, and showed the wood.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from companion.bench.vision import _last_still
from companion.demo.hlc import demo_shot, demo_source, reader_for
from companion.games.haut_les_cubes.scripts import sensible_game
from companion.vision.hlc.giants import shade_floor

PLAYERS = ("red", "blue", "green", "yellow", "white", "black")


@lru_cache(maxsize=None)
def read_position(seed: int, tilt: float, position: int):
    """The six-player game ``seed`` (one mistake in five) at ``position`` (after script step
    ``position - 1``), filmed by video ``seed``'s camera at ``tilt``, read cold: the frame's
    truth, the observation and the reader."""
    script = sensible_game(PLAYERS, seed, mistakes=0.2)
    part = replace(script, steps=script.steps[:position])
    shot = demo_shot(seed, tilt_deg=tilt, light="overcast", table="cloth")
    source = demo_source(part, seed, shot=shot)
    reader = reader_for(source)
    reader.warm = False
    seq = source.sequence
    obs = reader.read(seq.frame(_last_still(seq, position)))
    scene = seq.keyframes[position].scene
    truth = {(g.colour, g.cell, g.level) for g in scene.giants}
    return truth, obs, reader


def giants(obs):
    return {(p.get("colour"), p.cell, p.level) for p in obs.of_kind("giant")}


@pytest.mark.parametrize("seed, tilt, position, giant", [
    (201, 20.0, 6, ("black", (3, 1), 0)),  # a black pawn on grey cloth
    (206, 20.0, 9, ("black", (3, 0), 0)),
    (206, 20.0, 13, ("green", (-1, 1), 1)),  # on a cube, the table square behind it in line
    (212, 18.0, 6, ("black", (-2, 2), 0)),  # behind the mountain, its head over a cube
])
def test_the_giant_is_read_on_its_square(seed, tilt, position, giant):
    truth, obs, _ = read_position(seed, tilt, position)
    assert giant in truth
    # read there, and nowhere else
    assert [g for g in giants(obs) if g[0] == giant[0]] == [giant]


def test_a_black_pawn_is_darker_than_the_table_shade_of_an_overcast_sky():
    truth, obs, reader = read_position(201, 20.0, 6)
    evidence = reader.last.mountain.search.evidence
    floor = shade_floor(evidence.table, evidence.models)
    # the overcast sky's shade is shallow: the floor lies a little under the lit table, far above
    # a black pawn's paint (about 30 units under the lit table on this cloth)
    assert evidence.table.bright_lit - 20.0 < floor < evidence.table.bright_lit
    assert shade_floor(None, evidence.models) is None
    assert shade_floor(evidence.table, []) is None
