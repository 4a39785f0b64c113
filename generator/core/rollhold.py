"""Roll and hold: the best expected value of "up to R rolls, keep any dice".

A player rolls all dice, may then up to R−1 times set any dice of the current
roll aside (set-aside dice may be taken back) and re-roll the rest, and may stop
at any time. A goal gives every final dice state s a terminal value v(s): 1/0
for a task that succeeds or fails, or a score. Counting r as the rolls a state
still controls (the one that produced it included, so r−1 re-rolls are left):

    V_1(s) = v(s)
    V_r(s) = max over keeps k ⊆ s of E[V_{r−1}(k ∪ re-rolled dice)]

Keeping all of s is one of the keeps and stands for stopping: its value
V_{r−1}(s) is never below v(s) and never above the best of stopping and the
other keeps, so V_r(s) = max(v(s), max over proper keeps). The value of a turn
before its first roll is E[V_R(full roll)] (`start_value`).

Both halves of the recurrence factor one die at a time, which keeps the solver
to a few numpy operations per die and no Python loop over states:
- expectation: re-rolling m dice is adding m independent dice one after the
  other, so E[keep] is the mean over one more die's faces of E[keep + that die];
- maximum: the best keep inside a set of dice is the whole set or the best keep
  inside the set with one die taken away (a subset-maximum transform).

Two dice spaces share the `DiceSpace` interface:
- `IdenticalDice(n_dice, n_faces)`: interchangeable dice (Kniffel 5×d6,
  Köpfchen 3×d6). States and keeps are sorted tuples of face values 1..F
  (a multiset); states are in lexicographic order.
- `DistinctDice(faces_per_die)`: distinguishable dice (Kribbeln: six different
  colour dice). A state is a tuple of face indices 0..F_i−1, one per die, its
  index the mixed-radix number with die 0 most significant (C order), so a
  value vector reshapes to `faces_per_die`. What a face means (value, colour)
  is decided outside this module.

Values are float64. The recurrence only averages and takes maxima, so results
agree with exact rational arithmetic to about 1e-15 relative; the tests hold
them to 1e-12 against `fractions.Fraction`. Every solver function accepts
leading batch dimensions (shape (..., n_states)) and works through them in
chunks of rows so that memory stays bounded.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations_with_replacement, product
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]
Labels = tuple[tuple[tuple[int, ...], ...], ...]  # per state: its keeps' labels, in tie order

# Batch rows are solved in chunks whose keep array (n_keeps × rows floats) fits
# in a core's L2 cache: the kernels are row gathers, bound by memory traffic
# (5×d6: ~140 rows; measured 2–3× faster than chunks of thousands of rows).
_CHUNK_BYTES = 2**19
_WIDE_ROWS = 16  # DistinctDice: batch rows a step works on at once (`_chunks_at_once`)

# The one tie rule of every choice of dice (advice, policies, simulations): option values
# equal to 12 decimals are tied (float rounding from different summation orders must not
# decide); a tie goes to the keep with more dice, then to the lexicographically smallest.
_TIE_DECIMALS = 12
# Pairs ranked at once by `pick_keeps` (their work arrays: pairs × 32 positions and values).
_PICK_PAIRS = 4096


class DiceSpace(ABC):
    """The dice of a roll-and-hold game: their states, keeps, and the two DP kernels."""

    n_dice: int
    n_states: int
    n_keeps: int
    states: Sequence[tuple[int, ...]]  # in index order

    @property
    @abstractmethod
    def probabilities(self) -> FloatArray:
        """Probability of every state on a roll of all dice, shape (n_states,)."""

    @abstractmethod
    def index(self, state: Sequence[int]) -> int:
        """The index of a dice state in every (..., n_states) array."""

    @abstractmethod
    def state(self, index: int) -> tuple[int, ...]:
        """The dice state at an index (inverse of `index`)."""

    @abstractmethod
    def keep_options(self, state: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
        """Every distinct keep of a state as (label, keep index), keep-all included.

        The label is what `best_keeps` reports: the kept faces (identical dice)
        or the held die positions (distinct dice).
        """

    @cached_property
    def option_table(self) -> tuple[IndexArray, Labels]:
        """Every state's keeps in tie order: (n_states, width) keep indices, and their labels.

        Column 0 keeps all dice (stopping). A state with fewer distinct keeps than
        `width` repeats its column 0, which never wins a tie against itself.
        """
        rows, labels = [], []
        for state in self.states:
            ranked = sorted(self.keep_options(state), key=lambda kv: (-len(kv[0]), kv[0]))
            rows.append([k for _, k in ranked])
            labels.append(tuple(label for label, _ in ranked))
        width = max(len(r) for r in rows)
        table = np.array([r + [r[0]] * (width - len(r)) for r in rows], dtype=np.intp)
        return table, tuple(labels)

    @property
    def stop_keeps(self) -> IndexArray | slice:
        """The keep index of keeping every die of each state (stopping), in state order."""
        return self.option_table[0][:, 0]

    @abstractmethod
    def _expect(self, values: FloatArray) -> FloatArray:
        """E[values(keep ∪ re-roll)] for every keep: (n_states, b) -> (n_keeps, b)."""

    @abstractmethod
    def _best(self, expected: FloatArray) -> FloatArray:
        """Best keep of every state: (n_keeps, b) -> (n_states, b); may overwrite its input."""

    def _chunks_at_once(self, chunk: int) -> int:
        """How many chunks of `chunk` batch rows `start_value` hands `_advance` at once."""
        return 1

    def _advance(self, values: FloatArray, steps: int) -> FloatArray:
        """V_{r+steps} from V_r, both (n_states, b): `steps` times the best keep's expectation."""
        for _ in range(steps):
            values = self._best(self._expect(values))
        return values


