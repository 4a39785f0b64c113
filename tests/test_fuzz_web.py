"""Seeded fuzzing of the web page (issue 25): every field of every form, posted to every page.

Requests: a random page and endpoint (the form, the preview, the download, the coach,
the playtest page), a random handful of fields drawn from every form's fields, the
class-list fields and unknown names, with values from the CLI fuzzer's pools (hostile
texts, invisible format characters, non-ASCII digits), as a plain form or multipart
with a mutated class list. Each answer must be below 500 (a 503 of a busy pool is
fine), and no request may log an error. Clients that misbehave on the socket — leave
mid-head or mid-body, trickle their head, send junk — are run against real uvicorn as
`dicesheets serve` runs it: each connection ends, the server keeps answering, nothing
is logged as an error or a 500. The default run is a sample; `pytest -m stress` runs
FUZZ_REQUESTS requests and FUZZ_CLIENTS clients.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import time
from collections import Counter

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from generator.io.catalog import Catalog
from generator.web.app import Settings, create_app
from generator.web.pages import PAGES
from tests.fuzzgen import BY_NAME, FORMAT_CHARS, INTS, TEXTS, mutated
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


def web_campaign(client: TestClient, count: int, seed: int, caplog) -> Counter:
    rng = random.Random(seed)
    codes: Counter = Counter()
    for _ in range(count):
        method, path, kwargs = request_args(rng)
        caplog.clear()
        response = client.request(method, path, **kwargs)
        codes[response.status_code] += 1
        assert response.status_code < 500 or response.status_code == 503, (
            method, path, kwargs, response.text[-1500:],
        )  # fmt: skip
        assert "Traceback" not in response.text, (path, kwargs)
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, (path, kwargs, errors)
    print(f"fuzz web: {count} requests, status codes {dict(sorted(codes.items()))}")
    return codes


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings(workers=1, time_limit=20))) as c:
        yield c


def test_fuzz_web(client, caplog) -> None:
    codes = web_campaign(client, 40, seed=25, caplog=caplog)
    assert codes[200] > 0 and sum(n for c, n in codes.items() if 400 <= c < 500) > 0


@pytest.mark.stress
def test_fuzz_web_long(client, caplog) -> None:
    seed = int(os.environ.get("FUZZ_SEED", "2026"))
    web_campaign(client, int(os.environ.get("FUZZ_REQUESTS", "3000")), seed, caplog)


# --- clients that misbehave on the socket ---------------------------------------------------

HEAD = (
    b"POST /api/preview/worksheet HTTP/1.1\r\nHost: x\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
)
KINDS = ["half-head", "half-body", "trickle", "junk", "whole"]


def _client(port: int, kind: str, rng: random.Random) -> bytes:
    """One misbehaving client; what the server sent before the connection ended."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        if kind == "half-head":
            sock.sendall(HEAD[: rng.randrange(1, len(HEAD) - 4)])
            return b""  # and leave
        if kind == "half-body":
            sock.sendall(HEAD + b"family=koepfchen&level=2"[: rng.randrange(1, 24)])
            return b""
        if kind == "trickle":  # slower than the header timeout: the server closes it
            got = b""
            for byte in HEAD[:40]:
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(0.1)
            sock.settimeout(60)
            try:
                got = sock.recv(100)
            except ConnectionResetError:
                got = b""
            assert got == b"" or got.startswith(b"HTTP/1.1 4"), got
            return got
        if kind == "junk":
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
            sock.sendall(junk + b"\r\n\r\n")
        else:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def client_campaign(count: int, seed: int, caplog) -> Counter:
    caplog.set_level(logging.INFO)
    rng = random.Random(seed)
    kinds: Counter = Counter()
    with live_server(create_app(Settings(workers=1)), header_timeout=1.0) as url:
        port = int(url.rsplit(":", 1)[1])
        for i in range(count):
            kind = KINDS[i % len(KINDS)]
            answer = _client(port, kind, rng)
            kinds[kind] += 1
            if kind == "whole":
                assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            elif kind == "junk" and answer:
                assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
                assert b"content-security-policy" in answer.lower(), answer[:600]
        time.sleep(0.5)
        assert _client(port, "whole", rng).startswith(b"HTTP/1.1 200")  # still serving
    logged = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], logged[-20:]
    assert not any(" 500 " in m for m in logged), logged[-20:]
    print(f"fuzz clients: {count} connections, {dict(sorted(kinds.items()))}")
    return kinds


def test_fuzz_clients(caplog) -> None:
    client_campaign(10, seed=25, caplog=caplog)


@pytest.mark.stress
def test_fuzz_clients_long(caplog) -> None:
    seed = int(os.environ.get("FUZZ_SEED", "2026"))
    client_campaign(int(os.environ.get("FUZZ_CLIENTS", "300")), seed, caplog)


def test_the_fields_cover_every_form() -> None:
    """A new option of any command reaches the campaign without changes here."""
    for page in PAGES.values():
        assert {f.name for f in page.form(Catalog.default()).fields} <= set(FIELDS)
