"""Optimal solitaire Kniffel/Yahtzee: the expected final score of every game state, exactly.

Between two turns a game is in a state (F, u, y):
- F: the filled boxes, a bit mask over the rule set's boxes (bit i = `boxes[i]`);
- u: the upper sum so far, capped at the bonus threshold (a higher sum never matters);
- y: 1 if the Yahtzee box holds its full score. Only rule sets that pay an extra
  Yahtzee bonus need it (the bonus is paid only then); for the others y is always 0.

V(F, u, y) is the expected number of points still to come under the strategy
that maximises the expected final score. The upper bonus is paid at the end:
V(all boxes, u, y) = bonus if u ≥ threshold else 0. A turn is a roll-and-hold
game (`generator.core.rollhold`, 5×d6, 3 rolls) whose terminal value for the
final dice s is

    max over the boxes c that s may go into of  points(s, c) + extra(s) + V(F+c, u', y')

with the points, the joker and the extra bonus of `generator.kniffel.scoring` (the
point tables are computed by its functions). States with k filled boxes depend
only on those with k+1, so the table is filled layer by layer from all-but-one
box down to none; each layer's turns are batched into terminal-value matrices
and handed to `rollhold.start_value` a chunk at a time. V(∅, 0, 0) is the
optimal expected score. (F, u) pairs no game reaches (an upper sum the filled
upper boxes cannot make) are skipped and hold NaN; upper sums from which the
open upper boxes cannot reach the bonus any more are all worth the same, so
one turn per (F, y) is solved for them (`hopeless`).

Joker settings: those of the rule set (`none`, `free`, `forced`, see `scoring`).
`free` is the "free choice joker" under which the published 254.5896 was
computed: any open box may take the Yahtzee, but Full House and the straights
score their full value only when the matching upper box is already filled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property, partial

import numpy as np
import numpy.typing as npt

from generator.core.errors import UserError
from generator.core.rollhold import IdenticalDice, chunk_size, column_start_values
from generator.core.store import Store
from generator.core.team import ALONE, Member, Team, share
from generator.kniffel.rules import Box, RuleSet
from generator.kniffel.scoring import extra_bonus, raw_score, score
from generator.kniffel.table import (
    DICE,
    FACES,
    JOKER_SETTINGS,
    MAX_BOXES,
    ROLLS,
    SOLVER_VERSION,
    rules_fingerprint,
    shape_of,
    table_key,
    with_joker,
)

__all__ = [
    "DICE", "FACES", "JOKER_SETTINGS", "MAX_BOXES", "ROLLS", "SOLVER_VERSION",
    "rules_fingerprint", "table_key", "with_joker",
]  # fmt: skip  # (the numpy-free parts live in `generator.kniffel.table`)
# Turns per batch of a layer (numpy's per-call overhead is spread over many turns).
# Each batch is solved in pieces of STEP of the roll-and-hold solver's chunks, whose
# work arrays (462 × 564 floats, 2 MB) stay near the processor: measured 15 % faster
# than whole batches or single chunks.
CHUNK = 1024
STEP = 4

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ChoiceArray = npt.NDArray[np.int8]


@cache
def dice_space() -> IdenticalDice:
    """Five interchangeable six-sided dice: the 252 dice states of a Kniffel roll."""
    return IdenticalDice(DICE, FACES)


@dataclass(frozen=True, eq=False)
class Game:
    """A rule set as arrays: per box and dice state the points, and the shape of the table."""

    rules: RuleSet
    n_boxes: int
    cap: int  # upper sums are capped here; 0 when no bonus can be reached
    bonus: int  # paid at the end when the capped upper sum reaches `cap`
    n_flags: int  # 2 when an extra Yahtzee bonus exists (y matters), else 1
    faces: tuple[int, ...]  # per box: the counted face of an upper box, 0 for lower boxes
    yahtzee_box: int  # index of the Yahtzee box, -1 if none
    raw_points: npt.NDArray[np.int64]  # (boxes, states): points without a joker
    joker_points: npt.NDArray[np.int64]  # (boxes, 6): points of five equal dice as a joker
    counts: npt.NDArray[np.intp]  # (7, states): how many dice show each face (row 0 unused)
    yahtzee_states: npt.NDArray[np.intp]  # the states of five equal dice, faces 1..6
    extra: int  # extra bonus per further Yahtzee while y = 1

    @property
    def n_upper(self) -> int:
        return self.cap + 1

    @property
    def shape(self) -> tuple[int, int, int]:
        """Shape of the value table: (2**boxes, capped upper sums, flags)."""
        return (2**self.n_boxes, self.n_upper, self.n_flags)

    @property
    def full(self) -> int:
        return 2**self.n_boxes - 1

    @property
    def joker(self) -> str:
        return self.rules.joker

    @cached_property
    def points_f(self) -> FloatArray:
        """`raw_points` as floats (adding them to values needs no cast)."""
        return self.raw_points.astype(np.float64)

    def joker_active(self, filled: IntArray) -> BoolArray:
        """Per state: does the joker apply to five equal dice (the Yahtzee box is filled)?"""
        if self.joker == "none" or self.yahtzee_box < 0:
            return np.zeros(np.shape(filled), dtype=bool)
        return (filled >> self.yahtzee_box) & 1 == 1

    def matching_upper_open(self, filled: IntArray) -> BoolArray:
        """(..., 6): is an upper box counting face f (1..6) still open?"""
        out = np.zeros((*np.shape(filled), FACES), dtype=bool)
        for box, face in enumerate(self.faces):
            if face:
                out[..., face - 1] |= (filled >> box) & 1 == 0
        return out

    def allowed(self, filled: IntArray) -> BoolArray:
        """(..., boxes, 6): may five dice showing face f go into box c?

        Open boxes only; under the forced joker (once the Yahtzee box is filled):
        the matching upper box if open, else any open lower box, else any open box.
        """
        filled = np.asarray(filled)
        is_open = (filled[..., None] >> np.arange(self.n_boxes)) & 1 == 0
        out = np.broadcast_to(is_open[..., None], (*is_open.shape, FACES)).copy()
        if self.joker != "forced":
            return out
        faces = np.array(self.faces)
        match = is_open[..., None] & (faces[:, None] == np.arange(1, FACES + 1))
        open_lower = is_open & (faces == 0)
        fallback = np.where(open_lower.any(axis=-1)[..., None], open_lower, is_open)
        forced = np.where(match.any(axis=-2)[..., None, :], match, fallback[..., None])
        return np.where(self.joker_active(filled)[..., None, None], forced, out)

    def yahtzee_points(self, filled: IntArray) -> npt.NDArray[np.int64]:
        """(..., boxes, 6): points of five dice showing face f in each box (jokers applied)."""
        filled = np.asarray(filled)
        raw = self.raw_points[:, self.yahtzee_states]
        full_value = self.joker_active(filled)[..., None] & ~self.matching_upper_open(filled)
        return np.where(full_value[..., None, :], self.joker_points, raw)

    def points(self, box: IntArray, state: IntArray, filled: IntArray) -> IntArray:
        """Points written for dice `state` into `box` with boxes `filled` (elementwise)."""
        shape = np.broadcast(box, state, filled).shape
        box, state, filled = (np.broadcast_to(a, shape).reshape(-1) for a in (box, state, filled))
        pts = self.raw_points[box, state]
        five = np.nonzero(np.isin(state, self.yahtzee_states))[0]
        if five.size:
            face = self.counts[1:, state[five]].argmax(axis=0)
            table = self.yahtzee_points(filled[five])
            pts[five] = table[np.arange(five.size), box[five], face]
        return pts.reshape(shape)


def make_game(rules: RuleSet) -> Game:
    """Turn a rule set into the arrays the solver works with (points from `scoring`)."""
    n = len(rules.boxes)
    if n > MAX_BOXES:
        raise UserError(
            f"rule set '{rules.id}' has {n} boxes; the solver handles at most {MAX_BOXES}",
            where=rules.source,
        )
    space = dice_space()
    rolls = space.states
    raw = np.array([[raw_score(s, c) for s in rolls] for c in rules.boxes], dtype=np.int64)
    fives = [(f,) * DICE for f in range(1, FACES + 1)]
    joker = np.array([[raw_score(s, c) for s in fives] for c in rules.boxes], dtype=np.int64)
    ycat = rules.yahtzee_box
    if ycat is not None and rules.joker != "none":
        # full joker points of every box (the caller masks them while the upper box is open)
        free = dataclasses.replace(rules, joker="free")
        done = {ycat.id: 0, **{u.id: 0 for u in rules.upper}}

        def full(s: tuple[int, ...], c: Box) -> int:
            if c is ycat:
                return 0
            return raw_score(s, c) if c.section == "upper" else score(s, c, free, done)

        joker = np.array([[full(s, c) for s in fives] for c in rules.boxes], dtype=np.int64)
    counts = np.array([[s.count(f) for s in rolls] for f in range(FACES + 1)], dtype=np.intp)
    faces = tuple(c.face if c.kind == "upper" else 0 for c in rules.boxes)
    extra = 0 if ycat is None else extra_bonus(fives[0], rules, {ycat.id: ycat.score})
    shape = shape_of(rules)
    return Game(
        rules=rules,
        n_boxes=n,
        cap=shape.cap,
        bonus=shape.bonus,
        n_flags=shape.n_flags,
        faces=faces,
        yahtzee_box=rules.boxes.index(ycat) if ycat is not None else -1,
        raw_points=raw,
        joker_points=joker,
        counts=counts,
        yahtzee_states=np.array([space.index(s) for s in fives]),
        extra=extra,
    )


def reachable_upper(game: Game) -> BoolArray:
    """(2**boxes, capped upper sums): can the filled upper boxes of F add up to u?"""
    upper_bits = [i for i, f in enumerate(game.faces) if f]
    rows = []
    for key in range(2 ** len(upper_bits)):
        sums = {0}
        for j, box in enumerate(upper_bits):
            if key >> j & 1:
                face = game.faces[box]
                sums = {min(game.cap, s + face * k) for s in sums for k in range(DICE + 1)}
        row = np.zeros(game.n_upper, dtype=bool)
        row[sorted(sums)] = True
        rows.append(row)
    masks = np.arange(2**game.n_boxes)
    keys = np.zeros_like(masks)
    for j, box in enumerate(upper_bits):
        keys |= ((masks >> box) & 1) << j
    return np.stack(rows)[keys]


@cache
def _popcount(n_boxes: int) -> npt.NDArray[np.int64]:
    return np.array([m.bit_count() for m in range(2**n_boxes)])


def layer_states(game: Game, reach: BoolArray, layer: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every reachable state with `layer` filled boxes as (F, u, y) arrays, ordered by F."""
    fs = np.nonzero(_popcount(game.n_boxes) == layer)[0].astype(np.int64)
    fi, ui = np.nonzero(reach[fs])
    filled, upper = fs[fi], ui.astype(np.int64)
    flag = np.zeros_like(filled)
    if game.n_flags == 2:
        has = (filled >> game.yahtzee_box) & 1 == 1
        filled = np.concatenate([filled, filled[has]])
        upper = np.concatenate([upper, upper[has]])
        flag = np.concatenate([flag, np.ones(int(has.sum()), dtype=np.int64)])
        order = np.lexsort((flag, upper, filled))
        filled, upper, flag = filled[order], upper[order], flag[order]
    return filled, upper, flag


