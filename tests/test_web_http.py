"""The web page over HTTP (Starlette's TestClient): every page, every error path, same bytes
as the CLI, the limits, the pool's 503, and that names never reach a log or the disk."""

from __future__ import annotations

import base64
import io
import logging
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from pypdf import PdfReader
from starlette.testclient import TestClient

from generator.core.resources import catalog_dir
from generator.web.app import Settings, create_app
from generator.web.forms import make_form, parse, to_args
from generator.web.pages import PAGES, Words, catalog_for, field_names
from tests.web_support import NAMES, WORKSHEET

PATHS = ["/", "/kniffel", "/kniffel-odds", "/koepfchen", "/kribbeln", "/coach"]


@pytest.fixture(scope="module")
def client():
    from tests.web_support import warm_tables

    warm_tables()  # the English coach starts on Yahtzee: its table solved before the requests
    with TestClient(create_app(Settings(workers=2))) as c:
        yield c


def cli_error(run_cli: Any, *args: str) -> str:
    """The message the CLI prints after 'error: ' (without the option prefix)."""
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]
    return line.split("error: ", 1)[1]


def pdf_text(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


# --- pages, words, headers ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("path", PATHS)
def test_every_page_answers_in_both_languages(client, path: str, lang: str) -> None:
    response = client.get(f"{path}?lang={lang}")
    assert response.status_code == 200
    html = response.text
    assert f'<html lang="{lang}">' in html
    assert ("Arbeitsblätter" if lang == "de" else "Worksheets") in html
    # the switch to the other language is on every page, for the same path (and its settings)
    assert f'href="{path}?lang=de' in html and f'href="{path}?lang=en' in html
    assert "Traceback" not in html


def test_security_headers_on_every_answer(client) -> None:
    for response in (client.get("/"), client.get("/nope"), client.get("/static/app.js")):
        csp = response.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "'unsafe-inline'" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["cache-control"] == "no-store"


def test_language_from_accept_language(client) -> None:
    assert '<html lang="en">' in client.get("/", headers={"accept-language": "en-GB,en;q=0.9"}).text
    assert '<html lang="de">' in client.get("/", headers={"accept-language": "fr, de;q=0.5"}).text
    assert '<html lang="de">' in client.get("/", headers={"accept-language": "fr"}).text
    # ?lang= wins over the header
    assert '<html lang="de">' in client.get("/?lang=de", headers={"accept-language": "en"}).text


def test_every_field_has_words_in_both_languages() -> None:
    catalog = catalog_for(None)
    for lang in ("de", "en"):
        words = Words(lang)
        for page in PAGES.values():
            for f in page.form(catalog).fields:
                keys = (f"label_{page.id.replace('-', '_')}_{f.name}", f"label_{f.name}")
                assert any(words.has(k) for k in keys), (
                    f"the {page.id} page's field {f.name} has no words: add the macro "
                    f"label_{f.name} to templates/{lang}/web.j2"
                )
    assert "large_print" in field_names(PAGES.values(), catalog)


def test_the_form_follows_the_command() -> None:
    """Every worksheet option is a field, except those naming files; a new option appears."""
    from generator.registry import COMMANDS
    from generator.surface.model import Command, File, Option

    form = PAGES["worksheet"].form(catalog_for(None))
    names = {f.name for f in form.fields}
    options = {o.name for o in COMMANDS["worksheet"].options()}
    # the class list box stands for --roster (and --names: the same list, typed)
    left_out = {"roster", "names", "key_file", "out"}
    left_out |= {"list_topics", "as_json"}  # --topics lists the topics: the menu does that
    assert names == options - left_out
    assert form.field("family").kind == "choice" and "24" in form.field("family").choices
    assert form.field("large_print").kind == "flag"

    grown = Command(
        "grown",
        "A command that grew options.",
        (
            Option(("--class-name",), default=None),
            Option(("--duplex",), is_flag=True),
            Option(("--key/--no-key",), default=True),
            Option(("--out",), File()),
        ),
    )
    grown_form = make_form(grown)
    assert [f.kind for f in grown_form.fields] == ["text", "flag", "switch"]
    params, args = parse(grown_form, {"class_name": "3b", "duplex": "1", "key__shown": "1"})
    assert args == ["--class-name", "3b", "--duplex", "--no-key"]
    assert params == {"class_name": "3b", "duplex": True, "key": False}
    assert to_args(grown_form, {}) == []


# --- previews and downloads -----------------------------------------------------------------


def test_worksheet_preview_is_png_of_the_first_pages(client) -> None:
    data = {**WORKSHEET, "roster_text": "\n".join(NAMES)}
    response = client.post("/api/preview/worksheet?lang=de", data=data)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] and body["page_count"] == 5 * 2 + body["page_count"] - 10
    # the first sheet of each version (five pupils: A B C A B) and the key's first page
    assert [p["number"] for p in body["pages"]] == [1, 3, 5, 11]
    png = base64.b64decode(body["pages"][0]["src"].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert 480 <= width <= 510  # A4 at 60 dpi: 496 px
    assert body["command"].startswith("dicesheets worksheet ")
    assert "--seed 7" in body["command"] and "--roster klassenliste.txt" in body["command"]
    assert "Zoë" not in body["command"]


@pytest.mark.parametrize("part", ["both", "sheets", "key"])
def test_worksheet_download_is_the_cli_pdf_byte_for_byte(
    client, run_cli, tmp_path: Path, part: str
) -> None:
    roster = tmp_path / "klasse.txt"
    roster.write_text("\n".join(NAMES) + "\n", encoding="utf-8")
    args = ["worksheet", "--level", "2", "--versions", "3", "--seed", "7", "--roster", roster]
    if part == "both":
        run_cli(*args, "--out", tmp_path / "ws.pdf")
        expected = (tmp_path / "ws.pdf").read_bytes()
    else:
        run_cli(*args, "--out", tmp_path / "ws.pdf", "--key-file", tmp_path / "key.pdf")
        expected = (tmp_path / ("ws.pdf" if part == "sheets" else "key.pdf")).read_bytes()
    data = {**WORKSHEET, "roster_text": "\n".join(NAMES), "part": part}
    response = client.post("/download/worksheet?lang=de", data=data)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.content == expected
    texts = pdf_text(response.content)
    if part != "key":
        assert len(texts) == 10 + (len(texts) - 10 if part == "both" else 0)
        for name, page in zip(NAMES, texts[::2]):
            assert name in page
    if part != "sheets":
        assert "Lösungen" in texts[-1] or "Lösungen" in " ".join(texts)


def test_uploaded_class_list_gives_the_same_pdf(client, run_cli, tmp_path: Path) -> None:
    raw = ("\ufeff" + "\r\n".join(NAMES)).encode("utf-8")
    (tmp_path / "liste.txt").write_bytes(raw)
    run_cli("worksheet", "--level", "2", "--versions", "3", "--seed", "7",
            "--roster", tmp_path / "liste.txt", "--out", tmp_path / "ws.pdf")  # fmt: skip
    files = {"roster_file": ("liste.txt", raw, "text/plain")}
    response = client.post("/download/worksheet", data={**WORKSHEET, "part": "both"}, files=files)
    assert response.status_code == 200
    assert response.content == (tmp_path / "ws.pdf").read_bytes()


def test_an_excel_class_list_with_large_print_gives_the_cli_pdf(
    client, run_cli, tmp_path: Path
) -> None:
    """A CSV as Excel saves it (Windows-1252, ';', a header, a Großdruck column) plus one
    pupil named for large print in the form: the same PDF as the CLI, large print where asked."""
    table = "Vorname;Nachname;Klasse;Großdruck\r\nZoë;Åberg;3b;\r\nÖmer;Demir;3b;x\r\n"
    table += "Jörg;Weiß;3b;\r\nAnna;Groß;3b;\r\n"
    raw = table.encode("cp1252")
    (tmp_path / "klasse.csv").write_bytes(raw)
    result = run_cli("worksheet", "--level", "2", "--versions", "3", "--seed", "7",
                     "--roster", tmp_path / "klasse.csv", "--large-print-for", "Anna",
                     "--out", tmp_path / "ws.pdf")  # fmt: skip
    assert result.exit_code == 0, result.output
    files = {"roster_file": ("klasse.csv", raw, "text/csv")}
    data = {**WORKSHEET, "large_print_for": "Anna", "part": "both"}
    response = client.post("/download/worksheet?lang=de", data=data, files=files)
    assert response.status_code == 200, response.text[:400]
    assert response.content == (tmp_path / "ws.pdf").read_bytes()
    texts = pdf_text(response.content)
    assert any("Ömer Demir" in t for t in texts) and any("Anna Groß" in t for t in texts)
    preview = client.post("/api/preview/worksheet?lang=de", data=data, files=files).json()
    assert preview["ok"] and "4 mit Namen" in preview["figures_html"]


def test_other_products_match_the_cli(client, run_cli, tmp_path: Path) -> None:
    cases = [
        ("kniffel", {"rules": "kniffel", "games": "3", "names": "Zoë,Łukasz", "copies": "1",
                     "per_page": "auto", "paper": "a4"},
         ["kniffel", "block", "--games", "3", "--names", "Zoë,Łukasz"]),
        ("koepfchen", {"profile": "einmaleins", "seed": "3", "lang": "en", "paper": "a4",
                       "key": "1", "rules": "1", "key__shown": "1", "rules__shown": "1"},
         ["koepfchen", "board", "--profile", "einmaleins", "--seed", "3", "--lang", "en"]),
        ("kribbeln", {"pages": "2", "seed": "2", "names": "Ömer,Søren", "lang": "de",
                      "paper": "a4", "rules__shown": "1", "key__shown": "1", "key": "1"},
         ["kribbeln", "block", "--pages", "2", "--seed", "2", "--names", "Ömer,Søren",
          "--no-rules"]),
    ]  # fmt: skip
    for page, data, args in cases:
        out = tmp_path / f"{page}.pdf"
        result = run_cli(*args, "--out", out)
        assert result.exit_code == 0, result.output
        response = client.post(f"/download/{page}", data={**data, "part": "pdf"})
        assert response.status_code == 200, (page, response.text[:500])
        assert response.content == out.read_bytes(), page


def test_submit_without_javascript_shows_the_preview_and_new_seed(client) -> None:
    response = client.post("/?lang=en", data={**WORKSHEET, "action": "preview"})
    assert response.status_code == 200
    # versions A, B, C and the key's first page
    assert response.text.count('src="data:image/png;base64,') == 4
    assert "dicesheets worksheet" in response.text
    reseeded = client.post("/?lang=en", data={**WORKSHEET, "action": "reseed"})
    seed = re.search(r'name="seed" value="(\d+)"', reseeded.text)
    assert seed is not None and 1 <= int(seed.group(1)) <= 999_999


# --- errors: the CLI's message, beside the field, 4xx --------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "cli_args"),
    [
        ("level", "9", ["worksheet", "--level", "9"]),
        ("level", "abc", ["worksheet", "--level", "abc"]),
        ("versions", "30", ["worksheet", "--versions", "30"]),
        ("problems", "500", ["worksheet", "--problems", "500"]),
        ("impossible", "25", ["worksheet", "--impossible", "25"]),
    ],
)
def test_worksheet_errors_are_the_cli_messages(
    client, run_cli, field: str, value: str, cli_args: list[str]
) -> None:
    expected = cli_error(run_cli, *cli_args, "--out", "x.pdf")
    response = client.post("/api/preview/worksheet?lang=en", data={**WORKSHEET, field: value})
    assert response.status_code == 400
    message = response.json()["errors"][field]
    assert expected.endswith(message)
    # the same without JavaScript: the message sits in the field's own error line
    page = client.post(
        "/download/worksheet?lang=en", data={**WORKSHEET, field: value, "part": "both"}
    )
    assert page.status_code == 400
    assert re.search(rf'data-error-for="{field}" role="alert">[^<]*{re.escape(_html(message))}',
                     page.text)  # fmt: skip


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;")


