"""Game length: the Markov chain against direct computations, exact races against a joint chain
and against the Monte Carlo."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from generator.koepfchen.analysis import (
    expected_turns,
    race_exact,
    simulate,
    transition,
    turn_pmf,
    turn_stats,
)
from generator.koepfchen.load import load_profile
from generator.koepfchen.sampler import sample_board
from generator.numbers import KOEPFCHEN, reachable_targets


def value_iteration(p: list[float], length: int) -> float:
    """Expected turns from 0 by Gauss–Seidel sweeps of E[i] = 1 + mean over red of the outcome."""
    e = [0.0] * (length + 1)
    for _ in range(100_000):
        change = 0.0
        for i in range(length - 1, -1, -1):
            total = 0.0
            for red in range(1, 7):
                j = min(i + red, length)
                back = max(i - red, 0)
                total += p[j - 1] * e[j] + (1 - p[j - 1]) * e[back]
            new = 1 + total / 6
            change = max(change, abs(new - e[i]))
            e[i] = new
        if change < 1e-11:
            return e[0]
    raise AssertionError("no convergence")


def forward(p: list[float], length: int, turns: int) -> list[float]:
    """P(goal reached at turn t) for t = 0..turns, by pushing position probabilities by hand."""
    dist = {0: 1.0}
    pmf = [0.0]
    for _ in range(turns):
        nxt: dict[int, float] = {}
        done = 0.0
        for pos, mass in dist.items():
            for red in range(1, 7):
                j = min(pos + red, length)
                ok, fail = mass * p[j - 1] / 6, mass * (1 - p[j - 1]) / 6
                if j == length:
                    done += ok
                else:
                    nxt[j] = nxt.get(j, 0.0) + ok
                back = max(pos - red, 0)
                nxt[back] = nxt.get(back, 0.0) + fail
        pmf.append(done)
        dist = nxt
    return pmf


@pytest.fixture(scope="module")
def classic():
    return sample_board(load_profile("classic"), 1)


def test_classic_board_is_the_original(classic) -> None:
    assert classic.targets == tuple(range(1, 41))
    assert [f.index for f in classic.fields] == list(range(1, 41))
    # single-roll odds by counting all 216 ordered rolls
    counts = dict.fromkeys(range(1, 41), 0)
    for roll in product(range(1, 7), repeat=3):
        for t in reachable_targets(roll, KOEPFCHEN) & counts.keys():
            counts[t] += 1
    for f in classic.fields:
        assert f.single_roll == pytest.approx(counts[f.target] / 216, abs=1e-12)
        assert f.single_roll <= f.within <= 1


def test_classic_expected_turns_match_value_iteration(classic) -> None:
    p = list(classic.success)
    exact = expected_turns(p)
    assert exact == pytest.approx(value_iteration(p, 40), rel=1e-9)
    assert round(exact, 4) == 82.2825  # the original board is long: 37–39 are made 15 % of turns


def test_classic_distribution_matches_forward_propagation(classic) -> None:
    p = list(classic.success)
    stats = turn_stats(p)
    by_hand = forward(p, 40, 400)
    cdf = np.cumsum(by_hand)
    assert stats.median == int(np.argmax(cdf >= 0.5))
    assert stats.p90 == int(np.argmax(cdf >= 0.9))
    assert (stats.median, stats.p90) == (62, 171)
    pmf = turn_pmf(p)
    assert np.allclose(pmf[:401], by_hand, atol=1e-14)
    assert pmf.sum() == pytest.approx(1, abs=1e-11)  # propagated until < 1e-12 was left
    assert float(pmf @ np.arange(pmf.size)) == pytest.approx(stats.expected, rel=1e-9)


def test_transition_rows_are_distributions() -> None:
    board = sample_board(load_profile("plus-minus"), 4)
    matrix = transition(board.success)
    assert matrix.shape == (31, 31)
    assert np.allclose(matrix.sum(axis=1), 1)
    assert matrix[30, 30] == 1
    # from the start a failure stays at 0; a success moves 1..6 fields
    assert np.count_nonzero(matrix[0]) <= 7 and matrix[0, 7:].sum() == 0


def joint_race(p: list[float], length: int) -> tuple[float, float]:
    """Two pawns as one chain over (a, b): expected rounds and seat 0's chance to win."""
    n = length
    index = {(a, b): a * n + b for a in range(n) for b in range(n)}
    size = n * n
    q = np.zeros((size, size))
    win0 = np.zeros(size)

    def moves(pos: int):
        for red in range(1, 7):
            j = min(pos + red, length)
            yield j, p[j - 1] / 6
            yield max(pos - red, 0), (1 - p[j - 1]) / 6

    for (a, b), i in index.items():
        for a2, pa in moves(a):
            if a2 == length:
                win0[i] += pa
                continue
            for b2, pb in moves(b):
                if b2 != length:
                    q[i, index[(a2, b2)]] += pa * pb
    eye = np.eye(size)
    rounds = np.linalg.solve(eye - q, np.ones(size))[0]
    wins = np.linalg.solve(eye - q, win0)[0]
    return float(rounds), float(wins)


