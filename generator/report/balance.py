"""The playtesters' balance report: the figures and charts of a Köpfchen board or a Kribbeln block.

`load_report` is the edge (catalog files, solver figures, and for Kribbeln the
simulation of the sampled block: policies come from the solver cache);
`build_report` is pure: a `BalanceReport` (`generator.report.model`: key figures,
chart specs, the JSON data) laid out by `generator.report.layout`. The Kribbeln report charts and
simulates the very same `KribbelnBlock`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.core.built import Built
from generator.core.errors import InputError, Msg
from generator.io.catalog import Catalog
from generator.report.layout import layout_report
from generator.report.model import BalanceReport, Chart, ReportWords
from generator.text.words import Templates, Texts, number, percent

if TYPE_CHECKING:
    from generator.koepfchen.profile import Profile
    from generator.kribbeln.build import KribbelnBlock
    from generator.kribbeln.reach import Unreachable
    from generator.kribbeln.simulate import Simulation


def report_words(t: Texts) -> ReportWords:
    return ReportWords(t("figures"), t("footer"), lambda n, total: t("page", n=n, total=total))


@dataclass(frozen=True)
class ReportRequest:
    """The options of `dicesheets report`."""

    game: str  # "kribbeln" | "koepfchen"
    profile: str = "classic"  # Köpfchen
    players: int = 4
    pages: int = 6  # Kribbeln
    games: int = 2000  # Kribbeln: simulated games
    balance_file: str | None = None
    dice_file: str | None = None
    tasks_file: str | None = None
    lang: str = "de"
    paper: str = "a4"
    landscape: bool = False
    seed: int = 1


@dataclass(frozen=True)
class ReportInputs:
    """What a report is built from: a Köpfchen profile, or a sampled block and its games."""

    templates: Templates
    profile: Profile | None = None
    block: KribbelnBlock | None = None
    simulation: Simulation | None = None  # the games of exactly `block`
    unreachable: tuple[Unreachable, ...] = ()  # the catalog's tasks no pad uses, and why


def load_report(req: ReportRequest, catalog: Catalog | None = None) -> ReportInputs:
    """Read the files; for Kribbeln sample the block and play `req.games` games on it."""
    catalog = catalog or Catalog.default()
    if req.game == "koepfchen":
        from generator.koepfchen.load import load_profile

        check_players(req.players)
        return ReportInputs(catalog.templates(), profile=load_profile(req.profile, catalog))
    from generator.io.cache import DISK
    from generator.io.progress import progress
    from generator.kribbeln.build import BlockRequest, sample_block_of
    from generator.kribbeln.load import load_block
    from generator.kribbeln.playtest import play

    block_req = BlockRequest(req.pages, req.seed, req.balance_file, req.dice_file, req.tasks_file)
    from generator.kribbeln.reach import unreachable

    inputs = load_block(block_req, catalog)
    block = sample_block_of(inputs, req.pages, req.seed)
    unused = unreachable(inputs, store=DISK)
    source = f"kribbeln block --pages {req.pages} --seed {req.seed}"
    with progress(req.games, "simulating games") as tick:
        simulation = play(
            block.dice,
            block.sheets,
            block.catalog.rolls,
            req.players,
            req.games,
            req.seed,
            "pips",
            source,
            tick,
            store=DISK,
        )
    return ReportInputs(catalog.templates(), block=block, simulation=simulation, unreachable=unused)


def build_report(inputs: ReportInputs, req: ReportRequest) -> Built:
    """The report: charts and figures laid out, with the manifest contents (pure)."""
    options: dict[str, Any] = {
        "game": req.game,
        "lang": req.lang,
        "paper": req.paper,
        "landscape": req.landscape,
        "players": req.players,
    }
    if inputs.profile is not None:
        options["profile"] = req.profile
        report = koepfchen_report(inputs.profile, req.seed, req.players, req.lang, inputs.templates)
    else:
        assert inputs.block is not None and inputs.simulation is not None
        options.update(
            pages=req.pages,
            games=req.games,
            balance=req.balance_file,
            dice=req.dice_file,
            tasks=req.tasks_file,
        )
        report = kribbeln_report(
            inputs.block,
            inputs.simulation,
            req.players,
            req.lang,
            inputs.templates,
            inputs.unreachable,
        )
    doc = layout_report(report, req.lang, req.paper, req.landscape)
    contents = {"kind": f"{report.game}-report", "figures": dict(report.figures), **report.data}
    name = f"report-{report.game}-{req.lang}.pdf"
    return Built("report", name, doc, options, req.seed, contents)


def check_players(players: int) -> None:
    """A Köpfchen race has 2–6 players (the exact race figures cover that many)."""
    if not 2 <= players <= 6:
        raise InputError("players", Msg("range", low=2, high=6, noun="players", found=players))


IN_RANGE = "#1f77b4"  # catalog tasks a block may use (p_min–p_max) …
OUT_OF_RANGE = "#b9c7d3"  # … and those it may not


def _every(n: int, room: int = 20) -> int:
    """Label every k-th bar so that about `room` labels fit."""
    return max(1, -(-n // room))


def seat_chart(
    t: Texts,
    title: str,
    unit: str,
    values: Sequence[float],
    reference: float,
    reference_label: str,
    percent: bool,
    min_span: float,
) -> Chart:
    """A figure per seat (seat 1 starts), zoomed, as bars growing from the fair value."""
    return Chart(
        "bar",
        title,
        unit,
        tuple(t("kp_seat", n=i + 1) for i in range(len(values))),
        (("", tuple(values)),),
        percent=percent,
        zoom=True,
        min_span=min_span,
        reference=reference,
        reference_label=reference_label,
        from_reference=True,
        values="percent" if percent else "points",
        value_digits=1 if percent else 2,
        x_label=t("seat_note"),
        short_labels=tuple(str(i + 1) for i in range(len(values))),  # the note names them
    )


def koepfchen_report(
    profile: Profile, seed: int, players: int, lang: str, templates: Templates | None = None
) -> BalanceReport:
    """Odds along the track, one player's game length and the win rate by seat (all exact)."""
    from generator.koepfchen.analysis import race_exact, turn_pmf, turn_stats
    from generator.koepfchen.build import make_board

    check_players(players)
    t = Texts("report", lang, templates)
    board, _ = make_board(profile, seed)
    success = board.success
    solo = turn_stats(success)
    race = race_exact(success, players)
    pmf = turn_pmf(success)
    cut = max(solo.p90 * 2, 10)
    lengths = tuple(float(p) for p in pmf[: cut + 1])
    fields = [str(f.index) for f in board.fields]
    hardest = min(board.fields, key=lambda f: f.within)
    fair = 1 / players
    charts = (
        Chart(
            "line",
            t("kp_track"),
            t("kp_track_y"),
            tuple(fields),
            (
                (t("kp_within", rolls=profile.rolls), success),
                (t("kp_single"), tuple(f.single_roll for f in board.fields)),
            ),
            y_max=1.0,
            label_every=_every(len(fields), 20),
            percent=True,
            x_label=t("kp_field"),
        ),
        Chart(
            "bar",
            t("kp_length"),
            t("kp_length_y"),
            tuple(str(i) for i in range(len(lengths))),
            (("", lengths),),
            label_every=_every(len(lengths), 20),
            percent=True,
            x_label=t("kp_turns"),
        ),
        seat_chart(
            t,
            t("kp_seats", players=players),
            t("kp_seats_y"),
            race.win_by_seat,
            fair,
            t("kp_fair", p=fair),
            percent=True,
            min_span=0.02,
        ),
    )
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
        report_words(t),
    )


