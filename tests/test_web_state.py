"""Nothing a teacher typed is lost: the web page in a real browser (the system's Chromium),
with and without JavaScript, at desktop and phone size — round trips, reload, Back, the
language switch, Enter, downloads with an error, the phone layout, menus and defaults."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from pypdf import PdfReader

from tests.test_web_browser import (  # the browser and the server, as the other browser tests
    CHROMIUM,
    FLAGS,
    WAIT,
    download,
    expect,
    preview_version,
    wait_for_new_preview,
)
from tests.test_web_browser import browser as browser
from tests.test_web_browser import catalog as catalog
from tests.test_web_browser import playwright as playwright
from tests.test_web_browser import server as server
from tests.web_support import NAMES

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
CLASS_CSV = "Vorname;Nachname;Großdruck\nZoë;Berg;\nJörg;Nowak;x\nÖmer;Kaya;\n"


@pytest.fixture(scope="module")
def no_js(playwright, tmp_path_factory):
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-state-nojs")),
        executable_path=str(CHROMIUM),
        headless=True,
        args=FLAGS,
        accept_downloads=True,
        java_script_enabled=False,
    )
    yield context
    context.close()


def fresh(context, size: str):
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.set_viewport_size(SIZES[size])
    return page


def sheet_texts(pdf: Path) -> list[str]:
    return [p.extract_text() for p in PdfReader(str(pdf)).pages]


def named_sheets(pdf: Path, names: list[str]) -> list[str]:
    """The names that head a page of the PDF, in order of the pages."""
    found = []
    for text in sheet_texts(pdf):
        head = text[:200]
        found += [n for n in names if n in head and n not in found]
    return found


def no_sideways_scroll(page, width: int) -> None:
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# --- 1. without JavaScript: every round trip returns every field and the class list --------


@pytest.mark.parametrize("size", SIZES)
def test_no_js_preview_keeps_the_pasted_list(no_js, server, tmp_path, size) -> None:
    page = fresh(no_js, size)
    try:
        page.goto(f"{server}/?lang=de")
        page.select_option("#f-level", "3")
        page.fill("#f-versions", "2")
        page.fill("#f-klass", "3b")
        page.fill("#f-seed", "11")
        page.fill("#f-roster_text", "\n".join(NAMES))
        page.click("button.refresh")  # "Vorschau zeigen": the page comes back with the preview
        expect(page.locator("#figures")).to_contain_text("5 mit Namen")
        expect(page.locator("#f-roster_text")).to_have_value("\n".join(NAMES))
        expect(page.locator("#f-level")).to_have_value("3")
        expect(page.locator("#f-klass")).to_have_value("3b")
        expect(page.locator("#f-seed")).to_have_value("11")
        no_sideways_scroll(page, SIZES[size]["width"])
        # the link to this setup: every setting, no name
        link = page.get_attribute("#setup-link", "href") or ""
        query = parse_qs(urlparse(link).query)
        assert query["level"] == ["3"] and query["klass"] == ["3b"] and query["seed"] == ["11"]
        assert not any(n in link for n in NAMES) and "roster" not in link
        pdf = download(page, "button[data-part=both]", tmp_path)
        assert named_sheets(pdf, NAMES) == NAMES  # the next download: the named set

        # an error: the page comes back with it beside the field, and with everything else
        page.fill("#f-versions", "30")
        page.click("button[data-part=both]")
        expect(page.locator("[data-error-for=versions]")).to_contain_text("nicht 30")
        expect(page.locator("#f-roster_text")).to_have_value("\n".join(NAMES))
        expect(page.locator("#f-klass")).to_have_value("3b")
        expect(page.locator("#f-level")).to_have_value("3")
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_no_js_keeps_an_uploaded_list(no_js, server, tmp_path, size) -> None:
    source = tmp_path / "klasse3b.csv"
    source.write_bytes(CLASS_CSV.encode("cp1252"))  # as Excel's CSV writes it on Windows
    page = fresh(no_js, size)
    try:
        page.goto(f"{server}/?lang=de")
        page.fill("#f-versions", "2")
        page.fill("#f-seed", "5")
        page.set_input_files("#f-roster_file", str(source))
        page.click("button.refresh")
        expect(page.locator("#figures")).to_contain_text("3 mit Namen")
        carried = page.locator("[data-carried]")
        expect(carried).to_be_visible()
        expect(carried).to_contain_text("klasse3b.csv")
        # the file came back in the page (a hidden field), not as a file on the server
        assert page.input_value("[name=roster_upload]") != ""
        page.fill("#f-versions", "30")  # an error round trip keeps the file too
        page.click("button.refresh")
        expect(page.locator("[data-error-for=versions]")).to_be_visible()
        expect(carried).to_contain_text("klasse3b.csv")
        page.fill("#f-versions", "2")
        pdf = download(page, "button[data-part=sheets]", tmp_path)
        assert named_sheets(pdf, ["Zoë Berg", "Jörg Nowak", "Ömer Kaya"]) == [
            "Zoë Berg",
            "Jörg Nowak",
            "Ömer Kaya",
        ]
        page.check("#f-roster_upload_drop")  # "Datei nicht mehr verwenden"
        page.click("button.refresh")
        expect(page.locator("#figures")).not_to_contain_text("mit Namen")
        expect(carried).to_be_hidden()
    finally:
        page.close()


# --- 2. with JavaScript: a download error, reload, Back and the language switch ---------


@pytest.mark.parametrize("size", SIZES)
def test_a_download_error_keeps_the_page(browser, server, size) -> None:
    page = fresh(browser, size)
    try:
        page.goto(f"{server}/?lang=de")
        wait_for_new_preview(page, 0)
        page.fill("#f-roster_text", "\n".join(NAMES))
        page.fill("#f-klass", "3b")
        page.fill("#f-versions", "30")
        page.click("button[data-part=both]")
        message = page.locator("[data-error-for=versions]")
        expect(message).to_contain_text("nicht 30")
        expect(page.locator("[data-download-error]")).to_be_visible()
        # no reload: the list and every field are as they were
        expect(page.locator("#f-roster_text")).to_have_value("\n".join(NAMES))
        expect(page.locator("#f-klass")).to_have_value("3b")
        expect(page.locator("#f-versions")).to_be_focused()
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_reload_back_and_the_language_switch_keep_everything(browser, server, size) -> None:
    page = fresh(browser, size)
    try:
        page.goto(f"{server}/?lang=de")
        wait_for_new_preview(page, 0)
        page.select_option("#f-level", "3")
        page.fill("#f-klass", "3b")
        page.fill("#f-seed", "11")
        page.uncheck("#f-key")
        page.fill("#f-roster_text", "Zoë\nÖmer")
        page.fill("#f-large_print_for", "Ömer")
        expect(page).to_have_url(re.compile(r"level=3"))
        url = page.url
        assert "seed=11" in url and "klass=3b" in url and "key=0" in url
        assert "Zo" not in url and "mer" not in url  # names never in the address
        for again in ("reload", "language", "back"):
            if again == "reload":
                page.reload()
            elif again == "language":
                page.click("[data-lang-switch=en]")
                expect(page.locator("html")).to_have_attribute("lang", "en")
                # the sheet stays German: the setting moved with the page
                expect(page.locator("#f-lang")).to_have_value("de")
            else:
                page.go_back()
                expect(page.locator("html")).to_have_attribute("lang", "de")
            expect(page.locator("#f-level")).to_have_value("3")
            expect(page.locator("#f-klass")).to_have_value("3b")
            expect(page.locator("#f-seed")).to_have_value("11")
            expect(page.locator("#f-key")).not_to_be_checked()
            expect(page.locator("#f-roster_text")).to_have_value("Zoë\nÖmer")
            expect(page.locator("#f-large_print_for")).to_have_value("Ömer")
        # the link to this setup opens it in a new tab: settings, never names
        link = page.get_attribute("#setup-link", "href") or ""
        other = fresh(browser, "desktop")
        try:
            other.goto(f"{server}{link}")
            expect(other.locator("#f-level")).to_have_value("3")
            expect(other.locator("#f-seed")).to_have_value("11")
            expect(other.locator("#f-roster_text")).to_have_value("")
        finally:
            other.close()
    finally:
        page.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go (DICESHEETS_SCREENSHOTS=DIR keeps them for a look)."""
    import os

    folder = Path(os.environ.get("DICESHEETS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("size", SIZES)
def test_no_js_language_switch_keeps_every_field_and_the_lists(
    no_js, server, tmp_path, size, shots
) -> None:
    source = tmp_path / "klasse3b.csv"
    source.write_bytes(CLASS_CSV.encode("cp1252"))
    page = fresh(no_js, size)
    try:
        page.goto(f"{server}/?lang=de")
        page.select_option("#f-level", "3")
        page.fill("#f-versions", "2")
        page.fill("#f-klass", "3b")
        page.fill("#f-seed", "11")
        page.fill("#f-roster_text", "\n".join(NAMES))
        page.fill("#f-large_print_for", "Jörg")
        page.set_input_files("#f-roster_file", str(source))
        page.click("[data-lang-switch=en]")  # a submit button of the form: it posts everything
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("h1")).to_have_text("Worksheets")
        for again in ("switched", "reload", "back"):
            if again == "reload":
                page.reload()  # (the browser sends the form again)
            elif again == "back":
                page.click("[data-lang-switch=de]")
                expect(page.locator("html")).to_have_attribute("lang", "de")
            expect(page.locator("#f-level")).to_have_value("3")
            expect(page.locator("#f-versions")).to_have_value("2")
            expect(page.locator("#f-klass")).to_have_value("3b")
            expect(page.locator("#f-seed")).to_have_value("11")
            expect(page.locator("#f-lang")).to_have_value("de")  # the sheet's language stays
            expect(page.locator("#f-roster_text")).to_have_value("\n".join(NAMES))
            expect(page.locator("#f-large_print_for")).to_have_value("Jörg")
            expect(page.locator("[data-carried]")).to_contain_text("klasse3b.csv")
            # the uploaded file wins over the text box: its three pupils, Jörg in large print
            expect(page.locator("#figures")).to_contain_text("3")
            expect(page.locator("#preview-pages figure").first).to_be_visible()
        no_sideways_scroll(page, SIZES[size]["width"])
        page.screenshot(path=str(shots / f"lang-switch-nojs-{size}.png"))
        pdf = download(page, "button[data-part=sheets]", tmp_path)
        assert named_sheets(pdf, ["Zoë Berg", "Jörg Nowak", "Ömer Kaya"]) == [
            "Zoë Berg",
            "Jörg Nowak",
            "Ömer Kaya",
        ]
    finally:
        page.close()


def test_enter_never_switches_the_language(no_js, server) -> None:
    page = fresh(no_js, "desktop")
    try:
        page.goto(f"{server}/?lang=de")
        page.fill("#f-klass", "3b")
        page.press("#f-klass", "Enter")
        expect(page.locator("#preview-pages figure").first).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", "de")
    finally:
        page.close()


def coach_position(page) -> tuple[list[str], str, str]:
    dice = [page.input_value(f"[name=die{i}]") for i in range(1, 6)]
    rolls = page.locator("[name=rolls_left]:checked").get_attribute("value") or ""
    return dice, page.input_value("#box-threes"), rolls


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_coach_keeps_its_position(browser, no_js, server, size, js, shots) -> None:
    page = fresh(browser if js else no_js, size)
    try:
        page.goto(f"{server}/coach?lang=de")
        if js:
            page.click("[data-die='1']")  # 1 → 2
        else:
            expect(page.locator(".die").first).to_be_hidden()  # typed boxes instead of buttons
            page.fill("[name=die1]", "2")
        page.select_option("#box-threes", "9")
        page.check("input[name=rolls_left][value='1']")
        if js:
            expect(page.locator("#advice")).to_contain_text("1 Wurf")
            expect(page).to_have_url(re.compile(r"die1=2.*rolls_left=1.*threes=9"))
        else:
            page.locator("button.refresh").first.click()  # a GET form: the address is the position
            expect(page).to_have_url(re.compile(r"die1=2.*rolls_left=1.*threes=9"))
        table = page.locator("#advice").inner_text()
        assert "2 3 3 4 6" in table
        for again in ("reload", "language", "back"):
            if again == "reload":
                page.reload()
            elif again == "language":
                page.click("[data-lang-switch=en]")
                expect(page.locator("html")).to_have_attribute("lang", "en")
                expect(page.locator("#advice")).to_contain_text("roll 2 3 3 4 6, 1 roll left")
            else:
                page.go_back()
                expect(page.locator("html")).to_have_attribute("lang", "de")
            expect(page.locator("#advice")).to_contain_text("2 3 3 4 6")
            assert coach_position(page) == (["2", "3", "3", "4", "6"], "9", "1"), again
        no_sideways_scroll(page, SIZES[size]["width"])
        page.screenshot(path=str(shots / f"coach-{'js' if js else 'nojs'}-{size}.png"))
    finally:
        page.close()


# --- 3. Enter shows the preview and never draws new problems ----------------------------


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_enter_never_draws_new_problems(browser, no_js, server, js) -> None:
    page = fresh(browser if js else no_js, "desktop")
    try:
        page.goto(f"{server}/?lang=de")
        if js:
            wait_for_new_preview(page, 0)
        page.fill("#f-seed", "4242")
        before = preview_version(page) if js else 0
        page.fill("#f-klass", "3b")
        page.press("#f-klass", "Enter")
        if js:
            wait_for_new_preview(page, before)
        else:
            expect(page.locator("#preview-pages img").first).to_be_visible()
        expect(page.locator("#f-seed")).to_have_value("4242")
        expect(page.locator("#f-klass")).to_have_value("3b")
    finally:
        page.close()


# --- 4. the phone: preview first, a one-line header, nothing sideways ---------------------


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_phone_layout(browser, no_js, server, js) -> None:
    page = fresh(browser if js else no_js, "phone")
    try:
        for lang in ("de", "en"):
            page.goto(f"{server}/?lang={lang}")
            if not js:
                page.click("button.refresh")
            expect(page.locator("#preview-pages img").first).to_be_visible()
            header = page.locator("header.top").bounding_box()
            assert header is not None and header["height"] <= 60  # one line
            preview = page.locator("section.preview").bounding_box()
            form = page.locator("#product-form").bounding_box()
            assert preview is not None and form is not None and preview["y"] < form["y"]
            image = page.locator("#preview-pages img").first.bounding_box()
            assert image is not None and image["width"] >= 300  # a page one can read
            no_sideways_scroll(page, 390)
            page.click("details.narrow summary")  # the pages behind the menu
            expect(page.locator("details.narrow nav a").first).to_be_visible()

            page.goto(f"{server}/coach?lang={lang}")
            expect(page.locator("tr.best")).to_be_visible()
            dice = page.locator(".dice").bounding_box()
            advice = page.locator("table.advice").bounding_box()
            boxes = page.locator("fieldset.boxes").bounding_box()
            assert dice is not None and advice is not None and boxes is not None
            assert dice["y"] < advice["y"] < boxes["y"]
            assert advice["y"] - (dice["y"] + dice["height"]) < 400  # right below the dice
            no_sideways_scroll(page, 390)
    finally:
        page.close()


# --- 5. the English pages default to English games --------------------------------------


def test_english_pages_start_on_yahtzee(browser, server, tmp_path) -> None:
    page = fresh(browser, "desktop")
    try:
        page.goto(f"{server}/kniffel?lang=en")
        expect(page.locator("#f-rules")).to_have_value("yahtzee")
        wait_for_new_preview(page, 0)
        text = " ".join(sheet_texts(download(page, "button[data-part=pdf]", tmp_path)))
        assert "Yahtzee" in text and "Kniffel" not in text
        page.goto(f"{server}/kniffel-odds?lang=en")
        expect(page.locator("#f-rules")).to_have_value("yahtzee")
        page.goto(f"{server}/coach?lang=en")
        expect(page.locator("#f-rules")).to_have_value("yahtzee")
        page.goto(f"{server}/coach?lang=de")
        expect(page.locator("#f-rules")).to_have_value("kniffel")
        page.goto(f"{server}/kniffel?lang=de")
        expect(page.locator("#f-rules")).to_have_value("kniffel")
    finally:
        page.close()


# --- 6. menus by their names: levels with their Klasse, no catalog id on a German page -----

IDS = {"mixed", "classic", "plus-minus", "challenge", "einmaleins", "kniffel", "yahtzee"}


def test_menus_say_names_not_ids(browser, server) -> None:
    page = fresh(browser, "desktop")
    try:
        page.goto(f"{server}/?lang=de")
        level = page.locator("#f-level option")
        expect(level).to_have_count(4)
        expect(level.nth(2)).to_have_text("3 – Alle vier Rechenarten (Klasse 3–4)")
        page.select_option("#f-family", "24")
        expect(level.nth(0)).to_contain_text("24 mit vier Würfeln")
        for path in ("/", "/kniffel", "/kniffel-odds", "/koepfchen", "/kribbeln", "/playtest"):
            page.goto(f"{server}{path}?lang=de")
            shown = page.locator("select option").all_inner_texts()
            assert not [o for o in shown if o.strip() in IDS], path
        # the topic refusal: German words, no id or "no … yes"
        page.goto(f"{server}/?lang=de")
        page.select_option("#f-topic", "add-20-carry")
        page.select_option("#f-carry", "no")
        message = page.locator("[data-error-for=carry]")
        expect(message).to_contain_text("„in keiner Aufgabe“")
        expect(message).to_contain_text("Plus bis 20 mit Zehnerübergang")
        assert "add-20-carry" not in (message.text_content() or "")
    finally:
        page.close()


# --- 8. small things: labels follow the key box, alt texts, the dice's values --------------


def test_labels_alt_texts_and_dice(browser, server) -> None:
    page = fresh(browser, "desktop")
    try:
        page.goto(f"{server}/?lang=de")
        wait_for_new_preview(page, 0)
        both = page.locator("button[data-part=both]")
        expect(both).to_have_text("PDF: Blätter und Lösungen")
        page.uncheck("#f-key")
        expect(both).to_have_text("PDF: Blätter (ohne Lösungen)")
        expect(page.locator("button[data-part=sheets]")).to_be_hidden()
        page.check("#f-key")
        expect(page.locator("button[data-part=sheets]")).to_be_visible()
        alt = page.get_attribute("#preview-pages img", "alt") or ""
        assert re.fullmatch(r"Vorschau: Seite 1 von \d+( · .+)?", alt), alt
        page.goto(f"{server}/coach?lang=en")
        die = page.locator("[data-die='1']")
        expect(die).to_have_attribute("aria-label", re.compile(r"^Die 1: 1 "))
        die.click()
        expect(die).to_have_attribute("aria-label", re.compile(r"^Die 1: 2 "))
    finally:
        page.close()


# --- 7. class lists from Excel (.xlsx) ---------------------------------------------------


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_an_excel_class_list(browser, no_js, server, tmp_path, js) -> None:
    from tests.test_worksheet_roster import XLSX_ROWS, xlsx_bytes

    good, broken = tmp_path / "klasse3b.xlsx", tmp_path / "kaputt.xlsx"
    good.write_bytes(xlsx_bytes(XLSX_ROWS))
    broken.write_bytes(good.read_bytes()[:900])
    page = fresh(browser if js else no_js, "phone")
    try:
        page.goto(f"{server}/?lang=de")
        page.set_input_files("#f-roster_file", str(good))
        if not js:
            page.click("button.refresh")
        expect(page.locator("#figures")).to_contain_text("3 mit Namen")
        expect(page.locator("[data-carried]")).to_contain_text("klasse3b.xlsx")
        page.set_input_files("#f-roster_file", str(broken))
        if not js:
            page.click("button.refresh")
        message = page.locator("[data-error-for=roster]")
        expect(message).to_contain_text("„kaputt.xlsx“ lässt sich nicht als Excel-Tabelle")
    finally:
        page.close()
