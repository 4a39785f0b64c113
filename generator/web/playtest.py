"""The playtesters' page (`serve --catalog DIR`): validate's problems and a live preview.

The browser asks twice a second for the catalog's fingerprint; when a file
changes it rebuilds the preview and, beside it, fetches the problems again —
`--watch` in the browser. The preview never waits for validate (seconds for a
whole catalog): the findings follow when they are ready. The catalog folder comes
from the server's command line only.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from generator.web.errors import warning_text
from generator.web.pages import PAGES, page_lang, render
from generator.web.products import Job

PRODUCTS = ("kribbeln", "koepfchen", "kniffel", "worksheet", "kniffel-odds")


def playtest_routes(context: dict[str, Any]) -> list[Route]:
    execute = context["execute"]
    base = context["base"]
    settings = context["settings"]
    stamp = context["stamp"]
    forms = context["forms"]

    def require_catalog() -> None:
        if settings.catalog is None:
            raise HTTPException(404)

    async def report_html(lang: str, request: Request) -> str:
        # (a page that asks again or leaves stops its check: it runs in the build pool)
        job = Job("validate", {"folder": str(settings.catalog)}, "validate")
        result = await execute(job, None, request)
        report = dict(result.figures)  # every problem and warning in the page's language
        for key in ("errors", "warnings"):
            report[key] = [warning_text(line, lang) for line in report[key]]
        return render("problems.html", lang, report=report)

    async def show(request: Request) -> Response:
        """The page at once: the preview first, validate's findings when they are ready (the
        page's script asks for them; without it, `?check=1` puts them in the page)."""
        require_catalog()
        lang = page_lang(request)
        profiles = forms["koepfchen"].field("profile").choices
        checked = request.query_params.get("check") == "1"
        problems = await report_html(lang, request) if checked else ""
        body = render(
            "playtest.html", lang, problems=problems, checked=checked, products=PRODUCTS,
            pages=PAGES, profiles=profiles, menus=forms.menus("koepfchen"),
            folder=settings.catalog.name, stamp=stamp.value(),
            **base(request, "playtest"),
        )  # fmt: skip
        return HTMLResponse(body)

    async def state(request: Request) -> Response:
        require_catalog()
        return JSONResponse({"stamp": stamp.value()})

    async def report(request: Request) -> Response:
        require_catalog()
        lang = page_lang(request)
        return JSONResponse({"stamp": stamp.value(), "html": await report_html(lang, request)})

    return [
        Route("/playtest", show, methods=["GET"]),
        Route("/api/playtest/state", state, methods=["GET"]),
        Route("/api/playtest/report", report, methods=["GET"]),
    ]
