"""The final-score distribution under optimal play: a seeded simulation played by the solved table.

An exact distribution would need a probability per (state, score so far) pair
— hundreds of millions of numbers — so the distribution is estimated by
playing many games at once (numpy, every game of a turn in one batch). Each
turn, the games are grouped by their state (F, u, y) — states whose upper sum
can no longer reach the bonus share one group per (F, y), as in the table — and
per group the turn's `rollhold.Policy` is made once; every game of the group
keeps the dice the policy chooses (its tie rule) and writes the best box. The
mean of the simulation agrees with the exact expected score within its standard
error (checked by the tests). Same rule set, games and seed: the same scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from generator.core.rollhold import IdenticalDice, policy
from generator.kniffel.rules import RuleSet
from generator.kniffel.simsize import check_games
from generator.kniffel.solver import (
    DICE,
    FACES,
    ROLLS,
    SOLVER_VERSION,
    Strategy,
    best_boxes,
    dice_space,
    hopeless,
    rules_fingerprint,
)
from generator.store import Store, key_for

# 3: keeps from rollhold.Policy (its tie rule) instead of the first exact maximum
SIMULATION_VERSION = 3
PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
# Distinct states solved at once (the V_r of a block: 3 × block × 252 floats).
BLOCK = 2048

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class KeepTables:
    """Lookup tables for rolling many games at once on 5×d6.

    A dice multiset is coded as the base-6 number of its face counts, so adding
    a die showing f adds 6**(f−1) to the code.
    """

    keep_code: npt.NDArray[np.int64]  # (keeps,): code of each keep
    keep_size: npt.NDArray[np.int64]  # (keeps,): dice kept
    state_of_code: npt.NDArray[np.intp]  # code of five dice -> state index


def _code(dice: tuple[int, ...]) -> int:
    return sum((DICE + 1) ** (f - 1) for f in dice)


@cache
def keep_tables(space: IdenticalDice) -> KeepTables:
    state_of_code = np.full((DICE + 1) ** FACES, -1, dtype=np.intp)
    for i, s in enumerate(space.states):
        state_of_code[_code(s)] = i
    return KeepTables(
        np.array([_code(k) for k in space.keeps], dtype=np.int64),
        np.array([len(k) for k in space.keeps], dtype=np.int64),
        state_of_code,
    )


_FACE_CODE = np.array([0] + [(DICE + 1) ** (f - 1) for f in range(1, FACES + 1)])


def _fresh_codes(dice: IntArray) -> IntArray:
    """Per roll and game, the codes of its first 0..5 fresh dice: shape (..., DICE + 1)."""
    codes = np.zeros((*dice.shape[:-1], DICE + 1), dtype=np.int64)
    np.cumsum(_FACE_CODE[dice], axis=-1, out=codes[..., 1:])
    return codes


def _roll(tables: KeepTables, keep: npt.NDArray[np.intp], fresh: IntArray) -> npt.NDArray[np.intp]:
    """Dice states after re-rolling everything but `keep`; `fresh` from `_fresh_codes`."""
    rerolled = np.take_along_axis(fresh, (DICE - tables.keep_size[keep])[:, None], axis=1)
    return tables.state_of_code[tables.keep_code[keep] + rerolled[:, 0]]


def simulate_scores(
    strategy: Strategy, games: int, seed: int, tick: Callable[[int], None] | None = None
) -> IntArray:
    """Final scores of `games` solitaire games played optimally, with random seed `seed`.

    `tick(1)` is called after every turn (13 for Kniffel), for a progress bar.
    """
    game = strategy.game
    space = dice_space()
    tables = keep_tables(space)
    rng = np.random.default_rng(seed)
    n_u, n_y = game.n_upper, game.n_flags
    filled = np.zeros(games, dtype=np.int64)
    upper = np.zeros(games, dtype=np.int64)
    flag = np.zeros(games, dtype=np.int64)
    total = np.zeros(games, dtype=np.int64)
    is_five = np.zeros(space.n_states, dtype=bool)
    is_five[game.yahtzee_states] = True
    for _turn in range(game.n_boxes):
        fresh = _fresh_codes(rng.integers(1, FACES + 1, size=(ROLLS, games, DICE)))
        state = _roll(tables, np.zeros(games, dtype=np.intp), fresh[0])  # keep 0 = keep nothing
        # hopeless upper sums play alike (equal values in the table): one group at u = 0
        key = (filled * n_u + np.where(hopeless(game, filled, upper), 0, upper)) * n_y + flag
        unique, slot = np.unique(key, return_inverse=True)
        order = np.argsort(slot, kind="stable")
        starts = np.searchsorted(slot[order], np.arange(0, len(unique) + BLOCK, BLOCK))
        for b, lo in enumerate(range(0, len(unique), BLOCK)):
            u_key = unique[lo : lo + BLOCK]
            terminal, _ = strategy.terminal(u_key // (n_u * n_y), u_key // n_y % n_u, u_key % n_y)
            plan = policy(space, terminal, ROLLS)
            idx = order[starts[b] : starts[b + 1]]
            local = slot[idx] - lo
            s = state[idx]
            for r in range(1, ROLLS):  # roll r + 1 of the turn: ROLLS − r re-rolls were left
                s = _roll(tables, plan.keep_indices(local, s, ROLLS - r), fresh[r, idx])
            f = filled[idx]
            box, _ = best_boxes(game, strategy.values, f, upper[idx], flag[idx], s)
            pts = game.points(box, s, f)
            total[idx] += pts + game.extra * ((flag[idx] == 1) & is_five[s])
            is_upper = np.array(game.faces)[box] > 0
            upper[idx] = np.where(is_upper, np.minimum(game.cap, upper[idx] + pts), upper[idx])
            if n_y == 2:
                ybox = box == game.yahtzee_box
                full = pts == game.rules.boxes[game.yahtzee_box].score
                flag[idx] = np.where(ybox, full, flag[idx])
            filled[idx] = f | (1 << box)
        if tick is not None:
            tick(1)
    return total + np.where(upper >= game.cap, game.bonus, 0)


@dataclass(frozen=True)
class Distribution:
    """Final scores of a simulation, as counts per score, and what they tell."""

    counts: npt.NDArray[np.int64]  # counts[s]: games that ended with s points
    seed: int

    @property
    def games(self) -> int:
        return int(self.counts.sum())

    @property
    def mean(self) -> float:
        scores = np.arange(len(self.counts))
        return float((scores * self.counts).sum() / self.games)

    @property
    def sd(self) -> float:
        """Sample standard deviation (n − 1)."""
        scores = np.arange(len(self.counts))
        squares = float((self.counts * (scores - self.mean) ** 2).sum())
        return (squares / (self.games - 1)) ** 0.5

    @property
    def standard_error(self) -> float:
        return self.sd / self.games**0.5

    @property
    def minimum(self) -> int:
        return int(np.nonzero(self.counts)[0][0])

    @property
    def maximum(self) -> int:
        return int(np.nonzero(self.counts)[0][-1])

    def percentile(self, p: float) -> int:
        """The smallest score that at least p % of the games do not exceed."""
        cumulative = np.cumsum(self.counts)
        return int(np.searchsorted(cumulative, p / 100 * self.games - 1e-9))

    def summary(self) -> dict[str, object]:
        """Every figure as plain numbers (for JSON and manifests)."""
        return {
            "method": "simulation",
            "games": self.games,
            "seed": self.seed,
            "mean": self.mean,
            "sd": self.sd,
            "standard_error": self.standard_error,
            "min": self.minimum,
            "max": self.maximum,
            "percentiles": [{"p": p, "score": self.percentile(p)} for p in PERCENTILES],
        }


def score_distribution(
    strategy: Strategy,
    games: int,
    seed: int,
    tick: Callable[[int], None] | None = None,
    *,
    store: Store,
) -> Distribution:
    """The simulated distribution, from `store` or simulated and stored."""
    key = key_for(
        "kniffel-scores",
        SOLVER_VERSION,
        SIMULATION_VERSION,
        rules_fingerprint(strategy.rules),
        games,
        seed,
    )

    def valid(arrays: dict[str, np.ndarray]) -> bool:
        counts = arrays["counts"]
        return (
            set(arrays) == {"counts"}
            and counts.ndim == 1
            and counts.dtype.kind in "iu"
            and bool((counts >= 0).all())
            and int(counts.sum()) == games
        )

    arrays = store.arrays(
        "kniffel",
        key,
        lambda: {"counts": np.bincount(simulate_scores(strategy, games, seed, tick))},
        valid,
    )
    return Distribution(arrays["counts"].astype(np.int64), seed)


@dataclass(frozen=True)
class SolveReport:
    """What `dicesheets kniffel solve` reports: the exact expectation and the simulated spread."""

    rules: RuleSet
    expected_score: float  # exact, from the solved table
    distribution: Distribution  # simulated

    def to_json(self) -> dict[str, object]:
        """The JSON of `kniffel solve --json` (made at the edge)."""
        rules = self.rules
        return {
            "rules": rules.id,
            "rules_file": rules.source,
            "joker": rules.joker,
            "extra_yahtzee_bonus": rules.extra_yahtzee_bonus,
            "expected_score": self.expected_score,
            "expected_score_method": "exact",
            "distribution": self.distribution.summary(),
        }


def solve_report(
    strategy: Strategy,
    games: int,
    seed: int,
    tick: Callable[[int], None] | None = None,
    *,
    store: Store,
) -> SolveReport:
    """Simulate `games` games (or read them from `store`) beside the exact expectation."""
    check_games(games)
    dist = score_distribution(strategy, games, seed, tick, store=store)
    return SolveReport(strategy.rules, strategy.expected_score(), dist)


def format_report(report: SolveReport) -> str:
    """The report as a few lines for the terminal."""
    rules, dist = report.rules, report.distribution
    pct = " | ".join(f"{p}%: {dist.percentile(p)}" for p in PERCENTILES)
    return "\n".join(
        [
            f"rules {rules.id} (joker: {rules.joker}, extra bonus: {rules.extra_yahtzee_bonus})",
            f"optimal expected score (exact): {report.expected_score:.6f}",
            f"simulation of {dist.games} games (seed {dist.seed}): mean "
            f"{dist.mean:.2f} ± {dist.standard_error:.2f}, sd {dist.sd:.2f}, "
            f"min {dist.minimum}, max {dist.maximum}",
            f"percentiles: {pct}",
        ]
    )
