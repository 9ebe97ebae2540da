"""What the dashboard reads of each of the five games: the board to draw, the places the last
move changed, the scores over the game, the reading by place and the moves to correct with,
from games played through the referee with the observations of each game's demo script."""

from __future__ import annotations

import importlib

import pytest

from companion import events as ev
from companion.games import get_game
from companion.games.script import observation_lines
from companion.observation import Observation
from companion.runtime.table import Table
from companion.web.places import changed_places, piece_place, positioned, view_places, what
from companion.web.views import GameViews

PACKAGES = {"haut-les-cubes": "haut_les_cubes", "altitude": "altitude",
            "terra-turrium": "terra_turrium", "gleebs-and-grues": "gleebs_and_grues",
            "ville-des-nains": "ville_des_nains"}


def played(data_dir, game: str, lines: int = 12) -> Table:
    """A table whose referee judged the first ``lines`` lines of the game's demo script."""
    script = importlib.import_module(f"companion.games.{PACKAGES[game]}.scripts").demo_script()
    engine = get_game(game)
    table = Table(data_dir)
    referee = table.start_game(game, list(script.players), dict(script.options), seed=script.seed,
                               actor="test")
    for line in list(observation_lines(engine, script))[:lines]:
        if "pieces" in line:
            referee.observe(Observation.from_json(line), actor="camera")
        elif "answer" in line:
            table.act("answer", {"choice": line["answer"]}, actor="test")
        elif line.get("let_stand"):
            table.act("let_stand", actor="test")
    return table


@pytest.mark.parametrize("game", list(PACKAGES))
def test_each_game_is_drawn_highlighted_charted_and_correctable(data_dir, game):
    table = played(data_dir, game)
    try:
        views = GameViews(table)
        snap = views.snapshot()
        referee = table.referee
        board = snap["game"]["board"]
        assert board["kind"] == game
        last = snap["game"]["highlight"]["last"]
        assert last, "the last move changed something on the board"
        assert set(last) <= set(view_places(board)), "every highlighted place is drawn"
        assert snap["game"]["highlight"]["last_seq"] == referee.session.last.seq
        points = snap["series"]["points"]
        assert len(points) == len(referee.session.entries) + 1
        assert points[-1]["scores"] == referee.game.scores(referee.state)
        # the reading, by place, round-trips through the editor's templates
        reading = views.reading()
        assert reading["seen"] and reading["pieces"]
        for item in reading["pieces"]:
            piece = {k: v for k, v in item["piece"].items() if k != "conf"}
            assert positioned(what(piece), item["place"], piece.get("level")) == piece
        # pick another legal move as the real one: the record is corrected in place
        found = views.suggestions("")
        target = found["target"]
        assert target["seq"] == referee.session.last.seq
        other = next(m["notation"] for m in found["moves"]
                     if m["legal"] and m["notation"] != target["notation"])
        entries = len(referee.session.entries)
        events = table.act("correct", {"move": other}, actor="referee")
        assert events[0].type == ev.MOVE_CORRECTED and events[0].data["notation"] == other
        assert len(referee.session.entries) == entries
        assert views.snapshot()["history"][-1]["type"] in (ev.MOVE_CORRECTED, ev.GAME_ENDED)
    finally:
        table.close()


def test_a_laid_cube_changes_exactly_the_four_cells_it_covers():
    hlc = get_game("haut-les-cubes")
    state = hlc.setup(["red", "blue", "green"])
    for notation in ("red: @-4,0", "blue: @-4,-1", "green: @3,1"):
        state = hlc.apply(state, hlc.parse_notation(state, notation))
    after = hlc.apply(state, hlc.parse_notation(state, "red: N -5,1^0"))
    changed = changed_places(hlc.board_view(state), hlc.board_view(after))
    assert set(changed) == {"cell:-5,1", "cell:-4,1", "cell:-5,2", "cell:-4,2", "zone:played"}


def test_places_of_pieces():
    assert piece_place({"kind": "cube", "cell": [2, -3], "level": 1}) == "cell:2,-3"
    assert piece_place({"kind": "card", "zone": "player:red", "etage": 2, "pos": 1}) == "card:red:2:1"
    assert piece_place({"kind": "stone", "zone": "player:green", "building": 0}) == "building:green:0"
    assert piece_place({"kind": "die", "zone": "tray"}) == "zone:tray"
    assert piece_place({"kind": "thing"}) == "table"
    assert changed_places(None, None) == [] and view_places({"kind": "chess"}) == {}
