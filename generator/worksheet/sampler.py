"""Drawing the problems of every version from a level's pool.

How a section of N problems (K of them impossible) is dealt to V versions:

1. The difficulty profile: the N − K solvable slots get difficulty scores, spread
   evenly over the scores the pool has (each round gives one slot to every score
   that can still supply one; a last, partial round picks evenly spaced scores). With
   a focus operation, ⌈share · (N − K)⌉ slots come from the problems that need it and
   the rest from the others, each with its own profile. A score supplies at most
   ⌊bucket / V⌋ problems per version, so the versions share no problem; only when
   that cannot fill the slots do versions reuse problems (still no duplicate inside
   a version). Every version gets exactly this profile, so nobody has a harder sheet.
2. Each slot takes the problem of its score used least by earlier versions, then
   with the target and the numbers used least in this version so far (the
   problems spread across targets), then a seeded random choice.
3. The solvable problems are sorted easy to hard (equal scores in seeded order);
   the impossible ones sit at the same seeded positions in every version, never in
   the first third of the section. The numbers of each problem are shown in a
   seeded order, as dice would lie.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import UserError
from generator.worksheet.difficulty import Difficulty
from generator.worksheet.pool import Candidate, Pool, ProblemKey

MAX_VERSIONS = 26  # A–Z


@dataclass(frozen=True)
class Problem:
    """One problem as printed: the numbers in the order shown, and its answer."""

    numbers: tuple[int, ...]
    target: int
    count: int
    simplest: str | None
    difficulty: Difficulty | None

    @property
    def solvable(self) -> bool:
        return self.count > 0

    @property
    def key(self) -> ProblemKey:
        """Equal for the same problem whatever order the numbers are shown in."""
        return (tuple(sorted(self.numbers)), self.target)


@dataclass(frozen=True)
class SectionPlan:
    """What every version of one section gets (the same for all versions)."""

    problems: int
    impossible: int
    focus_profile: tuple[int, ...]  # scores of the slots that need the focus operation
    rest_profile: tuple[int, ...]  # scores of the other solvable slots
    impossible_at: tuple[int, ...]  # 0-based positions of the impossible problems
    disjoint: bool  # no problem is shared between versions

    @property
    def profile(self) -> tuple[int, ...]:
        """The difficulty scores of the solvable problems, easy to hard."""
        return tuple(sorted(self.focus_profile + self.rest_profile))


def _groups(pool: Pool) -> tuple[list[Candidate], list[Candidate]]:
    focus = [c for c in pool.solvable if c.focus]
    rest = [c for c in pool.solvable if not c.focus]
    return focus, rest


def _focus_slots(pool: Pool, solvable: int) -> int:
    focus = pool.level.focus
    return math.ceil(focus.share * solvable - 1e-9) if focus else 0


def max_solvable(pool: Pool) -> int:
    """The most different solvable problems one version of this level can have."""
    focus, rest = _groups(pool)
    best = 0
    for m in range(len(pool.solvable) + 1):
        f = _focus_slots(pool, m)
        if f <= len(focus) and m - f <= len(rest):
            best = m
    return best


def _spread(caps: dict[int, int], slots: int) -> list[int]:
    """`slots` scores, evenly over the scores with capacity left (see the module docstring)."""
    taken: Counter[int] = Counter()
    while sum(taken.values()) < slots:
        open_scores = sorted(s for s, cap in caps.items() if taken[s] < cap)
        need = slots - sum(taken.values())
        if not open_scores:
            raise AssertionError("the profile asks for more problems than the pool holds")
        if need >= len(open_scores):
            taken.update(open_scores)
        else:
            step = len(open_scores) / need
            taken.update(open_scores[int((i + 0.5) * step)] for i in range(need))
    return sorted(taken.elements())


def _profile(group: Sequence[Candidate], slots: int, versions: int) -> tuple[list[int], bool]:
    """The scores of `slots` slots drawn from `group`, and whether versions can be disjoint."""
    buckets = Counter(c.difficulty.score for c in group if c.difficulty is not None)
    caps = {s: n // versions for s, n in buckets.items()}
    disjoint = sum(caps.values()) >= slots
    return _spread(caps if disjoint else dict(buckets), slots), disjoint


def plan_section(
    pool: Pool,
    problems: int,
    impossible: int,
    versions: int,
    seed: str,
    where: dict[str, str],
) -> SectionPlan:
    """Check the counts against the pool and fix the profile and the impossible positions.

    `where` names the option or spec key of "problems", "impossible" and "versions" for
    messages. Raises `UserError` when the pool cannot supply what is asked.
    """
    level = pool.level
    name = level.label
    if problems < 1:
        raise UserError(f"expected at least 1 problem, found {problems}", where=where["problems"])
    if impossible < 0:
        raise UserError(f"expected 0 or more, found {impossible}", where=where["impossible"])
    if impossible > problems:
        raise UserError(
            f"{impossible} impossible problems but only {problems} problems "
            f"(expected at most {problems})",
            where=where["impossible"],
        )
    if not 1 <= versions <= MAX_VERSIONS:
        raise UserError(
            f"expected 1–{MAX_VERSIONS} versions (A–Z), found {versions}", where=where["versions"]
        )
    solvable = problems - impossible
    most = max_solvable(pool)
    if solvable > most:
        extra = f" with {impossible} impossible ones" if impossible else ""
        raise UserError(
            f"{name} can supply at most {most} different solvable problems, "
            f"found {problems} problems{extra}",
            where=where["problems"],
        )
    if impossible > len(pool.impossible):
        raise UserError(
            f"{name} can supply at most {len(pool.impossible)} different impossible problems, "
            f"found {impossible}",
            where=where["impossible"],
        )
    focus, rest = _groups(pool)
    n_focus = _focus_slots(pool, solvable)
    if versions > 1 and (n_focus, solvable - n_focus) == (len(focus), len(rest)) and solvable:
        raise UserError(
            f"{name} has exactly {solvable} solvable problems, so {versions} versions would be "
            f"the same (expected at most {solvable - 1} problems)",
            where=where["problems"],
        )
    focus_profile, focus_disjoint = _profile(focus, n_focus, versions)
    rest_profile, rest_disjoint = _profile(rest, solvable - n_focus, versions)
    impossible_disjoint = impossible * versions <= len(pool.impossible)
    rng = random.Random(f"{seed}/positions")
    first = problems // 3 if problems - problems // 3 >= impossible else 0
    positions = tuple(sorted(rng.sample(range(first, problems), impossible)))
    return SectionPlan(
        problems=problems,
        impossible=impossible,
        focus_profile=tuple(focus_profile),
        rest_profile=tuple(rest_profile),
        impossible_at=positions,
        disjoint=focus_disjoint and rest_disjoint and impossible_disjoint,
    )


class _Dealer:
    """Picks the problems of one version, remembering what earlier versions took."""

    def __init__(self) -> None:
        self.used: Counter[ProblemKey] = Counter()

    def pick(
        self,
        candidates: Sequence[Candidate],
        chosen: set[ProblemKey],
        targets: Counter[int],
        numbers: Counter[tuple[int, ...]],
        rng: random.Random,
    ) -> Candidate:
        best = min(
            (c for c in candidates if c.key not in chosen),
            key=lambda c: (self.used[c.key], targets[c.target], numbers[c.numbers], rng.random()),
        )
        chosen.add(best.key)
        targets[best.target] += 1
        numbers[best.numbers] += 1
        return best


def deal_section(pool: Pool, plan: SectionPlan, versions: int, seed: str) -> list[list[Problem]]:
    """The problems of every version of one section, in print order."""
    focus, rest = _groups(pool)
    by_score: dict[tuple[bool, int], list[Candidate]] = {}
    for c in focus + rest:
        assert c.difficulty is not None
        by_score.setdefault((c.focus, c.difficulty.score), []).append(c)
    dealer = _Dealer()
    result = []
    for v in range(versions):
        rng = random.Random(f"{seed}/version/{v}")
        chosen: set[ProblemKey] = set()
        targets: Counter[int] = Counter()
        numbers: Counter[tuple[int, ...]] = Counter()
        slots = [(True, s) for s in plan.focus_profile] + [(False, s) for s in plan.rest_profile]
        rng.shuffle(slots)  # no group or score gets the first pick of targets
        solvable = [dealer.pick(by_score[slot], chosen, targets, numbers, rng) for slot in slots]
        impossible = [
            dealer.pick(pool.impossible, chosen, targets, numbers, rng)
            for _ in range(plan.impossible)
        ]
        dealer.used.update(c.key for c in solvable + impossible)
        solvable.sort(key=lambda c: (c.difficulty.score if c.difficulty else 0, rng.random()))
        ordered: list[Candidate] = []
        holes = iter(impossible)
        rest_iter = iter(solvable)
        for position in range(plan.problems):
            ordered.append(next(holes) if position in plan.impossible_at else next(rest_iter))
        result.append([_shown(c, rng) for c in ordered])
    return result


def _shown(candidate: Candidate, rng: random.Random) -> Problem:
    numbers = list(candidate.numbers)
    rng.shuffle(numbers)
    return Problem(
        numbers=tuple(numbers),
        target=candidate.target,
        count=candidate.count,
        simplest=candidate.simplest,
        difficulty=candidate.difficulty,
    )