def terminal_values(
    game: Game,
    values: FloatArray,
    filled: IntArray,
    upper: IntArray,
    flag: IntArray,
    *,
    with_choice: bool = False,
) -> tuple[FloatArray, ChoiceArray | None]:
    """The value of ending a turn in each dice state, for a batch of states (F, u, y).

    Returns the values, shape (batch, 252), and with `with_choice` the best box
    per batch entry and dice state (ties: the first box in rule order). A value
    is the points now + the extra bonus + V after the best box; `values` must
    hold V for every state with one more box filled. Both ways of computing give
    bit-identical values (each candidate is one addition; maxima are exact).
    """
    flat = values.reshape(-1)
    if with_choice:
        best, choice = _box_by_box(game, flat, filled, upper, flag)
    else:
        best, choice = _factored(game, flat, filled, upper, flag), None
    yz = game.yahtzee_states
    joker = np.nonzero(game.joker_active(filled))[0]
    if len(joker):
        five, five_choice = _joker(game, flat, filled[joker], upper[joker], flag[joker])
        best[np.ix_(yz, joker)] = five
        if choice is not None:
            choice[np.ix_(yz, joker)] = five_choice
    if game.extra:
        best[np.ix_(yz, np.nonzero(flag == 1)[0])] += game.extra
    return best.T, (choice.T if choice is not None else None)


