"""What the camera sees of La Ville des Nains, and which moves explain what it saw.

The reading (``docs/observation/ville-des-nains.md``): the dice in the tray (zone ``tray``), the
stones left on the table (zone ``pool``), each dwarf's buildings stone by stone (zone
``player:<seat>``, ``building`` index and ``level``), and the kobold's blue tower (zone
``kobold``, one stone per level). Cards are not read: a card taken is asked when it matters.

:func:`candidates` does not try every move. It reads what changed against the tracked state (the
dice faces, the new stones on top of each building, the buildings emptied, the tower's height)
and builds the few moves that produce exactly that change, with the hidden facts spelled out (a
drawn stone marked or not, the card taken).

A candidate's cost is the matching cost (``companion.games.matching``): how well its state
explains the picture, comparable with the cost of "nothing happened". Readings that leave the
table looking exactly the same are weighed by what they assume beyond the picture, on the same
minus-log-odds scale (:func:`prior`): a repeat roll the tray cannot show (minus the log of its
odds) and :data:`ILLEGAL` for a broken rule. Only the likeliest are offered, with any within the
clear margin of it (so the referee asks); an illegal reading only when it is likelier than every
legal one (the camera gives no evidence of an illegal act, so the referee accuses no one of it
without need), and then only the likeliest illegal one: the player on turn or next, fewest rules
broken. Legal readings that differ by a hidden fact (a card, a marked stone) tie, so the referee
asks. Candidates of equal cost come likeliest first.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import Any, Hashable

from companion.games.base import Candidate, MalformedMove
from companion.games.matching import CLEAR_MARGIN, MISS, MISS_HIDDEN, mismatch_cost, surprise
from companion.games.ville_des_nains.components import (
    BLUE, COLOUR_DICE, COLOUR_FACES, COLOURS, SHAPES, STONE_KINDS, sort_faces,
)
from companion.games.ville_des_nains.judge import verdict_of
from companion.games.ville_des_nains.movegen import can_continue, with_cards
from companion.games.ville_des_nains.moves import (
    Build, Draw, KoboldPlay, Move, Roll, Take, Target, notation,
)
from companion.games.ville_des_nains.resolve import Result, resolve
from companion.games.ville_des_nains.state import BUILD, KOBOLD, OVER, VdnState
from companion.observation import Observation, Piece

GAME = "ville-des-nains"
TRAY = "tray"
POOL = "pool"
KOBOLD_ZONE = "kobold"
PLAYER = "player:"
#: the prior of reading a move as illegal: a rule broken is about as unlikely as a piece the
#: camera missed (players break a rule now and then, not often)
ILLEGAL = MISS


# --------------------------------------------------------------------------------------------
# Ideal readings and matching keys


def expected_pieces(state: VdnState) -> list[Piece]:
    pieces = [Piece(kind="die", zone=TRAY, attrs={"die": "colour", "face": f})
              for f in state.colour_dice]
    if state.kobold_face is not None:
        pieces.append(Piece(kind="die", zone=TRAY, attrs={"die": "kobold",
                                                          "face": state.kobold_face}))
    for (colour, shape), n in zip(STONE_KINDS, state.pool):
        pieces += [Piece(kind="stone", zone=POOL, attrs={"colour": colour, "shape": shape})] * n
    for seat, row in zip(state.players, state.buildings):
        for b, building in enumerate(row):
            for level, (colour, shape) in enumerate(building.stones):
                pieces.append(Piece(kind="stone", zone=PLAYER + seat, level=level,
                                    attrs={"building": b, "colour": colour, "shape": shape}))
    pieces += [Piece(kind="stone", zone=KOBOLD_ZONE, level=level, attrs={"colour": BLUE})
               for level in range(state.tower)]
    return pieces


def expected_observation(state: VdnState) -> Observation:
    return Observation(game=GAME, pieces=tuple(expected_pieces(state)))


def piece_key(p: Piece) -> Hashable:
    zone = p.zone or ""
    if p.kind == "die" and zone == TRAY:
        return ("die", str(p.get("die")), str(p.get("face")))
    if p.kind == "stone":
        if zone == POOL:
            return ("pool", p.get("colour"), p.get("shape"))
        if zone == KOBOLD_ZONE:
            return ("kobold", p.level)
        if zone.startswith(PLAYER):
            return ("stone", zone[len(PLAYER):], p.get("building"), p.level, p.get("colour"),
                    p.get("shape"))
    return ("other", p.kind, zone)


def expected_keys(state: VdnState) -> list[tuple[Hashable, float]]:
    """Pool stones lie in a heap and may hide each other: a missing one costs little. Dice,
    built stones and the kobold's tower stand apart and are always visible."""
    return [(piece_key(p), MISS_HIDDEN if p.zone == POOL else MISS)
            for p in expected_pieces(state)]


