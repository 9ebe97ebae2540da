"""La Ville des Nains: the dwarves build their city stone by stone while the kobold builds its
blue tower (rule text ``ville-des-nains.fr.txt``, rulings in ``docs/rulings.md``).

Both games are played: game 1, where the kobold is the blue faces of the colour dice, and game 2,
where one player (seat ``blue``) is the kobold and rolls only the kobold die; and both card
sides: ``stone`` (each card's shapes laid bottom to top in order) and ``beach`` (free towers of
seven). Players: 2 to 6 dwarves at the seats ``green``, ``white``, ``pink``, ``cyan``, ``brown``,
``grey`` (in play order, youngest first), plus ``blue`` in game 2.

Modules: ``components`` (pieces and the shipped ``cards.json``), ``options``, ``state``,
``moves`` (notation, JSON), ``rules`` (every RuleRef), ``placing`` (what the dice give),
``resolve`` (judging and applying in one pass), ``movegen``, ``camera``, ``views``, ``judge``,
``game`` (the contract), ``scripts`` (scripted whole games).

``board_view(state)`` is JSON of this shape::

    {"kind": "ville-des-nains", "game": 1 | 2, "side": "stone" | "beach",
     "stage": "roll" | "build" | "kobold" | "over", "turn": <seat>,
     "tray": {"colour": [faces], "kobold": face | null, "unused": [faces not yet used]},
     "pool": {<colour>: {<shape>: count}},            # stones left on the table
     "kobold": {"height": n, "max": 12, "marked": n, "player": <seat> | null},
     "talon": n,                                       # cards left to take
     "players": [{"seat": s, "role": "dwarf" | "kobold",
                  "buildings": [{"index": b, "card": id | null, "name": {"fr", "en"},
                                 "plan": [shapes bottom to top] | null (beach),
                                 "need": n, "stones": [{"colour", "shape"}, ...],
                                 "finished": bool}]}],
     "winner": "dwarves" | "kobold" | null}
"""

from companion.games.ville_des_nains.game import VilleDesNains

__all__ = ["VilleDesNains"]
