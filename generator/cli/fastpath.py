"""`dicesheets numbers solve` without click, for the plain command lines it can read alone.

A solve takes a few milliseconds; click and the modules it imports (inspect, uuid,
datetime, gettext …) take 25 ms more, which made a whole `numbers solve` slower
than a pure-Python solver run in its own process. So the console entry reads a plain
solve itself — the numbers, `--target`, `--all`, `--use-all`, `--json`, `--ops`,
`--division` — and hands everything else to the click command: help, `--batch`, an
option given twice or spelled another way, any value it does not take as it is, and
every error (the command says what is wrong, in its words and with its exit status).
Both ways print the same bytes (tested).
"""

from __future__ import annotations

import sys

HELP_OPTIONS = ("-h", "--help")  # every command's (the entry's stored help reads them too)
_FLAGS = {"--all": "all_solutions", "--use-all": "use_all", "--json": "as_json"}
_VALUES = {"--target": "target", "--ops": "ops", "--division": "division"}
_DIVISIONS = ("integer", "rational")


def run(args: list[str]) -> bool:
    """Solve and print if `args` is a plain `numbers solve`; False: hand them to click."""
    read = _read(args)
    if read is None:
        return False
    from generator.core.errors import UserError
    from generator.numbers.batch import Puzzle, parse_numbers, parse_target, solve_record
    from generator.numbers.rules import Rules

    numbers, options = read
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
        return False  # the click command reports it
    if options.get("as_json"):
        import json

        # (what `generator.io.writer.dumps_json` writes, without importing the writer)
        text = json.dumps(record, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False)
    else:
        from generator.numbers.report import format_solve

        text = format_solve(record)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return True


def _read(args: list[str]) -> tuple[tuple[str, ...], dict[str, str | bool]] | None:
    """The numbers and options of a plain `numbers solve …`, or None for anything else."""
    if args[:2] != ["numbers", "solve"] or sys.stdout is None or not _utf8(sys.stdout.encoding):
        return None
    options: dict[str, str | bool] = {}
    numbers: list[str] = []
    rest = args[2:]
    while rest:
        token = rest.pop(0)
        name, _, value = token.partition("=")
        if token in _FLAGS and _FLAGS[token] not in options:
            options[_FLAGS[token]] = True
        elif name in _VALUES and _VALUES[name] not in options:
            if token.endswith("="):
                return None
            if not value:
                if not rest or rest[0].startswith("-"):
                    return None
                value = rest.pop(0)
            options[_VALUES[name]] = value
        elif token.isascii() and token.isdigit():
            numbers.append(token)
        else:
            return None  # an option it does not read, a negative number, "--", help …
    if "target" not in options or options.get("division", "integer") not in _DIVISIONS:
        return None
    if not str(options.get("ops", "+-*/")).strip():
        return None
    return tuple(numbers), options


def _utf8(encoding: str | None) -> bool:
    return (encoding or "").replace("-", "").replace("_", "").lower() == "utf8"