def _after(game: Game, filled: IntArray, box: int, flag: IntArray | int) -> IntArray:
    """Each state's table index once `box` is filled at upper sum 0 with flag `flag`."""
    return (filled | (1 << box)) * (game.n_upper * game.n_flags) + flag


def _by_count(
    game: Game, flat: FloatArray, filled: IntArray, upper: IntArray, flag: IntArray, box: int
) -> FloatArray:
    """(6, batch): an upper box's value when 0–5 dice show its face; −inf where it is filled."""
    pts = game.faces[box] * np.arange(DICE + 1)[:, None]
    # (the index is made in place, the −inf written by a mask: a third less time than
    # fresh arrays and a boolean column index; the same sums)
    at = np.minimum(upper + pts, game.cap)
    if game.n_flags != 1:
        at *= game.n_flags
    at += _after(game, filled, box, flag)
    by_count = np.take(flat, at)
    by_count += pts
    np.copyto(by_count, -np.inf, where=(filled & (1 << box)) != 0)
    return by_count


def _lower_value(
    game: Game,
    flat: FloatArray,
    filled: IntArray,
    upper: IntArray,
    flag: IntArray,
    box: int,
    new_flag: IntArray | int,
) -> FloatArray:
    """(batch,): V after writing into lower `box` (y becomes `new_flag`); −inf where filled."""
    at = _after(game, filled, box, new_flag)
    at += upper * game.n_flags if game.n_flags != 1 else upper
    value = np.take(flat, at)
    np.copyto(value, -np.inf, where=(filled & (1 << box)) != 0)
    return value


