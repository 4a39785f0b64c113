"""The roll-and-hold solver against an exact brute force, closed forms and hand-checked keeps."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.rollhold import (
    DiceSpace,
    DistinctDice,
    IdenticalDice,
    best_keeps,
    column_keep_values,
    column_start_values,
    expected_after_keep,
    pick_keeps,
    policy,
    single_roll_probability,
    solve,
    start_value,
    success_probability,
)

TOL = 1e-12

# --- an independent, slow, exact brute force ---------------------------------------------------


def brute_force(
    dice: Sequence[Sequence[int]], goal: Callable[[tuple[int, ...]], Fraction], rolls: int
) -> tuple[Callable[[tuple[int, ...], int], Fraction], Callable[..., Fraction], Fraction]:
    """Exact values by explicit recursion over ordered dice positions.

    `dice[i]` lists the faces of the die at position i. Returns V(state, r) for
    an ordered state with r rolls (r−1 re-rolls left), keep(state, held, r) for
    holding the positions in `held` with r re-rolls left, and the turn value.
    """

    @cache
    def keep(state: tuple[int, ...], held: frozenset[int], rerolls_left: int) -> Fraction:
        free = [i for i in range(len(dice)) if i not in held]
        total, count = Fraction(0), 0
        for outcome in product(*(dice[i] for i in free)):
            new = list(state)
            for i, face in zip(free, outcome, strict=True):
                new[i] = face
            total += value(tuple(new), rerolls_left)
            count += 1
        return total / count

    @cache
    def value(state: tuple[int, ...], r: int) -> Fraction:
        best = Fraction(goal(state))  # stop
        if r == 1:
            return best
        n = len(dice)
        for mask in range(2**n - 1):  # every proper subset of positions to hold
            held = frozenset(i for i in range(n) if mask >> i & 1)
            best = max(best, keep(state, held, r - 1))
        return best

    outcomes = list(product(*dice))
    turn = sum((value(s, rolls) for s in outcomes), Fraction(0)) / len(outcomes)
    return value, keep, turn


def assert_matches_brute_force(space, dice, goal, rolls) -> None:
    """Every V_r of every ordered state, and the turn value, agree to 1e-12."""
    terminal = np.array([float(goal(s)) for s in space.states])
    result = solve(space, terminal, rolls)
    value, _, turn = brute_force(dice, goal, rolls)
    assert abs(float(result.start_value()) - float(turn)) <= TOL
    assert abs(float(start_value(space, terminal, rolls)) - float(turn)) <= TOL
    for state in product(*dice):
        for r in range(1, rolls + 1):
            got = result.values(r)[space.index(state)]
            assert abs(got - float(value(state, r))) <= TOL, (state, r)


# --- the dice spaces -----------------------------------------------------------------------------


def test_identical_dice_states_keeps_and_probabilities():
    space = IdenticalDice(5, 6)
    assert (space.n_states, space.n_keeps) == (252, 462)
    assert list(space.states) == sorted(set(space.states))
    assert all(list(s) == sorted(s) for s in space.states)
    assert space.states[0] == (1, 1, 1, 1, 1) and space.states[-1] == (6, 6, 6, 6, 6)
    assert space.index((3, 1, 2, 5, 4)) == space.index((1, 2, 3, 4, 5))
    assert all(space.state(space.index(s)) == s for s in space.states)
    p = space.probabilities
    assert abs(p.sum() - 1) <= TOL
    assert abs(p[space.index((1, 2, 3, 4, 5))] - 120 / 7776) <= TOL
    assert abs(p[space.index((2, 2, 2, 3, 3))] - 10 / 7776) <= TOL
    with pytest.raises(ValueError):
        space.index((1, 2, 3, 4, 7))
    with pytest.raises(ValueError):
        space.index((1, 2, 3, 4))


def test_distinct_dice_mixed_radix():
    space = DistinctDice([2, 3, 4])
    assert (space.n_states, space.n_keeps) == (24, 3 * 4 * 5)
    assert space.index((1, 2, 3)) == 1 * 12 + 2 * 4 + 3
    assert space.state(23) == (1, 2, 3)
    assert list(space.states) == sorted(product(range(2), range(3), range(4)))
    assert [space.index(s) for s in space.states] == list(range(24))
    assert space.keep_index((None, None, None)) == space.n_keeps - 1
    with pytest.raises(ValueError):
        space.index((2, 0, 0))


def test_identical_transition_rows_are_the_reroll_distribution():
    space = IdenticalDice(4, 5)
    t = space.transition
    row = np.diff(t.indptr)
    assert np.allclose(np.add.reduceat(t.data, t.indptr[:-1]), 1, atol=TOL)
    k = space.keep_index((5, 5, 5))  # one die re-rolled: five outcomes, 1/5 each
    assert row[k] == 5 and np.allclose(t.data[t.indptr[k] : t.indptr[k + 1]], 0.2)
    v = np.random.default_rng(1).random(space.n_states)
    dense = np.zeros((space.n_keeps, space.n_states))
    np.add.at(dense, (np.repeat(np.arange(space.n_keeps), row), t.indices), t.data)
    assert np.allclose(dense @ v, expected_after_keep(space, v), atol=TOL, rtol=0)


# --- against the brute force ---------------------------------------------------------------------


@pytest.mark.parametrize("rolls", [2, 3])
@pytest.mark.parametrize(
    "goal",
    [
        lambda s: Fraction(int(sum(s) >= 15)),
        lambda s: Fraction(int(6 in s and 5 in s)),
        lambda s: Fraction(sum(s)),
    ],
    ids=["sum>=15", "6and5", "sum"],
)
def test_identical_3d6_matches_brute_force(goal, rolls):
    assert_matches_brute_force(IdenticalDice(3, 6), [range(1, 7)] * 3, goal, rolls)


@pytest.mark.parametrize("seed", [0, 1])
def test_distinct_3x4_random_scores_match_brute_force(seed):
    rng = random.Random(seed)
    scores = {s: Fraction(rng.randint(-20, 50)) for s in product(range(4), repeat=3)}
    assert_matches_brute_force(DistinctDice([4, 4, 4]), [range(4)] * 3, scores.__getitem__, 3)


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    identical=st.booleans(),
    rolls=st.integers(1, 3),
)
def test_small_spaces_match_brute_force(data, identical, rolls):
    if identical:
        n, f = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 4))
        space, dice = IdenticalDice(n, f), [range(1, f + 1)] * n
    else:
        faces = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
        space, dice = DistinctDice(faces), [range(f) for f in faces]
    raw = data.draw(st.lists(st.integers(-9, 9), min_size=space.n_states, max_size=space.n_states))
    by_state = dict(zip(space.states, raw, strict=True))

    def goal(s):
        return Fraction(by_state[tuple(sorted(s)) if identical else s])

    assert_matches_brute_force(space, dice, goal, rolls)


# --- closed forms --------------------------------------------------------------------------------


def test_yahtzee_probabilities():
    space = IdenticalDice(5, 6)
    all_equal = np.array([len(set(s)) == 1 for s in space.states])
    assert abs(single_roll_probability(space, all_equal) - 6 / 7776) <= TOL
    assert abs(success_probability(space, all_equal, 1) - 6 / 7776) <= TOL
    assert abs(success_probability(space, all_equal, 3) - 2783176 / 60466176) <= TOL


def test_each_die_rerolled_alone():
    """Avoiding a face: each die independently keeps re-rolling, so P = (1 − (1/F)^R)^n."""
    kribbeln = DistinctDice([6] * 6)
    no_zero = np.array([0 not in s for s in kribbeln.states])
    assert abs(single_roll_probability(kribbeln, no_zero) - (5 / 6) ** 6) <= TOL
    assert abs(success_probability(kribbeln, no_zero, 1) - (5 / 6) ** 6) <= TOL
    assert abs(success_probability(kribbeln, no_zero, 3) - (1 - 6**-3) ** 6) <= TOL
    kniffel = IdenticalDice(5, 6)
    no_one = np.array([1 not in s for s in kniffel.states])
    assert abs(success_probability(kniffel, no_one, 2) - (1 - 6**-2) ** 5) <= TOL


def test_chance_expected_sum():
    """Maximising the sum of 5 dice: each die is re-rolled below 5, then below 4."""
    space = IdenticalDice(5, 6)
    per_die_2 = (3 * 3.5 + 4 + 5 + 6) / 6  # 4.25: keep 4, 5, 6 with one re-roll left
    per_die_3 = (4 * per_die_2 + 5 + 6) / 6  # keep 5, 6 with two re-rolls left
    total = start_value(space, [sum(s) for s in space.states], 3)
    assert abs(float(total) - 5 * per_die_3) <= TOL


# --- batches -------------------------------------------------------------------------------------


@pytest.mark.parametrize("space", [IdenticalDice(4, 6), DistinctDice([3, 4, 5])], ids=repr)
def test_batch_equals_rows(space):
    rng = np.random.default_rng(7)
    terminal = rng.normal(size=(2, 3, space.n_states))
    batched = solve(space, terminal, 3, chunk=4)  # chunks cut across the batch rows
    assert batched.start_value().shape == (2, 3)
    assert batched.values(2).shape == (2, 3, space.n_states)
    lean = start_value(space, terminal, 3, chunk=5)
    keeps = expected_after_keep(space, terminal, chunk=4)
    assert keeps.shape == (2, 3, space.n_keeps)
    for i, j in product(range(2), range(3)):
        one = solve(space, terminal[i, j], 3)
        assert float(batched.start_value()[i, j]) == pytest.approx(
            float(one.start_value()), abs=TOL
        )
        assert lean[i, j] == pytest.approx(float(one.start_value()), abs=TOL)
        for r in (1, 2, 3):
            assert np.allclose(batched.values(r)[i, j], one.values(r), atol=TOL, rtol=0)
        assert np.allclose(keeps[i, j], expected_after_keep(space, terminal[i, j]), atol=TOL)


def _plain_steps(space: DistinctDice, values: np.ndarray, steps: int) -> np.ndarray:
    """The recurrence written out again: per die, a mean over its faces; then per die, a max."""
    faces = space.faces_per_die
    for _ in range(steps):
        e = np.zeros((*(f + 1 for f in faces), values.shape[1]))
        e[tuple(slice(0, f) for f in faces)] = values.reshape(*faces, -1)
        for i, f in enumerate(faces):  # die 0 first, each sum from face 0 up
            at = [slice(None)] * i + [slice(f, f + 1)] + [slice(0, g) for g in faces[i + 1 :]]
            total = np.zeros_like(e[tuple(at)])
            for face in range(f):
                total = total + e[tuple([*at[:i], slice(face, face + 1), *at[i + 1 :]])]
            e[tuple(at)] = total / f
        best = e[tuple(slice(0, f) for f in faces)]
        for rerolled in product((False, True), repeat=len(faces)):
            keep = tuple(slice(f, f + 1) if r else slice(0, f) for f, r in zip(faces, rerolled))
            best = np.maximum(best, e[keep])
        values = best.reshape(space.n_states, -1)
    return values


@settings(max_examples=40, deadline=None)
@given(
    faces=st.lists(st.integers(1, 7), min_size=1, max_size=4),
    width=st.integers(1, 9),
    steps=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_distinct_dice_steps_give_the_plain_recurrence_bit_for_bit(faces, width, steps, seed):
    """The fast layout of `DistinctDice` (die 0 innermost) sums in the plain order: equal bits."""
    space = DistinctDice(faces)
    rng = np.random.default_rng(seed)
    values = rng.random((width, space.n_states)) * (rng.random((width, space.n_states)) < 0.7)
    for v in (values.T, np.ascontiguousarray(values.T)):  # as start_value and solve pass them
        fast = space._advance(v, steps)
        assert np.array_equal(fast, _plain_steps(space, v, steps))
        if steps:
            assert fast.flags.c_contiguous
        assert np.array_equal(fast, DiceSpace._advance(space, v, steps))  # _expect + _best


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_start_value_solving_chunks_together_keeps_every_chunks_values(rolls):
    """`start_value` hands DistinctDice several chunks at once; the turn values must be those
    of solving and summing each chunk on its own, bit for bit."""
    space = DistinctDice([3, 4, 5])
    terminal = np.random.default_rng(9).random((41, space.n_states))
    chunk = 3
    assert space._chunks_at_once(chunk) > 1
    alone = []
    for lo in range(0, len(terminal), chunk):
        v = DiceSpace._advance(space, terminal[lo : lo + chunk].T, rolls - 1)
        alone.extend(space.probabilities @ v)
    assert np.array_equal(start_value(space, terminal, rolls, chunk=chunk), alone)


def test_kribbeln_dice_steps_give_the_plain_recurrence_bit_for_bit():
    space = DistinctDice([6] * 6)
    rng = np.random.default_rng(11)
    values = rng.integers(0, 37, (3, space.n_states)) * (rng.random((3, space.n_states)) < 0.4)
    v = values.astype(np.float64).T
    assert np.array_equal(space._advance(v, 2), _plain_steps(space, v, 2))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rolls=st.integers(1, 4))
def test_values_grow_with_rolls_and_stay_in_range(seed, rolls):
    space = IdenticalDice(3, 6)
    terminal = np.random.default_rng(seed).normal(size=(4, space.n_states))
    result = solve(space, terminal, rolls)
    for r in range(2, rolls + 1):
        assert np.all(result.values(r) >= result.values(r - 1) - TOL)
    assert np.all(result.values(rolls) <= terminal.max(axis=-1, keepdims=True) + TOL)
    assert np.all(result.start_value() >= terminal @ space.probabilities - TOL)


# --- which dice to keep --------------------------------------------------------------------------


def test_best_keeps_yahtzee_by_hand():
    space = IdenticalDice(5, 6)
    result = solve(space, [len(set(s)) == 1 for s in space.states], 3)
    two_left = best_keeps(space, result, (1, 1, 1, 2, 3), 2)
    assert len(two_left) == 4 * 2 * 2  # distinct sub-multisets of 1 1 1 2 3
    assert two_left[0][0] == (1, 1, 1)
    # Two 1s in two re-rolls: both now, one now and one later, or none now and both later.
    assert abs(two_left[0][1] - (36 + 10 * 6 + 25) / 6**4) <= TOL
    assert best_keeps(space, result, (3, 1, 2, 1, 1), 2) == two_left
    one_left = best_keeps(space, result, (1, 1, 1, 2, 3), 1)
    assert one_left[0] == ((1, 1, 1), pytest.approx(1 / 36, abs=TOL))
    assert dict(one_left)[(1, 1, 1, 2, 3)] == 0.0  # stopping never makes five of a kind here
    assert best_keeps(space, result, (1, 1, 1, 2, 3), 0) == [((1, 1, 1, 2, 3), 0.0)]


def test_best_keeps_tie_order():
    """Equal values: more dice kept first, then lexicographic."""
    identical = IdenticalDice(3, 6)
    flat = solve(identical, np.zeros(identical.n_states), 3)
    keeps = [k for k, _ in best_keeps(identical, flat, (2, 1, 2), 2)]
    assert keeps == [(1, 2, 2), (1, 2), (2, 2), (1,), (2,), ()]
    distinct = DistinctDice([4, 4, 4])
    flat = solve(distinct, np.ones(distinct.n_states), 2)
    keeps = [k for k, _ in best_keeps(distinct, flat, (3, 0, 3), 1)]
    assert keeps == [(0, 1, 2), (0, 1), (0, 2), (1, 2), (0,), (1,), (2,), ()]


def test_best_keeps_distinct_match_brute_force():
    rng = random.Random(3)
    dice = [range(3), range(4), range(2)]
    scores = {s: Fraction(rng.randint(0, 30)) for s in product(*dice)}
    space = DistinctDice([3, 4, 2])
    terminal = np.array([float(scores[s]) for s in space.states])
    result = solve(space, terminal, 3)
    value, keep, _ = brute_force(dice, scores.__getitem__, 3)
    for state in product(*dice):
        for rolls_left in (1, 2):
            options = best_keeps(space, result, state, rolls_left)
            assert len(options) == 2**3
            assert abs(options[0][1] - float(value(state, rolls_left + 1))) <= TOL
            for held, got in options:
                want = scores[state] if len(held) == 3 else keep(state, frozenset(held), rolls_left)
                assert abs(got - float(want)) <= TOL, (state, held)
            values = [v for _, v in options]
            assert values == sorted(values, reverse=True)


def test_best_keeps_picks_a_goal_from_a_batch():
    space = IdenticalDice(3, 6)
    terminal = np.random.default_rng(5).random((2, space.n_states))
    batched = solve(space, terminal, 3)
    single = solve(space, terminal[1], 3)
    got = best_keeps(space, batched, (6, 2, 4), 2, batch_index=(1,))
    want = best_keeps(space, single, (6, 2, 4), 2)
    assert [k for k, _ in got] == [k for k, _ in want]
    assert np.allclose([v for _, v in got], [v for _, v in want], atol=TOL)
    with pytest.raises(ValueError):
        best_keeps(space, batched, (6, 2, 4), 2)


# --- misuse --------------------------------------------------------------------------------------


def test_misuse_is_refused():
    space = IdenticalDice(3, 6)
    with pytest.raises(ValueError):
        solve(space, np.zeros(space.n_states + 1), 3)
    with pytest.raises(ValueError):
        solve(space, np.zeros(space.n_states), 0)
    with pytest.raises(ValueError):
        best_keeps(space, solve(space, np.zeros(space.n_states), 2), (1, 2, 3), 2)
    with pytest.raises(ValueError):
        success_probability(space, np.zeros((2, space.n_states), dtype=bool), 3)


# --- the policy: solved once, then looked up; the one tie rule ----------------------------------


def test_policy_choices_are_optimal_against_the_brute_force():
    rng = random.Random(11)
    dice = [range(3), range(4), range(2)]
    scores = {s: Fraction(rng.randint(0, 6)) for s in product(*dice)}  # many exact ties
    space = DistinctDice([3, 4, 2])
    plan = policy(space, np.array([float(scores[s]) for s in space.states]), 3)
    value, keep, _ = brute_force(dice, scores.__getitem__, 3)
    for state in product(*dice):
        for rolls_left in (1, 2):
            held = plan.best_keep(state, rolls_left)
            got = scores[state] if len(held) == 3 else keep(state, frozenset(held), rolls_left)
            assert got == value(state, rolls_left + 1), (state, rolls_left, held)
            # the tie rule: of the exactly best holds, the most dice, then lexicographic
            best = [
                h
                for h, _ in best_keeps(space, plan.result, state, rolls_left)
                if (scores[state] if len(h) == 3 else keep(state, frozenset(h), rolls_left))
                == value(state, rolls_left + 1)
            ]
            assert held == min(best, key=lambda h: (-len(h), h))


def test_policy_looks_up_what_best_keeps_ranks_first():
    space = IdenticalDice(4, 6)
    terminal = np.random.default_rng(2).integers(0, 4, size=(3, space.n_states)) / 3
    plan = policy(space, terminal, 3)
    for goal in range(3):
        single = solve(space, terminal[goal], 3)
        for state in space.states:
            for rolls_left in (1, 2):
                first = best_keeps(space, single, state, rolls_left)[0][0]
                assert plan.best_keep(state, rolls_left, (goal,)) == first
                assert plan.ranked(state, rolls_left, (goal,)) == best_keeps(
                    space, single, state, rolls_left
                )
    # the column layout of simulations: the same keep values, the same choices
    by_column = column_keep_values(space, terminal.T, 3)
    states = np.arange(space.n_states)
    for rolls_left in (1, 2):
        assert np.array_equal(by_column[rolls_left - 1].T, plan.keep_values(rolls_left))
        for goal in range(3):
            sparse = pick_keeps(
                space, by_column[rolls_left - 1], np.full(len(states), goal), states
            )
            dense = space.option_table[0][states, plan.choices(rolls_left)[goal]]
            assert np.array_equal(sparse, dense)


@pytest.mark.parametrize("space", [IdenticalDice(5, 6), DistinctDice([3, 2, 4])])
def test_the_column_layout_gives_the_values_bit_for_bit(space) -> None:
    terminal = np.random.default_rng(4).random((700, space.n_states))  # several chunks
    assert np.array_equal(
        column_start_values(space, terminal.T.copy(), 3), start_value(space, terminal, 3)
    )
    plan = policy(space, terminal[:5], 3)
    for rolls_left, values in enumerate(column_keep_values(space, terminal[:5].T, 3), 1):
        assert np.array_equal(values.T, plan.keep_values(rolls_left))


def test_policy_stops_on_a_tie_and_prefers_the_smaller_faces():
    space = IdenticalDice(3, 6)
    flat = policy(space, np.zeros(space.n_states), 3)
    assert flat.best_keep((2, 1, 2), 2) == (1, 2, 2)  # stopping ties with everything: stop
    # two 6s wanted: keeping a 1 or a 2 beside the 6 is worth the same; the 1 is listed first
    sixes = policy(space, [float(s.count(6) >= 2) for s in space.states], 3)
    assert sixes.best_keep((6, 1, 2), 1) == (6,)
    ranked = [keep for keep, _ in sixes.ranked((6, 1, 2), 1)]
    assert ranked.index((1, 6)) == ranked.index((2, 6)) - 1
    assert sixes.best_keep((1, 2, 3), 2) == ()


@pytest.mark.parametrize("space", [IdenticalDice(5, 6), IdenticalDice(3, 6), IdenticalDice(4, 2)])
def test_the_best_keep_inside_every_keep_is_the_maximum_over_its_sub_keeps(space) -> None:
    # `_best` takes one die of each distinct face away (not each die): against every
    # sub-multiset of every keep, the plain definition
    expected = np.random.default_rng(8).random((space.n_keeps, 300))  # each keep the best somewhere
    best = space._best(expected.copy())
    for i, state in enumerate(space.states):
        subs = {tuple(sorted(sub)) for r in range(len(state) + 1) for sub in combinations(state, r)}
        want = np.max([expected[space.keep_index(sub)] for sub in subs], axis=0)
        assert np.array_equal(best[i], want), state


def _plain_identical_steps(space: IdenticalDice, values: np.ndarray, steps: int) -> np.ndarray:
    """The identical-dice recurrence keep by keep: each expectation summed over the faces
    from 1 up and divided by the faces, each best keep the maximum over all sub-keeps."""
    keeps = [space.keeps[i] for i in range(space.n_keeps)]
    subs = [
        sorted({tuple(sorted(sub)) for r in range(len(k) + 1) for sub in combinations(k, r)})
        for k in keeps
    ]
    for _ in range(steps):
        e = np.zeros((space.n_keeps, values.shape[1]))
        e[space.stop_keeps] = values
        for i in range(space.n_keeps - space.n_states - 1, -1, -1):  # the levels downwards
            total = e[space.keep_index((*keeps[i], 1))].copy()
            for face in range(2, space.n_faces + 1):
                total = total + e[space.keep_index((*keeps[i], face))]
            e[i] = total / space.n_faces
        values = np.array(
            [np.max([e[space.keep_index(sub)] for sub in subs[i]], axis=0) for i in range(len(e))]
        )[space.stop_keeps]
    return values


@pytest.mark.parametrize(
    "space", [IdenticalDice(5, 6), IdenticalDice(3, 6), IdenticalDice(4, 2), IdenticalDice(2, 1)]
)
def test_identical_dice_steps_give_the_plain_recurrence_bit_for_bit(space) -> None:
    # `_advance` works in one keep array (no copy between steps), adds the 1s by a slice and
    # takes the smallest face away by slices: the same sums and maxima as keep by keep
    values = np.random.default_rng(12).random((space.n_states, 37)) * 50
    for steps in (1, 2):
        plain = _plain_identical_steps(space, values, steps)
        assert np.array_equal(space._advance(values, steps), plain)
        assert np.array_equal(DiceSpace._advance(space, values, steps), plain)
    e = space._expect(values)
    assert np.array_equal(e[space.stop_keeps], values)
    assert np.array_equal(space._best(e)[:, :5], _plain_identical_steps(space, values, 1)[:, :5])


def test_many_pairs_are_picked_as_each_alone() -> None:
    # pick_keeps ranks its pairs a few thousand at a time: across those pieces, every pair
    # gets the choice of the dense table (integer values: many ties for the tie rule)
    space = IdenticalDice(5, 6)
    terminal = np.random.default_rng(3).integers(0, 5, size=(40, space.n_states)) / 4
    plan = policy(space, terminal, 3)
    values = column_keep_values(space, terminal.T, 3)[0]
    rng = np.random.default_rng(5)
    goals, states = rng.integers(0, 40, 10_000), rng.integers(0, space.n_states, 10_000)
    dense = space.option_table[0][states, plan.choices(1)[goals, states]]
    assert np.array_equal(pick_keeps(space, values, goals, states), dense)
