"""The arithmetic rules of a numbers puzzle (Schlaues Köpfchen, the 24 game, Countdown).

`Rules` says which operations may be used, what counts as a legal intermediate
result, and whether every number must be used. Input checks for the numbers and
the target live here too, so every entry point rejects bad input the same way.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.core.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, Literal

    Division = Literal["integer", "rational"]

MAX_NUMBERS = 6
"""The most numbers one puzzle may have (Countdown deals six)."""

OPS = "+-*/"
"""All operations, in canonical order; `Rules.ops` is always a subsequence of this."""

DIVISIONS = ("integer", "rational")

_OP_ALIASES = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "⋅": "*", "/": "/",
               "÷": "/", ":": "/"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Rules:
    """What an expression may do.

    - `ops`: a non-empty subset of "+-*/" (the symbols − × ÷, and · ⋅ : of German school
      notation, are accepted as aliases);
      stored canonically, e.g. `Rules(ops="*+")` has `ops == "+*"`. A solution qualifies
      when its printed form uses only these operations.
    - `division`: "integer" — every intermediate result is a non-negative whole number:
      division only where it divides evenly, subtraction never below zero (Köpfchen);
      "rational" — exact fractions and negative numbers are allowed along the way
      (24 game: 8 ÷ (3 − 8 ÷ 3) = 24); dividing by zero is never allowed.
    - `use_all`: every number must be used (24 game); otherwise any non-empty part of
      them will do, each number at most once (Köpfchen, Countdown).
    - `allow_zero`: False forbids zero as an intermediate result, so with integer
      division every intermediate is a positive whole number (Countdown). Only meaningful
      with integer division; `Rules(division="rational", allow_zero=False)` is rejected.
    """

    ops: str = OPS
    division: Division = "integer"
    use_all: bool = False
    allow_zero: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "ops", _canonical_ops(self.ops))
        if self.division not in DIVISIONS:
            raise UserError(
                f"unknown division mode {self.division!r}; use one of: {', '.join(DIVISIONS)}"
            )
        if not isinstance(self.use_all, bool) or not isinstance(self.allow_zero, bool):
            raise UserError("use_all and allow_zero must be true or false")
        if self.division == "rational" and not self.allow_zero:
            raise UserError("allow_zero=False needs integer division (rational allows any value)")

    def replace(self, **changes: Any) -> Rules:
        """These rules with some fields changed (`dataclasses.replace`: checked alike)."""
        return dataclasses.replace(self, **changes)

    @property
    def rational(self) -> bool:
        """True when fractions and negative intermediate results are allowed."""
        return self.division == "rational"


def _canonical_ops(ops: Iterable[str]) -> str:
    if isinstance(ops, str):
        symbols = [c for c in ops if not c.isspace()]
    else:
        try:
            symbols = list(ops)
        except TypeError:
            raise UserError(f"ops must be a string such as '+-*/', not {ops!r}") from None
    chosen = set()
    for symbol in symbols:
        if not isinstance(symbol, str) or symbol not in _OP_ALIASES:
            raise UserError(f"unknown operation {symbol!r}; use some of + - * /")
        chosen.add(_OP_ALIASES[symbol])
    if not chosen:
        raise UserError("at least one operation is needed")
    return "".join(op for op in OPS if op in chosen)


KOEPFCHEN = Rules()
"""Schlaues Köpfchen (docs/rules.md §3): whole non-negative intermediates, any subset of dice."""
GAME_24 = Rules(division="rational", use_all=True)
"""The 24 game: all four cards, fractions allowed along the way."""
COUNTDOWN = Rules(allow_zero=False)
"""Countdown numbers round: positive whole intermediates, any subset of the six numbers."""


def validate_numbers(numbers: Iterable[int]) -> tuple[int, ...]:
    """Check the numbers of a puzzle and return them as a sorted tuple.

    Raises `UserError` for no numbers, more than `MAX_NUMBERS`, or a number that is not a
    positive whole number.
    """
    try:
        values = list(numbers)
    except TypeError:
        raise UserError(f"numbers must be a list of whole numbers, not {numbers!r}") from None
    if not values:
        raise UserError("at least one number is needed")
    if len(values) > MAX_NUMBERS:
        raise UserError(f"at most {MAX_NUMBERS} numbers are allowed, got {len(values)}")
    checked = []
    for value in values:
        whole = _whole(value)
        if whole is None:
            raise UserError(f"numbers must be whole numbers, got {value!r}")
        if whole <= 0:
            raise UserError(f"numbers must be positive, got {whole}")
        checked.append(whole)
    return tuple(sorted(checked))


def validate_target(target: int) -> int:
    """Check a target: a whole number ≥ 0."""
    whole = _whole(target)
    if whole is None:
        raise UserError(f"the target must be a whole number, got {target!r}")
    if whole < 0:
        raise UserError(f"the target must not be negative, got {whole}")
    return whole


def _whole(value: object) -> int | None:
    """`value` as a plain int if it is a whole number type (int, numpy integer), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
