"""The Kribbeln page's sheets field: the range the product can build, errors at the field in
the page's language (never the balance file's developer message)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from generator import registry
from generator.io.catalog import Catalog
from generator.kribbeln.build import Unbalanced, sample_block_of
from generator.kribbeln.load import load_block
from generator.web.app import Settings, create_app

MOST = registry.KRIBBELN_WEB_PAGES


def said(lang: str, pages: str) -> str:
    if lang == "de":
        return (
            f"Auf dieser Seite höchstens {MOST} Blätter, nicht {pages}: mehr ausgewogene "
            "Blätter geben die Aufgaben nicht her."
        )
    return (
        f"at most {MOST} sheets on this page, found {pages}: the tasks give no more balanced sheets"
    )


CANNOT = {
    "de": "Aus diesen Aufgaben lässt sich kein ausgewogener Block aus 3 Blättern bilden; "
    "bitte weniger Blätter wählen.",
    "en": "these tasks make no balanced block of 3 sheets; choose fewer sheets",
}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=1))) as c:
        yield c


def test_the_page_limit_is_what_the_shipped_tasks_can_balance() -> None:
    """MOST sheets are found, one more is not (else the page's limit is wrong: change it)."""
    inputs = load_block(catalog=Catalog.default())
    assert len(sample_block_of(inputs, MOST, 1).sheets) == MOST
    with pytest.raises(Unbalanced) as found:
        sample_block_of(inputs, MOST + 1, 1)
    assert found.value.pages == MOST + 1
    assert found.value.file == "task_catalog/kribbeln/balance.yaml"  # the CLI's message stays


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("pages", ["7", "100"])
def test_more_sheets_than_the_tasks_balance_is_said_at_the_field(
    client, lang: str, pages: str
) -> None:
    answer = client.post(f"/api/preview/kribbeln?lang={lang}", data={"pages": pages, "seed": "1"})
    assert answer.status_code == 400
    body = answer.json()
    assert body["general"] == []
    assert body["errors"] == {"pages": said(lang, pages)}
    assert "yaml" not in body["errors"]["pages"]
    # the page without JavaScript: the same words beside the field
    page = client.post(f"/kribbeln?lang={lang}", data={"pages": pages, "seed": "1"})
    assert page.status_code == 400
    assert 'data-error-for="pages" role="alert">' + said(lang, pages) in page.text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_served_catalog_that_balances_fewer_says_so_at_the_field(
    tmp_path: Path, lang: str
) -> None:
    folder = tmp_path / "mine" / "kribbeln"
    folder.mkdir(parents=True)
    # only the easiest tasks: too few for three sheets of six different tasks
    (folder / "balance.yaml").write_text("p_min: 0.93\np_max: 0.95\n", encoding="utf-8")
    with TestClient(create_app(Settings(catalog=tmp_path / "mine", workers=1))) as served:
        answer = served.post(f"/api/preview/kribbeln?lang={lang}", data={"pages": "3", "seed": "1"})
    assert answer.status_code == 400
    assert answer.json() == {"ok": False, "errors": {"pages": CANNOT[lang]}, "general": []}


def test_six_sheets_still_build(client) -> None:
    answer = client.post("/api/preview/kribbeln?lang=de", data={"pages": str(MOST), "seed": "1"})
    assert answer.status_code == 200 and answer.json()["ok"]
