"""The web page in a real browser (Playwright driving the system's Chromium), as a teacher,
a game group and a playtester use it: forms, live previews, downloads, errors, languages."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from generator.core.resources import catalog_dir

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "browser tests skipped: /usr/bin/chromium not found (apt-get install chromium "
        "chromium-driver; .ci/run does this)",
        allow_module_level=True,
    )
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")  # never fetch a browser
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests: no playwright")
pytest.importorskip("uvicorn", reason="browser tests skipped: the web extra is missing")
expect = sync_api.expect
Page = Any
WAIT = 120_000  # ms: the cap on a wait for the page, met at once when it holds (a busy machine)
expect.set_options(timeout=WAIT)

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGES = ["/", "/kniffel", "/kniffel-odds", "/koepfchen", "/kribbeln", "/coach", "/playtest"]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("catalog")
    (folder / "koepfchen").mkdir()
    shutil.copy(catalog_dir() / "koepfchen" / "plus-minus.yaml", folder / "koepfchen")
    return folder


@pytest.fixture(scope="module")
def server(catalog: Path):
    from generator.web.app import Settings, create_app
    from tests.web_support import live_server, warm_tables

    warm_tables()  # the English coach starts on Yahtzee, the German one on Kniffel
    with live_server(create_app(Settings(workers=2, catalog=catalog))) as url:
        yield url


@pytest.fixture(scope="module")
def playwright():
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright, tmp_path_factory):
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh --user-data-dir
        executable_path=str(CHROMIUM),
        headless=True,
        args=FLAGS,
        accept_downloads=True,
        viewport={"width": 1280, "height": 900},
    )
    yield context
    context.close()


@pytest.fixture
def page(browser) -> Page:
    page = browser.new_page()
    page.set_default_timeout(WAIT)
    yield page
    page.close()


def preview_version(page: Page) -> int:
    return int(page.get_attribute("#preview-pages", "data-version") or 0)


def wait_for_new_preview(page: Page, before: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('#preview-pages').dataset.version || 0) > {before}",
        timeout=WAIT,
    )


def download(page: Page, selector: str, folder: Path) -> Path:
    with page.expect_download() as info:
        page.click(selector)
    target = folder / info.value.suggested_filename
    info.value.save_as(target)
    return target


def test_teacher_makes_a_named_class_set(page: Page, server: str, tmp_path: Path) -> None:
    from tests.web_support import NAMES

    page.goto(f"{server}/?lang=de")
    expect(page.locator("h1")).to_have_text("Arbeitsblätter")
    wait_for_new_preview(page, 0)
    before = preview_version(page)
    page.select_option("#f-level", "3")
    page.fill("#f-seed", "11")
    page.fill("#f-roster_text", "\n".join(NAMES))
    wait_for_new_preview(page, before)
    # one version: its first sheet and the key's first page
    expect(page.locator("#preview-pages img")).to_have_count(2)
    expect(page.locator("#figures")).to_contain_text("5 mit Namen")
    expect(page.locator("#command")).to_contain_text("--level 3")
    pdf = download(page, "button[data-part=both]", tmp_path)
    assert pdf.name == "worksheet-koepfchen-level3-de.pdf"
    reader = PdfReader(str(pdf))
    texts = [p.extract_text() for p in reader.pages]
    key_at = next(i for i, t in enumerate(texts) if "Lösungen" in t and "Gruppe A" in t)
    assert key_at % 5 == 0 and key_at >= 5  # five named sheets of equal length, then the key
    per_sheet = key_at // 5
    for n, name in enumerate(NAMES):
        assert name in texts[n * per_sheet], name
    assert "Wer hat welche Gruppe?" in " ".join(texts[key_at:])
    key = download(page, "button[data-part=key]", tmp_path)
    assert len(PdfReader(str(key)).pages) == len(texts) - key_at

    # a bad value: the CLI's message right beside the field, no download
    page.fill("#f-versions", "30")
    message = page.locator("[data-error-for=versions]")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Erwartet 1–26 Gruppen, nicht 30.")
    page.fill("#f-versions", "3")
    expect(message).to_be_hidden()

    # "new problems" draws a seed, "same again" brings the old one back
    page.click("[data-action=reseed]")
    expect(page.locator("#f-seed")).not_to_have_value("11")
    page.click("[data-action=same-again]")
    expect(page.locator("#f-seed")).to_have_value("11")

    page.click("text=English")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Worksheets")
    expect(page.locator("label[for=f-level]")).to_have_text("Level")


def test_the_class_list_stays_in_the_browser_only_when_ticked(browser, server: str) -> None:
    """This tab keeps the list over a reload (sessionStorage); another tab has it only when
    "merken" is ticked (localStorage); the server never keeps it."""
    page = browser.new_page()
    page.goto(f"{server}/?lang=en")
    page.fill("#f-roster_text", "Zoë\nÖmer")
    page.reload()
    expect(page.locator("#f-roster_text")).to_have_value("Zoë\nÖmer")
    other = browser.new_page()
    other.goto(f"{server}/?lang=en")
    expect(other.locator("#f-roster_text")).to_have_value("")
    other.close()
    page.check("#f-remember")
    other = browser.new_page()
    other.goto(f"{server}/?lang=en")
    expect(other.locator("#f-roster_text")).to_have_value("Zoë\nÖmer")
    expect(other.locator("#f-remember")).to_be_checked()
    other.uncheck("#f-remember")
    assert other.evaluate("localStorage.getItem('dicesheets.roster')") is None
    other.close()
    page.close()


def test_game_group_prints_a_kniffel_block(page: Page, server: str, tmp_path: Path) -> None:
    page.goto(f"{server}/kniffel?lang=de")
    wait_for_new_preview(page, 0)
    before = preview_version(page)
    page.fill("#f-names", "Zoë,Łukasz,Ömer")
    page.fill("#f-games", "3")
    wait_for_new_preview(page, before)
    pdf = download(page, "button[data-part=pdf]", tmp_path)
    text = " ".join(p.extract_text() for p in PdfReader(str(pdf)).pages)
    for name in ("Zoë", "Łukasz", "Ömer"):
        assert name in text
    assert "3. Spiel" in text and "4. Spiel" not in text
    page.fill("#f-games", "9")
    expect(page.locator("[data-error-for=games]")).to_contain_text(
        "Erwartet 1–6 Spiele je Block, nicht 9."
    )
    page.click("text=English")
    expect(page.locator("h1")).to_have_text("Yahtzee score block")


def test_the_coach_follows_the_dice(page: Page, server: str) -> None:
    page.goto(f"{server}/coach?lang=en")
    table = page.locator("#advice")
    expect(table).to_contain_text("roll 1 3 3 4 6, 2 rolls left")
    expect(page.locator("tr.best")).to_contain_text("3 3")
    page.click("[data-die='1']")  # 1 → 2
    expect(table).to_contain_text("roll 2 3 3 4 6")
    page.select_option("#box-threes", "9")
    expect(table).to_contain_text("1 box filled")
    page.check("input[name=rolls_left][value='0']")
    expect(page.locator("table.advice th").first).to_have_text("Box")
    # a bad position: every box filled → the CLI's message beside the boxes
    for box in page.locator(".boxes select").all():
        box.select_option(index=1)
    expect(page.locator("[data-error-for=filled]")).to_contain_text("the game is over")
    page.click("text=Deutsch")
    expect(page.locator("h1")).to_have_text("Kniffel-Coach")


def test_playtest_preview_follows_the_catalog(page: Page, server: str, catalog: Path) -> None:
    page.goto(f"{server}/playtest?lang=en")
    expect(page.locator("#problems")).to_contain_text("0 problems")
    page.select_option("#f-product", "koepfchen")
    page.select_option("#f-profile", "plus-minus")
    before = preview_version(page)
    wait_for_new_preview(page, before)
    before = preview_version(page)
    time.sleep(0.1)
    (catalog / "koepfchen" / "broken.yaml").write_text("length: [1,\n", encoding="utf-8")
    expect(page.locator("#problems")).to_contain_text("broken.yaml:", timeout=WAIT)
    wait_for_new_preview(page, before)  # the preview was rebuilt by itself
    (catalog / "koepfchen" / "broken.yaml").unlink()
    expect(page.locator("#problems")).to_contain_text("0 problems", timeout=WAIT)


def test_screenshots_of_every_page(page: Page, server: str, tmp_path: Path) -> None:
    """Every page in both languages as the browser draws it (DICESHEETS_SCREENSHOTS=DIR keeps
    them for a look)."""
    folder = Path(os.environ.get("DICESHEETS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    for lang in ("de", "en"):
        for path in PAGES:
            page.goto(f"{server}{path}?lang={lang}")
            page.wait_for_load_state("load")
            if path == "/coach":
                expect(page.locator("tr.best")).to_be_visible()
            if page.locator("#preview-pages").count():
                page.wait_for_function(
                    "() => document.querySelectorAll('#preview-pages img').length > 0",
                    timeout=WAIT,
                )
            name = re.sub(r"\W+", "-", path.strip("/")) or "worksheet"
            target = folder / f"{name}-{lang}.png"
            page.screenshot(path=str(target), full_page=True)
            assert target.stat().st_size > 20_000, target


# --- the topics of Klasse 1–4, at desktop and phone size, with and without JavaScript -------

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def no_js_browser(playwright, tmp_path_factory):
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-nojs")),  # a fresh --user-data-dir
        executable_path=str(CHROMIUM),
        headless=True,
        args=FLAGS,
        accept_downloads=True,
        java_script_enabled=False,
    )
    yield context
    context.close()


def topic_titles(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(str(pdf)).pages]


def check_number_wall_pdf(pdf: Path) -> None:
    """The download is the Rechenmauer sheet: its title on both groups' pages and the key."""
    assert pdf.name.startswith("worksheet-") and pdf.suffix == ".pdf", pdf.name
    texts = topic_titles(pdf)
    sheets = [t for t in texts if t.startswith("Gruppe")]
    assert len(sheets) == 2 and all("Rechenmauer (4 Reihen) – Klasse 2" in t for t in sheets)
    assert "Jeder Stein ist die Summe der beiden Steine darunter" in sheets[0]
    assert any(t.startswith("Lösungen – Rechenmauer (4 Reihen)") for t in texts)
    assert "Köpfchen" not in " ".join(texts)  # not the dice-arithmetic sheet of the default form