def signature(state: VdnState) -> frozenset[tuple[Hashable, int]]:
    """What an ideal camera would see of ``state``, as a comparable value."""
    return frozenset(Counter(piece_key(p) for p in expected_pieces(state)).items())


#: a built stone the reader reports with less confidence than this at a level is one it
#: barely saw there: the stone the state has at that level, read otherwise, is weighed as a
#: hidden piece (:data:`MISS_HIDDEN`), up to :data:`MISS` at this confidence
SEEN_CONF = 0.4


def hidden_weight(conf: float) -> float:
    """The miss weight of a built stone when the reader reports another stone at its level
    with confidence ``conf``: a stone under a long block or straight below the camera shows a
    sliver or nothing, and the reader says so with a low confidence; a stone it saw clearly
    and read otherwise is missing (:data:`MISS`)."""
    return MISS_HIDDEN + (MISS - MISS_HIDDEN) * min(max(conf / SEEN_CONF, 0.0), 1.0)


def explain(state: VdnState, observation: Observation) -> float:
    """The matching cost (``companion.games.matching``), with the built stones matched building
    by building and level by level: a stone the state has where the reader reports another one
    costs what that reading says of the place (:func:`hidden_weight`) and the reading's own
    surprise, not a stone missing and a stone unexplained, or only its shape's surprise when
    the reading has its colour (:func:`_misread_cost`); a stone read where the state has
    none is as surprising as the surest stone read on it (:func:`_building_cost`); and a
    building whose reading may hold a stone that is not there (:func:`_vanished`) costs the
    cheaper of the two readings."""
    expected = expected_keys(state)
    observed = [(piece_key(p), p.conf) for p in observation.pieces]
    cost = mismatch_cost([e for e in expected if e[0][0] != "stone"],
                         [o for o in observed if o[0][0] != "stone"])
    want: dict[Hashable, Counter] = {}
    for key, _ in expected:
        if key[0] == "stone":
            want.setdefault(key[1:3], Counter())[key] += 1
    read: dict[Hashable, list[tuple[Hashable, float, float | None]]] = {}
    for p in observation.pieces:
        key = piece_key(p)
        if key[0] == "stone":
            read.setdefault(key[1:3], []).append((key, p.conf, _shape_conf(p)))
    for where in set(want) | set(read):
        stones = read.get(where, [])
        best = _building_cost(want.get(where, Counter()), stones)
        shifted = _vanished(stones)
        if shifted is not None:
            best = min(best, shifted[1] + _building_cost(want.get(where, Counter()), shifted[0]))
        cost += best
    return cost


def _shape_conf(p: Piece) -> float | None:
    """How sure the reader is of a built stone's shape (attribute ``shape_conf``), apart from
    its colour (``conf``); None when the reader does not say."""
    value = p.get("shape_conf")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(min(max(value, 0.0), 1.0))


def _misread_cost(key: Hashable, read: tuple) -> float:
    """What a built stone (matching key ``key``) costs when the reader reports another stone
    ``read`` (key, confidence, shape confidence) at its level: the stone barely seen there
    (:func:`hidden_weight`) and the reading unexplained (its surprise); or, when the reading
    has the stone's colour and only its shape differs, the surprise of the shape alone, as
    sure as the reader says it is of it (``shape_conf``: a cube and a cylinder under a long
    block show only a sliver of their sides, alike)."""
    other, conf = read[0], read[1]
    cost = hidden_weight(conf) + surprise(conf)
    shape_conf = read[2] if len(read) > 2 else None
    if shape_conf is not None and other[4] == key[4] and other[5] != key[5]:
        cost = min(cost, surprise(shape_conf))
    return cost


