"""The board's lasting state and the rules of the commands that set it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from hardware.colours import FALLBACK, from_hex, seat_colour, to_hex
from hardware import segments
from hardware.protocol import Command
from hardware.settings import BoardSettings

rgb = st.tuples(*[st.integers(0, 255)] * 3)


@st.composite
def settings(draw):
    n = draw(st.integers(0, 8))
    views = ["I", "C"] + [f"{k}{i}" for k in "SW" for i in range(n)]
    return BoardSettings(colours=tuple(draw(st.lists(rgb, min_size=n, max_size=n))),
                         scores=tuple(draw(st.lists(st.integers(-32768, 32767), min_size=n,
                                                    max_size=n))),
                         turn=draw(st.sampled_from([None] + list(range(n)))),
                         view=draw(st.sampled_from(views)), pulse=draw(st.booleans()),
                         brightness=draw(st.integers(0, 15)))


@given(settings())
def test_one_state_line_restores_everything(s):
    line = s.state_command()
    assert len(line.line(9999)) <= 161
    assert BoardSettings(brightness=3, pulse=True).apply(line) == s


def apply(s: BoardSettings, verb: str, *args: str) -> BoardSettings:
    return s.apply(Command(verb, args))


def test_seats_shrinking_forgets_what_was_beyond():
    s = apply(BoardSettings(), "STATE", "b=8", "t=2", "v=S2", "p=0", "ff0000:1", "00ff00:2",
              "0000ff:3")
    s = apply(s, "SEATS", "ff0000", "00ff00")
    assert (s.turn, s.view, s.scores) == (None, "I", (1, 2))
    s = apply(s, "SEATS", "ff0000", "00ff00", "0000ff")
    assert s.scores == (1, 2, 0)


@pytest.mark.parametrize("verb,args", [
    ("TURN", ("2",)), ("SCORE", ("2", "1")), ("SCORE", ("0", "40000")), ("VIEW", ("S5",)),
    ("VIEW", ("Q",)), ("BRIGHT", ("16",)), ("BRIGHT", ("-1",)), ("PULSE", ("2",)),
    ("SEATS", ("#ff0000",)), ("SEATS", ("ff00",)), ("TURN", ()),
    ("STATE", ("b=8", "t=-", "v=C")), ("STATE", ("t=-", "b=8", "v=C", "p=0")),
    ("STATE", ("b=8", "t=-", "v=C", "p=0", "ff0000:1:2")),
])
def test_what_the_board_refuses_is_refused(verb, args):
    s = apply(BoardSettings(), "SEATS", "ff0000", "00ff00")
    with pytest.raises(ValueError):
        s.apply(Command(verb, args))


def test_views_are_normalised_and_moments_change_nothing():
    s = apply(BoardSettings(), "SEATS", "ff0000", "00ff00")
    assert apply(s, "VIEW", "S01").view == "S1"
    assert apply(s, "FLASH", "GOOD") == s and apply(s, "TEXT", "100", "HI") == s


def test_seat_colours():
    assert seat_colour("Red") == (255, 0, 0)
    assert seat_colour("bleu") == seat_colour("blue")
    assert seat_colour("pink") == FALLBACK == seat_colour("kobold")
    assert seat_colour("black") != (0, 0, 0)       # a light cannot shine black
    assert from_hex(to_hex((1, 2, 255))) == (1, 2, 255) == from_hex("#0102ff")
    with pytest.raises(ValueError):
        from_hex("red")


def test_segment_font_round_trips_what_it_can_show():
    for text in ("ILLEGAL", "P1    12", "--------", "CHECK", "UNDO", "PLAY"):
        assert segments.read(segments.render(text)).rstrip() == text
    assert segments.read(segments.render("PUSH")) == "PU5H    "   # S and 5 look the same
    assert segments.render("1.5")[:2] == bytes([0x30 | 0x80, 0x5B])
    with pytest.raises(ValueError):
        segments.render("~")
    with pytest.raises(ValueError):
        segments.render("123456789")