def _box_by_box(
    game: Game, flat: FloatArray, filled: IntArray, upper: IntArray, flag: IntArray
) -> tuple[FloatArray, ChoiceArray]:
    """Terminal values (252, batch) and best boxes, one box at a time."""
    n_y = game.n_flags
    # Worked on as (dice state, batch): spreading a box's six upper outcomes over the
    # 252 dice states is then a gather of whole rows (measured 3× faster).
    best = np.full((dice_space().n_states, len(filled)), -np.inf)
    choice = np.full(best.shape, -1, dtype=np.int8)
    cand = np.empty_like(best)
    for box in range(game.n_boxes):
        if not ((filled >> box) & 1 == 0).any():
            continue
        if game.faces[box]:
            by_count = _by_count(game, flat, filled, upper, flag, box)
            cand = np.take(by_count, game.counts[game.faces[box]], axis=0)
        elif box == game.yahtzee_box:
            # its full score sets y (the extra bonus depends on it), a 0 clears it
            v0 = _lower_value(game, flat, filled, upper, flag, box, 0)
            v1 = _lower_value(game, flat, filled, upper, flag, box, n_y - 1)
            full = (game.raw_points[box] == game.rules.boxes[box].score)[:, None]
            np.add(np.where(full, v1, v0), game.points_f[box][:, None], out=cand)
        else:
            v = _lower_value(game, flat, filled, upper, flag, box, flag)
            np.add(game.points_f[box][:, None], v, out=cand)
        np.copyto(choice, box, where=cand > best)
        np.maximum(best, cand, out=best)
    return best, choice


@dataclass(frozen=True, eq=False)
class _Factors:
    """Dice states grouped by what a part of the block sees of them (see `_factored`)."""

    lower: tuple[int, ...]  # the lower boxes
    lower_points: FloatArray  # (distinct rows, lower boxes): points per distinct row
    lower_row: npt.NDArray[np.intp]  # (252,): each dice state's row
    groups: tuple[tuple[tuple[int, ...], npt.NDArray[np.intp], npt.NDArray[np.intp]], ...]
    # per group of ≤ 3 upper boxes: (boxes, distinct count tuples (K, |boxes|), row per state)


@cache
def _factors(game: Game) -> _Factors:
    lower = tuple(b for b, f in enumerate(game.faces) if not f)
    columns = []
    for box in lower:
        pts = game.points_f[box]
        if box == game.yahtzee_box:  # its 0 is a choice, its full score is added apart
            pts = np.where(game.raw_points[box] != 0, -np.inf, 0.0)
        columns.append(pts)
    points = np.stack(columns, axis=1) if lower else np.zeros((dice_space().n_states, 0))
    lower_points, lower_row = np.unique(points, axis=0, return_inverse=True)
    upper = [b for b, f in enumerate(game.faces) if f]
    groups = []
    for i in range(0, len(upper), 3):
        boxes = tuple(upper[i : i + 3])
        counts = np.stack([game.counts[game.faces[b]] for b in boxes], axis=1)
        tuples, row = np.unique(counts, axis=0, return_inverse=True)
        groups.append((boxes, tuples, row.reshape(-1)))
    return _Factors(lower, lower_points, lower_row.reshape(-1), tuple(groups))


