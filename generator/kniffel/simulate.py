"""The final-score distribution under optimal play: a seeded simulation played by the solved table.

An exact distribution would need a probability per (state, score so far) pair
— hundreds of millions of numbers — so the distribution is estimated by
playing many games at once (numpy, every game of a turn in one batch). Each
turn, the games are sorted by their state (F, u, y) — states whose upper sum
can no longer reach the bonus share one group per (F, y), as in the table — and
per state every keep's value is solved once (`rollhold.column_keep_values`);
every game of the state keeps the dice the tie rule chooses (`rollhold.pick_keeps`)
and writes the best box. The mean of the simulation agrees with the exact
expected score within its standard error (checked by the tests). Same rule set,
games and seed: the same scores, also when a team of processes plays the run (one
draws every turn's dice, each plays a share of the sorted games; a state's keep
values do not depend on which other states are solved beside it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

import numpy as np
import numpy.typing as npt

from generator.core.rollhold import IdenticalDice, column_keep_values, pick_keeps
from generator.core.store import Store
from generator.core.team import ALONE, Member, Team
from generator.kniffel.rules import RuleSet
from generator.kniffel.simsize import check_games
from generator.kniffel.solver import (
    DICE,
    FACES,
    ROLLS,
    Strategy,
    best_boxes,
    dice_space,
    hopeless,
)
from generator.kniffel.table import scores_key

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
# Distinct states solved at once: their keep values (2 × block × 462 floats, 4 MB) stay
# near the processor, and a process needs little fresh memory (measured against 2,048:
# a few % faster alone, a quarter fewer page faults when two processes share the run).
BLOCK = 564
# What solving a state's keep values costs, in games played (measured: ~10 µs a state,
# ~1 µs a game and turn): how a team's members share a turn's games out.
STATE_COST = 10

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


_FACE_CODE = np.array([0] + [(DICE + 1) ** (f - 1) for f in range(1, FACES + 1)], dtype=np.int32)


def _fresh_codes(dice: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Codes of the first 0..5 fresh dice of each roll: (rolls, 5, games) -> (rolls, 6, games).

    (Dice by die, then game, and 32-bit codes (at most 5 · 6**5): half the time of games
    by row and 64 bits.)
    """
    faces = np.take(_FACE_CODE, dice)
    codes = np.zeros((dice.shape[0], DICE + 1, dice.shape[2]), dtype=np.int32)
    for d in range(DICE):  # (a running sum over an axis of 5 is slow in np.cumsum)
        np.add(codes[:, d], faces[:, d], out=codes[:, d + 1])
    return codes


def _roll(
    tables: KeepTables, keep: npt.NDArray[np.intp], fresh: npt.NDArray[np.int32], rows: slice
) -> npt.NDArray[np.intp]:
    """The dice of games `rows` after re-rolling all but `keep`; `fresh`: (6, games) of the roll."""
    at = (DICE - tables.keep_size[keep]) * fresh.shape[1] + np.arange(rows.start, rows.stop)
    return tables.state_of_code[tables.keep_code[keep] + np.take(fresh, at)]


def simulate_scores(
    strategy: Strategy,
    games: int,
    seed: int,
    tick: Callable[[int], None] | None = None,
    *,
    team: Team = ALONE,
) -> IntArray:
    """Final scores of `games` solitaire games played optimally, with random seed `seed`.

    With a `team` of several processes, each plays its share of every turn's sorted
    games (the scores do not depend on who plays a game: every state's keep values are
    solved column by column). `tick(1)` is called after every turn (13 for Kniffel), for
    a progress bar.
    """
    # per game: filled, upper, flag, total, and the key of its state (0 before the first turn)
    play = np.zeros((5, games), dtype=np.int64)
    dice = np.zeros((ROLLS, DICE, games), dtype=np.int8)  # the turn's dice, per roll and die
    order = np.zeros(games, dtype=np.intp)  # the games sorted by state
    keys = np.zeros(games, dtype=np.int64)  # their states, in that order
    scores: IntArray = team.run(
        partial(_play, strategy, games, seed, tick), play, dice, order, keys
    )
    return scores


def _play(
    strategy: Strategy,
    games: int,
    seed: int,
    tick: Callable[[int], None] | None,
    member: Member,
) -> IntArray:
    """Play every turn: member 0 draws the dice while the last one sorts the games by state,
    then each plays its share of the sorted games."""
    game = strategy.game
    tables = keep_tables(dice_space())
    rng = np.random.default_rng(seed)
    play, dice, order, keys = member.arrays
    n_u, n_y = game.n_upper, game.n_flags
    for _turn in range(game.n_boxes):
        if member.index == 0:  # the whole run's dice: the same stream however it is shared
            dice[...] = rng.integers(1, FACES + 1, size=(ROLLS, games, DICE)).transpose(0, 2, 1)
        if member.index == member.size - 1:
            order[...] = np.argsort(play[4])
            np.take(play[4], order, out=keys)
        member.wait()
        mine = _my_rows(member, keys)
        player = order[mine]  # the games this member plays, by state
        turn = np.take(play, player, axis=1)
        _play_turn(strategy, tables, keys[mine], turn[:4], dice, player)
        filled, upper, flag = turn[0], turn[1], turn[2]
        # hopeless upper sums play alike (equal values in the table): one group at u = 0
        turn[4] = (filled * n_u + np.where(hopeless(game, filled, upper), 0, upper)) * n_y + flag
        play[:, player] = turn
        member.wait()  # every game has played the turn
        if tick is not None and member.index == 0:
            tick(1)
    total, upper = play[3], play[1]
    return total + np.where(upper >= game.cap, game.bonus, 0)


