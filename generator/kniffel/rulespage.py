"""The Kniffel/Yahtzee rules page as data: the words in force and every box's condition,
points and a worked example (no geometry; `kniffel.rulespage_layout` places them).

Every box is described from the rule set itself (its kind, count, length and fixed
score), and every example's points come from the scoring engine
(`scoring.raw_score`), so the page says what the block and the solver count. The joker
paragraph is the rule set's joker after `--joker` (`solver.with_joker`), worded as
`scoring` plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.kniffel.rules import Box, RuleSet
from generator.kniffel.scoring import Roll, raw_score
from generator.text.words import Templates, Texts

TEMPLATE = "kniffel_rules"
TIPS = ("tip_easy_first", "tip_chance", "tip_kniffel_last")  # the seed's three tips


@dataclass(frozen=True)
class BoxLine:
    """One row of the rules page's box table."""

    id: str
    section: str
    label: str
    need: str  # what the dice must show
    points: str  # what the box scores
    example: Roll  # a roll that fits, drawn as dice
    example_points: int  # its points in this box (scoring.raw_score)
    example_text: str  # "= 20"


@dataclass(frozen=True)
class RulesView:
    """Everything the rules page prints, in its language."""

    rules: RuleSet
    lang: str
    title: str
    footer: str
    sections: tuple[tuple[str, tuple[str, ...]], ...]  # (heading, paragraphs) before the boxes
    columns: tuple[str, str, str, str]  # box | you need | points | example
    upper_heading: str
    lower_heading: str
    boxes: tuple[BoxLine, ...]
    after: tuple[tuple[str, tuple[str, ...], bool], ...]  # (heading, texts, as bullets)


def example_roll(box: Box) -> Roll:
    """A roll that fits `box`, the kind a family would roll (sorted, not all alike)."""
    if box.kind == "upper":
        others = [f for f in (2, 5, 6, 1, 3, 4) if f != box.face][:2]
        return tuple(sorted((box.face,) * 3 + tuple(others)))
    if box.kind == "of_a_kind":
        main, other = (4, 2) if box.count <= 3 else (5, 3)
        rest = (other, 6)[: 5 - box.count]
        return tuple(sorted((main,) * box.count + rest))
    if box.kind == "full_house":
        return (3, 3, 3, 6, 6)
    if box.kind == "straight":
        run = tuple(range(2, 2 + box.length))
        return tuple(sorted(run + (5,) * (5 - len(run)))) if box.length < 5 else run
    if box.kind == "yahtzee":
        return (6,) * 5
    return (1, 3, 4, 5, 6)  # chance


def _runs(length: int) -> list[str]:
    """The runs of `length` faces on a die: "1-2-3-4", "2-3-4-5", "3-4-5-6"."""
    return ["-".join(str(f) for f in range(a, a + length)) for a in range(1, 8 - length)]


def box_line(box: Box, lang: str, t: Texts) -> BoxLine:
    """What `box` needs and scores, stated from its kind, with a worked example."""
    kind = box.kind
    by_kind: dict[str, dict[str, Any]] = {
        "upper": {"label": box.label[lang], "face": box.face},
        "of_a_kind": {"count": box.count},
        "straight": {"length": box.length, "runs": _runs(box.length)},
    }
    args = by_kind.get(kind, {})
    need = t(f"need_{kind}", **args)
    fixed = kind in ("full_house", "straight", "yahtzee")
    points = t("points_fixed", score=box.score) if fixed else t(f"points_{kind}", **args)
    roll = example_roll(box)
    got = raw_score(roll, box)
    return BoxLine(
        box.id, box.section, box.label[lang], need, points, roll, got, t("example", points=got)
    )


def rules_view(rules: RuleSet, lang: str, templates: Templates | None = None) -> RulesView:
    """The rules page of `rules` (its joker as played) in `lang`."""
    t = Texts(TEMPLATE, lang, templates)
    name = rules.name[lang]
    ybox = rules.yahtzee_box
    y = {"yahtzee": ybox.label[lang] if ybox else "", "full": ybox.score if ybox else 0}
    faces = [b.face for b in rules.upper]
    three_each = 3 * sum(faces)
    sections = (
        (t("h_material"), (t("material"),)),
        (t("h_goal"), (t("goal", boxes=len(rules.boxes)),)),
        (t("h_turn"), (t("turn"), t("fill", boxes=len(rules.boxes)))),
    )
    bonus = t(
        "bonus",
        threshold=rules.bonus_threshold,
        value=rules.bonus_value,
        three_each=three_each,
        sum_text=" + ".join(str(3 * f) for f in faces),
    )
    extra = t("extra", extra=rules.extra_yahtzee_bonus, **y)
    joker = t(f"joker_{rules.joker}", **y)
    after = (
        (t("h_bonus"), (bonus, extra), False),
        (t("h_joker", **y), (joker,), False),
        (t("h_end"), (t("end", extra=rules.extra_yahtzee_bonus),), False),
        (t("h_good_to_know"), (t("know_pasch"), t("know_full_house", **y),
                               t("know_straight"), t("know_zero")), True),
        (t("h_tips"), tuple(t(k, **y) for k in TIPS), True),
    )  # fmt: skip
    return RulesView(
        rules=rules,
        lang=lang,
        title=t("title", rules_name=name),
        footer=t("footer", rules_name=name),
        sections=sections,
        columns=(t("col_box"), t("col_need"), t("col_points"), t("col_example")),
        upper_heading=t("h_upper", bonus=rules.bonus_value, threshold=rules.bonus_threshold),
        lower_heading=t("h_lower"),
        boxes=tuple(box_line(b, lang, t) for b in rules.boxes),
        after=after,
    )


def rules_contents(view: RulesView) -> dict[str, Any]:
    """What the manifest records of the rules page: the boxes as printed, the joker."""
    return {
        "rules": view.rules.id,
        "joker": view.rules.joker,
        "boxes": [
            {
                "id": b.id,
                "label": b.label,
                "need": b.need,
                "points": b.points,
                "example": list(b.example),
                "example_points": b.example_points,
            }
            for b in view.boxes
        ],
    }
