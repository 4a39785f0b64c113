"""The problem sampler: equal difficulty profiles, distinct problems, different versions."""

from __future__ import annotations

from collections import Counter

import pytest

from generator.core.errors import UserError
from generator.io.cache import DISK
from generator.worksheet.load import load_family
from generator.worksheet.pool import level_pool
from generator.worksheet.sampler import deal_section, max_solvable, plan_section

WHERE = {"problems": "--problems", "impossible": "--impossible", "versions": "--versions"}


def deal(family: str, level: int, problems: int, impossible: int, versions: int, seed: str = "7"):
    pool = level_pool(load_family(family).level(level), store=DISK)
    plan = plan_section(pool, problems, impossible, versions, seed, WHERE)
    return pool, plan, deal_section(pool, plan, versions, seed)


def scores(version) -> list[int]:
    return [p.difficulty.score for p in version if p.difficulty is not None]


@pytest.mark.parametrize(
    ("family", "level", "problems", "impossible", "versions"),
    [("koepfchen", 1, 20, 0, 3), ("koepfchen", 2, 20, 2, 3), ("koepfchen", 3, 24, 3, 4),
     ("koepfchen", 4, 20, 1, 3), ("24", 1, 12, 0, 3), ("24", 4, 20, 2, 2)],
)  # fmt: skip
def test_versions_share_the_profile_and_nothing_else(family, level, problems, impossible, versions):
    pool, plan, dealt = deal(family, level, problems, impossible, versions)
    assert len(dealt) == versions
    for version in dealt:
        assert len(version) == problems
        keys = [p.key for p in version]
        assert len(set(keys)) == problems, "a problem twice in one version"
        # the same difficulty distribution in every version, and the planned one
        assert sorted(scores(version)) == sorted(plan.profile) == sorted(scores(dealt[0]))
        # easy to hard, impossible ones where the plan put them
        assert scores(version) == sorted(scores(version))
        holes = [i for i, p in enumerate(version) if not p.solvable]
        assert tuple(holes) == plan.impossible_at and len(holes) == impossible
        assert all(i >= problems // 3 for i in holes)
        # the shown numbers are the problem's numbers in some order
        for p in version:
            assert len(p.numbers) in pool.level.numbers.counts
            assert all(1 <= n <= pool.level.numbers.highest for n in p.numbers)
            assert pool.level.targets[0] <= p.target <= pool.level.targets[1]
    assert plan.disjoint
    all_keys = [p.key for version in dealt for p in version]
    assert len(set(all_keys)) == len(all_keys), "versions share a problem"


def test_focus_share_and_spread_over_targets() -> None:
    pool, _, dealt = deal("koepfchen", 2, 20, 0, 3)
    focus = {c.key for c in pool.solvable if c.focus}
    for version in dealt:
        assert sum(p.key in focus for p in version) >= 10  # level 2: half need ×
        assert max(Counter(p.target for p in version).values()) <= 2
    _, _, dealt1 = deal("koepfchen", 1, 20, 0, 3)
    for version in dealt1:  # 12 targets for 20 problems: no target three times
        assert max(Counter(p.target for p in version).values()) <= 2


@pytest.mark.parametrize(("level", "versions"), [(1, 1), (2, 3), (3, 1), (3, 4)])
def test_profile_spreads_over_the_scores_of_the_pool(level: int, versions: int) -> None:
    pool, plan, _ = deal("koepfchen", level, 20, 0, versions)
    for focus, profile in ((True, plan.focus_profile), (False, plan.rest_profile)):
        buckets = Counter(c.difficulty.score for c in pool.solvable if c.focus == focus)
        caps = {s: n // versions for s, n in buckets.items()}
        taken = Counter(profile)
        uncapped = [taken[s] for s in buckets if taken[s] < caps[s]]
        # every score gets as many slots as the others, give or take one, unless it ran out
        if uncapped:
            assert max(taken.values()) - min(uncapped) <= 1, (focus, taken, caps)
    # the easiest score that every version can have a problem of
    scores = Counter(c.difficulty.score for c in pool.solvable)
    assert plan.profile[0] == min(s for s, n in scores.items() if n >= versions)


def test_same_seed_same_problems_other_seed_others() -> None:
    _, _, a = deal("koepfchen", 2, 10, 1, 2, seed="1")
    _, _, b = deal("koepfchen", 2, 10, 1, 2, seed="1")
    _, _, c = deal("koepfchen", 2, 10, 1, 2, seed="2")
    assert a == b
    assert a != c


def test_small_pools_reuse_problems_across_versions_but_versions_differ() -> None:
    pool = level_pool(load_family("24").level(1), store=DISK)
    problems = 40  # 3 × 40 > 97 problems in the pool
    plan = plan_section(pool, problems, 0, 3, "s", WHERE)
    dealt = deal_section(pool, plan, 3, "s")
    assert not plan.disjoint
    sets = [frozenset(p.key for p in v) for v in dealt]
    assert len(set(sets)) == 3
    assert all(len(s) == problems for s in sets)


def test_pool_figures() -> None:
    """How many different problems each level supplies (the README quotes these)."""
    kf, game = load_family("koepfchen"), load_family("24")
    sizes = {
        (f.id, lv.level): (
            len(level_pool(lv, store=DISK).solvable),
            max_solvable(level_pool(lv, store=DISK)),
        )
        for f in (kf, game)
        for lv in f.levels
        if lv.numbers.kind == "dice" or lv.level == 4
    }
    assert sizes[("koepfchen", 1)] == (276, 276)
    assert sizes[("koepfchen", 2)][1] < sizes[("koepfchen", 2)][0]  # the × share limits it
    assert sizes[("koepfchen", 4)] == (98, 98)
    assert sizes[("24", 1)] == (97, 97)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("koepfchen", 4, 99, 0, 1), "can supply at most 98 different solvable problems"),
        (("koepfchen", 4, 98, 0, 2), "2 versions would be the same"),
        (("koepfchen", 1, 5, 6, 1), "6 impossible problems but only 5 problems"),
        (("koepfchen", 1, 0, 0, 1), "at least 1 problem"),
        (("koepfchen", 1, 5, 0, 27), "1–26 versions"),
        (("24", 2, 20, 8, 1), "at most 7 different impossible problems"),
    ],
)
def test_what_the_pool_cannot_supply(args, message) -> None:
    family, level, problems, impossible, versions = args
    pool = level_pool(load_family(family).level(level), store=DISK)
    with pytest.raises(UserError, match=message):
        plan_section(pool, problems, impossible, versions, "1", WHERE)


