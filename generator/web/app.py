"""The Starlette app: pages, previews, downloads, the coach and the playtesters' page.

Stateless: every request carries its whole form, so several server processes
can run side by side. Nothing a browser sends is used as a path; class lists
are read from the request in memory and never written or logged.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import shlex
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from generator.core.errors import InputError, Msg, UserError
from generator.core.langs import LANGS
from generator.io.catalog import Catalog
from generator.web.errors import field_errors, warning_text
from generator.web.forms import Form, FormErrors, parse
from generator.web.guard import BODY_TIMEOUT, SLOW_BODY, BodyTimeout, Guard, TooLarge
from generator.web.pages import (
    NAV,
    PAGES,
    Page,
    catalog_for,
    level_names,
    menu_names,
    page_lang,
    render,
    words,
)
from generator.web.pool import BuildPool, BuildTimeout, PoolFull, WorkerDied
from generator.web.products import Job, Result, run_job
from generator.web.state import (
    MAX_UPLOAD,
    PRIVATE,
    ROSTER_FIELDS,
    URL_KEYS,
    BadCarry,
    class_list,
    file_name,
    settings_of,
    setup_url,
    values_from_query,
)

log = logging.getLogger("dicesheets.web")

SEED_MAX = 999_999  # fresh seeds: short enough to read aloud and type again
STATIC = Path(__file__).parent / "static"


@dataclass(frozen=True)
class Settings:
    """How the server runs (from `dicesheets serve`'s command line)."""

    catalog: Path | None = None
    workers: int = 2
    queue: int = 16  # waiting builds beyond the workers: about a class of teachers at once
    time_limit: float = 30.0
    max_body: int = 512_000
    cache_entries: int = 64
    body_timeout: float = BODY_TIMEOUT  # seconds for a request's body after its head
    # where the builds look for the font of Chinese, Japanese, Korean names (None: the usual
    # places; the tests give () for a server without one)
    fallback_fonts: tuple[str, ...] | None = None


class Busy(Exception):
    """503: no worker free (with Retry-After), a build past its time limit, a worker died.

    Each says its own words: "all busy" only when every worker is busy."""

    def __init__(self, retry_after: int | None, why: str = "busy") -> None:
        super().__init__(why)
        self.retry_after = retry_after
        self.why = why  # "busy" | "timed_out" | "worker_died"


class ResultCache:
    """Answers to identical requests, in memory for `ttl` seconds.

    The key is a hash of the form's settings without anything typed (names, class list,
    title, class, date): what was typed is kept beside the answer and must be the same for
    a hit, so no name is ever part of a key, and nothing is kept longer than `ttl`.
    """

    def __init__(self, entries: int, ttl: float = 120.0) -> None:
        self.entries, self.ttl = entries, ttl
        self._items: OrderedDict[str, tuple[float, bytes, Result]] = OrderedDict()

    def get(self, key: tuple[str, bytes] | None) -> Result | None:
        if key is None or key[0] not in self._items:
            return None
        stored, typed, result = self._items[key[0]]
        if time.monotonic() - stored > self.ttl:
            del self._items[key[0]]
            return None
        if not secrets.compare_digest(typed, key[1]):
            return None
        self._items.move_to_end(key[0])
        return result

    def put(self, key: tuple[str, bytes] | None, result: Result) -> None:
        if key is None or result.error is not None or self.entries <= 0:
            return
        self._items[key[0]] = (time.monotonic(), key[1], result)
        self._items.move_to_end(key[0])
        while len(self._items) > self.entries:
            self._items.popitem(last=False)


class CatalogStamp:
    """A fingerprint of the catalog folder (names, sizes, times), taken at most twice a second."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._value = ""
        self._checked = 0.0

    def value(self) -> str:
        """The fingerprint now (the same string while nothing changed)."""
        if self.folder is None:
            return ""
        now = time.monotonic()
        if now - self._checked > 0.5:
            digest = hashlib.sha256()
            for path in sorted(self.folder.rglob("*")):
                if path.is_file():
                    stat = path.stat()
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
            self._value = digest.hexdigest()[:16]
            self._checked = now
        return self._value


class CatalogForms:
    """Every page's form, made again when the catalog changes (a new profile is a new choice)."""

    def __init__(self, catalog: Catalog, stamp: CatalogStamp) -> None:
        self.catalog, self.stamp = catalog, stamp
        self._made_for: str | None = None
        self._forms: dict[str, Form] = {}
        self._menus: dict[str, dict[str, dict[str, Any]]] = {}
        self._levels: dict[str, dict[str, dict[str, str]]] = {}

    def __getitem__(self, page: str) -> Form:
        self._fresh()
        return self._forms[page]

    def menus(self, page: str) -> dict[str, dict[str, Any]]:
        """The page's catalog menus by their entries' own names (`pages.menu_names`)."""
        self._fresh()
        return self._menus[page]

    def levels(self) -> dict[str, dict[str, dict[str, str]]]:
        """Every worksheet family's level names (`pages.level_names`)."""
        self._fresh()
        return self._levels

    def _fresh(self) -> None:
        if self._made_for != self.stamp.value():
            self._forms = {p.id: p.form(self.catalog) for p in PAGES.values()}
            self._menus = {
                p.id: menu_names(self.catalog, p.choices(self.catalog)) for p in PAGES.values()
            }
            self._levels = level_names(self.catalog)
            self._made_for = self.stamp.value()


# --- reading a request --------------------------------------------------------------------


async def read_form(request: Request, page: Page) -> tuple[dict[str, str], bytes | None, str]:
    """The form's text fields, and the class list (uploaded file first, else the text box).

    The values keep the class list as the page hands it back (`state.ClassList.fields`:
    the text box, an uploaded file as base64), never written anywhere. A page without a
    class list ignores the class-list fields, as every form ignores a field it does not have.
    """
    lang = page_lang(request)
    label = str(words(lang)("roster_label"))
    form = await request.form(max_files=1, max_fields=200)
    if "roster" not in page.web.own_fields:
        texts = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
        plain = {k: v for k, v in texts if not k.startswith("roster_")}
        return plain, None, label
    values: dict[str, str] = {}
    upload: UploadFile | None = None
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            if key == "roster_file" and value.filename:
                upload = value
        else:
            values[key] = value
    data: bytes | None = None
    name = ""
    if upload is not None:
        data = await upload.read(MAX_UPLOAD + 1)
        await upload.close()
        # the file's own name only labels messages; it is never opened on the server
        name = file_name(upload.filename or "")
    try:
        roster = class_list(values, data, name)
    except BadCarry:
        raise HTTPException(400, "bad class list field") from None
    values.update(roster.fields())
    return values, roster.data, roster.label(label)


class ClientGone(Exception):
    """The client left before its build was done (the build was dropped or stopped)."""


async def until_gone(request: Request | None, work: Any) -> Any:
    """Await `work`; if the client disconnects first, cancel it (the pool drops a waiting
    job and stops a running one) and raise ClientGone."""
    task = asyncio.ensure_future(work)
    if request is None:
        return await task

    async def disconnected() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    gone = asyncio.ensure_future(disconnected())
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not task.done():
            task.cancel()  # (the pool stops the build)
    if not task.done() or task.cancelled():
        raise ClientGone
    return task.result()


def fresh_seed() -> int:
    return secrets.randbelow(SEED_MAX) + 1


def _values_for(page: Page, values: dict[str, str]) -> dict[str, str]:
    """Form values a page drops before parsing (a worksheet spec replaces the single section:
    the form always sends those fields, with their defaults)."""
    dropped = {n for key, names in page.replaced_by.items() if values.get(key) for n in names}
    return {k: v for k, v in values.items() if k not in dropped}


def make_job(
    page: Page, form: Form, values: dict[str, str], roster: bytes | None, label: str, action: str
) -> tuple[Job, list[str]]:
    """The job a submitted form asks for, and the command-line arguments it stands for."""
    params, args = parse(form, _values_for(page, values))
    for name, most in page.web.most.items():
        found = params.get(name)
        if isinstance(found, int) and found > most:
            if page.web.most_why.get(name) == "balance":  # the tasks balance no more
                msg = Msg("web_most_sheets", most=most, found=found)
            else:  # more would not be done within the time limit
                msg = Msg("web_most", most=most, found=found)
            raise FormErrors(InputError(name, msg))
    number = preview_page(values) if action == "preview" else None
    overview = values.get("preview_only") != "1" or number is None
    job = Job(page.builder, params, action, roster=roster, roster_label=label, page=number,
              overview=overview)  # fmt: skip
    return job, args


def preview_page(values: dict[str, str]) -> int | None:
    """The page a preview is asked to show beside its overview (a pager's button or field)."""
    raw = (values.get("preview_go") or values.get("preview_page") or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise FormErrors(InputError("preview_page", Msg("not_integer", value=raw))) from None


def cache_key(job: Job, form: Form, stamp: str) -> tuple[str, bytes]:
    """A request's cache key (its settings, hashed) and what was typed (checked on a hit)."""
    texts = {f.name for f in form.fields if f.kind == "text"}
    settings = sorted((k, repr(v)) for k, v in job.params.items() if k not in texts)
    typed = sorted((k, repr(v)) for k, v in job.params.items() if k in texts)
    text = repr((job.product, job.action, job.page, job.overview, settings, stamp))
    return hashlib.sha256(text.encode()).hexdigest(), repr((typed, job.roster)).encode()


def command_line(page: Page, args: list[str], roster: bool, lang: str) -> str:
    """The CLI command that makes the same PDF (the class list as a file name)."""
    extra = [page.flag("roster"), str(words(lang)("roster_file_name"))] if roster else []
    return shlex.join(["dicesheets", *page.command_name.split(), *args, *extra])


# --- the app ---------------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> Starlette:
    """The web app for `settings` (its pool starts with the first build)."""
    settings = settings or Settings()
    from starlette.formparsers import MultiPartParser

    # Starlette spools an upload to a temporary file beyond spool_max_size; every body stays
    # below it, so an uploaded class list never touches the disk
    if settings.max_body >= MultiPartParser.spool_max_size:
        raise ValueError(f"max_body must stay below {MultiPartParser.spool_max_size} bytes")
    pool = BuildPool(
        settings.workers, settings.queue, settings.time_limit, settings.catalog,
        settings.fallback_fonts,
    )  # fmt: skip
    cache = ResultCache(settings.cache_entries)
    stamp = CatalogStamp(settings.catalog)
    catalog = catalog_for(settings.catalog)
    forms = CatalogForms(catalog, stamp)

    async def execute(job: Job, form: Form | None = None, request: Request | None = None) -> Result:
        key = cache_key(job, form, stamp.value()) if form is not None else None
        if (hit := cache.get(key)) is not None:
            return hit
        try:
            result: Result = await until_gone(request, pool.run(run_job, job))
        except PoolFull as exc:
            raise Busy(exc.retry_after) from None
        except BuildTimeout:
            raise Busy(None, "timed_out") from None
        except WorkerDied:
            raise Busy(pool.retry_after(), "worker_died") from None
        cache.put(key, result)
        return result

    def font_missing() -> str:
        """The package to name beside the names when the builds have no font for Chinese,
        Japanese, Korean names ("" when they have one)."""
        from generator.render import fonts

        return "" if fonts.fallback_installed(settings.fallback_fonts) else fonts.FALLBACK_PACKAGE

    def nav(lang: str) -> list[tuple[str, str]]:
        ids = list(NAV) + (["playtest"] if settings.catalog is not None else [])
        return [(i, str(words(lang)(f"nav_{i.replace('-', '_')}"))) for i in ids]

    def base(request: Request, current: str) -> dict[str, Any]:
        lang = page_lang(request)
        path = request.url.path
        links = {other: f"{path}?lang={other}" for other in LANGS}
        # a page with a form names it (`lang_form`): its language switch submits that form
        return {"nav": nav(lang), "current": current, "path": path, "lang_links": links,
                "lang_form": "", "lang_switch_name": "lang_switch"}  # fmt: skip

    def fields_of(page: Page) -> set[str]:
        """The page's fields an error can be shown at (the form's and the page's own)."""
        return {f.name for f in forms[page.id].fields} | set(page.web.own_fields) | {"preview_page"}

    def defaults_of(page: Page, lang: str) -> dict[str, str]:
        """The fields as a fresh page in `lang` shows them (the sheet's language: the page's)."""
        form = forms[page.id]
        shown = {f.name: f.value_text(f.default) for f in form.fields}
        lang_field = form.field("lang")
        if lang_field is not None and lang_field.default is not None:
            shown["lang"] = lang
        for name, value in page.web.lang_defaults.get(lang, {}).items():
            found = form.field(name)
            if found is not None and (not found.choices or value in found.choices):
                shown[name] = value
        return shown

    def product_html(
        request: Request,
        page: Page,
        values: dict[str, str],
        error: UserError | None = None,
        result: Result | None = None,
        command: str = "",
        status: int = 200,
    ) -> HTMLResponse:
        lang = page_lang(request)
        form = forms[page.id]
        errors = field_errors(error, fields_of(page), lang) if error is not None else {}
        defaults = {other: defaults_of(page, other) for other in LANGS}
        shown = {f.name: values.get(f.name, defaults[lang][f.name]) for f in form.fields}
        switches = {f.name for f in form.fields if f.kind in ("flag", "switch")}
        if values.get("__submitted"):
            for name in switches:
                shown[name] = values.get(name, "")
        # the language switch keeps every setting: each link names what differs there
        links = {
            other: setup_url(page.id, other, settings_of(form, shown, defaults[other]))
            for other in LANGS
        }
        t = words(lang)
        levels = {
            family: {n: str(t.level(family, n, names)) for n, names in numbers.items()}
            for family, numbers in forms.levels().items()
            if form.field("level") and form.field("family")
        }
        html = render(
            "product.html",
            lang,
            page=page,
            form=form,
            values=shown,
            roster={k: values.get(k, "") for k in ROSTER_FIELDS},
            errors=errors,
            result=result,
            warnings=[warning_text(w, lang) for w in (result.warnings if result else ())],
            preview=preview_view(result, lang, values),
            command=command,
            figures=result.figures if result else {},
            setup_link=links[lang],
            menus=forms.menus(page.id),
            levels=levels,
            levels_json=json.dumps(levels, ensure_ascii=False, sort_keys=True),
            defaults_json=json.dumps(defaults, ensure_ascii=False, sort_keys=True),
            private=sorted(PRIVATE),
            url_keys=json.dumps(URL_KEYS),
            font_missing=font_missing(),
            **{**base(request, page.id), "lang_links": links, "lang_form": "product-form"},
        )
        return HTMLResponse(html, status_code=status)

    def page_of(request: Request) -> Page:
        name = request.path_params.get("page", "worksheet")
        if name not in PAGES:
            raise HTTPException(404)
        return PAGES[name]

    async def run_form(
        request: Request,
        page: Page,
        values: dict[str, str],
        roster: bytes | None,
        label: str,
        action: str,
    ) -> tuple[Result, list[str]]:
        """Build what a submitted form asks for, and its command-line arguments; a message
        for a field, whether the form's parser or the build found it, is a `FormErrors`.
        A client that leaves (a newer preview aborts the older) stops its build."""
        form = forms[page.id]
        job, args = make_job(page, form, values, roster, label, action)
        result = await execute(job, form, request)
        if result.error is not None:
            raise FormErrors(result.error)
        return result, args

    async def show_page(request: Request) -> Response:
        """A fresh page, or a bookmarked setup (its settings in the address, never names)."""
        page = page_of(request)
        values = values_from_query(forms[page.id], request.query_params)
        if page.has_seed and not values.get("seed", "").strip():
            values["seed"] = str(fresh_seed())
        return product_html(request, page, values)

    async def submit_page(request: Request) -> Response:
        """The form without JavaScript: a preview in the page, or new problems (a new seed)."""
        page = page_of(request)
        values, roster, label = await read_form(request, page)
        values["__submitted"] = "1"
        if values.get("action") == "reseed" and page.has_seed:
            values["seed"] = str(fresh_seed())
        try:
            result, args = await run_form(request, page, values, roster, label, "preview")
        except FormErrors as exc:
            return product_html(request, page, values, exc.error, status=400)
        cmd = command_line(page, args, roster is not None, page_lang(request))
        return product_html(request, page, values, result=result, command=cmd)

    async def preview(request: Request) -> Response:
        page = page_of(request)
        lang = page_lang(request)
        values, roster, label = await read_form(request, page)
        try:
            result, args = await run_form(request, page, values, roster, label, "preview")
        except FormErrors as exc:
            return _errors_json(field_errors(exc.error, fields_of(page), lang))
        figures = render("figures.html", lang, page=page, figures=result.figures)
        return JSONResponse(
            {
                "ok": True,
                **preview_view(result, lang, values),
                "page_count": result.pages,
                "warnings": [warning_text(w, lang) for w in result.warnings],
                "figures_html": figures,
                "command": command_line(page, args, roster is not None, lang),
                "seed": result.seed,
                "filename": result.filename,
            }
        )

    async def download(request: Request) -> Response:
        page = page_of(request)
        values, roster, label = await read_form(request, page)
        values["__submitted"] = "1"
        part = values.get("part", page.parts[0])
        if part not in page.parts:
            raise HTTPException(400, "unknown part")
        try:
            result, _ = await run_form(request, page, values, roster, label, part)
        except FormErrors as exc:
            if _wants_json(request):  # the page's script shows it beside the field, no reload
                return _errors_json(field_errors(exc.error, fields_of(page), page_lang(request)))
            return product_html(request, page, values, exc.error, status=400)
        return Response(
            result.pdf,
            media_type="application/pdf",
            headers={"Content-Disposition": f'attachment; filename="{result.filename}"'},
        )

    # the coach, the playtesters' page and the error pages live in web/coach.py and below
    from generator.web.coach import coach_routes
    from generator.web.playtest import playtest_routes

    async def busy_handler(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Busy)
        lang = page_lang(request)
        t = words(lang)
        message = str(t(exc.why, seconds=int(settings.time_limit)))
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
        if request.url.path.startswith("/api/"):
            return JSONResponse({"ok": False, "busy": True, "message": message}, 503, headers)
        html = render("message.html", lang, message=message, **base(request, ""))
        return HTMLResponse(html, 503, headers)

    async def client_gone(request: Request, exc: Exception) -> Response:
        return Response(status_code=499)  # (nobody reads it: the guard logs the 499)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        lang = page_lang(request)
        message = str(words(lang)("not_found" if exc.status_code == 404 else "bad_request"))
        if request.url.path.startswith("/api/"):
            return JSONResponse({"ok": False, "message": message}, exc.status_code)
        html = render("message.html", lang, message=message, **base(request, ""))
        return HTMLResponse(html, exc.status_code)

    async def bad_form(request: Request, exc: Exception) -> Response:
        """A form the parser refuses (too many fields or files, broken multipart): 400."""
        lang = page_lang(request)
        return HTMLResponse(
            render("message.html", lang, message=words(lang)("bad_request"), **base(request, "")),
            400,
        )

    async def too_large(request: Request, exc: Exception) -> Response:
        return Response("413: the request is too large", 413, media_type="text/plain")

    async def too_slow(request: Request, exc: Exception) -> Response:
        # (Connection: close: the rest of the body may still trickle in; h11 ends the line)
        headers = {"connection": "close"}
        return Response(SLOW_BODY, 408, media_type="text/plain", headers=headers)

    from starlette.formparsers import MultiPartException

    context = {
        "execute": execute,
        "base": base,
        "settings": settings,
        "stamp": stamp,
        "catalog": catalog,
        "forms": forms,
    }

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/", show_page, methods=["GET"]),
        Route("/", submit_page, methods=["POST"]),
        *coach_routes(context),
        *playtest_routes(context),
        Route("/api/preview/{page}", preview, methods=["POST"]),
        Route("/download/{page}", download, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{page}", show_page, methods=["GET"]),
        Route("/{page}", submit_page, methods=["POST"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            Busy: busy_handler,
            ClientGone: client_gone,
            HTTPException: http_error,
            MultiPartException: bad_form,
            TooLarge: too_large,
            BodyTimeout: too_slow,
        },
        lifespan=_closing(pool),
    )
    app.state.pool = pool
    return Guard(app, settings.max_body, settings.body_timeout)  # type: ignore[return-value]


def _closing(pool: BuildPool) -> Any:
    """The app's lifespan: the worker processes end with the server."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        pool.close()

    return lifespan


def preview_view(result: Result | None, lang: str, values: dict[str, str]) -> dict[str, Any]:
    """A preview as the page shows it: the overview's pages, and the page the pager asked
    for (`view`), each with its caption; `count` pages in all."""
    if result is None:
        return {"pages": [], "view": None, "count": 0}
    t = words(lang)
    shown = [
        {
            "src": _data_url(png),
            "number": s.number,
            "caption": str(
                t(
                    "preview_caption",
                    kind=s.kind,
                    number=s.number,
                    pages=result.pages,
                    version=s.version,
                )
            ),
        }
        for png, s in zip(result.pngs, result.shown, strict=True)
    ]
    paged = preview_page(values) is not None and bool(shown)
    view = shown.pop() if paged else None
    return {"pages": shown, "view": view, "count": result.pages}


def _data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _errors_json(errors: dict[str | None, str]) -> JSONResponse:
    fields = {k: v for k, v in errors.items() if k is not None}
    general = [v for k, v in errors.items() if k is None]
    return JSONResponse({"ok": False, "errors": fields, "general": general}, 400)


def app_from_environment() -> Any:
    """The app for `uvicorn --factory generator.web.app:app_from_environment` (a school's setup).

    DICESHEETS_CATALOG (a catalog folder), DICESHEETS_BUILDERS (build processes per server
    process, default 1) and DICESHEETS_TIME_LIMIT (seconds, default 30) set it up.
    """
    import os

    folder = os.environ.get("DICESHEETS_CATALOG")
    return create_app(
        Settings(
            catalog=Path(folder).resolve() if folder else None,
            workers=int(os.environ.get("DICESHEETS_BUILDERS", "1")),
            time_limit=float(os.environ.get("DICESHEETS_TIME_LIMIT", "30")),
        )
    )
