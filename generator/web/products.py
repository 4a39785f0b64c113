"""What the web page builds, run inside a pool worker: a job in, bytes and figures out.

Everything happens in memory: the PDF is built as bytes, previews are rendered
from those bytes, a class list arrives as text. Nothing here opens a file for
writing, so pupils' names never reach the disk. A job and its result are plain
values, so they cross the process boundary of the pool.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import InputError, Msg, UserError
from generator.io.catalog import Catalog
from generator.registry import PRODUCTS

if TYPE_CHECKING:
    from generator.core.built import Built
    from generator.render.primitives import Document

PREVIEW_DPI = 60
PREVIEW_PAGES = 2  # the overview of a product without sheets: its first pages


@dataclass(frozen=True)
class Job:
    """One build: which product, its command parameters, and what to hand back."""

    product: str  # "worksheet", "kniffel-block", "kniffel-odds", "koepfchen", "kribbeln", "coach"
    params: dict[str, Any]
    action: str = "pdf"  # "preview" | "pdf" | "sheets" | "key" | "advise"
    roster: bytes | None = None  # a class list as pasted or uploaded (never a path)
    roster_label: str = "class list"
    page: int | None = None  # a preview: this page (1-based) besides, or instead of, the overview
    overview: bool = True  # a preview: the pages it shows first


@dataclass(frozen=True)
class Shown:
    """A page of a preview: its number in the whole PDF and what it is."""

    number: int  # 1-based, in the PDF the download gives
    kind: str  # "sheet" | "large" (a large-print sheet) | "key" | "page"
    version: str = ""  # a worksheet's version letter


@dataclass(frozen=True)
class Result:
    """What a job produced, or the user error that stopped it."""

    pdf: bytes = b""
    filename: str = ""
    pages: int = 0
    pngs: tuple[bytes, ...] = ()
    shown: tuple[Shown, ...] = ()  # what each preview PNG is
    figures: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str | UserError, ...] = ()  # a line (maybe a `Note`), or about an input
    seed: int | None = None  # the seed the build used (drawn by the build when none was given)
    error: UserError | None = None  # what stopped it: the page says it in its language


_CATALOG: Catalog | None = None  # per worker: the server's catalog (its command line only)


def use_catalog(folder: Path | None) -> None:
    """Lay the server's catalog folder over the shipped one for this worker's builds."""
    global _CATALOG
    _CATALOG = Catalog.default(folder)


def catalog() -> Catalog:
    return _CATALOG if _CATALOG is not None else Catalog.default()


def run_job(job: Job) -> Result:
    """Build what `job` asks for; a user error becomes a value, anything else is a bug."""
    try:
        return BUILDERS[job.product](job)
    except UserError as exc:
        return Result(error=exc)


def page_pngs(pdf: bytes, numbers: Sequence[int], dpi: int = PREVIEW_DPI) -> tuple[bytes, ...]:
    """Pages `numbers` (1-based) of a PDF as PNG bytes (PDFium, in memory)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        images = []
        for number in numbers:
            page = document[number - 1]
            images.append(png_bytes(page.render(scale=dpi / 72).to_pil()))
            page.close()
        return tuple(images)
    finally:
        document.close()


def png_bytes(image: Any) -> bytes:
    """An RGB image as PNG; a grey one (every sheet, most pages) in one channel, the same
    pixels: a third of the bytes to filter and compress, a preview's pages in 15 ms
    instead of 40 ms. Level 1: as small as level 3 here, and faster."""
    import numpy as np

    pixels = np.asarray(image)
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    if np.array_equal(red, green) and np.array_equal(green, blue):
        image = image.convert("L")  # (exact: a grey pixel's luma is its value)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _sheets(built: Built) -> list[dict[str, Any]]:
    """A class set's sheets as its manifest lists them ([] for a product without sheets)."""
    sheets = built.contents.get("sheets") if isinstance(built.contents, dict) else None
    return sheets if isinstance(sheets, list) and sheets and "first_page" in sheets[0] else []


