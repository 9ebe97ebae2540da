"""Scripted games of Altitude, played to the end on the short made-up deck ``mini``.

Each script is written in the game's notation, as a referee would read it aloud, and turned into
a :class:`~companion.games.script.Script` (moves in JSON) by replaying it on the engine, so a
script that stopped matching the rules would fail to build. The illegal steps are mistakes made
at real tables; the referee flags each and the cards are put back.

* :func:`demo_script` — three players (red, yellow, blue). Shows the rule text's two examples
  ("9 on 8 and 5", "13 on 9 and a téléphérique"), an avalanche laid in an opponent's mountain and
  removed by a Saint-Bernard (which one lies under the avalanche on the discard is hidden: the
  referee asks), a téléphérique covering an avalanche, a replacement, a drawn card shown, the
  end phase (each player's cards laid at once, then the hand shown or emptied), a Saint-Bernard
  kept; and seven mistakes. Red wins with 5 points (3 étages, a Saint-Bernard kept, an emptied hand).
* :func:`solo_script` — the solitaire: a five-étage mountain with the eagle on top. 9 points.
"""

from __future__ import annotations

from companion.games.altitude.engine import Altitude
from companion.games.script import Script, ScriptStep

# (notation, kind, rule id or None, note); a bare string is a step played as it should be
Entry = str | tuple[str, str, str | None, str]

DECK = "mini"


def _build(title: str, players: tuple[str, ...], entries: list[Entry]) -> Script:
    game = Altitude()
    options = {"manifest": DECK}
    state = game.setup(players, options)
    steps = []
    for entry in entries:
        text, kind, rule, note = (entry, "play", None, "") if isinstance(entry, str) else entry
        move = game.parse_notation(state, text)
        steps.append(ScriptStep(move=game.move_to_json(move), kind=kind, rule=rule, note=note))
        if kind in ("play", "let_stand", "ask"):
            state = game.apply(state, move)
    return Script(game=game.name, players=players, steps=tuple(steps), options=options,
                  title=title)


def demo_script() -> Script:
    return _build("Three mountains: red wins with 5 points", ("red", "yellow", "blue"), [
        ("red gives m08 yellow 1:0", "illegal", "alt.opponent.started",
         "yellow has not started a mountain"),
        "red builds m08 1:0",
        "yellow builds m03 1:0",
        "blue builds m10 1:0",
        "red builds m05 1:1",
        "yellow gives ava1 red 1:2",
        "blue draws m12",
        ("blue discards m11 from hand", "illegal", "alt.discard.hand",
         "a hand card thrown away while the drawn 12 is in view"),
        "blue builds m12 1:1",
        ("red builds m04 2:0", "illegal", "alt.value.higher", "a 4 on the 8 and the 5"),
        "red builds m09 2:0",  # the rule text's example: 9 on 8 and 5
        "yellow builds tel1 1:1",
        ("blue builds ava2 1:2", "illegal", "alt.avalanche.own",
         "an avalanche in one's own mountain"),
        "blue gives ava2 yellow 2:0",
        ("red rescues 1:2 with stb1", "ask", None,
         "the avalanche lies on the Saint-Bernard: which one is not seen"),
        ("yellow replaces 1:0 with m06", "illegal", "alt.replace.covered",
         "the 3 is under the avalanche"),
        "yellow builds m06 1:2",
        "blue replaces 1:1 with m14",
        # the deck is out: one pass, from red; each player's cards seen at once are one move
        "red lays m02 1:2, tel2 2:1, m13 3:0; shows 1 cards 1 saint-bernard",  # 13 on 9 and 0
        ("yellow discards m01", "illegal", "alt.discard.hand",
         "a card left in hand thrown away at the end"),
        "yellow lays m04 1:3, m01 1:4, m07 2:1, tel3 3:0",
        ("blue gives marmotte yellow 1:5", "illegal", "alt.hand.own",
         "a hand card laid in another mountain"),
        "blue lays chamois 1:-1, marmotte 1:2, m11 1:3, aigle 2:2",
    ])


def solo_script() -> Script:
    return _build("Solitaire: five étages, 9 points", ("red",), [
        "red builds m03 1:0",
        "red builds tel1 1:-1",
        "red builds m02 1:-1",
        "red builds m04 1:3",
        ("red builds ava1 1:4", "illegal", "alt.avalanche.own",
         "no opponent: an avalanche can only be thrown away"),
        "red discards ava1",
        "red builds m06 2:0",
        ("red builds m01 2:1", "illegal", "alt.value.higher", "a 1 on the téléphérique and the 3"),
        "red builds m01 1:-1",
        "red builds m05 2:0",
        "red builds m07 2:2",
        "red builds m08 2:3",
        "red draws tel2",
        "red discards tel2",
        "red builds m09 3:0",
        ("red builds m10 4:0", "illegal", "alt.structure.two", "a card across one card only"),
        "red builds m10 3:1",
        "red replaces 2:3 with marmotte",
        "red builds chamois 3:2",
        ("red replaces 2:3 with m13", "illegal", "alt.replace.covered",
         "the marmot now carries the chamois"),
        "red discards tel3",
        "red builds m11 4:0",
        "red builds m12 4:1",
        "red discards ava2",
        "red builds aigle 5:0",
        "red lays m14 1:-1, m13 1:5; shows 2 cards 2 saint-bernard",
    ])


#: every script, by name
SCRIPTS = {"demo": demo_script, "solo": solo_script}
