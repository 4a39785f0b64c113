"""The solved table's shape, cache key and look-up, without numpy (the coach reads a few values).

The table V(F, u, y) (see `generator.kniffel.solver`) is a C-order float64 array of
shape (2**boxes, cap + 1, flags); `Table` answers `value(F, u, y)` through a look-up
of one flat index, so an answer reads only the values it needs — from the solver's
array or from the memory-mapped cache entry (`generator.io.cache.stored_table`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from generator.core.errors import InputError, Msg
from generator.core.store import key_for
from generator.kniffel.rules import JOKERS, RuleSet

# Bump when anything changes the stored values (part of every cache key).
SOLVER_VERSION = 4
# Bump when anything changes the simulated scores (3: keeps from rollhold.Policy's tie rule
# instead of the first exact maximum).
SIMULATION_VERSION = 3
DICE = 5
FACES = 6
ROLLS = 3
MAX_BOXES = 16  # the table has 2**boxes rows
JOKER_SETTINGS = JOKERS


@dataclasses.dataclass(frozen=True)
class Shape:
    """What a rule set's table looks like: its boxes, the capped upper sums and the flags."""

    n_boxes: int
    cap: int  # upper sums are capped here; 0 when no bonus can be reached
    bonus: int  # paid at the end when the capped upper sum reaches `cap`
    n_flags: int  # 2 when an extra Yahtzee bonus exists (y matters), else 1

    @property
    def n_upper(self) -> int:
        return self.cap + 1

    @property
    def dims(self) -> tuple[int, int, int]:
        """Shape of the value table: (2**boxes, capped upper sums, flags)."""
        return (2**self.n_boxes, self.n_upper, self.n_flags)

    def index(self, filled: int, upper: int, flag: int = 0) -> int:
        """The flat (C-order) index of state (F, u, y); u may exceed the cap."""
        y = int(flag) if self.n_flags == 2 else 0
        return (int(filled) * self.n_upper + min(int(upper), self.cap)) * self.n_flags + y


def shape_of(rules: RuleSet) -> Shape:
    """The table's shape for `rules` (the bonus counts only if the upper boxes can reach it)."""
    faces = [c.face for c in rules.boxes if c.kind == "upper"]
    reachable = rules.bonus_value > 0 and rules.bonus_threshold <= DICE * sum(faces)
    ycat = rules.yahtzee_box
    extra = ycat is not None and rules.has_yahtzee_bonus and rules.extra_yahtzee_bonus > 0
    return Shape(
        n_boxes=len(rules.boxes),
        cap=rules.bonus_threshold if reachable else 0,
        bonus=rules.bonus_value if reachable else 0,
        n_flags=2 if extra else 1,
    )


def rules_fingerprint(rules: RuleSet) -> dict[str, Any]:
    """Everything about a rule set the values depend on (not its words): a cache-key part."""
    return {
        "boxes": [
            [c.id, c.section, c.kind, c.face, c.count, c.length, c.score] for c in rules.boxes
        ],
        "bonus": [rules.bonus_threshold, rules.bonus_value],
        "extra": rules.extra_yahtzee_bonus,
        "joker": rules.joker,
    }


def table_key(rules: RuleSet) -> str:
    """The cache key of a rule set's table: its fingerprint and the solver version."""
    return key_for("kniffel-values", SOLVER_VERSION, rules_fingerprint(rules))


def scores_key(rules: RuleSet, games: int, seed: int) -> str:
    """The cache key of a rule set's simulated scores (`games` games, `seed`)."""
    fingerprint = rules_fingerprint(rules)
    return key_for("kniffel-scores", SOLVER_VERSION, SIMULATION_VERSION, fingerprint, games, seed)


def with_joker(rules: RuleSet, joker: str | None) -> RuleSet:
    """The rule set with its joker setting replaced (None: unchanged)."""
    if joker is None or joker == rules.joker:
        return rules
    if joker not in JOKER_SETTINGS:
        raise InputError("joker", Msg("one_of", known=", ".join(JOKER_SETTINGS), found=joker))
    if joker != "none" and rules.yahtzee_box is None:
        raise InputError("joker", Msg("no_yahtzee_box", rules=rules.id))
    return dataclasses.replace(rules, joker=joker)


class Table:
    """A solved table as the coach asks it: V(F, u, y) by a look-up of one flat index."""

    def __init__(self, rules: RuleSet, at: Callable[[int], float]) -> None:
        self.rules = rules
        self.shape = shape_of(rules)
        self._at = at

    def value(self, filled: int, upper: int, flag: int = 0) -> float:
        """Expected points still to come from state (F, u, y); u may exceed the cap."""
        v = self._at(self.shape.index(filled, upper, flag))
        if v != v:  # NaN: a state no game reaches
            raise ValueError(f"state ({filled}, {upper}, {flag}) cannot be reached")
        return v
