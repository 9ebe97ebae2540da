"""Playing actions on a working copy of the table: the one place the rules are applied.

``check`` and ``apply`` both run a move here, action by action: each action is judged against
the table *as it is at that moment* (an exterior square depends on the blocks taken just
before), the rules it breaks are collected, and the action is carried out anyway, because the
referee may let an illegal move stand. What cannot be done physically at all (a block taken
from an empty square, a flag that is not there) raises :class:`MalformedMove`.
"""

from __future__ import annotations

from companion.games.base import MalformedMove, RuleRef, Verdict
from companion.games.terra_turrium import board, rules
from companion.games.terra_turrium.moves import END, ENTER, GO, LAY, PUT, TAKE, Action, Move
from companion.games.terra_turrium.state import (
    PHASE_LAYOUT, PHASE_OVER, PHASE_PLAY, STAGE_FLAGS, STAGE_PLACE, STAGE_TAKE,
    TerraTurriumState, meets_win, progress,
)


class Table:
    """A mutable copy of a state, with the rules applied as actions are played on it."""

    def __init__(self, state: TerraTurriumState):
        self.origin = state
        self.players = state.players
        self.options = state.options
        self.capture_table = state.options.capture_table()
        self.heights = list(state.heights)
        self.flags = list(state.flags)
        self.reserve = list(state.reserve)
        self.attacks = list(state.attacks)
        self.phase = state.phase
        self.active = state.active
        self.stage = state.stage
        self.taken = list(state.taken)
        self.placed = state.placed
        self.mp = state.mp
        self.off_board = state.off_board
        self.turns = list(state.turns)
        self.winners = list(state.winners)
        #: rules broken, in the order of the actions that broke them
        self.violations: list[RuleRef] = []
        #: short facts worth showing (captures, attacks, winners)
        self.notes: list[str] = []
        #: seat acting at each action played (None during the layout), and captures
        self.seats: list[str | None] = []
        self.captures: list[bool] = []
        #: turns ended with nothing done at all (no block taken, no flag moved)
        self.empty_turns = 0
        self._did_something = bool(state.taken) or state.stage in (STAGE_PLACE, STAGE_FLAGS)

    # -- reading the table ---------------------------------------------------------------------

    @property
    def seat(self) -> str:
        return self.players[self.active]

    @property
    def in_hand(self) -> int:
        return len(self.taken) - self.placed

    def flags_at(self, sq: int) -> list[str]:
        return [c for s, c in self.flags if s == sq]

    def exterior(self, sq: int) -> bool:
        return board.is_exterior(self.heights, sq)

    def reentry_rule(self, sq: int, colour: str) -> RuleRef | None:
        """The rule a flag re-entered on ``sq`` would break, if any (ignoring points)."""
        if self.heights[sq] == 0 or self.flags_at(sq):
            return rules.REENTRY_FREE
        if self.options.reentry_own_edge:
            if board.territory(sq) != colour or not board.is_edge(sq):
                return rules.REENTRY_OWN_EDGE
        elif not self.exterior(sq):
            return rules.REENTRY_EXTERIOR
        return None

    def step_cost(self, a: int, b: int, capture: bool) -> int:
        """Movement points of one step from ``a`` to ``b`` (RULINGS, flags: a capturing step
        costs the whole table's figure, the step included)."""
        if not capture:
            return 1
        up, level, down = self.capture_table
        rise = self.heights[b] - self.heights[a]
        return up if rise > 0 else level if rise == 0 else down

    def verdict(self, move: Move) -> Verdict:
        """The verdict on ``move``, which this table has played: the first rule it broke (the
        others are listed in the notes), the facts worth showing, and each seat's change of
        score."""
        origin = self.origin
        delta = {}
        for seat in self.players:
            change = (progress(self.heights, self.flags, seat)
                      - progress(origin.heights, origin.flags, seat))
            if change:
                delta[seat] = change
        notes = tuple(self.notes)
        if self.violations:
            notes += tuple(f"also breaks {r.id}" for r in self.violations[1:])
            return Verdict(move=move, legal=False, rule=self.violations[0], score_delta=delta,
                           notes=notes)
        return Verdict(move=move, legal=True, score_delta=delta, notes=notes)

    def freeze(self) -> TerraTurriumState:
        return TerraTurriumState(
            players=self.players, options=self.options, start_blocks=self.origin.start_blocks,
            heights=tuple(self.heights), flags=tuple(sorted(self.flags)),
            reserve=tuple(self.reserve), attacks=tuple(self.attacks), phase=self.phase,
            active=self.active, stage=self.stage, taken=tuple(sorted(self.taken)),
            placed=self.placed, mp=self.mp, off_board=self.off_board, turns=tuple(self.turns),
            winners=tuple(self.winners),
        )

    # -- playing -------------------------------------------------------------------------------

    def play_move(self, move: Move) -> None:
        for action in move.actions:
            self.play(action)

    def play(self, action: Action) -> None:
        if self.phase == PHASE_OVER:
            raise MalformedMove("the game is over: no more moves")
        if action.kind == LAY:
            self.seats.append(None)
        else:
            if self.phase == PHASE_LAYOUT:
                raise MalformedMove("the flags are not all laid out yet: every player lays out "
                                    "six flags on its territory before the first turn")
            self.seats.append(self.seat)
        self.captures.append(False)
        handler = {LAY: self._lay, TAKE: self._take, PUT: self._put, GO: self._go,
                   ENTER: self._enter, END: self._end}[action.kind]
        handler(action)

    def _break(self, rule: RuleRef) -> None:
        if rule not in self.violations:
            self.violations.append(rule)

    def _lay(self, action: Action) -> None:
        colour, sq = action.colour, action.square
        if self.phase != PHASE_LAYOUT:
            raise MalformedMove("flags are laid out only before the first turn; a captured flag "
                                f"re-enters with *{board.name(sq)}")
        if colour not in self.players:
            raise MalformedMove(f"{colour} is not playing in this game")
        index = self.players.index(colour)
        if self.reserve[index] == 0:
            raise MalformedMove(f"all six {colour} flags are already laid out")
        if board.territory(sq) != colour:
            self._break(rules.LAYOUT_TERRITORY)
        if self.heights[sq] == 0 or self.flags_at(sq):
            self._break(rules.LAYOUT_FREE)
        self.flags.append((sq, colour))
        self.reserve[index] -= 1
        if not any(self.reserve):
            self.phase, self.active = PHASE_PLAY, 0
            self._new_turn()

    def _take(self, action: Action) -> None:
        sq = action.square
        if self.heights[sq] == 0:
            raise MalformedMove(f"there is no block on {board.name(sq)} to take")
        if self.stage != STAGE_TAKE:
            self._break(rules.TURN_ORDER)
        if self.flags_at(sq):
            self._break(rules.TAKE_FLAG)
        if len(self.taken) >= board.MAX_TAKES:
            self._break(rules.TAKE_MAX)
        land = board.territory(sq)
        if land != self.seat:
            if any(board.territory(t) == land for t in self.taken):
                self._break(rules.TAKE_ONE_FOREIGN)
            if not self.exterior(sq):
                self._break(rules.TAKE_EXTERIOR)
        self.heights[sq] -= 1
        self.taken.append(sq)
        self.off_board += 1
        self._did_something = True

    def _put(self, action: Action) -> None:
        sq = action.square
        if self.off_board == 0:
            raise MalformedMove(f"no block is off the board to put on {board.name(sq)}")
        if self.stage == STAGE_FLAGS:
            self._break(rules.TURN_ORDER)
        if self.flags_at(sq):
            self._break(rules.PLACE_FREE)
        if self.in_hand > 0:
            self.placed += 1
        else:
            self._break(rules.PLACE_TAKEN)
        self.heights[sq] += 1
        self.off_board -= 1
        if self.stage == STAGE_TAKE:
            self.stage = STAGE_PLACE
        self._did_something = True

    def _enter_flags_stage(self) -> None:
        if self.in_hand > 0:
            self._break(rules.TURN_ORDER)
        self.stage = STAGE_FLAGS
        self._did_something = True

    def _spend(self, cost: int, rule: RuleRef) -> None:
        if cost > self.mp:
            self._break(rule)
        self.mp = max(0, self.mp - cost)

    def _go(self, action: Action) -> None:
        path = action.squares
        for a, b in zip(path, path[1:]):
            if not board.adjacent(a, b):
                raise MalformedMove(f"{board.name(a)} to {board.name(b)} is not one orthogonal "
                                    "step: write the flag's path square by square")
        here = self.flags_at(path[0])
        if not here:
            raise MalformedMove(f"there is no flag on {board.name(path[0])}")
        colour = self.seat if self.seat in here else here[0]
        if colour != self.seat:
            self._break(rules.FLAG_OWN)
        self._enter_flags_stage()
        self.flags.remove((path[0], colour))
        last = len(path) - 1
        for i in range(1, len(path)):
            a, b = path[i - 1], path[i]
            if self.heights[b] == 0:
                self._break(rules.FLAG_CONSTRUCTION)
            if abs(self.heights[b] - self.heights[a]) > 1:
                self._break(rules.FLAG_HEIGHT)
            occupants = self.flags_at(b)
            if i < last:
                if occupants:
                    self._break(rules.FLAG_THROUGH)
                self._spend(1, rules.FLAG_POINTS)
                continue
            enemies = [c for c in occupants if c != colour]
            if colour in occupants:
                self._break(rules.FLAG_ONE_PER_CONSTRUCTION)
            self._spend(self.step_cost(a, b, bool(enemies)),
                        rules.CAPTURE_COST if enemies else rules.FLAG_POINTS)
            for enemy in enemies:
                self._capture(colour, enemy, b)
        self.flags.append((path[-1], colour))

    def _capture(self, colour: str, enemy: str, sq: int) -> None:
        self.flags.remove((sq, enemy))
        self.reserve[self.players.index(enemy)] += 1
        self.captures[-1] = True
        owner = self.players.index(colour)
        if board.territory(sq) == colour:
            self.notes.append(f"{colour} defends: {enemy} flag captured on {board.name(sq)}")
            return
        if self.attacks[owner] >= board.MAX_ATTACKS:
            self._break(rules.ATTACK_MAX)
        self.attacks[owner] += 1
        self.notes.append(f"{colour} attacks ({self.attacks[owner]}/{board.MAX_ATTACKS}): "
                          f"{enemy} flag captured on {board.name(sq)}")

    def _enter(self, action: Action) -> None:
        sq = action.square
        index = self.active
        if self.reserve[index] == 0:
            raise MalformedMove(f"no {self.seat} flag is off the board to re-enter on "
                                f"{board.name(sq)}")
        self._enter_flags_stage()
        rule = self.reentry_rule(sq, self.seat)
        if rule is not None:
            self._break(rule)
        self._spend(1, rules.REENTRY_COST)
        self.reserve[index] -= 1
        self.flags.append((sq, self.seat))

    def _end(self, action: Action) -> None:
        if self.in_hand > 0:
            self._break(rules.PLACE_ALL)
        if not self._did_something:
            self.empty_turns += 1
        seat = self.seat
        self.turns[self.active] += 1
        if seat not in self.winners and meets_win(self.heights, self.flags,
                                                  self.reserve[self.active], seat):
            self.winners.append(seat)
            first = len(self.winners) == 1
            self.notes.append(f"{seat} wins: six flags on towers of heights 1 to 6"
                              + ("" if first else " (co-winner)"))
        if self.winners and self.active == len(self.players) - 1:
            self.phase, self.stage = PHASE_OVER, ""
            self.taken, self.placed = [], 0
            self.notes.append("the round is complete: the game is over")
            return
        self.active = (self.active + 1) % len(self.players)
        self._new_turn()

    def _new_turn(self) -> None:
        self.stage = STAGE_TAKE
        self.taken, self.placed = [], 0
        self.mp = board.MOVEMENT_POINTS
        self._did_something = False


def run(state: TerraTurriumState, move: Move) -> Table:
    """Play ``move`` on a copy of ``state``; the table holds the result and what it broke."""
    table = Table(state)
    table.play_move(move)
    return table