def _factored(
    game: Game, flat: FloatArray, filled: IntArray, upper: IntArray, flag: IntArray
) -> FloatArray:
    """Terminal values (252, batch) with far fewer full-size passes than box by box.

    The lower boxes see a dice state only through their points: 100 distinct
    rows instead of 252, maximised there and then spread. Three upper boxes see
    it only through three counts: 56 distinct tuples. So the work per batch
    entry is about 1,900 + 3 × 252 row operations instead of 13 × 3 × 252.
    """
    fac = _factors(game)
    n = len(filled)
    if fac.lower:
        table = np.empty((len(fac.lower_points), n))
        tmp, started = np.empty_like(table), False
        for j, box in enumerate(fac.lower):
            if not ((filled >> box) & 1 == 0).any():
                continue
            new_flag = 0 if box == game.yahtzee_box else flag
            v = _lower_value(game, flat, filled, upper, flag, box, new_flag)
            # the first open box's candidates are the table to begin with (−inf where closed)
            np.add(fac.lower_points[:, j][:, None], v, out=tmp if started else table)
            if started:
                np.maximum(table, tmp, out=table)
            started = True
        if not started:
            table.fill(-np.inf)
        best = np.take(table, fac.lower_row, axis=0)
    else:
        best = np.full((dice_space().n_states, n), -np.inf)
    for boxes, tuples, row in fac.groups:
        group: FloatArray | None = None
        for j, box in enumerate(boxes):
            if not ((filled >> box) & 1 == 0).any():
                continue
            part = np.take(_by_count(game, flat, filled, upper, flag, box), tuples[:, j], axis=0)
            group = part if group is None else np.maximum(group, part, out=group)
        if group is not None:
            # (np.take with out= is 3× slower than letting it allocate)
            np.maximum(best, np.take(group, row, axis=0), out=best)
    box = game.yahtzee_box
    if box >= 0 and ((filled >> box) & 1 == 0).any():
        # five equal dice in the open Yahtzee box: its full score, y becomes 1
        rows = np.nonzero(game.raw_points[box] != 0)[0]
        v1 = _lower_value(game, flat, filled, upper, flag, box, game.n_flags - 1)
        best[rows] = np.maximum(best[rows], game.points_f[box][rows, None] + v1)
    return best


def _joker(
    game: Game, flat: FloatArray, filled: IntArray, upper: IntArray, flag: IntArray
) -> tuple[FloatArray, ChoiceArray]:
    """Values (6, batch) and best boxes of five equal dice where the joker applies.

    The same as `Game.allowed` and `Game.yahtzee_points` say, without building
    their (batch, boxes, 6) arrays; the extra bonus is added by the caller.
    """
    n_u, n_y = game.n_upper, game.n_flags
    forced = game.joker == "forced"
    match_open = game.matching_upper_open(filled).T  # (6, n)
    full_value = ~match_open
    lower_bits = sum(1 << box for box, face in enumerate(game.faces) if not face)
    lower_open = (~filled & lower_bits) != 0
    best = np.full((FACES, len(filled)), -np.inf)
    choice = np.full(best.shape, -1, dtype=np.int8)
    for box in range(game.n_boxes):
        is_open = (filled >> box) & 1 == 0
        if not is_open.any():
            continue
        after = (filled | (1 << box)) * n_u
        base = flat[(after + upper) * n_y + flag]
        face = game.faces[box]
        if face:
            cand = np.broadcast_to(base, best.shape).copy()
            u_after = np.minimum(game.cap, upper + DICE * face)
            cand[face - 1] = DICE * face + flat[(after + u_after) * n_y + flag]
            allowed = np.broadcast_to(is_open, best.shape).copy()
            if forced:  # another face's box only when nothing else is open
                allowed &= ~match_open & ~lower_open
                allowed[face - 1] = is_open
        else:
            raw = game.raw_points[box, game.yahtzee_states][:, None]
            pts = np.where(full_value, game.joker_points[box][:, None], raw)
            cand = pts + base
            allowed = is_open & ~match_open if forced else np.broadcast_to(is_open, best.shape)
        cand = np.where(allowed, cand, -np.inf)
        better = cand > best
        best[better] = cand[better]
        choice[better] = box
    return best, choice