def test_class_list_errors(client) -> None:
    bad = client.post(
        "/api/preview/worksheet?lang=en", data={**WORKSHEET, "roster_text": "Anna\nB\x07n"}
    )
    assert bad.status_code == 400
    assert "control character" in bad.json()["errors"]["roster"]
    # not UTF-8, and 0x81 is no Windows-1252 character either
    files = {"roster_file": ("liste.txt", "Zoë".encode("latin-1") * 3 + b"\x81", "text/plain")}
    latin = client.post("/api/preview/worksheet?lang=en", data=WORKSHEET, files=files)
    assert latin.status_code == 400
    assert latin.json()["errors"]["roster"].startswith("liste.txt")


def test_nothing_from_the_browser_is_a_path(client) -> None:
    for page, field in [("koepfchen", "profile"), ("kniffel", "rules"), ("worksheet", "spec"),
                        ("worksheet", "family")]:  # fmt: skip
        response = client.post(f"/api/preview/{page}?lang=en", data={field: "/etc/passwd"})
        assert response.status_code == 400
        assert "'/etc/passwd' is not " in response.json()["errors"][field]
    # file options of the CLI are not on the form, so they are ignored, not opened
    response = client.post("/api/preview/kribbeln", data={"tasks_file": "/etc/passwd", "seed": "1"})
    assert response.status_code == 200


