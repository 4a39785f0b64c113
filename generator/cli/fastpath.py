"""`numbers solve` and `kniffel advise` without click, for the plain command lines it reads alone.

A solve takes a few milliseconds, an answer of the coach a few more; click and the
modules it imports (inspect, uuid, datetime, gettext …) and the registry take 25 ms
more, which made a whole `numbers solve` slower than a pure-Python solver run in its
own process, and `kniffel advise` well slower than a Rust solver's. So the console
entry reads a plain command line itself — for `numbers solve` the numbers, `--target`,
`--all`, `--use-all`, `--json`, `--ops`, `--division`; for `kniffel advise` the dice,
`--rules`, `--joker`, `--filled`, `--upper`, `--roll`, `--rolls-left`, `--json`, when
the rule set's table is in the solver cache — and hands everything else to the click
command: help, `--batch`, `--catalog`, an option given twice or spelled another way, any
value it does not take as it is, a table still to solve, and every error (the command
says what is wrong, in its words and with its exit status). Both ways print the same
bytes (tested).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.kniffel.rules import RuleSet
    from generator.kniffel.solver import Strategy

HELP_OPTIONS = ("-h", "--help")  # every command's (the entry's stored help reads them too)
# per command: its flags and its options with a value (option → parameter name)
_FLAGS = {
    "numbers solve": {"--all": "all_solutions", "--use-all": "use_all", "--json": "as_json"},
    "kniffel advise": {"--json": "as_json"},
}
_VALUES = {
    "numbers solve": {"--target": "target", "--ops": "ops", "--division": "division"},
    "kniffel advise": {
        "--rules": "rules",
        "--joker": "joker",
        "--filled": "filled",
        "--upper": "upper",
        "--roll": "roll",
        "--rolls-left": "rolls_left",
    },
}
_DIVISIONS = ("integer", "rational")
_JOKERS = ("none", "free", "forced")


class _HandOver(Exception):
    """The click command reads this command line (a table to solve, or anything it reports)."""


def run(args: list[str]) -> bool:
    """Run `args` if a plain `numbers solve` or `kniffel advise`; False: hand them to click."""
    command = f"{args[0]} {args[1]}" if len(args) >= 2 else ""
    if command not in _FLAGS or sys.stdout is None or not _utf8(sys.stdout.encoding):
        return False
    read = _read(args[2:], _FLAGS[command], _VALUES[command])
    if read is None:
        return False
    try:
        text = _solve(*read) if command == "numbers solve" else _advise(*read)
    except _HandOver:
        return False
    sys.stdout.write(text)
    sys.stdout.flush()
    return True


def _json(record: object) -> str:
    import json

    # (what `generator.io.writer.dumps_json` writes, without importing the writer)
    return json.dumps(record, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _solve(numbers: tuple[str, ...], options: dict[str, str | bool]) -> str:
    if "target" not in options or options.get("division", "integer") not in _DIVISIONS:
        raise _HandOver
    if not str(options.get("ops", "+-*/")).strip():
        raise _HandOver
    from generator.core.errors import UserError
    from generator.numbers.batch import Puzzle, parse_numbers, parse_target, solve_record
    from generator.numbers.rules import Rules

    try:
        rules = Rules(
            ops=str(options.get("ops", "+-*/")),
            division=str(options.get("division", "integer")),  # type: ignore[arg-type]
            use_all=bool(options.get("use_all")),
        )
        given = parse_numbers(numbers, where="argument NUMBERS")
        puzzle = Puzzle(given, parse_target(str(options["target"]), where="option --target"))
        record = solve_record(puzzle, rules, bool(options.get("all_solutions")))
    except UserError:
        raise _HandOver from None  # the click command reports it
    if options.get("as_json"):
        return _json(record)
    from generator.numbers.report import format_solve

    return format_solve(record) + "\n"


def _advise(more_dice: tuple[str, ...], options: dict[str, str | bool]) -> str:
    upper, rolls_left = options.get("upper"), str(options.get("rolls_left", "2"))
    joker = options.get("joker")
    if "roll" not in options or joker not in (None, *_JOKERS):
        raise _HandOver
    if not (rolls_left.isdigit() and 0 <= int(rolls_left) <= 2):
        raise _HandOver
    if upper is not None and not (str(upper).isdigit() and 0 <= int(str(upper)) <= 105):
        raise _HandOver
    from generator.core.errors import UserError
    from generator.kniffel.coach import advise, format_advice, make_position, parse_roll
    from generator.kniffel.load import load_rules, load_table
    from generator.kniffel.table import with_joker

    def unsolved(_rules: RuleSet) -> Strategy:
        raise _HandOver  # (the click command solves it, with its progress bar)

    try:
        rules = with_joker(load_rules(str(options.get("rules", "kniffel"))), _text(joker))
        dice = parse_roll((str(options["roll"]), *more_dice))
        position = make_position(rules, str(options.get("filled", "")), _whole(upper))
        table = load_table(rules, unsolved)
        advice = advise(table, position, dice, int(rolls_left))
    except UserError:
        raise _HandOver from None
    return _json(advice.to_json()) if options.get("as_json") else format_advice(advice) + "\n"


def _text(value: str | bool | None) -> str | None:
    return None if value is None else str(value)


def _whole(value: str | bool | None) -> int | None:
    return None if value is None else int(str(value))


def _read(
    rest: list[str], flags: dict[str, str], values: dict[str, str]
) -> tuple[tuple[str, ...], dict[str, str | bool]] | None:
    """The digit words and the options of a plain command line, or None for anything else."""
    options: dict[str, str | bool] = {}
    words: list[str] = []
    rest = list(rest)
    while rest:
        token = rest.pop(0)
        name, _, value = token.partition("=")
        if token in flags and flags[token] not in options:
            options[flags[token]] = True
        elif name in values and values[name] not in options:
            if token.endswith("="):
                return None
            if not value:
                if not rest or rest[0].startswith("-"):
                    return None
                value = rest.pop(0)
            options[values[name]] = value
        elif token.isascii() and token.isdigit():
            words.append(token)
        else:
            return None  # an option it does not read, a negative number, "--", help …
    return tuple(words), options


def _utf8(encoding: str | None) -> bool:
    return (encoding or "").replace("-", "").replace("_", "").lower() == "utf8"