def _building_cost(want: Counter, observed: list[tuple]) -> float:
    """:func:`explain`'s cost for one building: ``want`` its stones in the state (matching
    keys), ``observed`` the stones read on its slot (key, confidence and, where the reader
    says it, the shape's confidence). A stone read at a level
    where the state has none is weighed by the surest stone read at its level or above it: a
    stone holds up the ones read on it, so a stack read on a bare slot is as surprising as its
    surest stone, whatever the colour of the lower ones (a stone under a long block shows a
    sliver of its near face and is read with little confidence, the long block on it with
    much); and a stack read on a slot the state has bare costs at least :data:`MISS`."""
    bare = not any(want.values())
    want = Counter(want)
    above: dict[int, float] = {}
    for read in observed:
        for level in range(int(read[0][3] or 0) + 1):
            above[level] = max(above.get(level, 0.0), read[1])
    cost = 0.0
    left: list[tuple] = []
    for read in sorted(observed, key=lambda r: -r[1]):
        if want[read[0]] > 0:
            want[read[0]] -= 1
        else:
            left.append(read)
    at: dict[Hashable, list[tuple]] = {}
    for read in left:
        at.setdefault(read[0][3], []).append(read)  # the level
    for key, n in want.items():
        for _ in range(n):
            there = at.get(key[3])
            if there:
                cost += _misread_cost(key, there.pop(0))
            else:
                cost += MISS
    cost += sum(surprise(above.get(level, r[1])) for level, reads in at.items() for r in reads)
    if observed and bare:
        # a stack read on a slot the state has bare: the reader found a stone's foot there,
        # as surprising as a built stone it did not report
        cost = max(cost, MISS)
    return cost


#: a built stone read with less confidence than this, a long block read on it, may be no stone
#: at all: a long block lying towards the camera on another one shows, from the camera, as that
#: long block a level higher and a little nearer, over a stone its overhang hides (the two
#: pictures differ by a pixel; the stone's place and the rules tell them apart)
VANISH = 0.15


def _vanished(observed: list[tuple]) -> tuple[list[tuple], float, int] | None:
    """One building's reading with its lowest stone that may not be there (:data:`VANISH`)
    taken out and the stones above it one level lower, what assuming so costs (a stone that
    may hide under the overhang: :data:`MISS_HIDDEN`, and the reading's surprise) and the level
    taken out; None when no stone of the reading may be left out."""
    if any(r[0][3] is None for r in observed):
        return None
    levels = {int(r[0][3]): r for r in observed}
    for level in sorted(levels):
        key, conf = levels[level][:2]
        up = levels.get(level + 1)
        if conf < VANISH and up is not None and up[0][5] == "long":
            out = [r for r in observed if int(r[0][3]) < level]
            out += [(r[0][:3] + (int(r[0][3]) - 1,) + r[0][4:],) + tuple(r[1:])
                    for r in observed if int(r[0][3]) > level]
            return out, MISS_HIDDEN + surprise(conf), level
    return None


#: at most this many buildings are tried with and without the stone :func:`_vanished` takes out
#: (every combination of them: 2 ** this many readings)
VANISH_BUILDINGS = 3


def vanished_observations(state: VdnState, observation: Observation) -> list[Observation]:
    """The observation with the stone :func:`_vanished` takes out taken out (and those above
    it one level lower) on some of the buildings that allow it, each combination once: on one
    building the stone barely seen may be the overhang, on another a stone the camera barely
    sees (a long block lying towards the camera under a cylinder, read at 0.06 over a cylinder
    read at 0.09: taking that one out would build the block on the level where the state has
    the cylinder). Only buildings read taller than the state has them are tried: elsewhere
    no stone is read as new either way."""
    by: dict[tuple[Any, Any], list[Piece]] = {}
    for p in observation.pieces:
        if p.kind == "stone" and (p.zone or "").startswith(PLAYER) and p.level is not None:
            by.setdefault((p.zone, p.get("building")), []).append(p)
    drops: list[tuple[tuple[Any, Any], int]] = []
    for where, stones in by.items():
        seat, b = str(where[0])[len(PLAYER):], where[1]
        if seat not in state.players or not isinstance(b, int) or isinstance(b, bool) or b < 0:
            continue
        row = state.buildings[state.players.index(seat)]
        has = len(row[b].stones) if b < len(row) else 0
        if max(int(p.level) for p in stones) + 1 <= has:
            continue
        shifted = _vanished([(piece_key(p), p.conf, _shape_conf(p)) for p in stones])
        if shifted is not None:
            drops.append((where, shifted[2]))
    drops = sorted(drops, key=lambda d: str(d))[:VANISH_BUILDINGS]
    out = []
    for mask in range(1, 2 ** len(drops)):
        drop = {where: level for k, (where, level) in enumerate(drops) if mask >> k & 1}
        pieces = []
        for p in observation.pieces:
            where = (p.zone, p.get("building"))
            if where in drop and p.level is not None:
                if p.level == drop[where]:
                    continue
                if p.level > drop[where]:
                    p = replace(p, level=p.level - 1)
            pieces.append(p)
        out.append(replace(observation, pieces=tuple(pieces)))
    return out


