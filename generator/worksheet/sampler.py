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
2. Each slot takes a problem of its score (or an impossible one), from those earlier
   versions used least, so that the version shows as many different targets as
   these problems allow — a matching of slots to targets, so a slot whose score has
   few targets is never left with a target already on the sheet. Only when there
   are fewer targets than slots (level 1: 12 targets; the 24 game: always 24) does a
   target come again, each as rarely as possible. Then the same dice (as a set) are
   avoided where the targets stay so; the rest is a seeded random choice.
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

from generator.core.errors import UserError
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
    """Picks the problems of every version, remembering what earlier versions took."""

    def __init__(self) -> None:
        self.used: Counter[ProblemKey] = Counter()

    def allowed(self, bucket: Sequence[Candidate], slots: int) -> list[Candidate]:
        """The problems of a bucket earlier versions used least, at least `slots` of them."""
        uses = sorted(self.used[c.key] for c in bucket)
        most = uses[min(slots, len(uses)) - 1]
        return [c for c in bucket if self.used[c.key] <= most]

    def deal(self, slots: Sequence[Sequence[Candidate]], rng: random.Random) -> list[Candidate]:
        """One problem per slot, each from its bucket: see `_Matching`."""
        counts = Counter(id(bucket) for bucket in slots)
        allowed = {id(b): self.allowed(b, counts[id(b)]) for b in slots}
        order = {c.key: rng.random() for b in allowed.values() for c in b}
        matching = _Matching([allowed[id(b)] for b in slots], order)
        chosen = matching.solve()
        self.used.update(c.key for c in chosen)
        return chosen


class _Matching:
    """The problems of one version: as many different targets as the slots allow, then
    each target repeated as rarely as possible.

    A slot may take any allowed problem of its bucket, a problem serves one slot, and a
    target at most `cap` slots. With cap 1 this is a bipartite matching (augmenting
    paths find the largest one, so no greedy choice can block a later slot's only
    target); then the cap grows until every slot has a problem. Augmenting paths never
    drop a target once used, so the number of different targets stays the largest.
    Among equals a slot prefers dice not yet on the sheet, then the seeded order.
    """

    def __init__(self, slots: list[list[Candidate]], order: dict[ProblemKey, float]) -> None:
        ranked: dict[int, list[Candidate]] = {}  # a bucket's problems in the seeded order
        for slot in slots:
            if id(slot) not in ranked:
                ranked[id(slot)] = sorted(slot, key=lambda c: order[c.key])
        self.slots = [ranked[id(slot)] for slot in slots]
        self.order = order
        self.of_slot: list[Candidate | None] = [None] * len(slots)
        self.slot_of: dict[ProblemKey, int] = {}
        self.holders: dict[int, set[ProblemKey]] = {}  # target → problems taken
        self.dice: Counter[tuple[int, ...]] = Counter()
        self.cap = 1

    def _take(self, slot: int, c: Candidate) -> None:
        old = self.of_slot[slot]
        if old is not None:
            del self.slot_of[old.key]
            self.holders[old.target].discard(old.key)
            self.dice[old.numbers] -= 1
        self.of_slot[slot] = c
        self.slot_of[c.key] = slot
        self.holders.setdefault(c.target, set()).add(c.key)
        self.dice[c.numbers] += 1

    def _augment(self, slot: int, seen: set[object]) -> bool:
        """Give `slot` a problem (another one if it has one), moving others along a path
        on which every slot, problem and full target appears once."""
        if ("slot", slot) in seen:
            return False
        seen.add(("slot", slot))
        if (current := self.of_slot[slot]) is not None:
            seen.add(current.key)
        ranked = self.slots[slot]
        for fresh_dice in (True, False):  # a free problem with room at its target, if any
            for c in ranked:
                if (
                    c.key not in seen
                    and c.key not in self.slot_of
                    and len(self.holders.get(c.target, ())) < self.cap
                    and (self.dice[c.numbers] == 0 or not fresh_dice)
                ):
                    self._take(slot, c)
                    return True
        for c in ranked:
            if c.key in seen:
                continue
            seen.add(c.key)
            holder = self.slot_of.get(c.key)
            if holder is not None:  # taken: its slot must move to another problem
                if self._augment(holder, seen):
                    self._take(slot, c)
                    return True
                continue
            taken = self.holders.get(c.target, set())
            if len(taken) < self.cap:
                self._take(slot, c)
                return True
            if ("target", c.target) in seen:
                continue
            seen.add(("target", c.target))
            for key in sorted(taken, key=self.order.__getitem__):  # free a place at the target
                other = self.slot_of[key]
                if self._augment(other, seen):
                    self._take(slot, c)
                    return True
        return False

    def solve(self) -> list[Candidate]:
        every = len({c.target for slot in self.slots for c in slot})
        open_slots = list(range(len(self.slots)))
        while open_slots:
            left = []
            for s in open_slots:  # once every target is full, no path can make room
                full = sum(len(h) for h in self.holders.values()) == every * self.cap
                if full or not self._augment(s, set()):
                    left.append(s)
            open_slots = left
            if open_slots:
                targets = len(self.holders) or 1
                self.cap = max(self.cap + 1, 1 + -(-len(open_slots) // targets))
        self._fresh_dice()
        return [c for c in self.of_slot if c is not None]

    def _fresh_dice(self) -> None:
        """Move a slot whose dice are on the sheet twice to other dice, keeping every
        target used and none above the cap."""
        for slot, current in enumerate(self.of_slot):
            if current is None or self.dice[current.numbers] < 2:
                continue
            for c in self.slots[slot]:
                room = c.target == current.target or (
                    len(self.holders.get(c.target, ())) < self.cap
                    and len(self.holders[current.target]) > 1  # no target is lost
                )
                if c.key not in self.slot_of and self.dice[c.numbers] == 0 and room:
                    self._take(slot, c)
                    break


def deal_section(pool: Pool, plan: SectionPlan, versions: int, seed: str) -> list[list[Problem]]:
    """The problems of every version of one section, in print order."""
    focus, rest = _groups(pool)
    by_score: dict[tuple[bool, int], list[Candidate]] = {}
    for c in focus + rest:
        assert c.difficulty is not None
        by_score.setdefault((c.focus, c.difficulty.score), []).append(c)
    impossible_bucket = list(pool.impossible)
    dealer = _Dealer()
    result = []
    for v in range(versions):
        rng = random.Random(f"{seed}/version/{v}")
        slots = [(True, s) for s in plan.focus_profile] + [(False, s) for s in plan.rest_profile]
        rng.shuffle(slots)  # no group or score gets the first pick of targets
        buckets = [by_score[slot] for slot in slots] + [impossible_bucket] * plan.impossible
        chosen = dealer.deal(buckets, rng)
        solvable, impossible = chosen[: len(slots)], chosen[len(slots) :]
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
