"""The line format: checksums, replies, framing of commands."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from hardware import protocol
from hardware.model import BoardModel, LineReader
from hardware.protocol import Command, LineSplitter, crc16, parse_reply, seal, unseal

printable = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=120)


def test_crc_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1


@given(printable)
def test_a_sealed_line_unseals_to_its_payload(payload):
    assert unseal(seal(payload)[:-1]) == payload


@given(printable, st.data())
def test_any_single_bit_error_is_caught(payload, data):
    line = bytearray(seal(payload)[:-1])
    i = data.draw(st.integers(0, len(line) - 1))
    line[i] ^= 1 << data.draw(st.integers(0, 7))
    # Refused, or (a hex digit's letter case flipped) read exactly as sent.
    assert unseal(bytes(line)) in (None, payload)
    if i < len(line) - 4:
        assert unseal(bytes(line)) is None


def test_replies_are_read_with_their_fields():
    ok = parse_reply(seal("OK 12 proto=1 fw=1.0.0")[:-1])
    assert (ok.kind, ok.seq, ok.fields["fw"], ok.duplicate) == ("OK", 12, "1.0.0", False)
    assert parse_reply(seal("OK 3 DUP")[:-1]).duplicate
    no = parse_reply(seal("NO 4 ARGS bad arguments")[:-1])
    assert (no.kind, no.seq, no.reason, no.text) == ("NO", 4, "ARGS", "bad arguments")
    anon = parse_reply(seal("NO - BADSUM checksum missing or wrong")[:-1])
    assert anon.seq is None and anon.reason == "BADSUM"
    ready = parse_reply(seal("READY proto=1 fw=1.0.0")[:-1])
    assert ready.kind == "READY" and ready.fields["proto"] == "1"


@pytest.mark.parametrize("payload", ["HELLO", "OK", "OK x", "OK 0", "OK 10000", "NO 3 WHY",
                                     "NO 3", "", "ok 3"])
def test_malformed_replies_are_dropped(payload):
    assert parse_reply(seal(payload)[:-1]) is None


def test_garbage_is_dropped():
    assert parse_reply(b"\x00\xffOK 1*1234") is None
    assert parse_reply(b"OK 1") is None


def test_splitter_cuts_at_cr_or_lf_across_reads_and_drops_overlong_lines():
    s = LineSplitter(limit=10)
    assert s.feed(b"ab") == []
    assert s.feed(b"c\r\nde\rx" * 1) == [b"abc", b"de"]
    assert s.feed(b"y" * 30 + b"\nok\n") == [b"ok"]


def test_commands_refuse_what_cannot_be_a_line():
    with pytest.raises(ValueError):
        Command("DANCE")
    with pytest.raises(ValueError):
        Command("TEXT", ("1000", "two words"))
    with pytest.raises(ValueError):
        Command("TEXT", ("1000", "a*b"))
    with pytest.raises(ValueError):
        Command("SEATS", ("ff0000",) * 30).line(1)
    assert Command("SCORE", ("0", "12")).line(7) == seal("7 SCORE 0 12")
    assert Command("FLASH", ("GOOD",)).transient and not Command("SCORE", ("0", "1")).transient


def test_the_framing_tool_prints_a_line_the_board_accepts(capsys):
    assert protocol.main(["--seq", "5", "hello", "1"]) == 0
    line = capsys.readouterr().out.encode()
    board, reader = BoardModel(0), LineReader()
    replies = [board.on_event(*got, 1000) for b in line if (got := reader.feed(b))]
    assert replies and replies[0].startswith(b"OK 5 proto=1")
    assert protocol.main(["--seq", "0", "PING"]) == 2
    assert "between 1 and 9999" in capsys.readouterr().err


def test_the_session_in_protocol_md_is_what_the_board_answers():
    """The documented session, line for line, replayed on the board's model."""
    from hardware.firmware import FIRMWARE_DIR

    text = (FIRMWARE_DIR / "PROTOCOL.md").read_text()
    session = text[text.index("## A session"):]
    lines = [ln.split("   ")[0].strip() for ln in session.splitlines()
             if ln.startswith(("-> ", "<- "))]
    assert len(lines) > 10
    board, reader = BoardModel(0), LineReader()
    expected = [ln[3:] for ln in lines if ln.startswith("<- ")]
    assert expected[0] == board.ready_banner().decode().rstrip()
    answers = []
    for ln in lines:
        if ln.startswith("-> "):
            for byte in (ln[3:] + "\n").encode():
                got = reader.feed(byte)
                if got:
                    answers.append(board.on_event(got[0], got[1], 1000).decode().rstrip())
    assert answers == expected[1:]
