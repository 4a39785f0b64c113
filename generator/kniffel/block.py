"""The Kniffel score block as data: which rows, which words, how many blocks (no geometry)."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.errors import InputError, Msg
from generator.kniffel.rules import RuleSet
from generator.text.words import Templates, Texts, comma_names

MAX_PLAYERS = 8
MAX_GAMES = 6
MAX_COPIES = 1000  # 8,000 blocks: a few seconds and a few MB (the grid is one PDF form)


@dataclass(frozen=True)
class BlockRow:
    """One row of the block: a box to fill (kind "category", the manifest's word), or a sum line."""

    kind: str  # "category" | "sum" | "total" | "yahtzee_bonus" (the tick boxes)
    key: str
    label: str
    hint: str = ""


@dataclass(frozen=True)
class BlockSpec:
    rules: RuleSet
    lang: str
    games: int
    names: tuple[str, ...]  # one entry per block of one copy; "" = a blank name line
    copies: int = 1
    templates: Templates | None = field(default=None, compare=False)  # None: the shipped ones

    @property
    def blocks(self) -> tuple[str, ...]:
        """The name of every block in print order (all players, then the next copy)."""
        return self.names * self.copies


def make_spec(
    rules: RuleSet,
    lang: str,
    players: int | None,
    games: int,
    names: str | None,
    copies: int,
    templates: Templates | None = None,
) -> BlockSpec:
    """Check the block options against each other and build the spec."""
    name_list = comma_names(names) if names is not None else ()
    if players is None:
        players = len(name_list) or 1
    if not 1 <= players <= MAX_PLAYERS:
        raise InputError(
            "players", Msg("range", low=1, high=MAX_PLAYERS, noun="players", found=players)
        )
    if len(name_list) > players:
        raise InputError("names", Msg("names_given_for", names=len(name_list), players=players))
    if not 1 <= games <= MAX_GAMES:
        raise InputError(
            "games", Msg("range", low=1, high=MAX_GAMES, noun="game columns", found=games)
        )
    if not 1 <= copies <= MAX_COPIES:
        raise InputError(
            "copies", Msg("range", low=1, high=MAX_COPIES, noun="copies", found=copies)
        )
    padded = name_list + ("",) * (players - len(name_list))
    return BlockSpec(rules, lang, games, padded, copies, templates)


def block_rows(spec: BlockSpec) -> list[BlockRow]:
    """The rows of one block from top to bottom, with their words in the block's language."""
    t = Texts("kniffel_block", spec.lang, spec.templates)
    rules, lang = spec.rules, spec.lang
    bonus = {"threshold": rules.bonus_threshold, "value": rules.bonus_value}
    rows = [BlockRow("category", c.id, c.label[lang], c.hint[lang]) for c in rules.upper]
    rows += [
        BlockRow("sum", "upper_sum", t("upper_sum"), t("upper_sum_hint")),
        BlockRow("sum", "bonus", t("bonus", **bonus), t("bonus_hint", **bonus)),
        BlockRow("total", "upper_total", t("upper_total")),
    ]
    rows += [BlockRow("category", c.id, c.label[lang], c.hint[lang]) for c in rules.lower]
    if rules.has_yahtzee_bonus and rules.yahtzee_box is not None:
        # as on the real pad: a row to tick each further Yahtzee, a row for its points
        extra = {"name": rules.yahtzee_box.label[lang], "value": rules.extra_yahtzee_bonus}
        rows += [
            BlockRow(
                "yahtzee_bonus",
                "yahtzee_bonus",
                t("yahtzee_bonus", **extra),
                t("yahtzee_bonus_hint", **extra),
            ),
            BlockRow(
                "sum",
                "yahtzee_bonus_points",
                t("yahtzee_bonus_points", **extra),
                t("yahtzee_bonus_points_hint", **extra),
            ),
        ]
    rows += [
        BlockRow("sum", "lower_total", t("lower_total")),
        BlockRow("sum", "upper_total_again", t("upper_total")),
        BlockRow("total", "grand_total", t("grand_total")),
    ]
    return rows


def block_words(spec: BlockSpec) -> dict[str, str]:
    """The header words of a block (title, name label, game headings)."""
    t = Texts("kniffel_block", spec.lang, spec.templates)
    words = {
        "title": spec.rules.name[spec.lang],
        "name_label": t("name_label"),
        "games_label": t("games_label"),
        "family_title": t("family_title"),
    }
    for g in range(1, spec.games + 1):
        words[f"game_{g}"] = t("game_label", n=g)
    words["footer"] = t("footer", rules_name=spec.rules.name[spec.lang])
    return words