@pytest.mark.parametrize("size", SIZES)
def test_teacher_picks_a_klasse_2_topic(page: Page, server: str, tmp_path: Path, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{server}/?lang=de")
    wait_for_new_preview(page, 0)
    before = preview_version(page)
    page.select_option("#f-topic", "number-wall-4")
    page.fill("#f-number_range", "20-60")
    page.fill("#f-problems", "6")
    page.fill("#f-versions", "2")
    page.fill("#f-seed", "7")
    wait_for_new_preview(page, before)
    expect(page.locator("#command")).to_contain_text("--topic number-wall-4")
    expect(page.locator("#command")).to_contain_text("--range 20-60")
    expect(page.locator("#preview-pages img").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    check_number_wall_pdf(download(page, "button[data-part=both]", tmp_path))

    # an impossible combination: the CLI's check in the page's language beside the carry field
    page.select_option("#f-topic", "add-20-carry")
    page.select_option("#f-carry", "no")
    message = page.locator("[data-error-for=carry]")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Es gibt 0 Aufgaben")
    expect(page.locator("#f-topic")).to_have_value("add-20-carry")
    expect(page.locator("#f-carry")).to_have_value("no")
    expect(page.locator("#f-number_range")).to_have_value("20-60")
    expect(page.locator("#f-problems")).to_have_value("6")
    page.select_option("#f-carry", "yes")
    page.fill("#f-number_range", "")
    expect(message).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_a_topic_sheet_without_javascript(
    no_js_browser, server: str, tmp_path: Path, size: str
) -> None:
    page = no_js_browser.new_page()
    page.set_default_timeout(WAIT)
    page.set_viewport_size(SIZES[size])
    try:
        page.goto(f"{server}/?lang=de")
        page.select_option("#f-topic", "number-wall-4")
        page.fill("#f-number_range", "20-60")
        page.fill("#f-problems", "6")
        page.fill("#f-versions", "2")
        page.fill("#f-seed", "7")
        page.click("button.refresh")  # the form posts; the page comes back with the preview
        expect(page.locator("#preview-pages img").first).to_be_visible()
        expect(page.locator("#command")).to_contain_text("--topic number-wall-4")
        expect(page.locator("#f-topic")).to_have_value("number-wall-4")
        page.wait_for_load_state("load")  # the width is the styled page's, not the parse's
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        check_number_wall_pdf(download(page, "button[data-part=both]", tmp_path))

        page.select_option("#f-topic", "add-20-carry")
        page.select_option("#f-carry", "no")
        page.fill("#f-number_range", "")
        page.click("button.refresh")
        message = page.locator("[data-error-for=carry]")
        expect(message).to_be_visible()
        expect(message).to_contain_text("Es gibt 0 Aufgaben")
        expect(page.locator("#f-topic")).to_have_value("add-20-carry")
        expect(page.locator("#f-carry")).to_have_value("no")
        expect(page.locator("#f-problems")).to_have_value("6")
        expect(page.locator("#f-seed")).to_have_value("7")
    finally:
        page.close()
