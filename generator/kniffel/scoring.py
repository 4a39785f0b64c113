"""The Kniffel/Yahtzee scoring engine: pure functions of a roll, a box and the boxes already filled.

Joker rules (Yahtzee rule sets only), applied when five equal dice are rolled
and the Yahtzee box is already filled (with 50 or 0):
- forced (Hasbro): the matching upper box must be used if it is open; else any
  open lower box scores its full value; else a zero goes into an upper box;
- free (the "free choice joker" of the published 254.5896 figure): any open box
  may be used; Full House and the straights score their full value only when the
  matching upper box is already filled, otherwise their own pattern (0).
The extra bonus (e.g. 100) is paid for five equal dice only while the Yahtzee
box holds its full score, whichever box the roll goes into.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from generator.kniffel.rules import Box, RuleSet

Roll = tuple[int, ...]


def _longest_run(roll: Iterable[int]) -> int:
    faces = sorted(set(roll))
    best = run = 1
    for a, b in pairwise(faces):
        run = run + 1 if b == a + 1 else 1
        best = max(best, run)
    return best


def raw_score(roll: Roll, cat: Box) -> int:
    """The score of `roll` in `cat` by the box's own pattern, without jokers."""
    # (counts by `tuple.count`, not a Counter: the coach asks ~3,000 times per answer)
    kind = cat.kind
    if kind == "upper":
        return cat.face * roll.count(cat.face)
    if kind == "of_a_kind":
        return sum(roll) if max(map(roll.count, set(roll))) >= cat.count else 0
    if kind == "full_house":
        return cat.score if sorted(map(roll.count, set(roll))) == [2, 3] else 0
    if kind == "straight":
        return cat.score if _longest_run(roll) >= cat.length else 0
    if kind == "yahtzee":
        return cat.score if len(set(roll)) == 1 and len(roll) == 5 else 0
    if kind == "chance":
        return sum(roll)
    raise ValueError(f"unknown box kind {kind}")  # pragma: no cover


def is_yahtzee(roll: Roll) -> bool:
    return len(roll) == 5 and len(set(roll)) == 1


def joker_active(roll: Roll, rules: RuleSet, filled: Mapping[str, int]) -> bool:
    """True when the roll is an extra Yahtzee and the rule set's joker applies."""
    ycat = rules.yahtzee_box
    return rules.joker != "none" and ycat is not None and is_yahtzee(roll) and ycat.id in filled


def allowed_boxes(roll: Roll, rules: RuleSet, filled: Mapping[str, int]) -> list[Box]:
    """The open boxes this roll may be written into (the forced joker narrows the choice)."""
    open_cats = [c for c in rules.boxes if c.id not in filled]
    if rules.joker == "forced" and joker_active(roll, rules, filled):
        upper = [c for c in open_cats if c.kind == "upper" and c.face == roll[0]]
        if upper:
            return upper
        lower = [c for c in open_cats if c.section == "lower"]
        if lower:
            return lower
    return open_cats


def score(roll: Roll, cat: Box, rules: RuleSet, filled: Mapping[str, int] | None = None) -> int:
    """Points written into box `cat` for `roll`, given the boxes already `filled` (id → points).

    Raises ValueError if the box is filled or the forced joker does not allow it.
    """
    filled = filled or {}
    if cat.id in filled:
        raise ValueError(f"box '{cat.id}' is already filled")
    if cat not in allowed_boxes(roll, rules, filled):
        raise ValueError(f"the joker rule does not allow box '{cat.id}' for this roll")
    if joker_active(roll, rules, filled) and cat.kind in ("full_house", "straight"):
        matching = [c for c in rules.upper if c.face == roll[0]]
        if all(c.id in filled for c in matching):
            return cat.score
    return raw_score(roll, cat)


def extra_bonus(roll: Roll, rules: RuleSet, filled: Mapping[str, int]) -> int:
    """The extra-Yahtzee bonus paid for this roll (0 under Kniffel rules)."""
    ycat = rules.yahtzee_box
    if not rules.has_yahtzee_bonus or ycat is None or not is_yahtzee(roll):
        return 0
    return rules.extra_yahtzee_bonus if filled.get(ycat.id) == ycat.score else 0


@dataclass(frozen=True)
class Totals:
    upper_sum: int
    bonus: int
    upper_total: int
    lower_total: int
    yahtzee_bonus: int
    grand_total: int


def totals(filled: Mapping[str, int], rules: RuleSet, yahtzee_bonus_count: int = 0) -> Totals:
    """The sum lines of a (possibly partly) filled game column."""
    upper_sum = sum(filled.get(c.id, 0) for c in rules.upper)
    bonus = rules.bonus_value if upper_sum >= rules.bonus_threshold else 0
    lower = sum(filled.get(c.id, 0) for c in rules.lower)
    ybonus = yahtzee_bonus_count * rules.extra_yahtzee_bonus
    return Totals(
        upper_sum=upper_sum,
        bonus=bonus,
        upper_total=upper_sum + bonus,
        lower_total=lower + ybonus,
        yahtzee_bonus=ybonus,
        grand_total=upper_sum + bonus + lower + ybonus,
    )


def possible_scores(cat: Box, rules: RuleSet) -> frozenset[int]:
    """Every value the box can hold in some game (used to check filled-in blocks)."""
    from itertools import combinations_with_replacement

    values = {0}
    for roll in combinations_with_replacement(range(1, 7), 5):
        values.add(raw_score(roll, cat))
        if rules.joker != "none" and is_yahtzee(roll) and cat.kind in ("full_house", "straight"):
            values.add(cat.score)
    return frozenset(values)