def overview(built: Built, pages: int) -> tuple[Shown, ...]:
    """The pages a preview shows first: of a class set the first sheet of each version, the
    first large-print sheet and the key's first page; of anything else its first pages."""
    sheets = _sheets(built)
    if not sheets:
        return tuple(Shown(n, "page") for n in range(1, min(PREVIEW_PAGES, pages) + 1))
    firsts: dict[str, dict[str, Any]] = {}  # every version's first sheet (in normal print)
    for sheet in sorted(sheets, key=lambda s: bool(s["large_print"])):
        firsts.setdefault(sheet["version"], sheet)
    large = next((s for s in sheets if s["large_print"]), None)
    if large is not None and not any(s["large_print"] for s in firsts.values()):
        firsts[""] = large  # one large-print sheet, also where no version's first is one
    shown = [
        Shown(s["first_page"], "large" if s["large_print"] else "sheet", s["version"])
        for s in firsts.values()
    ]
    first_key = int(built.contents.get("sheet_pages") or 0) + 1
    if built.contents.get("key_pages") and first_key <= pages:  # the key after the sheets
        shown.append(Shown(first_key, "key"))
    return tuple(sorted(shown, key=lambda s: s.number))


def what_page(built: Built, number: int) -> Shown:
    """What page `number` of a build is (a preview of one page)."""
    sheets = _sheets(built)
    for sheet in sheets:
        if sheet["first_page"] <= number < sheet["first_page"] + sheet["pages"]:
            return Shown(number, "large" if sheet["large_print"] else "sheet", sheet["version"])
    return Shown(number, "key" if sheets else "page")


def only_pages(document: Document, numbers: Sequence[int]) -> Document:
    """The document with pages `numbers` (1-based) alone and only the forms they draw; each
    page is drawn as in the whole document, so its image is the same (tested)."""
    from generator.render.primitives import UseForm

    pages = tuple(document.pages[n - 1] for n in numbers)
    wanted: set[str] = set()
    todo = [item for page in pages for item in page.items]
    while todo:  # (a form may draw another form)
        item = todo.pop()
        if isinstance(item, UseForm) and item.name not in wanted:
            wanted.add(item.name)
            todo += document.forms[item.name]
    # only the forms wanted are asked for: a form not yet drawn is never drawn here
    forms = {name: document.forms[name] for name in sorted(wanted)}
    return replace(document, pages=pages, forms=forms)


def _finish(job: Job, built: Built, figures: dict[str, Any] | None = None) -> Result:
    """Render the document a job asks for (the main one, or an extra such as the key); a
    preview renders only the pages it shows, never the whole set."""
    from generator.render.draw import render_pdf

    roles = dict(built.extra)
    document = roles.get(job.action, built.document)
    name = built.name
    if job.action in roles:
        name = name.removesuffix(".pdf") + f"-{job.action}.pdf"
    result = Result(filename=name, figures=figures or {}, warnings=built.warnings, seed=built.seed)
    if job.action != "preview":
        return replace(result, pdf=render_pdf(document))
    count = len(document.pages)
    shown = overview(built, count) if job.overview or job.page is None else ()
    if job.page is not None:
        if not 1 <= job.page <= count:
            raise InputError("preview_page", Msg("range_bare", low=1, high=count, found=job.page))
        shown += (what_page(built, job.page),)  # last: the page the pager shows
    numbers = [s.number for s in shown]
    pdf = render_pdf(only_pages(document, numbers))
    return replace(result, pngs=page_pngs(pdf, range(1, len(numbers) + 1)), pages=count,
                   shown=shown)  # fmt: skip


# --- the products -----------------------------------------------------------------------


def _plain(job: Job) -> Result:
    """A product the page shows as it is: request → load → build → the PDF or previews."""
    return _finish(job, PRODUCTS[job.product].make(job.params, catalog()))


