"""Puzzles as text: numbers, targets, target lists and batch lines, solved line by line.

The input limits of the `numbers` commands live here, so the command line and a batch
file reject the same things with the same words:

- numbers: 1 to `MAX_NUMBERS` (6) whole numbers, each 1–`MAX_VALUE` (1 000 000);
- a target: a whole number 0–`MAX_VALUE`;
- a target list (`1-40`, `1,2,5-9`): at most `MAX_TARGETS` (1000) targets, each in range.

A batch holds one puzzle per line, `3 6 1 -> 8`: the numbers (separated by spaces or
commas), an arrow `->` (or `→`), the target. Everything from `#` to the end of a line is
a comment; blank lines (and lines that are only a comment) are skipped. `solve_lines`
answers every line with one record; a line that is not a puzzle gets
`{"line": N, "error": "…"}` (N counts every line of the input, from 1) and the rest of
the batch is still solved. Pure: the caller reads the lines and writes the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.core.errors import InputError, UserError
from generator.numbers.rules import MAX_NUMBERS, validate_numbers
from generator.numbers.solver import solve

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from typing import IO, Any

    from generator.numbers.rules import Rules

MAX_VALUE = 10**6
"""The largest number and the largest target a puzzle may have."""
MAX_TARGETS = 1000
MAX_LINE_CHARS = 10_000  # a puzzle line is short; a longer one (e.g. /dev/zero) is no batch
"""The most targets one odds table may list."""

_MAX_DIGITS = 30  # anything longer is out of range anyway; spares int() huge strings
_SHOWN = 40
# patterns of target lists and batch lines (`re` is imported where they are used: a plain
# solve needs none of them)
_RANGE = r"([+-]?\d+)\s*-\s*([+-]?\d+)"
_ARROW = r"->|→"
_SEPARATORS = r"[\s,]+"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """Make `target` from `numbers` (in the order given)."""

    numbers: tuple[int, ...]
    target: int


def _is_whole(text: str) -> bool:
    """`text` is an optional sign and decimal digits (what `[+-]?\\d+` matches: `\\d` and
    `isdecimal` both mean Unicode category Nd), without compiling a pattern for it."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    return digits.isdecimal()


def whole_number(text: str, where: str) -> int:
    """`text` as a whole number; `UserError` naming `where` if it is not one."""
    text = text.strip()
    if not _is_whole(text):
        raise UserError(f"expected a whole number, found '{_shown(text)}'", where=where)
    if len(text.lstrip("+-0")) > _MAX_DIGITS:
        raise UserError(f"expected at most {MAX_VALUE}, found '{_shown(text)}'", where=where)
    return int(text)


def _shown(text: str) -> str:
    """Input quoted in a message, cut short if it is long."""
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def parse_numbers(tokens: Sequence[str], where: str = "numbers") -> tuple[int, ...]:
    """The numbers of a puzzle, in the order given, checked against the limits."""
    if not tokens:
        raise UserError(f"expected 1–{MAX_NUMBERS} numbers, found none", where=where)
    if len(tokens) > MAX_NUMBERS:
        raise UserError(
            f"expected at most {MAX_NUMBERS} numbers (the limit of the exhaustive search), "
            f"found {len(tokens)}",
            where=where,
        )
    numbers = tuple(whole_number(t, where) for t in tokens)
    for n in numbers:
        if not 1 <= n <= MAX_VALUE:
            raise UserError(f"expected numbers 1–{MAX_VALUE}, found {n}", where=where)
    validate_numbers(numbers)  # the core's own check; cannot fail after the ones above
    return numbers


def check_target(target: int, where: str = "target") -> int:
    """A target in 0–`MAX_VALUE`."""
    if not 0 <= target <= MAX_VALUE:
        raise UserError(f"expected a target 0–{MAX_VALUE}, found {target}", where=where)
    return target


def parse_target(text: str, where: str = "target") -> int:
    """A target from text, checked against the limits."""
    return check_target(whole_number(text, where), where)


def parse_targets(spec: str, where: str = "targets") -> list[int]:
    """A target list such as `1-40` or `1,2,5-9`: sorted, without repeats.

    Items are separated by commas; an item is a target or a range `a-b` with a ≤ b (both
    included).
    """
    import re

    items = [item.strip() for item in spec.split(",")]
    if not any(items):
        raise UserError("expected targets such as '1-40' or '1,2,5-9', found nothing", where=where)
    targets: set[int] = set()
    for item in items:
        if _is_whole(item):
            targets.add(parse_target(item, where))
            continue
        match = re.fullmatch(_RANGE, item)
        if not match:
            raise UserError(
                f"expected a target or a range such as '5-9', found '{_shown(item)}'", where=where
            )
        lo, hi = (parse_target(g, where) for g in match.groups())
        if lo > hi:
            raise UserError(f"expected a range low-high, found '{item}'", where=where)
        if hi - lo >= MAX_TARGETS:
            raise UserError(f"expected at most {MAX_TARGETS} targets, found '{item}'", where=where)
        targets.update(range(lo, hi + 1))
        if len(targets) > MAX_TARGETS:
            break
    if len(targets) > MAX_TARGETS:
        raise UserError(
            f"expected at most {MAX_TARGETS} targets, found {len(targets)}", where=where
        )
    return sorted(targets)


def parse_line(text: str) -> Puzzle | None:
    """One batch line as a puzzle; None for a blank or comment line; `UserError` otherwise."""
    import re

    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    parts = re.split(_ARROW, body)
    if len(parts) != 2:
        raise UserError(
            f"expected 'NUMBERS -> TARGET' such as '3 6 1 -> 8', found '{_shown(body)}'"
        )
    left, right = parts
    tokens = [t for t in re.split(_SEPARATORS, left.strip()) if t]
    return Puzzle(parse_numbers(tokens), parse_target(right))


def solve_record(puzzle: Puzzle, rules: Rules, all_solutions: bool = False) -> dict[str, Any]:
    """The answer to one puzzle as JSON-ready data.

    Keys: numbers, target, solvable, count (distinct solutions), simplest (the simplest
    expression, e.g. "6 + 3 − 1", or None), and with `all_solutions` also solutions
    (every distinct expression, simplest first).
    """
    found = solve(puzzle.numbers, puzzle.target, rules)
    record: dict[str, Any] = {
        "numbers": list(puzzle.numbers),
        "target": puzzle.target,
        "solvable": bool(found),
        "count": len(found),
        "simplest": found[0].text if found else None,
    }
    if all_solutions:
        record["solutions"] = [s.text for s in found]
    return record


def read_lines(stream: IO[str]) -> Iterator[str]:
    """The lines of a batch stream, each read with a bounded length (no line floods memory)."""
    number = 0
    while line := stream.readline(MAX_LINE_CHARS + 1):
        number += 1
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise InputError("batch", f"line {number} is longer than {MAX_LINE_CHARS:,} characters")
        yield line


def solve_lines(
    lines: Iterable[str], rules: Rules, all_solutions: bool = False
) -> Iterator[dict[str, Any]]:
    """One record per puzzle line (see `solve_record`), or an error record per bad line.

    Lazy: a line is read only when its record is wanted, so a batch can be streamed.
    """
    for number, text in enumerate(lines, start=1):
        try:
            puzzle = parse_line(text)
        except UserError as exc:
            yield {"line": number, "error": str(exc)}
            continue
        if puzzle is not None:
            yield solve_record(puzzle, rules, all_solutions)
