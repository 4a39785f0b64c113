"""Worksheet levels: `task_catalog/worksheet/<family>.yaml` loaded into frozen dataclasses.

A family (Köpfchen, the 24 game) fixes the arithmetic rules that never change
(integer or rational division, whether every number must be used); each of its
levels adds the operations, the numbers shown, the target range and the filters
that decide which (numbers, target) pairs belong to the level's pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement
from typing import Any

from generator.core.errors import CatalogError, Input, UserError
from generator.core.fields import Fields, position
from generator.core.problems import Problems, each, require_all
from generator.numbers.rules import OPS, Rules

SUBDIR = "worksheet"
KINDS = ("dice", "cards")
BRACKETS = ("any", "needed", "never")
MAX_COUNT = 4  # numbers per problem: the pool enumerates every multiset
MAX_HIGHEST = {"dice": 6, "cards": 13}  # dice are drawn with pips
MAX_TARGET = 1000
MAX_POOL_PAIRS = 60_000  # (multiset, target) pairs a level may ask the solver about


@dataclass(frozen=True)
class NumberSource:
    """What a problem shows: `count` dice (1–6, drawn with pips) or cards (1–`highest`)."""

    kind: str
    counts: tuple[int, ...]
    highest: int

    def multisets(self) -> list[tuple[int, ...]]:
        """Every sorted tuple of numbers a problem can show, fewer numbers first."""
        return [
            ms
            for count in self.counts
            for ms in combinations_with_replacement(range(1, self.highest + 1), count)
        ]


@dataclass(frozen=True)
class Focus:
    """At least `share` of a version's solvable problems need `op` (no solution without it)."""

    op: str
    share: float


@dataclass(frozen=True)
class Level:
    """One level of a family: the rules a pupil plays by and the filters of its pool."""

    family: str
    level: int
    name: dict[str, str] = field(compare=False, hash=False)
    rules: Rules
    numbers: NumberSource
    targets: tuple[int, int]
    min_numbers: int = 1
    min_solutions: int = 1
    max_solutions: int | None = None
    brackets: str = "any"
    focus: Focus | None = None
    source: str = field(default="", compare=False, hash=False)
    custom: bool = field(default=False, compare=False, hash=False)  # --ops / --targets

    @property
    def label(self) -> str:
        """How messages name the level: "level 2 of 'koepfchen'" (with any changes)."""
        text = f"level {self.level} of '{self.family}'"
        if self.custom:
            low, high = self.targets
            text += f" with ops {self.rules.ops} and targets {low}-{high}"
        return text

    def describe(self) -> dict[str, Any]:
        """Everything that decides the pool, as JSON (cache key and manifest)."""
        return {
            "family": self.family,
            "level": self.level,
            "rules": rules_json(self.rules),
            "numbers": {
                "kind": self.numbers.kind,
                "count": list(self.numbers.counts),
                "highest": self.numbers.highest,
            },
            "targets": list(self.targets),
            "min_numbers": self.min_numbers,
            "solutions": {"min": self.min_solutions, "max": self.max_solutions},
            "brackets": self.brackets,
            "focus": None
            if self.focus is None
            else {"op": self.focus.op, "share": self.focus.share},
        }


