"""The coach: what to keep (or which box to fill) in a game position, by the solved table.

A position is the filled boxes with their points (`--filled "Einser=3,Kniffel=0"`,
ids or labels in any language, case-insensitive), the current dice and the
re-rolls left (0–2). The upper sum is the sum of the filled upper boxes;
`--upper`, if given, must equal it (it is a check against typos, not a second
source). Every option is valued as the expected final score: the points already
on the sheet plus the expected points still to come under optimal play
(extra Yahtzee bonuses already earned are not on the sheet and not counted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.core.errors import InputError
from generator.core.rollhold import policy
from generator.kniffel.rules import RuleSet
from generator.kniffel.scoring import possible_scores
from generator.kniffel.solver import DICE, FACES, ROLLS, Strategy, dice_space


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


def advise(
    strategy: Strategy, position: Position, roll: tuple[int, ...], rolls_left: int
) -> Advice:
    """Every keep (rolls left) or every allowed box (no roll left), best first."""
    if not 0 <= rolls_left < ROLLS:
        raise InputError("rolls_left", f"expected 0–{ROLLS - 1}, found {rolls_left}")
    space = dice_space()
    state = space.index(roll)
    terminal, choice = strategy.terminal(
        np.array([position.mask]),
        np.array([position.upper]),
        np.array([position.flag]),
        with_choice=True,
    )
    assert choice is not None
    if rolls_left == 0:
        options = _box_options(strategy, position, state)
        return Advice(position, roll, 0, tuple(options), None)
    ranked = policy(space, terminal[0], ROLLS).ranked(roll, rolls_left)
    best = ranked[0][1]
    keeps = tuple(
        Option(keep, None, None, 0, position.points + value, best - value) for keep, value in ranked
    )
    stop_box = strategy.rules.boxes[int(choice[0, state])].id
    return Advice(position, roll, rolls_left, keeps, stop_box)


def _box_options(strategy: Strategy, position: Position, state: int) -> list[Option]:
    game = strategy.game
    allowed = game.allowed(np.asarray(position.mask))  # (boxes, 6)
    face = max(range(1, FACES + 1), key=lambda f: game.counts[f, state])
    five = state in set(game.yahtzee_states.tolist())
    rows = []
    for box, cat in enumerate(game.rules.boxes):
        if position.mask >> box & 1 or (five and not allowed[box, face - 1]):
            continue
        where = np.asarray(box), np.asarray(state), np.asarray(position.mask)
        points = int(game.points(*where))
        extra = game.extra if five and position.flag else 0
        upper = position.upper + (points if cat.kind == "upper" else 0)
        flag = position.flag
        if box == game.yahtzee_box:
            flag = int(points == cat.score)
        later = strategy.value(position.mask | 1 << box, upper, flag)
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
