"""Köpfchen boards: load (profile, templates) → build (board, figures, pages) → `Built`;
and the analysis of `dicesheets koepfchen analyze` as a value.

`generator.koepfchen.load.load_board` is the edge; `build_board` is pure
(sampling, exact figures, layout and manifest contents in memory), and so is
`analyze` (given the profile).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from generator.core.built import Built
from generator.core.errors import InputError, Msg
from generator.koepfchen.analysis import (
    RaceStats,
    Simulation,
    race_exact,
    simulate,
    turn_pmf,
    turn_stats,
)
from generator.koepfchen.board import Board, typed_targets
from generator.koepfchen.board import make_board as board_with
from generator.koepfchen.pages import Figures
from generator.koepfchen.profile import Profile
from generator.koepfchen.sampler import sample_board
from generator.text.words import Templates, difficulty_mark, page_label

RACE_PLAYERS = (2, 3, 4, 5, 6)
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class BoardRequest:
    profile: str = "classic"
    seed: int = 1
    lang: str = "de"
    paper: str = "a4"
    landscape: bool = False
    key: bool = True
    rules: bool = True
    targets: str | None = None  # typed targets, one per field ("3,8,12,…"): nothing sampled


def make_board(profile: Profile, seed: int, targets: str | None = None) -> tuple[Board, Figures]:
    """The board for `seed` (or with the typed `targets`) and its exact game-length figures."""
    if targets:
        board = board_with(profile, typed_targets(targets, profile), None)
    else:
        board = sample_board(profile, seed)
    pmf = turn_pmf(board.success)  # one distribution of the game length serves every figure
    figures = Figures(
        solo=turn_stats(board.success, pmf),
        races=tuple(race_exact(board.success, n, pmf) for n in RACE_PLAYERS),
    )
    return board, figures


@dataclass(frozen=True)
class BoardInputs:
    """What a board is built from: the profile and the templates."""

    profile: Profile
    templates: Templates


def build_board(inputs: BoardInputs, req: BoardRequest) -> Built:
    """The board, the rules page and the key: layout document and manifest contents (pure)."""
    from generator.koepfchen.key import hardest_targets
    from generator.koepfchen.layout import layout_sheet
    from generator.koepfchen.pages import board_view, key_story, key_title, rules_story

    profile, templates = inputs.profile, inputs.templates
    board, figures = make_board(profile, req.seed, req.targets)
    view = board_view(board, req.lang, figures, templates)
    rules = rules_story(board, req.lang, figures, templates) if req.rules else None
    hard = hardest_targets(board, profile.hardest) if req.key else []
    key = partial(key_story, board, req.lang, figures, hard, templates) if req.key else None
    title, page = view.words["title"], page_label(req.lang, templates)
    more = key_title(board, req.lang, templates, more=True)
    laid = layout_sheet(view, rules, key, req.paper, req.landscape, title, page, more)
    contents = _contents(board, figures, req, laid, hard)
    options = {
        "profile": req.profile,
        "lang": req.lang,
        "paper": req.paper,
        "landscape": req.landscape,
        "key": req.key,
        "rules": req.rules,
    }
    if req.targets:
        options["targets"] = list(board.targets)
    suffix = "-targets" if req.targets else "" if board.seed is None else f"-{board.seed}"
    name = f"koepfchen-{board.profile.id}{suffix}-{req.lang}.pdf"
    return Built("koepfchen board", name, laid.document, options, req.seed, contents)


def _r(x: float) -> float:
    return round(float(x), 6)


def _figures_json(figures: Figures) -> dict[str, Any]:
    solo = figures.solo
    return {
        "game_length": {
            "expected_turns": _r(solo.expected),
            "median_turns": solo.median,
            "p90_turns": solo.p90,
            "sd_turns": _r(solo.sd),
        },
        "races": [
            {
                "players": r.players,
                "expected_rounds": _r(r.expected_rounds),
                "median_rounds": r.median_rounds,
                "win_by_seat": [_r(w) for w in r.win_by_seat],
            }
            for r in figures.races
        ],
    }


def board_json(board: Board) -> dict[str, Any]:
    """The profile facts and every field's target and odds."""
    p = board.profile
    return {
        "profile": p.id,
        "profile_file": p.source,
        "sampled": board.seed is not None,  # (a fixed or a typed board: None)
        "track_length": p.length,
        "dice": {"count": p.dice, "faces": p.faces, "rolls": p.rolls},
        "ops": p.rules.ops,
        "division": p.rules.division,
        "fields": [
            {
                "field": f.index,
                "target": f.target,
                "single_roll": _r(f.single_roll),
                "within": _r(f.within),
                "level": f.level,
            }
            for f in board.fields
        ],
    }