def test_error_paths_are_4xx_never_500(client) -> None:
    assert client.get("/nope").status_code == 404
    assert client.post("/api/preview/nope", data={}).status_code == 404
    assert client.get("/api/preview/worksheet").status_code == 405
    assert client.post("/download/worksheet", data={**WORKSHEET, "part": "x"}).status_code == 400
    too_big = client.post("/api/preview/worksheet", data={"roster_text": "x" * 600_000})
    assert too_big.status_code == 413
    many = client.post("/api/preview/worksheet", data={f"f{i}": "1" for i in range(300)})
    assert many.status_code == 400
    broken = client.post(
        "/api/preview/worksheet", content=b"--x\r\nbroken",
        headers={"content-type": "multipart/form-data; boundary=x"},
    )  # fmt: skip
    assert broken.status_code < 500  # read as an empty form, or refused
    assert client.get("/playtest").status_code == 404  # no --catalog


def test_errors_in_the_page_language(client) -> None:
    response = client.post("/download/worksheet?lang=en", data={**WORKSHEET, "level": "9"})
    assert '<html lang="en">' in response.text and ">Level</label>" in response.text
    response = client.post("/download/worksheet?lang=de", data={**WORKSHEET, "level": "9"})
    assert '<html lang="de">' in response.text and ">Stufe</label>" in response.text
    assert "Eine Stufe 9 gibt es hier nicht (möglich: 1, 2, 3, 4)." in response.text
    german = {
        ("worksheet", "versions", "30"): "Erwartet 1–26 Gruppen, nicht 30.",
        ("worksheet", "level", "x"): "„x“ ist keine ganze Zahl.",
        ("worksheet", "impossible", "25"): "25 nicht lösbare Aufgaben, aber nur 20 Aufgaben",
        ("worksheet", "paper", "b5"): "„b5“ steht nicht zur Wahl",
        ("kniffel", "games", "9"): "Erwartet 1–6 Spiele je Block, nicht 9.",
        ("kniffel", "names", "a,,b"): "Name 2 ist leer",
        ("kribbeln", "players", "9"): "Erwartet 2–8 Spieler, nicht 9.",
        ("kniffel-odds", "games", "5"): "Erwartet 100–1000000 simulierte Spiele, nicht 5.",
    }
    for (page, field, value), text in german.items():
        base = WORKSHEET if page == "worksheet" else {}
        answer = client.post(f"/api/preview/{page}?lang=de", data={**base, field: value})
        assert answer.status_code == 400
        assert answer.json()["errors"][field].startswith(text), (field, answer.json())
    roster = client.post(
        "/api/preview/worksheet?lang=de", data={**WORKSHEET, "roster_text": "Anna\nB\x07n"}
    )
    assert roster.json()["errors"]["roster"] == (
        "Klassenliste, Zeile 2: Der Name enthält ein Steuerzeichen."
    )


