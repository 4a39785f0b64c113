"""What the web page builds, run inside a pool worker: a job in, bytes and figures out.

Everything happens in memory: the PDF is built as bytes, previews are rendered
from those bytes, a class list arrives as text. Nothing here opens a file for
writing, so pupils' names never reach the disk. A job and its result are plain
values, so they cross the process boundary of the pool.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from generator.errors import OptionError, UserError

PREVIEW_DPI = 60
PREVIEW_PAGES = 2


@dataclass(frozen=True)
class Job:
    """One build: which product, its command parameters, and what to hand back."""

    product: str  # "worksheet", "kniffel-block", "kniffel-odds", "koepfchen", "kribbeln", "coach"
    params: dict[str, Any]
    action: str = "pdf"  # "preview" | "pdf" | "sheets" | "key" | "advise"
    roster: bytes | None = None  # a class list as pasted or uploaded (never a path)
    roster_label: str = "class list"
    preview_pages: int = PREVIEW_PAGES


@dataclass(frozen=True)
class Result:
    """What a job produced, or the user error that stopped it."""

    pdf: bytes = b""
    filename: str = ""
    pages: int = 0
    pngs: tuple[bytes, ...] = ()
    figures: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    error: str | None = None  # the message, as the CLI prints it after "error: "
    error_option: str | None = None  # "--versions": the option it concerns
    error_text: str | None = None  # the message without the "where" part


def run_job(job: Job) -> Result:
    """Build what `job` asks for; a user error becomes a value, anything else is a bug."""
    try:
        return BUILDERS[job.product](job)
    except UserError as exc:
        option = exc.option if isinstance(exc, OptionError) else None
        if option is None and exc.where and exc.where.startswith("option "):
            option = exc.where.removeprefix("option ")
        return Result(error=str(exc), error_option=option, error_text=exc.message)


def preview_pngs(pdf: bytes, pages: int, dpi: int = PREVIEW_DPI) -> tuple[tuple[bytes, ...], int]:
    """The first `pages` pages of a PDF as PNG bytes (PDFium, in memory), and the page count."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        images = []
        for number in range(min(pages, len(document))):
            page = document[number]
            buffer = io.BytesIO()
            page.render(scale=dpi / 72).to_pil().save(buffer, format="PNG")
            images.append(buffer.getvalue())
            page.close()
        return tuple(images), len(document)
    finally:
        document.close()


def _finish(job: Job, pdf: bytes, filename: str, **extra: Any) -> Result:
    if job.action == "preview":
        pngs, pages = preview_pngs(pdf, job.preview_pages)
        return Result(pngs=pngs, pages=pages, filename=filename, **extra)
    return Result(pdf=pdf, filename=filename, **extra)


# --- the products -----------------------------------------------------------------------


def _worksheet(job: Job) -> Result:
    from generator.web.worksheet_build import build_worksheet_pdf

    part = {"preview": "both", "pdf": "both"}.get(job.action, job.action)
    pdf, filename, warnings, figures = build_worksheet_pdf(
        job.params, job.roster, job.roster_label, part
    )
    return _finish(job, pdf, filename, warnings=warnings, figures=figures)


def _kniffel_block(job: Job) -> Result:
    from generator.kniffel.block import make_spec
    from generator.kniffel.block_layout import layout_block
    from generator.kniffel.rules import load_rules
    from generator.render.draw import render_pdf

    p = job.params
    rules = load_rules(p["rules"])
    lang = p.get("lang") or rules.lang
    spec = make_spec(rules, lang, p.get("players"), p["games"], p.get("names"), p["copies"])
    pdf = render_pdf(layout_block(spec, p["paper"].lower(), p["landscape"], p["per_page"]))
    return _finish(job, pdf, f"{rules.id}-block-{lang}.pdf")


