"""The options of `kniffel odds`, apart from the card's build (no page code, no Jinja2)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.kniffel.simsize import DEFAULT_GAMES


@dataclass(frozen=True)
class OddsRequest:
    """The options of `dicesheets kniffel odds`."""

    rules: str = "kniffel"
    joker: str | None = None  # None: the rule set's own
    lang: str | None = None  # None: the rule set's own language
    games: int = DEFAULT_GAMES
    rules_page: bool = True
    paper: str = "a4"
    landscape: bool = False
    seed: int = 1