def best_boxes(
    game: Game,
    values: FloatArray,
    filled: IntArray,
    upper: IntArray,
    flag: IntArray,
    state: IntArray,
) -> tuple[IntArray, FloatArray]:
    """Per game: the best box for its final dice `state` and the terminal value it gives.

    Elementwise over games in states (F, u, y) (u capped); the value equals
    `terminal_values` at that dice state; ties go to the first box in rule order.
    """
    flat = values.reshape(-1)
    n_u, n_y = game.n_upper, game.n_flags
    five = np.nonzero(np.isin(state, game.yahtzee_states))[0]
    face = game.counts[1:, state[five]].argmax(axis=0)
    barred = ~game.allowed(filled[five])[np.arange(len(five)), :, face]  # (fives, boxes)
    five_points = game.yahtzee_points(filled[five])[np.arange(len(five)), :, face]
    best = np.full(len(filled), -np.inf)
    choice = np.full(len(filled), -1, dtype=np.int64)
    # (the simulation asks this for every game and turn: each box's index and value are
    # made in place in two work arrays, masks written by np.copyto; the same sums)
    stay = upper * n_y + flag  # the index part of a lower box that keeps u and y
    index, value = np.empty_like(filled), np.empty(len(filled))
    for box in range(game.n_boxes):
        closed = (filled & (1 << box)) != 0
        closed[five] |= barred[:, box]
        if closed.all():
            continue
        pts = np.take(game.raw_points[box], state)
        pts[five] = five_points[:, box]
        np.bitwise_or(filled, 1 << box, out=index)
        index *= n_u * n_y
        if game.faces[box]:
            at = np.minimum(upper + pts, game.cap)
            if n_y != 1:
                at *= n_y
            index += at
            index += flag
        elif box == game.yahtzee_box:
            index += upper * n_y
            index += (pts == game.rules.boxes[box].score) * (n_y - 1)
        else:
            index += stay
        np.copyto(index, 0, where=closed)
        np.take(flat, index, out=value, mode="clip")  # (the default would buffer)
        value += pts
        np.copyto(value, -np.inf, where=closed)
        np.copyto(choice, box, where=value > best)
        np.maximum(best, value, out=best)
    if game.extra:
        best[five[flag[five] == 1]] += game.extra
    return choice, best


def hopeless(game: Game, filled: IntArray, upper: IntArray) -> BoolArray:
    """States whose open upper boxes cannot lift the upper sum to the bonus any more.

    For those the upper sum no longer matters: V(F, u, y) is the same for all of them.
    """
    most = np.zeros_like(filled)
    for box, face in enumerate(game.faces):
        if face:
            most += np.where((filled >> box) & 1 == 0, DICE * face, 0)
    return upper + most < game.cap


def solve_values(
    game: Game, progress: Callable[[int], None] | None = None, *, team: Team = ALONE
) -> FloatArray:
    """The whole table V(F, u, y), shape `game.shape`; unreachable entries are NaN.

    With a `team` of several processes, each solves its share of every layer's pieces
    (`_pieces`: the values are those of one process, bit for bit).
    """
    values = np.full(game.shape, np.nan)
    reach = reachable_upper(game)
    at_end = np.where(np.arange(game.n_upper) >= game.cap, game.bonus, 0).astype(np.float64)
    values[game.full, reach[game.full]] = at_end[reach[game.full], None]
    solved: FloatArray = team.run(partial(_solve_layers, game, reach, progress), values)
    return solved


