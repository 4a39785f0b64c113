"""The playtesters' balance report: the figures and charts of a Köpfchen board or a Kribbeln block.

Pure data: a `BalanceReport` holds key figures, chart specs and the JSON written
beside the PDF; `balance_report_layout.py` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.text import Texts, number, percent


@dataclass(frozen=True)
class Chart:
    """A chart to draw: bars (one series) or lines (one or more series)."""

    kind: str  # "bar" | "line"
    title: str
    y_label: str
    labels: tuple[str, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]
    y_max: float | None = None
    label_every: int = 1


@dataclass(frozen=True)
class BalanceReport:
    game: str
    title: str
    subtitle: str
    figures: tuple[tuple[str, str], ...]
    charts: tuple[Chart, ...]
    data: dict[str, Any] = field(default_factory=dict)


def _every(n: int, room: int = 20) -> int:
    """Label every k-th bar so that about `room` labels fit."""
    return max(1, -(-n // room))


def koepfchen_report(profile_name: str, seed: int, players: int, lang: str) -> BalanceReport:
    """Odds along the track, one player's game length and the win rate by seat (all exact)."""
    from generator.errors import OptionError
    from generator.koepfchen.analysis import race_exact, turn_pmf, turn_stats
    from generator.koepfchen.profile import load_profile
    from generator.koepfchen.sheet import make_board

    if not 2 <= players <= 6:
        raise OptionError("--players", f"expected 2–6 players, found {players}")
    t = Texts("report", lang)
    profile = load_profile(profile_name)
    board, _ = make_board(profile, seed)
    success = board.success
    solo = turn_stats(success)
    race = race_exact(success, players)
    pmf = turn_pmf(success)
    cut = max(solo.p90 * 2, 10)
    lengths = tuple(float(p) for p in pmf[: cut + 1])
    fields = [str(f.index) for f in board.fields]
    hardest = min(board.fields, key=lambda f: f.within)
    charts = (
        Chart("line", t("kp_track"), t("kp_track_y"), tuple(fields),
              ((t("kp_within", rolls=profile.rolls), success),
               (t("kp_single"), tuple(f.single_roll for f in board.fields))),
              y_max=1.0, label_every=_every(len(fields), 20)),
        Chart("bar", t("kp_length"), t("kp_length_y"), tuple(str(i) for i in range(len(lengths))),
              (("", lengths),), label_every=_every(len(lengths), 20)),
        Chart("bar", t("kp_seats", players=players), "", tuple(
            t("kp_seat", n=i + 1) for i in range(players)), (("", race.win_by_seat),)),
    )  # fmt: skip
    figures = (
        (t("kp_expected"), number(solo.expected, lang)),
        (t("kp_median"), f"{solo.median} / {solo.p90}"),
        (t("kp_rounds", players=players), number(race.expected_rounds, lang)),
        (t("kp_hardest"), f"{hardest.target} ({percent(hardest.within, lang)})"),
    )
    data = {
        "game": "koepfchen",
        "profile": profile.id,
        "seed": seed,
        "players": players,
        "targets": list(board.targets),
        "within": [round(p, 12) for p in success],
        "single_roll": [round(f.single_roll, 12) for f in board.fields],
        "expected_turns": round(solo.expected, 9),
        "median_turns": solo.median,
        "p90_turns": solo.p90,
        "turn_pmf": [round(p, 12) for p in lengths],
        "expected_rounds": round(race.expected_rounds, 9),
        "win_by_seat": [round(w, 12) for w in race.win_by_seat],
    }
    return BalanceReport(
        "koepfchen",
        t("title", game=t("kp_game")),
        t("subtitle", what=t("kp_what", profile=profile.name[lang]), seed=seed),
        figures,
        charts,
        data,
    )


