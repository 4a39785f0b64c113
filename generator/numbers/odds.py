"""Odds of making a target with dice: in one roll, and within R rolls under the optimal hold policy.

The dice are interchangeable (Köpfchen: three white d6). A roll "succeeds" when
the target can be made from it under the rules; the shared roll-and-hold solver
(`generator.core.rollhold`) gives the best probability of success when the
player may keep any dice between rolls and stops as soon as the target is made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generator.core.errors import Input, UserError
from generator.core.rollhold import IdenticalDice, Policy, policy, single_roll_probability
from generator.core.rollhold import start_value as rollhold_start_value
from generator.numbers.rules import KOEPFCHEN, Rules
from generator.numbers.solver import reachable_targets

MAX_DICE = 5
MAX_FACES = 20
MAX_ROLLS = 6
MAX_STATES = 2000  # distinct rolls; each needs a full reachability search


@dataclass(frozen=True)
class TargetOdds:
    """The chance of making `target`: after one roll, and within `rolls` rolls playing well."""

    target: int
    single_roll: float
    within: float
    rolls: int


def check_dice(dice: int, faces: int, rolls: int) -> None:
    """Refuse dice sets the exhaustive odds cannot handle, naming the limit."""
    if not 1 <= dice <= MAX_DICE:
        raise UserError(f"expected 1–{MAX_DICE} dice, found {dice}", where=Input("dice"))
    if not 2 <= faces <= MAX_FACES:
        raise UserError(f"expected 2–{MAX_FACES} faces, found {faces}", where=Input("faces"))
    if not 1 <= rolls <= MAX_ROLLS:
        raise UserError(f"expected 1–{MAX_ROLLS} rolls, found {rolls}", where=Input("rolls"))
    if math.comb(dice + faces - 1, dice) > MAX_STATES:  # the distinct rolls, without building them
        raise UserError(
            f"{dice} dice with {faces} faces have more than {MAX_STATES} different rolls",
            where=Input("dice"),
        )


@lru_cache(maxsize=64)
def _space(dice: int, faces: int) -> IdenticalDice:
    return IdenticalDice(dice, faces)


@lru_cache(maxsize=64)
def _reach(dice: int, faces: int, rules: Rules) -> tuple[frozenset[int], ...]:
    """The makeable targets of every roll, in the space's state order."""
    return tuple(reachable_targets(state, rules) for state in _space(dice, faces).states)


def success_masks(
    targets: Sequence[int], dice: int = 3, faces: int = 6, rules: Rules = KOEPFCHEN
) -> np.ndarray:
    """Boolean array (len(targets), n_states): can the target be made from that roll?"""
    reach = _reach(dice, faces, rules)
    return np.array([[t in r for r in reach] for t in targets], dtype=bool)


def odds_table(
    targets: Sequence[int],
    dice: int = 3,
    faces: int = 6,
    rolls: int = 3,
    rules: Rules = KOEPFCHEN,
) -> list[TargetOdds]:
    """Single-roll and R-roll optimal success probability of every target."""
    check_dice(dice, faces, rolls)
    space = _space(dice, faces)
    masks = success_masks(targets, dice, faces, rules)
    within = rollhold_start_value(space, masks.astype(np.float64), rolls)
    return [
        TargetOdds(int(t), single_roll_probability(space, m), float(p), rolls)
        for t, m, p in zip(targets, masks, within)
    ]


def reachable_by_any_roll(
    dice: int = 3, faces: int = 6, rules: Rules = KOEPFCHEN
) -> frozenset[int]:
    """Every target that at least one roll can make."""
    return frozenset().union(*_reach(dice, faces, rules))


def hold_options(
    roll: Sequence[int],
    target: int,
    rolls_left: int,
    faces: int = 6,
    rules: Rules = KOEPFCHEN,
) -> list[tuple[tuple[int, ...], float]]:
    """Every way to keep dice from `roll` with the chance of success from there, best first.

    Keeping all dice means stopping; with the target already made that is worth 1.
    """
    dice = len(roll)
    if not 0 <= rolls_left <= MAX_ROLLS - 1:  # before check_dice, which would blame --rolls
        raise UserError(
            f"expected 0–{MAX_ROLLS - 1} rolls left, found {rolls_left}",
            where=Input("rolls_left"),
        )
    check_dice(dice, faces, rolls_left + 1)
    if any(not 1 <= v <= faces for v in roll):
        raise UserError(f"dice values must be 1–{faces}, found {' '.join(map(str, roll))}")
    return _hold_policy(dice, faces, rules, target).ranked(tuple(roll), rolls_left)


@lru_cache(maxsize=256)
def _hold_policy(dice: int, faces: int, rules: Rules, target: int) -> Policy:
    """The policy for a target, solved once for the most rolls: V_r depends only on r."""
    mask = success_masks([target], dice, faces, rules)[0].astype(np.float64)
    return policy(_space(dice, faces), mask, MAX_ROLLS)
