"""The odds of each Kniffel pattern: in one roll, and within three rolls when playing for it.

A pattern is a box's own condition (`scoring.raw_score` > 0: Kniffel, the
straights, Full House, the of-a-kinds) or "at least three dice show f" for
each upper box. Three rolls: the player keeps the dice that maximise the
chance of ending in the pattern (`rollhold.success_probability`). Every path
of a turn rolls at most 15 dice, so the probability is a whole multiple of
1/6**15 and is given as an exact fraction (a float agreeing to 1e-15 is
rounded to it; a disagreement beyond rounding is a bug and raises).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from generator.core.rollhold import single_roll_probability, success_probability
from generator.kniffel.rules import Box, RuleSet
from generator.kniffel.scoring import raw_score
from generator.kniffel.solver import DICE, FACES, ROLLS, dice_space

UPPER_COUNT = 3  # "each upper value at least 3×" (63 = three of every face)
ONE_ROLL_DENOMINATOR = FACES**DICE  # 7776
THREE_ROLL_DENOMINATOR = FACES ** (DICE * ROLLS)  # 470184984576
# Lower boxes in the order of the card: rarest pattern first.
_KIND_ORDER = {"yahtzee": 0, "straight": 1, "full_house": 2, "of_a_kind": 3}


@dataclass(frozen=True)
class PatternOdds:
    """One pattern: which box it belongs to and its exact probabilities."""

    key: str  # the box id (lower boxes) or "<box id>_3" (at least three of an upper face)
    box: Box
    one_roll: Fraction
    three_rolls: Fraction

    @property
    def is_upper(self) -> bool:
        return self.box.kind == "upper"


def pattern_boxes(rules: RuleSet) -> list[Box]:
    """The boxes with a pattern, in card order: lower (rarest first), then upper."""
    lower = [c for c in rules.lower if c.kind in _KIND_ORDER]
    lower.sort(key=lambda c: (_KIND_ORDER[c.kind], -c.length, -c.count))
    return lower + list(rules.upper)


def pattern_mask(cat: Box) -> np.ndarray:
    """1.0 for every dice state that shows the box's pattern, else 0.0."""
    states = dice_space().states
    if cat.kind == "upper":
        return np.array([float(s.count(cat.face) >= UPPER_COUNT) for s in states])
    return np.array([float(raw_score(s, cat) > 0) for s in states])


def exact(probability: float, denominator: int) -> Fraction:
    """The fraction with this denominator that a float probability stands for."""
    numerator = round(probability * denominator)
    if abs(probability * denominator - numerator) > 1e-3:
        raise ArithmeticError(f"{probability!r} is not a multiple of 1/{denominator}")
    return Fraction(numerator, denominator)


def pattern_odds(rules: RuleSet) -> list[PatternOdds]:
    """Every pattern of the rule set with its odds in one roll and within three rolls."""
    space = dice_space()
    out = []
    for cat in pattern_boxes(rules):
        mask = pattern_mask(cat)
        out.append(
            PatternOdds(
                key=f"{cat.id}_{UPPER_COUNT}" if cat.kind == "upper" else cat.id,
                box=cat,
                one_roll=exact(single_roll_probability(space, mask), ONE_ROLL_DENOMINATOR),
                three_rolls=exact(success_probability(space, mask, ROLLS), THREE_ROLL_DENOMINATOR),
            )
        )
    return out