# --- the pool: 503 when full, a time limit per build ---------------------------------------


def test_full_pool_answers_503_with_retry_after(client) -> None:
    pool = client.app.state.pool
    saved = pool.admitted
    pool.admitted = pool.capacity
    try:
        response = client.post("/api/preview/worksheet", data={**WORKSHEET, "seed": "99"})
        page = client.post("/download/worksheet", data={**WORKSHEET, "seed": "99", "part": "key"})
    finally:
        pool.admitted = saved
    assert response.status_code == 503 and response.json()["busy"]
    assert int(response.headers["retry-after"]) >= 1
    assert page.status_code == 503 and "Retry-After" in page.headers


def test_a_build_past_the_time_limit_is_stopped(monkeypatch) -> None:
    with TestClient(create_app(Settings(workers=1, time_limit=0.05))) as slow:
        pool = slow.app.state.pool
        original = pool.run

        async def endless(fn, *args):
            # a build that never ends by itself: past the limit on any machine, however fast
            return await original(time.sleep, 3600)

        monkeypatch.setattr(pool, "run", endless)
        response = slow.post("/api/preview/kribbeln", data={"pages": "6", "seed": "5"})
        assert response.status_code == 503
        assert "0 s" in response.json()["message"] or "s" in response.json()["message"]
        # the worker is free again afterwards
        assert slow.app.state.pool.admitted == 0
        workers = list(slow.app.state.pool._executor._processes.values())
    # and the workers end with the server (they are the fork server's children, not ours)
    assert workers and all(not w.is_alive() for w in workers)