def kribbeln_report(
    block: KribbelnBlock,
    sim: Simulation,
    players: int,
    lang: str,
    templates: Templates | None = None,
    unreachable: Sequence[Unreachable] = (),
) -> BalanceReport:
    """Difficulty per sheet and area, the catalog's odds, simulated X rates and seat points.

    `sim` is the simulation of exactly `block`'s sheets (`playtest.play`); `unreachable`
    the catalog's tasks no pad uses (the figures count them, the manifest lists each).
    """
    t = Texts("report", lang, templates)
    pages, seed = len(block.sheets), block.seed
    catalog_figures = block.figures  # every task of the catalog
    area_means = []
    for sheet in block.sheets:
        for area in (1, 2, 3):
            tasks = sheet.area_tasks(area)
            area_means.append(sum(block.figures[x.id].p_success for x in tasks) / len(tasks))
    bins = [i / 20 for i in range(21)]  # 5 % wide
    counts = [0.0] * 20
    for fig in catalog_figures.values():
        counts[min(19, int(fig.p_success * 20))] += 1
    from generator.kribbeln.layout import AREA_STYLES
    from generator.kribbeln.reach import SAMPLES

    balance = block.balance
    block_p = [block.figures[x.id].p_success for s in block.sheets for x in s.tasks]
    block_mean = sum(block_p) / len(block_p)
    sheet_runs = tuple((t("kr_sheet", sheet=s.number), 3) for s in block.sheets)
    in_range = [balance.p_min <= (i + 0.5) / 20 <= balance.p_max for i in range(20)]
    seat_mean = sum(s.mean_points for s in sim.seats) / len(sim.seats)
    task_runs: list[tuple[str, int]] = []
    for x in sim.tasks:
        if task_runs and task_runs[-1][0] == t("kr_sheet", sheet=x.sheet):
            task_runs[-1] = (task_runs[-1][0], task_runs[-1][1] + 1)
        else:
            task_runs.append((t("kr_sheet", sheet=x.sheet), 1))
    charts = (
        Chart(
            "bar",
            t("kr_sheets"),
            t("kr_sheets_y"),
            tuple(str(a) for _ in block.sheets for a in (1, 2, 3)),
            (("", tuple(area_means)),),
            percent=True,
            zoom=True,
            reference=block_mean,
            reference_label=t("kr_block_mean", p=block_mean),
            band=(balance.p_min, balance.p_max),
            band_label=t("kr_band", low=balance.p_min, high=balance.p_max),
            values="percent",
            groups=sheet_runs,
            colors=tuple(AREA_STYLES[a].ink for _ in block.sheets for a in (1, 2, 3)),
            x_label=t("kr_areas"),
        ),
        Chart(
            "bar",
            t("kr_catalog"),
            t("kr_count"),
            tuple(number(100 * b, lang, 0) for b in bins),
            (("", tuple(counts)),),
            label_every=2,
            values="count",
            colors=tuple(IN_RANGE if ok else OUT_OF_RANGE for ok in in_range),
            key=(
                (IN_RANGE, t("kr_band", low=balance.p_min, high=balance.p_max)),
                (OUT_OF_RANGE, t("kr_out_of_range")),
            ),
            edges=True,
            x_label=t("kr_catalog_x"),
        ),
        Chart(
            "bar",
            t("kr_xrate"),
            t("kr_xrate_y"),
            # each task under its area's number, which the sheet prints (rows 3a−2, 3a−1)
            tuple(str((x.row - 1) // 3 + 1) for x in sim.tasks),
            (("", tuple(x.x_rate for x in sim.tasks)),),
            percent=True,
            values="percent",
            value_digits=0,
            groups=tuple(task_runs),
            marks=tuple(1 - block.figures[x.id].p_success for x in sim.tasks),
            marks_label=t("kr_first_fail"),
            x_label=t("kr_rows"),
        ),
        seat_chart(
            t,
            t("kr_seats", players=players),
            t("kr_points"),
            tuple(s.mean_points for s in sim.seats),
            seat_mean,
            t("kr_seat_mean", points=seat_mean),
            percent=False,
            min_span=1.0,
        ),
    )
    figures = (
        (t("kr_p_range"), f"{percent(min(block_p), lang)} – {percent(max(block_p), lang)}"),
        (t("kr_games"), f"{sim.games}"),
        (t("kr_tie_rate"), percent(sim.tie_rate, lang)),
        (t("kr_tiebreak"), percent(sim.tiebreak_decides, lang)),
        (
            t("kr_unreachable"),
            t(
                "kr_unreachable_value",
                total=len(unreachable),
                above=sum(u.reason == "above" for u in unreachable),
                below=sum(u.reason == "below" for u in unreachable),
                never=sum(u.reason == "never_drawn" for u in unreachable),
                samples=SAMPLES,
            ),
        ),
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
        "simulation": sim.to_json(),
        "unreachable": [u.to_json() for u in unreachable],
        "unreachable_samples": SAMPLES,
    }
    return BalanceReport(
        "kribbeln",
        t("title", game=t("kr_game")),
        t("subtitle", what=t("kr_what", pages=pages), seed=seed),
        figures,
        charts,
        data,
        report_words(t),
    )
