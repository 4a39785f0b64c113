"""The worksheet built in memory for the web page: the parts of `write_worksheet`, no file."""

from __future__ import annotations

from typing import Any

from generator.worksheet.roster import roster_from_bytes
from generator.worksheet.sheet import (
    WorksheetRequest,
    answer_key,
    default_name,
    plan_worksheet,
    sheet_words,
    version_sheets,
)


def build_worksheet_pdf(
    params: dict[str, Any], roster: bytes | None, roster_label: str, part: str
) -> tuple[bytes, str, tuple[str, ...], dict[str, Any]]:
    """The PDF of `part` ("both": sheets then key, "sheets", "key"), its file name, warnings."""
    from generator.render.draw import render_pdf
    from generator.render.fonts import missing_glyphs
    from generator.worksheet.layout import layout_key, layout_worksheet

    req = WorksheetRequest(
        family=params["family"],
        level=params["level"],
        problems=params["problems"],
        impossible=params["impossible"],
        versions=params["versions"],
        seed=params["seed"],
        title=params.get("title"),
        lang=params["lang"],
        paper=params["paper"].lower(),
        large_print=params["large_print"],
        spec=params.get("spec"),
    )
    pupils = roster_from_bytes(roster, roster_label) if roster is not None else None
    ws = plan_worksheet(req, roster=pupils)
    warnings = list(ws.warnings)
    for where, text in [("option --title", ws.title)] + [
        (f"{roster_label}:{p.line}", p.name) for p in ws.pupils
    ]:
        if missing := missing_glyphs(text):
            warnings.append(
                f"{where}: the font has no letters for '{missing}' in '{text}' "
                "(they print as boxes)"
            )
    name = default_name(req, ws)
    key = answer_key(ws)
    if part == "key":
        pdf = render_pdf(layout_key(key, req.paper))
        name = name.removesuffix(".pdf") + "-key.pdf"
    else:
        doc = layout_worksheet(
            version_sheets(ws),
            ws.copies,
            sheet_words(ws),
            key if part == "both" else None,
            req.paper,
            req.large_print,
        )
        pdf = render_pdf(doc)
    figures = {
        "sheets": len(ws.copies),
        "versions": len(ws.letters),
        "named": len(ws.pupils),
        "seed": ws.seed,
    }
    return pdf, name, tuple(warnings), figures
