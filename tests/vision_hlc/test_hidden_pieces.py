"""What the camera cannot see is not held against a position.

The reading below is the demo video's position after script step 54 (seed 0): the blue giant
stands on a cube behind a four-cube tower; the tower hides most of that cube, and the reader,
which does not find it, puts the giant on the table square behind, along the same line of
sight. With the camera's place (``board.camera``) the referee knows the tower hides the cube
and that the giant on it shows where the reading puts one, so the scripted move explains the
picture; without it, the same reading would look like a giant moved and a cube gone.
"""

from __future__ import annotations

import json

from companion.games.haut_les_cubes import HautLesCubes
from companion.games.haut_les_cubes.camera import Sight, expected_keys
from companion.games.haut_les_cubes.scripts import demo_script
from companion.games.matching import CLEAR_MARGIN, MISS, MISS_HIDDEN
from companion.observation import Observation
from companion.referee.decide import decide

GAME = HautLesCubes()
READING = json.loads("""{"game": "haut-les-cubes", "board": {"lattice": {"origin": [269.05, 190.68],
 "angle_deg": 8.079, "pitch": 20.0}, "camera": [284.0, 40.4, 648.4]}, "pieces": [
 {"kind": "cube", "cell": [-3, -2], "level": 0, "conf": 1.0},
 {"kind": "cube", "cell": [-1, -2], "level": 0, "conf": 1.0},
 {"kind": "cube", "cell": [1, 0], "level": 0, "conf": 1.0},
 {"kind": "cube", "cell": [-2, -2], "level": 1, "conf": 1.0},
 {"kind": "cube", "cell": [-2, -2], "level": 2, "conf": 1.0},
 {"kind": "cube", "cell": [-2, -2], "level": 3, "conf": 1.0},
 {"kind": "giant", "cell": [1, 0], "level": 1, "colour": "red", "conf": 0.9999},
 {"kind": "giant", "cell": [-3, 2], "level": 0, "colour": "blue", "conf": 0.6399},
 {"kind": "giant", "cell": [1, -1], "level": 0, "colour": "green", "conf": 1.0},
 {"kind": "card", "zone": "played", "card": "nenlevsa", "conf": 1.0}]}""")


def states_around(step: int):
    """The state before script step ``step`` and after it."""
    script = demo_script()
    state = GAME.setup(script.players, GAME.options_from_json(dict(script.options)), seed=script.seed)
    for n, st in enumerate(script.steps):
        after = GAME.apply(state, GAME.move_from_json(st.move))
        if n == step:
            return state, after, GAME.move_from_json(st.move)
        if st.kind != "illegal":
            state = after
    raise AssertionError("the demo script is shorter than that")


def observation(camera: bool = True, blue_at: list[int] | None = None) -> Observation:
    data = json.loads(json.dumps(READING))
    if not camera:
        del data["board"]["camera"]
    if blue_at is not None:
        for p in data["pieces"]:
            if p.get("colour") == "blue":
                p["cell"] = blue_at
    return Observation.from_json(data)


def test_the_scripted_move_explains_a_reading_of_a_hidden_giant():
    before, after, move = states_around(54)
    assert after.giants[after.players.index("blue")] == (-3, 1)  # on a cube, behind the tower
    seen = observation()
    assert GAME.explain(after, seen) < CLEAR_MARGIN
    decision = decide(GAME, before, seen)
    assert decision.kind == "settle" and decision.chosen.candidate.move == move


def test_without_the_camera_the_same_reading_is_a_poor_fit():
    _, after, _ = states_around(54)
    assert GAME.explain(after, observation(camera=False)) > GAME.explain(after, observation()) + CLEAR_MARGIN


def test_a_giant_read_off_its_line_of_sight_is_still_a_giant_moved():
    _, after, _ = states_around(54)
    # two squares to the side of where its head shows: no line of sight explains that
    assert GAME.explain(after, observation(blue_at=[-5, 2])) > GAME.explain(after, observation()) + 1.0


def test_hidden_pieces_cost_little_when_missed_and_seen_ones_the_full_price():
    _, after, _ = states_around(54)
    from companion.games.haut_les_cubes.camera import register
    from companion.games.haut_les_cubes.geometry import heights_of

    eye = register(after, observation()).eye
    assert eye is not None and eye[2] > 30  # 65 cm up, in 20 mm cells
    standing = [(g, after.height(g)) for g in after.giants if g is not None]
    sight = Sight(eye, heights_of(after.cubes), standing)
    weights = dict(expected_keys(after, sight))
    # behind the four-cube tower, the blue giant on it: partly hidden
    assert MISS_HIDDEN < weights[("cube", -3, 0, 0)] < MISS
    assert weights[("cube", -2, -2, 1)] == MISS_HIDDEN  # under the tower's other cubes
    assert weights[("cube", -2, -2, 3)] == MISS  # the tower's top
    assert weights[("cube", 1, 0, 0)] == MISS  # in plain view
    assert weights[("giant", "green", 1, -1, 0)] == MISS
    # the cube under a giant read on the square behind it is the same misreading
    excused = dict(expected_keys(after, sight, excused=[(-3, 0, 0)]))
    assert excused[("cube", -3, 0, 0)] == MISS_HIDDEN