def write_report(report: BalanceReport, lang: str, paper: str, landscape: bool,
                 out: Any, options: dict[str, Any], seed: int) -> Any:  # fmt: skip
    """Render the report PDF and write it with its JSON manifest; return the path."""
    from generator.balance_report_layout import layout_report
    from generator.output import build_manifest, resolve_out, write_pdf
    from generator.render.draw import render_pdf

    path = resolve_out(out, f"report-{report.game}-{lang}.pdf")
    pdf = render_pdf(layout_report(report, lang, paper, landscape))
    contents = {"kind": f"{report.game}-report", "figures": dict(report.figures), **report.data}
    write_pdf(path, pdf, build_manifest("report", options, seed, contents))
    return path


def kribbeln_report(pages: int, seed: int, players: int, games: int, lang: str,
                    balance_file: str | None = None, dice_file: str | None = None,
                    tasks_file: str | None = None) -> BalanceReport:  # fmt: skip
    """Difficulty per sheet and area, the catalog's odds, simulated X rates and seat points."""
    from generator.kribbeln.playtest import run
    from generator.kribbeln.sheet import make_block
    from generator.kribbeln.solver import analyze_tasks

    t = Texts("report", lang)
    block, _ = make_block(pages, seed, balance_file, dice_file, tasks_file)
    catalog_figures = analyze_tasks(block.dice, block.catalog.tasks, block.catalog.rolls)
    sim, _ = run(players, games, seed, "pips", None, None, balance_file, dice_file, tasks_file)
    area_labels, area_means = [], []
    for sheet in block.sheets:
        for area in (1, 2, 3):
            tasks = sheet.area_tasks(area)
            area_labels.append(t("kr_sheet_area", sheet=sheet.number, area=area))
            area_means.append(sum(block.figures[x.id].p_success for x in tasks) / len(tasks))
    bins = [i / 20 for i in range(21)]
    counts = [0.0] * 20
    for fig in catalog_figures.values():
        counts[min(19, int(fig.p_success * 20))] += 1
    x_labels = [f"{x['sheet']}.{x['row']}" for x in sim["tasks"]]
    block_p = [block.figures[x.id].p_success for s in block.sheets for x in s.tasks]
    charts = (
        Chart("bar", t("kr_sheets"), "", tuple(area_labels), (("", tuple(area_means)),),
              label_every=_every(len(area_labels), 18)),
        Chart("bar", t("kr_catalog"), t("kr_count"),
              tuple(f"{int(100 * b)}" for b in bins[:-1]), (("", tuple(counts)),), label_every=2),
        Chart("bar", t("kr_xrate"), t("kr_xrate_y"), tuple(x_labels),
              (("", tuple(x["x_rate"] for x in sim["tasks"])),),
              label_every=_every(len(x_labels), 18)),
        Chart("bar", t("kr_seats", players=players), t("kr_points"),
              tuple(t("kp_seat", n=s["seat"]) for s in sim["seats"]),
              (("", tuple(s["mean_points"] for s in sim["seats"])),)),
    )  # fmt: skip
    figures = (
        (t("kr_p_range"), f"{percent(min(block_p), lang)} – {percent(max(block_p), lang)}"),
        (t("kr_games"), f"{sim['games']}"),
        (t("kr_tie_rate"), percent(sim["tie_rate"], lang)),
        (t("kr_tiebreak"), percent(sim["tiebreak_decides"], lang)),
    )
    data = {
        "game": "kribbeln",
        "pages": pages,
        "seed": seed,
        "players": players,
        "sheets": [[x.id for x in s.tasks] for s in block.sheets],
        "area_means": [round(m, 12) for m in area_means],
        "catalog_p_success": {
            k: round(v.p_success, 12) for k, v in sorted(catalog_figures.items())
        },
        "simulation": sim,
    }
    return BalanceReport(
        "kribbeln",
        t("title", game=t("kr_game")),
        t("subtitle", what=t("kr_what", pages=pages), seed=seed),
        figures,
        charts,
        data,
    )
