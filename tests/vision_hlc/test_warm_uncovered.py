"""A tower taken down shows the tower it hid, and the warm reading must find that one too.

The mountain below has a three-cube tower on (1, 2) right behind a five-cube one on (1, 0): from
this camera the front tower hides it wholly. A Nenlèvsa takes the front tower's top cube away,
and the back tower's top comes into view. A warm reading (the next still moment read from the
last one) searches again only the towers whose drawing reaches the changed pixels, a few levels
round their height; the back tower's three cubes gain nothing while the five-cube tower still
stands in front of them, so the search must go over the touched towers again once the front one
came down (it read the back tower nowhere, and the referee asked about every move after).
"""

from __future__ import annotations

from companion.demo.hlc import demo_lattice, demo_shot
from companion.synth.scene import Giant, Scene
from companion.synth.sequence import Keyframe, Sequence
from companion.vision.hlc.layout import DEFAULT_LAYOUT
from companion.vision.hlc.reader import HlcReader

FRONT = {(1, 0, k) for k in range(5)}
BACK = {(1, 2, k) for k in range(3)}
OTHERS = {(-1, -2, k) for k in range(5)} | {(-3, -2, 0), (-5, -1, 0)}
#: a demo camera whose line of sight passes over the front tower onto the back one's top
SEED = 10


def scene(cubes: set) -> Scene:
    return Scene(lattice=demo_lattice(), cubes=tuple(sorted(cubes)),
                 giants=(Giant("blue", (3, 0), 0),), card=None)


def cubes_of(observation) -> set:
    return {(p.cell[0], p.cell[1], p.level) for p in observation.pieces if p.kind == "cube"}


def truth_cubes(frame) -> set:
    return {(p["cell"][0], p["cell"][1], p["level"])
            for p in frame.truth["observation"]["pieces"] if p["kind"] == "cube"}


def test_the_tower_a_removed_cube_hid_is_read():
    shot = demo_shot(SEED)
    before, after = FRONT | BACK | OTHERS, (FRONT - {(1, 0, 4)}) | BACK | OTHERS
    video = Sequence([Keyframe(scene(before), 1.0), Keyframe(scene(after), 1.0)], shot, fps=10.0,
                     layout=DEFAULT_LAYOUT, seed=SEED)
    reader = HlcReader(camera=shot.view.camera)
    first, last = video.frame(5), video.frame(len(video) - 1)
    assert not first.truth["moving"] and not last.truth["moving"]
    # the back tower is hidden at first: the truth leaves it out, and so does the reading
    assert not truth_cubes(first) & BACK
    assert cubes_of(reader.read(first)) == truth_cubes(first)
    # once the front tower's top is gone, its top shows: the truth expects the whole tower
    assert BACK <= truth_cubes(last)
    seen = reader.read(last)
    assert cubes_of(seen) == truth_cubes(last), reader.last.message