def _contents(board: Board, figures: Figures, req: BoardRequest, sheet: Any, hard: list) -> dict:
    geo = sheet.geometry
    tables = [h for h in hard if h.detailed]
    return {
        "kind": "koepfchen-board",
        **board_json(board),
        **_figures_json(figures),
        "lang": req.lang,
        "pages": list(sheet.roles),
        "page_size_pt": [round(geo.page_w, 2), round(geo.page_h, 2)],
        "board": {
            "parts": geo.parts,
            "grid": [geo.cols, geo.rows],
            "cell_mm": [round(geo.cell_w * 25.4 / 72, 1), round(geo.cell_h * 25.4 / 72, 1)],
            "target_pt": round(sheet.target_pt, 2),
        },
        "key_targets": [h.target for h in hard],
        # the targets printed with every roll that makes them (the rest: a line each)
        "key_tables": [h.target for h in tables],
    }


@dataclass(frozen=True)
class Analysis:
    """`koepfchen analyze` as a value: the board, its exact figures and a seeded Monte Carlo."""

    board: Board
    figures: Figures
    seed: int
    games: int
    exact: RaceStats  # the exact race of `players`
    monte_carlo: Simulation

    def to_json(self) -> dict[str, Any]:
        """The JSON of `koepfchen analyze --json` (made at the edge)."""
        sim, exact = self.monte_carlo, self.exact
        return {
            "kind": "koepfchen-analysis",
            "seed": self.seed,
            **board_json(self.board),
            **_figures_json(self.figures),
            "monte_carlo": {
                "players": exact.players,
                "games": self.games,
                "seed": self.seed,
                "mean_rounds": _r(sim.mean_rounds),
                "se_rounds": _r(sim.se_rounds) if self.games > 1 else None,
                "median_rounds": sim.median_rounds,
                "win_by_seat": [_r(w) for w in sim.win_by_seat],
                "unfinished": sim.unfinished,
                "exact_rounds": _r(exact.expected_rounds),
                "exact_win_by_seat": [_r(w) for w in exact.win_by_seat],
            },
        }


def analyze(profile: Profile, seed: int, players: int, games: int) -> Analysis:
    """Exact figures for one player and for races, and a seeded Monte Carlo of `players`."""
    if not 1 <= players <= 6:
        raise InputError("players", Msg("range", low=1, high=6, noun="players", found=players))
    if not 1 <= games <= MAX_GAMES:
        raise InputError("games", Msg("range", low=1, high=MAX_GAMES, noun="games", found=games))
    board, figures = make_board(profile, seed)
    exact = race_exact(board.success, players)
    return Analysis(
        board, figures, seed, games, exact, simulate(board.success, players, games, seed)
    )


def format_analysis(analysis: Analysis) -> str:
    """A plain-text report (numbers and field names only)."""
    data = analysis.to_json()
    lines = [
        f"profile {data['profile']} ({data['profile_file']}), seed {data['seed']}: "
        f"{data['track_length']} fields, {data['dice']['count']} d{data['dice']['faces']}, "
        f"{data['dice']['rolls']} rolls, ops {data['ops']}, division {data['division']}",
        "",
        f"{'field':>5} {'target':>6} {'1 roll':>8} {'3 rolls':>8}".replace(
            "3 rolls", f"{data['dice']['rolls']} rolls"
        )
        + "  dots",
    ]
    for f in data["fields"]:
        lines.append(
            f"{f['field']:>5} {f['target']:>6} {f['single_roll']:>8.3f} {f['within']:>8.3f}  "
            + difficulty_mark(f["level"])
        )
    g = data["game_length"]
    lines += [
        "",
        f"one player, exact: expected {g['expected_turns']:.2f} turns, median {g['median_turns']}, "
        f"90th percentile {g['p90_turns']}, sd {g['sd_turns']:.2f}",
    ]
    for r in data["races"]:
        wins = " ".join(f"{w:.3f}" for w in r["win_by_seat"])
        lines.append(
            f"{r['players']} players, exact: {r['expected_rounds']:.2f} rounds "
            f"(median {r['median_rounds']}), win by seat {wins}"
        )
    mc = data["monte_carlo"]
    se = f" ± {mc['se_rounds']:.2f}" if mc["se_rounds"] is not None else ""
    lines += [
        "",
        f"Monte Carlo, {mc['players']} player(s), {mc['games']} games, seed {mc['seed']}: "
        f"{mc['mean_rounds']:.2f}{se} rounds (exact {mc['exact_rounds']:.2f}), "
        f"median {mc['median_rounds']:g}",
        "  win by seat "
        + " ".join(f"{w:.3f}" for w in mc["win_by_seat"])
        + "  (exact "
        + " ".join(f"{w:.3f}" for w in mc["exact_win_by_seat"])
        + ")",
    ]
    return "\n".join(lines)