def _worksheet(job: Job) -> Result:
    from generator.worksheet.load import load_worksheet
    from generator.worksheet.roster import roster_from_bytes
    from generator.worksheet.sheet import build_sheet

    # "sheets" and "key" are the CLI's --key-file: the key as a document of its own
    separate = {"key_file": "key.pdf", "key": True} if job.action in ("sheets", "key") else {}
    req = PRODUCTS["worksheet"].request_of(job.params, **separate)
    roster = None
    if job.roster is not None:
        # the class list arrives as bytes, never as a file: the request only names it
        roster = roster_from_bytes(job.roster, job.roster_label)
        req = replace(req, roster=job.roster_label)
    built = build_sheet(load_worksheet(req, catalog(), roster=roster), req)
    if job.action == "sheets":
        built = replace(built, extra=())
    figures = {
        "sheets": len(built.contents["sheets"]),
        "versions": len(built.contents["versions"]),
        "named": sum(1 for s in built.contents["sheets"] if s["name"]),
        "large": sum(1 for s in built.contents["sheets"] if s["large_print"]),
        "seed": req.seed,
        "levels": built.contents.get("levels", []),  # a class list with a "Stufe" column
    }
    return _finish(job, built, figures)


def _koepfchen(job: Job) -> Result:
    built = PRODUCTS["koepfchen"].make(job.params, catalog())
    keys = ("game_length", "races", "track_length", "sampled")
    return _finish(job, built, {k: built.contents[k] for k in keys})


def _kribbeln(job: Job) -> Result:
    from generator.kribbeln.build import Unbalanced

    try:
        built = PRODUCTS["kribbeln"].make(job.params, catalog())
    except Unbalanced as exc:  # the page's words at its field; the balance file is not its own
        raise InputError("pages", Msg("web_cannot_balance", pages=exc.pages)) from None
    c = built.contents
    figures = {
        "pages": c["pages"],
        "constraints_met": c["constraints_met"],
        "violations": c["violations"],
        "block_mean_p_success": c["block_mean_p_success"],
        "block_mean_expected_pips": c["block_mean_expected_pips"],
        "sheets": [
            {k: s[k] for k in ("number", "mean_p_success", "mean_expected_pips")}
            for s in c["sheets"]
        ],
    }
    return _finish(job, built, figures)


_TABLES: dict[Any, Any] = {}  # per worker process: the tables stay mapped


def table_for(rules: Any) -> Any:
    """The solved Kniffel table for a rule set, as the coach reads it (the mapped cache entry)."""
    from generator.kniffel.load import load_table
    from generator.kniffel.table import table_key

    key = table_key(rules)
    if key not in _TABLES:
        _TABLES[key] = load_table(rules)
    return _TABLES[key]


_RULES: dict[Any, Any] = {}  # per worker process: rule sets by file and stamp (an edit reads anew)


def rules_for(name: str) -> Any:
    """The rule set `name` of the catalog, parsed once per worker while its file is unchanged
    (the YAML took half of an answer's time)."""
    from generator.kniffel.load import load_rules
    from generator.kniffel.rules import SUBDIR

    where = catalog()
    path = where.path(f"{SUBDIR}/{name}.yaml")
    try:
        info = path.stat() if path is not None else None
    except OSError:
        info = None
    if info is None:
        return load_rules(name, where)  # (it says what is wrong)
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key not in _RULES:
        _RULES[key] = load_rules(name, where)
    return _RULES[key]


def _coach(job: Job) -> Result:
    from generator.kniffel.coach import advise, make_position, parse_roll
    from generator.kniffel.table import with_joker

    p = job.params
    rules = with_joker(rules_for(p["rules"]), p.get("joker"))
    dice = parse_roll([p["roll"]])
    position = make_position(rules, p.get("filled", ""), None)
    rolls_left = p["rolls_left"]
    if not 0 <= rolls_left <= 2:
        raise InputError("rolls_left", Msg("rolls_left", found=rolls_left))
    return Result(figures=advise(table_for(rules), position, dice, rolls_left).to_json())


def _validate(job: Job) -> Result:
    from generator.validate.checks import validate

    report = validate(Path(job.params["folder"]))
    figures = {"errors": report.errors, "warnings": report.warnings, "files": report.files}
    return Result(figures=figures)


# a product's own builder where its page shows figures or takes a class list; every other
# product of the registry is built as it is (`_plain`), so a new product needs none
BUILDERS = {
    **{product: _plain for product in PRODUCTS},
    "worksheet": _worksheet,
    "koepfchen": _koepfchen,
    "kribbeln": _kribbeln,
    "coach": _coach,
    "validate": _validate,
}
