"""Seeded sampling of a board that meets every constraint of its profile, in bounded time.

Two steps, both driven by one `random.Random(seed)`, so a seed always gives the
same board:

1. construct: fields 1..L are filled in order by a depth-first search with
   backtracking. Each field draws from its candidates (targets meeting p_min and
   the curve there, `feasibility.field_candidates`) in shuffled order and keeps
   one that differs from the previous window−1 fields, is not used up
   (`max_uses`), and leaves enough fields for every spread slice still short.
2. tune the game length: while the exact expected number of turns lies outside
   the window, change one random field to a candidate with higher odds (game too
   long) or lower odds (too short), keeping every other constraint, and accept
   the change only if it brings the expectation closer to the window.

Every loop has a fixed budget (search nodes, tuning steps, restarts), so an
unsatisfiable profile fails in about a second with the constraint that could not
be met and the closest board found; a returned board has passed `check_board`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from generator.core.errors import Msg
from generator.koepfchen.analysis import expected_turns
from generator.koepfchen.board import Board, check_board, make_board
from generator.koepfchen.feasibility import field_candidates
from generator.koepfchen.profile import Profile

RESTARTS = 6
NODES = 20_000  # search steps per construction
TUNE_STEPS = 1_500  # tuning steps per construction


@dataclass
class _Closest:
    """The best failure so far, for the error message."""

    key: str = ""
    text: Msg | str = ""
    score: float = float("inf")

    def offer(self, key: str, score: float, text: Msg) -> None:
        if score < self.score:
            self.key, self.score, self.text = key, score, text


def sample_board(profile: Profile, seed: int) -> Board:
    """The board of `profile` for `seed` (the fixed board for index profiles)."""
    if profile.fixed:
        return make_board(profile, list(range(1, profile.length + 1)), None)
    rng = random.Random(seed)
    candidates = field_candidates(profile)
    odds = {t: p for t, (_, p) in profile.odds(tuple(set().union(*candidates))).items()}
    closest = _Closest()
    for _ in range(RESTARTS):
        state = _State(profile, candidates)
        if not state.construct(rng, NODES):
            key = state.blocker()
            closest.offer(
                key,
                # a full board that misses only the length always beats an unfinished one
                1e6 + profile.length - state.deepest,
                Msg("closest_try", filled=state.deepest, fields=profile.length),
            )
            continue
        turns = state.tune(rng, odds, TUNE_STEPS)
        violations = check_board(profile, state.targets)
        if not violations:
            return make_board(profile, state.targets, seed)
        v = violations[0]
        if v.key == "balance.game_length":
            closest.offer(v.key, v.excess, Msg("closest_board", turns=f"{turns:.1f}"))
        else:  # pragma: no cover - construct and tune keep every other constraint
            raise AssertionError(f"sampler broke {v.key}: {v.message}")
    window = profile.balance.game_length
    wanted = Msg("turns_window", low=f"{window.min:g}", high=f"{window.max:g}") if window else ""
    raise profile.error(
        closest.key,
        Msg(
            "no_board_meets",
            value=wanted if closest.key == "balance.game_length" else "",
            seed=seed,
            restarts=RESTARTS,
            text=closest.text,
        ),
    )


class _State:
    """A board under construction with the counts the constraints need."""

    def __init__(self, profile: Profile, candidates: tuple[tuple[int, ...], ...]) -> None:
        self.profile = profile
        self.candidates = candidates
        self.n = profile.length
        self.window = profile.balance.no_repeat_window
        spread = profile.balance.spread
        self.bins = spread.bins if spread else 0
        self.min_per_bin = spread.min_per_bin if spread else 0
        self.max_uses = (spread.max_uses if spread else 0) or self.n
        self.bin_of = {t: profile.bin_of(t) for options in candidates for t in options}
        self.members = [
            sorted(t for t in self.bin_of if self.bin_of[t] == b) for b in range(self.bins)
        ]
        # room[b][k]: fields k..L−1 that could still take a target of slice b
        self.room = [[0] * (self.n + 1) for _ in range(self.bins)]
        for b in range(self.bins):
            for k in range(self.n - 1, -1, -1):
                takes = any(self.bin_of[t] == b for t in candidates[k])
                self.room[b][k] = self.room[b][k + 1] + takes
        # reach[t][k]: how often t can still stand on fields k..L−1 — at most once in any
        # `window` consecutive fields, so at most ceil(span / window) times over the span of
        # the fields that allow it, and never more often than there are such fields
        self.reach: dict[int, list[int]] = {}
        for t in self.bin_of:
            row = [0] * (self.n + 1)
            count, first, last = 0, 0, -1
            for k in range(self.n - 1, -1, -1):
                if t in candidates[k]:
                    count += 1
                    last = max(last, k)
                    first = k
                row[k] = min(count, -(-(last - first + 1) // self.window)) if count else 0
            self.reach[t] = row
        self.targets: list[int] = []
        self.uses: Counter[int] = Counter()
        self.per_bin: Counter[int] = Counter()
        self.deepest = 0
        self.rejected: Counter[str] = Counter()

    def _fits(self, t: int) -> bool:
        k = len(self.targets)
        if t in self.targets[max(0, k - self.window + 1) :]:
            self.rejected["balance.no_repeat_window"] += 1
            return False
        if self.uses[t] >= self.max_uses:
            self.rejected["balance.spread.max_uses"] += 1
            return False
        if self.bins and not self._spread_ok(k, t):
            self.rejected["balance.spread.min_per_bin"] += 1
            return False
        return True

    def capacity(self, b: int, k: int, placed: int | None = None) -> int:
        """How many of fields k..L−1 slice b can still fill (an upper bound).

        Each target may appear at most once in any `window` consecutive fields and at most
        `max_uses` times in all; `placed` is a target just put on field k − 1.
        """
        if k >= self.n:
            return 0
        total = 0
        for t in self.members[b]:
            uses = self.uses[t] + (t == placed)
            total += min(self.max_uses - uses, self.reach[t][k])
        return min(self.room[b][k], total)

    def _spread_ok(self, k: int, placed: int) -> bool:
        """After putting target `placed` on field k, can every slice still be filled?"""
        short_total = 0
        home = self.bin_of[placed]
        for b in range(self.bins):
            count = self.per_bin[b] + (b == home)
            short = self.min_per_bin - count
            if short > 0:
                if short > self.capacity(b, k + 1, placed if b == home else None):
                    return False
                short_total += short
        return short_total <= self.n - k - 1

    def _push(self, t: int) -> None:
        self.targets.append(t)
        self.uses[t] += 1
        self.per_bin[self.bin_of[t]] += 1
        self.deepest = max(self.deepest, len(self.targets))

    def _pop(self) -> None:
        t = self.targets.pop()
        self.uses[t] -= 1
        self.per_bin[self.bin_of[t]] -= 1

    def construct(self, rng: random.Random, budget: int) -> bool:
        """Fill every field by depth-first search; False when the budget runs out."""

        def shuffled(k: int) -> list[int]:
            options = list(self.candidates[k])
            rng.shuffle(options)
            # slices that must be served soon are tried first (the list is used from its end)
            urgent = {b for b in range(self.bins) if self._urgent(k, b)}
            if urgent:
                options.sort(key=lambda t: self.bin_of[t] in urgent)
            return options

        stack = [shuffled(0)]
        steps = 0
        while stack and steps < budget:
            options = stack[-1]
            while options:
                steps += 1
                t = options.pop()
                if self._fits(t):
                    self._push(t)
                    if len(self.targets) == self.n:
                        return True
                    stack.append(shuffled(len(self.targets)))
                    break
            else:
                stack.pop()
                if self.targets:
                    self._pop()
        return False

    def _urgent(self, k: int, b: int) -> bool:
        """Slice b is short and would have little room left after field k."""
        short = self.min_per_bin - self.per_bin[b]
        return short > 0 and short >= self.capacity(b, k + 1) - 1

    def blocker(self) -> str:
        """The constraint that turned candidates away most often."""
        if not self.rejected:
            return "balance.no_repeat_window"
        return self.rejected.most_common(1)[0][0]

    def _movable(self, k: int, t: int) -> bool:
        """May field k (0-based) change to target t without breaking window, uses or spread?"""
        lo, hi = max(0, k - self.window + 1), min(self.n, k + self.window)
        if any(self.targets[i] == t for i in range(lo, hi) if i != k):
            return False
        if self.uses[t] >= self.max_uses:
            return False
        old = self.bin_of[self.targets[k]]
        return old == self.bin_of[t] or self.per_bin[old] > self.min_per_bin

    def tune(self, rng: random.Random, odds: dict[int, float], budget: int) -> float:
        """Move the expected game length into the window; return the expectation reached."""
        p = [odds[t] for t in self.targets]
        turns = expected_turns(p)
        window = self.profile.balance.game_length
        if window is None:
            return turns
        miss = window.distance(turns)
        for _ in range(budget):
            if miss == 0:
                break
            k = rng.randrange(self.n)
            easier = turns > window.max
            options = [
                t
                for t in self.candidates[k]
                if (odds[t] > p[k] if easier else odds[t] < p[k]) and self._movable(k, t)
            ]
            if not options:
                continue
            t = rng.choice(options)
            trial = p.copy()
            trial[k] = odds[t]
            new_turns = expected_turns(trial)
            new_miss = window.distance(new_turns)
            if new_miss < miss:
                old = self.targets[k]
                self.uses[old] -= 1
                self.per_bin[self.bin_of[old]] -= 1
                self.targets[k] = t
                self.uses[t] += 1
                self.per_bin[self.bin_of[t]] += 1
                p, turns, miss = trial, new_turns, new_miss
        return turns
