"""The worksheet topics of Klasse 1–4: the topic table, the controls and the printed words.

One module per family of topics (`drills`, `written`, `puzzles`), each with its
generator (`Topic.space`) and its exact, independent checker (`Topic.check`);
`base` holds the task model and the dealer every topic shares.
"""

from __future__ import annotations

from generator.core.errors import InputError, Msg
from generator.worksheet.topics import chance, drills, puzzles, written
from generator.worksheet.topics.base import Controls, Task, Topic

TOPICS: tuple[Topic, ...] = tuple(
    sorted(
        (*drills.TOPICS, *written.TOPICS, *puzzles.TOPICS, *chance.TOPICS), key=lambda t: t.klasse
    )
)
BY_ID = {t.id: t for t in TOPICS}
CONTROLS = ("range", "carry", "unknown", "rows", "dice")  # the CLI spells them --range …


def topic(name: str) -> Topic:
    """The topic called `name`, or an error listing them all."""
    found = BY_ID.get(name)
    if found is None:
        raise InputError(
            "topic", Msg("unknown_topic_expected_one", name=name, by_id=", ".join(BY_ID))
        )
    return found


def check_controls(t: Topic, controls: Controls) -> None:
    """A control the topic does not have, or a carry it can never have, is an error."""
    given = {
        "range": controls.range is not None,
        "carry": controls.carry is not None,
        "unknown": controls.unknown is not None,
        "rows": controls.rows is not None,
        "dice": controls.dice,
    }
    for name, present in given.items():
        if present and name not in t.controls:
            own = ", ".join(t.controls) or "none"
            raise InputError(name, Msg("topic_has_control_controls", id=t.id, name=name, own=own))
    if t.carry and controls.carry and controls.carry != t.carry:
        raise InputError(
            "carry",
            # the topic's own name too: a German page says it in German, not by its id
            Msg(
                "carry_topic_problems_exist",
                carry=controls.carry,
                id=t.id,
                carry2=t.carry,
                name=dict(t.name),
            ),
        )