@dataclass(frozen=True)
class Family:
    """A puzzle family and its levels, as read from one catalog file."""

    id: str
    name: dict[str, str]
    levels: tuple[Level, ...]
    source: str

    def level(self, number: int, where: str = Input("level")) -> Level:
        """The level called `number`; a `UserError` naming the known levels otherwise."""
        for level in self.levels:
            if level.level == number:
                return level
        known = ", ".join(str(lv.level) for lv in self.levels)
        raise UserError(
            f"unknown level {number} for family '{self.id}' (expected one of {known})",
            where=where,
        )


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rules as they appear in manifests."""
    return {
        "ops": rules.ops,
        "division": rules.division,
        "use_all": rules.use_all,
        "allow_zero": rules.allow_zero,
    }


def _ops(fields: Fields, key: str) -> str:
    value = fields.get(key, str)
    symbols = [c for c in value if not c.isspace()]
    if not symbols or any(c not in OPS for c in symbols):
        raise fields.error(
            key, f"key '{fields._label(key)}': expected some of + - * /, found '{value}'"
        )
    return "".join(op for op in OPS if op in symbols)


def _numbers(fields: Fields) -> NumberSource:
    sub = Fields(fields.get("numbers", dict), fields.file, f"{fields.context}.numbers")
    sub.unknown_keys({"kind", "count", "highest"})
    kind = sub.choice("kind", KINDS)
    raw = sub.get("count", list)
    if not raw or not all(isinstance(c, int) and not isinstance(c, bool) for c in raw):
        raise sub.error("count", f"key '{sub._label('count')}': expected a list of whole numbers")
    if any(not 2 <= c <= MAX_COUNT for c in raw) or len(set(raw)) != len(raw):
        raise sub.error(
            "count",
            f"key '{sub._label('count')}': expected different counts 2–{MAX_COUNT}, found {raw}",
        )
    highest = sub.int_in("highest", 2, MAX_HIGHEST[kind], 6)
    return NumberSource(kind, tuple(sorted(raw)), highest)


def _level(data: object, file: str, index: int, family: str, base: dict[str, Any]) -> Level:
    f = Fields(data, file, f"levels[{index}]")
    f.unknown_keys(
        {
            "level",
            "name",
            "ops",
            "numbers",
            "targets",
            "min_numbers",
            "solutions",
            "brackets",
            "focus",
        }
    )
    numbers = _numbers(f)
    targets = Fields(f.get("targets", dict), file, f"levels[{index}].targets")
    targets.unknown_keys({"min", "max"})
    low = targets.int_in("min", 0, MAX_TARGET)
    high = targets.int_in("max", low, MAX_TARGET)
    solutions = Fields(f.get("solutions", dict, {}), file, f"levels[{index}].solutions")
    solutions.unknown_keys({"min", "max"})
    min_solutions = solutions.int_in("min", 1, 10_000, 1)
    max_solutions = solutions.get("max", (int, type(None)), None)
    if max_solutions is not None and max_solutions < min_solutions:
        raise solutions.error("max", f"levels[{index}].solutions: max is below min")
    ops = _ops(f, "ops")
    focus = None
    if "focus" in f.data:
        ff = Fields(f.get("focus", dict), file, f"levels[{index}].focus")
        ff.unknown_keys({"op", "share"})
        op = _ops(ff, "op")
        if len(op) != 1 or op not in ops:
            raise ff.error("op", f"levels[{index}].focus.op: expected one of the level's ops {ops}")
        share = ff.get("share", (int, float))
        if not 0 < share <= 1:
            raise ff.error("share", f"levels[{index}].focus.share: expected a number in (0, 1]")
        focus = Focus(op, float(share))
    try:
        rules = Rules(ops=ops, **base)
    except UserError as exc:
        raise f.error("ops", f"levels[{index}]: {exc.message}") from None
    pairs = len(numbers.multisets()) * (high - low + 1)
    if pairs > MAX_POOL_PAIRS:
        raise f.error(
            "numbers",
            f"levels[{index}]: {pairs} (numbers, target) pairs to check; at most "
            f"{MAX_POOL_PAIRS} (fewer numbers, a lower 'highest' or a narrower target range)",
        )
    return Level(
        family=family,
        level=f.int_in("level", 1, 99),
        name=f.texts("name"),
        rules=rules,
        numbers=numbers,
        targets=(low, high),
        min_numbers=f.int_in("min_numbers", 1, max(numbers.counts), 1),
        min_solutions=min_solutions,
        max_solutions=max_solutions,
        brackets=f.choice("brackets", BRACKETS, "any"),
        focus=focus,
        source=file,
    )


def parse_family(data: Any, label: str, problems: Problems | None = None) -> Family:
    """Validate one family file's data (`problems`: record bad levels instead of raising)."""
    f = Fields(data, label)
    f.unknown_keys({"family", "name", "rules", "levels"})
    family = f.ident("family", (str, int))
    rules = Fields(f.get("rules", dict), label, "rules")
    rules.unknown_keys({"division", "use_all"})
    base = {
        "division": rules.choice("division", ("integer", "rational")),
        "use_all": rules.get("use_all", bool),
    }
    raw = f.get("levels", list)
    if not raw:
        raise f.error("levels", "expected at least one level")
    levels = tuple(each(raw, lambda i, item: _level(item, label, i, family, base), problems))
    require_all(list(levels), raw, label)
    seen: set[int] = set()
    for i, level in enumerate(levels):
        if level.level in seen:
            line, col = position(raw, i)
            raise CatalogError(
                f"level {level.level} appears twice", file=label, line=line, column=col
            )
        seen.add(level.level)
    return Family(id=family, name=f.texts("name"), levels=levels, source=label)


def parse_targets(text: str) -> tuple[int, int]:
    """`--targets 1-20` (or a single target, `12`) as (lowest, highest)."""
    parts = text.replace("–", "-").replace(" ", "").split("-")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) not in (1, 2):
        raise UserError(f"expected a range such as 1-20, found '{text}'", where=Input("targets"))
    low, high = numbers[0], numbers[-1]
    if not 0 <= low <= high <= MAX_TARGET:
        raise UserError(
            f"expected 0 ≤ lowest ≤ highest ≤ {MAX_TARGET}, found '{text}'",
            where=Input("targets"),
        )
    return low, high


def customised(level: Level, ops: str | None, targets: str | None) -> Level:
    """The level with the teacher's operations and target range instead of its own.

    The level keeps its numbers, its family's rules and its other filters; a focus on an
    operation that is no longer allowed is dropped.
    """
    if ops is None and targets is None:
        return level
    rules = level.rules
    if ops is not None:
        try:
            rules = Rules(
                ops=ops, division=rules.division, use_all=rules.use_all, allow_zero=rules.allow_zero
            )
        except UserError as exc:
            raise UserError(exc.message, where=Input("ops")) from None
    bounds = parse_targets(targets) if targets is not None else level.targets
    pairs = len(level.numbers.multisets()) * (bounds[1] - bounds[0] + 1)
    if pairs > MAX_POOL_PAIRS:
        raise UserError(
            f"{pairs} (numbers, target) pairs to check; at most {MAX_POOL_PAIRS} "
            "(a narrower range)",
            where=Input("targets"),
        )
    focus = level.focus if level.focus is not None and level.focus.op in rules.ops else None
    return replace(level, rules=rules, targets=bounds, focus=focus, custom=True)