def _my_rows(member: Member, keys: IntArray) -> slice:
    """The member's share of the games sorted by state (`keys`): as much work as the others'.

    A state costs as much as STATE_COST games (its keep values are solved once); with one
    member that is every game.
    """
    if member.size == 1:
        return slice(0, len(keys))
    heads = np.ones(len(keys), dtype=np.int64)
    heads[1:] = keys[1:] != keys[:-1]
    cost = np.cumsum(heads) * STATE_COST + np.arange(1, len(keys) + 1)
    cuts = np.searchsorted(cost, cost[-1] * np.arange(member.size + 1) / member.size)
    cuts[-1] = len(keys)
    return slice(int(cuts[member.index]), int(cuts[member.index + 1]))


def _play_turn(
    strategy: Strategy,
    tables: KeepTables,
    key: IntArray,
    turn: IntArray,
    dice: npt.NDArray[np.int8],
    player: npt.NDArray[np.intp],
) -> None:
    """One turn of games sorted by state (`key`): `turn` (filled, upper, flag, total) updated.

    `dice` holds the whole run's dice of the turn, (rolls, 5, games); `player` says which
    game each row plays.
    """
    game, space = strategy.game, dice_space()
    n, n_u, n_y = len(key), game.n_upper, game.n_flags
    filled, upper, flag, total = turn
    fresh = _fresh_codes(np.take(dice, player, axis=2))
    first = np.ones(n, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    heads = np.append(np.flatnonzero(first), n)  # first row of each state, and the end
    column = np.cumsum(first) - 1  # the state's number in this turn
    state = tables.state_of_code[fresh[0, DICE]]  # the first roll: all five dice
    n_states = len(heads) - 1
    is_five = np.zeros(space.n_states, dtype=bool)
    is_five[game.yahtzee_states] = True
    is_upper = np.array(game.faces) > 0
    for lo in range(0, n_states, BLOCK):
        at = heads[lo : min(lo + BLOCK, n_states)]
        rows = slice(int(at[0]), int(heads[min(lo + BLOCK, n_states)]))
        u_key = key[at]
        terminal, _ = strategy.terminal(u_key // (n_u * n_y), u_key // n_y % n_u, u_key % n_y)
        keeps = column_keep_values(space, terminal.T, ROLLS)
        cols = column[rows] - lo
        s = state[rows]
        # many games per state (the first turns): rank every (state, dice) pair once
        every = len(at) * space.n_states
        pairs = np.arange(every) if rows.stop - rows.start > 2 * every else None
        for r in range(1, ROLLS):  # roll r + 1 of the turn: ROLLS − r re-rolls were left
            values = keeps[ROLLS - r - 1]
            if pairs is None:
                keep = pick_keeps(space, values, cols, s)
            else:
                choice = pick_keeps(space, values, pairs // space.n_states, pairs % space.n_states)
                keep = choice[cols * space.n_states + s]
            s = _roll(tables, keep, fresh[r], rows)
        f, u, y = filled[rows], upper[rows], flag[rows]
        box, _ = best_boxes(game, strategy.values, f, u, y, s)
        pts = game.points(box, s, f)
        total[rows] += pts + game.extra * ((y == 1) & is_five[s])
        upper[rows] = np.where(is_upper[box], np.minimum(game.cap, u + pts), u)
        if n_y == 2:
            full = pts == game.rules.boxes[game.yahtzee_box].score
            flag[rows] = np.where(box == game.yahtzee_box, full, y)
        filled[rows] = f | (1 << box)


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
    team: Team = ALONE,
) -> Distribution:
    """The simulated distribution, from `store` or simulated (by `team`) and stored."""

    def valid(arrays: dict[str, np.ndarray]) -> bool:
        counts = arrays["counts"]
        return (
            set(arrays) == {"counts"}
            and counts.ndim == 1
            and counts.dtype.kind in "iu"
            and bool((counts >= 0).all())
            and int(counts.sum()) == games
        )

    def simulate() -> dict[str, np.ndarray]:
        return {"counts": np.bincount(simulate_scores(strategy, games, seed, tick, team=team))}

    arrays = store.arrays("kniffel", scores_key(strategy.rules, games, seed), simulate, valid)
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
    team: Team = ALONE,
) -> SolveReport:
    """Simulate `games` games (or read them from `store`) beside the exact expectation."""
    check_games(games)
    dist = score_distribution(strategy, games, seed, tick, store=store, team=team)
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