# --------------------------------------------------------------------------------------------
# What changed


class _Change:
    """The differences between the tracked state and an observation."""

    def __init__(self, state: VdnState, obs: Observation):
        colour = sorted((p for p in obs.pieces if p.kind == "die" and p.zone == TRAY
                         and p.get("die") == "colour" and p.get("face") in COLOUR_FACES),
                        key=lambda p: -p.conf)[:COLOUR_DICE]
        faces = sort_faces(tuple(str(p.get("face")) for p in colour))
        self.colour = faces if len(faces) == COLOUR_DICE else None
        kob = sorted((p for p in obs.pieces if p.kind == "die" and p.zone == TRAY
                      and p.get("die") == "kobold"), key=lambda p: -p.conf)
        self.kobold = str(kob[0].get("face")) if kob else None
        self.colour_changed = self.colour is not None and self.colour != state.colour_dice
        self.kobold_changed = (state.options.game == 2 and self.kobold is not None
                               and self.kobold != state.kobold_face)
        stacks: dict[tuple[str, int], dict[int, tuple[Any, Any, float]]] = {}
        tower = 0
        for p in obs.pieces:
            if p.kind != "stone" or p.level is None:
                continue
            zone = p.zone or ""
            if zone == KOBOLD_ZONE:
                tower = max(tower, p.level + 1)
            elif zone.startswith(PLAYER):
                b = p.get("building")
                if not isinstance(b, int) or isinstance(b, bool) or b < 0:
                    continue
                levels = stacks.setdefault((zone[len(PLAYER):], b), {})
                old = levels.get(p.level)
                if old is None or p.conf > old[2]:
                    levels[p.level] = (p.get("colour"), p.get("shape"), p.conf)
        self.tower_delta = tower - state.tower
        self.takes: list[Take] = []
        #: the new stones read, each with the reader's confidence (for :meth:`take_options`)
        self.new: list[tuple[Take, float, bool]] = []  # (stone, confidence, top of its building)
        self.destroyed: list[Target] = []
        keys = set(stacks)
        for i, seat in enumerate(state.players):
            keys |= {(seat, b) for b in range(len(state.buildings[i]))}
        for seat, b in sorted(keys):
            if seat not in state.players:
                continue
            row = state.buildings[state.players.index(seat)]
            current = row[b].stones if b < len(row) else ()
            levels = stacks.get((seat, b), {})
            height = max(levels) + 1 if levels else 0
            if height > len(current):
                new = [levels.get(level) for level in range(len(current), height)]
                if any(n is None or n[0] not in COLOURS or n[1] not in SHAPES for n in new):
                    continue  # a gap or an unreadable stone: no move builds that
                self.takes += [Take(seat, b, str(n[0]), str(n[1])) for n in new if n]
                self.new += [(Take(seat, b, str(n[0]), str(n[1])), float(n[2]), k == len(new) - 1)
                             for k, n in enumerate(new) if n]
            elif height == 0 and current:
                self.destroyed.append(Target(seat, b))

    def take_options(self, state: VdnState) -> list[tuple[Take, ...]]:
        """The stones taken as read, then the readings that differ from it by one or two of
        the stones the reader barely saw (confidence under :data:`UNSURE`, at most
        :data:`ALTERED` of them: a stone under a long block shows a sliver of its near face,
        and a roof read unsure on top of another building may be that building's flat top):
        such a stone of another kind still in the pool, or an unsure roof on top no stone. The
        camera cannot tell these apart; the rules and the matching cost decide, and the
        referee asks when they cannot. (The stone's level is another matter: the height of
        the stone on top shows by parallax, so a stone is never assumed away.)"""
        read = tuple(self.takes)
        others: list[tuple[int, list[Take | None]]] = []
        for k, (take, conf, top) in enumerate(self.new):
            if conf >= UNSURE:
                continue
            alts: list[Take | None] = []
            for colour, shape in STONE_KINDS:
                if (colour, shape) == take.stone or not state.in_pool((colour, shape)):
                    continue
                if shape == "roof" and not top:
                    continue
                alts.append(Take(take.seat, take.building, colour, shape))
            if top and take.shape == "roof":
                # a roof read unsure on top may be no stone: a flat top a level lower, the
                # same colour, shows as a roof's far slope (the demo's orange cube on a
                # violet one, read with an orange roof at 0.42 over it)
                alts.append(None)
            others.append((k, alts))

        def altered(changes: dict[int, Take | None]) -> tuple[Take, ...]:
            return tuple(t for k, t in ((k, changes.get(k, read[k])) for k in range(len(read)))
                         if t is not None)

        out = [read]
        for i, (k, alts) in enumerate(others):
            out += [altered({k: alt}) for alt in alts]
        if ALTERED >= 2:
            for i, (k, alts) in enumerate(others):
                for k2, alts2 in others[i + 1:]:
                    out += [altered({k: a1, k2: a2}) for a1 in alts for a2 in alts2]
        return list(dict.fromkeys(out))

    @property
    def anything(self) -> bool:
        return bool(self.colour_changed or self.kobold_changed or self.takes or self.destroyed
                    or self.tower_delta)


