"""Rendered games refereed from video, the camera tilted 18–28°, away from the demo's camera.

Each game is the sensible player's (:func:`sensible_game`, one mistake in five to seven moves), its
first :data:`STEPS` steps drawn by the synthetic table as a video with arms making every move
(and putting every illegal one right), from a camera placed otherwise than the demo's (tilt,
light, table top), and refereed through the live loop with the script's people answering.
Every verdict must be the script's (move, legality, rule, score) and nothing may be reported
unexplained; the referee must ask where the script's card cannot be read and a drop is
ambiguous, and may ask besides only where a giant went to a square this camera cannot see
(:func:`blind_steps`: behind a tower, one of several such squares a card could take it to), the
people at the table then answering with the script's move. The seeds are the tests' own (the
benchmark keeps video seed 9000 and its games).

Three, four, five and six players. The six-player game holds the black giant, which on a grey
cloth the table's model took for the cloth in shade, and a giant on a cube behind a tower, read
on the table square behind it; it goes behind a tower by a mistake at step 44, where the
referee asks where it went. Other 3- and 6-player games tried stop early (BENCHMARKS.md, Haut
les Cubes, "Other cameras": the mountain read a cell off or a stacked cube a cell off).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from companion.demo.hlc import blind_steps, demo_shot, referee_video
from companion.games.haut_les_cubes.scripts import sensible_game

#: steps refereed in each game: 64 moves (cards played, cards moved to the pile, mistakes)
STEPS = 64
PLAYERS = ("red", "blue", "green", "yellow", "white", "black")


@dataclass(frozen=True)
class TiltedGame:
    players: int
    seed: int  # the game's
    video: int  # the video's: the camera's place, light and noise
    #: how often the sensible player errs (so that the steps played hold five mistakes or more)
    mistakes: float
    tilt_deg: float
    light: str
    table: str


#: each about 2 s of CPU a step (some 130 s a game) on the 2-core VM
GAMES = (
    TiltedGame(4, 154, 154, 0.15, 24.0, "warm-lamp", "cloth"),
    TiltedGame(5, 4, 4, 0.2, 28.0, "overcast", "cloth"),
    TiltedGame(3, 217, 217, 0.2, 20.0, "overcast", "cloth"),
    TiltedGame(6, 213, 213, 0.2, 18.0, "overcast", "cloth"),
)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.players}p-{g.tilt_deg:.0f}deg-{g.light}-{g.table}")
def test_a_tilted_game_is_refereed_from_video_move_by_move(game: TiltedGame):
    script = sensible_game(PLAYERS[:game.players], game.seed, mistakes=game.mistakes)
    part = replace(script, steps=script.steps[:STEPS])
    kinds = [s.kind for s in part.steps]
    assert len(part.steps) >= 60 and kinds.count("illegal") >= 5
    shot = demo_shot(game.video, tilt_deg=game.tilt_deg, light=game.light, table=game.table)
    result = referee_video(part, game.video, shot=shot)
    c = result.comparison
    blind = blind_steps(part, shot)
    # the only departure allowed: a question where the camera could not see where a giant went
    asked_blind = {f"step {n} ({part.steps[n].kind}): asked although the picture was clear" for n in blind}
    wrong = [m for m in c.mismatches if m not in asked_blind]
    assert wrong == [], "\n".join(wrong)
    assert kinds.count("ask") <= c.questions <= kinds.count("ask") + len(blind)
    assert c.unexplained == 0


def test_the_steps_the_camera_cannot_see_are_those_that_take_a_giant_behind_a_tower():
    game = GAMES[0]
    script = sensible_game(PLAYERS[:game.players], game.seed, mistakes=game.mistakes)
    part = replace(script, steps=script.steps[:STEPS])
    shot = demo_shot(game.video, tilt_deg=game.tilt_deg, light=game.light, table=game.table)
    # step 53: red's Moavéou down to (0, -1), behind the four-cube tower on (0, 0) from this
    # camera; every other giant moved or placed lands where the camera sees it
    assert blind_steps(part, shot) == {53}
    assert part.steps[53].move == {"seat": "red", "card": "moaveou", "to": [0, -1]}
    # from straight above, nothing is behind anything
    assert blind_steps(part, demo_shot(game.video, tilt_deg=0.0)) == set()


def test_a_cube_laid_behind_the_mountain_is_a_step_the_camera_cannot_see():
    # the 5-player game played on: step 92 lays blue's Napozla cube on the ground at (0, -5),
    # which this camera, 28° off the vertical, sees too little of past the mountain (the
    # referee may ask where the cube went); from straight above it shows
    game = GAMES[1]
    script = sensible_game(PLAYERS[:game.players], game.seed, mistakes=game.mistakes)
    shot = demo_shot(game.video, tilt_deg=game.tilt_deg, light=game.light, table=game.table)
    assert script.steps[92].move == {"seat": "blue", "card": "napozla", "cube": [0, -5, 0]}
    assert 92 in blind_steps(script, shot)
    assert 92 not in blind_steps(script, demo_shot(game.video, tilt_deg=0.0))