def _kniffel_odds(job: Job) -> Result:
    from generator.kniffel.odds import pattern_odds
    from generator.kniffel.oddscard import make_card
    from generator.kniffel.oddscard_layout import layout_odds
    from generator.kniffel.rules import load_rules
    from generator.kniffel.simulate import check_games, score_distribution
    from generator.kniffel.solver import with_joker
    from generator.render.draw import render_pdf

    p = job.params
    base = load_rules(p["rules"])
    rules = with_joker(base, p.get("joker"))
    check_games(p["games"])
    lang = p.get("lang") or rules.lang
    strategy = strategy_for(rules)
    dist = score_distribution(strategy, p["games"], p["seed"])
    card = make_card(rules, lang, pattern_odds(rules), strategy.expected_score(), dist)
    pdf = render_pdf(layout_odds(card, p["paper"].lower(), p["landscape"]))
    variant = f"-{rules.joker}-joker" if rules.joker != base.joker else ""
    return _finish(job, pdf, f"{rules.id}{variant}-odds-{lang}.pdf")


def _koepfchen(job: Job) -> Result:
    from generator.koepfchen.sheet import BoardRequest, render_board

    p = job.params
    req = BoardRequest(
        p["profile"], p["seed"], p["lang"], p["paper"].lower(), p["landscape"], p["key"], p["rules"]
    )
    pdf, contents, board = render_board(req)
    suffix = "" if board.seed is None else f"-{board.seed}"
    figures = {
        "game_length": contents["game_length"],
        "races": contents["races"],
        "track_length": contents["track_length"],
        "sampled": contents["sampled"],
    }
    filename = f"koepfchen-{board.profile.id}{suffix}-{req.lang}.pdf"
    return _finish(job, pdf, filename, figures=figures)


def _kribbeln(job: Job) -> Result:
    from generator.kribbeln.sheet import BlockRequest, render_block

    p = job.params
    req = BlockRequest(
        pages=p["pages"], seed=p["seed"], players=p.get("players"), names=p.get("names"),
        lang=p["lang"], paper=p["paper"].lower(), landscape=p["landscape"], rules=p["rules"],
        key=p["key"],
    )  # fmt: skip
    pdf, contents, warnings = render_block(req)
    figures = {
        "pages": contents["pages"],
        "constraints_met": contents["constraints_met"],
        "violations": contents["violations"],
        "block_mean_p_success": contents["block_mean_p_success"],
        "block_mean_expected_pips": contents["block_mean_expected_pips"],
        "sheets": [
            {
                "number": s["number"],
                "mean_p_success": s["mean_p_success"],
                "mean_expected_pips": s["mean_expected_pips"],
            }
            for s in contents["sheets"]
        ],
    }
    return _finish(
        job, pdf, f"kribbeln-block-{req.seed}-{req.lang}.pdf", figures=figures,
        warnings=tuple(warnings),
    )  # fmt: skip


_STRATEGIES: dict[Any, Any] = {}  # per worker process: solved tables stay loaded


def strategy_for(rules: Any) -> Any:
    """The solved Kniffel table for a rule set (the on-disk cache, then kept in memory)."""
    from generator.kniffel.solver import load_strategy, table_key

    key = table_key(rules)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = load_strategy(rules)
    return _STRATEGIES[key]


def _coach(job: Job) -> Result:
    from generator.kniffel.coach import advise, make_position, parse_roll
    from generator.kniffel.rules import load_rules
    from generator.kniffel.solver import with_joker

    p = job.params
    rules = with_joker(load_rules(p["rules"]), p.get("joker"))
    dice = parse_roll([p["roll"]])
    position = make_position(rules, p.get("filled", ""), None)
    rolls_left = p["rolls_left"]
    if not 0 <= rolls_left <= 2:
        raise OptionError("--rolls-left", f"expected 0, 1 or 2, found {rolls_left}")
    return Result(figures=advise(strategy_for(rules), position, dice, rolls_left).to_json())


def _validate(job: Job) -> Result:
    from pathlib import Path

    from generator.validate import validate

    report = validate(Path(job.params["folder"]))
    figures = {"errors": report.errors, "warnings": report.warnings, "files": report.files}
    return Result(figures=figures)


BUILDERS = {
    "worksheet": _worksheet,
    "kniffel-block": _kniffel_block,
    "kniffel-odds": _kniffel_odds,
    "koepfchen": _koepfchen,
    "kribbeln": _kribbeln,
    "coach": _coach,
    "validate": _validate,
}
