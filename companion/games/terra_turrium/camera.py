"""From what the camera sees to the moves that could explain it.

The camera reports the height of every tower on the printed board (``tower``, ``cell`` [x, y],
``level`` = number of blocks) and each flag's colour and square (``flag``, ``cell``, attribute
``colour``); see ``docs/observation/terra-turrium.md``. Blocks are identical, so the referee
works from the height map; the aggression track is kept from the history, not read.

:func:`candidates` compares the observation with what the state predicts and hands the
differences to :mod:`planner`, which builds the moves that could produce them. Each move is
judged, and priced with the shared arithmetic of :mod:`companion.games.matching`; its
``prior`` (how unlikely the reading is beyond the picture, in the same unit) carries:

* :data:`ILLEGAL_PRIOR` for each rule a move breaks: when a legal and an illegal reading
  explain the picture equally (a block lifted after the active player moved a flag: an illegal
  take, or the next player's turn?), the legal one is settled; an illegal reading wins only when
  nothing legal explains the table, and then the one breaking the fewest rules;
* :data:`END_PRIOR` for each turn's end inside the move (followed by the next player's
  actions): one player's actions are likelier than two players' in one still moment, so the
  turn goes on unless that reading breaks a rule;
* :data:`PASS_PRIOR` for each turn ended with nothing done at all: a pass is invisible, so it is
  the last resort of an explanation.

The priors are at least :data:`~companion.games.matching.CLEAR_MARGIN` apart, so the referee
settles these choices without asking.

A candidate is incomplete (``complete=False``) while its last stage could go on: fewer than three
blocks taken, blocks still in hand, movement points left for a possible flag move, flags still to
lay out. When movement points run out (or no flag can move any more), the turn's end is added to
the move, so the win is checked at once. When a player's flags meet the win condition with points
left, or when the player is the last of the final round, both readings (the turn goes on, the turn
is over) come at equal cost: the referee asks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Hashable

from companion.games.base import Candidate
from companion.games.matching import MISS, MISS_HIDDEN, mismatch_cost, surprise
from companion.games.terra_turrium import board, movegen, planner
from companion.games.terra_turrium.moves import END, END_TURN, Move
from companion.games.terra_turrium.state import (
    PHASE_LAYOUT, PHASE_OVER, PHASE_PLAY, STAGE_FLAGS, STAGE_PLACE, STAGE_TAKE,
    TerraTurriumState, meets_win,
)
from companion.games.terra_turrium.table import Table, run
from companion.observation import Observation, Piece

GAME = "terra-turrium"
ILLEGAL_PRIOR = 5.0
END_PRIOR = 2.5
PASS_PRIOR = 5.0
#: more block or flag changes than this between two still moments is not one move
MAX_BLOCK_CHANGES = 9
MAX_FLAG_CHANGES = 14
#: a tower reading below this confidence is the camera's doubt, not a sighting: the reader
#: reports a square hidden behind a taller tower at the height it last saw there with 0.5
UNSURE_CONF = 0.6
#: hidden squares tried at most for blocks the camera did not see put down
MAX_HIDDEN_SQUARES = 16
#: pieces the engine does not judge (the aggression markers are tracked from the history)
IGNORED_KINDS = ("aggression",)


@dataclass(frozen=True)
class Reading:
    """An observation in the engine's terms: a height map, flags, and keys for matching.

    ``towers``: the height readings (an empty square reported as such included) as (square,
    height, confidence); ``keys``: the flags and the pieces the engine cannot
    place, for :func:`companion.games.matching.mismatch_cost`."""

    heights: tuple[int, ...]
    flags: tuple[tuple[int, str], ...]
    keys: tuple[tuple[Hashable, float], ...]
    towers: tuple[tuple[int, int, float], ...] = ()


def _square_of(piece: Piece) -> int | None:
    if piece.cell is None or not board.on_board(*piece.cell):
        return None
    return board.square(*piece.cell)


def read(observation: Observation) -> Reading:
    towers: dict[int, tuple[int, float]] = {}
    readings: list[tuple[int, int, float]] = []
    flags: list[tuple[int, str]] = []
    keys: list[tuple[Hashable, float]] = []
    for index, piece in enumerate(observation.pieces):
        if piece.kind in IGNORED_KINDS:
            continue
        sq = _square_of(piece)
        if piece.kind == "tower" and sq is not None and piece.level is not None:
            readings.append((sq, piece.level, piece.conf))
            if sq not in towers or piece.conf > towers[sq][1]:
                towers[sq] = (piece.level, piece.conf)
        elif piece.kind == "flag" and sq is not None and piece.get("colour") in board.SEATS:
            keys.append((("flag", piece.get("colour"), sq), piece.conf))
            flags.append((sq, piece.get("colour")))
        else:
            keys.append((("unread", index, piece.kind), piece.conf))
    heights = tuple(towers[sq][0] if sq in towers else 0 for sq in range(board.SQUARES))
    return Reading(heights, tuple(sorted(flags)), tuple(keys),
                   tuple(readings))


def expected_keys(state: TerraTurriumState) -> list[tuple[Hashable, float]]:
    keys: list[tuple[Hashable, float]] = [(("tower", sq, h), MISS)
                                          for sq, h in enumerate(state.heights) if h > 0]
    keys += [(("flag", colour, sq), MISS) for sq, colour in state.flags]
    return keys


def cost(state: TerraTurriumState, reading: Reading) -> float:
    """How badly ``state`` explains ``reading``.

    A square's height is one reading with one confidence: a state that disagrees with it costs
    the reading's surprise, once (a hesitant reading of a square seen badly, behind a taller
    tower, is weak evidence against any other height; a sure one is strong). A tower the camera
    did not report at all costs a miss. Flags are pieces of their own, matched as such; a flag
    on a square the camera reports without conviction (hidden behind a taller tower) may well
    not show, and its absence costs little (:data:`~companion.games.matching.MISS_HIDDEN`)."""
    total = 0.0
    reported = set()
    for sq, h, conf in reading.towers:
        reported.add(sq)
        if state.heights[sq] != h:
            total += surprise(conf)
    total += sum(MISS for sq, h in enumerate(state.heights) if h > 0 and sq not in reported)
    hidden = set(unsure_squares(reading))
    flags = [(("flag", colour, sq), MISS_HIDDEN if sq in hidden else MISS)
             for sq, colour in state.flags]
    return total + mismatch_cost(flags, reading.keys)


def explain(state: TerraTurriumState, observation: Observation) -> float:
    return cost(state, read(observation))


def expected_observation(state: TerraTurriumState) -> Observation:
    pieces = [Piece("tower", cell=board.xy(sq), level=h)
              for sq, h in enumerate(state.heights) if h > 0]
    pieces += [Piece("flag", cell=board.xy(sq), level=state.heights[sq],
                     attrs={"colour": colour}) for sq, colour in state.flags]
    return Observation(game=GAME, pieces=tuple(pieces))


# -- candidates ---------------------------------------------------------------------------------


def is_complete(move: Move, state: TerraTurriumState) -> bool:
    """Whether the move's last stage is over (see the module's docstring)."""
    if move.actions[-1].kind == END or state.phase == PHASE_OVER:
        return True
    if state.phase == PHASE_LAYOUT:
        return False
    if state.stage == STAGE_TAKE:
        # nothing taken yet: the move stopped at a turn's start (the flags just laid out)
        return not state.taken or len(state.taken) >= board.MAX_TAKES
    if state.stage == STAGE_PLACE:
        return state.in_hand == 0
    return not movegen.any_flag_action(state)


def _turn_could_end(state: TerraTurriumState) -> bool:
    return (state.phase == PHASE_PLAY and state.in_hand == 0
            and state.stage in (STAGE_PLACE, STAGE_FLAGS))


def _endings(move: Move, state: TerraTurriumState) -> list[Move]:
    """The move as seen, and with the turn's end added where it must or may have come."""
    if move.actions[-1].kind == END or not _turn_could_end(state):
        return [move]
    ended = Move(move.actions + (END_TURN,))
    if not movegen.any_flag_action(state):
        return [ended]  # nothing left to do: the turn is over
    seat = state.active_seat
    last_of_round = bool(state.winners) and state.active == len(state.players) - 1
    if meets_win(state.heights, state.flags, state.reserve[state.active], seat) or last_of_round:
        return [move, ended]
    return [move]


