"""What a move does and which rule, if any, it breaks: one pass that both judges and applies.

``check`` and ``apply`` share this code so they can never disagree. The move's parts are played
in their physical order (the roll, the stones taken, the blue stones drawn, the cards left to
take); the first rule broken is the one cited (the most basic thing to fix), and the move is
still carried out, since a table may let an illegal move stand.

:class:`MalformedMove` is raised only for what cannot happen on a real table: a stone that is not
in the pool, a fourth marked stone, a building with no card under it, a move after the end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import MalformedMove, RuleRef
from companion.games.ville_des_nains import rules
from companion.games.ville_des_nains.components import (
    BLUE, BLUE_STONES, COLOUR_DICE, COLOUR_FACES, KOBOLD_FACE, STONE_INDEX, WHITE, face_value,
)
from companion.games.ville_des_nains.moves import (
    Build, CardTake, KoboldPlay, Move, Roll, Take, Target,
)
from companion.games.ville_des_nains.placing import roll_satisfiable
from companion.games.ville_des_nains.state import (
    BUILD, DWARVES, KOBOLD, KOBOLD_WINS, OVER, Building, VdnState,
)


class NeedCard(MalformedMove):
    """A stone went on a new building, or a building was finished, and the move names no card:
    the camera cannot see cards, so the referee asks which one (``seat`` took it)."""

    def __init__(self, seat: str, message: str):
        self.seat = seat
        super().__init__(message)


@dataclass(frozen=True)
class Result:
    state: VdnState
    rule: RuleRef | None
    notes: tuple[str, ...]
    #: seats that finished a building in this move and still owe the talon a card
    owed: tuple[str, ...] = ()
    #: every rule the move breaks, in the order met (``rule`` is the first)
    broken: tuple[RuleRef, ...] = ()


class _Run:
    """The move being played out on a working copy of the state."""

    def __init__(self, state: VdnState):
        self.s = state
        self.rule: RuleRef | None = None
        self.broken: list[RuleRef] = []
        self.notes: list[str] = []

    def flag(self, rule: RuleRef) -> None:
        self.broken.append(rule)
        if self.rule is None:
            self.rule = rule

    def note(self, text: str) -> None:
        self.notes.append(text)

    # -- small helpers ------------------------------------------------------------------------

    def seat(self, seat: str) -> int:
        if seat not in self.s.players:
            raise MalformedMove(f"{seat} is not playing (players: {', '.join(self.s.players)})")
        return self.s.players.index(seat)

    def dwarf(self, seat: str, what: str) -> int:
        i = self.seat(seat)
        if not self.s.is_dwarf(i):
            raise MalformedMove(f"the kobold player has no buildings ({what})")
        return i

    def set_building(self, i: int, b: int, building: Building) -> None:
        row = list(self.s.buildings[i])
        if b == len(row):
            row.append(building)
        else:
            row[b] = building
        all_rows = list(self.s.buildings)
        all_rows[i] = tuple(row)
        self.s = replace(self.s, buildings=tuple(all_rows))

    def pool_add(self, stone: tuple[str, str], n: int) -> None:
        pool = list(self.s.pool)
        pool[STONE_INDEX[stone]] += n
        self.s = replace(self.s, pool=tuple(pool))

    def win(self, who: str) -> None:
        if self.s.winner is None:
            self.s = replace(self.s, winner=who, stage=OVER)
            self.note("the city is finished: the dwarves win together" if who == DWARVES
                      else "the kobold's tower has 12 stones: the kobold wins")

    # -- the roll -----------------------------------------------------------------------------

    def roll(self, seat: str, faces: tuple[str, ...]) -> None:
        s = self.s
        i = self.seat(seat)
        kobold_die = s.options.die_faces()
        if len(faces) == 1 and faces[0] in kobold_die:
            if s.options.game == 1:
                raise MalformedMove("game 1 is played without the kobold die; a dwarf rolls the "
                                    "three colour dice")
            is_kobold_roll = True
        elif len(faces) == COLOUR_DICE and all(f in COLOUR_FACES for f in faces):
            is_kobold_roll = False
        else:
            raise MalformedMove(f"a roll is the {COLOUR_DICE} colour dice or the kobold die "
                                f"({', '.join(sorted(set(kobold_die)))}), not {', '.join(faces)}")
        if s.stage == BUILD and s.blue_left > 0:
            self.flag(rules.BLUE_DRAW)
        if i != s.next_index():
            self.flag(rules.TURN_ORDER)
        if s.is_dwarf(i) and is_kobold_roll:
            self.flag(rules.GAME2_KOBOLD_DIE)
        if not s.is_dwarf(i) and not is_kobold_roll:
            self.flag(rules.GAME2_DICE)
        base: dict[str, Any] = dict(
            turn=i, rolls=s.rolls + 1, round=s.round + (1 if i == 0 else 0), dice_left=(),
            blue_left=0, kobold_left=0, destroy_left=False, blocked=False)
        if is_kobold_roll:
            face = faces[0]
            mine = not s.is_dwarf(i)
            base.update(kobold_face=face, stage=KOBOLD if mine else BUILD,
                        kobold_left=min(face_value(face), s.blue_left_in_box()) if mine else 0,
                        destroy_left=mine and face == KOBOLD_FACE)
            self.s = replace(s, **base)
            return
        mine = s.is_dwarf(i)
        left = tuple(f for f in faces if f != BLUE) if mine else ()
        blue = sum(1 for f in faces if f == BLUE) if mine and s.options.game == 1 else 0
        base.update(colour_dice=faces, stage=BUILD, dice_left=left, blue_left=blue)
        self.s = replace(s, **base)
        if blue:
            self.note(f"{blue} blue face(s): draw {blue} kobold stone(s)")
        if s.options.game == 2 and BLUE in faces:
            self.note("blue face: nothing for the dwarves in game 2")
        if mine and s.options.all_or_nothing and not s.options.beach and left:
            if not roll_satisfiable(self.s, i):
                self.s = replace(self.s, blocked=True)
                self.note("a die's colour gives no stone you need: nothing to take this turn")

    # -- cards --------------------------------------------------------------------------------

    def take_card(self, take: CardTake) -> None:
        s = self.s
        i = self.dwarf(take.seat, "a card")
        if not s.talon:
            raise MalformedMove("no card is left in the talon")
        if s.options.beach:
            if take.card is not None:
                raise MalformedMove("on the beach side every card is the same free tower: "
                                    "write 'card beach', not a number")
            card = s.talon[0]
        else:
            if take.card is None:
                raise MalformedMove("on the stone side say which card was taken (its number)")
            if take.card not in s.talon:
                raise MalformedMove(f"card {take.card} is not in the talon (talon: "
                                    f"{', '.join(map(str, s.talon))})")
            card = take.card
        if not s.owed_card(i):
            self.flag(rules.CARDS_EARLY)
        self.s = replace(s, talon=tuple(c for c in s.talon if c != card))
        self.set_building(i, len(s.buildings[i]), Building(card))
        self.note(f"{take.seat} takes a new card" + ("" if s.options.beach else f" ({card})"))

    # -- stones -------------------------------------------------------------------------------

    def build(self, move: Build) -> tuple[str, ...]:
        if move.roll is not None:
            self.roll(move.seat, move.roll)
        if not (move.take or move.draws or move.cards):
            raise MalformedMove("a roll alone is a roll move" if move.roll is not None
                                else "nothing was taken, drawn or built")
        s = self.s
        me = self.seat(move.seat)
        has_dice = s.stage == BUILD and s.turn == me
        queues: dict[str, list[CardTake]] = {}
        for c in move.cards:
            queues.setdefault(c.seat, []).append(c)
        finishers: list[int] = []
        for t in move.take:
            self.stone(me, has_dice, t, queues, finishers)
        for d in move.draws:
            self.draw(me, has_dice, d.marked, d.destroy)
        for seat in sorted(queues):
            for c in queues[seat]:
                self.take_card(c)
        owed = tuple(self.s.players[i] for i in dict.fromkeys(finishers)
                     if self.s.owed_card(i) and self.s.talon and self.s.winner is None)
        if owed:
            self.flag(rules.CARDS_NEW_BEACH if self.s.options.beach else rules.CARDS_NEW)
        return owed

    def stone(self, me: int, has_dice: bool, t: Take,
              queues: dict[str, list[CardTake]], finishers: list[int]) -> None:
        i = self.dwarf(t.seat, "a stone built")
        row = self.s.buildings[i]
        if t.building > len(row):
            raise MalformedMove(f"{t.seat} has no building {t.building}: the next new one is "
                                f"{len(row)}")
        if t.building == len(row):
            pending = queues.get(t.seat)
            if not pending:
                raise NeedCard(t.seat, f"{t.seat}'s building {t.building} is new: say which card "
                                       f"was taken for it")
            self.take_card(pending.pop(0))
        s = self.s
        if s.in_pool(t.stone) <= 0:
            raise MalformedMove(f"no {t.colour} {t.shape} is left on the table")
        used_white = False
        if s.blocked and has_dice:
            self.flag(rules.DICE_ALL_OR_NOTHING)
        if not has_dice:
            self.flag(rules.DICE_NONE)
        elif t.colour in s.dice_left:
            self.use_die(t.colour)
        elif WHITE in s.dice_left:
            self.use_die(WHITE)
            used_white = True
        elif t.colour in s.colour_dice or WHITE in s.colour_dice:
            self.flag(rules.DICE_ONE_PER_DIE)
        else:
            self.flag(rules.DICE_COLOUR)
        s = self.s
        if i != me and s.has_work(me):
            self.flag(rules.GIVE)
        building = s.buildings[i][t.building]
        if s.finished(building):
            self.flag(rules.BEACH_FULL if s.options.beach else rules.BUILD_FINISHED)
        else:
            need = s.next_shape(building)
            if need is not None and need != t.shape:
                self.flag(rules.WHITE_SHAPE if used_white else rules.STONE_ORDER)
        self.pool_add(t.stone, -1)
        grown = Building(building.card, building.stones + (t.stone,))
        was_finished = s.finished(building)
        self.set_building(i, t.building, grown)
        if not was_finished and self.s.finished(grown):
            finishers.append(i)
            self.note(f"{t.seat}'s building {t.building} is finished")
        if self.s.city_finished():
            self.win(DWARVES)

    def use_die(self, face: str) -> None:
        left = list(self.s.dice_left)
        left.remove(face)
        self.s = replace(self.s, dice_left=tuple(left))

    # -- blue stones --------------------------------------------------------------------------

    def draw(self, me: int, has_dice: bool, marked: bool, target: Target | None) -> None:
        s = self.s
        if s.tower >= BLUE_STONES:
            raise MalformedMove("all 12 blue stones are already on the kobold's tower")
        if s.options.game == 2:
            if marked or target is not None:
                raise MalformedMove("in game 2 the kobold symbol means nothing and a dwarf's blue "
                                    "stone destroys nothing: write 'draw plain'")
            self.flag(rules.GAME2_BLUE)
            self.add_blue(1, marked=False)
            return
        if marked and s.marked_left_in_box() <= 0:
            raise MalformedMove("the 3 marked stones are already on the kobold's tower")
        if not marked and s.plain_left_in_box() <= 0:
            raise MalformedMove("only marked stones are left: this one carries the kobold symbol")
        if not has_dice or s.blue_left <= 0:
            self.flag(rules.BLUE_COUNT)
        else:
            self.s = replace(s, blue_left=s.blue_left - 1)
        if target is not None:
            self.destroy(target, kobold_player=False, me=me, marked=marked)
        elif marked and any(self.s.destroyable(b) for b in self.s.buildings[me]):
            self.flag(rules.BLUE_MARKED_BEACH if s.options.beach else rules.BLUE_MARKED_STONE)
        elif marked:
            self.note("a marked stone, but nothing of yours to destroy")
        self.add_blue(1, marked=marked)

    def add_blue(self, n: int, *, marked: bool) -> None:
        if n <= 0:
            return
        self.s = replace(self.s, tower=self.s.tower + n, marked=self.s.marked + int(marked))
        if self.s.tower >= BLUE_STONES:
            self.win(KOBOLD_WINS)

    def destroy(self, target: Target, *, kobold_player: bool, me: int, marked: bool) -> None:
        i = self.dwarf(target.seat, "a destruction")
        s = self.s
        if target.building >= len(s.buildings[i]):
            raise MalformedMove(f"{target.seat} has no building {target.building}")
        building = s.buildings[i][target.building]
        if kobold_player:
            if not (s.stage == KOBOLD and s.turn == me and s.destroy_left):
                self.flag(rules.GAME2_DESTROY_FACE)
        elif not marked:
            self.flag(rules.BLUE_UNMARKED)
        elif i != me:
            self.flag(rules.BLUE_OWN)
        if not building.stones:
            self.flag(rules.NOT_STARTED)
        elif s.finished(building):
            if kobold_player:
                self.flag(rules.GAME2_UNFINISHED)
            else:
                self.flag(rules.BEACH_SEVEN if s.options.beach else rules.BLUE_FINISHED)
        for stone in building.stones:
            self.pool_add(stone, 1)
        self.set_building(i, target.building, Building(building.card))
        if kobold_player:
            self.s = replace(self.s, destroy_left=False)
        if building.stones:
            self.note(f"{target.seat}'s building {target.building} is destroyed: "
                      f"{len(building.stones)} stone(s) back on the table")

    # -- the kobold player (game 2) -----------------------------------------------------------

    def kobold(self, move: KoboldPlay) -> None:
        if self.s.options.game != 2:
            raise MalformedMove("game 1 has no kobold player: the blue faces of the dice are "
                                "the kobold")
        me = self.seat(move.seat)
        if self.s.is_dwarf(me):
            raise MalformedMove(f"only the kobold player ({self.s.players[self.s.kobold_index()]})"
                                f" adds blue stones or destroys with the kobold die")
        if move.roll is not None:
            self.roll(move.seat, (move.roll,))
        if move.add < 0:
            raise MalformedMove("a number of blue stones is 0 or more")
        if not move.add and move.destroy is None:
            raise MalformedMove("a roll alone is a roll move" if move.roll is not None
                                else "the kobold neither added nor destroyed anything")
        s = self.s
        mine = s.stage == KOBOLD and s.turn == me
        if move.destroy is not None:
            self.destroy(move.destroy, kobold_player=True, me=me, marked=False)
        if move.add:
            if move.add > s.blue_left_in_box():
                raise MalformedMove(f"only {s.blue_left_in_box()} blue stone(s) are left")
            allowed = s.kobold_left if mine else 0
            if move.add > allowed:
                blank = mine and s.kobold_face is not None and s.kobold_face != KOBOLD_FACE \
                    and face_value(s.kobold_face) == 0
                self.flag(rules.GAME2_BLANK if blank else rules.GAME2_COUNT)
            self.s = replace(self.s, kobold_left=max(0, self.s.kobold_left - move.add))
            self.add_blue(move.add, marked=False)


def resolve(state: VdnState, move: Move) -> Result:
    """Judge and play ``move`` from ``state`` (see the module docstring)."""
    if state.stage == OVER:
        raise MalformedMove("the game is over: "
                            + ("the dwarves won" if state.winner == DWARVES else "the kobold won"))
    run = _Run(state)
    owed: tuple[str, ...] = ()
    if isinstance(move, Roll):
        run.roll(move.seat, move.faces)
    elif isinstance(move, Build):
        owed = run.build(move)
    elif isinstance(move, KoboldPlay):
        run.kobold(move)
    else:
        raise MalformedMove(f"not a Ville des Nains move: {move!r}")
    return Result(run.s, run.rule, tuple(run.notes), owed, tuple(run.broken))

