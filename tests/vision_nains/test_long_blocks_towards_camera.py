"""Two long blocks lying towards the camera, one on the other, are read as two long blocks with
nothing on them (the demo game after its step 31: white's building 5, an orange block under a
violet one, in the demo video of seed 0).

From the camera, the upper block's top is a strip of one colour 40 mm long. What went wrong
there: (1) the tops of each height were kept one flat shape a height, and a cylinder's or a
cube's top (a mean over its points, all inside the strip) came first on the coarse grid, so no
long block was ever filled in below; (2) the top was turned about the turn its cube-sized foot
seemed to have (7.5° off the card's square, as far as the foot's search reaches, while the
blocks lay 2–4° off it the other way), so it could not come within 6° of them; (3) the stack
read was then a violet cube (or a roof) on the two blocks, which no legal move builds (no
violet cube was left in the pool): the referee saw nothing happen for the rest of the game.
Now the search reads the two blocks (over a stone it barely sees, at most: the same picture a
level higher and nearer, that the rules leave out), and never a stone on them."""

from __future__ import annotations

import pytest

from companion.demo.nains import demo_shot, scene_for
from companion.games import get_game
from companion.games.script import states
from companion.games.ville_des_nains.scripts import demo_script
from companion.synth.nains.photo import photograph
from companion.vision.nains.reader import observation_of

from .conftest import corpus_reader

STEP = 31


@pytest.mark.parametrize("seed", [0, 2])
def test_two_long_blocks_towards_the_camera_carry_no_stone(seed):
    scene = scene_for(states(get_game("ville-des-nains"), demo_script())[STEP + 1])
    truth = next(b for b in scene.buildings if b.seat == "white" and b.index == 5)
    assert [(c, s) for c, s, _ in truth.stones] == [("orange", "long"), ("violet", "long")]
    shot = demo_shot(seed)
    reader = corpus_reader(scene, shot)
    seen = observation_of(reader.read_all(photograph(scene, shot).image))
    assert seen is not None and not seen.hand
    stones = sorted((p.level, p.get("colour"), p.get("shape"), p.conf) for p in seen.pieces
                    if p.zone == "player:white" and p.get("building") == 5)
    # the blocks as they are, or a level higher over a stone barely seen (under the referee's
    # 0.15, where it tries the stack without it)
    read = [(c, s) for _, c, s, _ in stones]
    assert read[-2:] == [("orange", "long"), ("violet", "long")], stones
    assert len(read) == 2 or (len(read) == 3 and stones[0][3] < 0.15), stones