def _draw_variants(state: VdnState, d: int, destroyed: list[Target]) -> list[tuple[Draw, ...]]:
    """The blue stones drawn: ``d`` of them, the ``destroyed`` buildings each destroyed by one
    marked stone, the rest marked (nothing to destroy) or plain: one variant per count of
    marked stones the box still allows, since the camera cannot see the symbol."""
    if d < 0 or d < len(destroyed):
        return []
    if d == 0:
        return [()]
    if state.options.game == 2:
        return [] if destroyed else [(Draw(False),) * d]
    k = len(destroyed)
    marked_left, plain_left = state.marked_left_in_box(), state.plain_left_in_box()
    out = []
    for extra in range(d - k + 1):
        plain = d - k - extra
        if k + extra <= marked_left and plain <= plain_left:
            out.append(tuple(Draw(True, t) for t in destroyed) + (Draw(True),) * extra
                       + (Draw(False),) * plain)
    if not out and k > marked_left and d - marked_left <= plain_left:
        # more destructions than marked stones left: some were done with plain stones
        out.append(tuple(Draw(True, t) for t in destroyed[:marked_left])
                   + tuple(Draw(False, t) for t in destroyed[marked_left:])
                   + (Draw(False),) * (d - k))
    return out


#: a new stone read with less confidence than this may be another (:meth:`_Change.take_options`)
UNSURE = 0.5
#: at most this many of the new stones read unsure are read otherwise at once
#: (:meth:`_Change.take_options`): a builder's move of three stones, one under a long block
#: read as a cylinder at 0.09 and a roof read at 0.2 on another building's flat top, is read
#: right only with both changed
ALTERED = 2


#: the most new stones one move is read as: one a colour die (:data:`COLOUR_DICE`), and one
#: too many, which the rules flag. A picture with more new stones than that is no single
#: move (the camera misread several buildings, or the tracked game went wrong earlier): it
#: gives no candidate, so the referee says nothing explains the table at once, instead of
#: trying every card for every new building of every reading (after a game went wrong, 13 new
#: stones on 7 buildings made 468 readings, each tried with up to 12 ** 4 cards: minutes)
MAX_TAKES = COLOUR_DICE + 1


def _hypotheses(state: VdnState, ch: _Change, *, first_of_two: bool = False) -> list[Move]:
    moves: list[Move] = []
    read = ch.takes
    if len(read) > MAX_TAKES:
        return []
    find = _first_of_two if first_of_two else _hypotheses_for
    try:
        for takes in ch.take_options(state):
            ch.takes = list(takes)
            moves += find(state, ch)
    finally:
        ch.takes = read
    return list(dict.fromkeys(moves))


