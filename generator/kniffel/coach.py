"""The coach: what to keep (or which box to fill) in a game position, by the solved table.

A position is the filled boxes with their points (`--filled "Einser=3,Kniffel=0"`,
ids or labels in any language, case-insensitive), the current dice and the
re-rolls left (0–2). The upper sum is the sum of the filled upper boxes;
`--upper`, if given, must equal it (it is a check against typos, not a second
source). Every option is valued as the expected final score: the points already
on the sheet plus the expected points still to come under optimal play
(extra Yahtzee bonuses already earned are not on the sheet and not counted).

An answer is worked out here in plain Python from the few table values it needs
(a few dozen: the states one box later), with the same sums in the same order as
`generator.core.rollhold` and `kniffel.solver.terminal_values`, so the figures are
theirs bit for bit (a test compares them) — and a fresh process does without numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, product
from typing import Any, Protocol

from generator.core.errors import InputError
from generator.kniffel.rules import RuleSet
from generator.kniffel.scoring import (
    allowed_boxes,
    extra_bonus,
    is_yahtzee,
    possible_scores,
    raw_score,
    score,
)
from generator.kniffel.table import DICE, FACES, ROLLS

# option values equal to this many decimals are tied (`generator.core.rollhold`'s rule)
_TIE_SCALE = 10.0**12


class Values(Protocol):
    """A solved table as the coach asks it (`kniffel.table.Table`, `kniffel.solver.Strategy`)."""

    @property
    def rules(self) -> RuleSet: ...

    def value(self, filled: int, upper: int, flag: int = 0) -> float: ...


@dataclass(frozen=True)
class Position:
    """A game between or during turns: the boxes filled so far and what that implies."""

    rules: RuleSet
    filled: dict[str, int]  # box id -> points, in rule order
    mask: int  # bit i: boxes[i] is filled
    upper: int  # sum of the filled upper boxes (uncapped)
    flag: int  # 1: the Yahtzee box holds its full score

    @property
    def points(self) -> int:
        """Points on the sheet: the filled boxes (bonuses are counted in the expectation)."""
        return sum(self.filled.values())


@dataclass(frozen=True)
class Option:
    """One choice and what it is worth: a keep (dice kept) or a box (points written)."""

    keep: tuple[int, ...] | None
    box: str | None
    points: int | None  # box options: the points written (extra bonus not included)
    extra: int  # box options: the extra Yahtzee bonus paid with it
    expected: float  # expected final score
    loss: float  # best expected final score minus this one


@dataclass(frozen=True)
class Advice:
    position: Position
    roll: tuple[int, ...]
    rolls_left: int
    options: tuple[Option, ...]  # best first
    stop_box: str | None  # with rolls left: the box the dice would go into when stopping now

    def to_json(self) -> dict[str, Any]:
        rules = self.position.rules
        out: dict[str, Any] = {
            "rules": rules.id,
            "joker": rules.joker,
            "filled": self.position.filled,
            "upper": self.position.upper,
            "points_so_far": self.position.points,
            "roll": list(self.roll),
            "rolls_left": self.rolls_left,
            "best": None,
            "options": [],
        }
        for opt in self.options:
            entry: dict[str, Any] = {"expected_final": opt.expected, "loss": opt.loss}
            if opt.keep is not None:
                entry["keep"] = list(opt.keep)
                entry["reroll"] = DICE - len(opt.keep)
                if len(opt.keep) == DICE:
                    entry["stop_and_score"] = self.stop_box
            else:
                entry.update(box=opt.box, points=opt.points, extra_bonus=opt.extra)
            out["options"].append(entry)
        out["best"] = out["options"][0]
        return out


def parse_filled(text: str | None, rules: RuleSet) -> dict[str, int]:
    """`"Einser=3, Kniffel=0"` -> {"ones": 3, "kniffel": 0} (rule order); InputError if wrong."""
    found: dict[str, int] = {}
    if text is None or not text.strip():
        return found
    for i, part in enumerate(text.split(","), start=1):
        name, sep, value = part.partition("=")
        if not name.strip():
            raise InputError("filled", f"entry {i} is empty (expected BOX=POINTS, …)")
        if not sep or not value.strip():
            raise InputError("filled", f"'{part.strip()}': expected BOX=POINTS, e.g. Einser=3")
        try:
            cat = rules.box(name)
        except KeyError:
            known = ", ".join(c.label[rules.lang] for c in rules.boxes)
            raise InputError(
                "filled", f"unknown box '{name.strip()}' (expected one of {known})"
            ) from None
        if cat.id in found:
            raise InputError("filled", f"box '{cat.label[rules.lang]}' is filled twice")
        try:
            points = int(value.strip())
        except ValueError:
            raise InputError("filled", f"'{part.strip()}': points must be a whole number") from None
        if points not in possible_scores(cat, rules):
            raise InputError(
                "filled", f"{points} is not a possible score for '{cat.label[rules.lang]}'"
            )
        found[cat.id] = points
    return {c.id: found[c.id] for c in rules.boxes if c.id in found}


def make_position(rules: RuleSet, filled_text: str | None, upper: int | None) -> Position:
    """The position of `--filled` and `--upper`; InputError if wrong or if the game is over."""
    filled = parse_filled(filled_text, rules)
    if len(filled) == len(rules.boxes):
        raise InputError("filled", "every box is filled: the game is over")
    upper_sum = sum(v for k, v in filled.items() if rules.box(k).kind == "upper")
    if upper is not None and upper != upper_sum:
        raise InputError("upper", f"the filled upper boxes add up to {upper_sum}, found {upper}")
    mask = sum(1 << i for i, c in enumerate(rules.boxes) if c.id in filled)
    ycat = rules.yahtzee_box
    flag = int(ycat is not None and filled.get(ycat.id) == ycat.score)
    return Position(rules, filled, mask, upper_sum, flag)


def parse_roll(tokens: Sequence[str]) -> tuple[int, ...]:
    """Five dice from `--roll 1 3 3 4 6`, `--roll 13346` or `--roll 1,3,3,4,6`."""
    text = " ".join(tokens).replace(",", " ").strip()
    parts = text.split()
    if len(parts) == 1 and parts[0].isascii() and parts[0].isdigit() and len(parts[0]) > 1:
        parts = list(parts[0])
    dice = []
    for part in parts:
        # ASCII digits only: '²' passes isdigit() but not int()
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= FACES:
            raise InputError("roll", f"a die shows 1–{FACES}, found '{part}'")
        dice.append(int(part))
    if len(dice) != DICE:
        raise InputError("roll", f"expected {DICE} dice, found {len(dice)}")
    return tuple(sorted(dice))


def advise(table: Values, position: Position, roll: tuple[int, ...], rolls_left: int) -> Advice:
    """Every keep (rolls left) or every allowed box (no roll left), best first."""
    if not 0 <= rolls_left < ROLLS:
        raise InputError("rolls_left", f"expected 0–{ROLLS - 1}, found {rolls_left}")
    if rolls_left == 0:
        return Advice(position, roll, 0, tuple(_box_options(table, position, roll)), None)
    terminal, choice = _terminal(table, position)
    ranked = _ranked(_keep_values(terminal, rolls_left), roll)
    best = ranked[0][1]
    keeps = tuple(
        Option(keep, None, None, 0, position.points + value, best - value) for keep, value in ranked
    )
    stop_box = table.rules.boxes[choice[_states().index[roll]]].id
    return Advice(position, roll, rolls_left, keeps, stop_box)


class _Dice:
    """Five dice as multisets: the keeps by size (sorted tuples, lexicographic), the states last.

    `index[k]` is a keep's place in its level; `add[m][i]` the places in level m + 1 of keep
    i of level m with one die 1..6 added; `less[m][i]` the places in level m − 1 of keep i
    with one die of each of its faces taken away.
    """

    def __init__(self) -> None:
        faces = range(1, FACES + 1)
        self.levels = [list(combinations_with_replacement(faces, m)) for m in range(DICE + 1)]
        self.index = {k: i for level in self.levels for i, k in enumerate(level)}
        self.add = [
            [[self.index[tuple(sorted((*k, f)))] for f in faces] for k in level]
            for level in self.levels[:-1]
        ]
        self.less: list[list[list[int]]] = [[]] + [
            [[self.index[k[: k.index(f)] + k[k.index(f) + 1 :]] for f in sorted(set(k))]
             for k in level]
            for level in self.levels[1:]
        ]  # fmt: skip


@cache
def _states() -> _Dice:
    return _Dice()


def _terminal(table: Values, position: Position) -> tuple[list[float], list[int]]:
    """Per final dice state: the best box's value (points, extra bonus, V after) and that box.

    `kniffel.solver.terminal_values` for one state (F, u, y): each candidate is one
    addition, the extra bonus added after the maximum; ties go to the first box.
    """
    rules, filled, mask = table.rules, position.filled, position.mask
    u, y = position.upper, position.flag
    states = _states().levels[DICE]
    best = [float("-inf")] * len(states)
    choice = [-1] * len(states)
    fives = {i for i, s in enumerate(states) if is_yahtzee(s)}
    for box, cat in enumerate(rules.boxes):
        if mask >> box & 1:
            continue
        after = mask | 1 << box
        if cat.kind == "upper":
            later = [table.value(after, u + cat.face * k, y) for k in range(DICE + 1)]
            cands = [s.count(cat.face) * cat.face + later[s.count(cat.face)] for s in states]
        elif cat.kind == "yahtzee":
            zero = table.value(after, u, 0)
            cands = [raw_score(s, cat) + zero for s in states]
            full = table.value(after, u, 1) + cat.score
            for i in fives:
                cands[i] = full
        else:
            later_v = table.value(after, u, y)
            cands = [raw_score(s, cat) + later_v for s in states]
        for i in fives:  # the joker's choice and points (`scoring`) for five equal dice
            s = states[i]
            if cat in allowed_boxes(s, rules, filled):
                points = score(s, cat, rules, filled)
                if cat.kind == "upper":
                    cands[i] = points + later[points // cat.face]
                elif cat.kind != "yahtzee":
                    cands[i] = points + later_v
            else:
                cands[i] = float("-inf")
        for i, cand in enumerate(cands):
            if cand > best[i]:
                best[i], choice[i] = cand, box
    for i in fives:
        best[i] += extra_bonus(states[i], rules, filled)
    return best, choice


def _keep_values(terminal: list[float], rolls_left: int) -> list[list[float]]:
    """Every keep's value with `rolls_left` re-rolls left, by level; keeping all is stopping.

    `rollhold`'s recurrence in its order: a keep's expectation sums its six one-die-more
    keeps from face 1 up, then divides by 6; the best keep inside a state is a maximum.
    """
    dice = _states()
    top = terminal
    for step in range(rolls_left):
        levels = [top]
        for m in range(DICE - 1, -1, -1):
            above = levels[0]
            row = []
            for adds in dice.add[m]:
                total = above[adds[0]]
                for j in adds[1:]:
                    total = total + above[j]
                row.append(total / FACES)
            levels.insert(0, row)
        if step == rolls_left - 1:
            levels[DICE] = terminal
            return levels
        best = [levels[0]]
        for m in range(1, DICE + 1):
            below = best[-1]
            best.append(
                [max(e, *(below[j] for j in less)) for e, less in zip(levels[m], dice.less[m])]
            )
        top = best[DICE]
    raise AssertionError("rolls_left ≥ 1")  # pragma: no cover


def _ranked(
    values: list[list[float]], roll: tuple[int, ...]
) -> list[tuple[tuple[int, ...], float]]:
    """The keeps of `roll` with their values, best first (`rollhold.Policy.ranked`'s order)."""
    counts = sorted({f: roll.count(f) for f in roll}.items())
    keeps = [
        tuple(f for (f, _), t in zip(counts, taken, strict=True) for _ in range(t))
        for taken in product(*(range(c + 1) for _, c in counts))
    ]
    keeps.sort(key=lambda k: (-len(k), k))
    index = _states().index
    found = [(k, values[len(k)][index[k]]) for k in keeps]
    # stable: values equal to 12 decimals keep the tie order (more dice, then smaller)
    return sorted(found, key=lambda kv: -round(kv[1] * _TIE_SCALE))


def _box_options(table: Values, position: Position, roll: tuple[int, ...]) -> list[Option]:
    rules, filled = table.rules, position.filled
    allowed = allowed_boxes(roll, rules, filled)
    rows = []
    for box, cat in enumerate(rules.boxes):
        if position.mask >> box & 1 or cat not in allowed:
            continue
        points = score(roll, cat, rules, filled)
        extra = extra_bonus(roll, rules, filled)
        upper = position.upper + (points if cat.kind == "upper" else 0)
        flag = position.flag
        if cat.kind == "yahtzee":
            flag = int(points == cat.score)
        later = table.value(position.mask | 1 << box, upper, flag)
        rows.append((cat.id, points, extra, points + extra + later))
    best = max(value for *_, value in rows)
    rows.sort(key=lambda row: -round(row[3], 9))  # stable: ties stay in rule order
    return [
        Option(None, box, points, extra, position.points + value, best - value)
        for box, points, extra, value in rows
    ]


def format_advice(advice: Advice) -> str:
    """The advice as a small text table for the terminal."""
    rules = advice.position.rules
    label = {c.id: c.label[rules.lang] for c in rules.boxes}
    joker = f" ({rules.joker} joker)" if rules.joker != "none" else ""
    pos = advice.position
    boxes = f"{len(pos.filled)} box{'es' if len(pos.filled) != 1 else ''}"
    head = (
        f"{rules.name[rules.lang]}{joker}, {boxes} filled, upper {pos.upper}, points "
        f"{pos.points}; roll {' '.join(map(str, advice.roll))}, {advice.rolls_left} rolls left"
    )
    lines = [head]
    if advice.rolls_left:
        lines.append(f"{'keep':<22}{'expected':>10}{'loss':>9}")
        for opt in advice.options:
            assert opt.keep is not None
            if len(opt.keep) == DICE:
                text = f"all (score {label[advice.stop_box or '']})"
            else:
                text = " ".join(map(str, opt.keep)) or "nothing (re-roll all)"
            lines.append(f"{text:<22}{opt.expected:>10.2f}{_loss(opt.loss):>9}")
    else:
        lines.append(f"{'box':<22}{'points':>7}{'expected':>10}{'loss':>9}")
        for opt in advice.options:
            pts = f"{opt.points}" + (f"+{opt.extra}" if opt.extra else "")
            name = label[opt.box or ""]
            lines.append(f"{name:<22}{pts:>7}{opt.expected:>10.2f}{_loss(opt.loss):>9}")
    return "\n".join(lines)


def _loss(loss: float) -> str:
    return "best" if loss < 5e-10 else f"−{loss:.2f}"