def _diff(state: TerraTurriumState, reading: Reading):
    """Blocks taken and put, flags gone and come, between ``state`` and the reading. A square
    read without conviction (hidden: the height last seen there) is no evidence of a change:
    lower than the state says, blocks laid there while it was hidden are not contradicted by an
    old sighting (the reader reports blocks taken from a hidden square surely, from what shows
    of its sides); higher, the sighting may be older than a block lifted there unseen, which
    the referee has already counted. Blocks laid or lifted there are found by counting
    (:func:`_plans`). A flag the camera does not see there has not left it."""
    takes, puts = [], []
    unsure = set(unsure_squares(reading))
    for sq in range(board.SQUARES):
        delta = reading.heights[sq] - state.heights[sq]
        if sq in unsure:
            continue
        takes += [sq] * max(0, -delta)
        puts += [sq] * max(0, delta)
    before, after = Counter(state.flags), Counter(reading.flags)
    added = after - before
    # a flag on a square the camera cannot see is not seen either: not seen is not gone,
    # unless a flag of its colour came into view that no flag seen leaving explains
    gone = before - after
    left = Counter(c for (sq, c), n in gone.items() if sq not in unsure for _ in range(n))
    unexplained = Counter(c for (_sq, c), n in added.items() for _ in range(n)) - left
    removed = Counter()
    for (sq, colour), n in gone.items():  # in the state's order, as the planner expects
        if sq in unsure:
            n = min(n, unexplained[colour])
            unexplained[colour] -= n
        if n > 0:
            removed[(sq, colour)] = n
    return takes, puts, removed, added