def parse_range(text: str) -> tuple[int, int]:
    """`--range 20-100` → (20, 100)."""
    parts = text.replace("–", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InputError("range", Msg("expected_two_whole_numbers", text=text))
    lo, hi = int(parts[0]), int(parts[1])
    if lo > hi:
        raise InputError("range", Msg("first_number_larger_second", text=text))
    return lo, hi


def parse_rows(text: str) -> tuple[int, ...]:
    """`--rows 2,5,10` → (2, 5, 10); every row 1–10."""
    try:
        rows = tuple(sorted({int(p) for p in text.replace(" ", "").split(",") if p}))
    except ValueError:
        raise InputError("rows", Msg("expected_rows_such_found_2", text=text)) from None
    if not rows or not all(1 <= r <= 10 for r in rows):
        raise InputError("rows", Msg("expected_rows_such_found", text=text))
    return rows


# --- the printed words -------------------------------------------------------------------

SIGNS = {
    "de": {"+": "+", "-": "−", "*": "·", "/": ":"},
    "en": {"+": "+", "-": "−", "*": "×", "/": "÷"},
}
REMAINDER = {"de": "R", "en": "r"}
PLACES = {"de": {10: "Zehner", 100: "Hunderter"}, "en": {10: "nearest 10", 100: "nearest 100"}}
BLANK = "__"


def _v(value: int | None) -> str:
    return BLANK if value is None else str(value)


def _rows(rows: tuple[tuple[int | None, ...], ...]) -> str:
    return " / ".join(" ".join(_v(v) for v in row) for row in rows)


EVENTS = {
    "de": {
        1: ("eine {v}", "mindestens eine {v}", "höchstens eine {v}", "eine gerade Zahl",
            "eine ungerade Zahl", ""),
        2: ("die Augensumme {v}", "eine Augensumme von mindestens {v}",
            "eine Augensumme von höchstens {v}", "eine gerade Augensumme",
            "eine ungerade Augensumme", "einen Pasch"),
    },
    "en": {
        1: ("a {v}", "at least {v}", "at most {v}", "an even number", "an odd number", ""),
        2: ("a total of {v}", "a total of at least {v}", "a total of at most {v}",
            "an even total", "an odd total", "a double"),
    },
}  # fmt: skip
DICE = {"de": {1: "einem Würfel", 2: "zwei Würfeln"}, "en": {1: "one die", 2: "two dice"}}
VERDICT = {"de": ("unmöglich", "möglich", "sicher"), "en": ("impossible", "possible", "certain")}
SAME = {"de": "gleich wahrscheinlich", "en": "equally likely"}


def event_text(event: tuple[int | None, ...], lang: str) -> str:
    dice, kind, value = (int(v or 0) for v in event)
    return EVENTS[lang][dice][kind].format(v=value)


def chance_question(task: Task, lang: str) -> tuple[str, tuple[str, ...]]:
    """The question of a dice-chance task and the answers a pupil ticks ((): write a number)."""
    first = task.cells[0]
    dice = int(first[0] or 0)
    what = event_text(first, lang)
    kind = task.ops[0]
    if kind == "judge":
        if lang == "de":
            return f"Mit {DICE[lang][dice]} {what} würfeln:", VERDICT[lang][::-1]
        return f"Rolling {what} with {DICE[lang][dice]}:", VERDICT[lang][::-1]
    if kind == "compare":
        other = event_text(task.cells[1], lang)
        if lang == "de":
            q = f"Mit {DICE[lang][dice]}: Was ist wahrscheinlicher?"
        else:
            q = f"With {DICE[lang][dice]}: which is more likely?"
        return q, (what, other, SAME[lang])
    n = task.cells[1][0]
    if lang == "de":
        return f"Du würfelst {n}-mal mit {DICE[lang][dice]}. Wie oft erwartest du {what}?", ()
    return f"You roll {DICE[lang][dice]} {n} times. How often do you expect {what}?", ()


def _fraction(k: int, n: int, lang: str) -> str:
    from fractions import Fraction

    p = Fraction(k, n)
    of = "von" if lang == "de" else "out of"
    if p in (0, 1):
        return f"{k} {of} {n}"
    return f"{p.numerator}/{p.denominator}" + (f", {k} {of} {n}" if p.denominator != n else "")


def tally_text(task: Task, lang: str) -> str:
    dice, n = (int(v or 0) for v in task.cells[0])
    if lang == "de":
        what = "die Augenzahl" if dice == 1 else "die Augensumme"
        return (
            f"Würfle {n}-mal mit {DICE[lang][dice]} und mache für {what} jedes Wurfs einen Strich."
        )
    what = "number" if dice == 1 else "total"
    return f"Roll {DICE[lang][dice]} {n} times and make a tally mark for each {what}."


def task_text(task: Task, lang: str) -> str:
    """The question as printed, a blank as `__`."""
    signs = SIGNS[lang]
    row = task.cells[0]
    if task.shape == "chance":
        question, options = chance_question(task, lang)
        if options:
            return f"{question} {' / '.join(options)}? {BLANK}"
        return f"{question} {BLANK}"
    if task.shape == "tally":
        return tally_text(task, lang)
    if task.shape in ("equation", "column"):
        sign = f" {signs[task.ops[0]]} "
        return f"{sign.join(_v(v) for v in row[:-1])} = {_v(row[-1])}"
    if task.shape == "remainder":
        a, b, q, r = row
        return f"{a} {signs['/']} {b} = {_v(q)} {REMAINDER[lang]} {_v(r)}"
    if task.shape == "round":
        return f"{row[0]} ≈ {_v(row[1])} ({PLACES[lang][task.note]})"
    if task.shape == "chain":
        parts = [_v(row[0])]
        for op, k, v in zip(task.ops, task.cells[1], row[1:]):
            parts.append(f"{signs[op]} {k} → {_v(v)}")
        return " ".join(parts)
    if task.shape == "square":
        return f"{_rows(task.cells)} (= {task.note})"
    return _rows(task.cells)


def answer_text(task: Task, solution: tuple[tuple[int, ...], ...], lang: str) -> str:
    """The answer as the key prints it: the blank's number, or the completed rows."""
    row = solution[0]
    if task.shape == "chance":
        return chance_answer(task, solution, lang)
    if task.shape == "tally":
        of = "erwartet" if lang == "de" else "expected"
        return "; ".join(f"{r[0]}: {r[1] // r[2]} {of} ({r[3]}–{r[4]})" for r in solution[1:])
    if task.shape in ("equation", "column"):
        blanks = [v for v, shown in zip(row, task.cells[0]) if shown is None]
        return " ".join(str(v) for v in blanks)
    if task.shape == "remainder":
        return f"{row[2]} {REMAINDER[lang]} {row[3]}"
    if task.shape == "round":
        return str(row[1])
    if task.shape == "chain":
        return " → ".join(str(v) for v in row)
    return _rows(tuple(tuple(r) for r in solution))


GRID_SHAPES = ("wall", "house", "triangle", "square", "chain")


def chance_answer(task: Task, solution: tuple[tuple[int, ...], ...], lang: str) -> str:
    """The key's answer: the verdict or the count, with the exact probability."""
    from generator.worksheet.topics.chance import probability

    def p_of(event: tuple[int, ...]) -> str:
        p = probability((event[0], event[1], event[2]))
        total = 6 ** event[0]
        return _fraction(p.numerator * total // p.denominator, total, lang)

    kind = task.ops[0]
    first = solution[0]
    if kind == "judge":
        return f"{VERDICT[lang][solution[1][0]]} ({p_of(first)})"
    if kind == "compare":
        second = solution[1]
        pick = solution[2][0]
        what = (event_text(first, lang), event_text(second, lang), SAME[lang])[pick]
        return f"{what} ({p_of(first)} : {p_of(second)})"
    n, expected = solution[1]
    times = "-mal" if lang == "de" else " times"
    return (
        f"{expected}{times} ({p_of(first)} · {n})"
        if lang == "de"
        else (f"{expected}{times} ({p_of(first)} × {n})")
    )
