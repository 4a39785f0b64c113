"""Seeded fuzzing of the web page (issue 25): every field of every form, posted to every page.

Requests: a random page and endpoint (the form, the preview, the download, the coach,
the playtest page), a random handful of fields drawn from every form's fields, the
class-list fields and unknown names, with values from the CLI fuzzer's pools (hostile
texts, invisible format characters, non-ASCII digits), as a plain form or multipart
with a mutated class list, sent by a few clients at once to one live server as
`dicesheets serve` runs it (real uvicorn, the guarded h11 protocol). Each answer must be
below 500 (a 503 of a busy pool is fine), and no request may log an error. Clients that
misbehave on the socket — leave mid-head or mid-body, trickle their head or their body,
stop mid-body, send junk — are run many at once against the same server (head and body
timeouts of 1 s): each connection ends (a slow body with 408), the server keeps
answering, nothing is logged as an error or a 500. Every case is tried and each one
that fell short is listed. The default run is a sample; `pytest -m stress` runs
FUZZ_REQUESTS requests (default 3,000) and FUZZ_CLIENTS clients (default 700).
"""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

import httpx

from generator.io.catalog import Catalog
from generator.web.app import Settings, create_app
from generator.web.pages import PAGES
from tests.fuzzgen import BY_NAME, FORMAT_CHARS, INTS, TEXTS, mutated
from tests.fuzzpool import Outcome, jobs, seed, setting
from tests.web_support import NAMES, WORKSHEET, live_server

# every field any form has, the page's own fields, and names no form has
FIELDS = sorted(
    {f.name for page in PAGES.values() for f in page.form(Catalog.default()).fields}
    | {f"{f.name}__shown" for page in PAGES.values() for f in page.form(Catalog.default()).fields}
    | {"roster_text", "part", "action", "spec", "__submitted", "rules", "joker", "rolls_left"}
    | {f"die{i}" for i in range(1, 7)}
    | {"Einser", "Kniffel", "nope", "__class__", "", "a" * 300}
)
POSTS = [
    *(f"/{page}" for page in PAGES),
    *(f"/api/preview/{page}" for page in PAGES),
    *(f"/download/{page}" for page in PAGES),
    "/", "/coach", "/api/coach", "/api/preview/nope", "/download/nope",
]  # fmt: skip
GETS = ["/", *(f"/{page}" for page in PAGES), "/coach", "/playtest", "/api/playtest/state",
        "/api/playtest/report", "/static/app.js", "/static/../pyproject.toml", "/favicon.ico",
        "/nope?lang=xx", "/?lang=" + "x" * 500]  # fmt: skip
ROSTER = "\n".join(NAMES).encode()


def _value(name: str, rng: random.Random) -> str:
    if name in BY_NAME and rng.random() < 0.5:
        return rng.choice(BY_NAME[name])
    if name in WORKSHEET and rng.random() < 0.4:
        return WORKSHEET[name]
    pool = rng.choice([TEXTS, INTS, FORMAT_CHARS, ["1", "on", "", "de", "en", "both", "key"]])
    return rng.choice(pool)


def request_args(rng: random.Random) -> tuple[str, str, dict]:
    """(method, path, keyword arguments of the test client) of one random request."""
    if rng.random() < 0.15:
        return "GET", rng.choice(GETS), {}
    path = rng.choice(POSTS)
    data = dict(WORKSHEET) if rng.random() < 0.3 else {}
    for name in rng.sample(FIELDS, rng.randrange(1, 9)):
        data[name] = _value(name, rng)
    kwargs: dict = {"data": data}
    if rng.random() < 0.2:
        roster = mutated(ROSTER, rng) if rng.random() < 0.7 else ROSTER
        name = rng.choice(["k.txt", "../../k.csv", "\u202ek.txt", ""])
        kwargs["files"] = {rng.choice(["roster_file", "nope"]): (name, roster, "text/plain")}
    if rng.random() < 0.1:
        kwargs["headers"] = {"accept-language": rng.choice(["de", "en", "xx", "*;q=x", ""])}
    return "POST", path, kwargs


def _threads() -> int:
    return 2 * jobs()  # clients waiting on the server's build workers, not on the processor


def _error_findings(caplog) -> list[str]:
    """What the server logged as an error (a traceback is one): each a finding."""
    records = [r for r in caplog.records if r.levelno >= logging.ERROR]
    return [f"logged: {r.getMessage()[:1500]}" for r in records]


def web_campaign(url: str, count: int, seed: int, caplog) -> Outcome:
    """`count` seeded requests from a few clients at once, against one live server."""
    rng = random.Random(seed)
    cases = [request_args(rng) for _ in range(count)]
    local = threading.local()
    caplog.clear()

    def check(case: tuple[str, str, dict]) -> int:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=url, timeout=300)
        method, path, kwargs = case
        response = local.client.request(method, path, **kwargs)
        assert response.status_code < 500 or response.status_code == 503, (
            method, path, kwargs, response.text[-1500:],
        )  # fmt: skip
        assert "Traceback" not in response.text, (path, kwargs)
        return response.status_code

    outcome = run_threads("fuzz web requests", cases, check, _threads())
    outcome.findings += _error_findings(caplog)
    return outcome


