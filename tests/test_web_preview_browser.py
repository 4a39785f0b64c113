"""The preview in Chromium, with and without JavaScript, at desktop and phone size: the pages
it shows, the pager through every page, the odds card's range, the playtest page's order."""

# ruff: noqa: F811  (the browser fixtures are imported from test_web_browser, then requested)
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.test_web_browser import (  # noqa: F401  (the fixtures, shared with that module)
    SIZES,
    WAIT,
    Page,
    browser,
    catalog,
    expect,
    no_js_browser,
    page,
    playwright,
    preview_version,
    server,
    wait_for_new_preview,
)
from tests.web_support import NAMES

CLASS = [*NAMES, "Mia", "Ben", "Emma"]  # 8 pupils: A B C A B C A B


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go (DICESHEETS_SCREENSHOTS=DIR keeps them for a look)."""
    folder = Path(os.environ.get("DICESHEETS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fits(page: Page, width: int) -> None:
    # after a form post the new document is there before its stylesheet: measure once it applies
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sideways


@pytest.mark.parametrize("size", SIZES)
def test_the_preview_shows_each_version_large_print_and_key_and_pages_on(
    page: Page, server: str, size: str, shots: Path
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{server}/?lang=de")
    wait_for_new_preview(page, 0)
    before = preview_version(page)
    page.fill("#f-versions", "3")
    page.fill("#f-seed", "12")
    page.fill("#f-roster_text", "\n".join(CLASS))
    page.fill("#f-large_print_for", "Ömer")
    page.wait_for_function(
        "() => document.querySelector('#figures').textContent.includes('Großdruck')"
    )
    wait_for_new_preview(page, before)
    captions = page.locator("#preview-pages figcaption")
    expect(captions).to_have_count(5)  # A, B, C, Ömer's large print, the key
    texts = captions.all_inner_texts()
    assert texts[0].endswith("· Gruppe A") and texts[-1].endswith("· Lösungen")
    assert any("Großdruck, Gruppe C" in t for t in texts)
    alts = page.locator("#preview-pages img").evaluate_all("els => els.map(e => e.alt)")
    assert all(a.startswith("Vorschau: Seite ") for a in alts)  # not "1", "2"
    expect(page.locator("#figures")).to_contain_text("8 Blätter")
    expect(page.locator("#figures")).to_contain_text("Davon 1 in Großdruck")
    count = int(page.get_attribute("#pager", "data-count") or 0)
    assert count > 8
    # the pager: the next page, then one typed in, each built on demand
    page.click("#pager [data-step='1']")
    expect(page.locator("#page-view figcaption")).to_have_text(f"Seite 2 von {count} · Gruppe A")
    page.fill("#f-preview-page", str(count))
    page.press("#f-preview-page", "Enter")
    expect(page.locator("#page-view figcaption")).to_contain_text(f"Seite {count} von {count}")
    expect(page.locator("#pager [data-step='1']")).to_be_disabled()
    # a thumbnail opens its page
    page.locator("#preview-pages figure").nth(1).click()
    expect(page.locator("#page-view figcaption")).to_contain_text("· Gruppe B")
    expect(page.locator("#f-preview-page")).to_have_value(
        page.locator("#preview-pages figure").nth(1).get_attribute("data-number") or ""
    )
    # a change of the form renews the page shown as well as the overview
    shown = page.get_attribute("#page-view img", "src")
    page.fill("#f-seed", "13")
    page.wait_for_function(
        "(old) => document.querySelector('#page-view img') && "
        "document.querySelector('#page-view img').src !== old",
        arg=shown,
    )
    fits(page, SIZES[size]["width"])
    page.screenshot(path=str(shots / f"preview-pager-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_without_javascript_the_preview_and_the_pager_are_the_page(
    no_js_browser, server: str, size: str, shots: Path
) -> None:
    page = no_js_browser.new_page()
    page.set_default_timeout(WAIT)
    page.set_viewport_size(SIZES[size])
    try:
        page.goto(f"{server}/?lang=de")
        page.fill("#f-versions", "3")
        page.fill("#f-seed", "12")
        page.fill("#f-roster_text", "\n".join(CLASS))
        page.fill("#f-large_print_for", "Ömer")
        page.click("button.refresh")  # the form posts; the page comes back with the preview
        expect(page.locator("#preview-pages figure")).to_have_count(5)
        expect(page.locator("#figures")).to_contain_text("Davon 1 in Großdruck")
        # the pager (on a set without names: whether a class list survives a round trip
        # without JavaScript is the form's own test)
        page.goto(f"{server}/?lang=de")
        page.fill("#f-versions", "3")
        page.click("button.refresh")
        expect(page.locator("#preview-pages figure")).to_have_count(4)
        page.click("#pager [data-step='1']")  # a submit button: the page with page 2
        expect(page.locator("#page-view figcaption")).to_contain_text("Seite 2 von")
        expect(page.locator("#f-preview-page")).to_have_value("2")
        fits(page, SIZES[size]["width"])
        page.screenshot(path=str(shots / f"preview-nojs-{size}.png"), full_page=True)
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_odds_card_refuses_games_it_cannot_build_in_time(
    page: Page, server: str, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(f"{server}/kniffel-odds?lang=de")
    expect(page.locator("[data-field=games] .hint")).to_contain_text("200.000")
    page.fill("#f-games", "1000000")
    message = page.locator("[data-error-for=games]")
    expect(message).to_contain_text("höchstens 200.000")
    expect(page.locator("#preview-status")).not_to_contain_text("belegt")
    fits(page, SIZES[size]["width"])


def test_the_playtest_page_shows_the_preview_first_and_findings_whole(
    page: Page, server: str, catalog: Path, shots: Path
) -> None:
    """The findings come after the preview and wrap: a long file:line:column stays readable."""
    page.set_viewport_size(SIZES["phone"])
    broken = catalog / "koepfchen" / ("a-profile-with-a-long-name-" * 3 + "x.yaml")
    broken.write_text("length: [1,\n", encoding="utf-8")
    try:
        page.goto(f"{server}/playtest?lang=en")
        # the page came without waiting for validate: its findings are asked for by the script
        expect(page.locator("#preview-pages img").first).to_be_visible()
        problem = page.locator("#problems .problem code").first
        expect(problem).to_contain_text(f"{broken.name}:", timeout=WAIT)
        box = problem.evaluate(
            "e => [e.scrollWidth, e.clientWidth, e.getBoundingClientRect().right]"
        )
        assert box[0] <= box[1] + 1 and box[2] <= SIZES["phone"]["width"], box  # wrapped, whole
        page.screenshot(path=str(shots / "playtest-phone.png"), full_page=True)
    finally:
        broken.unlink()
        time.sleep(0.6)  # (the watcher sees the catalog as it was before the next test)


# --- a class list's "Stufe" column: each pupil a sheet of their level --------------------

LEVELS_TABLE = "Vorname\tStufe\nZoë\t\nŁukasz\t3\nÖmer\t1\nMia\t\nBen\t3\n"
LEVELS_SAID = "Nach Stufen: Stufe 1: 1 Kind (Gruppe A); Stufe 2: 2 Kinder (Gruppen B, C)"
BAD_LEVEL = {"de": "Klassenliste, Zeile 3: Stufe „drei“ (erwartet eine Stufe wie 1, 2, 3 oder 4",
             "en": "class list:3: level 'drei' (expected a level such as 1, 2, 3 or 4"}  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_pasted_level_column_gives_sheets_of_each_level(
    browser, no_js_browser, server: str, size: str, js: bool, shots: Path
) -> None:
    page = (browser if js else no_js_browser).new_page()
    page.set_default_timeout(WAIT)
    page.set_viewport_size(SIZES[size])
    try:
        page.goto(f"{server}/?lang=de")
        page.fill("#f-versions", "2")
        page.fill("#f-roster_text", LEVELS_TABLE)
        if not js:
            page.click("button.refresh")
        expect(page.locator("#figures")).to_contain_text(LEVELS_SAID)
        # A (level 1), B and C (level 2), D and E (level 3), the key
        expect(page.locator("#preview-pages figure")).to_have_count(6)
        expect(page.locator("#f-roster_text")).to_have_value(LEVELS_TABLE)
        fits(page, SIZES[size]["width"])
        page.screenshot(path=str(shots / f"levels-{'js' if js else 'nojs'}-{size}.png"))
        for lang in ("de", "en"):
            page.goto(f"{server}/?lang={lang}")
            page.fill("#f-roster_text", LEVELS_TABLE.replace("\t3\n", "\tdrei\n", 1))
            if not js:
                page.click("button.refresh")
            expect(page.locator("#err-roster")).to_be_visible()
            expect(page.locator("#err-roster")).to_contain_text(BAD_LEVEL[lang])
        page.locator("#err-roster").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"levels-bad-{'js' if js else 'nojs'}-{size}.png"))
    finally:
        page.close()