def _first_of_two(state: VdnState, ch: _Change) -> list[Move]:
    """When the dice changed and the table stirred, the move of the player on turn made with
    the dice they had, the next player having rolled since: the first of two moves between
    still moments (a build, or the kobold's play, then the next roll). Alone it leaves the new
    dice unexplained (each die a confident reading: it never comes near the best on its own);
    the referee tries it with a move after it (:func:`companion.referee.decide.decide`), where
    the only single reading is often one the rules forbid (the builder rolling again, or
    building with another's dice)."""
    if not (ch.colour_changed or ch.kobold_changed):
        return []
    seat = state.players[state.turn]
    if state.stage == BUILD and (ch.takes or ch.tower_delta > 0):
        return [Build(seat=seat, take=tuple(ch.takes), draws=draws)
                for draws in _draw_variants(state, ch.tower_delta, ch.destroyed)
                if ch.takes or draws]
    if state.stage == KOBOLD and ch.colour_changed and not ch.takes and ch.tower_delta >= 0 \
            and len(ch.destroyed) <= 1 and (ch.tower_delta or ch.destroyed):
        return [KoboldPlay(seat, add=ch.tower_delta,
                           destroy=ch.destroyed[0] if ch.destroyed else None)]
    return []


def _hypotheses_for(state: VdnState, ch: _Change) -> list[Move]:
    players = state.players
    nxt = state.next_index()
    owners = list(dict.fromkeys(t.seat for t in ch.takes))
    k = state.kobold_index()
    moves: list[Move] = []

    def builds(seat: str, roll: tuple[str, ...] | None) -> None:
        for draws in _draw_variants(state, ch.tower_delta, ch.destroyed):
            if ch.takes or draws:
                moves.append(Build(seat=seat, take=tuple(ch.takes), draws=draws, roll=roll))

    def kobold(roll: str | None) -> None:
        if k is None or ch.takes or ch.tower_delta < 0 or len(ch.destroyed) > 1:
            return
        destroy = ch.destroyed[0] if ch.destroyed else None
        if ch.tower_delta or destroy:
            moves.append(KoboldPlay(players[k], add=ch.tower_delta, destroy=destroy, roll=roll))

    stirred = bool(ch.takes or ch.destroyed or ch.tower_delta)
    if ch.colour_changed and not ch.kobold_changed:
        assert ch.colour is not None
        rollers = [players[nxt]] + owners + ([players[state.turn]] if state.stage != OVER else [])
        for seat in dict.fromkeys(rollers):
            if stirred:
                builds(seat, ch.colour)
            else:
                moves.append(Roll(seat, ch.colour))
    elif ch.kobold_changed and not ch.colour_changed and k is not None:
        assert ch.kobold is not None
        if stirred:
            kobold(ch.kobold)
        else:
            moves.append(Roll(players[k], (ch.kobold,)))
    elif not ch.colour_changed and not ch.kobold_changed and stirred:
        if state.stage == BUILD:
            builds(players[state.turn], None)
        if k is not None:
            kobold(None)  # the kobold in its stage, or out of turn (illegal)
        # the next player rolled the very faces already in the tray
        if state.is_dwarf(nxt) and state.colour_dice:
            builds(players[nxt], state.colour_dice)
        if not state.is_dwarf(nxt) and state.kobold_face is not None:
            kobold(state.kobold_face)
        # a player building with no dice of their own (before rolling, or out of turn)
        for seat in owners:
            if seat != players[state.turn] or state.stage != BUILD:
                builds(seat, None)
    return list(dict.fromkeys(moves))


def _results(state: VdnState, move: Move) -> list[tuple[Move, Result]]:
    if isinstance(move, Build):
        return list(with_cards(state, move))
    try:
        return [(move, resolve(state, move))]
    except MalformedMove:
        return []


def _complete(state: VdnState, move: Move, after: VdnState, legal: bool) -> bool:
    """A legal move is complete when its player can do nothing more in the same stage (every
    die used, no blue stone left to draw, the kobold's stones all added). An illegal one is
    complete at once: the table hears of it while the stone is still in hand."""
    if isinstance(move, Roll) or after.stage == OVER or not legal:
        return True
    mover = state.players.index(move.seat)
    return not (after.stage in (BUILD, KOBOLD) and after.turn == mover and can_continue(after))


