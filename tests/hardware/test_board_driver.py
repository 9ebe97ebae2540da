"""From the referee's events to what the board shows: the reaction table and the status it
follows. Most tests use a recording stand-in for the link (the commands are the subject); the
last drives a real link to an emulated board."""

from __future__ import annotations

from companion import events as ev
from hardware.colours import FALLBACK, seat_colour, to_hex
from hardware.driver import REACTIONS, BoardDriver
from hardware.protocol import Command
from hardware.settings import BoardSettings


class RecordingLink:
    """Keeps the wanted settings as BoardLink does and records every command sent."""

    def __init__(self) -> None:
        self.desired = BoardSettings()
        self.sent: list[str] = []

    def send(self, verb: str, *args: object) -> None:
        cmd = Command(verb, tuple(str(a) for a in args))
        self.desired = self.desired.apply(cmd)
        self.sent.append(str(cmd))

    def take(self) -> list[str]:
        sent, self.sent = self.sent, []
        return sent


def status(players=("red", "blue", "green"), active="red", waiting=False, **scores):
    return {"players": list(players), "active": active, "round": 1, "phase": "play",
            "scores": {p: scores.get(p, 0) for p in players}, "waiting": waiting}


def started() -> tuple[BoardDriver, RecordingLink]:
    link = RecordingLink()
    driver = BoardDriver(link)
    driver.handle(ev.GAME_STARTED, {}, status())
    return driver, link


def test_every_board_event_has_a_reaction():
    assert set(ev.BOARD_EVENTS) <= set(REACTIONS)
    assert set(REACTIONS) <= set(ev.RECORD_EVENTS)


def test_game_start_lights_the_seats_and_shows_the_first_player():
    driver, link = started()
    assert link.take() == ["SEATS ff0000 0000ff 00ff00", "TURN 0", "VIEW S0", "TEXT 2000 PLAY"]
    assert link.desired.turn == 0


def test_a_legal_move_flashes_green_and_shows_who_scored():
    driver, link = started()
    link.take()
    driver.handle(ev.MOVE_JUDGED, {"legal": True}, status(active="blue", red=5))
    assert link.take() == ["SCORE 0 5", "TURN 1", "FLASH GOOD"]
    assert link.desired.view == "S0"                  # red just scored
    driver.handle(ev.MOVE_JUDGED, {"legal": True}, status(active="green", red=5))
    assert link.take() == ["TURN 2", "VIEW S2", "FLASH GOOD"]   # no score: the active player


def test_an_illegal_move_flashes_red_and_says_so():
    driver, link = started()
    link.take()
    driver.handle(ev.MOVE_JUDGED, {"legal": False}, status())
    assert link.take() == ["FLASH BAD", "TEXT 2000 ILLEGAL"]


def test_the_pulse_follows_questions():
    driver, link = started()
    driver.handle(ev.QUESTION_ASKED, {"choices": []}, status(waiting=True))
    assert link.desired.pulse
    driver.handle(ev.VERDICT_CONFIRMED, {}, status(waiting=True))   # still waiting
    assert link.desired.pulse
    driver.handle(ev.QUESTION_ANSWERED, {}, status(waiting=False))
    assert not link.desired.pulse
    driver.handle(ev.UNEXPLAINED, {"reason": "?"}, status())
    assert link.desired.pulse and "TEXT 2000 CHECK" in link.take()


def test_nobody_to_play_cycles_and_the_end_shows_the_winner():
    driver, link = started()
    driver.handle(ev.MOVE_UNDONE, {}, status(active=None))
    assert link.desired.view == "C" and link.desired.turn is None
    assert "TEXT 2000 UNDO" in link.take()
    driver.handle(ev.GAME_ENDED, {"outcome": {"winners": ["green"]}},
                  status(active=None, green=9))
    assert link.desired.view == "W2" and not link.desired.pulse
    driver.handle(ev.GAME_ENDED, {"outcome": {"winners": ["grues"]}}, status(active=None))
    assert link.desired.view == "C"                  # a winner that is not a seat


def test_odd_seats_and_odd_statuses_never_stop_the_referee():
    link = RecordingLink()
    driver = BoardDriver(link)
    many = [f"p{i}" for i in range(10)]
    driver.handle(ev.GAME_STARTED, {}, status(players=many, active="p9"))
    assert link.desired.seats == 8 and link.desired.turn is None
    assert link.desired.colours[0] == FALLBACK
    driver.handle(ev.MOVE_JUDGED, {"legal": True}, {"players": ["red"], "scores": {"red": "x"}})
    driver.handle(ev.MOVE_JUDGED, {"legal": True}, {"players": ["red"], "scores": {"red": 10**9}})
    assert link.desired.scores == (32767,)
    before = list(link.sent)
    driver.handle(ev.CAMERA_STATUS, {}, status())
    assert link.sent == before


def test_events_reach_an_emulated_board_through_a_real_link(emulated, links):
    board = emulated()
    link = links(board.link_path)
    link.start()
    driver = BoardDriver(link)
    driver.handle(ev.GAME_STARTED, {}, status(players=("yellow", "violet"), active="yellow"))
    driver.handle(ev.MOVE_JUDGED, {"legal": True},
                  status(players=("yellow", "violet"), active="violet", yellow=3))
    assert link.wait_idle(10)
    snap = board.snapshot()
    assert snap["seats"] == ["#" + to_hex(seat_colour(c)) for c in ("yellow", "violet")]
    assert snap["scores"] == [3, 0] and snap["turn"] == 1 and snap["view"] == "S0"
    assert [c.split(" ", 1)[1] for c in board.executed if "FLASH" in c] == ["FLASH GOOD"]


def test_the_games_word_for_a_legal_move_is_shown():
    """A push shows PUSH on the display; an illegal move shows ILLEGAL, never the word."""
    driver, link = started()
    link.take()
    driver.handle(ev.MOVE_JUDGED, {"legal": True, "word": "push"}, status(active="blue"))
    assert link.take()[-2:] == ["FLASH GOOD", "TEXT 2000 PUSH"]
    driver.handle(ev.MOVE_JUDGED, {"legal": False, "word": "push"}, status(active="blue"))
    assert link.take()[-2:] == ["FLASH BAD", "TEXT 2000 ILLEGAL"]


def test_haut_les_cubes_names_its_pushes_and_scoring_jumps():
    from companion.games import get_game
    from companion.games.haut_les_cubes.moves import Play
    import sys, pathlib
    sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "games" / "haut_les_cubes"))
    from hlc_positions import block, position

    game = get_game("haut-les-cubes")
    s = position(block(0, 0, 2, 2), {"red": (-1, 0), "blue": (-1, 1), "green": (4, 3)})
    assert game.display_word(s, game.parse_notation(s, "red: P blue>-1,2")) == "PUSH"
    assert game.display_word(s, game.parse_notation(s, "red: M -1,-1")) is None
    s = position(block(0, 0, 2, 2), {"red": (0, 0), "blue": (4, 4), "green": (4, 3)})
    assert game.display_word(s, game.parse_notation(s, "red: M -1,0")) == "JUMP"
    assert game.display_word(s, Play("red", "napozla")) is None
