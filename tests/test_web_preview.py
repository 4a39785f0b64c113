"""The web preview builds only the pages it shows, and they are the download's pages.

A class set's overview is the first sheet of each version, a large-print sheet and the
key's first page; the pager asks for any page on its own. Each image is compared byte
for byte with the same page of the PDF the download button gives, rendered the same way.
Identical requests are answered from a short-lived cache whose key holds nothing typed.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from pypdf import PdfReader
from starlette.testclient import TestClient

from generator.io.catalog import Catalog
from generator.web.app import ResultCache, Settings, cache_key, create_app
from generator.web.pages import PAGES
from generator.web.products import Job, Result, page_pngs
from tests.web_support import NAMES, WORKSHEET

CLASS = [*NAMES, "Mia", "Ben", "Emma", "Noah", "Lina", "Paul", "Ella"]  # 12 pupils


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=1))) as c:
        yield c


def pngs_of(pages: list[dict[str, Any]]) -> list[bytes]:
    return [base64.b64decode(p["src"].split(",", 1)[1]) for p in pages]


def download(client: TestClient, page: str, data: dict[str, str], part: str) -> bytes:
    response = client.post(f"/download/{page}", data={**data, "part": part})
    assert response.status_code == 200, response.text[:300]
    return response.content


CLASS_SET = {**WORKSHEET, "seed": "41", "roster_text": "\n".join(CLASS),
             "large_print_for": "Ömer, Paul"}  # fmt: skip


def test_the_overview_is_each_version_a_large_print_sheet_and_the_key(client) -> None:
    body = client.post("/api/preview/worksheet?lang=en", data=CLASS_SET).json()
    assert body["ok"], body
    pdf = download(client, "worksheet", CLASS_SET, "both")
    count = len(PdfReader(io.BytesIO(pdf)).pages)
    assert body["count"] == body["page_count"] == count
    captions = [p["caption"] for p in body["pages"]]
    # Zoë A, Łukasz B, Ömer C (large print: versions go by place in the list), Nguyễn A …
    assert captions[:2] == [f"Page 1 of {count} · version A", f"Page 3 of {count} · version B"]
    assert any("large print, version C" in c for c in captions)
    assert any(c.endswith("· version C") for c in captions)  # C's first normal-print sheet
    assert captions[-1].endswith("· answer key")
    assert len(captions) == 5 and body["view"] is None
    # the whole set is 12 sheets, 2 in large print: said in the summary
    assert (
        "12 sheets" in body["figures_html"] and "2 of them in large print" in body["figures_html"]
    )


@pytest.mark.parametrize(
    "page, data, part",
    [
        ("worksheet", CLASS_SET, "both"),
        ("worksheet", {**WORKSHEET, "seed": "5", "versions": "2", "large_print": "1"}, "both"),
        ("worksheet", {"topic": "add-20-carry", "seed": "3", "roster_text": "Ada\nBo\nCy"}, "both"),
        ("kniffel", {"players": "3"}, "pdf"),
        ("kribbeln", {"seed": "4"}, "pdf"),
    ],
    ids=["class-set", "large-print", "topic", "kniffel", "kribbeln"],
)
def test_every_preview_image_is_the_same_page_of_the_download(client, page, data, part) -> None:
    body = client.post(f"/api/preview/{page}", data=data).json()
    assert body["ok"], body
    pdf = download(client, page, data, part)
    numbers = [p["number"] for p in body["pages"]]
    assert numbers and pngs_of(body["pages"]) == list(page_pngs(pdf, numbers))
    # the pager: the last page alone, on demand
    last = body["count"]
    paged = client.post(f"/api/preview/{page}", data={**data, "preview_page": str(last),
                                                       "preview_only": "1"}).json()  # fmt: skip
    assert paged["pages"] == [] and paged["view"]["number"] == last
    assert pngs_of([paged["view"]]) == list(page_pngs(pdf, [last]))


def test_the_pager_refuses_a_page_the_set_does_not_have(client) -> None:
    data = {**CLASS_SET, "preview_page": "999", "preview_only": "1"}
    body = client.post("/api/preview/worksheet?lang=de", data=data).json()
    assert not body["ok"]
    assert "999" in body["errors"]["preview_page"] and "1–" in body["errors"]["preview_page"]
    body = client.post("/api/preview/worksheet", data={**data, "preview_page": "zwei"}).json()
    assert "preview_page" in body["errors"]


def test_without_javascript_the_pager_shows_the_page_asked_for(client) -> None:
    """The pager's buttons submit the form: the page comes back with the overview and the
    page asked for, and the buttons step from there."""
    response = client.post("/worksheet?lang=de", data={**CLASS_SET, "preview_go": "7"})
    assert response.status_code == 200
    html = response.text
    assert 'id="page-view"' in html and "Seite 7 von" in html
    assert 'name="preview_go" value="6"' in html and 'name="preview_go" value="8"' in html
    assert 'name="preview_page" value="7"' in html
    assert html.count('<figure class="page"') == 5


def test_the_cache_key_holds_nothing_typed_and_a_hit_needs_the_same_text() -> None:
    form = PAGES["worksheet"].form(Catalog.default())
    params = {"family": "koepfchen", "level": 2, "seed": 9, "title": "Zoë's Blatt",
              "klass": "3b", "large_print_for": "Zoë"}  # fmt: skip
    one = Job("worksheet", params, "preview", roster=b"Zo\xc3\xab\nBen")
    other = Job("worksheet", params, "preview", roster=b"Zo\xc3\xab\nBenno")
    key_one, key_other = cache_key(one, form, ""), cache_key(other, form, "")
    assert key_one[0] == key_other[0]  # the same settings: the same key …
    assert "Zo" not in key_one[0] and "3b" not in key_one[0]  # (a hash, never the text)
    cache = ResultCache(4, ttl=60)
    answer = Result(pages=3)
    cache.put(key_one, answer)
    assert cache.get(key_one) is answer
    assert cache.get(key_other) is None  # … but another class list is no hit
    stale = ResultCache(4, ttl=0)
    stale.put(key_one, answer)
    assert stale.get(key_one) is None  # kept no longer than its time


def test_a_preview_draws_only_the_forms_of_the_pages_it_shows() -> None:
    """Of a class set's versions in both print sizes, the overview's pages draw their own
    forms and no other (the rest of the set is cut into pages, never drawn)."""
    from generator.render.primitives import UseForm
    from generator.web.products import only_pages, overview
    from generator.worksheet.build import WorksheetRequest, build_worksheet
    from generator.worksheet.load import load_worksheet

    req = WorksheetRequest(level=2, versions=3, seed=7, names=", ".join(CLASS),
                           large_print_for="Paul")  # fmt: skip
    built = build_worksheet(load_worksheet(req, Catalog.default()), req)
    document = built.document
    shown = [s.number for s in overview(built, len(document.pages))]
    pages = [document.pages[n - 1] for n in shown]
    wanted = {i.name for page in pages for i in page.items if isinstance(i, UseForm)}
    only_pages(document, shown)
    made = getattr(document.forms, "made", None)
    assert made is not None and wanted <= made
    # a version's pages are drawn together; A, B, C normal and Paul's large-print version
    assert len(made) < len(document.forms)
    assert {name.rsplit("-", 1)[0] for name in made} == {name.rsplit("-", 1)[0] for name in wanted}


def test_a_preview_png_has_the_pixels_of_the_page_grey_in_one_channel() -> None:
    from PIL import Image

    from generator.web.products import png_bytes

    grey = Image.new("RGB", (40, 30), "#ffffff")
    grey.paste((154, 154, 154), (5, 5, 20, 20))
    coloured = grey.copy()
    coloured.putpixel((30, 10), (251, 251, 244))  # a card's cream: one pixel is enough
    for image, mode in ((grey, "L"), (coloured, "RGB")):
        with Image.open(io.BytesIO(png_bytes(image))) as png:
            assert png.mode == mode
            assert png.convert("RGB").tobytes() == image.tobytes()