def _repeat_odds(state: VdnState, move: Move) -> float | None:
    """The odds of the roll a reading assumes happened unseen (the very faces already in the
    tray), or None when it assumes no such roll."""
    if isinstance(move, Build) and move.roll is not None and move.roll == state.colour_dice:
        counts = Counter(move.roll)
        ways = math.factorial(COLOUR_DICE)
        for n in counts.values():
            ways //= math.factorial(n)
        return ways / len(COLOUR_FACES) ** COLOUR_DICE
    if isinstance(move, KoboldPlay) and move.roll is not None and move.roll == state.kobold_face:
        faces = state.options.die_faces()
        return faces.count(move.roll) / len(faces)
    return None


def unseen_cost(state: VdnState, move: Move) -> float:
    """What a reading assumes the camera did not see, on the matching scale (minus the log of
    its odds): a repeat roll showing the very faces already in the tray (3.6 for three distinct
    colour faces, 1.1 for a kobold die's 2 after a 2)."""
    odds = _repeat_odds(state, move)
    return 0.0 if odds is None else -math.log(odds)


def _acting(state: VdnState, move: Move) -> bool:
    """The reading's player is on turn or next (of two illegal readings, the likelier)."""
    return move.seat in (state.players[state.turn], state.players[state.next_index()])


def candidates(state: VdnState, observation: Observation) -> list[Candidate]:
    if state.stage == OVER:
        return []
    ch = read = _Change(state, observation)
    found: list[tuple[Move, Result]] = []
    if ch.anything:
        for move in _hypotheses(state, ch):
            found += _results(state, move)
    if not any(result.rule is None for _, result in found):
        # no legal move builds what was read: a stone barely seen under a long block may be
        # the long block's overhang (:func:`_vanished`); the rules and the picture tell (an
        # illegal move read so too: a finished building destroyed, read beside a long block
        # over a stone that is not there, is the illegal move, not that stone built as well)
        for shifted in vanished_observations(state, observation):
            ch = _Change(state, shifted)
            if ch.anything:
                for move in _hypotheses(state, ch):
                    found += _results(state, move)
    if read.anything:
        # the first of two moves, for the referee to try with a move after it
        found += [r for move in _hypotheses(state, read, first_of_two=True)
                  for r in _results(state, move)]
    if not found:
        return []
    by_look: dict[frozenset, list[tuple[Move, Result]]] = {}
    for move, result in found:
        by_look.setdefault(signature(result.state), []).append((move, result))
    ranked: list[tuple[float, Candidate]] = []
    seen: set[Move] = set()
    for group in by_look.values():
        for move, result, odds in _likeliest(state, group):
            if move in seen:
                continue
            seen.add(move)
            ranked.append((odds, Candidate(
                move=move, state=result.state, verdict=verdict_of(state, move, result),
                cost=explain(result.state, observation),
                complete=_complete(state, move, result.state, result.rule is None),
                prior=odds)))
    ranked.sort(key=lambda rc: (round(rc[1].cost, 9), rc[0], not rc[1].verdict.legal,
                                notation(rc[1].move)))
    return [c for _, c in ranked]


def prior(state: VdnState, move: Move, result: Result) -> float:
    """How unlikely a reading is beyond what the picture shows (minus log odds): an unseen
    repeat roll, and :data:`ILLEGAL` for a broken rule."""
    return unseen_cost(state, move) + (ILLEGAL if result.rule is not None else 0.0)


def _likeliest(state: VdnState, group: list[tuple[Move, Result]]
               ) -> list[tuple[Move, Result, float]]:
    """Of readings that leave the table looking the same, those worth offering: the likeliest,
    and any within :data:`CLEAR_MARGIN` of it (the referee asks between them); an illegal one
    only when it is likelier than every legal one, and then only the likeliest illegal one."""
    scored = [(m, r, prior(state, m, r)) for m, r in group]
    best = min(p for _, _, p in scored)
    best_legal = min((p for _, r, p in scored if r.rule is None), default=math.inf)
    keep = [(m, r, p) for m, r, p in scored
            if p < best + CLEAR_MARGIN and (r.rule is None or p < best_legal)]
    illegal = [t for t in keep if t[1].rule is not None]
    if illegal:
        def rank(t: tuple[Move, Result, float]) -> tuple[float, bool, int]:
            return (t[2], not _acting(state, t[0]), len(t[1].broken))
        least = min(rank(t) for t in illegal)
        keep = [t for t in keep if t[1].rule is None or rank(t) == least]
    return keep