def test_identical_requests_come_from_the_cache(client, monkeypatch) -> None:
    pool = client.app.state.pool
    calls = []
    original = pool.run

    async def counting(fn, *args):
        calls.append(args)
        return await original(fn, *args)

    monkeypatch.setattr(pool, "run", counting)
    data = {**WORKSHEET, "seed": "4242"}
    first = client.post("/api/preview/worksheet", data=data).json()
    second = client.post("/api/preview/worksheet", data=data).json()
    assert first == second and len(calls) == 1
    named = {**data, "roster_text": "Zoë\nÖmer"}
    client.post("/api/preview/worksheet", data=named)
    client.post("/api/preview/worksheet", data=named)
    assert len(calls) == 2  # the same names: kept beside the answer (never in the key)
    client.post("/api/preview/worksheet", data={**named, "roster_text": "Zoë\nÖmer\nMia"})
    assert len(calls) == 3  # other names: built


# --- privacy ----------------------------------------------------------------------------------


def test_names_never_reach_the_log_or_the_disk(client, caplog, tmp_path_factory) -> None:
    import tempfile
    import time

    started = time.time()
    caplog.set_level(logging.DEBUG)
    secret = "Xaverine Quappendorf"
    data = {**WORKSHEET, "roster_text": f"{secret}\nZoë", "part": "both"}
    assert client.post("/api/preview/worksheet", data=data).status_code == 200
    response = client.post("/download/worksheet", data=data)
    assert secret in pdf_text(response.content)[0]
    blocks = client.post("/download/kniffel", data={"names": secret, "rules": "kniffel"})
    assert blocks.status_code == 200
    assert secret not in caplog.text and "Xaverine" not in caplog.text
    assert "POST /download/worksheet 200" in caplog.text  # the log is there, without names
    needle = [secret.encode(), secret.encode("utf-16-le")]
    roots = [Path(tempfile.gettempdir()), Path.cwd(), tmp_path_factory.getbasetemp()]
    for root in roots:
        for path in _recent_files(root, started):
            try:
                data_bytes = path.read_bytes()
            except OSError:  # another process's temporary file, gone again
                continue
            assert not any(n in data_bytes for n in needle), path