class Transition(NamedTuple):
    """Keep -> outcome state distribution in CSR form: row k is keep k."""

    indptr: IndexArray  # (n_keeps + 1,)
    indices: IndexArray  # (nnz,) outcome state indices
    data: FloatArray  # (nnz,) probabilities; every row sums to 1


class IdenticalDice(DiceSpace):
    """`n_dice` interchangeable dice with faces 1..`n_faces`; states are sorted tuples."""

    def __init__(self, n_dice: int, n_faces: int) -> None:
        if n_dice < 1 or n_faces < 1:
            raise ValueError(f"need at least one die and one face, got {n_dice}×d{n_faces}")
        self.n_dice = n_dice
        self.n_faces = n_faces
        faces = range(1, n_faces + 1)
        levels = [list(combinations_with_replacement(faces, m)) for m in range(n_dice + 1)]
        # Keeps by size, then lexicographic; the last level (size n) is the states.
        self.keeps: tuple[tuple[int, ...], ...] = tuple(k for level in levels for k in level)
        self.n_keeps = len(self.keeps)
        self._offsets = np.cumsum([0] + [len(level) for level in levels])
        self._keep_pos = {k: i for i, k in enumerate(self.keeps)}
        self.states: tuple[tuple[int, ...], ...] = tuple(levels[n_dice])
        self.n_states = len(self.states)
        # _add[m][f]: keep index of each level-m keep + one die showing f+1, for f ≥ 1 (one
        # contiguous index array per face: `np.take` reads it as it is). Adding a 1 needs no
        # index: the keeps (1, *k) open the next level, in the order of the k.
        self._add = [
            [
                np.array([self._keep_pos[tuple(sorted((*k, f)))] for k in levels[m]], np.intp)
                for f in faces[1:]
            ]
            for m in range(n_dice)
        ]
        self._smallest = [_without_smallest(levels[m], self._keep_pos) for m in range(n_dice + 1)]
        self._remove = [
            _removals(levels[m], self._keep_pos, int(self._offsets[m])) for m in range(n_dice + 1)
        ]
        # rows of the one work array `_expect_levels` and `_best_levels` gather into
        self._work_rows = max(len(level) for level in levels)

    def __repr__(self) -> str:
        return f"IdenticalDice({self.n_dice}, {self.n_faces})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IdenticalDice) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    @cached_property
    def probabilities(self) -> FloatArray:
        p = np.array([_multiset_probability(s, self.n_faces) for s in self.states])
        p.flags.writeable = False
        return p

    def index(self, state: Sequence[int]) -> int:
        key = tuple(sorted(state))
        if len(key) != self.n_dice or key not in self._keep_pos:
            raise ValueError(f"{tuple(state)} is not a state of {self!r}")
        return self._keep_pos[key] - int(self._offsets[self.n_dice])

    def state(self, index: int) -> tuple[int, ...]:
        return self.states[index]

    @property
    def stop_keeps(self) -> slice:
        """Keeping all dice: the last level of the keeps, in state order (a slice is fastest)."""
        return slice(int(self._offsets[self.n_dice]), None)

    def keep_index(self, keep: Sequence[int]) -> int:
        """The index of a keep (any sub-multiset, as face values) in (..., n_keeps) arrays."""
        key = tuple(sorted(keep))
        if key not in self._keep_pos:
            raise ValueError(f"{tuple(keep)} is not a keep of {self!r}")
        return self._keep_pos[key]

    def keep_options(self, state: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
        self.index(state)  # validates
        counts = sorted(Counter(state).items())
        options = []
        for taken in product(*(range(c + 1) for _, c in counts)):
            keep = tuple(f for (f, _), t in zip(counts, taken, strict=True) for _ in range(t))
            options.append((keep, self._keep_pos[keep]))
        return options

    @cached_property
    def transition(self) -> Transition:
        """Outcome distribution of every keep after re-rolling the other dice (CSR).

        The solver does not need it (it adds one die at a time); it is for
        callers who want to show or sample what a keep leads to.
        """
        outcomes = [
            [
                (o, _multiset_probability(o, self.n_faces))
                for o in combinations_with_replacement(range(1, self.n_faces + 1), m)
            ]
            for m in range(self.n_dice + 1)
        ]
        indptr, indices, data = [0], [], []
        for keep in self.keeps:
            for outcome, p in outcomes[self.n_dice - len(keep)]:
                indices.append(self.index(keep + outcome))
                data.append(p)
            indptr.append(len(indices))
        return Transition(
            np.array(indptr, dtype=np.intp), np.array(indices, dtype=np.intp), np.array(data)
        )

    def _expect(self, values: FloatArray) -> FloatArray:
        e = np.empty((self.n_keeps, values.shape[1]))
        e[self.stop_keeps] = values
        self._expect_levels(e, np.empty((self._work_rows, values.shape[1])))
        return e

    def _best(self, expected: FloatArray) -> FloatArray:
        return self._best_levels(expected, np.empty((self._work_rows, expected.shape[1])))

    def _advance(self, values: FloatArray, steps: int) -> FloatArray:
        # one keep array for all steps: each step's best keeps are the next step's top level
        # (the same sums and maxima as `_best(_expect(values))` step by step)
        if not steps:
            return values
        e = np.empty((self.n_keeps, values.shape[1]))
        work = np.empty((self._work_rows, values.shape[1]))
        top = e[self.stop_keeps]
        top[...] = values
        for _ in range(steps):
            self._expect_levels(e, work)
            self._best_levels(e, work)
        return top

    def _expect_levels(self, e: FloatArray, work: FloatArray) -> None:
        """Fill the levels below the top of `e` (n_keeps, b) with their expectations, in place.

        Each keep's sum runs over the faces from 1 up, then is divided by the faces: the
        same order as ever (`work` takes the gathered rows; mode 'clip' writes straight into
        it, the default would buffer).
        """
        off = self._offsets
        for m in range(self.n_dice - 1, -1, -1):
            lo, hi = int(off[m]), int(off[m + 1])
            out, gathered = e[lo:hi], work[: hi - lo]
            ones = e[hi : hi + hi - lo]  # each keep with a 1 added
            if not self._add[m]:  # one face
                np.copyto(out, ones)
            for f, add in enumerate(self._add[m]):
                np.take(e, add, axis=0, out=gathered, mode="clip")
                np.add(ones if f == 0 else out, gathered, out=out)
            np.divide(out, self.n_faces, out=out)

    def _best_levels(self, expected: FloatArray, work: FloatArray) -> FloatArray:
        """Best keep inside every keep, level by level upwards, in place; returns the top level.

        The first step of a level takes each keep's smallest face away: its keeps with
        smallest face f are a block, the keeps one die less a block of the level below
        (`_without_smallest`), so it is a few slices; the other steps gather into `work`.
        """
        off = self._offsets
        for m in range(1, self.n_dice + 1):
            level = expected[off[m] : off[m + 1]]
            for block, less in self._smallest[m]:
                np.maximum(expected[block], expected[less], out=expected[block])
            for rows, source in self._remove[m]:
                if rows is None:
                    got = np.take(expected, source, axis=0, out=work[: len(source)], mode="clip")
                    np.maximum(level, got, out=level)
                else:
                    got = np.take(expected, rows, axis=0, out=work[: len(rows)], mode="clip")
                    np.maximum(got, np.take(expected, source, axis=0), out=got)
                    expected[rows] = got
        return expected[off[self.n_dice] :]


def _without_smallest(
    level: Sequence[tuple[int, ...]], keep_pos: dict[tuple[int, ...], int]
) -> list[tuple[slice, slice]]:
    """The first step of `_best` on one level: (keeps, the same keeps without their smallest
    face) as slices, one pair per smallest face.

    In lexicographic order the keeps whose smallest face is f are a block, (f, *k) for the
    keeps k of the level below whose faces are all ≥ f — a block there too, in the same order.
    """
    pairs = []
    for face in sorted({k[0] for k in level if k}):
        first = next(k for k in level if k[0] == face)
        size = sum(1 for k in level if k[0] == face)
        rows, source = keep_pos[first], keep_pos[first[1:]]
        pairs.append((slice(rows, rows + size), slice(source, source + size)))
    return pairs


# A removal step updates only the keeps it concerns (a gather and a scatter) when they
# are fewer than this share of their level, else the whole level in place (measured).
_FEW = 0.45


def _removals(
    level: Sequence[tuple[int, ...]], keep_pos: dict[tuple[int, ...], int], start: int
) -> list[tuple[IndexArray | None, IndexArray]]:
    """The further steps of `_best` on one level of keeps (after `_without_smallest`):
    (rows or None for all, keeps one die less).

    Taking away one die of a face gives the same keep whichever of them it is, so a keep
    needs one step per distinct face, not per die (5×d6: 1,260 row maxima instead of 1,980);
    step j takes each keep's j-th distinct face away (j ≥ 1; the smallest, j = 0, is
    `_without_smallest`) — a keep with fewer faces repeats its first one when the step runs
    over the whole level (a maximum twice changes nothing).
    """
    less = [
        [keep_pos[k[: k.index(f)] + k[k.index(f) + 1 :]] for f in sorted(set(k))] for k in level
    ]
    steps: list[tuple[IndexArray | None, IndexArray]] = []
    for j in range(1, max((len(faces) for faces in less), default=0)):
        rows = np.array([i for i, faces in enumerate(less) if len(faces) > j], dtype=np.intp)
        source = np.array([faces[j] if len(faces) > j else faces[0] for faces in less])
        if len(rows) >= _FEW * len(level):
            steps.append((None, source.astype(np.intp)))
        else:
            steps.append((rows + start, source[rows].astype(np.intp)))
    return steps


class DistinctDice(DiceSpace):
    """Distinguishable dice; die i has faces 0..faces_per_die[i]−1; states in mixed radix."""

    def __init__(self, faces_per_die: Sequence[int]) -> None:
        self.faces_per_die = tuple(int(f) for f in faces_per_die)
        if not self.faces_per_die or min(self.faces_per_die) < 1:
            raise ValueError(f"need at least one die and one face, got {faces_per_die!r}")
        self.n_dice = len(self.faces_per_die)
        self.n_states = math.prod(self.faces_per_die)
        # A keep holds die i at a face 0..F_i−1 or re-rolls it (digit F_i).
        self.keep_shape = tuple(f + 1 for f in self.faces_per_die)
        self.n_keeps = math.prod(self.keep_shape)

    def __repr__(self) -> str:
        return f"DistinctDice({list(self.faces_per_die)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DistinctDice) and self.faces_per_die == other.faces_per_die

    def __hash__(self) -> int:
        return hash(self.faces_per_die)

    @cached_property
    def probabilities(self) -> FloatArray:
        p = np.full(self.n_states, 1.0 / self.n_states)
        p.flags.writeable = False
        return p

    @cached_property  # computed on first use (the base class declares a plain attribute)
    def states(self) -> tuple[tuple[int, ...], ...]:  # type: ignore[override]
        """All states in index order (die 0 most significant)."""
        return tuple(product(*(range(f) for f in self.faces_per_die)))

    def index(self, state: Sequence[int]) -> int:
        if len(state) != self.n_dice or not all(
            0 <= s < f for s, f in zip(state, self.faces_per_die, strict=True)
        ):
            raise ValueError(f"{tuple(state)} is not a state of {self!r}")
        return int(np.ravel_multi_index(tuple(state), self.faces_per_die))

    def state(self, index: int) -> tuple[int, ...]:
        return tuple(int(i) for i in np.unravel_index(index, self.faces_per_die))

    def keep_index(self, keep: Sequence[int | None]) -> int:
        """The index of a keep in (..., n_keeps) arrays: a face per held die, None if re-rolled."""
        if len(keep) != self.n_dice:
            raise ValueError(f"{tuple(keep)} is not a keep of {self!r}")
        digits = tuple(f if k is None else k for k, f in zip(keep, self.faces_per_die, strict=True))
        if not all(0 <= d <= f for d, f in zip(digits, self.faces_per_die, strict=True)):
            raise ValueError(f"{tuple(keep)} is not a keep of {self!r}")
        return int(np.ravel_multi_index(digits, self.keep_shape))

    def keep_options(self, state: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
        self.index(state)  # validates
        options = []
        for mask in range(2**self.n_dice):
            held = tuple(i for i in range(self.n_dice) if mask >> i & 1)
            keep = [s if i in held else None for i, s in enumerate(state)]
            options.append((held, self.keep_index(keep)))
        return options

    @cached_property
    def option_table(self) -> tuple[IndexArray, Labels]:
        """As `DiceSpace.option_table`; a keep's label (the held dice) is alike in every state."""
        held = sorted(
            (tuple(i for i in range(self.n_dice) if m >> i & 1) for m in range(2**self.n_dice)),
            key=lambda h: (-len(h), h),
        )
        faces = np.indices(self.faces_per_die, dtype=np.intp).reshape(self.n_dice, -1)
        table = np.empty((self.n_states, len(held)), dtype=np.intp)
        for col, dice in enumerate(held):
            index = np.zeros(self.n_states, dtype=np.intp)
            for i, f in enumerate(self.faces_per_die):
                index = index * (f + 1) + (faces[i] if i in dice else f)  # digit f: re-rolled
            table[:, col] = index
        return table, (tuple(held),) * self.n_states

    def _expect(self, values: FloatArray) -> FloatArray:
        b = values.shape[1]
        e = np.empty((*self.keep_shape, b))
        faces = [slice(0, f) for f in self.faces_per_die]
        e[tuple(faces)] = values.reshape(*self.faces_per_die, b)
        # After die i, every keep that re-rolls any of dice 0..i is filled in.
        for i, f in enumerate(self.faces_per_die):
            head = [slice(None)] * i
            src = (*head, slice(0, f), *faces[i + 1 :])
            dst = (*head, slice(f, f + 1), *faces[i + 1 :])
            np.mean(e[src], axis=i, keepdims=True, out=e[dst])
        return e.reshape(self.n_keeps, b)

    def _best(self, expected: FloatArray) -> FloatArray:
        b = expected.shape[1]
        e = expected.reshape(*self.keep_shape, b)
        for i, f in enumerate(self.faces_per_die):
            held = (*[slice(None)] * i, slice(0, f))
            rerolled = (*[slice(None)] * i, slice(f, f + 1))
            np.maximum(e[held], e[rerolled], out=e[held])
        return e[tuple(slice(0, f) for f in self.faces_per_die)].reshape(self.n_states, b)

    def _chunks_at_once(self, chunk: int) -> int:
        # The first and last kernels of a step run over blocks of one batch row per keep:
        # 16 rows at once: the Kribbeln catalog in 0.9× the time of 8 (15 MB of keeps).
        return max(1, _WIDE_ROWS // chunk)

    def _advance(self, values: FloatArray, steps: int) -> FloatArray:
        """As `DiceSpace._advance`, bit for bit; after a step the result is C-contiguous.

        The keeps are laid out with die 0 innermost (axes: die n−1 … die 0, then the
        batch), so that the dice a kernel has already worked through are whole inner
        axes and every numpy call runs over long contiguous blocks (`_expect`'s layout
        has die 0 outermost: blocks of a few faces; 0.5× the time on Kribbeln's six
        dice). The same sums in the same order (the faces of die 0, then of die 1 …,
        each sum from face 0 up and then divided), so the same values; the maxima may
        go in any order. Between steps the values stay in this layout: the held
        faces of the keeps are the states.
        """
        if steps == 0:
            return values  # (as it came: the final dot product rounds by the layout)
        faces = self.faces_per_die[::-1]  # axis a is die n−1−a
        b = values.shape[1]
        e = np.empty((*(f + 1 for f in faces), b))
        held = tuple(slice(0, f) for f in faces)
        # (die 0 most significant in the state index: the reversed axes are the transpose)
        e[held] = np.reshape(values.T, (b, *self.faces_per_die)).T
        n = self.n_dice
        for _ in range(steps):
            for axis in range(n - 1, -1, -1):  # die 0 first: E[re-roll S] from S − its last die
                before, f = held[:axis], faces[axis]
                slots: list[tuple[slice | int, ...]] = [(*before, k) for k in range(f + 1)]
                face = [e[at] for at in slots]  # slot f: the die re-rolled
                total = face[f]  # (the outer dice, not yet re-rolled, are held)
                if f == 1:
                    total[...] = face[0]
                    continue
                np.add(face[0], face[1], out=total)
                for k in range(2, f):
                    np.add(total, face[k], out=total)
                np.divide(total, f, out=total)
            for axis in range(n):  # outermost first: the held faces of the dice done
                before, f = held[:axis], faces[axis]
                faced, rerolled = (*before, slice(0, f)), (*before, slice(f, f + 1))
                np.maximum(e[faced], e[rerolled], out=e[faced])
        out = np.empty((*self.faces_per_die, b))
        out[...] = e[held].transpose(*range(n - 1, -1, -1), n)
        return out.reshape(self.n_states, b)


@dataclass(frozen=True, eq=False)
class RollValues:
    """The solved values V_1..V_rolls of one goal (or a batch of goals) on one dice space."""

    space: DiceSpace
    rolls: int
    _values: tuple[FloatArray, ...] = field(repr=False)
    _start: FloatArray = field(repr=False)

    def values(self, r: int) -> FloatArray:
        """V_r, shape (..., n_states): the value of each state with r−1 re-rolls left."""
        if not 1 <= r <= self.rolls:
            raise ValueError(f"r must be in 1..{self.rolls}, got {r}")
        return self._values[r - 1]

    def start_value(self) -> FloatArray:
        """E[V_rolls] over the first full roll, shape (...): the value of a whole turn."""
        return self._start


def solve(
    space: DiceSpace, terminal: npt.ArrayLike, rolls: int, *, chunk: int | None = None
) -> RollValues:
    """Solve up to `rolls` rolls for terminal values of shape (..., n_states).

    `chunk` is the number of batch rows worked on at once (default: as many as
    fit in a core's L2 cache). The result holds all V_r (rolls × batch × n_states
    floats); when only the turn value matters, `start_value` needs no such memory.
    """
    flat, batch = _flatten(space, terminal)
    if rolls < 1:
        raise ValueError(f"rolls must be at least 1, got {rolls}")
    out = np.empty((rolls, *flat.shape))
    start = np.empty(flat.shape[0])
    for lo, hi in _chunks(space, flat.shape[0], chunk):
        v = flat[lo:hi].T
        out[0, lo:hi] = flat[lo:hi]
        for r in range(1, rolls):
            v = _step(space, v)
            out[r, lo:hi] = v.T
        start[lo:hi] = space.probabilities @ v
    values = tuple(out[r].reshape(*batch, space.n_states) for r in range(rolls))
    return RollValues(space, rolls, values, start.reshape(batch))


def start_value(
    space: DiceSpace, terminal: npt.ArrayLike, rolls: int, *, chunk: int | None = None
) -> FloatArray:
    """E[V_rolls] over the first full roll, shape (...), without keeping the V_r.

    The final dot product is taken per `chunk` rows (as `solve` does): a value rounds by
    its row's place in its chunk.
    """
    flat, batch = _flatten(space, terminal)
    if rolls < 1:
        raise ValueError(f"rolls must be at least 1, got {rolls}")
    start = np.empty(flat.shape[0])
    per = chunk_size(space) if chunk is None else chunk
    # the steps may run on several chunks at once; the dot product is still taken chunk by
    # chunk, on a chunk of its own (it rounds by a column's place and the array's layout)
    wide = per * space._chunks_at_once(per) if rolls > 1 else per
    for lo, hi in _chunks(space, flat.shape[0], wide):
        v = space._advance(flat[lo:hi].T, rolls - 1)
        for a, b in _chunks(space, hi - lo, per):
            part = v if b - a == hi - lo else np.ascontiguousarray(v[:, a:b])
            start[lo + a : lo + b] = space.probabilities @ part
    return start.reshape(batch)


def column_start_values(space: DiceSpace, terminal: FloatArray, rolls: int) -> FloatArray:
    """`start_value` for goals laid out by column: terminal (n_states, b) -> (b,).

    The recurrence runs on all b columns at once; the final dot product is taken in the
    chunks `start_value` works through rows in, so b columns give the values
    `start_value` gives the same b rows, bit for bit (the dot product rounds by a
    column's place in its chunk).
    """
    if terminal.ndim != 2 or terminal.shape[0] != space.n_states:
        raise ValueError(f"expected shape ({space.n_states}, b), got {terminal.shape}")
    v = terminal
    for _ in range(rolls - 1):
        v = _step(space, v)
    start = np.empty(terminal.shape[1])
    for lo, hi in _chunks(space, terminal.shape[1], None):
        start[lo:hi] = space.probabilities @ v[:, lo:hi]
    return start


def chunk_size(space: DiceSpace) -> int:
    """The batch rows (or columns) the solver works on at once by default."""
    return max(1, _CHUNK_BYTES // (8 * space.n_keeps))


def expected_after_keep(
    space: DiceSpace, values: npt.ArrayLike, *, chunk: int | None = None
) -> FloatArray:
    """E[values(keep ∪ re-rolled dice)] for every keep: (..., n_states) -> (..., n_keeps).

    Keep indices: `IdenticalDice.keep_index` / `.keeps`, `DistinctDice.keep_index`.
    """
    flat, batch = _flatten(space, values)
    out = np.empty((flat.shape[0], space.n_keeps))
    for lo, hi in _chunks(space, flat.shape[0], chunk):
        out[lo:hi] = space._expect(flat[lo:hi].T).T
    return out.reshape(*batch, space.n_keeps)


def best_keeps(
    space: DiceSpace,
    result: RollValues,
    state: Sequence[int],
    rolls_left: int,
    *,
    batch_index: tuple[int, ...] = (),
) -> list[tuple[tuple[int, ...], float]]:
    """Every distinct keep of `state` with `rolls_left` re-rolls left and its value, best first.

    A keep is the kept faces as a sorted tuple (IdenticalDice) or the held die
    positions (DistinctDice). Keeping all dice means stopping and is worth
    v(state). Order: the tie rule (higher value first; values equal to 12 decimals
    keep more dice first, then the lexicographically smaller keep). `batch_index`
    picks one goal of a batched result.
    """
    if result.space != space:
        raise ValueError(f"result was solved on {result.space!r}, not {space!r}")
    _check_rolls_left(result, rolls_left, 0)
    terminal = result.values(1)[batch_index]
    if terminal.shape != (space.n_states,):
        raise ValueError(f"batch_index {batch_index} does not pick a single goal")
    i = space.index(state)
    if rolls_left == 0:
        return [(space.option_table[1][i][0], float(terminal[i]))]  # only stopping is left
    values = _keep_values(space, result.values(rolls_left)[batch_index], terminal)
    return _ranked(space, values, i)


@dataclass(frozen=True, eq=False)
class Policy:
    """Optimal play of a solved goal (or a batch of goals): every keep's value, solved once.

    `keep_values(r)` (..., n_keeps) is what each keep is worth with r re-rolls left
    (keeping all dice is stopping, worth v(state)); every choice follows the one tie
    rule (see `best_keeps`). Made by `policy()`; asking costs look-ups only.
    """

    result: RollValues
    _keep_values: tuple[FloatArray, ...] = field(repr=False)  # r = 1 .. rolls − 1
    _choices: dict[int, IndexArray] = field(default_factory=dict, repr=False)

    @property
    def space(self) -> DiceSpace:
        return self.result.space

    @property
    def rolls(self) -> int:
        return self.result.rolls

    def keep_values(self, rolls_left: int) -> FloatArray:
        """Each keep's value with `rolls_left` (1..rolls − 1) re-rolls left, (..., n_keeps)."""
        _check_rolls_left(self.result, rolls_left, 1)
        return self._keep_values[rolls_left - 1]

    def choices(self, rolls_left: int) -> IndexArray:
        """The chosen column of `space.option_table` in every state, shape (..., n_states)."""
        if rolls_left not in self._choices:
            values = self.keep_values(rolls_left)
            table = self.space.option_table[0]
            flat = values.reshape(-1, self.space.n_keeps)
            out = np.empty((flat.shape[0], self.space.n_states), dtype=np.intp)
            for row in range(flat.shape[0]):  # one goal at a time: (states × width) floats
                out[row] = _tie_argmax(flat[row][table])
            self._choices[rolls_left] = out.reshape((*values.shape[:-1], self.space.n_states))
        return self._choices[rolls_left]

    def best_keep(
        self, state: Sequence[int], rolls_left: int, batch_index: tuple[int, ...] = ()
    ) -> tuple[int, ...]:
        """The keep to make from `state` (a label as in `best_keeps`); with no re-roll: stop."""
        i = self.space.index(state)
        labels = self.space.option_table[1][i]
        if rolls_left == 0:
            return labels[0]
        return labels[int(self.choices(rolls_left)[batch_index][i])]

    def ranked(
        self, state: Sequence[int], rolls_left: int, batch_index: tuple[int, ...] = ()
    ) -> list[tuple[tuple[int, ...], float]]:
        """Every keep of `state` with its value, best first (the same as `best_keeps`)."""
        if rolls_left == 0:
            return best_keeps(self.space, self.result, state, 0, batch_index=batch_index)
        values = self.keep_values(rolls_left)[batch_index]
        if values.shape != (self.space.n_keeps,):
            raise ValueError(f"batch_index {batch_index} does not pick a single goal")
        return _ranked(self.space, values, self.space.index(state))


def policy(
    space: DiceSpace, terminal: npt.ArrayLike, rolls: int, *, chunk: int | None = None
) -> Policy:
    """Solve once for terminal values (..., n_states) and keep what every keep is worth.

    One pass: the keep values are the expectations the recurrence computes anyway.
    """
    flat, batch = _flatten(space, terminal)
    if rolls < 1:
        raise ValueError(f"rolls must be at least 1, got {rolls}")
    out = np.empty((rolls, *flat.shape))
    keeps = np.empty((rolls - 1, flat.shape[0], space.n_keeps))
    start = np.empty(flat.shape[0])
    stop = space.stop_keeps
    for lo, hi in _chunks(space, flat.shape[0], chunk):
        v = flat[lo:hi].T
        out[0, lo:hi] = flat[lo:hi]
        for r in range(1, rolls):
            expected = space._expect(v)
            block = keeps[r - 1, lo:hi]
            block[...] = expected.T
            block[:, stop] = flat[lo:hi]  # keeping all dice is stopping
            v = space._best(expected)
            out[r, lo:hi] = v.T
        start[lo:hi] = space.probabilities @ v
    values = tuple(out[r].reshape(*batch, space.n_states) for r in range(rolls))
    result = RollValues(space, rolls, values, start.reshape(batch))
    return Policy(result, tuple(k.reshape(*batch, space.n_keeps) for k in keeps))


def column_keep_values(
    space: DiceSpace, terminal: FloatArray, rolls: int
) -> tuple[FloatArray, ...]:
    """Every keep's value for goals laid out by column, with r = 1 .. rolls − 1 re-rolls left.

    `terminal` is (n_states, b), one goal per column; each result is (n_keeps, b) with
    keeping all dice worth stopping — the values of `policy`, bit for bit, in the
    layout the kernels work in. For simulations, which ask each goal about a few
    states only (`pick_keeps`); all b columns are worked on at once.
    """
    values = np.ascontiguousarray(terminal, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] != space.n_states:
        raise ValueError(f"expected shape ({space.n_states}, b), got {values.shape}")
    out = []
    v = values
    for r in range(1, rolls):
        expected = space._expect(v)
        if r < rolls - 1:
            v = space._best(expected.copy())  # (_best overwrites its input)
        expected[space.stop_keeps] = values
        out.append(expected)
    return tuple(out)


def pick_keeps(
    space: DiceSpace, keep_values: FloatArray, columns: IndexArray, states: IndexArray
) -> IndexArray:
    """The best keep index (the tie rule) for each (column of `keep_values`, state) pair.

    `keep_values` is one array of `column_keep_values`; only the pairs asked for are
    ranked, never a whole table.
    """
    table, width = space.option_table[0], keep_values.shape[1]
    # (intp positions: np.take converts any other integer type first, 3× slower)
    columns, states = (np.asarray(a, dtype=np.intp) for a in (columns, states))
    offsets = table * width
    pick = np.empty(len(states), dtype=np.intp)
    # a few thousand pairs at a time: their (pairs × width) work arrays stay in the
    # processor's cache (measured 2× faster than all pairs at once); the same two arrays
    # for every piece (mode 'clip': np.take writes into them directly)
    at = np.empty((min(len(states), _PICK_PAIRS), table.shape[1]), dtype=np.intp)
    values = np.empty(at.shape)
    for lo in range(0, len(states), _PICK_PAIRS):
        part = slice(lo, lo + _PICK_PAIRS)
        n = len(states[part])
        np.take(offsets, states[part], axis=0, out=at[:n], mode="clip")
        at[:n] += columns[part, None]
        np.take(keep_values, at[:n], out=values[:n], mode="clip")
        pick[part] = _tie_argmax(values[:n], scratch=True)
    return table.reshape(-1)[states * table.shape[1] + pick]


def _keep_values(space: DiceSpace, values: FloatArray, stop: FloatArray) -> FloatArray:
    """E[values(keep ∪ re-roll)] per keep, with keeping all dice worth stopping (`stop`)."""
    out = expected_after_keep(space, values)
    out[..., space.stop_keeps] = stop
    return out


def _tie_argmax(values: FloatArray, *, scratch: bool = False) -> IndexArray:
    """Per row, the first column of the best value to 12 decimals (options are in tie order).

    `rint(v · 10**12)` orders and ties values exactly as `np.round(v, 12)` does (that is
    the same number before its last division), one pass cheaper. With `scratch` the
    values are scaled in place (the caller's work array).
    """
    scaled = np.multiply(values, 10.0**_TIE_DECIMALS, out=values if scratch else None)
    return np.argmax(np.rint(scaled, out=scaled), axis=-1)


def _ranked(
    space: DiceSpace, keep_values: FloatArray, state_index: int
) -> list[tuple[tuple[int, ...], float]]:
    table, labels = space.option_table
    mine = labels[state_index]
    values = keep_values[table[state_index, : len(mine)]]
    order = np.argsort(-np.round(values, _TIE_DECIMALS), kind="stable")
    return [(mine[j], float(values[j])) for j in order]


def _check_rolls_left(result: RollValues, rolls_left: int, low: int) -> None:
    if not low <= rolls_left < result.rolls:
        raise ValueError(f"rolls_left must be in {low}..{result.rolls - 1}, got {rolls_left}")


def success_probability(space: DiceSpace, success_mask: npt.ArrayLike, rolls: int) -> float:
    """Probability of ending in a success state with up to `rolls` rolls, playing for it."""
    mask = _mask(space, success_mask)
    return float(start_value(space, mask, rolls))


def single_roll_probability(space: DiceSpace, success_mask: npt.ArrayLike) -> float:
    """Probability that one roll of all dice lands in a success state."""
    return float(space.probabilities @ _mask(space, success_mask))


def _step(space: DiceSpace, values: FloatArray) -> FloatArray:
    """V_r from V_{r−1}, both (n_states, b)."""
    return space._advance(values, 1)


def _flatten(space: DiceSpace, values: npt.ArrayLike) -> tuple[FloatArray, tuple[int, ...]]:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] != space.n_states:
        raise ValueError(f"expected shape (..., {space.n_states}) for {space!r}, got {arr.shape}")
    batch = arr.shape[:-1]
    return arr.reshape(-1, space.n_states), batch


def _chunks(space: DiceSpace, n_rows: int, chunk: int | None) -> Iterator[tuple[int, int]]:
    if chunk is None:
        chunk = chunk_size(space)
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    for lo in range(0, n_rows, chunk):
        yield lo, min(lo + chunk, n_rows)


def _mask(space: DiceSpace, success_mask: npt.ArrayLike) -> FloatArray:
    mask = np.asarray(success_mask, dtype=np.float64)
    if mask.shape != (space.n_states,):
        raise ValueError(f"expected a mask of shape ({space.n_states},), got {mask.shape}")
    return mask


def _multiset_probability(faces: Sequence[int], n_faces: int) -> float:
    """Probability that len(faces) fair n_faces-sided dice show exactly this multiset."""
    ways = math.factorial(len(faces))
    for c in Counter(faces).values():
        ways //= math.factorial(c)
    return ways / n_faces ** len(faces)
