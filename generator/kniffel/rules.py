"""Kniffel/Yahtzee rule sets: `task_catalog/kniffel/<id>.yaml` loaded into frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.core.errors import CatalogError
from generator.core.fields import Fields, position
from generator.core.langs import LANGS
from generator.core.problems import Problems, each, require_all

KINDS = ("upper", "of_a_kind", "full_house", "straight", "yahtzee", "chance")
JOKERS = ("none", "free", "forced")
SUBDIR = "kniffel"


@dataclass(frozen=True)
class Box:
    """One box of the block: what it scores and what it is called."""

    id: str
    section: str  # "upper" | "lower"
    kind: str
    label: dict[str, str]
    hint: dict[str, str]
    face: int = 0  # upper boxes: the face that counts
    count: int = 0  # of_a_kind: how many equal dice
    length: int = 0  # straight: how many in a row
    score: int = 0  # fixed score (full house, straights, yahtzee)

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(frozen=True)
class RuleSet:
    id: str
    name: dict[str, str]
    lang: str
    boxes: tuple[Box, ...]
    bonus_threshold: int
    bonus_value: int
    extra_yahtzee_bonus: int
    joker: str
    source: str

    @property
    def upper(self) -> tuple[Box, ...]:
        return tuple(c for c in self.boxes if c.section == "upper")

    @property
    def lower(self) -> tuple[Box, ...]:
        return tuple(c for c in self.boxes if c.section == "lower")

    def box(self, key: str) -> Box:
        """A box by id or by its label in any language (case-insensitive)."""
        wanted = key.strip().casefold()
        for cat in self.boxes:
            names = {cat.id.casefold()} | {v.casefold() for v in cat.label.values()}
            if wanted in names:
                return cat
        raise KeyError(key)

    @property
    def yahtzee_box(self) -> Box | None:
        return next((c for c in self.boxes if c.kind == "yahtzee"), None)

    @property
    def has_yahtzee_bonus(self) -> bool:
        return self.extra_yahtzee_bonus > 0


def _box(data: object, file: str, index: int) -> Box:
    """One entry of the file's `categories:` list (the file format's word for a box)."""
    f = Fields(data, file, f"categories[{index}]")
    f.unknown_keys({"id", "section", "kind", "face", "count", "length", "score", "label", "hint"})
    kind = f.choice("kind", KINDS)
    cat = Box(
        id=f.get("id", str),
        section=f.choice("section", ("upper", "lower")),
        kind=kind,
        label=f.texts("label"),
        hint=f.texts("hint"),
        face=f.int_in("face", 1, 6) if kind == "upper" else 0,
        count=f.int_in("count", 2, 5) if kind == "of_a_kind" else 0,
        length=f.int_in("length", 4, 5) if kind == "straight" else 0,
        score=f.int_in("score", 0, 1000) if kind in ("full_house", "straight", "yahtzee") else 0,
    )
    if (cat.kind == "upper") != (cat.section == "upper"):
        raise f.error("section", f"categories[{index}]: kind '{kind}' belongs in the other section")
    return cat


def parse_rules(data: Any, label: str, problems: Problems | None = None) -> RuleSet:
    """Validate one rule-set file's data (`problems`: record bad boxes instead of raising)."""
    f = Fields(data, label)
    f.unknown_keys(
        {"id", "name", "lang", "upper_bonus", "extra_yahtzee_bonus", "joker", "categories"}
    )
    bonus = Fields(f.get("upper_bonus", dict), label, "upper_bonus")
    raw = f.get("categories", list)
    boxes = tuple(each(raw, lambda i, item: _box(item, label, i), problems))
    require_all(list(boxes), raw, label)
    ids = [c.id for c in boxes]
    for i, cid in enumerate(ids):
        if cid in ids[:i]:
            line, col = position(raw, i)
            raise CatalogError(
                f"category id '{cid}' appears twice", file=label, line=line, column=col
            )
    if not boxes:
        raise f.error("categories", "expected at least one category")
    rules = RuleSet(
        id=f.ident("id"),
        name=f.texts("name"),
        lang=f.choice("lang", LANGS),
        boxes=boxes,
        bonus_threshold=bonus.int_in("threshold", 0, 1000),
        bonus_value=bonus.int_in("value", 0, 1000),
        extra_yahtzee_bonus=f.int_in("extra_yahtzee_bonus", 0, 1000, 0),
        joker=f.choice("joker", JOKERS, "none"),
        source=label,
    )
    if rules.joker != "none" and rules.yahtzee_box is None:
        raise f.error("joker", "a joker needs a category of kind 'yahtzee'")
    return rules
