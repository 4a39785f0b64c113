"""`dicesheets numbers …`: solve a numbers puzzle (one or a batch), target odds, hold advice.

Click only: parse, call `generator.numbers`, report. Limits and the batch format are in
`generator.numbers.batch`; the tables in `generator.numbers.report`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

import click

from generator.cli.options import echo_json, json_option
from generator.core.errors import OptionError, UserError

if TYPE_CHECKING:
    from generator.numbers.rules import Rules

F = Callable[..., Any]

# A token in the numbers that starts like an option and not like a number: a mistyped option.
_OPTION_LIKE = re.compile(r"-[^\d]")


def rules_options(f: F) -> F:
    """--division and --ops: the arithmetic rules, shared by every numbers command."""
    f = click.option(
        "--ops",
        metavar="OPS",
        default="+-*/",
        show_default=True,
        help="Allowed operations, any of + - * / (young pupils: +-).",
    )(f)
    return click.option(
        "--division",
        type=click.Choice(["integer", "rational"], case_sensitive=False),
        default="integer",
        show_default=True,
        help="integer: every intermediate result a whole number ≥ 0; "
        "rational: fractions and negatives allowed along the way (24 game).",
    )(f)


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


@click.group()
def numbers() -> None:
    """Numbers puzzles (Schlaues Köpfchen, 24, Countdown): solve, odds, hold advice."""


@numbers.command(context_settings={"ignore_unknown_options": True})
@click.argument("numbers_", metavar="NUMBERS...", nargs=-1)
@click.option("--target", metavar="N", default=None, help="The number to make, 0–1000000.")
@click.option(
    "--batch",
    type=click.File("r", encoding="utf-8-sig"),
    metavar="FILE",
    default=None,
    help="Solve one puzzle per line of FILE ('-': stdin), e.g. '3 6 1 -> 8'; "
    "prints one JSON object per line.",
)
@click.option(
    "--all", "all_solutions", is_flag=True, help="List every distinct solution, simplest first."
)
@click.option("--use-all", is_flag=True, help="Every number must be used (24 game).")
@rules_options
@json_option
@click.pass_context
def solve(
    ctx: click.Context,
    numbers_: tuple[str, ...],
    target: str | None,
    batch: IO[str] | None,
    all_solutions: bool,
    use_all: bool,
    division: str,
    ops: str,
    as_json: bool,
) -> None:
    """Make a target from NUMBERS: can it be done, in how many ways, how most simply?

    NUMBERS: 1–6 whole numbers, each used at most once. Distinct solutions differ by
    more than the order of terms or factors and the way they are bracketed. With
    --batch, blank lines and '#' comments are skipped; a bad line prints
    {"line": N, "error": "..."}, the rest is still solved, and the exit status is 2.
    """
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


@numbers.command()
@click.option("--dice", type=int, default=3, show_default=True, help="Number of dice, 1–5.")
@click.option("--faces", type=int, default=6, show_default=True, help="Faces per die, 2–20.")
@click.option("--rolls", type=int, default=3, show_default=True, help="Rolls per turn, 1–6.")
@click.option(
    "--targets",
    metavar="SPEC",
    default="1-40",
    show_default=True,
    help="Targets: ranges and lists such as 1-40 or 1,2,5-9 (at most 1000, each 0–1000000).",
)
@rules_options
@json_option
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


@numbers.command(context_settings={"ignore_unknown_options": True})
@click.argument("dice", metavar="DICE...", nargs=-1)
@click.option("--target", metavar="N", required=True, help="The number to make, 0–1000000.")
@click.option(
    "--rolls-left",
    type=int,
    required=True,
    help="Re-rolls still allowed after this roll (0–2 with three rolls per turn).",
)
@click.option("--faces", type=int, default=6, show_default=True, help="Faces per die, 2–20.")
@rules_options
@json_option
@click.pass_context
def hold(
    ctx: click.Context,
    dice: tuple[str, ...],
    target: str,
    rolls_left: int,
    faces: int,
    division: str,
    ops: str,
    as_json: bool,
) -> None:
    """Which dice to keep: every choice with its chance of success, best first.

    DICE: the values the dice show now, e.g. 2 5 6.
    """
    _number_tokens(ctx, dice)
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