def run_threads(name: str, cases: list, check, threads: int) -> Outcome:
    """Each case through `check` on one of `threads` threads (what a failed check raised is
    a finding naming its case)."""
    outcome = Outcome(name)
    started = time.monotonic()

    def one(index: int) -> tuple[object, str | None]:
        try:
            return check(cases[index]), None
        except Exception as exc:
            return type(exc).__name__, f"case {index}: {cases[index]!r:.1500}\n{exc!r:.3000}"

    with ThreadPoolExecutor(threads) as pool:
        for key, finding in pool.map(one, range(len(cases))):
            outcome.tried += 1
            outcome.keys[key] += 1
            if finding is not None:
                outcome.findings.append(finding)
            if outcome.tried % max(1, len(cases) // 10) == 0:  # (seen with pytest -s)
                print(f"{name}: {outcome.tried} of {len(cases)}", flush=True)
    outcome.seconds = time.monotonic() - started
    return outcome


@pytest.fixture(scope="module")
def server():
    """One live server for the module's campaigns, as `dicesheets serve` runs it."""
    # (as many build workers as the campaign has jobs: the requests wait on them)
    app = create_app(Settings(workers=jobs(), time_limit=20, body_timeout=1.0))
    with live_server(app, header_timeout=1.0) as url:
        yield url


def test_fuzz_web(server, caplog) -> None:
    outcome = web_campaign(server, 40, seed=25, caplog=caplog)
    outcome.check()
    codes = outcome.keys
    assert codes[200] > 0 and sum(n for c, n in codes.items() if 400 <= c < 500) > 0


@pytest.mark.stress
def test_fuzz_web_long(server, caplog) -> None:
    web_campaign(server, setting("FUZZ_REQUESTS", 3000), seed(), caplog).check()


# --- clients that misbehave on the socket ---------------------------------------------------

HEAD = (
    b"POST /api/preview/worksheet HTTP/1.1\r\nHost: x\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
)
KINDS = ["half-head", "half-body", "slow-head", "slow-body", "stopped-body", "junk", "whole"]


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def _trickle(sock: socket.socket, data: bytes) -> bool:
    """Send `data` a byte every 0.1 s; False once the server has closed the connection."""
    for byte in data:
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            return False
        time.sleep(0.1)
    return True


def _client(port: int, case: tuple[str, int]) -> str:
    """One misbehaving client (the server's timeouts are 1 s); its kind when all held."""
    kind, seed = case
    rng = random.Random(seed)
    # (a bound far past the timeouts: a connection the server keeps open fails the case)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        if kind == "half-head":  # and leave
            sock.sendall(HEAD[: rng.randrange(1, len(HEAD) - 4)])
        elif kind == "half-body":
            sock.sendall(HEAD + b"family=koepfchen&level=2"[: rng.randrange(1, 24)])
        elif kind == "slow-head":  # slower than the header timeout: the server closes it
            _trickle(sock, HEAD[:40])
            got = _read_all(sock)
            assert got == b"" or got.startswith(b"HTTP/1.1 4"), got[:200]
        elif kind in ("slow-body", "stopped-body"):  # past the body timeout: 408 and closed
            sock.sendall(HEAD + b"family=koepfchen&level=2"[: rng.randrange(1, 24)])
            if kind == "slow-body":
                _trickle(sock, b"&versions=1&problems=4&seed=1"[: rng.randrange(15, 29)])
            got = _read_all(sock)
            assert got.startswith(b"HTTP/1.1 408"), got[:200]
            assert b"content-security-policy" in got.lower(), got[:600]
        elif kind == "junk":
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
            sock.sendall(junk + b"\r\n\r\n")
            sock.shutdown(socket.SHUT_WR)
            got = _read_all(sock)
            if got:
                assert got.startswith(b"HTTP/1.1 400"), got[:200]
                assert b"content-security-policy" in got.lower(), got[:600]
        else:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            sock.shutdown(socket.SHUT_WR)
            got = _read_all(sock)
            assert got.startswith(b"HTTP/1.1 200"), got[:200]
    return kind


def client_campaign(url: str, count: int, seed: int, caplog) -> Outcome:
    """`count` misbehaving clients, many at once, against one live server."""
    caplog.set_level(logging.INFO)
    caplog.clear()
    port = int(url.rsplit(":", 1)[1])
    cases = [(KINDS[i % len(KINDS)], seed * 100_003 + i) for i in range(count)]
    outcome = run_threads("fuzz clients", cases, lambda case: _client(port, case), 16)
    time.sleep(0.5)
    assert _client(port, ("whole", 0)) == "whole"  # still serving
    outcome.findings += _error_findings(caplog)
    outcome.findings += [f"logged: {m}" for r in caplog.records if " 500 " in (m := r.getMessage())]
    return outcome


def test_fuzz_clients(server, caplog) -> None:
    client_campaign(server, 14, seed=25, caplog=caplog).check()


@pytest.mark.stress
def test_fuzz_clients_long(server, caplog) -> None:
    client_campaign(server, setting("FUZZ_CLIENTS", 700), seed(), caplog).check()


def test_the_fields_cover_every_form() -> None:
    """A new option of any command reaches the campaign without changes here."""
    for page in PAGES.values():
        assert {f.name for f in page.form(Catalog.default()).fields} <= set(FIELDS)
