"""Check a filled-in Kniffel/Yahtzee game from YAML: totals per game, and the winner.

File format:

    rules: kniffel            # or yahtzee, or a path to a rule-set file
    players:
      - name: Anna
        games:                # one mapping per game column; boxes by id or label
          - {Einser: 3, Zweier: 6, …, Chance: 22}
      - name: Jörg
        games:
          - {ones: 2, …, yahtzee_bonus: 1}   # yahtzee_bonus: the number of ticks
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.core.errors import CatalogError, Msg, UserError
from generator.core.fields import Fields
from generator.kniffel.rules import RuleSet
from generator.kniffel.scoring import Totals, possible_scores, totals


@dataclass(frozen=True)
class GameCheck:
    """One checked game column: the boxes as filled, the bonus ticks and the sums."""

    boxes: dict[str, int]
    yahtzee_bonus_ticks: int
    totals: Totals

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": dict(self.boxes),
            "yahtzee_bonus_ticks": self.yahtzee_bonus_ticks,
            **dataclasses.asdict(self.totals),
        }


@dataclass(frozen=True)
class PlayerCheck:
    name: str
    games: tuple[GameCheck, ...]
    total: int


@dataclass(frozen=True)
class ScoreCheck:
    """What `dicesheets kniffel score` reports: every player's games and totals, the winner."""

    rules: str
    players: tuple[PlayerCheck, ...]
    winners: tuple[str, ...]
    best_total: int
    lang: str = "en"  # the rule set's language: the text report's default
    bonus_threshold: int = 63  # the upper section's bonus: `bonus_value` from this sum on
    bonus_value: int = 35

    def to_json(self) -> dict[str, Any]:
        """The JSON of `kniffel score --json` (made at the edge)."""
        return {
            "rules": self.rules,
            "players": [
                {"name": p.name, "games": [g.to_json() for g in p.games], "total": p.total}
                for p in self.players
            ],
            "winners": list(self.winners),
            "best_total": self.best_total,
        }


def _game(data: Any, rules: RuleSet, file: str, where: str) -> GameCheck:
    f = Fields(data, file, where)
    filled: dict[str, int] = {}
    ticks = 0
    for key in f.data:
        if str(key).casefold() in ("yahtzee_bonus", "bonus_ticks"):
            ticks = f.int_in(key, 0, 12)
            if not rules.has_yahtzee_bonus and ticks:
                raise f.error(key, Msg("rule_set_has_extra", where=where, id=rules.id))
            continue
        try:
            cat = rules.box(str(key))
        except KeyError:
            known = ", ".join(c.id for c in rules.boxes)
            raise f.error(
                key, Msg("unknown_box_expected_one", where=where, key=key, known=known)
            ) from None
        if cat.id in filled:
            raise f.error(key, Msg("box_filled_twice", where=where, id=cat.id))
        value = f.get(key, int)
        if value not in possible_scores(cat, rules):
            raise f.error(
                key, Msg("possible_score", where=where, value=value, label=cat.label[rules.lang])
            )
        filled[cat.id] = value
    missing = [c.id for c in rules.boxes if c.id not in filled]
    if missing:
        raise f.error(None, Msg("boxes_filled", where=where, missing=", ".join(missing)))
    return GameCheck(filled, ticks, totals(filled, rules, ticks))


def check_score(data: Any, file: str, rules_for: Callable[[str], RuleSet]) -> ScoreCheck:
    """Validate a filled-in score file's data and compute every total and the winner.

    `rules_for(name)` gives the rule set the file names (the edge resolves it).
    """
    f = Fields(data, file)
    f.unknown_keys({"rules", "players"})
    try:
        rules = rules_for(f.get("rules", str, "kniffel"))
    except UserError as exc:
        raise f.error("rules", exc.msg) from None
    players_raw = f.get("players", list)
    if not players_raw:
        raise f.error("players", Msg("expected_least_one_player"))
    players = []
    for i, entry in enumerate(players_raw):
        pf = Fields(entry, file, f"players[{i}]")
        pf.unknown_keys({"name", "games"})
        name = pf.get("name", str).strip()
        if not name:
            raise pf.error("name", Msg("players_name_empty", i=i))
        games_raw = pf.get("games", list)
        if not games_raw:
            raise pf.error("games", Msg("players_games_expected_least", i=i))
        games = tuple(
            _game(g, rules, file, f"{name}, game {j + 1}") for j, g in enumerate(games_raw)
        )
        players.append(PlayerCheck(name, games, sum(g.totals.grand_total for g in games)))
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise CatalogError(Msg("two_players_have_same"), file=file)
    best = max(p.total for p in players)
    winners = tuple(p.name for p in players if p.total == best)
    return ScoreCheck(
        rules.id,
        tuple(players),
        winners,
        best,
        rules.lang,
        rules.bonus_threshold,
        rules.bonus_value,
    )


def format_result(result: ScoreCheck, lang: str | None = None) -> str:
    """A short plain-text report in `lang` (default: the rule set's; names as given).

    Per player the games' totals, then per game the upper sum, the bonus it earns
    and the lower total, as the block's sum rows have them; then the winner.
    """
    lang = lang or result.lang
    lines = []
    for p in result.players:
        per_game = " + ".join(str(g.totals.grand_total) for g in p.games)
        lines.append(f"{p.name}: {per_game} = {p.total}")
        for number, game in enumerate(p.games, start=1):
            t = game.totals
            line = Msg(
                "score_game_sums",
                game=number,
                upper_sum=t.upper_sum,
                bonus=t.bonus,
                threshold=result.bonus_threshold,
                value=result.bonus_value,
                upper_total=t.upper_total,
                lower_total=t.lower_total,
                extra=t.yahtzee_bonus,
                total=t.grand_total,
            )
            lines.append("  " + line.say(lang))
    winners = ", ".join(result.winners)
    lines.append(Msg("score_winner", names=winners, total=result.best_total).say(lang))
    return "\n".join(lines)