def _recent_files(root: Path, since: float, depth: int = 3) -> list[Path]:
    found = []
    try:
        entries = list(root.iterdir())
    except OSError:
        return found
    for path in entries:
        try:
            if path.is_symlink():
                continue
            if path.is_file() and path.stat().st_mtime >= since and path.stat().st_size < 5e7:
                found.append(path)
            elif path.is_dir() and depth > 0 and path.name not in (".git", ".venv"):
                found += _recent_files(path, since, depth - 1)
        except OSError:
            continue
    return found


def test_a_named_build_opens_no_file_for_writing(monkeypatch) -> None:
    """In memory from end to end: the worker's build writes nothing (the cache aside)."""
    import builtins
    import os

    from generator.web.products import Job, run_job

    cache = os.environ["DICESHEETS_CACHE"]
    run_job(Job("worksheet", _params(), "pdf"))  # warm: the level's pool may be cached now
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def watch_open(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+") and not str(file).startswith(cache):
            opened.append(str(file))
        return real_open(file, mode, *args, **kwargs)

    def watch_os_open(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and not str(path).startswith(cache):
            opened.append(str(path))
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watch_open)
    monkeypatch.setattr(os, "open", watch_os_open)
    for action in ("preview", "pdf", "key"):
        result = run_job(Job("worksheet", _params(), action, roster="Zoë\nÖmer".encode()))
        assert result.error is None
    assert opened == []


def _params() -> dict[str, Any]:
    return {"family": "koepfchen", "level": 2, "problems": 20, "impossible": 0, "versions": 3,
            "seed": 7, "title": None, "lang": "de", "paper": "a4", "large_print": False,
            "spec": None}  # fmt: skip


# --- the coach ----------------------------------------------------------------------------------


def test_coach_matches_kniffel_advise(client, run_cli) -> None:
    import json

    cli = run_cli("kniffel", "advise", "--filled", "Einser=3,Kniffel=0", "--roll", "13346",
                  "--rolls-left", "2", "--json")  # fmt: skip
    expected = json.loads(cli.output)
    form = {"rules": "kniffel", "ones": "3", "kniffel": "0", "rolls_left": "2",
            **{f"die{i}": d for i, d in enumerate("13346", start=1)}}  # fmt: skip
    response = client.post("/api/coach?lang=en", data=form)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["advice"] == expected
    assert body["html"].count("<tr") == len(expected["options"]) + 1
    assert "best" in body["html"]
    # no roll left: the boxes, best first
    last = client.post("/api/coach", data={**form, "rolls_left": "0"}).json()["advice"]
    assert "box" in last["options"][0] and last["rolls_left"] == 0


def test_coach_errors_are_the_cli_messages(client, run_cli) -> None:
    expected = cli_error(run_cli, "kniffel", "advise", "--filled", "Einser=6", "--roll", "13346")
    form = {"rules": "kniffel", "ones": "6", "rolls_left": "2",
            **{f"die{i}": d for i, d in enumerate("13346", start=1)}}  # fmt: skip
    response = client.post("/api/coach?lang=en", data=form)
    assert response.status_code == 400
    assert expected.endswith(response.json()["errors"]["filled"])
    bad_die = client.post("/api/coach?lang=en", data={**form, "ones": "", "die3": "7"})
    assert bad_die.status_code == 400 and "found '7'" in bad_die.json()["errors"]["roll"]
    page = client.post("/coach?lang=de", data=form)
    assert page.status_code == 400 and "6 Punkte kann „Einser“ nicht haben." in page.text


# --- playtesters ------------------------------------------------------------------------------


def _next_stamp(client: TestClient, stamp: Any, cap: float = 120.0) -> Any:
    """The playtest state's stamp once it differs from `stamp` (the watcher polls; the cap is
    for a busy machine, not a speed the test expects)."""
    import time

    deadline = time.monotonic() + cap
    while (now := client.get("/api/playtest/state").json()["stamp"]) == stamp:
        assert time.monotonic() < deadline, "the playtest state never changed"
        time.sleep(0.05)
    return now


def test_playtest_page_shows_problems_and_follows_changes(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    (folder / "koepfchen").mkdir(parents=True)
    shutil.copy(catalog_dir() / "koepfchen" / "plus-minus.yaml", folder / "koepfchen")
    with TestClient(create_app(Settings(workers=1, catalog=folder))) as c:
        page = c.get("/playtest?lang=en")
        # the page comes at once, without validate's findings (its script asks for them) …
        assert (
            page.status_code == 200 and "problems" not in page.text.split('id="problems"')[1][:20]
        )
        assert "check=1" in page.text and "Check the catalog now" in page.text
        # … and without JavaScript the link puts them in the page
        assert "0 problems" in c.get("/playtest?lang=en&check=1").text
        assert "0 problems" in c.get("/api/playtest/report?lang=en").json()["html"]
        stamp = c.get("/api/playtest/state").json()["stamp"]
        (folder / "koepfchen" / "broken.yaml").write_text("length: [1,\n", encoding="utf-8")
        stamp = _next_stamp(c, stamp)  # the watcher saw the new file
        report = c.get("/api/playtest/report?lang=en").json()["html"]
        assert re.search(r"broken\.yaml:\d+:\d+", report), report
        assert "Playtest" in c.get("/?lang=en").text  # in the navigation with --catalog
        # a profile added to the catalog is a choice at once
        (folder / "koepfchen" / "broken.yaml").unlink()
        shutil.copy(folder / "koepfchen" / "plus-minus.yaml", folder / "koepfchen" / "mine.yaml")
        _next_stamp(c, stamp)
        board = c.post("/api/preview/koepfchen?lang=en", data={"profile": "mine", "seed": "2"})
        assert board.status_code == 200, board.text
        # one seed and one file name for the session: the page names both
        assert 'id="preview-session"' in page.text
        assert "Kept for every new preview" in page.text
        again = c.post("/api/preview/koepfchen?lang=en", data={"profile": "mine", "seed": "2"})
        assert board.json()["seed"] == again.json()["seed"] == 2
        assert board.json()["filename"] == again.json()["filename"]
        assert board.json()["filename"].endswith(".pdf")


# --- the command --------------------------------------------------------------------------------


def test_serve_warns_off_loopback_and_passes_the_settings(run_cli, monkeypatch) -> None:
    from generator.web import server

    seen: dict[str, Any] = {}

    def run(app: Any, sock: Any, header_timeout: float) -> None:
        seen.update(app=app, address=sock.getsockname())
        sock.close()

    monkeypatch.setattr(server, "run", run)
    result = run_cli("serve", "--host", "0.0.0.0", "--port", "8123")
    assert result.exit_code == 0, result.output
    assert "warning: listening on 0.0.0.0" in result.output
    assert seen["address"] == ("0.0.0.0", 8123)
    quiet = run_cli("serve", "--port", "8124")
    assert "warning" not in quiet.output and "http://127.0.0.1:8124/" in quiet.output


# --- the topics of Klasse 1–4 ------------------------------------------------------------------


def test_a_topic_download_is_the_cli_pdf_byte_for_byte(client, run_cli, tmp_path: Path) -> None:
    args = ["worksheet", "--topic", "add-100", "--carry", "no", "--range", "20-80",
            "--versions", "2", "--seed", "7"]  # fmt: skip
    result = run_cli(*args, "--out", tmp_path / "ws.pdf")
    assert result.exit_code == 0, result.output
    data = {**WORKSHEET, "topic": "add-100", "carry": "no", "number_range": "20-80",
            "versions": "2", "part": "both"}  # fmt: skip
    response = client.post("/download/worksheet?lang=de", data=data)
    assert response.status_code == 200, response.text[:400]
    assert response.content == (tmp_path / "ws.pdf").read_bytes()


def test_the_topic_menu_groups_the_topics_by_klasse(client) -> None:
    page = client.get("/worksheet?lang=de").text
    groups = re.findall(r'<optgroup label="(Klasse \d)">', page)
    assert groups == ["Klasse 1", "Klasse 2", "Klasse 3", "Klasse 4"]
    assert '<option value="number-wall-3">Rechenmauer (3 Reihen)</option>' in page


def test_an_impossible_topic_combination_sits_beside_its_field(client, run_cli) -> None:
    expected = cli_error(run_cli, "worksheet", "--topic", "add-20-carry", "--carry", "no",
                         "--out", "x.pdf")  # fmt: skip
    data = {**WORKSHEET, "topic": "add-20-carry", "carry": "no"}
    response = client.post("/api/preview/worksheet?lang=en", data=data)
    assert response.status_code == 400
    message = response.json()["errors"]["carry"]
    assert expected.endswith(message) and "0 problems exist" in message


def test_the_coach_reads_a_rule_set_again_once_its_file_changed(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the worker keeps each parsed rule set by its file's size and modification time
    import os

    from generator.io.catalog import Catalog
    from generator.web import products

    folder = tmp_path / "catalog" / "kniffel"
    folder.mkdir(parents=True)
    shipped = Catalog.default().path("kniffel/kniffel.yaml")
    assert shipped is not None
    own = folder / "kniffel.yaml"
    own.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(products, "_CATALOG", Catalog.default(tmp_path / "catalog"))
    first = products.rules_for("kniffel")
    assert products.rules_for("kniffel") is first  # unchanged: the same object
    text = own.read_text(encoding="utf-8")
    own.write_text(text.replace("value: 35}", "value: 36}"), encoding="utf-8")
    os.utime(own, ns=(1, 1))  # (a new stamp even within the clock's resolution)
    again = products.rules_for("kniffel")
    assert again is not first and again.bonus_value == 36


# --- what a page can build within its time limit ---------------------------------------------


def test_the_odds_page_takes_only_as_many_games_as_it_builds_in_time(client) -> None:
    """A million games take ~45 s, past the page's 30 s: the page refuses them beside the
    field (the command line still takes them) instead of timing out."""
    for lang, words in (("de", "höchstens 200.000"), ("en", "at most 200,000")):
        body = client.post(f"/api/preview/kniffel-odds?lang={lang}", data={"games": "1000000"})
        assert body.status_code == 400
        assert words in body.json()["errors"]["games"], body.json()
    page = client.get("/kniffel-odds?lang=de").text
    assert "200.000" in page and "1.000.000" in page  # the field's hint says both


def test_a_time_out_says_so_and_never_all_busy(monkeypatch) -> None:
    with TestClient(create_app(Settings(workers=1, time_limit=0.05))) as slow:
        pool = slow.app.state.pool
        original = pool.run

        async def endless(fn, *args):
            # past the limit on any machine, however fast its builds are
            return await original(time.sleep, 3600)

        monkeypatch.setattr(pool, "run", endless)
        for lang, words, busy in (("de", "zu lange", "belegt"), ("en", "too long", "busy")):
            body = slow.post(f"/api/preview/kribbeln?lang={lang}", data={"seed": "5"}).json()
            assert words in body["message"] and busy not in body["message"], body
