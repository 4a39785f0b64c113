"""How long a game lasts: the exact Markov chain of one pawn, exact races, and a Monte Carlo check.

One player's game is a Markov chain over the positions 0..L (docs/rules.md §3). A turn
from position i: the red die shows r (1..6, each 1/6); the target field is
j = min(i + r, L); the player makes field j's target with probability p_j (the
3-roll optimal odds) and moves to j, or fails and moves back to max(i − r, 0).
L is absorbing. Then

- the expected number of turns from 0 is one linear solve, (I − Q) x = 1;
- the distribution of the number of turns T comes from pushing the position
  distribution through the chain turn by turn until less than 1e-12 is left;
- pawns never interact, so an N-player race (whole rounds, seat order within a
  round, first to reach L wins) follows exactly from T: the game lasts
  R = min(T_1..T_N) rounds, P(R > t) = S(t)^N with S(t) = P(T > t), and seat s
  (0-based) wins with probability Σ_t P(T = t) · S(t)^s · S(t − 1)^(N − 1 − s).

`simulate` plays seeded races with numpy and is the independent cross-check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

RED_FACES = 6
TAIL = 1e-12  # stop propagating the distribution when less mass than this is left
MAX_TURNS = 500_000  # a bound, so a nearly impossible board never hangs the analysis

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TurnStats:
    """One player's number of turns from start 0 to the goal."""

    expected: float  # exact, from the linear solve
    median: int
    p90: int
    sd: float
    tail: float  # probability mass not yet absorbed where the distribution stopped


@dataclass(frozen=True)
class RaceStats:
    """An N-player race, exact: game length in rounds and each seat's chance to win."""

    players: int
    expected_rounds: float
    median_rounds: int
    win_by_seat: tuple[float, ...]


@dataclass(frozen=True)
class Simulation:
    """A seeded Monte Carlo of N-player races."""

    players: int
    games: int
    seed: int
    mean_rounds: float
    se_rounds: float  # standard error of the mean
    median_rounds: float
    win_by_seat: tuple[float, ...]
    unfinished: int  # games stopped at the round limit (0 unless a board is nearly impossible)