def candidates(state: TerraTurriumState, observation: Observation,
               notation: Callable[[TerraTurriumState, Move], str]) -> list[Candidate]:
    """Moves from ``state`` whose result explains ``observation``, cheapest first. A table
    showing exactly the state gives no candidate (nothing happened that the camera can see)."""
    if state.phase == PHASE_OVER or observation.hand:
        return []
    reading = read(observation)
    takes, puts, removed, added = _diff(state, reading)
    if not (takes or puts or removed or added):
        return []
    if (len(takes) > MAX_BLOCK_CHANGES or len(puts) > MAX_BLOCK_CHANGES
            or sum(removed.values()) + sum(added.values()) > MAX_FLAG_CHANGES):
        return []
    seen: set[Move] = set()
    out: list[tuple[tuple, Candidate]] = []
    for plan in _plans(state, reading, takes, puts, removed, added):
        first = run(state, plan)
        for move in _endings(plan, first.freeze()):
            if move in seen:
                continue
            seen.add(move)
            table = first if move is plan else run(state, move)
            result = table.freeze()
            verdict = table.verdict(move)
            candidate = Candidate(move=move, state=result, verdict=verdict,
                                  cost=round(cost(result, reading), 6),
                                  # a broken rule stays broken however the turn goes on:
                                  # flag it at once
                                  complete=is_complete(move, result) or not verdict.legal,
                                  prior=prior(move, table))
            out.append(((candidate.rank, not verdict.legal, len(move.actions),
                         notation(state, move)), candidate))
    out.sort(key=lambda pair: pair[0])
    return [c for _, c in out]


def unsure_squares(reading: Reading) -> list[int]:
    """Squares whose height the camera reports without conviction (:data:`UNSURE_CONF`): a
    square hidden behind a taller tower, reported at the height last seen there."""
    return sorted({sq for sq, _h, conf in reading.towers if conf < UNSURE_CONF})


def _plans(state: TerraTurriumState, reading: Reading, takes: list[int], puts: list[int],
           removed: Counter, added: Counter) -> list[Move]:
    """The planner's moves for the change seen and, when more blocks were lifted than the
    camera saw put down, the moves that put the missing ones on squares it cannot see (each
    such square in turn): a block laid behind a tall tower is still a block laid. Likewise,
    when more blocks were put down than were in hand or seen lifted, the moves that lift the
    missing one from a square the camera cannot see (a square it reports at the height last
    seen there, which a block put in front of it now hides). The camera's
    doubt about those squares prices these readings; when one of them and the reading that
    keeps the blocks in hand explain the table about equally, the referee waits, and asks once
    the table has moved on (see :mod:`companion.referee.referee`)."""
    out = planner.plans(state, takes, puts, removed, added)
    hidden = unsure_squares(reading)[:MAX_HIDDEN_SQUARES]
    out += _hidden_flag_plans(state, reading, takes, puts, removed, added, hidden)
    missing = state.in_hand + len(takes) - len(puts)
    if missing == 0 or state.phase != PHASE_PLAY:
        return out
    if missing > 0:
        for sq in hidden:
            # only legal readings: blocks taken against the rules go back, wherever they were laid
            out += [m for m in planner.plans(state, takes, sorted(puts + [sq]), removed, added)
                    if not run(state, m).violations]
        return out
    # more blocks put down than were in hand or seen lifted: the missing ones came off squares
    # the camera cannot see now (a block lifted from behind the tower it then made taller)
    for sq in hidden:
        if state.heights[sq] - takes.count(sq) <= 0:
            continue
        out += [m for m in planner.plans(state, sorted(takes + [sq]), puts, removed, added)
                if not run(state, m).violations]
    return out


def _hidden_flag_plans(state: TerraTurriumState, reading: Reading, takes: list[int],
                       puts: list[int], removed: Counter, added: Counter,
                       hidden: list[int]) -> list[Move]:
    """When a flag left its square and the camera sees it nowhere, the moves that take it to a
    square the camera cannot see (each such square in turn, one without a flag read there);
    legal ones only. Whether the flag stands there cannot be read, so the cost of these
    readings hardly differs: where several squares are in reach, the referee asks."""
    if state.phase != PHASE_PLAY:
        return []
    gone = Counter({colour: n for colour, n in
                    Counter(c for (_sq, c), k in removed.items() for _ in range(k)).items()})
    gone.subtract(Counter(c for (_sq, c), k in added.items() for _ in range(k)))
    flagged = {sq for sq, _c in reading.flags}
    out: list[Move] = []
    for colour, n in gone.items():
        if n <= 0:
            continue
        for sq in hidden:
            if sq in flagged or (sq, colour) in removed:
                continue
            more = added + Counter({(sq, colour): 1})
            out += [m for m in planner.plans(state, takes, puts, removed, more)
                    if not run(state, m).violations]
    return out


def prior(move: Move, table: Table) -> float:
    """What a reading costs beyond the picture (see the module's docstring)."""
    inner_ends = sum(1 for a in move.actions[:-1] if a.kind == END)
    return (ILLEGAL_PRIOR * len(table.violations) + END_PRIOR * inner_ends
            + PASS_PRIOR * table.empty_turns)