def _solve_layers(
    game: Game, reach: BoolArray, progress: Callable[[int], None] | None, member: Member
) -> FloatArray:
    """Fill the table from all-but-one box down to none: this member's share of each layer."""
    (values,) = member.arrays
    flat = values.reshape(-1)
    for layer in range(game.n_boxes - 1, -1, -1):
        filled, upper, flag = layer_states(game, reach, layer)
        index = (filled * game.n_upper + upper) * game.n_flags + flag
        # one turn per (F, y) stands for all its hopeless upper sums (a third of all turns)
        lost = hopeless(game, filled, upper)
        _, first, copy_of = np.unique(
            filled[lost] * game.n_flags + flag[lost], return_index=True, return_inverse=True
        )
        solve = np.concatenate([np.nonzero(~lost)[0], np.nonzero(lost)[0][first]])
        solve.sort()  # keeps chunks within few F
        pieces = _pieces(len(solve))
        for k in share(member, len(pieces)):
            part = solve[pieces[k]]
            flat[index[part]] = _turn_values(game, values, filled[part], upper[part], flag[part])
        member.wait()  # the whole layer is solved
        copies = share(member, int(lost.sum()))
        to, of = index[lost], index[lost][first][copy_of.reshape(-1)]
        flat[to[copies.start : copies.stop]] = flat[of[copies.start : copies.stop]]
        member.wait()  # and copied: the next layer reads it
        if progress is not None and member.index == 0:
            progress(layer)
    return values


def _pieces(n: int) -> list[slice]:
    """The pieces n turns are solved in: batches of CHUNK turns, STEP chunks at a time.

    A team shares the pieces out (finer than whole batches: its members end a layer closer
    together); each is solved as it is inside its batch, so the values stay the same.
    """
    step = STEP * chunk_size(dice_space())
    return [
        slice(lo, min(lo + step, start + CHUNK, n))
        for start in range(0, n, CHUNK)
        for lo in range(start, min(start + CHUNK, n), step)
    ]


def _turn_values(
    game: Game, values: FloatArray, filled: IntArray, upper: IntArray, flag: IntArray
) -> FloatArray:
    """The value of a turn in each state (F, u, y) of one piece (`_pieces`).

    A piece's terminal values are still near the processor when it is solved; the
    pieces start at whole chunks of their batch, so each turn's value is the one
    `rollhold.start_value` gives for the whole batch, bit for bit (the table is the
    same as before).
    """
    terminal, _ = terminal_values(game, values, filled, upper, flag)
    return column_start_values(dice_space(), terminal.T, ROLLS)


@dataclass(frozen=True, eq=False)
class Strategy:
    """The solved table of one rule set: what every state is worth under optimal play."""

    game: Game
    values: FloatArray

    @property
    def rules(self) -> RuleSet:
        return self.game.rules

    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        return float(self.values[0, 0, 0])

    def value(self, filled: int, upper: int, flag: int = 0) -> float:
        """Expected points still to come from state (F, u, y); u may exceed the cap."""
        u = min(int(upper), self.game.cap)
        y = int(flag) if self.game.n_flags == 2 else 0
        v = float(self.values[int(filled), u, y])
        if np.isnan(v):
            raise ValueError(f"state ({filled}, {upper}, {flag}) cannot be reached")
        return v

    def terminal(
        self, filled: IntArray, upper: IntArray, flag: IntArray, *, with_choice: bool = False
    ) -> tuple[FloatArray, ChoiceArray | None]:
        """`terminal_values` for states (F, u, y); u may exceed the cap."""
        upper = np.minimum(np.asarray(upper, dtype=np.int64), self.game.cap)
        flag = np.asarray(flag, dtype=np.int64) * (self.game.n_flags == 2)
        filled = np.asarray(filled, dtype=np.int64)
        return terminal_values(self.game, self.values, filled, upper, flag, with_choice=with_choice)


def solve_strategy(
    rules: RuleSet,
    tick: Callable[[int], None] | None = None,
    *,
    store: Store,
    team: Team = ALONE,
) -> Strategy:
    """The solved table for `rules`: from `store`, or computed (seconds) by `team` and stored.

    `tick(1)` is called once per solved layer (13 for Kniffel), for a progress bar.
    """
    game = make_game(rules)
    layer_done = None if tick is None else (lambda _layer: tick(1))

    def valid(values: np.ndarray) -> bool:
        return (
            values.shape == game.shape
            and values.dtype.kind == "f"
            # unreachable states hold NaN; every other value is an expected score ≥ 0
            and not bool(np.isinf(values).any())
            and not bool((values < 0).any())
        )

    values = store.table(
        "kniffel", table_key(rules), lambda: solve_values(game, layer_done, team=team), valid
    )
    return Strategy(game, values)
