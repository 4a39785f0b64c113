"""`dicesheets numbers …`: solve a numbers puzzle (one or a batch), target odds, hold advice.

The commands' options are declared in `generator.registry`; these are their actions:
call `generator.numbers`, report. Limits and the batch format are in
`generator.numbers.batch`; the tables in `generator.numbers.report`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING

import click

from generator.cli.options import echo_json
from generator.core.errors import OptionError, UserError

if TYPE_CHECKING:
    from generator.numbers.rules import Rules

# A token in the numbers that starts like an option and not like a number: a mistyped option.
_OPTION_LIKE = re.compile(r"-[^\d]")


def _rules(ops: str, division: str, use_all: bool = False) -> Rules:
    from generator.numbers.rules import Rules

    if not ops.strip():
        raise OptionError("--ops", "expected some of + - * /, found nothing")
    try:
        return Rules(ops=ops, division=division, use_all=use_all)  # type: ignore[arg-type]
    except UserError as exc:
        raise OptionError("--ops", exc.message) from None


def _number_tokens(ctx: click.Context, tokens: Sequence[str]) -> None:
    """Refuse a mistyped option that landed among the numbers (they may look like -3)."""
    for token in tokens:
        if _OPTION_LIKE.match(token):
            names = [o for p in ctx.command.params for o in getattr(p, "opts", [])]
            raise click.NoSuchOption(token, possibilities=[n for n in names if "--" in n], ctx=ctx)


def solve(
    numbers_: tuple[str, ...],
    target: str | None,
    batch: IO[str] | None,
    all_solutions: bool,
    use_all: bool,
    division: str,
    ops: str,
    as_json: bool,
) -> None:
    """Make a target from NUMBERS (or each line of --batch)."""
    ctx = click.get_current_context()
    _number_tokens(ctx, numbers_)
    rules = _rules(ops, division, use_all)
    if batch is not None:
        if numbers_:
            raise UserError(
                "not with --batch (the numbers come from the file)", where="argument NUMBERS"
            )
        if target is not None:
            raise OptionError("--target", "not with --batch (each line names its target)")
        _solve_batch(ctx, batch, rules, all_solutions)
        return

    from generator.numbers.batch import Puzzle, parse_numbers, parse_target, solve_record
    from generator.numbers.report import format_solve

    if target is None:
        raise OptionError("--target", "expected the number to make, found nothing")
    given = parse_numbers(numbers_, where="argument NUMBERS")
    record = solve_record(
        Puzzle(given, parse_target(target, where="option --target")), rules, all_solutions
    )
    if as_json:
        echo_json(record)
    else:
        click.echo(format_solve(record))


def _solve_batch(ctx: click.Context, lines: IO[str], rules: Rules, all_solutions: bool) -> None:
    """Stream the batch: one JSON line per puzzle line; exit status 2 if any line was bad."""
    import json

    from generator.numbers.batch import read_lines, solve_lines

    failed = False
    try:
        for record in solve_lines(read_lines(lines), rules, all_solutions):
            failed = failed or "error" in record
            click.echo(json.dumps(record, sort_keys=True, ensure_ascii=False))
    except UnicodeDecodeError:
        # the lines before were answered already; the rest cannot be read
        raise OptionError("--batch", "expected UTF-8 text, found bytes that are not") from None
    if failed:
        ctx.exit(2)


def odds(
    dice: int, faces: int, rolls: int, targets: str, division: str, ops: str, as_json: bool
) -> None:
    """Odds per target: in one roll, and within --rolls rolls keeping the best dice."""
    from generator.numbers.batch import parse_targets
    from generator.numbers.odds import check_dice
    from generator.numbers.report import format_odds, odds_record

    rules = _rules(ops, division)
    wanted = parse_targets(targets, where="option --targets")
    check_dice(dice, faces, rolls)
    record = odds_record(wanted, dice, faces, rolls, rules)
    if as_json:
        echo_json(record)
    else:
        click.echo(format_odds(record))


def hold(
    dice: tuple[str, ...],
    target: str,
    rolls_left: int,
    faces: int,
    division: str,
    ops: str,
    as_json: bool,
) -> None:
    """Which dice to keep: every choice with its chance of success, best first."""
    _number_tokens(click.get_current_context(), dice)
    from generator.numbers.batch import parse_target, whole_number
    from generator.numbers.report import check_roll, check_rolls_left, format_hold, hold_record

    rules = _rules(ops, division)
    roll = tuple(whole_number(d, where="argument DICE") for d in dice)
    check_roll(roll, faces, where="argument DICE")
    check_rolls_left(rolls_left, where="option --rolls-left")
    record = hold_record(
        roll, parse_target(target, where="option --target"), rolls_left, faces, rules
    )
    if as_json:
        echo_json(record)
    else:
        click.echo(format_hold(record))
