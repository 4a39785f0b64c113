"""What the `numbers` commands report: JSON-ready records and plain-text tables.

Pure: records come from the solver and the odds; the text is for a terminal (the
printed sheets take their words from `templates/`). Probabilities stay floats as the
solver gives them; only the text rounds them, to percentages with two decimals.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from generator.core.errors import Input, UserError
from generator.numbers.expr import SYMBOLS
from generator.numbers.rules import Rules
from generator.numbers.solver import simplest

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

# `generator.numbers.odds` (numpy, 40 ms to import) is imported inside the odds and hold
# functions only: `numbers solve` never needs it.

ARROW = "→"


def ops_text(rules: Rules) -> str:
    """The allowed operations with their printed symbols: "+ − × ÷"."""
    return " ".join(SYMBOLS[op] for op in rules.ops)


# --- solve ---------------------------------------------------------------------------------


def format_solve(record: dict[str, Any]) -> str:
    """A solve record (see `batch.solve_record`) as text: the verdict, then equations."""
    numbers = " ".join(map(str, record["numbers"]))
    head = f"{numbers} {ARROW} {record['target']}: "
    if not record["solvable"]:
        return head + "not solvable"
    count = record["count"]
    head += f"solvable, {count} distinct solution{'s' if count != 1 else ''}"
    shown = record.get("solutions", [record["simplest"]])
    label = "" if "solutions" in record else "simplest: "
    return "\n".join([head, *(f"  {label}{text} = {record['target']}" for text in shown)])


# --- odds ----------------------------------------------------------------------------------


def odds_record(
    targets: Sequence[int], dice: int, faces: int, rolls: int, rules: Rules
) -> dict[str, Any]:
    """The odds table (`odds.odds_table`) with its settings, as JSON-ready data."""
    from generator.numbers.odds import odds_table

    table = odds_table(targets, dice, faces, rolls, rules)
    return {
        "dice": dice,
        "faces": faces,
        "rolls": rolls,
        "division": rules.division,
        "ops": rules.ops,
        "targets": [
            {"target": o.target, "single_roll": o.single_roll, "within": o.within} for o in table
        ],
    }


def format_odds(record: dict[str, Any]) -> str:
    """An odds record as an aligned table of percentages, one row per target."""
    rolls = record["rolls"]
    rules = Rules(ops=record["ops"], division=record["division"])
    title = (
        f"{record['dice']} dice with {record['faces']} faces, up to {rolls} "
        f"roll{'s' if rolls != 1 else ''} keeping the best dice; "
        f"division: {record['division']}; operations: {ops_text(rules)}"
    )
    header = ("target", "1 roll", f"within {rolls} roll{'s' if rolls != 1 else ''}")
    rows = [
        (str(r["target"]), _percent(r["single_roll"]), _percent(r["within"]))
        for r in record["targets"]
    ]
    return title + "\n" + _table(header, rows, right={0, 1, 2})


# --- hold ----------------------------------------------------------------------------------


def check_roll(roll: Sequence[int], faces: int, where: str = "dice") -> None:
    """A roll the hold advice can handle (see `odds.check_dice`), each die showing 1–`faces`."""
    from generator.numbers.odds import check_dice

    try:
        check_dice(len(roll), faces, 1)
    except UserError as exc:
        # the dice count comes from the roll here, not from an option --dice
        raise UserError(
            exc.message, where=where if exc.where == Input("dice") else exc.where
        ) from None
    bad = [v for v in roll if not 1 <= v <= faces]
    if bad:
        raise UserError(f"expected faces 1–{faces}, found {bad[0]}", where=where)


def check_rolls_left(rolls_left: int, where: str = "rolls left") -> None:
    """Re-rolls still allowed: 0–MAX_ROLLS − 1."""
    from generator.numbers.odds import MAX_ROLLS

    if not 0 <= rolls_left <= MAX_ROLLS - 1:
        raise UserError(
            f"expected 0–{MAX_ROLLS - 1} re-rolls left, found {rolls_left}", where=where
        )


def hold_record(
    roll: Sequence[int], target: int, rolls_left: int, faces: int, rules: Rules
) -> dict[str, Any]:
    """Every keep of `roll` with the chance of making `target` from there, best first.

    Each option: keep (the dice set aside, sorted), reroll (the dice picked up again)
    and probability. Keeping every die means stopping. `made` says whether the roll
    already makes the target, `simplest` how (or None).
    """
    from generator.numbers.odds import hold_options

    check_roll(roll, faces)
    check_rolls_left(rolls_left)
    best = simplest(roll, target, rules)
    options = []
    for keep, p in hold_options(roll, target, rolls_left, faces, rules):
        reroll = sorted((Counter(roll) - Counter(keep)).elements())
        options.append({"keep": list(keep), "reroll": reroll, "probability": p})
    return {
        "roll": list(roll),
        "target": target,
        "rolls_left": rolls_left,
        "faces": faces,
        "division": rules.division,
        "ops": rules.ops,
        "made": best is not None,
        "simplest": best.text if best else None,
        "options": options,
    }


def format_hold(record: dict[str, Any]) -> str:
    """A hold record as text: the situation, then one row per keep, best first."""
    roll = " ".join(map(str, record["roll"]))
    left = record["rolls_left"]
    head = f"roll {roll}, target {record['target']}, {left} roll{'s' if left != 1 else ''} left"
    if record["made"]:
        head += f": made already, {record['simplest']} = {record['target']}"
    else:
        head += ": not made yet"
    rows = [
        (
            _dice(o["keep"], "nothing"),
            _dice(o["reroll"], "nothing (stop)"),
            _percent(o["probability"]),
        )
        for o in record["options"]
    ]
    return head + "\n" + _table(("keep", "re-roll", "success"), rows, right={2})


# --- text helpers --------------------------------------------------------------------------


def _dice(values: Sequence[int], empty: str) -> str:
    return " ".join(map(str, values)) if values else empty


def _percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    widths = [max(len(x) for x in column) for column in zip(header, *rows)]
    lines = []
    for row in (header, *rows):
        cells = [
            x.rjust(w) if i in right else x.ljust(w) for i, (x, w) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