def _chance(success: Sequence[float]) -> FloatArray:
    """Success probability by field number 0..L (field 0 is never a target)."""
    p = np.asarray(success, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or np.any(p < 0) or np.any(p > 1):
        raise ValueError("success must be probabilities for fields 1..L")
    return np.concatenate(([0.0], p))


@lru_cache(maxsize=128)
def _moves(length: int) -> tuple[npt.NDArray[np.intp], ...]:
    """For every (position i < L, red r): the row i, the target field and the field after a miss."""
    rows = np.repeat(np.arange(length), RED_FACES)
    red = np.tile(np.arange(1, RED_FACES + 1), length)
    target = np.minimum(rows + red, length)
    back = np.maximum(rows - red, 0)
    return rows, target, back


def transition(success: Sequence[float]) -> FloatArray:
    """The (L+1)×(L+1) turn matrix over positions 0..L; row L (the goal) is absorbing."""
    p = _chance(success)
    length = p.size - 1
    rows, target, back = _moves(length)
    matrix = np.zeros((length + 1, length + 1))
    np.add.at(matrix, (rows, target), p[target] / RED_FACES)
    np.add.at(matrix, (rows, back), (1 - p[target]) / RED_FACES)
    matrix[length, length] = 1.0
    return matrix


def expected_turns_from(success: Sequence[float]) -> FloatArray:
    """Expected turns to the goal from every position 0..L−1 (exact linear solve)."""
    matrix = transition(success)
    length = matrix.shape[0] - 1
    q = matrix[:length, :length]
    try:
        return np.asarray(np.linalg.solve(np.eye(length) - q, np.ones(length)), dtype=np.float64)
    except np.linalg.LinAlgError:  # a field nobody can ever leave towards the goal
        return np.full(length, np.inf)


def expected_turns(success: Sequence[float]) -> float:
    """Expected turns from the start 0 to the goal L."""
    return float(expected_turns_from(success)[0])


def turn_pmf(
    success: Sequence[float], tail: float = TAIL, max_turns: int = MAX_TURNS
) -> FloatArray:
    """P(T = t) for t = 0, 1, …, until less than `tail` is left (or `max_turns`)."""
    matrix = transition(success)
    length = matrix.shape[0] - 1
    q = matrix[:length, :length]
    into_goal = matrix[:length, length]
    dist = np.zeros(length)
    dist[0] = 1.0
    pmf = [0.0]
    left = 1.0
    # a block of turns per Python step keeps long games (classic: ~80 turns) cheap
    while left >= tail and len(pmf) <= max_turns:
        for _ in range(64):
            pmf.append(float(dist @ into_goal))
            dist = dist @ q
        left = float(dist.sum())
    return np.array(pmf)


def turn_stats(success: Sequence[float], pmf: FloatArray | None = None) -> TurnStats:
    """Exact expectation, median, 90th percentile and spread of one player's turns.

    `pmf` is `turn_pmf(success)` when the caller has it already (it is the slow part).
    """
    pmf = turn_pmf(success) if pmf is None else pmf
    cdf = np.cumsum(pmf)
    t = np.arange(pmf.size)
    mean = float(pmf @ t)
    sd = float(np.sqrt(max(0.0, float(pmf @ (t * t)) - mean * mean)))
    return TurnStats(
        expected=expected_turns(success),
        median=_quantile(cdf, 0.5),
        p90=_quantile(cdf, 0.9),
        sd=sd,
        tail=max(0.0, 1.0 - float(cdf[-1])),
    )


def _quantile(cdf: FloatArray, q: float) -> int:
    """The smallest t with P(T ≤ t) ≥ q (−1 if the distribution stopped short)."""
    hits = np.nonzero(cdf >= q - 1e-12)[0]
    return int(hits[0]) if hits.size else -1


def race_exact(success: Sequence[float], players: int, pmf: FloatArray | None = None) -> RaceStats:
    """Exact figures of a race of `players` pawns (seat 0 moves first in every round).

    `pmf` is `turn_pmf(success)` when the caller has it already.
    """
    if not 1 <= players <= 6:
        raise ValueError("players must be 1–6")
    pmf = turn_pmf(success) if pmf is None else pmf
    survive = 1.0 - np.cumsum(pmf)  # S(t) = P(T > t)
    survive = np.clip(survive, 0.0, 1.0)
    before = np.concatenate(([1.0], survive[:-1]))  # S(t − 1)
    expected = float(np.sum(survive**players))
    wins = tuple(
        float(np.sum(pmf * survive**seat * before ** (players - 1 - seat)))
        for seat in range(players)
    )
    rounds_cdf = 1.0 - survive**players
    return RaceStats(players, expected, _quantile(rounds_cdf, 0.5), wins)


def simulate(success: Sequence[float], players: int, games: int, seed: int) -> Simulation:
    """Play `games` seeded races of `players` pawns; whole rounds, first to reach the goal wins."""
    if not 1 <= players <= 6:
        raise ValueError("players must be 1–6")
    if games < 1:
        raise ValueError("games must be at least 1")
    p = _chance(success)
    length = p.size - 1
    rng = np.random.default_rng(seed)
    pos = np.zeros((games, players), dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    winner = np.full(games, -1, dtype=np.int64)
    active = np.arange(games)
    limit = max(10_000, int(100 * expected_turns(success))) if np.all(p[1:] > 0) else 10_000
    played = 0
    while active.size and played < limit:
        played += 1
        for seat in range(players):
            here = pos[active, seat]
            red = rng.integers(1, RED_FACES + 1, size=active.size)
            target = np.minimum(here + red, length)
            made = rng.random(active.size) < p[target]
            moved = np.where(made, target, np.maximum(here - red, 0))
            pos[active, seat] = moved
            won = moved == length
            if won.any():
                finished = active[won]
                winner[finished] = seat
                rounds[finished] = played
                active = active[~won]
    done = rounds[winner >= 0].astype(np.float64)
    n = max(1, done.size)
    mean = float(done.mean()) if done.size else float("nan")
    se = float(done.std(ddof=1) / np.sqrt(n)) if done.size > 1 else float("nan")
    wins = tuple(float(np.sum(winner == s)) / games for s in range(players))
    return Simulation(
        players=players,
        games=games,
        seed=seed,
        mean_rounds=mean,
        se_rounds=se,
        median_rounds=float(np.median(done)) if done.size else float("nan"),
        win_by_seat=wins,
        unfinished=int(active.size),
    )