def test_exact_race_matches_a_joint_chain() -> None:
    board = sample_board(load_profile("plus-minus"), 2)
    p = list(board.success)
    rounds, seat0 = joint_race(p, 30)
    race = race_exact(p, 2)
    assert race.expected_rounds == pytest.approx(rounds, rel=1e-9)
    assert race.win_by_seat[0] == pytest.approx(seat0, abs=1e-9)
    assert sum(race.win_by_seat) == pytest.approx(1, abs=1e-9)
    assert race_exact(p, 1).expected_rounds == pytest.approx(expected_turns(p), rel=1e-9)


def test_a_given_distribution_gives_the_figures_of_its_own(classic) -> None:
    """make_board hands one `turn_pmf` to every figure: the same as each computing its own."""
    p = list(classic.success)
    pmf = turn_pmf(p)
    assert turn_stats(p, pmf) == turn_stats(p)
    for players in range(1, 7):
        assert race_exact(p, players, pmf) == race_exact(p, players)
    other = turn_pmf(list(sample_board(load_profile("einmaleins"), 5).success))
    assert race_exact(p, 3, other) != race_exact(p, 3)  # the distribution given is used


@pytest.mark.parametrize(("name", "seed"), [("classic", 1), ("einmaleins", 5), ("challenge", 2)])
def test_monte_carlo_agrees_with_the_exact_figures(name: str, seed: int) -> None:
    p = list(sample_board(load_profile(name), seed).success)
    games = 20_000
    solo = simulate(p, 1, games, seed=11)
    assert solo.unfinished == 0
    assert abs(solo.mean_rounds - expected_turns(p)) < 4 * solo.se_rounds
    stats = turn_stats(p)
    assert abs(solo.median_rounds - stats.median) <= max(2, 0.05 * stats.median)
    for players in (3, 5):
        sim = simulate(p, players, games, seed=players)
        exact = race_exact(p, players)
        assert abs(sim.mean_rounds - exact.expected_rounds) < 4 * sim.se_rounds
        for got, want in zip(sim.win_by_seat, exact.win_by_seat):
            assert abs(got - want) < 4 * math.sqrt(want * (1 - want) / games)


def test_monte_carlo_is_seeded_and_can_tell_boards_apart() -> None:
    p = list(sample_board(load_profile("einmaleins"), 1).success)
    assert simulate(p, 2, 2000, 5) == simulate(p, 2, 2000, 5)
    easier = [min(1.0, x + 0.2) for x in p]
    a, b = simulate(p, 1, 5000, 1), simulate(easier, 1, 5000, 1)
    assert b.mean_rounds < a.mean_rounds - 10 * max(a.se_rounds, b.se_rounds)