def most_targets(slots: list[set[int]]) -> int:
    """The most different targets slots can show, each slot one of its targets (a maximum
    bipartite matching by augmenting paths, restated here apart from the sampler)."""
    owner: dict[int, int] = {}

    def place(slot: int, tried: set[int]) -> bool:
        for target in sorted(slots[slot]):
            if target not in tried:
                tried.add(target)
                if target not in owner or place(owner[target], tried):
                    owner[target] = slot
                    return True
        return False

    return sum(place(s, set()) for s in range(len(slots)))


@pytest.mark.parametrize("level", [2, 3, 4])
@pytest.mark.parametrize("seed", ["1", "2", "3", "7"])
def test_a_version_shows_as_many_different_targets_as_its_profile_allows(level, seed) -> None:
    """Version A may take any problem of a slot's score: its targets are all different
    unless no choice could make them so (level 3 used to repeat target 1 three times)."""
    pool, plan, [first, *others] = deal("koepfchen", level, 20, 0, 3, seed)
    targets: dict[tuple[bool, int], set[int]] = {}
    for c in pool.solvable:
        targets.setdefault((c.focus, c.difficulty.score), set()).add(c.target)
    slots = [targets[True, s] for s in plan.focus_profile]
    slots += [targets[False, s] for s in plan.rest_profile]
    assert len({p.target for p in first}) == most_targets(slots)
    if level < 4:  # the pool has room for three versions without a repeated target
        assert len({p.target for p in first}) == 20
        assert all(len({p.target for p in version}) == 20 for version in others)


def test_fewer_targets_than_problems_each_comes_as_rarely_as_possible() -> None:
    _, _, dealt = deal("koepfchen", 1, 20, 2, 3)  # targets 1–12
    for version in dealt:
        counts = Counter(p.target for p in version)
        assert len(counts) == 12 and max(counts.values()) == 2
        dice = Counter(tuple(sorted(p.numbers)) for p in version)
        assert max(dice.values()) == 1, "the same dice twice on a sheet"


def test_a_slot_with_one_target_keeps_it() -> None:
    """Two slots: one can show 1 or 2, the other only 1. Taking 1 for the first (as a
    greedy pick in a lucky order would) leaves the second repeating it."""
    from random import Random

    from generator.worksheet.pool import Candidate
    from generator.worksheet.sampler import _Dealer

    wide = [Candidate((1, 2, k), t, 1, "x", None) for k in (3, 4, 5) for t in (1, 2)]
    narrow = [Candidate((2, 2, k), 1, 1, "x", None) for k in (3, 4)]
    for seed in range(20):
        chosen = _Dealer().deal([wide, narrow], Random(seed))
        assert sorted(c.target for c in chosen) == [1, 2]
